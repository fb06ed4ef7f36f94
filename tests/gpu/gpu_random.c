/*
 * test-gpu: the random operators' kernel on the GPU against the CPU operators with the same seed
 * (the cases of test_cuda_random, two iterations each). uniform, coin_flip and
 * salt_and_pepper use integer arithmetic, fmaf and correctly rounded conversions only: byte
 * for byte. normal and gaussian go through logf/cosf (log/cos), which CUDA computes within a
 * few ulp of glibc: float outputs within 1e-5 and double outputs within 1e-12 of max(|CPU|,
 * 1), integer outputs within 1 (a rounding step). shot's rejection loop compares values that
 * log, exp and lgamma make: a different last bit can change a rare draw, so at most 1 in 1000
 * elements may differ (docs/gpu.md).
 */
#include "tests/gpu/gpu_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef DALIC_HAVE_CUDA
#include "engine/rng.h"
#include "kernels/common/rng_noise.h"
#include "kernels/common/rng_shape.h"
#include "kernels/cuda/random.cuh"

#include <cuda_runtime_api.h>

#define GPU_RANDOM_SEED 0x1234abcdLL
#define GPU_RANDOM_ITERS 2

typedef enum gpu_random_cmp {
	GPU_RANDOM_EXACT,
	GPU_RANDOM_TRANSCENDENTAL, /* normal, gaussian */
	GPU_RANDOM_RARE,           /* shot */
} gpu_random_cmp_t;

typedef struct gpu_random_case {
	const char *what, *op, *layout;
	dalic_dtype_t in_dtype; /* the shape-like / noise input */
	int ndim, n;
	const int64_t *shapes;
	int kind;
	dalic_dtype_t dtype; /* `dtype` argument (DALIC_NO_TYPE: none, the noise operators) */
	const char *float_arg; /* one float argument (NULL: none) */
	float float_value;
	const float *values; /* random.uniform's `values` */
	int num_values;
	gpu_random_cmp_t cmp;
} gpu_random_case_t;

static bool gpu_random_ok(int rc, const char *what)
{
	if (rc == DALIC_OK)
		return true;
	fprintf(stderr, "test-gpu: %s: %s\n", what, dalic_last_error());
	return false;
}

/* The CPU operator between source "in" and the output, seeded. */
static dalic_pipeline_t *gpu_random_pipeline(const gpu_random_case_t *c)
{
	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = c->n;
	params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	params.exec_pipelined = false;
	params.exec_async = false;
	params.prefetch_cpu = params.prefetch_gpu = 1;
	dalic_pipeline_t *p = NULL;
	dalic_op_t *src, *op;
	if (!gpu_random_ok(dalic_pipeline_create(&params, &p), c->what))
		return NULL;
	bool ok = gpu_random_ok(dalic_pipeline_add_op(p, "external_source", "cpu", &src), c->what) &&
	          gpu_random_ok(dalic_op_set_name(src, "in"), c->what) &&
	          gpu_random_ok(dalic_pipeline_add_op(p, c->op, "cpu", &op), c->what) &&
	          gpu_random_ok(dalic_op_add_input(op, "in", NULL), c->what) &&
	          gpu_random_ok(dalic_op_set_int(op, "seed", GPU_RANDOM_SEED), c->what);
	if (ok && c->dtype != DALIC_NO_TYPE)
		ok = gpu_random_ok(dalic_op_set_int(op, "dtype", c->dtype), c->what);
	if (ok && c->float_arg)
		ok = gpu_random_ok(dalic_op_set_float(op, c->float_arg, c->float_value), c->what);
	if (ok && c->values) {
		double v[16];
		for (int k = 0; k < c->num_values; k++)
			v[k] = c->values[k];
		ok = gpu_random_ok(dalic_op_set_floats(op, "values", c->num_values, v), c->what);
	}
	ok = ok && gpu_random_ok(dalic_pipeline_add_output(p, dalic_op_output(op, 0), NULL), c->what);
	if (!ok) {
		dalic_pipeline_destroy(p);
		return NULL;
	}
	return p;
}

/* One iteration of the CPU operator on `in`. */
static const dalic_batch_t *gpu_random_cpu(dalic_pipeline_t *p, const gpu_random_case_t *c,
                                           const gpu_check_batch_t *in)
{
	size_t total = 0;
	for (int i = 0; i < in->n; i++)
		total += in->bytes[i];
	uint8_t *all = malloc(total ? total : 1), *q = all;
	int64_t shapes[GPU_CHECK_MAX_SAMPLES * DALIC_MAX_NDIM];
	for (int i = 0; i < in->n; i++) {
		memcpy(q, in->host[i], in->bytes[i]);
		q += in->bytes[i];
		for (int d = 0; d < in->ndim; d++)
			shapes[i * in->ndim + d] = in->shape[i][d];
	}
	bool ok = gpu_random_ok(dalic_pipeline_feed_input(p, "in", in->dtype, in->ndim, in->n,
	                                                  shapes, all, c->layout),
	                        c->what) &&
	          gpu_random_ok(dalic_pipeline_run(p), c->what);
	free(all);
	return ok ? dalic_pipeline_output(p, 0) : NULL;
}

/* Sample i's distribution, as the CPU operator builds it from the case's arguments. */
static void gpu_random_fill(const gpu_random_case_t *c, dalic_dtype_t t,
                            dalic_cu_random_sample_t *s, const float *dev_values)
{
	float arg = c->float_arg ? c->float_value : 0.0f;
	switch (c->kind) {
	case DALIC_CU_RANDOM_UNIFORM_F32:
	case DALIC_CU_RANDOM_UNIFORM_F64: {
		double lo = dalic_rng_cvt_to(t, -1.0f), hi = dalic_rng_cvt_to(t, 1.0f);
		dalic_rng_uniform_f32_init(&s->uniform_f32, (float)lo, (float)hi);
		dalic_rng_uniform_f64_init(&s->uniform_f64, lo, hi);
		break;
	}
	case DALIC_CU_RANDOM_PICK:
		s->values = dev_values;
		s->num_values = c->num_values;
		break;
	case DALIC_CU_RANDOM_COIN_FLIP:
		s->threshold = dalic_rng_bernoulli_threshold(c->float_arg ? arg : 0.5f);
		break;
	case DALIC_CU_RANDOM_SALT_AND_PEPPER:
		s->prob = c->float_arg ? arg : 0.05f;
		s->salt_prob = s->prob * 0.5f;
		s->salt = dalic_rng_salt_and_pepper_default(t, true);
		s->pepper = dalic_rng_salt_and_pepper_default(t, false);
		break;
	case DALIC_CU_RANDOM_SHOT:
		s->factor = c->float_arg ? arg : 12.0f;
		s->inv_factor = 1.0f / s->factor;
		break;
	default: /* normal, gaussian: mean 0 unless given as `mean`, stddev 1 */
		s->mean = c->float_arg ? arg : 0.0f;
		s->stddev = 1.0f;
		break;
	}
}

/* Compares out (already copied back) with the CPU by the case's rule; mismatching samples. */
static int gpu_random_compare(const gpu_random_case_t *c, const char *what,
                              const dalic_batch_t *cpu, gpu_check_batch_t *out)
{
	if (c->cmp == GPU_RANDOM_EXACT)
		return gpu_check_compare(what, cpu, out);
	int bad = 0;
	size_t differ = 0, total = 0;
	if (cudaDeviceSynchronize() != cudaSuccess)
		return out->n ? out->n : 1;
	dalic_dtype_t t = out->dtype;
	bool is_float = t == DALIC_FLOAT || t == DALIC_FLOAT64;
	double rel = t == DALIC_FLOAT ? 1e-5 : 1e-12;
	for (int i = 0; i < out->n; i++) {
		size_t n = out->bytes[i] / dalic_dtype_size(t);
		if (cudaMemcpy(out->host[i], out->dev[i], out->bytes[i], cudaMemcpyDeviceToHost) !=
		    cudaSuccess) {
			bad++;
			continue;
		}
		total += n;
		for (size_t k = 0; k < n; k++) {
			double a = dalic_rng_load_f64(t, dalic_batch_data(cpu, i), (int64_t)k);
			double b = dalic_rng_load_f64(t, out->host[i], (int64_t)k);
			double tol = c->cmp == GPU_RANDOM_RARE ? 0
			             : is_float              ? rel * (fabs(a) > 1 ? fabs(a) : 1)
			                                     : 1;
			if (fabs(a - b) <= tol)
				continue;
			if (c->cmp == GPU_RANDOM_RARE) {
				differ++;
				continue;
			}
			fprintf(stderr, "test-gpu: %s: sample %d element %zu: CPU %.17g, GPU %.17g\n",
			        what, i, k, a, b);
			bad++;
			break;
		}
	}
	if (c->cmp == GPU_RANDOM_RARE) {
		if (differ * 1000 > total)
			bad++;
		printf("%-40s %s (%zu of %zu elements differ, at most 1/1000 allowed)\n", what,
		       bad ? "DIFFERS" : "matches the CPU", differ, total);
	} else {
		printf("%-40s %s (tolerance: %s)\n", what, bad ? "DIFFERS" : "matches the CPU",
		       is_float ? (t == DALIC_FLOAT ? "1e-5 relative" : "1e-12 relative") : "1");
	}
	return bad;
}

/* One iteration's kernel run into `out` and its comparison. */
static int gpu_random_iteration(const gpu_random_case_t *c, const gpu_check_batch_t *in,
                                const dalic_batch_t *cpu, int it, const float *dev_values,
                                int *dev_bad)
{
	gpu_check_batch_t out;
	memset(&out, 0, sizeof out);
	if (!gpu_check_batch_like(&out, cpu, 0xa5)) {
		gpu_check_batch_free(&out);
		return 1;
	}
	dalic_dtype_t t = dalic_batch_dtype(cpu);
	dalic_philox_t master;
	dalic_philox_init(&master, (uint64_t)GPU_RANDOM_SEED, (uint64_t)(it * c->n), 0, 0);
	dalic_cu_random_sample_t samples[GPU_CHECK_MAX_SAMPLES];
	memset(samples, 0, sizeof samples);
	bool per_channel = c->kind != DALIC_CU_RANDOM_SALT_AND_PEPPER;
	for (int i = 0; i < c->n; i++) {
		dalic_cu_random_sample_t *s = &samples[i];
		dalic_rng_noise_geom_t geo;
		dalic_rng_noise_geom_of(c->layout, in->ndim, in->shape[i], per_channel, &geo);
		s->in = in->dev[i];
		s->out = out.dev[i];
		s->rng = dalic_rng_for_sample(&master, i);
		s->items = geo.pixels;
		s->channels = geo.channels;
		s->p_stride = geo.p_stride;
		s->c_stride = geo.c_stride;
		gpu_random_fill(c, t, s, dev_values);
	}
	dalic_cu_random_params_t prm = {samples, NULL, c->n, 0, c->kind, (int)t,
	                                (int64_t)dalic_dtype_size(t), dev_bad};
	dalic_cu_random_grid(&prm, NULL, 0);
	dalic_cu_block_t *blocks = calloc((size_t)prm.nblocks + 1, sizeof *blocks);
	dalic_cu_random_grid(&prm, blocks, prm.nblocks);
	char what[96];
	snprintf(what, sizeof what, "%s, iteration %d", c->what, it);
	int bad = dalic_cu_random_launch(&prm, 0) ? c->n : gpu_random_compare(c, what, cpu, &out);
	free(blocks);
	gpu_check_batch_free(&out);
	return bad;
}

static int gpu_random_case(const gpu_random_case_t *c)
{
	gpu_check_batch_t in;
	int bad = 1, flag = 0;
	float *dev_values = NULL;
	int *dev_bad = NULL;
	dalic_pipeline_t *p = NULL;
	if (!gpu_check_batch_random(&in, c->in_dtype, c->ndim, c->n, c->shapes, 300,
	                            11u + (uint32_t)c->n))
		goto done;
	if (cudaMalloc((void **)&dev_bad, sizeof *dev_bad) != cudaSuccess ||
	    cudaMemset(dev_bad, 0, sizeof *dev_bad) != cudaSuccess)
		goto done;
	if (c->values && (cudaMalloc((void **)&dev_values, sizeof(float) * (size_t)c->num_values) !=
	                      cudaSuccess ||
	                  cudaMemcpy(dev_values, c->values, sizeof(float) * (size_t)c->num_values,
	                             cudaMemcpyHostToDevice) != cudaSuccess))
		goto done;
	p = gpu_random_pipeline(c);
	if (!p)
		goto done;
	bad = 0;
	for (int it = 0; it < GPU_RANDOM_ITERS; it++) {
		const dalic_batch_t *cpu = gpu_random_cpu(p, c, &in);
		bad += cpu ? gpu_random_iteration(c, &in, cpu, it, dev_values, dev_bad) : 1;
	}
	if (cudaMemcpy(&flag, dev_bad, sizeof flag, cudaMemcpyDeviceToHost) != cudaSuccess || flag) {
		fprintf(stderr, "test-gpu: %s: the kernel flagged a Poisson mean of 2^32\n", c->what);
		bad++;
	}
done:
	dalic_pipeline_destroy(p);
	if (dev_values)
		cudaFree(dev_values);
	if (dev_bad)
		cudaFree(dev_bad);
	gpu_check_batch_free(&in);
	return bad;
}

int gpu_check_random(void)
{
	static const int64_t hwc[] = {1, 1, 3, 7, 13, 3, 33, 65, 3, 0, 5, 3, 17, 300, 1, 9, 64, 4};
	static const int64_t flat[] = {1, 5, 2047, 2049, 0, 4099, 17};
	static const float values[] = {-3.5f, 0.0f, 1.25f, 7.0f, 1e6f};
	const gpu_random_case_t cases[] = {
	    {"uniform float", "random.uniform", "HWC", DALIC_UINT8, 3, 6, hwc,
	     DALIC_CU_RANDOM_UNIFORM_F32, DALIC_FLOAT, NULL, 0, NULL, 0, GPU_RANDOM_EXACT},
	    {"uniform float64", "random.uniform", "HWC", DALIC_UINT8, 3, 6, hwc,
	     DALIC_CU_RANDOM_UNIFORM_F64, DALIC_FLOAT64, NULL, 0, NULL, 0, GPU_RANDOM_EXACT},
	    {"uniform int16", "random.uniform", "", DALIC_UINT8, 1, 7, flat,
	     DALIC_CU_RANDOM_UNIFORM_F32, DALIC_INT16, NULL, 0, NULL, 0, GPU_RANDOM_EXACT},
	    {"uniform values", "random.uniform", "", DALIC_UINT8, 1, 7, flat, DALIC_CU_RANDOM_PICK,
	     DALIC_FLOAT, NULL, 0, values, 5, GPU_RANDOM_EXACT},
	    {"coin_flip int32 p=0.3", "random.coin_flip", "", DALIC_UINT8, 1, 7, flat,
	     DALIC_CU_RANDOM_COIN_FLIP, DALIC_INT32, "probability", 0.3f, NULL, 0,
	     GPU_RANDOM_EXACT},
	    {"coin_flip bool", "random.coin_flip", "", DALIC_UINT8, 1, 7, flat,
	     DALIC_CU_RANDOM_COIN_FLIP, DALIC_BOOL, NULL, 0, NULL, 0, GPU_RANDOM_EXACT},
	    {"salt_and_pepper u8 HWC p=0.3", "noise.salt_and_pepper", "HWC", DALIC_UINT8, 3, 6, hwc,
	     DALIC_CU_RANDOM_SALT_AND_PEPPER, DALIC_NO_TYPE, "prob", 0.3f, NULL, 0,
	     GPU_RANDOM_EXACT},
	    {"salt_and_pepper float HWC", "noise.salt_and_pepper", "HWC", DALIC_FLOAT, 3, 6, hwc,
	     DALIC_CU_RANDOM_SALT_AND_PEPPER, DALIC_NO_TYPE, NULL, 0, NULL, 0, GPU_RANDOM_EXACT},
	    {"normal float", "random.normal", "", DALIC_UINT8, 1, 7, flat,
	     DALIC_CU_RANDOM_NORMAL_F32, DALIC_FLOAT, "mean", 3.0f, NULL, 0,
	     GPU_RANDOM_TRANSCENDENTAL},
	    {"normal float64", "random.normal", "", DALIC_UINT8, 1, 7, flat,
	     DALIC_CU_RANDOM_NORMAL_F64, DALIC_FLOAT64, NULL, 0, NULL, 0,
	     GPU_RANDOM_TRANSCENDENTAL},
	    {"normal int16", "random.normal", "", DALIC_UINT8, 1, 7, flat,
	     DALIC_CU_RANDOM_NORMAL_F32, DALIC_INT16, "mean", 20.0f, NULL, 0,
	     GPU_RANDOM_TRANSCENDENTAL},
	    {"gaussian u8", "noise.gaussian", "", DALIC_UINT8, 1, 7, flat, DALIC_CU_RANDOM_GAUSSIAN,
	     DALIC_NO_TYPE, NULL, 0, NULL, 0, GPU_RANDOM_TRANSCENDENTAL},
	    {"gaussian float", "noise.gaussian", "", DALIC_FLOAT, 1, 7, flat,
	     DALIC_CU_RANDOM_GAUSSIAN, DALIC_NO_TYPE, "mean", -2.0f, NULL, 0,
	     GPU_RANDOM_TRANSCENDENTAL},
	    {"gaussian int32", "noise.gaussian", "", DALIC_INT32, 1, 7, flat,
	     DALIC_CU_RANDOM_GAUSSIAN, DALIC_NO_TYPE, NULL, 0, NULL, 0, GPU_RANDOM_TRANSCENDENTAL},
	    {"shot u8", "noise.shot", "", DALIC_UINT8, 1, 7, flat, DALIC_CU_RANDOM_SHOT,
	     DALIC_NO_TYPE, NULL, 0, NULL, 0, GPU_RANDOM_RARE},
	    {"shot int16 factor 0.5", "noise.shot", "", DALIC_INT16, 1, 7, flat,
	     DALIC_CU_RANDOM_SHOT, DALIC_NO_TYPE, "factor", 0.5f, NULL, 0, GPU_RANDOM_RARE},
	};
	int bad = 0;
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
		bad += gpu_random_case(&cases[k]);
	return bad;
}
#else
int gpu_check_random(void)
{
	return 0;
}
#endif
