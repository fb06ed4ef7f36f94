/*
 * resize on the GPU (kernels/cuda/resize.cuh, two passes with a float intermediate): the
 * per-sample plans are the CPU operator's (img_resize_op_t, made by its setup with the
 * shared ResizeAttr rules), each sample's planes become img_resample_job_t's as
 * dalic_img_resize_op_run_sample makes them, and dalic_img_resample_cu_add packs the filter
 * tables the CPU resampler would use. The intermediates live in the node's device scratch.
 * Only Resize itself is dispatched (resize_crop_mirror keeps its own state).
 */
#include "kernels/common/img_resample_cu.h"
#include "kernels/common/img_resize_op.h"
#include "kernels/common/gpu_op.h"

#include "engine/error.h"

#include <string.h>

static void dalic_gpu_resize_body_any(const dalic_cu_idx_t *ix, const void *p)
{
	dalic_cu_resize_body(ix, (const dalic_cu_resize_params_t *)p);
}

DALIC_GPU_LAUNCHER(resize, dalic_cu_resize_params_t)

/* two passes: source -> intermediate, intermediate -> output */
static const dalic_gpu_kernel_t dalic_gpu_resize_kernel = {
    "resize", DALIC_GPU_LAUNCH_FN(resize),     dalic_gpu_resize_body_any, 0, NULL,
    2,        sizeof(dalic_cu_resize_params_t)};

/* Appends sample i's planes to b, as dalic_img_resize_op_run_sample resamples them. */
static int dalic_gpu_resize_add(dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                                const img_resize_op_t *rs, int i, img_resample_cu_batch_t *b)
{
	img_resample_job_t job;
	int64_t planes = dalic_img_resize_op_job(rs, ws->inputs[0], ws->outputs[0], i, &job);
	if (dalic_img_resample_cu_add(b, &job, planes))
		return dalic_op_fail(ctx, ws, i, "resampling %dx%d to %dx%d: %s", job.in_h, job.in_w,
		                     job.out_h, job.out_w, dalic_last_error());
	return DALIC_OK;
}

static int dalic_gpu_resize_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const img_resize_op_t *rs = ctx->state;
	img_resample_cu_batch_t b;
	memset(&b, 0, sizeof b);
	int rc = DALIC_OK;
	for (int i = 0; !rc && i < ws->batch_size; i++)
		rc = dalic_gpu_resize_add(ctx, ws, rs, i, &b);
	dalic_cu_resize_params_t pass[2];
	dalic_cu_launch_t cfg[2];
	float *tmp = NULL;
	if (!rc && b.ntmp > 0 && !(tmp = dalic_gpu_device_scratch(r, sizeof *tmp * (size_t)b.ntmp)))
		rc = DALIC_ENOMEM;
	for (int k = 0; !rc && k < 2; k++) {
		pass[k] = dalic_img_resample_cu_params(&b, k);
		pass[k].tmp = tmp;
		dalic_cu_resize_grid(&pass[k], NULL, 0);
		dalic_cu_block_t *blocks =
		    dalic_gpu_scratch(r, 1 + k, sizeof *blocks * (size_t)pass[k].nblocks);
		if (!blocks)
			rc = DALIC_ENOMEM;
		else
			cfg[k] = dalic_cu_resize_grid(&pass[k], blocks, pass[k].nblocks);
	}
	if (!rc)
		rc = dalic_gpu_launch(r, &dalic_gpu_resize_kernel, pass, cfg);
	/* the launch copied the descriptors and tables (or ran them) before returning */
	dalic_img_resample_cu_free(&b);
	return rc;
}

const dalic_gpu_op_t dalic_gpu_op_resize = {"Resize", dalic_gpu_resize_run};
