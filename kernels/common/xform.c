/* Affine transforms: matrices in DALI's float order, argument reading, the generator base
 * (see xform.h). */
#include "kernels/common/xform.h"

#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/graphdef.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void dalic_xform_identity(int ndim, float *m)
{
	int s = ndim + 1;
	for (int r = 0; r < s; r++)
		for (int c = 0; c < s; c++)
			m[r * s + c] = r == c ? 1.0f : 0.0f;
}

void dalic_xform_mul(int ndim, const float *a, const float *b, float *out)
{
	int s = ndim + 1;
	for (int r = 0; r < s; r++)
		for (int c = 0; c < s; c++) {
			float sum = a[r * s] * b[c];
			for (int k = 1; k < s; k++)
				sum += a[r * s + k] * b[k * s + c];
			out[r * s + c] = sum;
		}
}

/* Gauss–Jordan elimination of [A | B] with partial pivoting, as DALI's solve_gauss: A becomes
 * the identity and B (the identity on entry) A's inverse. */
static bool xform_solve_gauss(int n, float *a, float *b)
{
	for (int v = 0; v < n; v++) {
		float max = fabsf(a[v * n + v]);
		int maxr = v;
		for (int i = v + 1; i < n; i++) {
			float q = fabsf(a[i * n + v]);
			if (q > max) {
				max = q;
				maxr = i;
			}
		}
		if (!(max != 0))
			return false;
		if (maxr != v)
			for (int j = 0; j < n; j++) {
				float t = a[v * n + j];
				a[v * n + j] = a[maxr * n + j];
				a[maxr * n + j] = t;
				t = b[v * n + j];
				b[v * n + j] = b[maxr * n + j];
				b[maxr * n + j] = t;
			}
		float x = 1.0f / a[v * n + v];
		a[v * n + v] = 1;
		for (int j = v + 1; j < n; j++)
			a[v * n + j] *= x;
		for (int j = 0; j < n; j++)
			b[v * n + j] *= x;
		for (int i = 0; i < n; i++) {
			if (i == v)
				continue;
			float c = -a[i * n + v];
			a[i * n + v] = 0;
			for (int j = v + 1; j < n; j++)
				a[i * n + j] = fmaf(c, a[v * n + j], a[i * n + j]);
			for (int j = 0; j < n; j++)
				b[i * n + j] = fmaf(c, b[v * n + j], b[i * n + j]);
		}
	}
	return true;
}

bool dalic_xform_affine_inv(int ndim, const float *m, float *out)
{
	int cols = ndim + 1;
	float inv[9];
	if (ndim == 2) {
		float a = m[0], b = m[1], c = m[cols], d = m[cols + 1];
		float det = a * d - b * c;
		if (!(det != 0))
			return false;
		inv[0] = d / det;
		inv[1] = -b / det;
		inv[2] = -c / det;
		inv[3] = a / det;
	} else {
		float a[9];
		for (int r = 0; r < 3; r++)
			for (int c = 0; c < 3; c++) {
				a[r * 3 + c] = m[r * cols + c];
				inv[r * 3 + c] = r == c ? 1.0f : 0.0f;
			}
		if (!xform_solve_gauss(3, a, inv))
			return false;
	}
	/* t' = (−M⁻¹)·t */
	for (int r = 0; r < ndim; r++) {
		float s = -inv[r * ndim] * m[ndim];
		for (int k = 1; k < ndim; k++)
			s += -inv[r * ndim + k] * m[k * cols + ndim];
		for (int c = 0; c < ndim; c++)
			out[r * cols + c] = inv[r * ndim + c];
		out[r * cols + ndim] = s;
	}
	return true;
}

bool dalic_xform_arg_defined(const dalic_op_ctx_t *ctx, const char *name)
{
	if (dalic_arg_given(ctx, name))
		return true;
	for (int k = 0; k < ctx->def->num_inputs; k++) {
		const dalic_io_t *io = &ctx->def->inputs[k];
		if (io->is_arg && io->arg_name && !strcmp(io->arg_name, name))
			return true;
	}
	return false;
}

bool dalic_xform_arg_present(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name)
{
	return dalic_arg_given(ctx, name) || dalic_arg_input(ws, name);
}

int dalic_xform_arg(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, const char *name,
                    int max_rank, float *out, int max, int *n, int64_t *shape, int *rank)
{
	const dalic_batch_t *in = dalic_arg_input(ws, name);
	if (!in) {
		const dalic_value_t *v = dalic_arg(ctx, name);
		if (v->n > max)
			return dalic_op_fail(ctx, ws, i, "argument '%s' has %d values, at most %d",
			                     name, v->n, max);
		for (int k = 0; k < v->n; k++)
			out[k] = (float)dalic_value_get_f(v, k);
		*n = v->kind == DALIC_V_NONE ? 0 : v->n;
		if (rank)
			*rank = -1;
		return DALIC_OK;
	}
	if (i >= in->num_samples)
		return dalic_op_fail(ctx, ws, i,
		                     "argument input '%s' has %d samples, batch needs %d", name,
		                     in->num_samples, ws->batch_size);
	if (in->dtype != DALIC_FLOAT)
		return dalic_op_fail(ctx, ws, i, "argument input '%s' must be float, got %s", name,
		                     dalic_dtype_cname(in->dtype));
	if (in->ndim > max_rank)
		return dalic_op_fail(ctx, ws, i,
		                     "argument input '%s': Input with dimension (%d) cannot be "
		                     "converted to dimension (%d).",
		                     name, in->ndim, max_rank);
	if (!dalic_batch_uniform_shape(in)) {
		char buf[64];
		dalic_batch_format_shape(dalic_batch_shape(in, i), in->ndim, "{}", buf, sizeof buf);
		return dalic_op_fail(ctx, ws, i,
		                     "Expected uniform shape for argument \"%s\" but got shape %s "
		                     "in this sample and others elsewhere",
		                     name, buf);
	}
	int64_t count = dalic_batch_sample_elems(in, i);
	if (count > max)
		return dalic_op_fail(ctx, ws, i, "argument input '%s' has %lld values, at most %d",
		                     name, (long long)count, max);
	const float *p = in->ptrs[i];
	for (int64_t k = 0; k < count; k++)
		out[k] = p[k];
	*n = (int)count;
	if (shape)
		memcpy(shape, dalic_batch_shape(in, i), sizeof(int64_t) * (size_t)in->ndim);
	if (rank)
		*rank = in->ndim;
	return DALIC_OK;
}

int dalic_xform_arg_count(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, const char *name,
                          int n, int want)
{
	if (n == want)
		return DALIC_OK;
	return dalic_op_fail(ctx, ws, i,
	                     "Argument \"%s\" expected shape %d but got %d values, which can't be "
	                     "interpreted as the expected shape.",
	                     name, want, n);
}

int dalic_xform_about_center(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int ndim,
                             float *m)
{
	float center[DALIC_XFORM_MAX_NDIM];
	int n, rc;
	if (!dalic_xform_arg_present(ctx, ws, "center"))
		return DALIC_OK;
	if ((rc = dalic_xform_arg(ctx, ws, i, "center", 1, center, DALIC_XFORM_MAX_NDIM, &n, NULL,
	                          NULL)) ||
	    (rc = dalic_xform_arg_count(ctx, ws, i, "center", n, ndim)))
		return rc;
	int s = ndim + 1;
	for (int r = 0; r < ndim; r++) {
		float t = m[r * s] * -center[0];
		for (int k = 1; k < ndim; k++)
			t += m[r * s + k] * -center[k];
		m[r * s + ndim] = t + center[r];
	}
	return DALIC_OK;
}

/* ---- the generator base ---------------------------------------------------------------------- */

int dalic_xform_init(dalic_op_ctx_t *ctx, const dalic_xform_def_t *def)
{
	dalic_xform_t *x = ctx->state;
	x->def = def;
	x->mats = calloc((size_t)ctx->max_batch_size, sizeof(float) * DALIC_XFORM_MAT_SIZE);
	return x->mats ? DALIC_OK : dalic_op_fail(ctx, NULL, -1, "out of memory");
}

void dalic_xform_fini(dalic_op_ctx_t *ctx)
{
	dalic_xform_t *x = ctx->state;
	free(x->mats);
}

int dalic_xform_check_input(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                            const dalic_batch_t *in, int *ndim)
{
	if (in->dtype != DALIC_FLOAT)
		return dalic_op_fail(ctx, ws, -1,
		                     "Unexpected input data type. Expected float, got: %s",
		                     dalic_dtype_cname(in->dtype));
	if (in->num_samples > 0 && !dalic_batch_uniform_shape(in))
		return dalic_op_fail(ctx, ws, -1, "All matrices must have the same shape.");
	const int64_t *s = in->num_samples > 0 ? dalic_batch_shape(in, 0) : NULL;
	if (in->ndim != 2 || !s || s[1] != s[0] + 1) {
		char buf[64] = "[]";
		if (s)
			dalic_batch_format_shape(s, in->ndim, "()", buf, sizeof buf);
		return dalic_op_fail(
		    ctx, ws, -1,
		    "The input, if provided, is expected to be a 2D tensor with "
		    "dimensions (ndim, ndim+1) representing an affine transform. Got: "
		    "%s in every sample",
		    buf);
	}
	if (s[0] < 1 || s[0] > DALIC_XFORM_MAX_NDIM)
		return dalic_op_fail(ctx, ws, -1, "Unsupported number of dimensions %lld",
		                     (long long)s[0]);
	*ndim = (int)s[0];
	return DALIC_OK;
}

int dalic_xform_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	dalic_xform_t *x = ctx->state;
	int in_ndim = 0, rc;
	if (ws->batch_size == 0) /* nothing to define: no sample to read arguments from */
		return dalic_batch_set_meta(ws->outputs[0], 0, DALIC_FLOAT, 2);
	if (ws->num_inputs > 0 && (rc = dalic_xform_check_input(ctx, ws, ws->inputs[0], &in_ndim)))
		return rc;
	if ((rc = x->def->ndim(ctx, ws, in_ndim, &x->ndim)))
		return rc;
	if (in_ndim && in_ndim != x->ndim)
		return dalic_op_fail(
		    ctx, ws, -1,
		    "The input describes a %dD transform but other arguments suggest a "
		    "%dD transform",
		    in_ndim, x->ndim);
	if (x->ndim < x->def->min_ndim || x->ndim > x->def->max_ndim)
		return dalic_op_fail(ctx, ws, -1, "Unsupported number of dimensions %d", x->ndim);
	for (int i = 0; i < ws->batch_size; i++) {
		float *m = x->mats + (size_t)i * DALIC_XFORM_MAT_SIZE;
		dalic_xform_identity(x->ndim, m);
		if ((rc = x->def->define(ctx, ws, i, x->ndim, m)))
			return rc;
	}
	dalic_batch_t *out = ws->outputs[0];
	if ((rc = dalic_batch_set_meta(out, ws->batch_size, DALIC_FLOAT, 2)))
		return rc;
	dalic_batch_set_layout(out, "");
	for (int i = 0; i < ws->batch_size; i++) {
		int64_t *os = dalic_batch_shape_mut(out, i);
		os[0] = x->ndim;
		os[1] = x->ndim + 1;
		if (ws->num_inputs > 0)
			out->sources[i] = ws->inputs[0]->sources[i];
	}
	return DALIC_OK;
}

int dalic_xform_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	(void)thread;
	dalic_xform_t *x = ctx->state;
	const int n = x->ndim, s = n + 1;
	const float *m = x->mats + (size_t)i * DALIC_XFORM_MAT_SIZE;
	float combined[DALIC_XFORM_MAT_SIZE];
	if (ws->num_inputs > 0) {
		float in[DALIC_XFORM_MAT_SIZE];
		const float *p = ws->inputs[0]->ptrs[i];
		dalic_xform_identity(n, in);
		for (int r = 0; r < n; r++)
			memcpy(in + r * s, p + r * s, sizeof(float) * (size_t)s);
		if (dalic_arg_bool(ctx, "reverse_order"))
			dalic_xform_mul(n, in, m, combined);
		else
			dalic_xform_mul(n, m, in, combined);
		m = combined;
	}
	memcpy(ws->outputs[0]->ptrs[i], m, sizeof(float) * (size_t)(n * s));
	return DALIC_OK;
}
