/* brightness_contrast: out = shift * range(out) + b * (c0 + c * (in - c0)), c0 = half the input
 * type's range unless contrast_center is given; integers round half away from zero and
 * saturate. Values worked out by hand from the formula. */
#include "tests/testlib/oneop.h"

TestSuite(ops_brightness_contrast, .timeout = 20);

static const int64_t ops_bc_px[3] = {1, 1, 3};
static const uint8_t ops_bc_u8[3] = {0, 100, 255};

/* A brightness_contrast on one input; the caller sets arguments and feeds it. */
static tl_oneop_t ops_bc_make(void)
{
	return tl_oneop("brightness_contrast", 1, 1, NULL);
}

Test(ops_brightness_contrast, uint8_contrast_and_shift)
{
	tl_oneop_t t = ops_bc_make();
	ASSERT_OK(dalic_op_set_float(t.op, "contrast", 1.5));
	ASSERT_OK(dalic_op_set_float(t.op, "brightness_shift", 0.1));
	tl_oneop_feed_u8(&t, "in", 1, 3, ops_bc_px, ops_bc_u8, "HWC");
	/* 25.5 + 128 + 1.5 * (in - 128): -38.5, 111.5 (rounds up), 344 */
	tl_expect_values(tl_run(t.p, 0), 0, 3, (double[]){0, 112, 255});
	dalic_pipeline_destroy(t.p);
}

Test(ops_brightness_contrast, halves_round_away_from_zero)
{
	tl_oneop_t t = ops_bc_make();
	ASSERT_OK(dalic_op_set_float(t.op, "brightness", 0.5));
	const uint8_t odd[3] = {1, 3, 5};
	tl_oneop_feed_u8(&t, "in", 1, 3, ops_bc_px, odd, "HWC");
	tl_expect_values(tl_run(t.p, 0), 0, 3, (double[]){1, 2, 3});
	dalic_pipeline_destroy(t.p);

	t = ops_bc_make(); /* int16: center 16384; -7809.5 rounds to -7810 */
	ASSERT_OK(dalic_op_set_float(t.op, "contrast", 1.5));
	const int16_t s[3] = {0, 100, 255};
	tl_feed(t.p, "in", DALIC_INT16, 3, 1, ops_bc_px, s, "HWC");
	const dalic_batch_t *out = tl_run(t.p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_INT16);
	tl_expect_values(out, 0, 3, (double[]){-8192, -8042, -7810});
	dalic_pipeline_destroy(t.p);
}

Test(ops_brightness_contrast, output_types_and_ranges)
{
	tl_oneop_t t = ops_bc_make();
	ASSERT_OK(dalic_op_set_float(t.op, "contrast", 1.5));
	ASSERT_OK(dalic_op_set_float(t.op, "brightness_shift", 0.1));
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_FLOAT));
	tl_oneop_feed_u8(&t, "in", 1, 3, ops_bc_px, ops_bc_u8, "HWC");
	const dalic_batch_t *out = tl_run(t.p, 0);
	const double want[3] = {-63.9, 86.1, 318.6}; /* 0.1 * 1 - 64 + 1.5 * in */
	for (int k = 0; k < 3; k++)
		cr_expect_float_eq(tl_at(out, 0, k), want[k], 1e-4);
	dalic_pipeline_destroy(t.p);

	t = ops_bc_make(); /* int32: 0.1f * 2^31 = 214748368 in float, then - 64 */
	ASSERT_OK(dalic_op_set_float(t.op, "contrast", 1.5));
	ASSERT_OK(dalic_op_set_float(t.op, "brightness_shift", 0.1));
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_INT32));
	tl_oneop_feed_u8(&t, "in", 1, 3, ops_bc_px, ops_bc_u8, "HWC");
	cr_expect_eq(tl_at(tl_run(t.p, 0), 0, 0), 214748304);
	dalic_pipeline_destroy(t.p);
}

Test(ops_brightness_contrast, given_center_and_per_sample_contrast)
{
	tl_oneop_t t = tl_oneop("brightness_contrast", 2, 1, (const char *[]){"contrast", NULL});
	ASSERT_OK(dalic_op_set_float(t.op, "contrast_center", 10));
	const uint8_t two[6] = {0, 100, 255, 0, 100, 255};
	tl_oneop_feed_u8(&t, "in", 2, 3, ops_bc_px, two, "HWC");
	tl_oneop_feed_scalars(&t, "contrast", 2, (const float[]){0.5f, 0.0f});
	const dalic_batch_t *out = tl_run(t.p, 0);
	tl_expect_values(out, 0, 3, (double[]){5, 55, 133}); /* 10 + (in - 10) / 2; 132.5 up */
	tl_expect_values(out, 1, 3, (double[]){10, 10, 10});
	dalic_pipeline_destroy(t.p);
}

Test(ops_brightness_contrast, any_channel_count_but_only_dali_types)
{
	tl_oneop_t t = ops_bc_make();
	ASSERT_OK(dalic_op_set_float(t.op, "brightness", 2));
	const uint8_t five[5] = {1, 2, 3, 4, 200};
	tl_oneop_feed_u8(&t, "in", 1, 3, (const int64_t[]){1, 1, 5}, five, "HWC");
	tl_expect_values(tl_run(t.p, 0), 0, 5, (double[]){2, 4, 6, 8, 255});
	dalic_pipeline_destroy(t.p);

	t = ops_bc_make();
	const uint16_t u16[3] = {1, 2, 3};
	tl_feed(t.p, "in", DALIC_UINT16, 3, 1, ops_bc_px, u16, "HWC");
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "Unsupported input type: uint16");
	EXPECT_ERROR_HAS("(BrightnessContrast)");
	dalic_pipeline_destroy(t.p);

	t = ops_bc_make();
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_FLOAT16));
	tl_oneop_feed_u8(&t, "in", 1, 3, ops_bc_px, ops_bc_u8, "HWC");
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "Unsupported output type: float16");
	dalic_pipeline_destroy(t.p);
}
