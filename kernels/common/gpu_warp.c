/*
 * warp_affine and rotate on the GPU (kernels/cuda/warp.cuh, the phased tile kernel): the
 * per-sample jobs are the ones the CPU operators run (dalic_warp_affine_job,
 * dalic_rotate_job: matrix, extents, types, interpolation, fill), prepared on the host with
 * dalic_img_warp_prepare, and one launch covers the batch.
 */
#include "kernels/common/img_warp.h"
#include "kernels/cuda/warp.cuh"
#include "kernels/common/gpu_op.h"

#include "engine/error.h"

static void dalic_gpu_warp_phase_any(const dalic_cu_idx_t *ix, int phase, void *shared,
                                     const void *p)
{
	dalic_cu_warp_body(ix, phase, (float *)shared, (const dalic_cu_warp_params_t *)p);
}

DALIC_GPU_LAUNCHER(warp, dalic_cu_warp_params_t)

static const dalic_gpu_kernel_t dalic_gpu_warp_kernel = {
    "warp", DALIC_GPU_LAUNCH_FN(warp),     NULL, DALIC_CU_WARP_PHASES, dalic_gpu_warp_phase_any,
    1,      sizeof(dalic_cu_warp_params_t)};

static int dalic_gpu_warp_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                              bool rotate)
{
	int n = ws->batch_size;
	dalic_cu_warp_sample_t *s = dalic_gpu_scratch(r, 0, sizeof *s * (size_t)n);
	if (!s)
		return DALIC_ENOMEM;
	for (int i = 0; i < n; i++) {
		int rc;
		if (rotate) {
			rc = dalic_rotate_job(ctx, ws, i, &s[i].job);
			s[i].frames = 1;
			s[i].in_frame = (int64_t)dalic_batch_sample_bytes(ws->inputs[0], i);
			s[i].out_frame = (int64_t)dalic_batch_sample_bytes(ws->outputs[0], i);
		} else {
			rc = dalic_warp_affine_job(ctx, ws, i, &s[i].job, &s[i].frames,
			                           &s[i].in_frame, &s[i].out_frame);
		}
		if (rc)
			return rc;
		if (s[i].out_frame == 0)
			s[i].frames = 0; /* nothing to write: no tiles */
		dalic_img_warp_prepare(&s[i].job);
	}
	dalic_cu_warp_params_t p = {s, NULL, n, 0};
	dalic_cu_warp_grid(&p, NULL, 0);
	dalic_cu_block_t *b = dalic_gpu_scratch(r, 1, sizeof *b * (size_t)p.nblocks);
	if (!b)
		return DALIC_ENOMEM;
	dalic_cu_launch_t l = dalic_cu_warp_grid(&p, b, p.nblocks);
	return dalic_gpu_launch(r, &dalic_gpu_warp_kernel, &p, &l);
}

static int dalic_gpu_warp_affine_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_gpu_warp_run(r, ctx, ws, false);
}

static int dalic_gpu_warp_rotate_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_gpu_warp_run(r, ctx, ws, true);
}

const dalic_gpu_op_t dalic_gpu_op_warp_affine = {"WarpAffine", dalic_gpu_warp_affine_run};
const dalic_gpu_op_t dalic_gpu_op_rotate = {"Rotate", dalic_gpu_warp_rotate_run};
