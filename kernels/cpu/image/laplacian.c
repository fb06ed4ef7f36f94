/*
 * laplacian (DALI's Laplacian): the sum over the spatial axes (1 to 3) of second partial
 * derivatives, each a separable convolution (kernels/common/convolution.c) with the
 * derivative window along its axis and smoothing windows along the others, as OpenCV builds
 * them (window_size: 3 to 31, odd; smoothing_size: 1 to 31, odd, by default the derivative's
 * size). Partial derivative i is scaled by scale[i], or with normalized_kernel by
 * 2^-(sum of its window sizes - axes - 2).
 *
 * DALI's order of sums: the first derivative goes to a float accumulator (times its scale),
 * each further one adds its scaled value to it, the last one adds and converts to the output
 * (the input's type or FLOAT; integers round half away from zero and saturate). float16
 * inputs keep the accumulator in float16, as DALI's intermediate type is then float16.
 */
#include "engine/dtype.h"
#include "engine/kernel.h"
#include "kernels/common/convolution.h"
#include "kernels/common/thread_scratch.h"

#include <math.h>
#include <stdlib.h>

#define LAPLACIAN_MAX_WINDOW 31

typedef struct laplacian {
	dalic_thread_scratch_t scratch;
} laplacian_t;

static int laplacian_init(dalic_op_ctx_t *ctx)
{
	laplacian_t *s = ctx->state;
	if (dalic_arg_bool(ctx, "normalized_kernel") && dalic_arg_given(ctx, "scale"))
		return dalic_op_fail(ctx, NULL, -1,
		                     "Parameter ``scale`` cannot be specified when "
		                     "``normalized_kernel`` is set to True");
	return dalic_thread_scratch_init(ctx, &s->scratch);
}

static int laplacian_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	if (dalic_arg_bool(ctx, "normalized_kernel") && dalic_arg_input(ws, "scale"))
		return dalic_op_fail(ctx, ws, -1,
		                     "Parameter ``scale`` cannot be specified when "
		                     "``normalized_kernel`` is set to True");
	return dalic_conv_setup(ctx, ws, false);
}

/* Window sizes size[i][j] (derivative i, axis j) and scales of sample i. */
static int laplacian_params(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int axes,
                            int size[3][3], float *scale)
{
	double d[3], sm[3], sc[3];
	int rc = dalic_conv_axis_arg(ctx, ws, "window_size", i, axes, d);
	if (rc)
		return rc;
	for (int a = 0; a < axes; a++)
		if (!(d[a] >= 3 && d[a] <= LAPLACIAN_MAX_WINDOW && fmod(d[a], 2) == 1))
			return dalic_op_fail(ctx, ws, i,
			                     "Window size must be an odd integer between 3 "
			                     "and %d, got %g for sample: %d.",
			                     LAPLACIAN_MAX_WINDOW, d[a], i);
	bool smooth =
	    dalic_arg_given(ctx, "smoothing_size") || dalic_arg_input(ws, "smoothing_size");
	if (smooth) {
		if ((rc = dalic_conv_axis_arg(ctx, ws, "smoothing_size", i, axes, sm)))
			return rc;
		for (int a = 0; a < axes; a++)
			if (!(sm[a] >= 1 && sm[a] <= LAPLACIAN_MAX_WINDOW && fmod(sm[a], 2) == 1))
				return dalic_op_fail(ctx, ws, i,
				                     "Smoothing window size must be an odd "
				                     "integer between 1 and %d, got %g for "
				                     "sample: %d.",
				                     LAPLACIAN_MAX_WINDOW, sm[a], i);
	}
	for (int a = 0; a < axes; a++)
		for (int b = 0; b < axes; b++)
			size[a][b] = (int)(a == b || !smooth ? d[a] : sm[b]);
	if (dalic_arg_bool(ctx, "normalized_kernel")) {
		for (int a = 0; a < axes; a++) {
			int e = -axes - 2;
			for (int b = 0; b < axes; b++)
				e += size[a][b];
			scale[a] = (float)exp2(-e);
		}
		return DALIC_OK;
	}
	if ((rc = dalic_conv_axis_arg(ctx, ws, "scale", i, axes, sc)))
		return rc;
	for (int a = 0; a < axes; a++)
		scale[a] = (float)sc[a];
	return DALIC_OK;
}

static int laplacian_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	laplacian_t *s = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	dalic_conv_geom_t g;
	int size[3][3];
	float scale[3];
	int rc = dalic_conv_geom(ctx, ws, in->layout, in->ndim, dalic_batch_shape(in, i), &g);
	if (rc || (rc = laplacian_params(ctx, ws, i, g.axes, size, scale)))
		return rc;
	/* the float accumulator is the output itself when that is float */
	int64_t vol = g.nseq * g.lanes, conv = dalic_conv_scratch_floats(&g);
	for (int a = 0; a < g.axes; a++)
		vol *= g.ext[a];
	bool own_acc = out->dtype != DALIC_FLOAT && g.axes > 1;
	size_t bytes = dalic_conv_scratch_bytes(&g, (own_acc ? vol : 0) + 9 * LAPLACIAN_MAX_WINDOW);
	if (!bytes)
		return dalic_op_fail(ctx, ws, i, "sample too large for its scratch memory");
	size_t n = bytes / sizeof(float);
	float *buf = dalic_thread_scratch_get(ctx, ws, i, &s->scratch, thread, bytes, &rc);
	if (!buf)
		return rc;
	float *acc = own_acc ? buf + conv : out->ptrs[i], *w = buf + n - 9 * LAPLACIAN_MAX_WINDOW;
	bool half = in->dtype == DALIC_FLOAT16;
	for (int a = 0; a < g.axes; a++) {
		const float *win[3];
		for (int b = 0; b < g.axes; b++) {
			float *wb = w + (3 * a + b) * LAPLACIAN_MAX_WINDOW;
			if (a == b)
				dalic_conv_derivative_window(size[a][b], wb);
			else
				dalic_conv_smoothing_window(size[a][b], wb);
			win[b] = wb;
		}
		bool last = a == g.axes - 1;
		/* first: acc = v * scale; then acc += v * scale; the last adds and converts */
		dalic_conv_sink_t sink = {last ? out->dtype : DALIC_FLOAT,
		                          last ? out->ptrs[i] : acc, a ? acc : NULL, scale[a],
		                          half && !last};
		dalic_conv_separable(&g, in->dtype, in->ptrs[i], win, size[a], &sink, buf);
	}
	return DALIC_OK;
}

static void laplacian_fini(dalic_op_ctx_t *ctx)
{
	laplacian_t *s = ctx->state;
	dalic_thread_scratch_free(&s->scratch);
}

static const dalic_arg_schema_t args[] = {
    {"window_size", DALIC_ARG_INT_LIST, "[3]",
     "Derivative window per axis (or one for all): odd, 3 to 31.", .tensor = true},
    {"smoothing_size", DALIC_ARG_INT_LIST, "None",
     "Smoothing window per axis (or one): odd, 1 to 31; the derivative's size by default.",
     .tensor = true},
    {"scale", DALIC_ARG_FLOAT_LIST, "[1.0]", "Factor of each partial derivative.", .tensor = true},
    {"normalized_kernel", DALIC_ARG_BOOL, "False",
     "Scale each partial derivative by 2^-(sum of its window sizes - axes - 2)."},
    {"dtype", DALIC_ARG_DTYPE, "None", "Output type: the input's or FLOAT."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(laplacian_t),
    .init = laplacian_init,
    .setup = laplacian_setup,
    .run_sample = laplacian_run_sample,
    .fini = laplacian_fini,
};

DALIC_OPERATOR(Laplacian) = {
    .name = "Laplacian",
    .fn = "laplacian",
    .doc = "Laplacian: the sum of second derivatives along the spatial axes (OpenCV windows).",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
