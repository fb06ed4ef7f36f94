/*
 * reductions.variance (DALI's reductions__Variance): sum((x - mean)^2) / (n - ddof) in float, the
 * mean given as input 1 (float, one value per output element). Per sample, over `axes` /
 * `axis_names` (all axes by default; an empty list reduces nothing), `keep_dims` keeping reduced
 * dims as 1. Arithmetic as DALI's CPU kernel (kernels/common/reduce.c): pairwise sums in the output
 * type, so float results are bit-identical.
 */
#include "engine/kernel.h"
#include "kernels/common/reduce_op.h"

static const dalic_reduce_op_t reductions_variance_op = {
    .kind = DALIC_REDUCE_VARIANCE, .scale = true, .mean_input = true};

static int reductions_variance_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_reduce_op_setup(ctx, ws, &reductions_variance_op);
}

static int reductions_variance_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                          int thread)
{
	return dalic_reduce_op_run_sample(ctx, ws, i, &reductions_variance_op);
}

static const dalic_arg_schema_t args[] = {
    DALIC_REDUCE_AXES_ARGS,
    {"ddof", DALIC_ARG_INT, "0", "Delta degrees of freedom: divides by n - ddof."},
    {0},
};

static const dalic_kernel_t kernel = {.setup = reductions_variance_setup,
                                      .run_sample = reductions_variance_run_sample};

DALIC_OPERATOR(reductions__Variance) = {
    .name = "reductions__Variance",
    .fn = "reductions.variance",
    .module = "nvidia.dali.fn.reductions",
    .doc = "Variance of elements along the given axes (mean as input 1).",
    .min_inputs = 2,
    .max_inputs = 2,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
