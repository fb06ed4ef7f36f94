/*
 * erase (DALI's Erase): sets regions of each sample to fill_value. A region is an anchor and a
 * shape per listed axis (axis_names, else axes, else every dim but 'C'); `anchor` and `shape`
 * hold one region after another, so their length is a multiple of the axis count; the dims
 * not listed are covered whole. Coordinates are fractions of the extent where normalized_*
 * (or `normalized`) say so, move back by half the shape with centered_anchor, and are
 * computed in float32 and truncated toward zero as DALI does; regions are clipped to the
 * sample. fill_value is one value or one per channel (layout 'C'), cast to the element type
 * as C++ casts a float. anchor, shape and fill_value may be per-sample argument inputs.
 * Types: the integers, float16 and float; 1 to 5 dims.
 */
#include "engine/checked.h"
#include "engine/dtype.h"
#include "engine/kernel.h"
#include "kernels/common/axes.h"
#include "kernels/common/slice_copy.h"

#include <stdlib.h>
#include <string.h>

#define ERASE_MAX_FILL 1024

typedef struct erase_state {
	axes_arg_t axes;
	bool by_arg; /* axes or axis_names given; else every dim but 'C' */
	bool norm_anchor, norm_shape, centered;
} erase_state_t;

static int erase_init(dalic_op_ctx_t *ctx)
{
	erase_state_t *st = ctx->state;
	if (dalic_arg_given(ctx, "normalized")) {
		if (dalic_arg_given(ctx, "normalized_anchor") ||
		    dalic_arg_given(ctx, "normalized_shape"))
			return dalic_op_fail(
			    ctx, NULL, -1,
			    "`normalized` argument is incompatible with providing a "
			    "separate value for `normalized_anchor` and "
			    "`normalized_shape`");
		st->norm_anchor = st->norm_shape = dalic_arg_bool(ctx, "normalized");
	} else {
		st->norm_anchor = dalic_arg_bool(ctx, "normalized_anchor");
		st->norm_shape = dalic_arg_bool(ctx, "normalized_shape");
	}
	st->centered = dalic_arg_bool(ctx, "centered_anchor");
	st->by_arg = dalic_arg_given(ctx, "axes") || dalic_arg_given(ctx, "axis_names");
	return dalic_axes_init(ctx, &st->axes, DALIC_AXES_REPEATS);
}

/* The axes of sample i: the arguments', or every dim but the layout's 'C'. */
static int erase_axes(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, const dalic_batch_t *in,
                      int *axes, int *n)
{
	const erase_state_t *st = ctx->state;
	if (st->by_arg)
		return dalic_axes_get(ctx, ws, &st->axes, i, in->ndim, in->layout, axes, n);
	*n = 0;
	for (int d = 0; d < in->ndim; d++)
		if (!in->layout[0] || in->layout[d] != 'C')
			axes[(*n)++] = d;
	return DALIC_OK;
}

static int erase_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	if (!dalic_dtype_is_numeric(in->dtype) || in->dtype == DALIC_BOOL ||
	    in->dtype == DALIC_FLOAT64)
		return dalic_op_fail(ctx, ws, -1, "Unsupported data type: %s",
		                     dalic_dtype_cname(in->dtype));
	if (in->ndim < 1 || in->ndim > 5)
		return dalic_op_fail(ctx, ws, -1, "Unsupported number of dimensions %d", in->ndim);
	return dalic_batch_copy_meta(ws->outputs[0], in); /* sources too */
}

/* Fill values of sample i cast to the element type; *n of them (1, or one per channel). */
static int erase_fill(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, const dalic_batch_t *in,
                      int channel_dim, void *fill, int *n)
{
	double v[ERASE_MAX_FILL];
	int rc = dalic_arg_floats_at(ctx, ws, "fill_value", i, v, ERASE_MAX_FILL, n);
	if (rc)
		return rc;
	if (*n == 0)
		v[(*n)++] = 0;
	if (*n > 1 && channel_dim < 0)
		return dalic_op_fail(ctx, ws, i,
		                     "If a multi channel fill value is provided, the input layout "
		                     "must have a 'C' dimension");
	if (*n > 1 && *n != dalic_batch_shape(in, i)[channel_dim])
		return dalic_op_fail(
		    ctx, ws, i,
		    "Multi-channel fill value does not match the number of channels "
		    "in the input: %d values, %lld channels",
		    *n, (long long)dalic_batch_shape(in, i)[channel_dim]);
	for (int k = 0; k < *n; k++)
		dalic_slice_fill_cast(in->dtype, fill, k, v[k]);
	return DALIC_OK;
}

/* Fills region [lo, hi) of sample `data` (shape, ndim dims, elements of es bytes). */
static void erase_region(uint8_t *data, const int64_t *shape, int ndim, size_t es,
                         const int64_t *lo, const int64_t *hi, const uint8_t *fill, int nfill,
                         int channel_dim)
{
	int64_t stride[DALIC_MAX_NDIM], pos[DALIC_MAX_NDIM];
	stride[ndim - 1] = 1;
	for (int d = ndim - 2; d >= 0; d--)
		stride[d] = stride[d + 1] * shape[d + 1];
	for (int d = 0; d < ndim; d++) {
		if (hi[d] <= lo[d])
			return;
		pos[d] = lo[d];
	}
	const int last = ndim - 1;
	for (;;) {
		int64_t off = 0;
		for (int d = 0; d < last; d++)
			off += pos[d] * stride[d];
		for (int64_t x = lo[last]; x < hi[last]; x++) {
			int c = nfill <= 1            ? 0
			        : channel_dim == last ? (int)x
			                              : (int)pos[channel_dim];
			memcpy(data + (size_t)(off + x) * es, fill + (size_t)c * es, es);
		}
		int d = last - 1;
		for (; d >= 0; d--) {
			if (++pos[d] < hi[d])
				break;
			pos[d] = lo[d];
		}
		if (d < 0)
			return;
	}
}

/* Values of anchor or shape for sample i, read in place: the argument input's sample or the
 * constant list. */
typedef struct erase_values {
	const dalic_batch_t *in; /* argument input, or NULL */
	const dalic_value_t *list;
	int i, n;
} erase_values_t;

static int erase_values_open(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, const char *name,
                             erase_values_t *v)
{
	v->in = dalic_arg_input(ws, name);
	v->list = dalic_arg(ctx, name);
	v->i = i;
	if (!v->in) {
		v->n = v->list->n;
		return DALIC_OK;
	}
	if (i >= v->in->num_samples || !dalic_dtype_is_numeric(v->in->dtype))
		return dalic_op_fail(ctx, ws, i,
		                     "argument input '%s' has no numbers for this sample", name);
	int64_t n = dalic_batch_sample_elems(v->in, i);
	if (n > INT32_MAX)
		return dalic_op_fail(ctx, ws, i, "argument input '%s' has %lld values", name,
		                     (long long)n);
	v->n = (int)n;
	return DALIC_OK;
}

static float erase_value(const erase_values_t *v, int k)
{
	return (float)(v->in ? dalic_dtype_load_f64(v->in->dtype, v->in->ptrs[v->i], k)
	                     : dalic_value_get_f(v->list, k));
}

static int erase_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const erase_state_t *st = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	const int64_t *shape = dalic_batch_shape(in, i);
	const char *c = in->layout[0] ? strchr(in->layout, 'C') : NULL;
	int channel_dim = c ? (int)(c - in->layout) : -1;
	_Alignas(8) uint8_t fill[ERASE_MAX_FILL * 8];
	int axes[DALIC_AXES_MAX], naxes, nfill;
	erase_values_t anchor, extent;
	int rc = erase_axes(ctx, ws, i, in, axes, &naxes);
	if (rc || (rc = erase_fill(ctx, ws, i, in, channel_dim, fill, &nfill)) ||
	    (rc = erase_values_open(ctx, ws, i, "anchor", &anchor)) ||
	    (rc = erase_values_open(ctx, ws, i, "shape", &extent)))
		return rc;
	int na = anchor.n, ns = extent.n; /* no anchor: zeros */
	if (na != ns && na != 0)
		return dalic_op_fail(ctx, ws, i,
		                     "anchor has %d values and shape %d; they must match", na, ns);
	if (naxes == 0 ? ns != 0 : ns % naxes)
		return dalic_op_fail(
		    ctx, ws, i, "anchor and shape have %d values, not a multiple of the %d axes",
		    ns, naxes);
	size_t bytes = dalic_batch_sample_bytes(in, i);
	if (bytes)
		memcpy(out->ptrs[i], in->ptrs[i], bytes);
	for (int r = 0; naxes && r < ns / naxes; r++) {
		int64_t lo[DALIC_MAX_NDIM], hi[DALIC_MAX_NDIM];
		for (int d = 0; d < in->ndim; d++) {
			lo[d] = 0;
			hi[d] = shape[d];
		}
		for (int k = 0; k < naxes; k++) {
			int d = axes[k];
			float ext = (float)shape[d]; /* float arithmetic, as DALI's */
			float a = na ? erase_value(&anchor, r * naxes + k) : 0.0f;
			float s = erase_value(&extent, r * naxes + k);
			a = st->norm_anchor ? a * ext : a;
			s = st->norm_shape ? s * ext : s;
			a = st->centered ? a - s / 2 : a;
			int64_t from, to;
			if (!dalic_ck_double_to_i64(a, &from) ||
			    !dalic_ck_double_to_i64(a + s, &to))
				return dalic_op_fail(ctx, ws, i,
				                     "region %d: coordinates out of range", r);
			lo[d] = from > lo[d] ? from : lo[d];
			hi[d] = to < hi[d] ? to : hi[d];
		}
		erase_region(out->ptrs[i], shape, in->ndim, dalic_dtype_size(in->dtype), lo, hi,
		             fill, nfill, channel_dim);
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"anchor", DALIC_ARG_FLOAT_LIST, "[]", "Starts of the regions, one value per axis each.",
     .tensor = true},
    {"shape", DALIC_ARG_FLOAT_LIST, "[]", "Extents of the regions, one value per axis each.",
     .tensor = true},
    {"axes", DALIC_ARG_INT_LIST, "[1, 0]",
     "Dims the region values refer to (used when given and axis_names is not)."},
    {"axis_names", DALIC_ARG_STRING, "'HW'",
     "Layout letters the region values refer to (used when given); without either, every "
     "dim but 'C'."},
    {"fill_value", DALIC_ARG_FLOAT_LIST, "[0.0]", "The erasing value: one, or one per channel.",
     .tensor = true},
    {"normalized", DALIC_ARG_BOOL, "False", "Sets both normalized_anchor and normalized_shape."},
    {"normalized_anchor", DALIC_ARG_BOOL, "False", "anchor holds fractions of the extents."},
    {"normalized_shape", DALIC_ARG_BOOL, "False", "shape holds fractions of the extents."},
    {"centered_anchor", DALIC_ARG_BOOL, "False", "The anchor is the region's centre."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(erase_state_t),
    .init = erase_init,
    .setup = erase_setup,
    .run_sample = erase_run_sample,
};

DALIC_OPERATOR(Erase) = {
    .name = "Erase",
    .fn = "erase",
    .doc = "Erases one or more regions (anchor and shape over the given axes) of each sample "
           "with fill_value.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
