/*
 * The random operators' dispatch entries (kernels/common/gpu_random.c) on the host-grid
 * backend: random.uniform (range, values, per-sample lists), random.normal, random.coin_flip,
 * noise.gaussian, noise.salt_and_pepper and noise.shot, each alone on the gpu (in every
 * executor mode), compared byte for byte with the emulated path (the CPU operators) over three
 * iterations, so the master generator's move between iterations is checked too; odd shapes (an
 * empty sample, a 1x1 one, samples over several blocks), per-sample argument inputs, float and
 * integer types. noise.shot's device flag fails the run as the CPU operator does.
 */
#include "tests/testlib.h"
#include "tests/testlib/cuda_batch.h"
#include "tests/testlib/gpu_compare.h"

#include "kernels/common/rng_gpu.h"

TestSuite(gpu_backend_rng, .timeout = 120);

/* HWC shapes of the shape-like / noise input per iteration. */
static const int64_t gbr_shapes[TL_GPU_ITERS][TL_GPU_N * 3] = {
    {7, 13, 3, 40, 41, 3, 0, 5, 3, 1, 1, 3},
    {64, 65, 3, 1, 1, 3, 9, 2, 3, 33, 31, 3},
    {5, 5, 3, 2, 250, 3, 7, 7, 3, 0, 0, 3},
};

#define GBR_MAX_ARG 3 /* values a sample of an argument input */

typedef struct gbr_case {
	const char *what, *op;
	dalic_dtype_t in; /* the shape-like or noise input */
	double in_range;  /* floating inputs: values in [-in_range, in_range] */
	void (*set)(dalic_op_t *op);
	const char *arg; /* a per-sample argument input, or NULL */
	int arg_len;     /* 0: a scalar (0-D) a sample, else 1-D of arg_len */
	float argv[TL_GPU_ITERS][TL_GPU_N][GBR_MAX_ARG];
} gbr_case_t;

static void gbr_build(dalic_pipeline_t *p, const void *ctx)
{
	const gbr_case_t *c = ctx;
	tl_source(p, "in");
	if (c->arg)
		tl_source(p, "a");
	dalic_op_t *op = NULL;
	ASSERT_OK(dalic_pipeline_add_op(p, c->op, "gpu", &op));
	ASSERT_OK(dalic_op_add_input(op, "in", "gpu"));
	if (c->set)
		c->set(op);
	if (c->arg)
		ASSERT_OK(dalic_op_set_arg_input(op, c->arg, "a"));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, 0), NULL));
}

static void gbr_feed(dalic_pipeline_t *p, int it, const void *ctx)
{
	const gbr_case_t *c = ctx;
	tl_cu_batch_t b;
	tl_cu_batch_random(&b, c->in, 3, TL_GPU_N, gbr_shapes[it], c->in_range ? c->in_range : 300,
	                   23u + 11u * (unsigned)it);
	tl_cu_batch_feed(p, "in", &b, "HWC");
	tl_cu_batch_free(&b);
	if (!c->arg)
		return;
	int64_t shapes[TL_GPU_N];
	float v[TL_GPU_N * GBR_MAX_ARG];
	int len = c->arg_len ? c->arg_len : 1;
	for (int i = 0; i < TL_GPU_N; i++) {
		shapes[i] = c->arg_len;
		for (int j = 0; j < len; j++)
			v[i * len + j] = c->argv[it][i][j];
	}
	tl_feed(p, "a", DALIC_FLOAT, c->arg_len ? 1 : 0, TL_GPU_N, shapes, v, NULL);
}

static void gbr_case(const gbr_case_t *c)
{
	tl_gpu_case_t g = {c->what, gbr_build, gbr_feed, c, 2};
	tl_gpu_compare(&g);
}

static void gbr_cases(const gbr_case_t *c, size_t n)
{
	for (size_t k = 0; k < n; k++)
		gbr_case(&c[k]);
}

/* ---- random.uniform ---- */

static void gbr_set_i16(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_INT16));
}

static void gbr_set_u32_range(dalic_op_t *op)
{
	const double r[2] = {-10.5, 1e6};
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_UINT32));
	ASSERT_OK(dalic_op_set_floats(op, "range", 2, r));
}

static void gbr_set_values(dalic_op_t *op)
{
	const double v[5] = {-3.5, 0, 1.25, 7, 1e6};
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_INT32));
	ASSERT_OK(dalic_op_set_floats(op, "values", 5, v));
}

Test(gpu_backend_rng, uniform)
{
	static const gbr_case_t c[] = {
	    {"uniform float, default range", "random.uniform", DALIC_UINT8},
	    {"uniform u32 range (double arithmetic)", "random.uniform", DALIC_UINT8, 0,
	     gbr_set_u32_range},
	    {"uniform i16, per-sample range",
	     "random.uniform",
	     DALIC_FLOAT,
	     0,
	     gbr_set_i16,
	     "range",
	     2,
	     {{{-100, 100}, {0, 1}, {3, 250}, {-7.5, -2}},
	      {{1, 2}, {-300, 300}, {0, 40000}, {5, 6}},
	      {{-1, 1}, {10, 11}, {-32768, 32767}, {0, 0.5f}}}},
	    {"uniform i32, values list", "random.uniform", DALIC_UINT8, 0, gbr_set_values},
	    {"uniform float, per-sample values",
	     "random.uniform",
	     DALIC_UINT8,
	     0,
	     NULL,
	     "values",
	     3,
	     {{{1, 2, 3}, {-1, 0, 1}, {7, 7, 8}, {0.5f, 0.25f, 0.125f}},
	      {{9, 8, 7}, {100, 200, 300}, {-5, 5, 0}, {1, 1, 2}},
	      {{4, 5, 6}, {0, 0, 1}, {2, 3, 4}, {-1, -2, -3}}}},
	};
	gbr_cases(c, sizeof c / sizeof *c);
}

/* ---- random.normal, random.coin_flip ---- */

static void gbr_set_normal_i64(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_INT64));
	ASSERT_OK(dalic_op_set_float(op, "mean", 1000));
	ASSERT_OK(dalic_op_set_float(op, "stddev", 250));
}

static void gbr_set_u8(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_UINT8));
}

Test(gpu_backend_rng, normal_and_coin_flip)
{
	static const gbr_case_t c[] = {
	    {"normal float, per-sample stddev",
	     "random.normal",
	     DALIC_UINT8,
	     0,
	     NULL,
	     "stddev",
	     0,
	     {{{1}, {0.5f}, {10}, {3}}, {{2}, {0}, {1}, {7}}, {{0.1f}, {100}, {1}, {1}}}},
	    {"normal i64 (double arithmetic)", "random.normal", DALIC_UINT8, 0, gbr_set_normal_i64},
	    {"normal u8, per-sample mean",
	     "random.normal",
	     DALIC_UINT8,
	     0,
	     gbr_set_u8,
	     "mean",
	     0,
	     {{{100}, {0}, {250}, {128}}, {{3}, {17}, {200}, {64}}, {{1}, {2}, {3}, {4}}}},
	    {"coin_flip int32, default probability", "random.coin_flip", DALIC_UINT8},
	    {"coin_flip u8, per-sample probability",
	     "random.coin_flip",
	     DALIC_UINT8,
	     0,
	     gbr_set_u8,
	     "probability",
	     0,
	     {{{0.1f}, {0.9f}, {0.5f}, {1}},
	      {{0}, {0.25f}, {0.75f}, {0.5f}},
	      {{0.3f}, {0.3f}, {0.6f}, {0.01f}}}},
	};
	gbr_cases(c, sizeof c / sizeof *c);
}

/* ---- noise ---- */

static void gbr_set_gaussian_mean(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "mean", -3.5));
	ASSERT_OK(dalic_op_set_float(op, "stddev", 1e6));
}

static void gbr_set_snp_channels(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_bool(op, "per_channel", true));
	ASSERT_OK(dalic_op_set_float(op, "prob", 0.3));
	ASSERT_OK(dalic_op_set_float(op, "salt_val", 2.5));
	ASSERT_OK(dalic_op_set_float(op, "pepper_val", -7));
}

static void gbr_set_shot_factor(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "factor", 0.75));
}

Test(gpu_backend_rng, noise)
{
	static const gbr_case_t c[] = {
	    {"gaussian u8, per-sample stddev",
	     "noise.gaussian",
	     DALIC_UINT8,
	     0,
	     NULL,
	     "stddev",
	     0,
	     {{{10}, {0}, {50}, {3}}, {{1}, {200}, {7}, {20}}, {{5}, {5}, {5}, {5}}}},
	    {"gaussian i32 (double arithmetic)", "noise.gaussian", DALIC_INT32, 0,
	     gbr_set_gaussian_mean},
	    {"gaussian float", "noise.gaussian", DALIC_FLOAT},
	    {"salt_and_pepper u8 per pixel, per-sample prob",
	     "noise.salt_and_pepper",
	     DALIC_UINT8,
	     0,
	     NULL,
	     "prob",
	     0,
	     {{{0.5f}, {0.1f}, {1}, {0.25f}},
	      {{0}, {0.9f}, {0.3f}, {0.3f}},
	      {{0.7f}, {0.05f}, {0.5f}, {0.2f}}}},
	    {"salt_and_pepper float per channel, given values", "noise.salt_and_pepper",
	     DALIC_FLOAT, 0, gbr_set_snp_channels},
	    {"shot u8, per-sample factor",
	     "noise.shot",
	     DALIC_UINT8,
	     0,
	     NULL,
	     "factor",
	     0,
	     {{{20}, {1}, {0.5f}, {0}}, {{12}, {3}, {100}, {2}}, {{7}, {7}, {0.25f}, {40}}}},
	    {"shot i16, factor 0.75", "noise.shot", DALIC_INT16, 0, gbr_set_shot_factor},
	    {"shot float, the implementation's default factor", "noise.shot", DALIC_FLOAT},
	};
	gbr_cases(c, sizeof c / sizeof *c);
}

Test(gpu_backend_rng, shot_mean_too_large_fails_on_both_paths)
{
	static const gbr_case_t c = {
	    "shot float 1e12, factor 1",
	    "noise.shot",
	    DALIC_FLOAT,
	    1e12,
	    NULL,
	    "factor",
	    0,
	    {{{1}, {1}, {1}, {1}}, {{1}, {1}, {1}, {1}}, {{1}, {1}, {1}, {1}}}};
	tl_gpu_case_t g = {c.what, gbr_build, gbr_feed, &c, 2};
	tl_gpu_compare_fails(&g, DALIC_EOP, DALIC_NOISE_SHOT_BAD_MEAN);
}
