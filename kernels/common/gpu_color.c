/*
 * The colour operators' GPU path (kernels/cuda/color.cuh): brightness_contrast on the
 * multiply-add kernel, hsv and color_twist on the 3x3 twist kernel. The per-sample
 * coefficients come from the functions the CPU operators call (kernels/common/color.c,
 * color_px.h) with the arguments read the same way (dalic_color_arg), so both paths do the
 * same float arithmetic.
 */
#include "kernels/common/color.h"
#include "kernels/common/color_px.h"
#include "kernels/cuda/color.cuh"
#include "kernels/common/gpu_op.h"

#include "engine/error.h"

#include <string.h>

DALIC_GPU_KERNEL_OF(color_muladd, dalic_cu_color_params_t);
DALIC_GPU_KERNEL_OF(color_twist, dalic_cu_color_params_t);

/* Descriptors with the data pointers, types and item counts (values, or pixels for the
 * twist); the coefficients are filled by the caller. */
static dalic_cu_color_sample_t *dalic_gpu_color_samples(dalic_gpu_run_t *r, const dalic_ws_t *ws,
                                                        bool twist)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int n = ws->batch_size;
	dalic_cu_color_sample_t *s = dalic_gpu_scratch(r, 0, sizeof *s * (size_t)n);
	if (!s)
		return NULL;
	memset(s, 0, sizeof *s * (size_t)n);
	for (int i = 0; i < n; i++) {
		int64_t values = (int64_t)dalic_batch_sample_elems(in, i);
		s[i].in = in->ptrs[i];
		s[i].out = out->ptrs[i];
		s[i].it = in->dtype;
		s[i].ot = out->dtype;
		s[i].items = twist ? values / 3 : values;
	}
	return s;
}

static int dalic_gpu_color_launch(dalic_gpu_run_t *r, const dalic_gpu_kernel_t *k,
                                  dalic_cu_color_sample_t *s, int n)
{
	dalic_cu_color_params_t p = {s, NULL, n, 0};
	dalic_cu_color_grid(&p, NULL, 0);
	dalic_cu_block_t *b = dalic_gpu_scratch(r, 1, sizeof *b * (size_t)p.nblocks);
	if (!b)
		return DALIC_ENOMEM;
	dalic_cu_launch_t l = dalic_cu_color_grid(&p, b, p.nblocks);
	return dalic_gpu_launch(r, k, &p, &l);
}

static int dalic_gpu_color_bc_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	dalic_cu_color_sample_t *s = dalic_gpu_color_samples(r, ws, false);
	if (!s)
		return DALIC_ENOMEM;
	bool has_center =
	    dalic_arg_given(ctx, "contrast_center") || dalic_arg_input(ws, "contrast_center");
	for (int i = 0; i < ws->batch_size; i++) {
		float brightness, shift, contrast, center = dalic_color_half_range(s[i].it);
		int rc;
		if ((rc = dalic_color_arg(ctx, ws, "brightness", i, &brightness)) ||
		    (rc = dalic_color_arg(ctx, ws, "brightness_shift", i, &shift)) ||
		    (rc = dalic_color_arg(ctx, ws, "contrast", i, &contrast)) ||
		    (has_center && (rc = dalic_color_arg(ctx, ws, "contrast_center", i, &center))))
			return rc;
		dalic_color_bc_coeffs(brightness, shift, contrast, center,
		                      dalic_color_full_range(s[i].ot), &s[i].mul, &s[i].add);
	}
	return dalic_gpu_color_launch(r, &dalic_gpu_color_muladd_kernel, s, ws->batch_size);
}

static int dalic_gpu_color_hsv_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	dalic_cu_color_sample_t *s = dalic_gpu_color_samples(r, ws, true);
	if (!s)
		return DALIC_ENOMEM;
	for (int i = 0; i < ws->batch_size; i++) {
		float hue, saturation, value;
		int rc;
		if ((rc = dalic_color_arg(ctx, ws, "hue", i, &hue)) ||
		    (rc = dalic_color_arg(ctx, ws, "saturation", i, &saturation)) ||
		    (rc = dalic_color_arg(ctx, ws, "value", i, &value)))
			return rc;
		dalic_color_twist_sample(s[i].it, hue, saturation, value, 1, 1, s[i].m,
		                         &s[i].offset);
	}
	return dalic_gpu_color_launch(r, &dalic_gpu_color_twist_kernel, s, ws->batch_size);
}

static int dalic_gpu_color_twist_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	dalic_cu_color_sample_t *s = dalic_gpu_color_samples(r, ws, true);
	if (!s)
		return DALIC_ENOMEM;
	for (int i = 0; i < ws->batch_size; i++) {
		float hue, saturation, contrast, brightness;
		int rc;
		if ((rc = dalic_color_arg(ctx, ws, "hue", i, &hue)) ||
		    (rc = dalic_color_arg(ctx, ws, "saturation", i, &saturation)) ||
		    (rc = dalic_color_arg(ctx, ws, "contrast", i, &contrast)) ||
		    (rc = dalic_color_arg(ctx, ws, "brightness", i, &brightness)))
			return rc;
		dalic_color_twist_sample(s[i].it, hue, saturation, 1, brightness, contrast, s[i].m,
		                         &s[i].offset);
	}
	return dalic_gpu_color_launch(r, &dalic_gpu_color_twist_kernel, s, ws->batch_size);
}

const dalic_gpu_op_t dalic_gpu_op_brightness_contrast = {"BrightnessContrast",
                                                         dalic_gpu_color_bc_run};
const dalic_gpu_op_t dalic_gpu_op_hsv = {"Hsv", dalic_gpu_color_hsv_run};
const dalic_gpu_op_t dalic_gpu_op_color_twist = {"ColorTwist", dalic_gpu_color_twist_run};
