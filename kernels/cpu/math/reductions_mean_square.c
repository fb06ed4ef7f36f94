/*
 * reductions.mean_square (DALI's reductions__MeanSquare): the mean of squares, float by default;
 * `dtype` may be the 64-bit widening of integers (squares summed there). Per sample, over `axes` /
 * `axis_names` (all axes by default; an empty list reduces nothing), `keep_dims` keeping reduced
 * dims as 1. Arithmetic as DALI's CPU kernel (kernels/common/reduce.c): pairwise sums in the output
 * type, so float results are bit-identical.
 */
#include "engine/kernel.h"
#include "kernels/common/reduce_op.h"

static const dalic_reduce_op_t reductions_mean_square_op = {.kind = DALIC_REDUCE_SQUARE,
                                                            .allowed = DALIC_REDUCE_WIDE |
                                                                       DALIC_REDUCE_FLOAT,
                                                            .dflt = DALIC_FLOAT,
                                                            .scale = true};

static int reductions_mean_square_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_reduce_op_setup(ctx, ws, &reductions_mean_square_op);
}

static int reductions_mean_square_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                             int thread)
{
	return dalic_reduce_op_run_sample(ctx, ws, i, &reductions_mean_square_op);
}

static const dalic_arg_schema_t args[] = {
    DALIC_REDUCE_AXES_ARGS,
    {"dtype", DALIC_ARG_DTYPE, "None", "Output type (see above)."},
    {0},
};

static const dalic_kernel_t kernel = {.setup = reductions_mean_square_setup,
                                      .run_sample = reductions_mean_square_run_sample};

DALIC_OPERATOR(reductions__MeanSquare) = {
    .name = "reductions__MeanSquare",
    .fn = "reductions.mean_square",
    .module = "nvidia.dali.fn.reductions",
    .doc = "Mean of squared elements along the given axes.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
