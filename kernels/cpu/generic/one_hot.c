/*
 * one_hot (DALI's OneHot): a one-hot encoding of integer class labels along a new axis of
 * num_classes elements, inserted at `axis` (-1: last). When `axis` is not given and every
 * sample holds one element (scalars, [1], [1, 1]...), each output is just [num_classes] (DALI's
 * legacy scalar form). Labels outside [0, num_classes) give no "on" element; float labels are
 * truncated to int. on_value and off_value are cast to `dtype` as C++ casts a float. The
 * output layout is empty unless axis_name names the new axis in the input's layout.
 */
#include "engine/dtype.h"
#include "engine/kernel.h"
#include "kernels/common/slice_copy.h"

#include <stdio.h>
#include <string.h>

typedef struct one_hot_state {
	int axis;     /* placement of the new axis in the current batch's output */
	char name;    /* axis_name, 0 when not given */
	bool scalars; /* the legacy scalar form for the current batch */
	_Alignas(8) uint8_t on[8];
	_Alignas(8) uint8_t off[8]; /* stored as their type */
} one_hot_state_t;

static int one_hot_init(dalic_op_ctx_t *ctx)
{
	one_hot_state_t *st = ctx->state;
	const char *name = dalic_arg_string(ctx, "axis_name");
	if (name && strlen(name) != 1)
		return dalic_op_fail(
		    ctx, NULL, -1,
		    "Unsupported axis_name value. It must be a single character, got "
		    "\"%s\" instead.",
		    name);
	st->name = name ? name[0] : 0;
	dalic_dtype_t t = (dalic_dtype_t)dalic_arg_int(ctx, "dtype");
	if (!dalic_dtype_is_numeric(t) || t == DALIC_BOOL || t == DALIC_FLOAT16)
		return dalic_op_fail(ctx, NULL, -1, "Unsupported output type: %s",
		                     dalic_dtype_cname(t));
	dalic_slice_fill_cast(t, st->on, 0, dalic_arg_float(ctx, "on_value"));
	dalic_slice_fill_cast(t, st->off, 0, dalic_arg_float(ctx, "off_value"));
	return DALIC_OK;
}

static int one_hot_layout(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int out_ndim, char *layout)
{
	const one_hot_state_t *st = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	int len = (int)strlen(in->layout);
	layout[0] = 0;
	if (!st->name)
		return DALIC_OK;
	if (out_ndim == 1) {
		snprintf(layout, DALIC_MAX_NDIM + 1, "%c", st->name);
		return DALIC_OK;
	}
	if (len + 1 != out_ndim)
		return dalic_op_fail(
		    ctx, ws, -1,
		    "Input layout mismatch - expected input layout to be of size %d "
		    "but instead got \"%s\", which is of size %d.",
		    out_ndim - 1, in->layout, len);
	snprintf(layout, DALIC_MAX_NDIM + 1, "%.*s%c%s", st->axis, in->layout, st->name,
	         in->layout + st->axis);
	return DALIC_OK;
}

static int one_hot_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	one_hot_state_t *st = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	if (!dalic_dtype_is_numeric(in->dtype) || in->dtype == DALIC_BOOL ||
	    in->dtype == DALIC_FLOAT16)
		return dalic_op_fail(ctx, ws, -1, "Unsupported input type: %s",
		                     dalic_dtype_cname(in->dtype));
	int64_t axis = dalic_arg_int(ctx, "axis"), classes = dalic_arg_int(ctx, "num_classes");
	if (axis < -1 || axis > in->ndim)
		return dalic_op_fail(
		    ctx, ws, -1,
		    "Provided axis is outside of allowed range, got: %lld, expected "
		    "to be in range: [-1, %d].",
		    (long long)axis, in->ndim);
	if (classes < 0 || classes > INT32_MAX)
		return dalic_op_fail(ctx, ws, -1, "num_classes must be in [0, 2^31), got %lld",
		                     (long long)classes);
	st->scalars = !dalic_arg_given(ctx, "axis");
	for (int i = 0; st->scalars && i < ws->batch_size; i++)
		st->scalars = dalic_batch_sample_elems(in, i) == 1;
	int ndim = st->scalars ? 1 : in->ndim + 1;
	if (ndim > DALIC_MAX_NDIM)
		return dalic_op_fail(ctx, ws, -1, "%d dims plus the class axis exceed %d", in->ndim,
		                     DALIC_MAX_NDIM);
	st->axis = st->scalars ? 0 : axis < 0 ? ndim - 1 : (int)axis;
	char layout[DALIC_MAX_NDIM + 1];
	int rc = one_hot_layout(ctx, ws, ndim, layout);
	if (rc || (rc = dalic_batch_set_meta(out, ws->batch_size,
	                                     (dalic_dtype_t)dalic_arg_int(ctx, "dtype"), ndim)))
		return rc;
	dalic_batch_set_layout(out, layout);
	for (int i = 0; i < ws->batch_size; i++) {
		const int64_t *ish = dalic_batch_shape(in, i);
		int64_t *osh = dalic_batch_shape_mut(out, i);
		for (int d = 0, s = 0; d < ndim; d++)
			osh[d] = d == st->axis ? classes : st->scalars ? 1 : ish[s++];
		out->sources[i] = in->sources[i];
	}
	return DALIC_OK;
}

/* Element k as DALI's `int cls = in[k]` gives it on x86-64: integers keep their low 32 bits,
 * floats are truncated (out of range: INT32_MIN). */
static int64_t one_hot_class(dalic_dtype_t t, bool is_float, const void *data, int64_t k)
{
	if (is_float) {
		double v = dalic_dtype_load_f64(t, data, k);
		return v > -2147483649.0 && v < 2147483648.0 ? (int64_t)v : INT32_MIN;
	}
	return (int32_t)(uint32_t)(uint64_t)dalic_dtype_load_i64(t, data, k);
}

static int one_hot_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const one_hot_state_t *st = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	const int64_t *osh = dalic_batch_shape(out, i);
	size_t es = dalic_dtype_size(out->dtype);
	int64_t classes = osh[st->axis], outer = 1, inner = 1, total = 1;
	for (int d = 0; d < out->ndim; d++) {
		outer *=
		    d < st->axis ? osh[d] : 1; /* all within the output's representable volume */
		inner *= d > st->axis ? osh[d] : 1;
		total *= osh[d];
	}
	uint8_t *o = out->ptrs[i];
	bool is_float = dalic_dtype_is_float(in->dtype);
	for (int64_t k = 0; k < total; k++)
		memcpy(o + (size_t)k * es, st->off, es);
	for (int64_t a = 0; a < outer; a++)
		for (int64_t b = 0; b < inner; b++) {
			int64_t cls =
			    one_hot_class(in->dtype, is_float, in->ptrs[i], a * inner + b);
			if (cls < 0 || cls >= classes)
				continue;
			memcpy(o + (size_t)((a * classes + cls) * inner + b) * es, st->on, es);
		}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"num_classes", DALIC_ARG_INT, "0", "Number of classes: the extent of the new axis."},
    {"axis", DALIC_ARG_INT, "-1", "Where the class axis goes (-1: last)."},
    {"axis_name", DALIC_ARG_STRING, "None", "Layout letter of the class axis."},
    {"on_value", DALIC_ARG_FLOAT, "1.0", "Value of the label's class."},
    {"off_value", DALIC_ARG_FLOAT, "0.0", "Value of the other classes."},
    {"dtype", DALIC_ARG_DTYPE, "FLOAT", "Output data type."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(one_hot_state_t),
    .init = one_hot_init,
    .setup = one_hot_setup,
    .run_sample = one_hot_run_sample,
};

DALIC_OPERATOR(OneHot) = {
    .name = "OneHot",
    .fn = "one_hot",
    .doc = "One-hot encodes class labels along a new axis of num_classes elements.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
