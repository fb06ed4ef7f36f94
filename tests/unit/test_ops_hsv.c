/* hsv: DALI's linear approximation in YIQ (hue rotates I/Q, saturation scales them, value
 * scales everything), UINT8 output by default. Expected values are worked out by hand with the
 * exact inverse of DALI's RGB->YIQ matrix, whose first column is (0.99966, 0.99962, 1.00281):
 * for (200, 100, 50), Y = 0.299*200 + 0.587*100 + 0.114*50 = 124.2. */
#include "tests/testlib/oneop.h"

TestSuite(ops_hsv, .timeout = 20);

static const int64_t ops_hsv_px[3] = {1, 1, 3};
static const uint8_t ops_hsv_rgb[3] = {200, 100, 50};

/* hsv on one (200, 100, 50) pixel with the given factors; returns the output batch. */
static const dalic_batch_t *ops_hsv_run1(tl_oneop_t *t, double hue, double sat, double val)
{
	*t = tl_oneop("hsv", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t->op, "hue", hue));
	ASSERT_OK(dalic_op_set_float(t->op, "saturation", sat));
	ASSERT_OK(dalic_op_set_float(t->op, "value", val));
	tl_oneop_feed_u8(t, "in", 1, 3, ops_hsv_px, ops_hsv_rgb, "HWC");
	return tl_run(t->p, 0);
}

Test(ops_hsv, value_scales_all_channels)
{
	tl_oneop_t t;
	const dalic_batch_t *out = ops_hsv_run1(&t, 0, 1, 0.5);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_UINT8);
	cr_expect_str_eq(dalic_batch_layout(out), "HWC");
	tl_expect_values(out, 0, 3, (double[]){100, 50, 25});
	dalic_pipeline_destroy(t.p);
}

Test(ops_hsv, saturation_zero_is_grey)
{
	/* Y * first column: 124.158, 124.153, 124.549 */
	tl_oneop_t t;
	const dalic_batch_t *out = ops_hsv_run1(&t, 0, 0, 1);
	tl_expect_values(out, 0, 3, (double[]){124, 124, 125});
	dalic_pipeline_destroy(t.p);
}

Test(ops_hsv, hue_half_turn_mirrors_around_grey)
{
	/* I, Q -> -I, -Q: out = 2 * Y * column - in = (48.32, 148.31, 199.10) */
	tl_oneop_t t;
	const dalic_batch_t *out = ops_hsv_run1(&t, 180, 1, 1);
	tl_expect_values(out, 0, 3, (double[]){48, 148, 199});
	dalic_pipeline_destroy(t.p);
	out = ops_hsv_run1(&t, 360, 1, 1); /* a full turn: unchanged */
	tl_expect_values(out, 0, 3, (double[]){200, 100, 50});
	dalic_pipeline_destroy(t.p);
}

Test(ops_hsv, float_input_still_gives_uint8_by_default)
{
	tl_oneop_t t = tl_oneop("hsv", 1, 1, NULL);
	const float f[3] = {0.2f, 0.4f, 0.6f};
	tl_oneop_feed_f32(&t, "in", 1, 3, ops_hsv_px, f, "HWC");
	const dalic_batch_t *out = tl_run(t.p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_UINT8);
	tl_expect_values(out, 0, 3, (double[]){0, 0, 1});
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("hsv", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_FLOAT));
	ASSERT_OK(dalic_op_set_float(t.op, "value", 2.0));
	tl_oneop_feed_f32(&t, "in", 1, 3, ops_hsv_px, f, "HWC");
	out = tl_run(t.p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	for (int k = 0; k < 3; k++)
		cr_expect_float_eq(tl_at(out, 0, k), 2 * f[k], 1e-5);
	dalic_pipeline_destroy(t.p);
}

Test(ops_hsv, per_sample_value_from_an_argument_input)
{
	tl_oneop_t t = tl_oneop("hsv", 2, 1, (const char *[]){"value", NULL});
	const uint8_t two[6] = {200, 100, 50, 200, 100, 50};
	tl_oneop_feed_u8(&t, "in", 2, 3, ops_hsv_px, two, "HWC");
	tl_oneop_feed_scalars(&t, "value", 2, (const float[]){0.5f, 2.0f});
	const dalic_batch_t *out = tl_run(t.p, 0);
	tl_expect_values(out, 0, 3, (double[]){100, 50, 25});
	tl_expect_values(out, 1, 3, (double[]){255, 200, 100});
	dalic_pipeline_destroy(t.p);
}

Test(ops_hsv, sequences_are_frames_of_rows)
{
	tl_oneop_t t = tl_oneop("hsv", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t.op, "value", 0.5));
	const uint8_t fr[6] = {200, 100, 50, 10, 20, 30};
	tl_oneop_feed_u8(&t, "in", 1, 4, (const int64_t[]){2, 1, 1, 3}, fr, "FHWC");
	const dalic_batch_t *out = tl_run(t.p, 0);
	tl_expect_shape(out, 0, 4, (const int64_t[]){2, 1, 1, 3});
	tl_expect_values(out, 0, 6, (double[]){100, 50, 25, 5, 10, 15});
	dalic_pipeline_destroy(t.p);
}

Test(ops_hsv, refuses_what_dali_refuses)
{
	tl_oneop_t t = tl_oneop("hsv", 1, 1, NULL);
	const uint8_t chw[3] = {1, 2, 3};
	tl_oneop_feed_u8(&t, "in", 1, 3, (const int64_t[]){3, 1, 1}, chw, "CHW");
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "does not match any of the allowed layouts");
	EXPECT_ERROR_HAS("operator '__Hsv_1' (Hsv)");
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("hsv", 1, 1, NULL);
	const uint8_t four[4] = {1, 2, 3, 4};
	tl_oneop_feed_u8(&t, "in", 1, 3, (const int64_t[]){1, 1, 4}, four, "HWC");
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "4 channels");
	EXPECT_ERROR_HAS("sample 0");
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("hsv", 1, 1, NULL);
	const int8_t s8[3] = {1, 2, 3};
	tl_feed(t.p, "in", DALIC_INT8, 3, 1, ops_hsv_px, s8, "HWC");
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "Unsupported input type: int8");
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("hsv", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_FLOAT64));
	tl_oneop_feed_u8(&t, "in", 1, 3, ops_hsv_px, ops_hsv_rgb, "HWC");
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "Unsupported output type: double");
	dalic_pipeline_destroy(t.p);
}
