/* jitter (a GPU operator in DALI, emulated here): every output value comes from the input pixel
 * moved by at most the offsets nDegree allows, clamped to the image; whole pixels move together
 * in DALI's fast-kernel case and channels move apart otherwise; nDegree 1 moves nothing; an
 * argument-input mask of 0 copies the image; unsupported inputs fail. */
#include "tests/testlib.h"

TestSuite(ops_jitter, .timeout = 30);

/* A pipeline (device 0: the gpu operator runs emulated) with source "img" -> jitter. */
static dalic_op_t *ops_jitter_pipe(dalic_pipeline_t **p, int batch, int degree)
{
	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = batch;
	params.device_id = 0;
	params.seed = 42;
	params.exec_pipelined = false;
	params.exec_async = false;
	params.prefetch_cpu = params.prefetch_gpu = 1;
	ASSERT_OK(dalic_pipeline_create(&params, p));
	tl_source(*p, "img");
	dalic_op_t *op;
	ASSERT_OK(dalic_pipeline_add_op(*p, "jitter", "gpu", &op));
	ASSERT_OK(dalic_op_set_name(op, "jit"));
	ASSERT_OK(dalic_op_set_int(op, "nDegree", degree));
	tl_input(op, "img");
	tl_output(*p, op);
	return op;
}

/* An H x W x C float image whose value encodes (y, x, c): 10000 y + 100 x + c. */
static float *ops_jitter_coords(int H, int W, int C)
{
	float *v = malloc(sizeof *v * (size_t)(H * W * C));
	cr_assert_not_null(v);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			for (int c = 0; c < C; c++)
				v[(y * W + x) * C + c] = (float)(10000 * y + 100 * x + c);
	return v;
}

/* Checks every output value of sample 0: same channel, source within [-lo, hi) of the pixel
 * on each axis after clamping; returns how many values moved. `whole`: channels move together. */
static int ops_jitter_check(const dalic_batch_t *out, int H, int W, int C, int lo, int hi,
			    bool whole)
{
	int moved = 0;
	for (int y = 0; y < H; y++) {
		for (int x = 0; x < W; x++) {
			int sy0 = -1, sx0 = -1;
			for (int c = 0; c < C; c++) {
				int v = (int)tl_at(out, 0, (y * W + x) * C + c);
				int sy = v / 10000, sx = v / 100 % 100, sc = v % 100;
				cr_assert_eq(sc, c, "(%d, %d, %d) took channel %d", y, x, c, sc);
				int ymin = y - lo < 0 ? 0 : y - lo, ymax = y + hi - 1 > H - 1 ? H - 1 : y + hi - 1;
				int xmin = x - lo < 0 ? 0 : x - lo, xmax = x + hi - 1 > W - 1 ? W - 1 : x + hi - 1;
				cr_assert(sy >= ymin && sy <= ymax && sx >= xmin && sx <= xmax,
					  "(%d, %d, %d) came from (%d, %d)", y, x, c, sy, sx);
				if (whole && c > 0)
					cr_assert(sy == sy0 && sx == sx0, "pixel (%d, %d) split", y, x);
				sy0 = sy;
				sx0 = sx;
				moved += sy != y || sx != x;
			}
		}
	}
	return moved;
}

Test(ops_jitter, pixels_move_within_the_degree_and_channels_together)
{
	dalic_pipeline_t *p;
	ops_jitter_pipe(&p, 1, 4); /* offsets in [-2, 2) */
	float *img = ops_jitter_coords(8, 10, 3);
	tl_feed(p, "img", DALIC_FLOAT, 3, 1, (int64_t[]){8, 10, 3}, img, "HWC");
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_str_eq(dalic_batch_layout(out), "HWC");
	int moved = ops_jitter_check(out, 8, 10, 3, 2, 2, true);
	cr_expect(moved > 150, "only %d of 240 values moved", moved);
	free(img);
	dalic_pipeline_destroy(p);
}

/* Two channels: DALI's general kernel draws per channel, so channels part ways. */
Test(ops_jitter, two_channels_move_apart)
{
	dalic_pipeline_t *p;
	ops_jitter_pipe(&p, 1, 3); /* offsets in [-1, 2) */
	float *img = ops_jitter_coords(6, 7, 2);
	tl_feed(p, "img", DALIC_FLOAT, 3, 1, (int64_t[]){6, 7, 2}, img, "HWC");
	const dalic_batch_t *out = tl_run(p, 0);
	ops_jitter_check(out, 6, 7, 2, 1, 2, false);
	int split = 0;
	for (int k = 0; k < 42; k++)
		split += (int)tl_at(out, 0, 2 * k) / 100 != (int)tl_at(out, 0, 2 * k + 1) / 100;
	cr_expect(split > 10, "only %d of 42 pixels had their channels from different places",
		  split);
	free(img);
	dalic_pipeline_destroy(p);
}

Test(ops_jitter, degree_one_and_mask_zero_leave_the_image)
{
	dalic_pipeline_t *p;
	ops_jitter_pipe(&p, 1, 1); /* offsets in [0, 1): none */
	float *img = ops_jitter_coords(5, 4, 3);
	tl_feed(p, "img", DALIC_FLOAT, 3, 1, (int64_t[]){5, 4, 3}, img, "HWC");
	const dalic_batch_t *out = tl_run(p, 0);
	for (int k = 0; k < 60; k++)
		cr_assert_eq(tl_at(out, 0, k), img[k]);
	dalic_pipeline_destroy(p);

	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = 2;
	params.device_id = 0;
	params.exec_pipelined = params.exec_async = false;
	ASSERT_OK(dalic_pipeline_create(&params, &p));
	tl_source(p, "img");
	tl_source(p, "mask");
	dalic_op_t *op;
	ASSERT_OK(dalic_pipeline_add_op(p, "jitter", "gpu", &op));
	ASSERT_OK(dalic_op_set_int(op, "nDegree", 8));
	tl_input(op, "img");
	ASSERT_OK(dalic_op_set_arg_input(op, "mask", "mask"));
	tl_output(p, op);
	float both[120];
	memcpy(both, img, sizeof(float) * 60);
	memcpy(both + 60, img, sizeof(float) * 60);
	tl_feed(p, "img", DALIC_FLOAT, 3, 2, (int64_t[]){5, 4, 3, 5, 4, 3}, both, "HWC");
	const int32_t mask[2] = {0, 1};
	tl_feed(p, "mask", DALIC_INT32, 0, 2, (int64_t[]){0}, mask, NULL);
	out = tl_run(p, 0);
	int moved = 0;
	for (int k = 0; k < 60; k++) {
		cr_assert_eq(tl_at(out, 0, k), img[k], "mask 0 copies");
		moved += tl_at(out, 1, k) != img[k];
	}
	cr_expect(moved > 20, "mask 1 jitters (%d of 60 moved)", moved);
	free(img);
	dalic_pipeline_destroy(p);
}

Test(ops_jitter, unsupported_inputs_and_interpolation)
{
	dalic_pipeline_t *p;
	ops_jitter_pipe(&p, 1, 2);
	const int16_t px[3] = {1, 2, 3};
	tl_feed(p, "img", DALIC_INT16, 3, 1, (int64_t[]){1, 1, 3}, px, "HWC");
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'jit'");
	EXPECT_HAS(msg, "Unexpected input type int16");
	dalic_pipeline_destroy(p);

	dalic_op_t *op = ops_jitter_pipe(&p, 1, 2);
	ASSERT_OK(dalic_op_set_int(op, "interp_type", DALIC_INTERP_CUBIC));
	int rc = dalic_pipeline_build(p);
	if (rc == DALIC_OK) {
		const uint8_t u8[3] = {1, 2, 3};
		tl_feed(p, "img", DALIC_UINT8, 3, 1, (int64_t[]){1, 1, 3}, u8, "HWC");
		rc = dalic_pipeline_run(p);
	}
	cr_expect_neq(rc, DALIC_OK);
	EXPECT_ERROR_HAS("only NN and LINEAR are supported");
	dalic_pipeline_destroy(p);
}
