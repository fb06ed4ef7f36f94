/*
 * flip's GPU path: the per-sample plan of the CPU operator (kernels/common/flip_index.h, the
 * flags read per sample as kernels/cpu/image/flip.c reads them) and one launch of
 * kernels/cuda/flip.cuh for the batch.
 */
#include "kernels/cuda/flip.cuh"
#include "kernels/common/gpu_op.h"

#include "engine/error.h"

DALIC_GPU_KERNEL(flip);

/* The layout flip.c assumes for an input without one. */
static const char *dalic_gpu_flip_layout(const dalic_batch_t *b)
{
	if (b->layout[0])
		return b->layout;
	return b->ndim == 2 ? "HW" : b->ndim == 3 ? "HWC" : b->ndim == 4 ? "FHWC" : "";
}

static int dalic_gpu_flip_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	static const char *const names[3] = {"horizontal", "vertical", "depthwise"};
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int n = ws->batch_size;
	dalic_cu_flip_sample_t *s = dalic_gpu_scratch(r, 0, sizeof *s * (size_t)n);
	if (!s)
		return DALIC_ENOMEM;
	for (int i = 0; i < n; i++) {
		double flags[3];
		for (int a = 0; a < 3; a++) {
			int rc = dalic_arg_float_at(ctx, ws, names[a], i, &flags[a]);
			if (rc)
				return rc;
		}
		s[i].in = in->ptrs[i];
		s[i].out = out->ptrs[i];
		dalic_flip_plan_make(&s[i].plan, dalic_gpu_flip_layout(in), in->ndim,
		                     dalic_batch_shape(in, i), (int64_t)dalic_dtype_size(in->dtype),
		                     flags);
	}
	dalic_cu_flip_params_t p = {s, NULL, n, 0};
	dalic_cu_flip_grid(&p, NULL, 0);
	dalic_cu_block_t *b = dalic_gpu_scratch(r, 1, sizeof *b * (size_t)p.nblocks);
	if (!b)
		return DALIC_ENOMEM;
	dalic_cu_launch_t l = dalic_cu_flip_grid(&p, b, p.nblocks);
	return dalic_gpu_launch(r, &dalic_gpu_flip_kernel, &p, &l);
}

const dalic_gpu_op_t dalic_gpu_op_flip = {"Flip", dalic_gpu_flip_run};
