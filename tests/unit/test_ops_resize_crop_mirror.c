/* resize_crop_mirror: crops and flips computed by hand on a position image (no scaling, NN),
 * a downscale by 2 then a crop, DALI's mirror bits in CHW, FastResizeCropMirror's antialias
 * default, and the argument errors. */
#include "tests/testlib.h"

TestSuite(ops_resize_crop_mirror, .timeout = 20);

/* uint8 H x W x 1: pixel (y, x) = 10 y + x */
static const uint8_t *ops_resize_crop_mirror_image(void)
{
	static uint8_t img[4 * 6];
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 6; x++)
			img[y * 6 + x] = (uint8_t)(10 * y + x);
	return img;
}

static dalic_op_t *ops_resize_crop_mirror_op(dalic_pipeline_t *p, const char *name, int mirror)
{
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, name);
	ASSERT_OK(dalic_op_set_name(op, "rcm"));
	tl_input(op, "in");
	ASSERT_OK(dalic_op_set_floats(op, "crop", 2, (double[]){2, 3}));
	ASSERT_OK(dalic_op_set_int(op, "mirror", mirror));
	ASSERT_OK(dalic_op_set_int(op, "interp_type", DALIC_INTERP_NN));
	tl_output(p, op);
	return op;
}

Test(ops_resize_crop_mirror, crop_and_flips_without_scaling)
{
	/* 4x6 kept; crop 2x3 at anchor round(0.5 * 2) = 1, round(0.5 * 3) = 2 */
	const double want[4][6] = {
	    {12, 13, 14, 22, 23, 24}, /* mirror 0 */
	    {14, 13, 12, 24, 23, 22}, /* 1: horizontal */
	    {22, 23, 24, 12, 13, 14}, /* 2: vertical */
	    {24, 23, 22, 14, 13, 12}, /* 3: both */
	};
	for (int m = 0; m < 4; m++) {
		dalic_pipeline_t *p = tl_pipeline(1);
		dalic_op_t *op = ops_resize_crop_mirror_op(p, "resize_crop_mirror", m);
		ASSERT_OK(dalic_op_set_float(op, "resize_x", 6));
		ASSERT_OK(dalic_op_set_float(op, "resize_y", 4));
		tl_feed(p, "in", DALIC_UINT8, 3, 1, (int64_t[]){4, 6, 1},
		        ops_resize_crop_mirror_image(), "HWC");
		const dalic_batch_t *out = tl_run(p, 0);
		tl_expect_shape(out, 0, 3, (int64_t[]){2, 3, 1});
		tl_expect_values(out, 0, 6, want[m]);
		dalic_pipeline_destroy(p);
	}
}

Test(ops_resize_crop_mirror, downscale_then_crop)
{
	/* 4x6 -> 2x3 with NN: output x samples (x + 0.5) * 2 = 2x + 1, pixel 2x + 1 (columns 1,
	 * 3, 5; rows 1, 3); the 2x3 crop is everything, flipped horizontally */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_resize_crop_mirror_op(p, "resize_crop_mirror", 1);
	ASSERT_OK(dalic_op_set_float(op, "resize_x", 3));
	ASSERT_OK(dalic_op_set_float(op, "resize_y", 2));
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (int64_t[]){4, 6, 1}, ops_resize_crop_mirror_image(),
	        "HWC");
	tl_expect_values(tl_run(p, 0), 0, 6, (double[]){15, 13, 11, 35, 33, 31});
	dalic_pipeline_destroy(p);
}

Test(ops_resize_crop_mirror, chw_mirror_one_flips_rows)
{
	/* DALI takes the bit of H as 1 << (1 - 1) when H is the second dim: mirror 1 flips H */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_resize_crop_mirror_op(p, "resize_crop_mirror", 1);
	ASSERT_OK(dalic_op_set_float(op, "resize_x", 6));
	ASSERT_OK(dalic_op_set_float(op, "resize_y", 4));
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (int64_t[]){1, 4, 6}, ops_resize_crop_mirror_image(),
	        "CHW");
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 3, (int64_t[]){1, 2, 3});
	tl_expect_values(out, 0, 6, (double[]){22, 23, 24, 12, 13, 14});
	dalic_pipeline_destroy(p);
}

Test(ops_resize_crop_mirror, fast_variant_has_antialias_off)
{
	/* a linear downscale by 3: FastResizeCropMirror equals resize_crop_mirror with
	 * antialias=False, and not the default (antialiased) one */
	static uint8_t big[12 * 12];
	for (int k = 0; k < 144; k++)
		big[k] = (uint8_t)((k * 37) % 251);
	const char *names[3] = {"fast_resize_crop_mirror", "resize_crop_mirror",
	                        "resize_crop_mirror"};
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "in");
	for (int k = 0; k < 3; k++) {
		dalic_op_t *op = tl_op(p, names[k]);
		tl_input(op, "in");
		ASSERT_OK(dalic_op_set_floats(op, "size", 2, (double[]){4, 4}));
		ASSERT_OK(dalic_op_set_floats(op, "crop", 2, (double[]){4, 4}));
		if (k == 1)
			ASSERT_OK(dalic_op_set_bool(op, "antialias", false));
		tl_output(p, op);
	}
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (int64_t[]){12, 12, 1}, big, "HWC");
	ASSERT_OK(dalic_pipeline_run(p));
	tl_expect_same_batch(dalic_pipeline_output(p, 0), dalic_pipeline_output(p, 1), "fast");
	cr_expect(memcmp(dalic_batch_data(dalic_pipeline_output(p, 0), 0),
	                 dalic_batch_data(dalic_pipeline_output(p, 2), 0), 16),
	          "antialiasing should change a downscale by 3");
	dalic_pipeline_destroy(p);
}

Test(ops_resize_crop_mirror, argument_errors)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_resize_crop_mirror_op(p, "resize_crop_mirror", 0);
	ASSERT_OK(dalic_op_set_float(op, "resize_x", 6));
	ASSERT_OK(dalic_op_set_float(op, "crop_pos_x", 1.5));
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (int64_t[]){4, 6, 1}, ops_resize_crop_mirror_image(),
	        "HWC");
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "out of range [0.0, 1.0]");
	EXPECT_ERROR_HAS("'rcm'");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_resize_crop_mirror_op(p, "resize_crop_mirror", 0);
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (int64_t[]){4, 6, 1}, ops_resize_crop_mirror_image(),
	        "HWC");
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Exactly one method of specifying size");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_resize_crop_mirror_op(p, "resize_crop_mirror", 0);
	ASSERT_OK(dalic_op_set_string(op, "rounding", "floor"));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("``rounding`` value floor is not supported");
	dalic_pipeline_destroy(p);
}
