/*
 * copy (DALI's Copy): a deep copy of every sample, with the input's dtype, shape, layout and
 * source info. Unlike the pass-through operators the output owns its memory, so later
 * operators (or the user) never alias the input.
 */
#include "engine/kernel.h"

#include <string.h>

static int copy_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_batch_copy_meta(ws->outputs[0], ws->inputs[0]); /* sources too */
}

static int copy_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const dalic_batch_t *in = ws->inputs[0];
	size_t n = dalic_batch_sample_bytes(in, i);
	if (n)
		memcpy(ws->outputs[0]->ptrs[i], in->ptrs[i], n);
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {0},
};

static const dalic_kernel_t kernel = {
    .setup = copy_setup,
    .run_sample = copy_run_sample,
};

DALIC_OPERATOR(Copy) = {
    .name = "Copy",
    .fn = "copy",
    .doc = "Creates a copy of the input tensor.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
