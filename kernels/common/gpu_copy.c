/*
 * copy's GPU path (DALI's Copy on the gpu): one launch of kernels/cuda/copy.cuh, sample by
 * sample into the output's own memory, as the CPU operator's memcpy. MakeContiguous on the
 * gpu and mixed stages (the transfers and the pipeline outputs the build inserts) is the same
 * copy: its setup never passes a device batch through. A pageable host input (a transfer
 * under DALI_RESTRICT_PINNED_MEM) is not readable by a kernel, so it goes through the
 * backend's synchronous copy instead.
 */
#include "kernels/cuda/copy.cuh"
#include "kernels/common/gpu_op.h"

#include "engine/error.h"

DALIC_GPU_KERNEL(copy);

static int dalic_gpu_copy_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int n = ws->batch_size;
	if (in->mem == DALIC_MEM_HOST) {
		for (int i = 0; i < n; i++)
			if (r->dev->copy(out->ptrs[i], in->ptrs[i],
			                 dalic_batch_sample_bytes(in, i)))
				return dalic_fail(DALIC_EDEVICE,
				                  "copying sample %d to the device "
				                  "failed (the CUDA error is on stderr)",
				                  i);
		return DALIC_OK;
	}
	dalic_cu_copy_sample_t *s = dalic_gpu_scratch(r, 0, sizeof *s * (size_t)n);
	if (!s)
		return DALIC_ENOMEM;
	for (int i = 0; i < n; i++) {
		s[i].in = in->ptrs[i];
		s[i].out = out->ptrs[i];
		s[i].bytes = (int64_t)dalic_batch_sample_bytes(in, i);
	}
	dalic_cu_copy_params_t p = {s, NULL, n, 0};
	dalic_cu_copy_grid(&p, NULL, 0);
	dalic_cu_block_t *b = dalic_gpu_scratch(r, 1, sizeof *b * (size_t)p.nblocks);
	if (!b)
		return DALIC_ENOMEM;
	dalic_cu_launch_t l = dalic_cu_copy_grid(&p, b, p.nblocks);
	return dalic_gpu_launch(r, &dalic_gpu_copy_kernel, &p, &l);
}

const dalic_gpu_op_t dalic_gpu_op_copy = {"Copy", dalic_gpu_copy_run};
const dalic_gpu_op_t dalic_gpu_op_make_contiguous = {"MakeContiguous", dalic_gpu_copy_run};
