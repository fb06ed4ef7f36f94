/*
 * cat (DALI's Cat): joins the inputs along an existing axis, `axis` (negative counts from the
 * back) or the layout letter `axis_name`; the other extents must match sample by sample.
 * Inputs with no elements in the whole batch are left out, as DALI does. The output has input
 * 0's layout. The work is kernels/common/join.c's.
 */
#include "engine/kernel.h"
#include "kernels/common/join.h"

static int cat_init(dalic_op_ctx_t *ctx)
{
	return dalic_join_init(ctx, false);
}

static const dalic_arg_schema_t args[] = {
    {"axis", DALIC_ARG_INT, "0", "Axis along which the inputs are concatenated."},
    {"axis_name", DALIC_ARG_STRING, "None",
     "Layout letter of the concatenation axis (instead of `axis`)."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(join_state_t),
    .init = cat_init,
    .setup = dalic_join_setup,
    .run_sample = dalic_join_run_sample,
    .fini = dalic_join_fini,
};

DALIC_OPERATOR(Cat) = {
    .name = "Cat",
    .fn = "cat",
    .doc = "Joins the input tensors along an existing axis.",
    .min_inputs = 1,
    .max_inputs = 999,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
