/*
 * slice and crop on the GPU (kernels/cuda/slice.cuh): one launch per batch. Each sample's plan
 * is the one the CPU operator copies with (dalic_slice_sample_plan, dalic_crop_sample_plan:
 * the window after out_of_bounds_policy, the border mode, the fill rule and the conversion);
 * the operator's fill values, one table for the batch, go to the node's device scratch.
 */
#include "kernels/cuda/slice.cuh"
#include "kernels/common/gpu_op.h"
#include "kernels/common/window_plans.h"

#include "engine/error.h"

DALIC_GPU_KERNEL(slice);

typedef int (*dalic_gpu_slice_plan_fn)(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                       dalic_slice_elem_plan_t *pl, const void **fill,
                                       size_t *fill_bytes);

static int dalic_gpu_slice_launch_with(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx,
                                       const dalic_ws_t *ws, dalic_gpu_slice_plan_fn plan)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int n = ws->batch_size;
	dalic_cu_slice_sample_t *s = dalic_gpu_scratch(r, 0, sizeof *s * (size_t)n);
	if (!s)
		return DALIC_ENOMEM;
	const void *fill = NULL;
	size_t fill_bytes = 0;
	for (int i = 0; i < n; i++) {
		int rc = plan(ctx, ws, i, &s[i].plan, &fill, &fill_bytes);
		if (rc)
			return rc;
		s[i].in = in->ptrs[i];
		s[i].out = out->ptrs[i];
	}
	/* the same fill values for every sample: one table */
	const void *dev = n ? dalic_gpu_upload(r, fill, fill_bytes) : NULL;
	if (n && !dev)
		return DALIC_EDEVICE;
	for (int i = 0; i < n; i++)
		s[i].fill = dev;
	dalic_cu_slice_params_t p = {s, NULL, n, 0};
	dalic_cu_slice_grid(&p, NULL, 0);
	dalic_cu_block_t *b = dalic_gpu_scratch(r, 1, sizeof *b * (size_t)p.nblocks);
	if (!b)
		return DALIC_ENOMEM;
	dalic_cu_launch_t l = dalic_cu_slice_grid(&p, b, p.nblocks);
	return dalic_gpu_launch(r, &dalic_gpu_slice_kernel, &p, &l);
}

static int dalic_gpu_slice_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_gpu_slice_launch_with(r, ctx, ws, dalic_slice_sample_plan);
}

static int dalic_gpu_slice_crop_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_gpu_slice_launch_with(r, ctx, ws, dalic_crop_sample_plan);
}

/* slice's anchor and shape inputs (1 and 2) are read by its setup, on the host */
const dalic_gpu_op_t dalic_gpu_op_slice = {"Slice", dalic_gpu_slice_run, NULL, 1u << 1 | 1u << 2};
const dalic_gpu_op_t dalic_gpu_op_crop = {"Crop", dalic_gpu_slice_crop_run};
