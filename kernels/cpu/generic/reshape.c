/*
 * reshape: gives every sample a new shape and/or layout without copying: in setup the output
 * samples borrow the input samples' memory (dalic_batch_share_sample), so run has nothing to
 * do. The new shape comes from exactly one of
 *   - `shape` (int list, or per sample as an argument input), one extent may be negative and
 *     receives whatever the element count requires: [480, 640, 3] with [240, -1] -> [240, 3840];
 *   - `rel_shape` (floats multiplying the input extents, rounded; one may be negative);
 *   - a second positional input holding the shape of each sample (integers);
 *   - `src_dims` alone: input dims to keep, in order, -1 inserting a dim of extent 1.
 * `src_dims` also maps `rel_shape` entries to input dims. The element count must not change.
 * Without `layout` the input layout is kept when it still has as many dims as the output.
 * Semantics and checks follow DALI's dali/operators/generic/reshape.cc.
 * reinterpret is the same operator with `dtype`: the bytes stay, the type changes; a given
 * shape must then cover the same number of bytes (the wildcard takes what is left), and
 * without one the innermost extent is rescaled (12 uint8 -> 3 int32).
 */
#include "engine/checked.h"
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/graphdef.h"
#include "engine/kernel.h"
#include "kernels/common/arg_check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int reshape_bad_arg(const dalic_op_ctx_t *ctx, const char *arg, const char *msg)
{
	return dalic_fail(DALIC_EINVAL, "operator '%s' (%s): argument '%s': %s", ctx->inst,
	                  ctx->schema->name, arg, msg);
}

/* A shape given as a scalar list argument: at most one negative wildcard, no zeros. */
static int reshape_check_list(const dalic_op_ctx_t *ctx, const char *arg)
{
	const dalic_value_t *v = dalic_arg(ctx, arg);
	if (v->kind == DALIC_V_NONE) /* absent, or given per sample as an argument input */
		return DALIC_OK;
	if (v->n == 0 && !strcmp(arg, "rel_shape"))
		return reshape_bad_arg(ctx, arg, "specified as an empty list");
	if (v->n > DALIC_MAX_NDIM)
		return reshape_bad_arg(ctx, arg, "too many dims");
	int negative = 0;
	for (int d = 0; d < v->n; d++) {
		double e = dalic_value_get_f(v, d);
		if (e < 0 && ++negative > 1)
			return reshape_bad_arg(ctx, arg, "only one negative extent is allowed");
		if (e == 0)
			return reshape_bad_arg(ctx, arg, "extent of 0 is illegal");
	}
	return DALIC_OK;
}

/* The output type: reinterpret's `dtype`, else the input's. */
static dalic_dtype_t reshape_out_dtype(const dalic_op_ctx_t *ctx, dalic_dtype_t in)
{
	if (strcmp(ctx->schema->name, "Reinterpret") || !dalic_arg_given(ctx, "dtype"))
		return in;
	return (dalic_dtype_t)dalic_arg_int(ctx, "dtype");
}

static int reshape_init(dalic_op_ctx_t *ctx)
{
	bool shape_input = ctx->def && ctx->def->num_regular_inputs == 2;
	bool shape = dalic_arg_given(ctx, "shape"), rel = dalic_arg_given(ctx, "rel_shape");
	if (shape_input + shape + rel > 1)
		return reshape_bad_arg(ctx, shape ? "shape" : "rel_shape",
		               "the shape input, `shape` and `rel_shape` are mutually exclusive");
	bool reinterpret = !strcmp(ctx->schema->name, "Reinterpret");
	if (!shape_input && !shape && !rel && !dalic_arg_given(ctx, "layout") &&
	    !dalic_arg_given(ctx, "src_dims") && !(reinterpret && dalic_arg_given(ctx, "dtype")))
		return dalic_fail(DALIC_EINVAL,
		                  "operator '%s' (%s) is a no-op: arguments specify neither a new "
		                  "shape%s nor a layout",
		                  ctx->inst, ctx->schema->name, reinterpret ? ", a type" : "");
	int rc = reshape_check_list(ctx, "shape");
	if (!rc)
		rc = reshape_check_list(ctx, "rel_shape");
	const dalic_value_t *src_dims = dalic_arg(ctx, "src_dims");
	if (!rc && src_dims->n > DALIC_MAX_NDIM)
		rc = reshape_bad_arg(ctx, "src_dims", "too many dims");
	for (int d = 0; !rc && d < src_dims->n; d++)
		if (src_dims->i[d] < -1)
			rc = reshape_bad_arg(ctx, "src_dims",
			                     "indices must be valid input dims or -1");
	return rc;
}

/* The requested extents of sample i before the wildcard is resolved; *n gets their count.
 * Relative extents are already multiplied out (and rounded like DALI's round_int). */
static int reshape_requested(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int64_t *ext, int *n)
{
	const dalic_batch_t *in = ws->inputs[0];
	const int64_t *ish = dalic_batch_shape(in, i);
	const dalic_value_t *src_dims = dalic_arg(ctx, "src_dims");
	double v[DALIC_MAX_NDIM];
	int rc;
	if (ws->num_inputs == 2) {
		const dalic_batch_t *s = ws->inputs[1];
		if (!dalic_dtype_is_integral(s->dtype) || s->dtype == DALIC_BOOL)
			return dalic_op_fail(ctx, ws, i,
			                     "the shape input must have an integral "
			                     "type, got %s",
			                     dalic_dtype_name(s->dtype));
		int64_t count = dalic_batch_sample_elems(s, i);
		if (count > DALIC_MAX_NDIM)
			return dalic_op_fail(ctx, ws, i,
			                     "the shape input has %lld dims, at most %d",
			                     (long long)count, DALIC_MAX_NDIM);
		for (int64_t d = 0; d < count; d++)
			ext[d] = dalic_dtype_load_i64(s->dtype, s->ptrs[i], d);
		*n = (int)count;
		return DALIC_OK;
	}
	if (dalic_arg_given(ctx, "shape")) {
		if ((rc = dalic_arg_floats_at(ctx, ws, "shape", i, v, DALIC_MAX_NDIM, n)))
			return rc;
		for (int d = 0; d < *n; d++)
			if ((rc = dalic_argck_to_i64(ctx, ws, i, "shape", v[d], &ext[d])))
				return rc;
		return DALIC_OK;
	}
	if (dalic_arg_given(ctx, "rel_shape")) {
		if ((rc = dalic_arg_floats_at(ctx, ws, "rel_shape", i, v, DALIC_MAX_NDIM, n)) ||
		    (rc = dalic_argck_finite(ctx, ws, i, "rel_shape", v, *n)))
			return rc;
		if (src_dims->n ? *n != src_dims->n : *n > in->ndim)
			return dalic_op_fail(ctx, ws, i,
			                     src_dims->n
			                         ? "`src_dims` and `rel_shape` have different "
			                           "lengths"
			                         : "`rel_shape` has more elements than the "
			                           "input has dims; use `src_dims` to add dims");
		for (int d = 0; d < *n; d++) {
			int src = src_dims->n ? (int)src_dims->i[d] : d;
			float e = roundf((float)(v[d] * (double)(src < 0 ? 1 : ish[src])));
			if (v[d] < 0)
				ext[d] = -1;
			else if (!dalic_ck_double_to_i64(e, &ext[d]))
				return dalic_op_fail(ctx, ws, i,
				                     "rel_shape[%d] = %g makes an extent of "
				                     "%g, too large",
				                     d, v[d], (double)e);
		}
		return DALIC_OK;
	}
	if (src_dims->n) {
		for (int d = 0; d < src_dims->n; d++)
			ext[d] = src_dims->i[d] < 0 ? 1 : ish[src_dims->i[d]];
		*n = src_dims->n;
		return DALIC_OK;
	}
	memcpy(ext, ish, sizeof(int64_t) * (size_t)in->ndim);
	*n = in->ndim;
	return DALIC_OK;
}

/* Resolves the wildcard and checks that sample i keeps its size in bytes (its element count
 * when the type stays). */
static int reshape_resolve(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int64_t *ext, int n,
                           dalic_dtype_t out_type)
{
	const dalic_batch_t *in = ws->inputs[0];
	int64_t isz = (int64_t)dalic_dtype_size(in->dtype),
	        osz = (int64_t)dalic_dtype_size(out_type);
	int64_t volume = dalic_batch_sample_elems(in, i), other = 1, in_bytes = 0;
	int wildcard = -1;
	bool overflow = !dalic_ck_mul_i64(volume, isz, &in_bytes);
	for (int d = 0; d < n; d++) {
		if (ext[d] >= 0) {
			overflow |= !dalic_ck_mul_i64(other, ext[d], &other);
			continue;
		}
		if (wildcard >= 0)
			return dalic_op_fail(ctx, ws, i,
			                     "only one dimension can have a negative "
			                     "extent");
		wildcard = d;
	}
	if (wildcard >= 0 && !overflow) {
		if (other == 0)
			return dalic_op_fail(ctx, ws, i,
			                     "cannot infer the extent of dim %d when the other "
			                     "dims have no elements",
			                     wildcard);
		ext[wildcard] = in_bytes / other / osz; /* what does not fit fails below */
	}
	int64_t count = 1, out_bytes = 0;
	size_t bytes;
	overflow |= !dalic_ck_volume(ext, n, &count) ||
	            !dalic_ck_shape_bytes(ext, n, (size_t)osz, &bytes) ||
	            !dalic_ck_mul_i64(count, osz, &out_bytes);
	if (overflow || out_bytes != in_bytes) {
		char a[160], b[160];
		dalic_batch_format_shape(dalic_batch_shape(in, i), in->ndim, "()", a, sizeof a);
		dalic_batch_format_shape(ext, n, "()", b, sizeof b);
		if (overflow)
			return dalic_op_fail(ctx, ws, i,
			                     "cannot reshape %s (%lld elements) to %s: its size "
			                     "overflows",
			                     a, (long long)volume, b);
		if (isz == osz)
			return dalic_op_fail(
			    ctx, ws, i, "cannot reshape %s (%lld elements) to %s (%lld elements)",
			    a, (long long)volume, b, (long long)count);
		return dalic_op_fail(ctx, ws, i,
		                     "input and output samples must occupy the same size in bytes: "
		                     "%s of %s is %lld bytes, %s of %s %lld bytes",
		                     a, dalic_dtype_name(in->dtype), (long long)in_bytes, b,
		                     dalic_dtype_name(out_type), (long long)out_bytes);
	}
	return DALIC_OK;
}

/* No new shape, another type: the innermost extent carries the difference in size. */
static int reshape_rescale_inner(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int64_t *ext,
                                 int n, dalic_dtype_t out_type)
{
	int64_t isz = (int64_t)dalic_dtype_size(ws->inputs[0]->dtype);
	int64_t osz = (int64_t)dalic_dtype_size(out_type);
	if (isz == osz)
		return DALIC_OK;
	int64_t inner_bytes;
	if (n == 0 || !dalic_ck_mul_i64(ext[n - 1], isz, &inner_bytes) || inner_bytes % osz)
		return dalic_op_fail(
		    ctx, ws, i,
		    "the size, in bytes, of the innermost dimension (%lld x %s) is "
		    "not divisible by the size of %s",
		    n ? (long long)ext[n - 1] : 0LL, dalic_dtype_name(ws->inputs[0]->dtype),
		    dalic_dtype_name(out_type));
	ext[n - 1] = inner_bytes / osz;
	return DALIC_OK;
}

static int reshape_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	const dalic_value_t *src_dims = dalic_arg(ctx, "src_dims");
	for (int d = 0; d < src_dims->n; d++)
		if (src_dims->i[d] >= in->ndim)
			return dalic_op_fail(
			    ctx, ws, -1, "src_dims[%d] = %lld is out of bounds for %d-dim input", d,
			    (long long)src_dims->i[d], in->ndim);
	if (ws->num_inputs == 2 && ws->inputs[1]->num_samples != in->num_samples)
		return dalic_op_fail(ctx, ws, -1, "the shape input has %d samples, the data %d",
		                     ws->inputs[1]->num_samples, in->num_samples);
	int64_t shapes[DALIC_MAX_NDIM];
	int ndim = 0, rc;
	dalic_dtype_t out_type = reshape_out_dtype(ctx, in->dtype);
	if (out_type != in->dtype && !dalic_dtype_is_numeric(out_type) && out_type != DALIC_BOOL)
		return dalic_op_fail(ctx, ws, -1, "argument 'dtype': cannot reinterpret as %s",
		                     dalic_dtype_name(out_type));
	bool new_shape = ws->num_inputs == 2 || dalic_arg_given(ctx, "shape") ||
	                 dalic_arg_given(ctx, "rel_shape");
	for (int i = 0; i < in->num_samples; i++) {
		int n;
		if ((rc = reshape_requested(ctx, ws, i, shapes, &n)))
			return rc;
		if (i > 0 && n != ndim)
			return dalic_op_fail(ctx, ws, i,
			                     "all samples must have the same number of "
			                     "dims (%d, sample 0 has %d)",
			                     n, ndim);
		if (i == 0 && (rc = dalic_batch_set_meta(out, in->num_samples, out_type, n)))
			return rc;
		ndim = n;
		if ((rc = reshape_resolve(ctx, ws, i, shapes, n, new_shape ? out_type : in->dtype)))
			return rc;
		if (!new_shape && (rc = reshape_rescale_inner(ctx, ws, i, shapes, n, out_type)))
			return rc;
		dalic_batch_share_sample(out, i, in, i);
		dalic_batch_set_shape(out, i, shapes);
	}
	if (in->num_samples == 0 && (rc = dalic_batch_set_meta(out, 0, out_type, in->ndim)))
		return rc;
	const char *layout = dalic_arg_string(ctx, "layout");
	if (layout && layout[0] && (int)strlen(layout) != out->ndim)
		return dalic_op_fail(ctx, ws, -1, "layout '%s' does not fit a %d-dim shape", layout,
		                     out->ndim);
	if (!dalic_arg_given(ctx, "layout"))
		layout = (int)strlen(in->layout) == out->ndim ? in->layout : "";
	dalic_batch_set_layout(out, layout ? layout : "");
	return DALIC_OK;
}

/* The output already points at the input's samples (setup); nothing is copied. */
static int reshape_run(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"shape", DALIC_ARG_INT_LIST, "None",
     "The output shape; one extent may be negative and is inferred.", .tensor = true},
    {"rel_shape", DALIC_ARG_FLOAT_LIST, "None",
     "The output shape relative to the input shape; one extent may be negative.", .tensor = true},
    {"layout", DALIC_ARG_LAYOUT, "None",
     "New layout; kept from the input when not given and the dims still match."},
    {"src_dims", DALIC_ARG_INT_LIST, "None",
     "Input dims to keep, in order; -1 inserts a dim of extent 1."},
    {0},
};

static const dalic_kernel_t kernel = {
    .init = reshape_init, .setup = reshape_setup, .run = reshape_run};

DALIC_OPERATOR(Reshape) = {
    .name = "Reshape",
    .fn = "reshape",
    .doc = "Treats each sample as if it had a different shape and/or layout; no data is "
           "copied.",
    .min_inputs = 1,
    .max_inputs = 2,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .passthrough = true,
    .cpu = &kernel,
};

static const dalic_arg_schema_t reinterpret_args[] = {
    {"shape", DALIC_ARG_INT_LIST, "None",
     "The output shape; one extent may be negative and is inferred.", .tensor = true},
    {"rel_shape", DALIC_ARG_FLOAT_LIST, "None",
     "The output shape relative to the input shape; one extent may be negative.", .tensor = true},
    {"layout", DALIC_ARG_LAYOUT, "None",
     "New layout; kept from the input when not given and the dims still match."},
    {"src_dims", DALIC_ARG_INT_LIST, "None",
     "Input dims to keep, in order; -1 inserts a dim of extent 1."},
    {"dtype", DALIC_ARG_DTYPE, "None",
     "Output type; the bytes stay, the innermost extent is rescaled when no shape is given."},
    {0},
};

DALIC_OPERATOR(Reinterpret) = {
    .name = "Reinterpret",
    .fn = "reinterpret",
    .doc = "Treats each sample as if it had a different type, shape and/or layout; no data "
           "is copied.",
    .min_inputs = 1,
    .max_inputs = 2,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = reinterpret_args,
    .passthrough = true,
    .cpu = &kernel,
};
