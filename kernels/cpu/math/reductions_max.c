/*
 * reductions.max (DALI's reductions__Max): the largest element, in the input's type.
 * Per sample, over `axes` / `axis_names` (all axes by default; an empty list reduces
 * nothing), `keep_dims` keeping reduced dims as 1. Arithmetic as DALI's CPU kernel
 * (kernels/common/reduce.c): pairwise sums in the output type, so float results are
 * bit-identical.
 */
#include "engine/kernel.h"
#include "kernels/common/reduce_op.h"

static const dalic_reduce_op_t reductions_max_op = {.kind = DALIC_REDUCE_MAX,
                                                    .dflt = DALIC_NO_TYPE};

static int reductions_max_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_reduce_op_setup(ctx, ws, &reductions_max_op);
}

static int reductions_max_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	return dalic_reduce_op_run_sample(ctx, ws, i, &reductions_max_op);
}

static const dalic_arg_schema_t args[] = {
    DALIC_REDUCE_AXES_ARGS,
    {0},
};

static const dalic_kernel_t kernel = {.setup = reductions_max_setup,
                                      .run_sample = reductions_max_run_sample};

DALIC_OPERATOR(reductions__Max) = {
    .name = "reductions__Max",
    .fn = "reductions.max",
    .module = "nvidia.dali.fn.reductions",
    .doc = "Maximum of elements along the given axes.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
