/*
 * crop_mirror_normalize on a 2x3 RGB image with hand-computed results: per-channel
 * normalisation with scale and shift into CHW float, crop anchors and mirror, HWC output,
 * integer and half outputs (rounding half away from zero, saturation), pad_output, padding
 * out of bounds with per-channel fill values, per-sample mirror from coin_flip, and the
 * dtype / output_dtype conflict.
 */
#include "tests/testlib/image.h"

TestSuite(img_cmn, .timeout = 30);

/* v(y, x, c) = 10 * (3y + x) + c */
static uint8_t img_cmn_img[2 * 3 * 3];

static dalic_pipeline_t *img_cmn_pipeline(dalic_op_t **op)
{
	for (int k = 0; k < 6; k++)
		for (int c = 0; c < 3; c++)
			img_cmn_img[k * 3 + c] = (uint8_t)(10 * k + c);
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "in");
	*op = tl_op(p, "crop_mirror_normalize");
	tl_input(*op, "in");
	tl_output(p, *op);
	return p;
}

static const dalic_batch_t *img_cmn_run(dalic_pipeline_t *p)
{
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (const int64_t[]){2, 3, 3}, img_cmn_img, "HWC");
	return tl_run(p, 0);
}

static void img_cmn_normalisation(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_floats(op, "mean", 3, (const double[]){10, 20, 30}));
	ASSERT_OK(dalic_op_set_floats(op, "std", 3, (const double[]){2, 4, 8}));
	ASSERT_OK(dalic_op_set_float(op, "scale", 2));
	ASSERT_OK(dalic_op_set_float(op, "shift", 0.5));
}

/* (v - mean) * 2 / std + 0.5, channel-major. */
static const double img_cmn_want_chw[3][6] = {
    {-9.5, 0.5, 10.5, 20.5, 30.5, 40.5},
    {-9.0, -4.0, 1.0, 6.0, 11.0, 16.0},
    {-6.5, -4.0, -1.5, 1.0, 3.5, 6.0},
};

Test(img_cmn, normalize_to_chw_float)
{
	dalic_op_t *op;
	dalic_pipeline_t *p = img_cmn_pipeline(&op);
	img_cmn_normalisation(op);
	const dalic_batch_t *b = img_cmn_run(p);
	cr_expect_eq(dalic_batch_dtype(b), DALIC_FLOAT);
	cr_expect_str_eq(dalic_batch_layout(b), "CHW");
	tl_expect_shape(b, 0, 3, (const int64_t[]){3, 2, 3});
	tl_expect_values(b, 0, 18, &img_cmn_want_chw[0][0]);
	dalic_pipeline_destroy(p);
	/* the same values interleaved */
	p = img_cmn_pipeline(&op);
	img_cmn_normalisation(op);
	ASSERT_OK(dalic_op_set_string(op, "output_layout", "HWC"));
	b = img_cmn_run(p);
	tl_expect_shape(b, 0, 3, (const int64_t[]){2, 3, 3});
	double hwc[18];
	for (int k = 0; k < 6; k++)
		for (int c = 0; c < 3; c++)
			hwc[k * 3 + c] = img_cmn_want_chw[c][k];
	tl_expect_values(b, 0, 18, hwc);
	dalic_pipeline_destroy(p);
}

Test(img_cmn, crop_and_mirror)
{
	for (int mirror = 0; mirror < 2; mirror++) {
		dalic_op_t *op;
		dalic_pipeline_t *p = img_cmn_pipeline(&op);
		img_cmn_normalisation(op);
		/* crop 1x2 at crop_pos (x 1.0, y 0.0): anchor (0, round(1.0 * (3 - 2)) = 1) */
		ASSERT_OK(dalic_op_set_floats(op, "crop", 2, (const double[]){1, 2}));
		ASSERT_OK(dalic_op_set_float(op, "crop_pos_x", 1.0));
		ASSERT_OK(dalic_op_set_float(op, "crop_pos_y", 0.0));
		ASSERT_OK(dalic_op_set_int(op, "mirror", mirror));
		const dalic_batch_t *b = img_cmn_run(p);
		tl_expect_shape(b, 0, 3, (const int64_t[]){3, 1, 2});
		double want[6];
		for (int c = 0; c < 3; c++)
			for (int x = 0; x < 2; x++)
				want[c * 2 + x] = img_cmn_want_chw[c][1 + (mirror ? 1 - x : x)];
		tl_expect_values(b, 0, 6, want);
		dalic_pipeline_destroy(p);
	}
}

Test(img_cmn, hwc_integer_and_half_outputs)
{
	/* v * 0.5 - 5: v = 1 -> -4.5, v = 11 -> 0.5, v = 52 -> 21 */
	const dalic_dtype_t types[3] = {DALIC_UINT8, DALIC_INT8, DALIC_FLOAT16};
	for (int t = 0; t < 3; t++) {
		dalic_op_t *op;
		dalic_pipeline_t *p = img_cmn_pipeline(&op);
		ASSERT_OK(dalic_op_set_float(op, "scale", 0.5));
		ASSERT_OK(dalic_op_set_float(op, "shift", -5));
		ASSERT_OK(dalic_op_set_string(op, "output_layout", "HWC"));
		ASSERT_OK(dalic_op_set_int(op, "dtype", types[t]));
		const dalic_batch_t *b = img_cmn_run(p);
		cr_expect_eq(dalic_batch_dtype(b), types[t]);
		cr_expect_str_eq(dalic_batch_layout(b), "HWC");
		tl_expect_shape(b, 0, 3, (const int64_t[]){2, 3, 3});
		/* per dtype: the values for v = 1, 11, 52 */
		const double *want = (const double[][3]){{0, 1, 21}, {-5, 1, 21}, {-4.5, 0.5, 21}}[t];
		cr_expect_eq(tl_at(b, 0, 1), want[0], "dtype %d: v=1 -> %g", t, tl_at(b, 0, 1));
		cr_expect_eq(tl_at(b, 0, 3 * 1 + 1), want[1], "dtype %d: v=11 -> %g", t,
		             tl_at(b, 0, 4));
		cr_expect_eq(tl_at(b, 0, 17), want[2], "dtype %d: v=52 -> %g", t, tl_at(b, 0, 17));
		dalic_pipeline_destroy(p);
	}
	/* Saturation: v * 10 for v = 52 is 520. */
	dalic_op_t *op;
	dalic_pipeline_t *p = img_cmn_pipeline(&op);
	ASSERT_OK(dalic_op_set_float(op, "scale", 10));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_UINT8));
	cr_expect_eq(tl_at(img_cmn_run(p), 0, 17), 255);
	dalic_pipeline_destroy(p);
}

Test(img_cmn, pad_output_and_out_of_bounds_fill)
{
	dalic_op_t *op;
	dalic_pipeline_t *p = img_cmn_pipeline(&op);
	ASSERT_OK(dalic_op_set_bool(op, "pad_output", true));
	ASSERT_OK(dalic_op_set_string(op, "output_layout", "HWC"));
	ASSERT_OK(dalic_op_set_floats(op, "fill_values", 1, (const double[]){9}));
	const dalic_batch_t *b = img_cmn_run(p);
	tl_expect_shape(b, 0, 3, (const int64_t[]){2, 3, 4});
	for (int k = 0; k < 6; k++)
		for (int c = 0; c < 4; c++)
			cr_expect_eq(tl_at(b, 0, k * 4 + c), c < 3 ? 10 * k + c : 9, "px %d c %d",
			             k, c);
	dalic_pipeline_destroy(p);

	/* A 3x3 window on 2 rows: anchor y = round(0.5 * -1) = -1, so row 0 is padding. */
	p = img_cmn_pipeline(&op);
	ASSERT_OK(dalic_op_set_floats(op, "crop", 2, (const double[]){3, 3}));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "pad"));
	ASSERT_OK(dalic_op_set_floats(op, "fill_values", 3, (const double[]){1, 2, 3}));
	b = img_cmn_run(p);
	tl_expect_shape(b, 0, 3, (const int64_t[]){3, 3, 3});
	for (int c = 0; c < 3; c++)
		for (int y = 0; y < 3; y++)
			for (int x = 0; x < 3; x++)
				cr_expect_eq(tl_at(b, 0, (c * 3 + y) * 3 + x),
				             y == 0 ? c + 1 : 10 * ((y - 1) * 3 + x) + c,
				             "c%d (%d,%d)", c, y, x);
	dalic_pipeline_destroy(p);

	p = img_cmn_pipeline(&op);
	ASSERT_OK(dalic_op_set_floats(op, "crop", 2, (const double[]){3, 3}));
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (const int64_t[]){2, 3, 3}, img_cmn_img, "HWC");
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "out of bounds");
	dalic_pipeline_destroy(p);
}

Test(img_cmn, mirror_per_sample_from_coin_flip)
{
	enum { N = 16 };
	dalic_pipeline_t *p = tl_pipeline(N);
	tl_source(p, "in");
	dalic_op_t *coin = tl_op(p, "random.coin_flip");
	dalic_op_t *op = tl_op(p, "crop_mirror_normalize");
	tl_input(op, "in");
	ASSERT_OK(dalic_op_set_arg_input(op, "mirror", dalic_op_output(coin, 0)));
	tl_output(p, op);
	tl_output(p, coin);
	uint8_t data[N][18];
	int64_t shapes[N][3];
	for (int s = 0; s < N; s++) {
		for (int k = 0; k < 18; k++)
			data[s][k] = (uint8_t)(10 * (k / 3) + k % 3);
		shapes[s][0] = 2, shapes[s][1] = 3, shapes[s][2] = 3;
	}
	tl_feed(p, "in", DALIC_UINT8, 3, N, &shapes[0][0], data, "HWC");
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *b = dalic_pipeline_output(p, 0), *c = dalic_pipeline_output(p, 1);
	int mirrored = 0;
	for (int s = 0; s < N; s++) {
		int m = (int)tl_at(c, s, 0);
		mirrored += m;
		for (int x = 0; x < 3; x++) /* channel 0, row 0 */
			cr_expect_eq(tl_at(b, s, x), 10 * (m ? 2 - x : x), "sample %d mirror %d", s,
			             m);
	}
	cr_expect(mirrored > 0 && mirrored < N);
	dalic_pipeline_destroy(p);
}

Test(img_cmn, dtype_and_output_dtype_conflict)
{
	dalic_op_t *op;
	dalic_pipeline_t *p = img_cmn_pipeline(&op);
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_FLOAT));
	ASSERT_OK(dalic_op_set_int(op, "output_dtype", DALIC_FLOAT16));
	cr_expect_neq(dalic_pipeline_build(p), DALIC_OK);
	EXPECT_ERROR_HAS("cannot be used together");
	dalic_pipeline_destroy(p);
}
