/*
 * random.normal: values of a normal distribution with `mean` (default 0) and `stddev`
 * (default 1), both possibly per sample, drawn as DALI does (random_dist.h): every element
 * takes a fresh Box-Muller pair from its own Philox generator and keeps the first coordinate,
 * fma(x, stddev, mean). The arithmetic is float for outputs up to 16-bit integers and float,
 * double for 32/64-bit integers and double, as DALI's; integer outputs are rounded and
 * saturated. DALI checks no sign on stddev. Output shape: rng_shape.h.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "kernels/common/rng_gpu.h"
#include "kernels/common/rng_shape.h"

static const dalic_dtype_t normal_types[] = {
    DALIC_UINT8, DALIC_INT8,  DALIC_UINT16, DALIC_INT16, DALIC_UINT32,
    DALIC_INT32, DALIC_UINT64, DALIC_INT64, DALIC_FLOAT, DALIC_FLOAT64,
};

typedef struct normal_dist {
	float mean, stddev;
} normal_dist_t;

static bool normal_in_double(dalic_dtype_t t)
{
	return t == DALIC_INT32 || t == DALIC_UINT32 || t == DALIC_INT64 || t == DALIC_UINT64 ||
	       t == DALIC_FLOAT64;
}

static int normal_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	dalic_dtype_t dtype = (dalic_dtype_t)dalic_arg_int(ctx, "dtype");
	DALIC_TRY(dalic_rng_check_dtype(ctx, ws, dtype, normal_types, 10));
	DALIC_TRY(dalic_rng_setup_output(ctx, ws, dtype));
	for (int i = 0; i < ws->batch_size; i++) {
		float v;
		DALIC_TRY(dalic_rng_arg_scalar(ctx, ws, "mean", i, &v));
		DALIC_TRY(dalic_rng_arg_scalar(ctx, ws, "stddev", i, &v));
	}
	return DALIC_OK;
}

static double normal_element_f32(const void *dist, dalic_philox_t *g)
{
	const normal_dist_t *d = dist;
	return dalic_rng_normal_f32(g, d->mean, d->stddev);
}

static double normal_element_f64(const void *dist, dalic_philox_t *g)
{
	const normal_dist_t *d = dist;
	return dalic_rng_normal_f64(g, d->mean, d->stddev);
}

int dalic_random_normal_cu_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
				  dalic_cu_random_sample_t *s, int *kind)
{
	DALIC_TRY(dalic_rng_arg_scalar(ctx, ws, "mean", i, &s->mean));
	DALIC_TRY(dalic_rng_arg_scalar(ctx, ws, "stddev", i, &s->stddev));
	*kind = normal_in_double(ws->outputs[0]->dtype) ? DALIC_CU_RANDOM_NORMAL_F64
							 : DALIC_CU_RANDOM_NORMAL_F32;
	return DALIC_OK;
}

static int normal_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	dalic_cu_random_sample_t s;
	int kind;
	DALIC_TRY(dalic_random_normal_cu_sample(ctx, ws, i, &s, &kind));
	normal_dist_t d = {s.mean, s.stddev};
	bool dbl = kind == DALIC_CU_RANDOM_NORMAL_F64;
	dalic_rng_generate(ctx, ws, i, dbl ? normal_element_f64 : normal_element_f32, &d);
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"mean", DALIC_ARG_FLOAT, "0.0", "Mean of the distribution.", .tensor = true},
    {"stddev", DALIC_ARG_FLOAT, "1.0", "Standard deviation of the distribution.", .tensor = true},
    {"shape", DALIC_ARG_INT_LIST, "None", "Shape of each output sample.", .tensor = true},
    {"dtype", DALIC_ARG_DTYPE, "FLOAT", "Output data type."},
    {0},
};

static const dalic_kernel_t kernel = {.setup = normal_setup, .run_sample = normal_run_sample};

DALIC_OPERATOR(random__Normal) = {
    .name = "random__Normal",
    .fn = "random.normal",
    .aliases = {"NormalDistribution"},
    .module = "nvidia.dali.fn.random",
    .doc = "Generates random numbers following a normal distribution.",
    .min_inputs = 0,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .random = true,
    .args = args,
    .cpu = &kernel,
};
