/* Slice windows (see slice_attr.h). */
#include "kernels/common/slice_attr.h"

#include "engine/dtype.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Coordinates beyond +-2**61 are refused, so anchors, extents (end - anchor) and their sums
 * stay representable in int64 (DALI's limit is the int64 range itself). */
#define SLICE_ATTR_LIMIT 2305843009213693952.0

/* The one of `names` that is given (as a constant or an argument input), NULL if none;
 * *count gets how many are. */
static const char *slice_attr_pick(const dalic_op_ctx_t *ctx, const char *const *names, int n,
                                   int *count)
{
	const char *pick = NULL;
	*count = 0;
	for (int k = 0; k < n; k++)
		if (dalic_arg_given(ctx, names[k])) {
			pick = pick ? pick : names[k];
			++*count;
		}
	return pick;
}

int dalic_slice_attr_init(const dalic_op_ctx_t *ctx, slice_attr_t *a)
{
	static const slice_attr_names_t names = {"start", "rel_start", "end",  "rel_end",
	                                         "shape", "rel_shape", "axes", "axis_names"};
	return dalic_slice_attr_init_named(ctx, a, &names);
}

int dalic_slice_attr_init_named(const dalic_op_ctx_t *ctx, slice_attr_t *a,
                                const slice_attr_names_t *nm)
{
	const char *const starts[] = {nm->start, nm->rel_start};
	const char *const ends[] = {nm->end, nm->rel_end, nm->shape, nm->rel_shape};
	memset(a, 0, sizeof *a);
	a->data_inputs = 1;
	int n;
	a->start = slice_attr_pick(ctx, starts, 2, &n);
	if (n > 1)
		return dalic_op_fail(ctx, NULL, -1,
		                     "\"%s\" and \"%s\" arguments are mutually exclusive",
		                     nm->start, nm->rel_start);
	a->start_rel = a->start == nm->rel_start;
	a->end = slice_attr_pick(ctx, ends, 4, &n);
	if (n > 1)
		return dalic_op_fail(ctx, NULL, -1,
		                     "\"%s\", \"%s\", \"%s\", and \"%s\" arguments are "
		                     "mutually exclusive",
		                     nm->end, nm->rel_end, nm->shape, nm->rel_shape);
	a->end_kind = !a->end                 ? SLICE_END_NONE
	              : a->end == nm->end     ? SLICE_END_ABS
	              : a->end == nm->rel_end ? SLICE_END_REL
	              : a->end == nm->shape   ? SLICE_SHAPE_ABS
	                                      : SLICE_SHAPE_REL;
	a->named = a->start || a->end;
	if (nm->axis_names) {
		a->normalized_anchor = dalic_arg_bool(ctx, "normalized_anchor");
		a->normalized_shape = dalic_arg_bool(ctx, "normalized_shape");
	}
	if (dalic_axes_is_arg_input(ctx, nm->axes))
		return dalic_op_fail(
		    ctx, NULL, -1, "argument '%s' must be a constant list, not a per-sample input",
		    nm->axes);
	int rc = dalic_axes_init_named(ctx, &a->axes, nm->axis_names ? 0 : DALIC_AXES_ALL_IF_EMPTY,
	                               nm->axes, nm->axis_names);
	a->naxes = a->axes.n;
	return rc;
}

int dalic_slice_attr_check_inputs(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                                  const slice_attr_t *a)
{
	if (a->named && ws->num_inputs != a->data_inputs)
		return dalic_op_fail(ctx, ws, -1,
		                     "Named arguments start/end/shape are not compatible with "
		                     "positional anchor and shape inputs");
	if (!a->named && ws->num_inputs != a->data_inputs + 2)
		return dalic_op_fail(
		    ctx, ws, -1,
		    "Expected named slice arguments (e.g. start/end, start/shape) or "
		    "positional inputs (start, shape). Got %d inputs.",
		    ws->num_inputs);
	if (a->named)
		return DALIC_OK;
	const dalic_batch_t *anchor = ws->inputs[a->data_inputs];
	const dalic_batch_t *shape = ws->inputs[a->data_inputs + 1];
	if (anchor->num_samples < ws->batch_size || shape->num_samples < ws->batch_size)
		return dalic_op_fail(ctx, ws, -1,
		                     "the anchor and shape inputs have %d and %d samples; the batch "
		                     "has %d",
		                     anchor->num_samples, shape->num_samples, ws->batch_size);
	if (anchor->dtype != shape->dtype)
		return dalic_op_fail(
		    ctx, ws, -1, "Anchor and shape should have the same type. Got: %s and %s",
		    dalic_dtype_cname(anchor->dtype), dalic_dtype_cname(shape->dtype));
	if (anchor->dtype != DALIC_INT32 && anchor->dtype != DALIC_INT64 &&
	    anchor->dtype != DALIC_FLOAT)
		return dalic_op_fail(ctx, ws, -1,
		                     "Unsupported type of anchor and shape arguments: %s",
		                     dalic_dtype_cname(anchor->dtype));
	return DALIC_OK;
}

/* The naxes values of named argument `name` for sample i: int32 for the absolute ones,
 * float for the relative ones (read as float32, as DALI stores them). A constant of one
 * value stands for every axis, as in DALI; an argument input must have naxes. */
static int slice_attr_values(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int naxes,
                             const char *name, bool rel, int i, double *out)
{
	const dalic_batch_t *in = dalic_arg_input(ws, name);
	if (in) {
		dalic_dtype_t want = rel ? DALIC_FLOAT : DALIC_INT32;
		if (in->dtype != want)
			return dalic_op_fail(ctx, ws, i, "argument input \"%s\" must be %s, got %s",
			                     name, dalic_dtype_cname(want),
			                     dalic_dtype_cname(in->dtype));
		if (i >= in->num_samples || in->ndim != 1 || dalic_batch_shape(in, i)[0] != naxes)
			return dalic_op_fail(
			    ctx, ws, i,
			    "Unexpected shape for argument \"%s\". Expected {%d}, but "
			    "got %d values",
			    name, naxes,
			    i < in->num_samples ? (int)dalic_batch_sample_elems(in, i) : 0);
		for (int k = 0; k < naxes; k++)
			out[k] = dalic_dtype_load_f64(in->dtype, in->ptrs[i], k);
		return DALIC_OK;
	}
	const dalic_value_t *v = dalic_arg(ctx, name);
	if (v->n != naxes && v->n != 1)
		return dalic_op_fail(
		    ctx, ws, -1,
		    "Argument \"%s\" expected shape %d but got %d values, which can't "
		    "be interpreted as the expected shape.",
		    name, naxes, v->n);
	for (int k = 0; k < naxes; k++) {
		int at = v->n == 1 ? 0 : k;
		out[k] = rel ? (double)(float)dalic_value_get_f(v, at)
		             : (double)dalic_value_get_i(v, at);
	}
	return DALIC_OK;
}

static bool slice_attr_in_range(double v)
{
	return v >= -SLICE_ATTR_LIMIT && v <= SLICE_ATTR_LIMIT; /* NaN fails */
}

static int slice_attr_check_anchor(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                   double anchor)
{
	if (slice_attr_in_range(anchor))
		return DALIC_OK;
	return dalic_op_fail(ctx, ws, i, "anchor value out of range [%g, %g]. Got: %g",
	                     -SLICE_ATTR_LIMIT, SLICE_ATTR_LIMIT, anchor);
}

/* The end of one axis, checked, and its (checked) anchor into the window. */
static int slice_attr_set(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, double anchor,
                          double end, const char *end_what, int d, img_window_t *w)
{
	if (!slice_attr_in_range(end))
		return dalic_op_fail(ctx, ws, i, "%s out of range [%g, %g]. Got: %g", end_what,
		                     -SLICE_ATTR_LIMIT, SLICE_ATTR_LIMIT, end);
	if (!(end >= anchor))
		return dalic_op_fail(ctx, ws, i,
		                     "end coordinates can't be before start coordinates. Got: "
		                     "start=%g end=%g",
		                     anchor, end);
	w->anchor[d] = (int64_t)round(anchor); /* llround: half away from zero */
	w->shape[d] = (int64_t)round(end) - w->anchor[d];
	return DALIC_OK;
}

static int slice_attr_named(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const slice_attr_t *a,
                            int i, const int64_t *shape, const int *dims, int naxes,
                            img_window_t *w)
{
	double sv[DALIC_AXES_MAX], ev[DALIC_AXES_MAX];
	bool rel_end = a->end_kind == SLICE_END_REL || a->end_kind == SLICE_SHAPE_REL;
	int rc;
	if ((a->start && (rc = slice_attr_values(ctx, ws, naxes, a->start, a->start_rel, i, sv))) ||
	    (a->end && (rc = slice_attr_values(ctx, ws, naxes, a->end, rel_end, i, ev))))
		return rc;
	bool rel_start = a->start_rel;
	for (int k = 0; k < naxes; k++) {
		int d = dims[k];
		double ext = (double)shape[d];
		double anchor = !a->start ? 0 : rel_start ? sv[k] * ext : sv[k];
		double end = ext;
		if ((rc = slice_attr_check_anchor(ctx, ws, i, anchor)))
			return rc;
		if (a->end_kind == SLICE_END_ABS) {
			end = ev[k];
		} else if (a->end_kind == SLICE_END_REL) {
			end = ev[k] * ext;
		} else if (rel_start && a->end_kind == SLICE_SHAPE_REL) {
			if (!(ev[k] >= 0))
				return dalic_op_fail(
				    ctx, ws, i, "negative shapes are not allowed. Got: %g", ev[k]);
			end = (sv[k] + ev[k]) * ext; /* one rounding error, as DALI */
		} else if (a->end) {
			double s = a->end_kind == SLICE_SHAPE_ABS ? ev[k] : ev[k] * ext;
			if (!(s >= 0 && s <= SLICE_ATTR_LIMIT))
				return dalic_op_fail(ctx, ws, i,
				                     "shape value out of range [0, %g]. Got: %g",
				                     SLICE_ATTR_LIMIT, s);
			end = anchor + s;
		}
		if ((rc = slice_attr_set(ctx, ws, i, anchor, end, "end coordinates", d, w)))
			return rc;
	}
	return DALIC_OK;
}

static int slice_attr_positional(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                                 const slice_attr_t *a, int i, const int64_t *shape,
                                 const int *dims, img_window_t *w)
{
	const dalic_batch_t *ab = ws->inputs[a->data_inputs], *sb = ws->inputs[a->data_inputs + 1];
	if (ab->ndim != sb->ndim ||
	    memcmp(dalic_batch_shape(ab, i), dalic_batch_shape(sb, i), sizeof(int64_t) * ab->ndim))
		return dalic_op_fail(ctx, ws, i, "the anchor and shape inputs differ in shape");
	if (ab->ndim > 1)
		return dalic_op_fail(ctx, ws, i, "Anchor and shape must be 1D tensors or scalars");
	int64_t n = dalic_batch_sample_elems(ab, i);
	if (n != a->naxes)
		return dalic_op_fail(
		    ctx, ws, i, "Expected %d elements for slice arguments (start/shape). Got %lld",
		    a->naxes, (long long)n);
	bool is_float = ab->dtype == DALIC_FLOAT;
	bool na = is_float && a->normalized_anchor, ns = is_float && a->normalized_shape;
	for (int k = 0; k < a->naxes; k++) {
		int d = dims[k];
		double ext = (double)shape[d];
		double anchor = dalic_dtype_load_f64(ab->dtype, ab->ptrs[i], k);
		double s = dalic_dtype_load_f64(sb->dtype, sb->ptrs[i], k), end;
		if (na && ns) {
			end = (anchor + s) * ext;
			anchor *= ext;
		} else {
			anchor = na ? anchor * ext : anchor;
			end = anchor + (ns ? s * ext : s);
		}
		int rc = slice_attr_check_anchor(ctx, ws, i, anchor);
		if (rc ||
		    (rc = slice_attr_set(ctx, ws, i, anchor, end, "end coordinates value", d, w)))
			return rc;
	}
	return DALIC_OK;
}

int dalic_slice_attr_window(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const slice_attr_t *a,
                            int i, const char *layout, int ndim, const int64_t *shape,
                            img_window_t *w)
{
	int dims[DALIC_AXES_MAX], n;
	int rc = dalic_axes_get(ctx, ws, &a->axes, i, ndim, layout, dims, &n);
	if (rc)
		return rc;
	for (int d = 0; d < ndim; d++) {
		w->anchor[d] = 0;
		w->shape[d] = shape[d];
	}
	return a->named ? slice_attr_named(ctx, ws, a, i, shape, dims, n, w)
	                : slice_attr_positional(ctx, ws, a, i, shape, dims, w);
}

static void slice_format_dims(const int64_t *v, int ndim, char *buf, size_t n)
{
	size_t at = 0;
	buf[0] = 0;
	for (int d = 0; d < ndim && at < n; d++)
		at += (size_t)snprintf(buf + at, n - at, "%s%lld", d ? " x " : "", (long long)v[d]);
}

static const struct {
	const char *name;
	slice_oob_t oob;
} slice_oob_names[] = {
    {"error", SLICE_OOB_ERROR},
    {"trim_to_shape", SLICE_OOB_TRIM},
    {"pad", SLICE_OOB_PAD},
    {"constant", SLICE_OOB_PAD},
    {"edge", SLICE_OOB_CLAMP},
    {"clamp", SLICE_OOB_CLAMP},
    {"reflect", SLICE_OOB_REFLECT_1001},
    {"reflect_1001", SLICE_OOB_REFLECT_1001},
    {"reflect_101", SLICE_OOB_REFLECT_101},
    {"wrap", SLICE_OOB_WRAP},
};

/* Looks the policy up among the first n names; -1 when not there. DALI 2.4 compares "error"
 * and "trim_to_shape" exactly and reads the others as border types, in any letter case. */
static int slice_oob_lookup(const char *s, size_t n, slice_oob_t *out)
{
	for (size_t k = 0; s && k < n; k++)
		if (k < 2 ? !strcmp(s, slice_oob_names[k].name)
		          : !strcasecmp(s, slice_oob_names[k].name)) {
			*out = slice_oob_names[k].oob;
			return 0;
		}
	return -1;
}

int dalic_slice_oob_parse(const dalic_op_ctx_t *ctx, slice_oob_t *out)
{
	const char *s = dalic_arg_string(ctx, "out_of_bounds_policy");
	if (!slice_oob_lookup(s, sizeof slice_oob_names / sizeof *slice_oob_names, out))
		return DALIC_OK;
	return dalic_op_fail(
	    ctx, NULL, -1,
	    "Not supported out_of_bounds_policy: %s. Supported values are "
	    "\"error\", \"pad\" or \"constant\", \"trim_to_shape\", \"edge\" or "
	    "\"clamp\", \"reflect\" or \"reflect_1001\", \"reflect_101\", \"wrap\"",
	    s ? s : "None");
}

int dalic_slice_oob_parse_basic(const dalic_op_ctx_t *ctx, slice_oob_t *out)
{
	const char *s = dalic_arg_string(ctx, "out_of_bounds_policy");
	if (!slice_oob_lookup(s, 3, out))
		return DALIC_OK;
	return dalic_op_fail(ctx, NULL, -1, "Not supported out_of_bounds_policy: %s",
	                     s ? s : "None");
}

slice_border_t dalic_slice_oob_border(slice_oob_t oob)
{
	switch (oob) {
	case SLICE_OOB_CLAMP:
		return SLICE_BORDER_CLAMP;
	case SLICE_OOB_REFLECT_1001:
		return SLICE_BORDER_REFLECT_1001;
	case SLICE_OOB_REFLECT_101:
		return SLICE_BORDER_REFLECT_101;
	case SLICE_OOB_WRAP:
		return SLICE_BORDER_WRAP;
	default:
		return SLICE_BORDER_CONSTANT;
	}
}

int dalic_slice_oob_apply(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, slice_oob_t oob,
                          int ndim, const int64_t *shape, img_window_t *w)
{
	bool empty = false;
	for (int d = 0; d < ndim; d++)
		empty |= w->shape[d] == 0;
	for (int d = 0; d < ndim; d++) {
		int64_t lo = w->anchor[d], hi = w->anchor[d] + w->shape[d];
		if (lo >= 0 && hi <= shape[d])
			continue;
		if (oob == SLICE_OOB_PAD)
			continue;
		if (oob > SLICE_OOB_PAD) { /* DALI 2.4 crashes here; refuse */
			for (int e = 0; !empty && e < ndim; e++)
				if (!shape[e])
					return dalic_op_fail(
					    ctx, ws, i,
					    "out_of_bounds_policy '%s' needs a non-empty "
					    "input; dim %d is empty",
					    dalic_arg_string(ctx, "out_of_bounds_policy"), e);
			continue;
		}
		if (oob == SLICE_OOB_ERROR) {
			char a[160], b[160], c[160];
			slice_format_dims(shape, ndim, a, sizeof a);
			slice_format_dims(w->anchor, ndim, b, sizeof b);
			slice_format_dims(w->shape, ndim, c, sizeof c);
			return dalic_op_fail(
			    ctx, ws, i,
			    "Slice can't be placed out of bounds with current policy. "
			    "Got: input_shape={%s}, slice_anchor={%s}, slice_shape={%s}",
			    a, b, c);
		}
		lo = lo < 0 ? 0 : lo > shape[d] ? shape[d] : lo;
		hi = hi > shape[d] ? shape[d] : hi;
		w->anchor[d] = lo;
		w->shape[d] = hi > lo ? hi - lo : 0;
	}
	return DALIC_OK;
}
