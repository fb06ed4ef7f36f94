/*
 * crop_mirror_normalize on sequences and volumes with hand-computed results: FHWC video into
 * FCHW and CFHW (mirrored, per-channel mean/std; the uint8-to-float fast path), a CFHW input
 * into FHWC with uint8 output (the general path), crop_d taking frames, a padded window past
 * the last frame, and DALI's layout errors (an output layout that is not a permutation of the
 * input's, a layout outside DALI's list).
 */
#include "tests/testlib/image.h"

TestSuite(img_cmn_seq, .timeout = 30);

/* 3 frames of 1x2 RGB: v(f, x, c) = 100 f + 10 x + c */
static uint8_t img_cmn_seq_video[3 * 2 * 3];

static dalic_pipeline_t *img_cmn_seq_pipeline(dalic_op_t **op, const char *out_layout)
{
	for (int f = 0; f < 3; f++)
		for (int x = 0; x < 2; x++)
			for (int c = 0; c < 3; c++)
				img_cmn_seq_video[(f * 2 + x) * 3 + c] = (uint8_t)(100 * f + 10 * x + c);
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "in");
	*op = tl_op(p, "crop_mirror_normalize");
	tl_input(*op, "in");
	tl_output(p, *op);
	ASSERT_OK(dalic_op_set_string(*op, "output_layout", out_layout));
	return p;
}

static const dalic_batch_t *img_cmn_seq_run(dalic_pipeline_t *p)
{
	tl_feed(p, "in", DALIC_UINT8, 4, 1, (const int64_t[]){3, 1, 2, 3}, img_cmn_seq_video,
	        "FHWC");
	return tl_run(p, 0);
}

Test(img_cmn_seq, fhwc_to_fchw_and_cfhw_mirrored)
{
	const char *layouts[2] = {"FCHW", "CFHW"};
	for (int l = 0; l < 2; l++) {
		dalic_op_t *op;
		dalic_pipeline_t *p = img_cmn_seq_pipeline(&op, layouts[l]);
		ASSERT_OK(dalic_op_set_int(op, "mirror", 1));
		ASSERT_OK(dalic_op_set_floats(op, "mean", 3, (const double[]){0, 1, 2}));
		ASSERT_OK(dalic_op_set_floats(op, "std", 3, (const double[]){1, 2, 4}));
		const dalic_batch_t *b = img_cmn_seq_run(p);
		cr_expect_str_eq(dalic_batch_layout(b), layouts[l]);
		tl_expect_shape(b, 0, 4, (const int64_t[]){3, 3, 1, 2}); /* F = C = 3 */
		/* out(f, c, x) = (v(f, 1 - x, c) - c) / 2^c = (100 f + 10 (1 - x)) / 2^c */
		for (int f = 0; f < 3; f++)
			for (int c = 0; c < 3; c++)
				for (int x = 0; x < 2; x++) {
					int k = l == 0 ? (f * 3 + c) * 2 + x : (c * 3 + f) * 2 + x;
					double want = (100.0 * f + 10 * (1 - x)) / (1 << c);
					cr_expect_eq(tl_at(b, 0, k), want, "%s f%d c%d x%d: %g, want %g",
					             layouts[l], f, c, x, tl_at(b, 0, k), want);
				}
		dalic_pipeline_destroy(p);
	}
}

Test(img_cmn_seq, cfhw_input_to_fhwc_uint8)
{
	/* the video transposed to CFHW: element (c, f, 0, x) = v(f, x, c) */
	uint8_t cfhw[18];
	for (int c = 0; c < 3; c++)
		for (int f = 0; f < 3; f++)
			for (int x = 0; x < 2; x++)
				cfhw[(c * 3 + f) * 2 + x] = (uint8_t)(100 * f + 10 * x + c);
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "crop_mirror_normalize");
	tl_input(op, "in");
	tl_output(p, op);
	ASSERT_OK(dalic_op_set_string(op, "output_layout", "FHWC"));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_UINT8));
	ASSERT_OK(dalic_op_set_float(op, "scale", 0.5));
	/* crop_d = 2 frames at crop_pos_z 1.0: frames 1 and 2 */
	ASSERT_OK(dalic_op_set_float(op, "crop_d", 2));
	ASSERT_OK(dalic_op_set_float(op, "crop_h", 1));
	ASSERT_OK(dalic_op_set_float(op, "crop_w", 1));
	ASSERT_OK(dalic_op_set_float(op, "crop_pos_z", 1.0));
	ASSERT_OK(dalic_op_set_float(op, "crop_pos_x", 1.0));
	tl_feed(p, "in", DALIC_UINT8, 4, 1, (const int64_t[]){3, 3, 1, 2}, cfhw, "CFHW");
	const dalic_batch_t *b = tl_run(p, 0);
	cr_expect_str_eq(dalic_batch_layout(b), "FHWC");
	tl_expect_shape(b, 0, 4, (const int64_t[]){2, 1, 1, 3});
	/* round(v / 2), half away from zero: frame 1 x 1 = 110 + c -> 55, 56 (55.5), 56;
	 * frame 2: 210 + c -> 105, 106 (105.5), 106 */
	const double want[6] = {55, 56, 56, 105, 106, 106};
	tl_expect_values(b, 0, 6, want);
	dalic_pipeline_destroy(p);
}

Test(img_cmn_seq, padded_window_past_the_frames)
{
	dalic_op_t *op;
	dalic_pipeline_t *p = img_cmn_seq_pipeline(&op, "FHWC");
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "pad"));
	ASSERT_OK(dalic_op_set_floats(op, "fill_values", 3, (const double[]){7, 8, 9}));
	/* 4 frames of 1x3 centred: frame anchor round(0.5 * -1) = -1 (half away from zero),
	 * x anchor round(0.5 * -1) = -1 */
	ASSERT_OK(dalic_op_set_floats(op, "crop", 3, (const double[]){4, 1, 3}));
	const dalic_batch_t *b = img_cmn_seq_run(p);
	tl_expect_shape(b, 0, 4, (const int64_t[]){4, 1, 3, 3});
	for (int f = 0; f < 4; f++)
		for (int x = 0; x < 3; x++)
			for (int c = 0; c < 3; c++) {
				int sf = f - 1, sx = x - 1;
				double want = sf < 0 || sf > 2 || sx < 0 || sx > 1
				                  ? 7 + c
				                  : 100 * sf + 10 * sx + c;
				cr_expect_eq(tl_at(b, 0, (f * 3 + x) * 3 + c), want, "f%d x%d c%d", f,
				             x, c);
			}
	dalic_pipeline_destroy(p);
}

Test(img_cmn_seq, layout_errors)
{
	dalic_op_t *op;
	dalic_pipeline_t *p = img_cmn_seq_pipeline(&op, "CHW");
	tl_feed(p, "in", DALIC_UINT8, 4, 1, (const int64_t[]){3, 1, 2, 3}, img_cmn_seq_video,
	        "FHWC");
	tl_run_fails(p, DALIC_EOP);
	EXPECT_ERROR_HAS("not a permutation of input layout");
	EXPECT_ERROR_HAS("CropMirrorNormalize");
	dalic_pipeline_destroy(p);
	p = img_cmn_seq_pipeline(&op, "FHW");
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (const int64_t[]){3, 2, 3}, img_cmn_seq_video, "FHW");
	tl_run_fails(p, DALIC_EOP);
	EXPECT_ERROR_HAS("does not match any of the allowed layouts");
	dalic_pipeline_destroy(p);
}
