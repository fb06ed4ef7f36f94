/*
 * noise.gaussian: out = ConvertSat<T>(in + n), n ~ Normal(mean, stddev) drawn per element as
 * DALI 2.4 draws it (gaussian_noise.h): a fresh Box-Muller pair from the element's Philox
 * generator, fma(x, stddev, mean). The arithmetic is double for 32- and 64-bit integer inputs,
 * float otherwise; integers round half away from zero and saturate. mean and stddev are float32
 * per sample. Types, shapes and layout: rng_noise.h.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "kernels/common/rng_elem.h"
#include "kernels/common/rng_gpu.h"
#include "kernels/common/rng_noise.h"
#include "kernels/common/rng_shape.h"

#define GAUSSIAN_BLOCK 256

static int gaussian_params(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, float *mean,
			   float *stddev)
{
	DALIC_TRY(dalic_rng_arg_scalar(ctx, ws, "mean", i, mean));
	return dalic_rng_arg_scalar(ctx, ws, "stddev", i, stddev);
}

static int gaussian_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	DALIC_TRY(dalic_rng_noise_setup(ctx, ws));
	for (int i = 0; i < ws->batch_size; i++) {
		float mean, stddev;
		DALIC_TRY(gaussian_params(ctx, ws, i, &mean, &stddev));
	}
	return DALIC_OK;
}

int dalic_noise_gaussian_cu_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
				   dalic_cu_random_sample_t *s, int *kind)
{
	*kind = DALIC_CU_RANDOM_GAUSSIAN;
	return gaussian_params(ctx, ws, i, &s->mean, &s->stddev);
}

static int gaussian_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	float mean, stddev;
	DALIC_TRY(gaussian_params(ctx, ws, i, &mean, &stddev));
	dalic_dtype_t t = in->dtype;
	bool wide = dalic_rng_gaussian_wide(t);
	int64_t n = dalic_batch_sample_elems(in, i);
	dalic_philox_t g = dalic_op_rng(ctx, i);
	double v[GAUSSIAN_BLOCK];
	for (int64_t p0 = 0; p0 < n; p0 += GAUSSIAN_BLOCK) {
		int64_t k = n - p0 < GAUSSIAN_BLOCK ? n - p0 : GAUSSIAN_BLOCK;
		for (int64_t j = 0; j < k; j++) {
			dalic_philox_t e = dalic_rng_for_element(&g, p0 + j);
			double x = dalic_rng_load_f64(t, in->ptrs[i], p0 + j);
			v[j] = dalic_rng_gaussian_value(x, wide, mean, stddev, &e);
		}
		dalic_rng_store(t, out->ptrs[i], p0, v, k);
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"mean", DALIC_ARG_FLOAT, "0.0", "Mean of the distribution.", .tensor = true},
    {"stddev", DALIC_ARG_FLOAT, "1.0", "Standard deviation of the distribution.", .tensor = true},
    {0},
};

static const dalic_kernel_t kernel = {.setup = gaussian_setup, .run_sample = gaussian_run_sample};

DALIC_OPERATOR(noise__Gaussian) = {
    .name = "noise__Gaussian",
    .fn = "noise.gaussian",
    .module = "nvidia.dali.fn.noise",
    .doc = "Applies gaussian noise to the input. The shape and data type of the output will "
	   "match the input.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .random = true,
    .args = args,
    .cpu = &kernel,
};
