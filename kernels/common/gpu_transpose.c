/*
 * transpose's GPU path: the merged-dims plan the CPU walks (kernels/common/transpose_index.h)
 * per sample, with the permutation transpose.c takes from `perm` (default: the dims
 * reversed; init has already refused an invalid one), and one launch for the batch.
 */
#include "kernels/cuda/transpose.cuh"
#include "kernels/common/gpu_op.h"

#include "engine/error.h"

DALIC_GPU_KERNEL(transpose);

static int dalic_gpu_transpose_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int n = ws->batch_size, nd = in->ndim;
	const dalic_value_t *pv = dalic_arg(ctx, "perm");
	int perm[DALIC_TRANSPOSE_MAX_NDIM];
	if (nd > DALIC_TRANSPOSE_MAX_NDIM || (pv->kind != DALIC_V_NONE && pv->n != nd))
		return dalic_op_fail(ctx, ws, -1, "transpose: %d dims not supported by the kernel",
		                     nd);
	for (int d = 0; d < nd; d++)
		perm[d] = pv->kind != DALIC_V_NONE ? (int)pv->i[d] : nd - 1 - d;
	dalic_cu_transpose_sample_t *s = dalic_gpu_scratch(r, 0, sizeof *s * (size_t)n);
	if (!s)
		return DALIC_ENOMEM;
	for (int i = 0; i < n; i++) {
		s[i].in = in->ptrs[i];
		s[i].out = out->ptrs[i];
		dalic_transpose_plan_make(&s[i].plan, nd, dalic_batch_shape(in, i), perm);
	}
	dalic_cu_transpose_params_t p = {s, NULL, n, 0, (int64_t)dalic_dtype_size(in->dtype)};
	dalic_cu_transpose_grid(&p, NULL, 0);
	dalic_cu_block_t *b = dalic_gpu_scratch(r, 1, sizeof *b * (size_t)p.nblocks);
	if (!b)
		return DALIC_ENOMEM;
	dalic_cu_launch_t l = dalic_cu_transpose_grid(&p, b, p.nblocks);
	return dalic_gpu_launch(r, &dalic_gpu_transpose_kernel, &p, &l);
}

const dalic_gpu_op_t dalic_gpu_op_transpose = {"Transpose", dalic_gpu_transpose_run};
