/*
 * gaussian_blur (DALI's GaussianBlur): separable convolution with a Gaussian window along
 * every spatial axis (1 to 3; a leading F or C is a batch of planes, a trailing C is kept
 * apart), innermost axis first, reflect-101 borders (kernels/common/convolution.c).
 *
 * Per axis and sample: `sigma` and `window_size` (one value for all axes or one per axis,
 * outermost first; per-sample tensors too). Only a sigma: the window is 2 * ceil(3 * sigma)
 * + 1; only a window: sigma = (radius - 1) * 0.3 + 0.8 (OpenCV's rule); both 0 is an error.
 * The window is DALI's: exp(-x^2 / (2 sigma^2)) normalized to sum 1 in float. The output has
 * the input's type, or FLOAT with `dtype`; integers round half away from zero and saturate.
 */
#include "engine/dtype.h"
#include "engine/kernel.h"
#include "kernels/common/convolution.h"
#include "kernels/common/thread_scratch.h"

#include <math.h>
#include <stdlib.h>

typedef struct gaussian_blur {
	dalic_thread_scratch_t scratch;
} gaussian_blur_t;

static int gaussian_blur_init(dalic_op_ctx_t *ctx)
{
	gaussian_blur_t *s = ctx->state;
	return dalic_thread_scratch_init(ctx, &s->scratch);
}

static int gaussian_blur_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_conv_setup(ctx, ws, true);
}

/* Sigma and window size of each axis for sample i, completed from each other as DALI does. */
static int gaussian_blur_params(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int axes,
                                float *sigma, int *size)
{
	double sg[3], ws_[3];
	int rc;
	if ((rc = dalic_conv_axis_arg(ctx, ws, "sigma", i, axes, sg)) ||
	    (rc = dalic_conv_axis_arg(ctx, ws, "window_size", i, axes, ws_)))
		return rc;
	for (int a = 0; a < axes; a++) {
		if (sg[a] == 0 && ws_[a] == 0)
			return dalic_op_fail(ctx, ws, i,
			                     "`sigma` and `window_size` shouldn't be 0 at "
			                     "the same time for sample: %d, axis: %d.",
			                     i, a);
		if (!(sg[a] >= 0) || isinf(sg[a]))
			return dalic_op_fail(ctx, ws, i,
			                     "`sigma` must have non-negative values, got %g "
			                     "for sample: %d, axis: %d.",
			                     sg[a], i, a);
		if (ws_[a] < 0)
			return dalic_op_fail(ctx, ws, i,
			                     "`window_size` must have non-negative values, "
			                     "got %g for sample: %d, axis : %d.",
			                     ws_[a], i, a);
		sigma[a] = (float)sg[a];
		double w = ws_[a];
		if (w == 0)
			w = 2 * ceilf(sigma[a] * 3) + 1;
		else if (sigma[a] == 0)
			sigma[a] = (float)(((int64_t)(w - 1) / 2 - 1) * 0.3 + 0.8);
		if (!(w <= (1 << 24)))
			return dalic_op_fail(ctx, ws, i,
			                     "a Gaussian window of %g values for sample %d, "
			                     "axis %d; at most %d supported",
			                     w, i, a, 1 << 24);
		size[a] = (int)w;
		if (size[a] % 2 != 1)
			return dalic_op_fail(ctx, ws, i,
			                     "Kernel window should have odd length, got: "
			                     "%d.",
			                     size[a]);
	}
	return DALIC_OK;
}

static int gaussian_blur_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	gaussian_blur_t *s = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_conv_geom_t g;
	int rc = dalic_conv_geom(ctx, ws, in->layout, in->ndim, dalic_batch_shape(in, i), &g);
	float sigma[3];
	int size[3];
	if (rc || (rc = gaussian_blur_params(ctx, ws, i, g.axes, sigma, size)))
		return rc;
	int64_t nwin = 0;
	for (int a = 0; a < g.axes; a++)
		nwin += size[a];
	size_t bytes = dalic_conv_scratch_bytes(&g, nwin);
	if (!bytes)
		return dalic_op_fail(ctx, ws, i, "sample too large for its scratch memory");
	float *buf = dalic_thread_scratch_get(ctx, ws, i, &s->scratch, thread, bytes, &rc);
	if (!buf)
		return rc;
	float *w = buf + dalic_conv_scratch_floats(&g);
	const float *win[3];
	for (int a = 0; a < g.axes; a++) {
		dalic_conv_gaussian_window(sigma[a], size[a], w);
		win[a] = w;
		w += size[a];
	}
	dalic_batch_t *out = ws->outputs[0];
	dalic_conv_sink_t sink = {out->dtype, out->ptrs[i], NULL, 1.0f};
	dalic_conv_separable(&g, in->dtype, in->ptrs[i], win, size, &sink, buf);
	return DALIC_OK;
}

static void gaussian_blur_fini(dalic_op_ctx_t *ctx)
{
	gaussian_blur_t *s = ctx->state;
	dalic_thread_scratch_free(&s->scratch);
}

static const dalic_arg_schema_t args[] = {
    {"sigma", DALIC_ARG_FLOAT_LIST, "[0.0]", "Sigma per axis (or one for all).", .tensor = true},
    {"window_size", DALIC_ARG_INT_LIST, "[0]", "Window diameter per axis (or one for all).",
     .tensor = true},
    {"dtype", DALIC_ARG_DTYPE, "None", "Output type: the input's or FLOAT."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(gaussian_blur_t),
    .init = gaussian_blur_init,
    .setup = gaussian_blur_setup,
    .run_sample = gaussian_blur_run_sample,
    .fini = gaussian_blur_fini,
};

DALIC_OPERATOR(GaussianBlur) = {
    .name = "GaussianBlur",
    .fn = "gaussian_blur",
    .doc = "Gaussian blur: separable convolution along every spatial axis.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
