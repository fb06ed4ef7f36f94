/*
 * random.normal: values drawn from a normal distribution with `mean` (default 0) and
 * `stddev` (default 1), both of which may be given per sample. Output shape follows the
 * random operators' rule (rng_shape.h); dtype defaults to FLOAT, integer outputs are rounded
 * and saturated. Each sample slot has its own generator (ctx->rng[i]), so values depend on
 * (seed, iteration, sample) only.
 */
#include "engine/dtype.h"
#include "engine/kernel.h"
#include "kernels/common/rng_shape.h"

static int normal_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_rng_setup_output(ctx, ws, (dalic_dtype_t)dalic_arg_int(ctx, "dtype"));
}

static int normal_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	double mean, stddev;
	int rc = dalic_arg_float_at(ctx, ws, "mean", i, &mean);
	if (!rc)
		rc = dalic_arg_float_at(ctx, ws, "stddev", i, &stddev);
	if (rc)
		return rc;
	if (!(stddev >= 0))
		return dalic_op_fail(ctx, ws, i, "argument 'stddev' is %g, must be >= 0", stddev);
	dalic_batch_t *out = ws->outputs[0];
	int64_t n = dalic_batch_sample_elems(out, i);
	for (int64_t k = 0; k < n; k++)
		dalic_dtype_store_sat(out->dtype, out->ptrs[i], k,
		                mean + stddev * dalic_rng_normal(&ctx->rng[i]));
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
