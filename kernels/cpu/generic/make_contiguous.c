/*
 * MakeContiguous: copies a batch into one contiguous buffer. The graph build inserts it for
 * every pipeline output (`__MakeContiguous_*`) and for cpu->gpu transfers
 * (`__Copy_CpuToGpu_*`, device "mixed"), as DALI does; it shows up in executor_statistics.
 * Host batches are copied sample by sample on the worker threads, as DALI's
 * MakeContiguousCPU does with its thread pool (setup sized the output, the executor
 * allocated it); copies that involve device memory go through the device backend in run.
 */
#include "engine/kernel.h"

#include <string.h>

static bool make_contiguous_host(const dalic_ws_t *ws)
{
	return ws->outputs[0]->mem != DALIC_MEM_DEVICE && ws->inputs[0]->mem != DALIC_MEM_DEVICE;
}

static int make_contiguous_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_batch_copy_meta(ws->outputs[0], ws->inputs[0]);
}

static int make_contiguous_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                      int thread)
{
	size_t n = dalic_batch_sample_bytes(ws->inputs[0], i);
	if (make_contiguous_host(ws) && n)
		memcpy(ws->outputs[0]->ptrs[i], ws->inputs[0]->ptrs[i], n);
	(void)thread;
	return DALIC_OK;
}

static int make_contiguous_run(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return make_contiguous_host(ws) ? DALIC_OK : dalic_batch_copy(ws->outputs[0], ws->inputs[0]);
}

static const dalic_kernel_t kernel = {.setup = make_contiguous_setup,
                                      .run_sample = make_contiguous_run_sample,
                                      .run = make_contiguous_run};

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
