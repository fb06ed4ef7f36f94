/*
 * stack (DALI's Stack): joins the inputs along a new axis inserted before input dim `axis`
 * (axis == ndim interleaves the inputs' elements); every input's sample must have the same
 * shape. `axis_name` names the new axis in the output layout (which needs an input layout);
 * without it the output has no layout. The work is kernels/common/join.c's.
 */
#include "engine/kernel.h"
#include "kernels/common/join.h"

static int stack_init(dalic_op_ctx_t *ctx)
{
	return dalic_join_init(ctx, true);
}

static const dalic_arg_schema_t args[] = {
    {"axis", DALIC_ARG_INT, "0", "Position of the new axis in the output."},
    {"axis_name", DALIC_ARG_STRING, "None", "Layout letter of the new axis."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(join_state_t),
    .init = stack_init,
    .setup = dalic_join_setup,
    .run_sample = dalic_join_run_sample,
    .fini = dalic_join_fini,
};

DALIC_OPERATOR(Stack) = {
    .name = "Stack",
    .fn = "stack",
    .doc = "Joins the input tensors along a new axis.",
    .min_inputs = 1,
    .max_inputs = 999,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
