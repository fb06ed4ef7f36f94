/*
 * coord_transform (DALI's CoordTransform): out = M·in + T for every point of a sample, the
 * points being the last dimension of the input (..., n) and the output (..., m). M (m x n) and
 * T (m) come from `M` and `T` or from the fused [M T] `MT`, as lists or per-sample argument
 * inputs (DALI's MTTransformAttr): one value is a diagonal matrix (with MT: and no
 * translation), a list is read row by row into as many rows as it fills, no M is the identity;
 * T is one value for every row or m values. Inputs uint8, int16, uint16, int32 or float;
 * output `dtype` FLOAT (default) or the input type, computed in float and rounded half away
 * from zero with saturation, as DALI's ConvertSat. Samples without points do not count for n;
 * with no point in the batch the last extent is 0.
 */
#include "engine/dtype.h"
#include "engine/kernel.h"
#include "kernels/common/xform.h"

#include <stdlib.h>
#include <string.h>

#define CT_MAX_DIM 6

typedef struct ct_sample {
	float m[CT_MAX_DIM * CT_MAX_DIM]; /* out_dim x in_dim, row-major */
	float t[CT_MAX_DIM];
} ct_sample_t;

typedef struct coord_transform {
	bool fused;
	int in_dim, out_dim; /* of the batch; in_dim 0 when it has no point */
	ct_sample_t *s;
} coord_transform_t;

static int coord_transform_init(dalic_op_ctx_t *ctx)
{
	coord_transform_t *c = ctx->state;
	c->fused = dalic_xform_arg_defined(ctx, "MT");
	if (c->fused && (dalic_xform_arg_defined(ctx, "M") || dalic_xform_arg_defined(ctx, "T")))
		return dalic_op_fail(ctx, NULL, -1,
		                     "The combined ``MT`` argument cannot be used together with "
		                     "separate ``M``, ``T`` arguments.");
	c->s = calloc((size_t)ctx->max_batch_size, sizeof *c->s);
	return c->s ? DALIC_OK : dalic_op_fail(ctx, NULL, -1, "out of memory");
}

static void coord_transform_fini(dalic_op_ctx_t *ctx)
{
	coord_transform_t *c = ctx->state;
	free(c->s);
}

/* Sets the output point dimension, or checks it agrees with the one set before. */
static int coord_transform_out_dim(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int d)
{
	coord_transform_t *c = ctx->state;
	if (c->out_dim > 0 && d != c->out_dim)
		return dalic_op_fail(ctx, ws, i,
		                     "The arguments suggest %d output components, but it was "
		                     "previously set to %d",
		                     d, c->out_dim);
	if (d > CT_MAX_DIM)
		return dalic_op_fail(ctx, ws, i, "Unsupported output point dimensionality: %d", d);
	c->out_dim = d;
	return DALIC_OK;
}

/* The matrix (and with MT the translation) of sample i. */
static int coord_transform_matrix(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, ct_sample_t *s)
{
	coord_transform_t *c = ctx->state;
	const char *name = c->fused ? "MT" : "M";
	const int n = c->in_dim, cols = n + c->fused;
	float v[CT_MAX_DIM * (CT_MAX_DIM + 1) + 1];
	int64_t shape[2];
	int count, rank, rc;
	memset(s, 0, sizeof *s);
	if (!dalic_xform_arg_present(ctx, ws, name)) { /* identity */
		if ((rc = coord_transform_out_dim(ctx, ws, i, n)))
			return rc;
		for (int d = 0; d < n; d++)
			s->m[d * n + d] = 1;
		return DALIC_OK;
	}
	rc = dalic_xform_arg(ctx, ws, i, name, 2, v, (int)(sizeof v / sizeof *v), &count, shape,
	                     &rank);
	if (rc)
		return rc;
	if (rank == 1)
		return dalic_op_fail(
		    ctx, ws, i,
		    "The parameter %s must be a list of 2D matrices of same size or "
		    "a list of scalars. Got: a 1-D tensor of %d values",
		    name, count);
	if (count == 1 && rank <= 0) { /* a scalar: diagonal, no translation */
		if ((rc = coord_transform_out_dim(ctx, ws, i, n)))
			return rc;
		for (int d = 0; d < n; d++)
			s->m[d * n + d] = v[0];
		return DALIC_OK;
	}
	if (count == 0)
		return dalic_op_fail(ctx, ws, i,
		                     "The matrix argument ``%s`` must not be an empty list.", name);
	if (rank == 2 && shape[1] != cols)
		return dalic_op_fail(
		    ctx, ws, i,
		    "The shape of the argument ``%s`` does not match the input "
		    "shape. Got %lld x %lld matrices and the input requires matrices "
		    "with %d columns",
		    name, (long long)shape[0], (long long)shape[1], cols);
	if (count % cols)
		return dalic_op_fail(ctx, ws, i,
		                     "Cannot form a matrix with %d elements and %d columns", count,
		                     cols);
	if ((rc = coord_transform_out_dim(ctx, ws, i, count / cols)))
		return rc;
	for (int r = 0; r < c->out_dim; r++) {
		for (int k = 0; k < n; k++)
			s->m[r * n + k] = v[r * cols + k];
		if (c->fused)
			s->t[r] = v[r * cols + n];
	}
	return DALIC_OK;
}

static int coord_transform_translation(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                       ct_sample_t *s)
{
	coord_transform_t *c = ctx->state;
	float v[CT_MAX_DIM + 1];
	int count, rank;
	if (c->fused || !dalic_xform_arg_present(ctx, ws, "T"))
		return DALIC_OK;
	int rc = dalic_xform_arg(ctx, ws, i, "T", 1, v, CT_MAX_DIM + 1, &count, NULL, &rank);
	if (rc)
		return rc;
	if (count != 1 && count != c->out_dim)
		return rank < 0 ? dalic_op_fail(ctx, ws, i,
		                                "Argument \"T\" expects either a single value or a "
		                                "list of %d elements. %d given.",
		                                c->out_dim, count)
		                : dalic_op_fail(ctx, ws, i,
		                                "Expected %d-D translation vectors, got %d-D",
		                                c->out_dim, count);
	for (int r = 0; r < c->out_dim; r++)
		s->t[r] = v[count == 1 ? 0 : r];
	return DALIC_OK;
}

static int coord_transform_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	coord_transform_t *c = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	dalic_dtype_t t = in->dtype;
	if (t != DALIC_UINT8 && t != DALIC_INT16 && t != DALIC_UINT16 && t != DALIC_INT32 &&
	    t != DALIC_FLOAT)
		return dalic_op_fail(ctx, ws, -1, "Unsupported input type: %s",
		                     dalic_dtype_cname(t));
	dalic_dtype_t ot = (dalic_dtype_t)dalic_arg_int(ctx, "dtype");
	if (ot != t && ot != DALIC_FLOAT)
		return dalic_op_fail(ctx, ws, -1,
		                     "CoordTransform output type must be the same as input type, "
		                     "which is %s, or `float`. Got: %s",
		                     dalic_dtype_cname(t), dalic_dtype_cname(ot));
	if (in->ndim < 2)
		return dalic_op_fail(ctx, ws, -1,
		                     "CoordTransform expects an input with at least 2 dimensions.");
	c->in_dim = c->out_dim = 0;
	for (int i = 0; i < ws->batch_size; i++) {
		if (dalic_batch_sample_elems(in, i) == 0)
			continue;
		int d = (int)dalic_batch_shape(in, i)[in->ndim - 1];
		if (c->in_dim && d != c->in_dim)
			return dalic_op_fail(ctx, ws, i,
			                     "The point dimensions must be the same for all input "
			                     "samples. Got %d here and %d before.",
			                     d, c->in_dim);
		c->in_dim = d;
	}
	if (c->in_dim > CT_MAX_DIM)
		return dalic_op_fail(ctx, ws, -1, "Unsupported input point dimensionality: %d",
		                     c->in_dim);
	for (int i = 0; c->in_dim && i < ws->batch_size; i++) {
		int rc = coord_transform_matrix(ctx, ws, i, &c->s[i]);
		if (!rc)
			rc = coord_transform_translation(ctx, ws, i, &c->s[i]);
		if (rc)
			return rc;
	}
	int rc = dalic_batch_set_meta(out, ws->batch_size, ot, in->ndim);
	if (rc)
		return rc;
	dalic_batch_set_layout(out, in->layout);
	for (int i = 0; i < ws->batch_size; i++) {
		int64_t *os = dalic_batch_shape_mut(out, i);
		memcpy(os, dalic_batch_shape(in, i), sizeof(int64_t) * (size_t)in->ndim);
		os[in->ndim - 1] = c->out_dim;
		out->sources[i] = in->sources[i];
	}
	return DALIC_OK;
}

static int coord_transform_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	(void)thread;
	const coord_transform_t *c = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	const int n = c->in_dim, m = c->out_dim;
	int64_t points = n ? dalic_batch_sample_elems(in, i) / n : 0;
	const ct_sample_t *s = &c->s[i];
	for (int64_t p = 0; p < points; p++) {
		float v[CT_MAX_DIM];
		for (int k = 0; k < n; k++)
			v[k] = (float)dalic_dtype_load_f64(in->dtype, in->ptrs[i], p * n + k);
		for (int r = 0; r < m; r++) {
			/* (M·v) + T in float, each dot product from its first term (DALI's mat.h)
			 */
			float acc = s->m[r * n] * v[0];
			for (int k = 1; k < n; k++)
				acc += s->m[r * n + k] * v[k];
			acc += s->t[r];
			if (out->dtype == DALIC_FLOAT)
				((float *)out->ptrs[i])[p * m + r] = acc;
			else
				dalic_dtype_store_sat(out->dtype, out->ptrs[i], p * m + r, acc);
		}
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"M", DALIC_ARG_FLOAT_LIST, "None",
     "The matrix, row by row (one value: a diagonal matrix; none: the identity).", .tensor = true},
    {"T", DALIC_ARG_FLOAT_LIST, "None", "The translation (one value: every component).",
     .tensor = true},
    {"MT", DALIC_ARG_FLOAT_LIST, "None", "The block matrix [M T]; excludes M and T.",
     .tensor = true},
    {"dtype", DALIC_ARG_DTYPE, "FLOAT", "Output type: FLOAT or the input type."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(coord_transform_t),
    .init = coord_transform_init,
    .setup = coord_transform_setup,
    .run_sample = coord_transform_run_sample,
    .fini = coord_transform_fini,
};

DALIC_OPERATOR(CoordTransform) = {
    .name = "CoordTransform",
    .fn = "coord_transform",
    .doc = "Applies a linear transformation out = M·in + T to points or vectors (the last "
           "dimension).",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
