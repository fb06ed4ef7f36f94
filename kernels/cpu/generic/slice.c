/*
 * slice (DALI's Slice): cuts a window out of each sample. The window comes from named
 * arguments (start / rel_start with end / rel_end / shape / rel_shape) or from two positional
 * inputs, anchor and shape, over the axes named by axis_names (default "WH") or axes
 * (kernels/common/slice_attr.c). A window reaching outside the input fails, is trimmed, is
 * padded with fill_values (one, or one per channel), or takes the input's edge, reflection or
 * wrap-around, per out_of_bounds_policy. `dtype` converts
 * the output to uint8, float16 or float, clamping and truncating as DALI's slice kernels do.
 * Inputs of 1 to 4 dims, any numeric type but bool.
 */
#include "engine/dtype.h"
#include "engine/kernel.h"
#include "kernels/common/slice_attr.h"
#include "kernels/common/slice_copy.h"
#include "kernels/common/window_plans.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLICE_MAX_FILL 1024

typedef struct slice_state {
	slice_attr_t attr;
	slice_oob_t oob;
	img_window_t *win; /* per sample */
	_Alignas(8) uint8_t fill[SLICE_MAX_FILL * 8]; /* stored as the output type */
	int nfill;
	int channel_dim;
} slice_state_t;

static int slice_init(dalic_op_ctx_t *ctx)
{
	slice_state_t *st = ctx->state;
	int rc = dalic_slice_attr_init(ctx, &st->attr);
	if (rc || (rc = dalic_slice_oob_parse(ctx, &st->oob)))
		return rc;
	int n = dalic_arg(ctx, "fill_values")->n;
	if (n > SLICE_MAX_FILL)
		return dalic_op_fail(ctx, NULL, -1, "fill_values has %d values; at most %d", n,
		                     SLICE_MAX_FILL);
	st->nfill = n < 1 ? 1 : n;
	st->win = calloc((size_t)ctx->max_batch_size, sizeof *st->win);
	return st->win ? DALIC_OK : dalic_op_fail(ctx, NULL, -1, "out of memory");
}

static void slice_fini(dalic_op_ctx_t *ctx)
{
	slice_state_t *st = ctx->state;
	free(st->win);
}

/* The output type: dtype (or the deprecated output_dtype) when given, else the input's. */
static int slice_out_type(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, dalic_dtype_t in,
                          dalic_dtype_t *out)
{
	const char *arg = dalic_arg_given(ctx, "dtype")          ? "dtype"
	                  : dalic_arg_given(ctx, "output_dtype") ? "output_dtype"
	                                                         : NULL;
	*out = arg ? (dalic_dtype_t)dalic_arg_int(ctx, arg) : in;
	if (*out != in && *out != DALIC_UINT8 && *out != DALIC_FLOAT16 && *out != DALIC_FLOAT)
		return dalic_op_fail(ctx, ws, -1, "Not supported output type: %s",
		                     dalic_dtype_cname(*out));
	return DALIC_OK;
}

/* The channel dim for per-channel fill values: the layout's C, or the default layout's
 * (HW, HWC, DHWC) when the input has none. */
static int slice_channel_dim(const dalic_batch_t *in)
{
	static const char *const defaults[] = {"", "", "HW", "HWC", "DHWC"};
	const char *layout = in->layout[0] ? in->layout : defaults[in->ndim];
	const char *c = strchr(layout, 'C');
	return c ? (int)(c - layout) : -1;
}

static int slice_fill_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, dalic_dtype_t out_type)
{
	slice_state_t *st = ctx->state;
	const dalic_value_t *fill = dalic_arg(ctx, "fill_values");
	for (int k = 0; k < st->nfill; k++)
		dalic_slice_fill_cast(out_type, st->fill, k,
		                      fill->n ? dalic_value_get_f(fill, k) : 0);
	st->channel_dim = slice_channel_dim(ws->inputs[0]);
	if (st->oob != SLICE_OOB_PAD || st->nfill == 1)
		return DALIC_OK;
	if (st->channel_dim < 0)
		return dalic_op_fail(ctx, ws, -1,
		                     "Multi-channel fill_values was provided but channel dimension "
		                     "could not be found in layout");
	for (int i = 0; i < ws->batch_size; i++)
		if (st->win[i].shape[st->channel_dim] != st->nfill)
			return dalic_op_fail(
			    ctx, ws, i,
			    "Multi-channel fill value does not match the number of "
			    "channels in the output: %d values, %lld channels",
			    st->nfill, (long long)st->win[i].shape[st->channel_dim]);
	return DALIC_OK;
}

static int slice_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	slice_state_t *st = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	if (!dalic_dtype_is_numeric(in->dtype) || in->dtype == DALIC_BOOL)
		return dalic_op_fail(ctx, ws, -1, "Not supported input type: %s",
		                     dalic_dtype_cname(in->dtype));
	if (in->ndim < 1 || in->ndim > 4)
		return dalic_op_fail(ctx, ws, -1, "Not supported number of dimensions: %d",
		                     in->ndim);
	dalic_dtype_t out_type;
	int rc = slice_out_type(ctx, ws, in->dtype, &out_type);
	if (rc || (rc = dalic_slice_attr_check_inputs(ctx, ws, &st->attr)))
		return rc;
	if ((rc = dalic_batch_set_meta(out, ws->batch_size, out_type, in->ndim)))
		return rc;
	dalic_batch_set_layout(out, in->layout);
	for (int i = 0; i < ws->batch_size; i++) {
		const int64_t *shape = dalic_batch_shape(in, i);
		if ((rc = dalic_slice_attr_window(ctx, ws, &st->attr, i, in->layout, in->ndim,
		                                  shape, &st->win[i])) ||
		    (rc = dalic_slice_oob_apply(ctx, ws, i, st->oob, in->ndim, shape, &st->win[i])))
			return rc;
		dalic_batch_set_shape(out, i, st->win[i].shape);
		out->sources[i] = in->sources[i];
	}
	return slice_fill_setup(ctx, ws, out_type);
}

static int slice_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const slice_state_t *st = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	dalic_slice_copy(in->ptrs[i], in->dtype, dalic_batch_shape(in, i), in->ndim, &st->win[i],
	                 out->ptrs[i], out->dtype, dalic_slice_oob_border(st->oob), st->fill,
	                 st->nfill, st->channel_dim);
	return DALIC_OK;
}

/* The copy slice_run_sample makes, as one plan per sample (window_plans.h). */
int dalic_slice_sample_plan(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                            dalic_slice_elem_plan_t *pl, const void **fill, size_t *fill_bytes)
{
	const slice_state_t *st = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	const dalic_batch_t *out = ws->outputs[0];
	const int64_t *shape = dalic_batch_shape(in, i);
	memset(pl, 0, sizeof *pl);
	pl->ndim = in->ndim; /* 1 to 4 (setup) */
	pl->border = (int)dalic_slice_oob_border(st->oob);
	pl->channel_dim = st->channel_dim;
	pl->nfill = st->nfill;
	pl->in_type = in->dtype;
	pl->out_type = out->dtype;
	pl->fill_type = out->dtype;
	pl->cvt = DALIC_SLICE_CVT_TRUNC;
	for (int d = 0; d < in->ndim; d++) {
		pl->in_shape[d] = shape[d];
		pl->anchor[d] = st->win[i].anchor[d];
		pl->out_shape[d] = st->win[i].shape[d];
	}
	*fill = st->fill;
	*fill_bytes = (size_t)st->nfill * dalic_dtype_size(out->dtype);
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    SLICE_ATTR_ARGS,
    {"out_of_bounds_policy", DALIC_ARG_STRING, "'error'",
     "Windows past the input: 'error', 'pad' / 'constant' (fill_values), 'trim_to_shape', "
     "'edge' / 'clamp', 'reflect' / 'reflect_1001', 'reflect_101' or 'wrap'."},
    {"fill_values", DALIC_ARG_FLOAT_LIST, "[0.0]", "Padding values: one, or one per channel."},
    {"dtype", DALIC_ARG_DTYPE, "None",
     "Output type (uint8, float16 or float); the input's "
     "when not given."},
    {"output_dtype", DALIC_ARG_DTYPE, "None", "Deprecated alias of dtype."},
    {"image_type", DALIC_ARG_IMAGE_TYPE, "None", "Deprecated; ignored."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(slice_state_t),
    .init = slice_init,
    .setup = slice_setup,
    .run_sample = slice_run_sample,
    .fini = slice_fini,
};

DALIC_OPERATOR(Slice) = {
    .name = "Slice",
    .fn = "slice",
    .doc = "Extracts a subtensor (slice) given by start and end or shape, absolute or "
           "relative, or by anchor and shape inputs.",
    .min_inputs = 1,
    .max_inputs = 3,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
