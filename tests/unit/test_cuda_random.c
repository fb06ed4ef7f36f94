/*
 * The random operators' CUDA kernel (kernels/cuda/random.cuh) on the CPU grid runner,
 * compared byte for byte with the CPU operators run through the public API with the same
 * seed: random.uniform (range and values), random.normal, random.coin_flip, noise.gaussian,
 * noise.salt_and_pepper and noise.shot, over batches of odd shapes (sizes that do not divide
 * the block, samples spanning several blocks, empty samples), every output type the
 * operators take, per-sample arguments, and two iterations (the second one starts the master
 * generator `batch size` sequences on, as the engine moves it).
 */
#include "tests/testlib/cuda_batch.h"
#include "tests/testlib/oneop.h"

#include "engine/rng.h"
#include "kernels/common/rng_noise.h"
#include "kernels/common/rng_shape.h"
#include "kernels/cuda/random.cuh"

#include <string.h>

TestSuite(cuda_random, .timeout = 120);

#define CU_RAND_SEED 0x1234abcdLL
#define CU_RAND_ITERS 2

/* One case: the operator, its shape-like input or noise input, and up to two per-sample float
 * argument inputs. */
typedef struct cu_rand_case {
	const char *what, *op, *layout;
	const tl_cu_batch_t *in;
	const char *arg_names[3]; /* NULL-terminated */
	const float *arg_values[2];
	void (*set_args)(dalic_op_t *op, const void *ctx);
	/* fills sample i's distribution (everything but in/out/rng/items) */
	void (*fill)(dalic_cu_random_sample_t *s, int i, dalic_dtype_t t, const void *ctx);
	const void *ctx;
	int kind;
	bool per_channel;
} cu_rand_case_t;

static void cu_rand_body(const dalic_cu_idx_t *ix, const void *p)
{
	dalic_cu_random_body(ix, (const dalic_cu_random_params_t *)p);
}

/* Feeds a float scalar (0-D) per sample to `name`. */
static void cu_rand_feed_scalars(dalic_pipeline_t *p, const char *name, int n, const float *v)
{
	int64_t shapes[TL_CU_MAX_SAMPLES] = {0};
	tl_feed(p, name, DALIC_FLOAT, 0, n, shapes, v, NULL);
}

/* Runs the kernel for iteration `it` over c->in into outputs like `cpu`, prefilled with
 * `canary`, and compares. */
static void cu_rand_kernel(const cu_rand_case_t *c, const dalic_batch_t *cpu, int it,
                           uint8_t canary)
{
	const tl_cu_batch_t *in = c->in;
	tl_cu_batch_t out;
	tl_cu_batch_like(&out, cpu, canary);
	dalic_dtype_t t = dalic_batch_dtype(cpu);
	dalic_philox_t master;
	dalic_philox_init(&master, (uint64_t)CU_RAND_SEED, (uint64_t)(it * in->n), 0, 0);
	dalic_cu_random_sample_t samples[TL_CU_MAX_SAMPLES];
	memset(samples, 0, sizeof samples);
	for (int i = 0; i < in->n; i++) {
		dalic_cu_random_sample_t *s = &samples[i];
		s->in = in->data[i];
		s->out = out.data[i];
		s->rng = dalic_rng_for_sample(&master, i);
		dalic_rng_noise_geom_t geo;
		cr_assert_eq(dalic_rng_noise_geom_of(c->layout, in->ndim, in->shape[i],
		                                     c->per_channel, &geo),
		             0);
		s->items = geo.pixels;
		s->channels = geo.channels;
		s->p_stride = geo.p_stride;
		s->c_stride = geo.c_stride;
		c->fill(s, i, t, c->ctx);
	}
	int bad = 0;
	dalic_cu_random_params_t p = {samples, NULL, in->n, 0, c->kind, (int)t,
	                              (int64_t)dalic_dtype_size(t), &bad};
	dalic_cu_random_grid(&p, NULL, 0);
	dalic_cu_block_t *blocks = calloc((size_t)p.nblocks + 1, sizeof *blocks);
	dalic_cu_launch_t l = dalic_cu_random_grid(&p, blocks, p.nblocks);
	int64_t calls = tl_cu_run_grid(l, cu_rand_body, &p);
	cr_expect_eq(calls, p.nblocks * DALIC_CU_BLOCK_THREADS);
	cr_expect_eq(bad, 0);
	char what[128];
	snprintf(what, sizeof what, "%s, iteration %d", c->what, it);
	tl_cu_expect_equal(cpu, &out, what);
	free(blocks);
	tl_cu_batch_free(&out);
}

static void cu_rand_case(const cu_rand_case_t *c)
{
	int n = c->in->n;
	tl_oneop_t t = tl_oneop(c->op, n, 1, c->arg_names[0] ? c->arg_names : NULL);
	ASSERT_OK(dalic_op_set_int(t.op, "seed", CU_RAND_SEED));
	if (c->set_args)
		c->set_args(t.op, c->ctx);
	for (int it = 0; it < CU_RAND_ITERS; it++) {
		tl_cu_batch_feed(t.p, "in", c->in, c->layout);
		for (int k = 0; c->arg_names[k]; k++)
			cu_rand_feed_scalars(t.p, c->arg_names[k], n, c->arg_values[k]);
		const dalic_batch_t *cpu = tl_run(t.p, 0);
		cr_assert_eq(dalic_batch_num_samples(cpu), n);
		for (int k = 0; k < 2; k++)
			cu_rand_kernel(c, cpu, it, k ? 0xff : 0x00);
	}
	dalic_pipeline_destroy(t.p);
}

/* Shapes of the shape-like / noise inputs: odd sizes, several blocks, an empty sample. */
static const int64_t cu_rand_hwc[] = {1, 1, 3, 7, 13, 3, 33, 65, 3, 0, 5, 3, 17, 300, 1, 9, 64, 4};
#define CU_RAND_HWC_N 6
static const int64_t cu_rand_1d[] = {1, 5, 2047, 2049, 0, 4099, 17};
#define CU_RAND_1D_N 7

/* ---- random.uniform ---- */

typedef struct cu_rand_uniform {
	dalic_dtype_t dtype;
	float range[2];
	const float *values;
	int num_values;
} cu_rand_uniform_t;

static void cu_rand_uniform_args(dalic_op_t *op, const void *ctx)
{
	const cu_rand_uniform_t *u = ctx;
	ASSERT_OK(dalic_op_set_int(op, "dtype", u->dtype));
	if (u->values) {
		double v[16];
		for (int k = 0; k < u->num_values; k++)
			v[k] = u->values[k];
		ASSERT_OK(dalic_op_set_floats(op, "values", u->num_values, v));
	} else {
		double r[2] = {u->range[0], u->range[1]};
		ASSERT_OK(dalic_op_set_floats(op, "range", 2, r));
	}
}

static bool cu_rand_double_math(dalic_dtype_t t)
{
	return t == DALIC_INT32 || t == DALIC_UINT32 || t == DALIC_INT64 || t == DALIC_UINT64 ||
	       t == DALIC_FLOAT64;
}

static void cu_rand_uniform_fill(dalic_cu_random_sample_t *s, int i, dalic_dtype_t t,
                                 const void *ctx)
{
	const cu_rand_uniform_t *u = ctx;
	s->values = u->values;
	s->num_values = u->num_values;
	/* the CPU operator's conversion of the range to the output type */
	double lo = dalic_rng_cvt_to(t, u->range[0]), hi = dalic_rng_cvt_to(t, u->range[1]);
	dalic_rng_uniform_f64_init(&s->uniform_f64, lo, hi);
	dalic_rng_uniform_f32_init(&s->uniform_f32, (float)lo, (float)hi);
}

static void cu_rand_uniform_case(const char *what, const cu_rand_uniform_t *u,
                                 const tl_cu_batch_t *in, const char *layout)
{
	cu_rand_case_t c = {what, "random.uniform", layout, in, {NULL}, {NULL},
	                    cu_rand_uniform_args, cu_rand_uniform_fill, u,
	                    u->values                     ? DALIC_CU_RANDOM_PICK
	                    : cu_rand_double_math(u->dtype) ? DALIC_CU_RANDOM_UNIFORM_F64
	                                                  : DALIC_CU_RANDOM_UNIFORM_F32,
	                    true};
	cu_rand_case(&c);
}

Test(cuda_random, uniform_range_every_dtype)
{
	tl_cu_batch_t like;
	tl_cu_batch_random(&like, DALIC_UINT8, 3, CU_RAND_HWC_N, cu_rand_hwc, 0, 3);
	static const dalic_dtype_t types[] = {DALIC_UINT8, DALIC_INT8,   DALIC_UINT16, DALIC_INT16,
	                                      DALIC_UINT32, DALIC_INT32, DALIC_UINT64, DALIC_INT64,
	                                      DALIC_FLOAT, DALIC_FLOAT64};
	for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
		cu_rand_uniform_t u = {types[k], {-1.0f, 1.0f}, NULL, 0};
		if (types[k] != DALIC_FLOAT && types[k] != DALIC_FLOAT64) {
			u.range[0] = k % 2 ? -100.5f : 3.0f;
			u.range[1] = 250.0f;
		}
		char what[64];
		snprintf(what, sizeof what, "uniform %s", dalic_dtype_cname(types[k]));
		cu_rand_uniform_case(what, &u, &like, "HWC");
	}
	tl_cu_batch_free(&like);
}

Test(cuda_random, uniform_values_and_1d_shapes)
{
	tl_cu_batch_t like;
	tl_cu_batch_random(&like, DALIC_FLOAT, 1, CU_RAND_1D_N, cu_rand_1d, 1, 5);
	static const float values[] = {-3.5f, 0.0f, 1.25f, 7.0f, 1e6f};
	cu_rand_uniform_t u = {DALIC_FLOAT, {0, 1}, values, 5};
	cu_rand_uniform_case("uniform values float", &u, &like, "");
	u.dtype = DALIC_INT16;
	cu_rand_uniform_case("uniform values int16", &u, &like, "");
	cu_rand_uniform_t r = {DALIC_FLOAT, {-1e-3f, 5e3f}, NULL, 0};
	cu_rand_uniform_case("uniform range 1-D float", &r, &like, "");
	tl_cu_batch_free(&like);
}

/* ---- random.normal and noise.gaussian: per-sample mean and stddev ---- */

static const float cu_rand_means[] = {0.0f, 10.0f, -3.0f, 0.5f, 100.0f, -7.25f, 1.0f};
static const float cu_rand_stddevs[] = {1.0f, 0.5f, 30.0f, 2.0f, 0.0f, 5.0f, 1e3f};

static void cu_rand_dtype_arg(dalic_op_t *op, const void *ctx)
{
	ASSERT_OK(dalic_op_set_int(op, "dtype", *(const dalic_dtype_t *)ctx));
}

static void cu_rand_normal_fill(dalic_cu_random_sample_t *s, int i, dalic_dtype_t t,
                                const void *ctx)
{
	s->mean = cu_rand_means[i];
	s->stddev = cu_rand_stddevs[i];
}

Test(cuda_random, normal_every_dtype_per_sample_args)
{
	tl_cu_batch_t like;
	tl_cu_batch_random(&like, DALIC_UINT8, 1, CU_RAND_1D_N, cu_rand_1d, 0, 9);
	static const dalic_dtype_t types[] = {DALIC_UINT8, DALIC_INT8,   DALIC_UINT16, DALIC_INT16,
	                                      DALIC_UINT32, DALIC_INT32, DALIC_UINT64, DALIC_INT64,
	                                      DALIC_FLOAT, DALIC_FLOAT64};
	for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
		char what[64];
		snprintf(what, sizeof what, "normal %s", dalic_dtype_cname(types[k]));
		cu_rand_case_t c = {what, "random.normal", "", &like, {"mean", "stddev", NULL},
		                    {cu_rand_means, cu_rand_stddevs}, cu_rand_dtype_arg,
		                    cu_rand_normal_fill, &types[k],
		                    cu_rand_double_math(types[k]) ? DALIC_CU_RANDOM_NORMAL_F64
		                                                  : DALIC_CU_RANDOM_NORMAL_F32,
		                    true};
		cu_rand_case(&c);
	}
	tl_cu_batch_free(&like);
}

Test(cuda_random, gaussian_noise_every_type)
{
	static const dalic_dtype_t types[] = {DALIC_UINT8, DALIC_INT8,   DALIC_UINT16,
	                                      DALIC_INT16, DALIC_UINT32, DALIC_INT32,
	                                      DALIC_UINT64, DALIC_INT64, DALIC_FLOAT};
	for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
		tl_cu_batch_t in;
		tl_cu_batch_random(&in, types[k], 1, CU_RAND_1D_N, cu_rand_1d, 300, 11u + (uint32_t)k);
		char what[64];
		snprintf(what, sizeof what, "gaussian %s", dalic_dtype_cname(types[k]));
		cu_rand_case_t c = {what, "noise.gaussian", "", &in, {"mean", "stddev", NULL},
		                    {cu_rand_means, cu_rand_stddevs}, NULL, cu_rand_normal_fill,
		                    NULL, DALIC_CU_RANDOM_GAUSSIAN, true};
		cu_rand_case(&c);
		tl_cu_batch_free(&in);
	}
}

/* ---- random.coin_flip: per-sample probability ---- */

static const float cu_rand_probs[] = {0.5f, 0.0f, 1.0f, 0.1f, 0.99f, -0.5f, 0.3f};

static void cu_rand_coin_fill(dalic_cu_random_sample_t *s, int i, dalic_dtype_t t,
                              const void *ctx)
{
	s->threshold = dalic_rng_bernoulli_threshold(cu_rand_probs[i]);
}

Test(cuda_random, coin_flip_dtypes_per_sample_probability)
{
	tl_cu_batch_t like;
	tl_cu_batch_random(&like, DALIC_UINT8, 1, CU_RAND_1D_N, cu_rand_1d, 0, 13);
	static const dalic_dtype_t types[] = {DALIC_BOOL, DALIC_UINT8, DALIC_INT32};
	for (size_t k = 0; k < 3; k++) {
		char what[64];
		snprintf(what, sizeof what, "coin_flip %s", dalic_dtype_cname(types[k]));
		cu_rand_case_t c = {what, "random.coin_flip", "", &like, {"probability", NULL},
		                    {cu_rand_probs}, cu_rand_dtype_arg, cu_rand_coin_fill,
		                    &types[k], DALIC_CU_RANDOM_COIN_FLIP, true};
		cu_rand_case(&c);
	}
	tl_cu_batch_free(&like);
}

/* ---- noise.salt_and_pepper: per-sample prob, layouts, per_channel on and off ---- */

static const float cu_rand_sp_probs[] = {0.3f, 0.0f, 1.0f, 0.05f, 0.5f, 0.7f, 0.2f};

typedef struct cu_rand_sp {
	bool per_channel, values;
} cu_rand_sp_t;

static void cu_rand_sp_args(dalic_op_t *op, const void *ctx)
{
	const cu_rand_sp_t *sp = ctx;
	ASSERT_OK(dalic_op_set_bool(op, "per_channel", sp->per_channel));
	ASSERT_OK(dalic_op_set_float(op, "salt_vs_pepper", 0.25));
	if (sp->values) {
		ASSERT_OK(dalic_op_set_float(op, "salt_val", 77.9));
		ASSERT_OK(dalic_op_set_float(op, "pepper_val", -3.2));
	}
}

static void cu_rand_sp_fill(dalic_cu_random_sample_t *s, int i, dalic_dtype_t t,
                            const void *ctx)
{
	const cu_rand_sp_t *sp = ctx;
	s->prob = cu_rand_sp_probs[i];
	s->salt_prob = s->prob * 0.25f;
	s->salt = sp->values ? dalic_rng_cvt_to(t, 77.9f) : dalic_rng_salt_and_pepper_default(t, true);
	s->pepper =
	    sp->values ? dalic_rng_cvt_to(t, -3.2f) : dalic_rng_salt_and_pepper_default(t, false);
}

static void cu_rand_sp_case(dalic_dtype_t t, const char *layout, const int64_t *shapes, int n,
                            bool per_channel, bool values)
{
	tl_cu_batch_t in;
	tl_cu_batch_random(&in, t, 3, n, shapes, 500, 17u + (uint32_t)t);
	cu_rand_sp_t sp = {per_channel, values};
	char what[96];
	snprintf(what, sizeof what, "salt_and_pepper %s %s per_channel=%d values=%d",
	         dalic_dtype_cname(t), layout, per_channel, values);
	cu_rand_case_t c = {what, "noise.salt_and_pepper", layout, &in, {"prob", NULL},
	                    {cu_rand_sp_probs}, cu_rand_sp_args, cu_rand_sp_fill, &sp,
	                    DALIC_CU_RANDOM_SALT_AND_PEPPER, per_channel};
	cu_rand_case(&c);
	tl_cu_batch_free(&in);
}

Test(cuda_random, salt_and_pepper_layouts_and_types)
{
	static const int64_t chw[] = {3, 7, 13, 1, 1, 1, 4, 33, 65, 2, 0, 5, 3, 17, 300, 2, 9, 9};
	static const dalic_dtype_t types[] = {DALIC_UINT8, DALIC_INT16, DALIC_INT32, DALIC_UINT64,
	                                      DALIC_FLOAT};
	for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
		for (int pc = 0; pc < 2; pc++) {
			cu_rand_sp_case(types[k], "HWC", cu_rand_hwc, CU_RAND_HWC_N, pc, k % 2);
			cu_rand_sp_case(types[k], "CHW", chw, 6, pc, !(k % 2));
		}
	}
}

/* ---- noise.shot: both Poisson methods (means below 12 and from 12 on) ---- */

static void cu_rand_shot_args(dalic_op_t *op, const void *ctx)
{
	const float *factor = ctx;
	if (*factor >= 0)
		ASSERT_OK(dalic_op_set_float(op, "factor", *factor));
}

static void cu_rand_shot_fill(dalic_cu_random_sample_t *s, int i, dalic_dtype_t t,
                              const void *ctx)
{
	const float *factor = ctx;
	s->factor = *factor >= 0 ? *factor : 12.0f; /* the CPU operator's implementation default */
	s->inv_factor = 1.0f / s->factor;
}

Test(cuda_random, shot_noise_types_and_factors)
{
	static const dalic_dtype_t types[] = {DALIC_UINT8, DALIC_INT16, DALIC_UINT16, DALIC_INT32,
	                                      DALIC_FLOAT};
	static const float factors[] = {-1.0f, 0.5f, 20.0f, 0.0f, 3.0f};
	for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
		tl_cu_batch_t in;
		tl_cu_batch_random(&in, types[k], 1, CU_RAND_1D_N, cu_rand_1d, 400, 23u + (uint32_t)k);
		char what[64];
		snprintf(what, sizeof what, "shot %s factor %g", dalic_dtype_cname(types[k]),
		         (double)factors[k]);
		cu_rand_case_t c = {what, "noise.shot", "", &in, {NULL}, {NULL}, cu_rand_shot_args,
		                    cu_rand_shot_fill, &factors[k], DALIC_CU_RANDOM_SHOT, true};
		cu_rand_case(&c);
		tl_cu_batch_free(&in);
	}
}

/* The body writes what the shared functions compute: a broken store shows as a difference. */
Test(cuda_random, streams_follow_the_sample_and_element_strides)
{
	dalic_philox_t master, a, b;
	dalic_philox_init(&master, 42, 7, 0, 0);
	a = dalic_rng_for_sample(&master, 3);
	cr_expect_eq(a.ctr[1], 7 + 3 * 65537);
	b = dalic_rng_for_element(&a, 5);
	cr_expect_eq(b.ctr[0], (5 * 257) / 4);
	cr_expect_eq(b.phase, (5 * 257) % 4);
	/* element 5's first draw is output 5 * 257 of the sample's stream */
	dalic_philox_t walk = a;
	for (int k = 0; k < 5 * 257; k++)
		dalic_philox_next(&walk);
	cr_expect_eq(dalic_philox_next(&b), dalic_philox_next(&walk));
}

/* A Poisson mean of 2^32 or more (DALI never finishes drawing it; the CPU operator fails):
 * the kernel raises its flag and writes 0 there, and only there. */
Test(cuda_random, shot_mean_past_2_32_sets_the_flag)
{
	const float in[3] = {5.0f, 1e12f, 7.0f};
	float out[3] = {-1, -1, -1};
	dalic_cu_random_sample_t s;
	memset(&s, 0, sizeof s);
	dalic_philox_t master;
	dalic_philox_init(&master, 9, 0, 0, 0);
	s.in = in;
	s.out = out;
	s.rng = dalic_rng_for_sample(&master, 0);
	s.items = 3;
	s.channels = s.p_stride = s.c_stride = 1;
	s.factor = 1.0f;
	s.inv_factor = 1.0f;
	int bad = 0;
	dalic_cu_random_params_t p = {&s, NULL, 1, 0, DALIC_CU_RANDOM_SHOT, DALIC_FLOAT, 4, &bad};
	dalic_cu_block_t blocks[1];
	dalic_cu_launch_t l = dalic_cu_random_grid(&p, blocks, 1);
	tl_cu_run_grid(l, cu_rand_body, &p);
	cr_expect_eq(bad, 1);
	cr_expect_eq(out[1], 0.0f);
	for (int k = 0; k < 3; k += 2) {
		dalic_philox_t e = dalic_rng_for_element(&s.rng, k);
		cr_expect_eq(out[k], (float)dalic_rng_poisson_draw(in[k], &e), "element %d", k);
	}
	/* the CPU operator refuses the same input */
	tl_oneop_t t = tl_oneop("noise.shot", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t.op, "factor", 1.0));
	int64_t shape = 3;
	tl_feed(t.p, "in", DALIC_FLOAT, 1, 1, &shape, in, NULL);
	cr_expect_not_null(strstr(tl_run_fails(t.p, DALIC_EOP), "never finishes"));
	dalic_pipeline_destroy(t.p);
}
