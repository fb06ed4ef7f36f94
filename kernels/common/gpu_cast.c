/*
 * cast's GPU path: one launch of kernels/cuda/cast.cuh for the batch, the element conversion
 * being ConvertSat's (kernels/common/convert_elem.h), as the CPU operator's.
 */
#include "kernels/cuda/cast.cuh"
#include "kernels/common/gpu_op.h"

#include "engine/error.h"

DALIC_GPU_KERNEL(cast);

static int dalic_gpu_cast_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int n = ws->batch_size;
	dalic_cu_cast_sample_t *s = dalic_gpu_scratch(r, 0, sizeof *s * (size_t)n);
	if (!s)
		return DALIC_ENOMEM;
	for (int i = 0; i < n; i++) {
		s[i].in = in->ptrs[i];
		s[i].out = out->ptrs[i];
		s[i].elems = (int64_t)dalic_batch_sample_elems(in, i);
	}
	dalic_cu_cast_params_t p = {s, NULL, n, 0, (int)in->dtype, (int)out->dtype};
	dalic_cu_cast_grid(&p, NULL, 0);
	dalic_cu_block_t *b = dalic_gpu_scratch(r, 1, sizeof *b * (size_t)p.nblocks);
	if (!b)
		return DALIC_ENOMEM;
	dalic_cu_launch_t l = dalic_cu_cast_grid(&p, b, p.nblocks);
	return dalic_gpu_launch(r, &dalic_gpu_cast_kernel, &p, &l);
}

const dalic_gpu_op_t dalic_gpu_op_cast = {"Cast", dalic_gpu_cast_run};
