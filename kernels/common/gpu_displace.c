/*
 * water and sphere on the GPU (kernels/cuda/displace.cuh): one launch per batch. The image
 * descriptors, the fill value and the mask are read as kernels/common/displace.c reads them;
 * water's row and column shifts are made here on the host with the CPU operator's own
 * functions (dalic_displace_water_dx/dy: CUDA's sinf and cosf are not glibc's) and uploaded
 * into the node's device scratch, all samples in one table.
 */
#include "kernels/common/displace.h"
#include "kernels/cuda/displace.cuh"
#include "kernels/common/gpu_op.h"

#include "engine/error.h"

DALIC_GPU_KERNEL(displace);

static int dalic_gpu_displace_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                                  bool water)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int n = ws->batch_size;
	dalic_cu_displace_sample_t *s = dalic_gpu_scratch(r, 0, sizeof *s * (size_t)n);
	if (!s)
		return DALIC_ENOMEM;
	dalic_displace_water_t wa = {0};
	if (water) {
		wa.ax = (float)dalic_arg_float(ctx, "ampl_x");
		wa.ay = (float)dalic_arg_float(ctx, "ampl_y");
		wa.fx = (float)dalic_arg_float(ctx, "freq_x");
		wa.fy = (float)dalic_arg_float(ctx, "freq_y");
		wa.phx = (float)dalic_arg_float(ctx, "phase_x");
		wa.phy = (float)dalic_arg_float(ctx, "phase_y");
	}
	/* water: rows then columns of every sample, back to back */
	size_t shifts = 0;
	for (int i = 0; i < n; i++) {
		const int64_t *sh = dalic_batch_shape(in, i);
		double mask;
		int rc = dalic_arg_float_at(ctx, ws, "mask", i, &mask);
		if (rc)
			return rc;
		dalic_displace_img_t *g = &s[i].img;
		g->in = in->ptrs[i];
		g->out = out->ptrs[i];
		g->dtype = in->dtype;
		g->h = sh[0];
		g->w = sh[1];
		g->c = sh[2];
		g->linear = dalic_arg_int(ctx, "interp_type") == DALIC_INTERP_LINEAR;
		g->fill = dalic_displace_fill(in->dtype, dalic_arg_float(ctx, "fill_value"));
		s[i].kind = !mask   ? DALIC_CU_DISPLACE_COPY
		            : water ? DALIC_CU_DISPLACE_WATER
		                    : DALIC_CU_DISPLACE_SPHERE;
		s[i].dx = s[i].dy = NULL;
		if (s[i].kind == DALIC_CU_DISPLACE_WATER)
			shifts += (size_t)(g->h + g->w);
	}
	if (shifts) {
		float *host = dalic_gpu_scratch(r, 2, sizeof *host * shifts);
		if (!host)
			return DALIC_ENOMEM;
		size_t k = 0;
		for (int i = 0; i < n; i++) {
			const dalic_displace_img_t *g = &s[i].img;
			if (s[i].kind != DALIC_CU_DISPLACE_WATER)
				continue;
			for (int64_t y = 0; y < g->h; y++)
				host[k++] = dalic_displace_water_dx(&wa, y);
			for (int64_t x = 0; x < g->w; x++)
				host[k++] = dalic_displace_water_dy(&wa, x);
		}
		const float *dev = dalic_gpu_upload(r, host, sizeof *host * shifts);
		if (!dev)
			return DALIC_EDEVICE;
		k = 0;
		for (int i = 0; i < n; i++) {
			if (s[i].kind != DALIC_CU_DISPLACE_WATER)
				continue;
			s[i].dx = dev + k;
			s[i].dy = dev + k + s[i].img.h;
			k += (size_t)(s[i].img.h + s[i].img.w);
		}
	}
	dalic_cu_displace_params_t p = {s, NULL, n, 0};
	dalic_cu_displace_grid(&p, NULL, 0);
	dalic_cu_block_t *b = dalic_gpu_scratch(r, 1, sizeof *b * (size_t)p.nblocks);
	if (!b)
		return DALIC_ENOMEM;
	dalic_cu_launch_t l = dalic_cu_displace_grid(&p, b, p.nblocks);
	return dalic_gpu_launch(r, &dalic_gpu_displace_kernel, &p, &l);
}

static int dalic_gpu_displace_water_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx,
                                        const dalic_ws_t *ws)
{
	return dalic_gpu_displace_run(r, ctx, ws, true);
}

static int dalic_gpu_displace_sphere_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx,
                                         const dalic_ws_t *ws)
{
	return dalic_gpu_displace_run(r, ctx, ws, false);
}

const dalic_gpu_op_t dalic_gpu_op_water = {"Water", dalic_gpu_displace_water_run};
const dalic_gpu_op_t dalic_gpu_op_sphere = {"Sphere", dalic_gpu_displace_sphere_run};
