/*
 * pad (DALI's Pad): pads samples at the end of the chosen axes (axes / axis_names, default all)
 * with fill_value, to the largest extent in the batch, or to `shape` where given (never
 * smaller than the sample; a value <= 0 means the batch's largest), then up to a multiple of
 * `align`. One value of shape or align stands for every axis; shape, align, axes and
 * fill_value may be per-sample argument inputs (an empty sample of shape or align means
 * none). The fill value is cast to the element type as C++ casts a float (300.7 in uint8 is
 * 44). Types: the integers, float, float16 and bool; 1 to 5 dims.
 */
#include "engine/checked.h"
#include "engine/dtype.h"
#include "engine/kernel.h"
#include "kernels/common/axes.h"
#include "kernels/common/slice_copy.h"

#include <stdlib.h>
#include <string.h>

typedef struct pad_state {
	axes_arg_t axes;
	img_window_t *win; /* per sample: anchor 0, the padded shape */
	double *fill;      /* per sample */
} pad_state_t;

static void pad_fini(dalic_op_ctx_t *ctx);

static int pad_init(dalic_op_ctx_t *ctx)
{
	pad_state_t *st = ctx->state;
	int rc = dalic_axes_init(ctx, &st->axes, DALIC_AXES_EXCLUSIVE | DALIC_AXES_ALL_IF_EMPTY);
	if (rc)
		return rc;
	st->win = calloc((size_t)ctx->max_batch_size, sizeof *st->win);
	st->fill = calloc((size_t)ctx->max_batch_size, sizeof *st->fill);
	if (st->win && st->fill)
		return DALIC_OK;
	pad_fini(ctx);
	return dalic_op_fail(ctx, NULL, -1, "out of memory");
}

static void pad_fini(dalic_op_ctx_t *ctx)
{
	pad_state_t *st = ctx->state;
	free(st->win);
	free(st->fill);
}

static bool pad_type_supported(dalic_dtype_t t)
{
	return dalic_dtype_is_numeric(t) && t != DALIC_FLOAT64;
}

/* Values of `name` (shape or align) for sample i, one per axis: *n = naxes, or 0 for none. */
static int pad_values(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name, int i, int naxes,
                      int64_t *out, int *n)
{
	double v[DALIC_AXES_MAX];
	int count = 0;
	*n = 0;
	if (!dalic_arg_given(ctx, name))
		return DALIC_OK;
	int rc = dalic_arg_floats_at(ctx, ws, name, i, v, DALIC_AXES_MAX, &count);
	if (rc)
		return rc;
	if (count == 0)
		return DALIC_OK;
	if (count != naxes && count != 1)
		return dalic_op_fail(
		    ctx, ws, i,
		    "Argument \"%s\" expected shape %d but got %d values, which can't "
		    "be interpreted as the expected shape.",
		    name, naxes, count);
	for (int k = 0; k < naxes; k++) {
		double x = v[count == 1 ? 0 : k];
		if (!(x > -4611686018427387904.0 && x < 4611686018427387904.0))
			return dalic_op_fail(ctx, ws, i, "argument '%s': %g is out of range", name,
			                     x);
		out[k] = (int64_t)x;
	}
	*n = naxes;
	return DALIC_OK;
}

/* The padded shape of sample i into st->win[i]. */
static int pad_sample_shape(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                            const int64_t *largest)
{
	pad_state_t *st = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	int axes[DALIC_AXES_MAX], naxes, nshape, nalign;
	int64_t shape[DALIC_AXES_MAX], align[DALIC_AXES_MAX];
	int rc = dalic_axes_get(ctx, ws, &st->axes, i, in->ndim, in->layout, axes, &naxes);
	if (rc || (rc = pad_values(ctx, ws, "shape", i, naxes, shape, &nshape)) ||
	    (rc = pad_values(ctx, ws, "align", i, naxes, align, &nalign)))
		return rc;
	img_window_t *w = &st->win[i];
	memcpy(w->shape, dalic_batch_shape(in, i), sizeof(int64_t) * (size_t)in->ndim);
	memset(w->anchor, 0, sizeof w->anchor);
	for (int k = 0; k < nalign; k++)
		if (align[k] <= 0)
			return dalic_op_fail(ctx, ws, i,
			                     "Values of `align` argument must be positive.");
	for (int k = 0; k < naxes; k++) {
		int d = axes[k];
		int64_t want = nshape && shape[k] > 0 ? shape[k] : largest[d];
		int64_t e = want > w->shape[d] ? want : w->shape[d];
		int64_t rem = nalign ? e % align[k] : 0;
		if (rem && !dalic_ck_add_i64(e, align[k] - rem, &e))
			return dalic_op_fail(ctx, ws, i, "the aligned extent of axis %d overflows",
			                     d);
		w->shape[d] = e;
	}
	const dalic_batch_t *fill = dalic_arg_input(ws, "fill_value");
	if (fill && fill->ndim != 0) /* DALI reads it as a scalar */
		return dalic_op_fail(
		    ctx, ws, i,
		    "argument input 'fill_value': input with dimension (%d) cannot be "
		    "converted to dimension (0)",
		    fill->ndim);
	return dalic_arg_float_at(ctx, ws, "fill_value", i, &st->fill[i]);
}

static int pad_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	pad_state_t *st = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	if (!pad_type_supported(in->dtype))
		return dalic_op_fail(ctx, ws, -1, "Unsupported data type: %s",
		                     dalic_dtype_cname(in->dtype));
	if (in->ndim < 1 || in->ndim > 5)
		return dalic_op_fail(ctx, ws, -1, "Unsupported number of dimensions %d", in->ndim);
	int64_t largest[DALIC_MAX_NDIM];
	for (int d = 0; d < in->ndim; d++) {
		largest[d] = 0;
		for (int i = 0; i < ws->batch_size; i++)
			if (dalic_batch_shape(in, i)[d] > largest[d])
				largest[d] = dalic_batch_shape(in, i)[d];
	}
	int rc = dalic_batch_set_meta(out, ws->batch_size, in->dtype, in->ndim);
	if (rc)
		return rc;
	dalic_batch_set_layout(out, in->layout);
	for (int i = 0; i < ws->batch_size; i++) {
		if ((rc = pad_sample_shape(ctx, ws, i, largest)))
			return rc;
		dalic_batch_set_shape(out, i, st->win[i].shape);
		out->sources[i] = in->sources[i];
	}
	return DALIC_OK;
}

static int pad_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const pad_state_t *st = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	uint64_t fill;
	dalic_slice_fill_cast(in->dtype, &fill, 0, st->fill[i]);
	dalic_slice_copy(in->ptrs[i], in->dtype, dalic_batch_shape(in, i), in->ndim, &st->win[i],
	                 out->ptrs[i], out->dtype, SLICE_BORDER_CONSTANT, &fill, 1, -1);
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"axes", DALIC_ARG_INT_LIST, "None",
     "Indices of the padded axes (negative counts from the back); all when neither this "
     "nor axis_names is given.",
     .tensor = true},
    {"axis_names", DALIC_ARG_LAYOUT, "None", "Layout letters of the padded axes."},
    {"shape", DALIC_ARG_INT_LIST, "None",
     "Extents to pad to, per axis (<= 0: the batch's largest); never crops.", .tensor = true},
    {"align", DALIC_ARG_INT_LIST, "None", "Pad the extents up to multiples of these.",
     .tensor = true},
    {"fill_value", DALIC_ARG_FLOAT, "0.0", "The padding value.", .tensor = true},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(pad_state_t),
    .init = pad_init,
    .setup = pad_setup,
    .run_sample = pad_run_sample,
    .fini = pad_fini,
};

DALIC_OPERATOR(Pad) = {
    .name = "Pad",
    .fn = "pad",
    .doc = "Pads samples at the end of the given axes with fill_value, to the batch's largest "
           "extent, a requested shape and/or an alignment.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
