/* warp_affine on small images whose pixels encode their position: the identity, a rotation by
 * 90°, shifts with clamped and filled borders, a scale by 2 (bilinear averages by hand),
 * inverse_map, the transforms input, per-sample matrices and sizes, float output, volumes
 * (DHWC) and sequences (FHWC), and DALI's argument errors. */
#include "tests/testlib.h"

TestSuite(ops_warp_affine, .timeout = 20);

/* A 1-channel uint8 H x W image: pixel (y, x) = 10 * y + x. */
static uint8_t *ops_warp_affine_image(int H, int W)
{
	uint8_t *p = malloc((size_t)H * W);
	cr_assert_not_null(p);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			p[y * W + x] = (uint8_t)(10 * y + x);
	return p;
}

/* external_source "in" -> warp_affine ("wa") -> output 0. */
static dalic_op_t *ops_warp_affine_op(dalic_pipeline_t *p, const double *matrix)
{
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "warp_affine");
	ASSERT_OK(dalic_op_set_name(op, "wa"));
	tl_input(op, "in");
	if (matrix)
		ASSERT_OK(dalic_op_set_floats(op, "matrix", 6, matrix));
	tl_output(p, op);
	return op;
}

static const dalic_batch_t *ops_warp_affine_run(dalic_pipeline_t *p, const uint8_t *img, int H,
                                                int W)
{
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (int64_t[]){H, W, 1}, img, "HWC");
	return tl_run(p, 0);
}

Test(ops_warp_affine, identity_keeps_the_image)
{
	uint8_t *img = ops_warp_affine_image(3, 4);
	for (int nn = 0; nn < 2; nn++) {
		dalic_pipeline_t *p = tl_pipeline(1);
		dalic_op_t *op = ops_warp_affine_op(p, (double[]){1, 0, 0, 0, 1, 0});
		if (nn)
			ASSERT_OK(dalic_op_set_int(op, "interp_type", DALIC_INTERP_NN));
		const dalic_batch_t *out = ops_warp_affine_run(p, img, 3, 4);
		tl_expect_shape(out, 0, 3, (int64_t[]){3, 4, 1});
		cr_expect_str_eq(dalic_batch_layout(out), "HWC");
		double want[12];
		for (int k = 0; k < 12; k++)
			want[k] = img[k];
		tl_expect_values(out, 0, 12, want);
		dalic_pipeline_destroy(p);
	}
	free(img);
}

Test(ops_warp_affine, rotation_by_90_degrees)
{
	/* src = (W - y, x) for the destination point (x, y): out(y, x) = in(x, W - 1 - y), an
	 * H x W image becomes W x H */
	const int H = 3, W = 4;
	uint8_t *img = ops_warp_affine_image(H, W);
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_warp_affine_op(p, (double[]){0, -1, W, 1, 0, 0});
	ASSERT_OK(dalic_op_set_floats(op, "size", 2, (double[]){W, H}));
	const dalic_batch_t *out = ops_warp_affine_run(p, img, H, W);
	tl_expect_shape(out, 0, 3, (int64_t[]){4, 3, 1});
	tl_expect_values(out, 0, 12, (double[]){3, 13, 23, 2, 12, 22, 1, 11, 21, 0, 10, 20});
	dalic_pipeline_destroy(p);
	free(img);
}

Test(ops_warp_affine, shifts_with_clamped_and_filled_borders)
{
	/* src x = x + 1.5 with NN: pixel x + 2 (floor of x + 2), past the right edge: the edge
	 * pixel (clamp) or the fill */
	uint8_t *img = ops_warp_affine_image(2, 4);
	for (int fill = 0; fill < 2; fill++) {
		dalic_pipeline_t *p = tl_pipeline(1);
		dalic_op_t *op = ops_warp_affine_op(p, (double[]){1, 0, 1.5, 0, 1, 0});
		ASSERT_OK(dalic_op_set_int(op, "interp_type", DALIC_INTERP_NN));
		if (fill)
			ASSERT_OK(dalic_op_set_float(op, "fill_value", 99));
		const dalic_batch_t *out = ops_warp_affine_run(p, img, 2, 4);
		double e = fill ? 99 : -1;
		tl_expect_values(out, 0, 8,
		                 (double[]){2, 3, fill ? e : 3, fill ? e : 3, 12, 13, fill ? e : 13,
		                            fill ? e : 13});
		dalic_pipeline_destroy(p);
	}
	/* LINEAR, half a pixel right with a fill of 7: the last column mixes 3 and 7 -> 5 */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_warp_affine_op(p, (double[]){1, 0, 0.5, 0, 1, 0});
	ASSERT_OK(dalic_op_set_float(op, "fill_value", 7));
	tl_expect_values(ops_warp_affine_run(p, img, 2, 4), 0, 8,
	                 (double[]){1 /* 0.5 rounds up */, 2, 3, 5, 11, 12, 13, 10});
	dalic_pipeline_destroy(p);
	free(img);
}

Test(ops_warp_affine, downscale_by_two_averages_blocks)
{
	/* src = 2 dst: the centre (x + 0.5, y + 0.5) maps to (2x + 1, 2y + 1), exactly between
	 * four pixels: their mean. Block (0, 0) of 10y + x: (0 + 1 + 10 + 11) / 4 = 5.5 -> 6 */
	uint8_t *img = ops_warp_affine_image(4, 4);
	for (int inverse = 0; inverse < 2; inverse++) {
		dalic_pipeline_t *p = tl_pipeline(1);
		dalic_op_t *op = ops_warp_affine_op(p, inverse ? (double[]){0.5, 0, 0, 0, 0.5, 0}
		                                               : (double[]){2, 0, 0, 0, 2, 0});
		ASSERT_OK(dalic_op_set_bool(op, "inverse_map", !inverse));
		ASSERT_OK(dalic_op_set_floats(op, "size", 2, (double[]){2, 2}));
		ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_FLOAT));
		const dalic_batch_t *out = ops_warp_affine_run(p, img, 4, 4);
		cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT);
		tl_expect_values(out, 0, 4, (double[]){5.5, 7.5, 25.5, 27.5});
		dalic_pipeline_destroy(p);
	}
	free(img);
}

Test(ops_warp_affine, transforms_input_and_per_sample_sizes)
{
	/* sample 0: identity; sample 1: shift by one pixel left (src x = x + 1), NN; sizes per
	 * sample [1, 2] and [2, 1] */
	uint8_t *img = ops_warp_affine_image(2, 3);
	uint8_t both[12];
	memcpy(both, img, 6);
	memcpy(both + 6, img, 6);
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "in");
	tl_source(p, "mt");
	tl_source(p, "size");
	dalic_op_t *op = tl_op(p, "warp_affine");
	tl_input(op, "in");
	tl_input(op, "mt");
	ASSERT_OK(dalic_op_set_arg_input(op, "size", "size"));
	ASSERT_OK(dalic_op_set_int(op, "interp_type", DALIC_INTERP_NN));
	tl_output(p, op);
	const float mt[12] = {1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0};
	tl_feed(p, "mt", DALIC_FLOAT, 2, 2, (int64_t[]){2, 3, 2, 3}, mt, NULL);
	tl_feed(p, "size", DALIC_INT32, 1, 2, (int64_t[]){2, 2}, (int32_t[]){1, 2, 2, 1}, NULL);
	tl_feed(p, "in", DALIC_UINT8, 3, 2, (int64_t[]){2, 3, 1, 2, 3, 1}, both, "HWC");
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 3, (int64_t[]){1, 2, 1});
	tl_expect_values(out, 0, 2, (double[]){0, 1});
	tl_expect_shape(out, 1, 3, (int64_t[]){2, 1, 1});
	tl_expect_values(out, 1, 2, (double[]){1, 11});
	dalic_pipeline_destroy(p);
	free(img);
}

Test(ops_warp_affine, volumes_and_sequences)
{
	/* DHWC 2x2x2x1 (value 100 z + 10 y + x) shifted by one along z with NN and fill 50 */
	const uint8_t vol[8] = {0, 1, 10, 11, 100, 101, 110, 111};
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "warp_affine");
	tl_input(op, "in");
	ASSERT_OK(
	    dalic_op_set_floats(op, "matrix", 12, (double[]){1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1}));
	ASSERT_OK(dalic_op_set_int(op, "interp_type", DALIC_INTERP_NN));
	ASSERT_OK(dalic_op_set_float(op, "fill_value", 50));
	tl_output(p, op);
	tl_feed(p, "in", DALIC_UINT8, 4, 1, (int64_t[]){2, 2, 2, 1}, vol, "DHWC");
	tl_expect_values(tl_run(p, 0), 0, 8, (double[]){100, 101, 110, 111, 50, 50, 50, 50});
	dalic_pipeline_destroy(p);

	/* FHWC: two 1x2 frames, each shifted by the sample's matrix */
	p = tl_pipeline(1);
	op = ops_warp_affine_op(p, (double[]){1, 0, 1, 0, 1, 0});
	ASSERT_OK(dalic_op_set_int(op, "interp_type", DALIC_INTERP_NN));
	tl_feed(p, "in", DALIC_UINT8, 4, 1, (int64_t[]){2, 1, 2, 1}, (uint8_t[]){1, 2, 3, 4},
	        "FHWC");
	tl_expect_values(tl_run(p, 0), 0, 4, (double[]){2, 2, 4, 4});
	dalic_pipeline_destroy(p);
}

Test(ops_warp_affine, argument_errors)
{
	uint8_t *img = ops_warp_affine_image(2, 2);
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_warp_affine_op(p, NULL);
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (int64_t[]){2, 2, 1}, img, "HWC");
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "`matrix` argument must be provided");
	EXPECT_ERROR_HAS("'wa'");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	dalic_op_t *op = ops_warp_affine_op(p, (double[]){1, 2, 0, 2, 4, 0});
	ASSERT_OK(dalic_op_set_bool(op, "inverse_map", false));
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (int64_t[]){2, 2, 1}, img, "HWC");
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "singular matrix");
	EXPECT_ERROR_HAS("sample 0");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_warp_affine_op(p, (double[]){1, 0, 0, 0, 1, 0});
	ASSERT_OK(dalic_op_set_int(op, "interp_type", DALIC_INTERP_CUBIC));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("Only nearest and linear interpolation is supported");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_warp_affine_op(p, (double[]){1, 0, 0, 0, 1, 0});
	ASSERT_OK(dalic_op_set_floats(op, "size", 2, (double[]){0, 3}));
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (int64_t[]){2, 2, 1}, img, "HWC");
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Output size must be positive");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_warp_affine_op(p, (double[]){1, 0, 0, 0, 1, 0});
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_INT16));
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (int64_t[]){2, 2, 1}, img, "HWC");
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "uint8 -> int16");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_warp_affine_op(p, (double[]){1, 0, 0, 0, 1, 0});
	tl_feed(p, "in", DALIC_UINT8, 2, 1, (int64_t[]){2, 2}, img, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Valid layouts are: HWC FHWC DHWC FDHWC");
	dalic_pipeline_destroy(p);
	free(img);
}
