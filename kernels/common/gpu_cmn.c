/*
 * crop_mirror_normalize on the GPU (kernels/cuda/cmn.cuh): one launch per batch. Each sample's
 * plan, coefficients and fill values are the ones the CPU operator computes with
 * (dalic_cmn_sample_plan: the window, the mirror and mean / std read per sample, pad_output,
 * the output layout and type); they travel inside the sample descriptors.
 */
#include "kernels/cuda/cmn.cuh"
#include "kernels/common/gpu_op.h"
#include "kernels/common/window_plans.h"

#include "engine/error.h"

DALIC_GPU_KERNEL(cmn);

static int dalic_gpu_cmn_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int n = ws->batch_size;
	dalic_cu_cmn_sample_t *s = dalic_gpu_scratch(r, 0, sizeof *s * (size_t)n);
	if (!s)
		return DALIC_ENOMEM;
	for (int i = 0; i < n; i++) {
		int rc =
		    dalic_cmn_sample_plan(ctx, ws, i, &s[i].plan, s[i].mul, s[i].add, s[i].fill);
		if (rc)
			return rc;
		s[i].in = in->ptrs[i];
		s[i].out = out->ptrs[i];
	}
	dalic_cu_cmn_params_t p = {s, NULL, n, 0};
	dalic_cu_cmn_grid(&p, NULL, 0);
	dalic_cu_block_t *b = dalic_gpu_scratch(r, 1, sizeof *b * (size_t)p.nblocks);
	if (!b)
		return DALIC_ENOMEM;
	dalic_cu_launch_t l = dalic_cu_cmn_grid(&p, b, p.nblocks);
	return dalic_gpu_launch(r, &dalic_gpu_cmn_kernel, &p, &l);
}

const dalic_gpu_op_t dalic_gpu_op_crop_mirror_normalize = {"CropMirrorNormalize",
                                                           dalic_gpu_cmn_run};
