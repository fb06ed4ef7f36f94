/*
 * reductions.rms (DALI's reductions__RMS): the root mean square, float by default; `dtype` may be
 * the input's type (squares summed there, wrapping as in DALI). Per sample, over `axes` /
 * `axis_names` (all axes by default; an empty list reduces nothing), `keep_dims` keeping reduced
 * dims as 1. Arithmetic as DALI's CPU kernel (kernels/common/reduce.c): pairwise sums in the output
 * type, so float results are bit-identical.
 */
#include "engine/kernel.h"
#include "kernels/common/reduce_op.h"

static const dalic_reduce_op_t reductions_rms_op = {.kind = DALIC_REDUCE_SQUARE,
                                                    .allowed =
                                                        DALIC_REDUCE_SAME | DALIC_REDUCE_FLOAT,
                                                    .dflt = DALIC_FLOAT,
                                                    .scale = true,
                                                    .root = true};

static int reductions_rms_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_reduce_op_setup(ctx, ws, &reductions_rms_op);
}

static int reductions_rms_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	return dalic_reduce_op_run_sample(ctx, ws, i, &reductions_rms_op);
}

static const dalic_arg_schema_t args[] = {
    DALIC_REDUCE_AXES_ARGS,
    {"dtype", DALIC_ARG_DTYPE, "None", "Output type (see above)."},
    {0},
};

static const dalic_kernel_t kernel = {.setup = reductions_rms_setup,
                                      .run_sample = reductions_rms_run_sample};

DALIC_OPERATOR(reductions__RMS) = {
    .name = "reductions__RMS",
    .fn = "reductions.rms",
    .module = "nvidia.dali.fn.reductions",
    .doc = "Root mean square of elements along the given axes.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
