/*
 * MakeContiguous: copies a batch into one contiguous buffer. The graph build inserts it for
 * every pipeline output (`__MakeContiguous_*`) and for cpu->gpu transfers
 * (`__Copy_CpuToGpu_*`, device "mixed"), as DALI does; it shows up in executor_statistics.
 */
#include "engine/kernel.h"

static int make_contiguous_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_batch_copy_meta(ws->outputs[0], ws->inputs[0]);
}

static int make_contiguous_run(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_batch_copy(ws->outputs[0], ws->inputs[0]);
}

static const dalic_kernel_t kernel = {.setup = make_contiguous_setup, .run = make_contiguous_run};

DALIC_OPERATOR(MakeContiguous) = {
	.name = "MakeContiguous",
	.doc = "Copies a batch into contiguous memory (inserted by the graph build).",
	.min_inputs = 1,
	.max_inputs = 1,
	.num_outputs = 1,
	.devices = DALIC_DEV_CPU | DALIC_DEV_MIXED | DALIC_DEV_GPU,
	.internal = true,
	.cpu = &kernel,
};
