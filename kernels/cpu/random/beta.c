/*
 * random.beta: values in [0, 1] from Beta(alpha, beta), float (default) or double, as DALI 2.4
 * draws them (beta_distribution.h): X / (X + Y) with X ~ Gamma(alpha), Y ~ Gamma(beta) from
 * libstdc++'s gamma_distribution; when both parameters are below 1, Gamma(p + 1) draws scaled
 * by U^(1/p), computed in log space from two exponential draws (Devroye, p. 182).
 *
 * The generator is DALI's: each element starts from its own Philox element generator, but the
 * distribution object (two gammas, each with the normal that keeps the second value of its
 * pair) is copied once per chunk of work and carries over from element to element: one chunk
 * per sample below 2^18 elements, else chunks of about 2^16 (rng_base_cpu.h).
 * Output shape: rng_shape.h. alpha and beta are float32 per sample, positive and finite.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "engine/rng_std.h"
#include "kernels/common/rng_shape.h"

#include <math.h>

/* DALI's BetaDistributionImpl<float> */
typedef struct beta_dist_f32 {
	bool small; /* alpha < 1 && beta < 1 */
	float alpha, beta, b_div_a;
	dalic_rng_std_gamma_f32_t a, b;
} beta_dist_f32_t;

typedef struct beta_dist_f64 {
	bool small;
	double alpha, beta, b_div_a;
	dalic_rng_std_gamma_f64_t a, b;
} beta_dist_f64_t;

static void beta_init_f32(beta_dist_f32_t *d, float alpha, float beta)
{
	d->small = alpha < 1 && beta < 1;
	d->alpha = alpha;
	d->beta = beta;
	d->b_div_a = beta / alpha;
	dalic_rng_std_gamma_f32_init(&d->a, d->small ? alpha + 1 : alpha, 1.0f);
	dalic_rng_std_gamma_f32_init(&d->b, d->small ? beta + 1 : beta, 1.0f);
}

static void beta_init_f64(beta_dist_f64_t *d, double alpha, double beta)
{
	d->small = alpha < 1 && beta < 1;
	d->alpha = alpha;
	d->beta = beta;
	d->b_div_a = beta / alpha;
	dalic_rng_std_gamma_f64_init(&d->a, d->small ? alpha + 1 : alpha, 1.0);
	dalic_rng_std_gamma_f64_init(&d->b, d->small ? beta + 1 : beta, 1.0);
}

static float beta_draw_f32(beta_dist_f32_t *d, dalic_philox_t *g)
{
	float a = dalic_rng_std_gamma_f32(&d->a, g);
	float b = dalic_rng_std_gamma_f32(&d->b, g);
	if (!d->small)
		return a / (a + b);
	float ln_ua = -dalic_rng_std_exponential_f32(g, 1.0f);
	float ln_ub = -dalic_rng_std_exponential_f32(g, 1.0f);
	if (ln_ua * d->b_div_a < ln_ub) {
		float c = (ln_ua * d->b_div_a - ln_ub) / d->beta;
		float ac = a * expf(c);
		return ac / (ac + b);
	}
	float c = (ln_ub - ln_ua * d->b_div_a) / d->beta;
	float bc = b * expf(c);
	return a / (a + bc);
}

static double beta_draw_f64(beta_dist_f64_t *d, dalic_philox_t *g)
{
	double a = dalic_rng_std_gamma_f64(&d->a, g);
	double b = dalic_rng_std_gamma_f64(&d->b, g);
	if (!d->small)
		return a / (a + b);
	double ln_ua = -dalic_rng_std_exponential_f64(g, 1.0);
	double ln_ub = -dalic_rng_std_exponential_f64(g, 1.0);
	if (ln_ua * d->b_div_a < ln_ub) {
		double c = (ln_ua * d->b_div_a - ln_ub) / d->beta;
		double ac = a * exp(c);
		return ac / (ac + b);
	}
	double c = (ln_ub - ln_ua * d->b_div_a) / d->beta;
	double bc = b * exp(c);
	return a / (a + bc);
}

/* Sample i's alpha and beta, checked as DALI checks them. */
static int beta_params(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, float *alpha,
		       float *beta)
{
	DALIC_TRY(dalic_rng_arg_scalar(ctx, ws, "alpha", i, alpha));
	DALIC_TRY(dalic_rng_arg_scalar(ctx, ws, "beta", i, beta));
	if (!(*alpha > 0 && isfinite(*alpha)))
		return dalic_op_fail(ctx, ws, i,
				     "The `alpha` must be a positive float32, got `%g` for sample at "
				     "index %d.",
				     *alpha, i);
	if (!(*beta > 0 && isfinite(*beta)))
		return dalic_op_fail(ctx, ws, i,
				     "The `beta` must be a positive float32, got `%g` for sample at "
				     "index %d.",
				     *beta, i);
	return DALIC_OK;
}

static int beta_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	dalic_dtype_t dtype = dalic_arg_given(ctx, "dtype") ? (dalic_dtype_t)dalic_arg_int(ctx, "dtype")
							   : DALIC_FLOAT;
	DALIC_TRY(dalic_rng_setup_output(ctx, ws, dtype));
	for (int i = 0; i < ws->batch_size; i++) {
		float alpha, beta;
		DALIC_TRY(beta_params(ctx, ws, i, &alpha, &beta));
	}
	if (dtype != DALIC_FLOAT && dtype != DALIC_FLOAT64)
		return dalic_op_fail(ctx, ws, -1,
				     "Data type %s is not supported. Supported types are : float, "
				     "double",
				     dalic_dtype_cname(dtype));
	return DALIC_OK;
}

#define BETA_THRESHOLD (1 << 18)
#define BETA_CHUNK (1 << 16)

static int beta_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	float alpha, beta;
	DALIC_TRY(beta_params(ctx, ws, i, &alpha, &beta));
	dalic_batch_t *out = ws->outputs[0];
	int64_t n = dalic_batch_sample_elems(out, i);
	int64_t chunks = n < BETA_THRESHOLD ? 1 : (n + BETA_CHUNK - 1) / BETA_CHUNK;
	dalic_philox_t g = dalic_op_rng(ctx, i);
	bool f32 = out->dtype == DALIC_FLOAT;
	beta_dist_f32_t d32, t32 = {0};
	beta_dist_f64_t d64, t64 = {0};
	if (f32)
		beta_init_f32(&t32, alpha, beta);
	else
		beta_init_f64(&t64, alpha, beta);
	for (int64_t c = 0; c < chunks; c++) {
		int64_t start = n * c / chunks, end = n * (c + 1) / chunks;
		d32 = t32; /* a fresh copy of the distribution per chunk */
		d64 = t64;
		for (int64_t p = start; p < end; p++) {
			dalic_philox_t e = dalic_rng_for_element(&g, p);
			if (f32)
				((float *)out->ptrs[i])[p] = beta_draw_f32(&d32, &e);
			else
				((double *)out->ptrs[i])[p] = beta_draw_f64(&d64, &e);
		}
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"alpha", DALIC_ARG_FLOAT, "1.0", "The alpha parameter, a positive float32 scalar.",
     .tensor = true},
    {"beta", DALIC_ARG_FLOAT, "1.0", "The beta parameter, a positive float32 scalar.",
     .tensor = true},
    {"shape", DALIC_ARG_INT_LIST, "None", "Shape of each output sample.", .tensor = true},
    {"dtype", DALIC_ARG_DTYPE, "None", "Output data type: float (default) or double."},
    {0},
};

static const dalic_kernel_t kernel = {.setup = beta_setup, .run_sample = beta_run_sample};

DALIC_OPERATOR(random__Beta) = {
    .name = "random__Beta",
    .fn = "random.beta",
    .module = "nvidia.dali.fn.random",
    .doc = "Generates a random number from [0, 1] range following the beta distribution.",
    .min_inputs = 0,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU,
    .random = true,
    .args = args,
    .cpu = &kernel,
};
