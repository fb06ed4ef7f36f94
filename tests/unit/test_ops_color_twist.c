/* color_twist: brightness and contrast scale DALI's YIQ matrix, the offset
 * (half - half * contrast) * brightness keeps the grey level (128 for integer inputs, 0.5 for
 * float ones). Expected values by hand: the matrix without hue/saturation is the identity up
 * to float rounding (~1e-7), so out = brightness * (contrast * in + half * (1 - contrast)). */
#include "tests/testlib/oneop.h"

TestSuite(ops_color_twist, .timeout = 20);

static const int64_t ops_color_twist_px[3] = {1, 1, 3};
static const uint8_t ops_color_twist_rgb[3] = {200, 100, 50};

static const dalic_batch_t *ops_color_twist_u8(tl_oneop_t *t, double contrast, double brightness)
{
	*t = tl_oneop("color_twist", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t->op, "contrast", contrast));
	ASSERT_OK(dalic_op_set_float(t->op, "brightness", brightness));
	tl_oneop_feed_u8(t, "in", 1, 3, ops_color_twist_px, ops_color_twist_rgb, "HWC");
	return tl_run(t->p, 0);
}

Test(ops_color_twist, contrast_pivots_around_128_for_integers)
{
	tl_oneop_t t;
	const dalic_batch_t *out = ops_color_twist_u8(&t, 0, 1); /* uniform grey */
	cr_expect_eq(dalic_batch_dtype(out), DALIC_UINT8);
	tl_expect_values(out, 0, 3, (double[]){128, 128, 128});
	dalic_pipeline_destroy(t.p);
	out = ops_color_twist_u8(&t, 0.5, 2); /* in + 128, saturated */
	tl_expect_values(out, 0, 3, (double[]){255, 228, 178});
	dalic_pipeline_destroy(t.p);
	out = ops_color_twist_u8(&t, 1, 0); /* black */
	tl_expect_values(out, 0, 3, (double[]){0, 0, 0});
	dalic_pipeline_destroy(t.p);
}

Test(ops_color_twist, float_images_pivot_around_half)
{
	tl_oneop_t t = tl_oneop("color_twist", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t.op, "contrast", 2.0));
	const float f[3] = {0.5f, 0.25f, 1.0f};
	tl_oneop_feed_f32(&t, "in", 1, 3, ops_color_twist_px, f, "HWC");
	const dalic_batch_t *out = tl_run(t.p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	const double want[3] = {0.5, 0.0, 1.5}; /* 2 * in - 0.5 */
	for (int k = 0; k < 3; k++)
		cr_expect_float_eq(tl_at(out, 0, k), want[k], 1e-6, "channel %d", k);
	dalic_pipeline_destroy(t.p);
}

Test(ops_color_twist, int16_and_float16_outputs)
{
	tl_oneop_t t = tl_oneop("color_twist", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t.op, "brightness", 200.0));
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_INT16));
	tl_oneop_feed_u8(&t, "in", 1, 3, ops_color_twist_px, ops_color_twist_rgb, "HWC");
	const dalic_batch_t *out = tl_run(t.p, 0);
	tl_expect_values(out, 0, 3, (double[]){32767, 20000, 10000});
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("color_twist", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_FLOAT16));
	ASSERT_OK(dalic_op_set_float(t.op, "brightness", 0.5));
	tl_oneop_feed_u8(&t, "in", 1, 3, ops_color_twist_px, ops_color_twist_rgb, "HWC");
	out = tl_run(t.p, 0);
	tl_expect_values(out, 0, 3, (double[]){100, 50, 25});
	dalic_pipeline_destroy(t.p);
}

Test(ops_color_twist, per_sample_contrast)
{
	tl_oneop_t t = tl_oneop("color_twist", 2, 1, (const char *[]){"contrast", NULL});
	const uint8_t two[6] = {200, 100, 50, 200, 100, 50};
	tl_oneop_feed_u8(&t, "in", 2, 3, ops_color_twist_px, two, "HWC");
	tl_oneop_feed_scalars(&t, "contrast", 2, (const float[]){0.0f, 1.0f});
	const dalic_batch_t *out = tl_run(t.p, 0);
	tl_expect_values(out, 0, 3, (double[]){128, 128, 128});
	tl_expect_values(out, 1, 3, (double[]){200, 100, 50});
	dalic_pipeline_destroy(t.p);
}

Test(ops_color_twist, an_argument_input_must_be_one_value_per_sample)
{
	tl_oneop_t t = tl_oneop("color_twist", 1, 1, (const char *[]){"hue", NULL});
	tl_oneop_feed_u8(&t, "in", 1, 3, ops_color_twist_px, ops_color_twist_rgb, "HWC");
	tl_feed(t.p, "hue", DALIC_FLOAT, 1, 1, (const int64_t[]){2}, (const float[]){1, 2}, NULL);
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "`hue` must be a 1xN or Nx1 (N = 1) tensor list");
	dalic_pipeline_destroy(t.p);
}
