/*
 * MakeContiguous: copies a batch into one contiguous buffer. The graph build inserts it for
 * every pipeline output (`__MakeContiguous_*`) and for cpu->gpu transfers
 * (`__Copy_CpuToGpu_*`, device "mixed"), as DALI does; it shows up in executor_statistics.
 * Host batches are copied sample by sample on the worker threads, as DALI's
 * MakeContiguousCPU does with its thread pool (setup sized the output, the executor
 * allocated it); copies that involve device memory go through the device backend in run.
 * On the CPU, an input whose samples already lie back to back in one buffer (every CPU
 * operator's output, engine/exec_node.c, and a reshape of one) is passed through instead of
 * copied, as DALI's MakeContiguousCPU does: the output borrows it (the executor keeps one
 * producer buffer per output slot for that, engine/executor.c) and executor_statistics
 * report the producer's figures for it.
 */
#include "engine/kernel.h"

#include <string.h>

static bool make_contiguous_host(const dalic_ws_t *ws)
{
	return ws->outputs[0]->mem != DALIC_MEM_DEVICE && ws->inputs[0]->mem != DALIC_MEM_DEVICE;
}

/* Pass-through only cpu -> cpu: a transfer always copies. */
static bool make_contiguous_passes(const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0], *out = ws->outputs[0];
	return !in->gpu && !out->gpu && dalic_batch_can_share_all(out, in);
}

static int make_contiguous_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	if (make_contiguous_passes(ws))
		return dalic_batch_share_all(ws->outputs[0], ws->inputs[0]);
	return dalic_batch_copy_meta(ws->outputs[0], ws->inputs[0]);
}

static int make_contiguous_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                      int thread)
{
	if (ws->outputs[0]->shares == ws->inputs[0]) /* passed through in setup */
		return DALIC_OK;
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
