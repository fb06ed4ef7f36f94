/* Axis arguments (see axes.h). */
#include "kernels/common/axes.h"

#include "engine/dtype.h"
#include "engine/graphdef.h"

#include <string.h>

bool dalic_axes_is_arg_input(const dalic_op_ctx_t *ctx, const char *name)
{
	for (int k = 0; ctx->def && k < ctx->def->num_inputs; k++)
		if (ctx->def->inputs[k].is_arg && !strcmp(ctx->def->inputs[k].arg_name, name))
			return true;
	return false;
}

int dalic_axes_init(const dalic_op_ctx_t *ctx, axes_arg_t *a, unsigned flags)
{
	return dalic_axes_init_named(ctx, a, flags, "axes", "axis_names");
}

int dalic_axes_init_named(const dalic_op_ctx_t *ctx, axes_arg_t *a, unsigned flags,
                          const char *axes_arg, const char *names_arg)
{
	memset(a, 0, sizeof *a);
	a->flags = flags;
	a->axes_name = axes_arg;
	bool has_axes = dalic_arg_given(ctx, axes_arg),
	     has_names = names_arg && dalic_arg_given(ctx, names_arg);
	if ((flags & DALIC_AXES_EXCLUSIVE) && has_axes && has_names)
		return dalic_op_fail(ctx, NULL, -1,
		                     "\"axes\" and \"axis_names\" are mutually exclusive");
	a->per_sample = dalic_axes_is_arg_input(ctx, axes_arg);
	const char *names = names_arg ? dalic_arg_string(ctx, names_arg) : NULL;
	if (!a->per_sample && (has_names || !has_axes) && names) {
		size_t len = strlen(names);
		if (len > DALIC_AXES_MAX)
			return dalic_op_fail(ctx, NULL, -1,
			                     "axis_names has %zu letters; at most %d", len,
			                     DALIC_AXES_MAX);
		memcpy(a->names, names, len + 1);
		a->n = (int)len;
		a->use_names = true;
		return DALIC_OK;
	}
	if (a->per_sample)
		return DALIC_OK;
	const dalic_value_t *axes = dalic_arg(ctx, axes_arg);
	if (axes->n > DALIC_AXES_MAX)
		return dalic_op_fail(ctx, NULL, -1, "%s has %d values; at most %d", axes_arg,
		                     axes->n, DALIC_AXES_MAX);
	for (int k = 0; k < axes->n; k++) {
		int64_t v = dalic_value_get_i(axes, k);
		/* clipped: out of range for any input either way, and kept so in messages */
		a->axes[k] = v < -1000 ? -1000 : v > 1000 ? 1000 : (int)v;
	}
	a->n = axes->n < 0 ? 0 : axes->n;
	return DALIC_OK;
}

/* The per-sample axes of sample i into out. */
static int axes_per_sample(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const axes_arg_t *a,
                           int i, int *out, int *n)
{
	const dalic_batch_t *in = dalic_arg_input(ws, a->axes_name);
	if (!in || i >= in->num_samples || !dalic_dtype_is_integral(in->dtype))
		return dalic_op_fail(ctx, ws, i, "argument input '%s' must hold integers",
		                     a->axes_name);
	int64_t count = dalic_batch_sample_elems(in, i);
	if (count > DALIC_AXES_MAX)
		return dalic_op_fail(ctx, ws, i, "argument input '%s' has %lld values; at most %d",
		                     a->axes_name, (long long)count, DALIC_AXES_MAX);
	for (int64_t k = 0; k < count; k++) {
		int64_t v = dalic_dtype_load_i64(in->dtype, in->ptrs[i], k);
		out[k] = v < -1000 ? -1000 : v > 1000 ? 1000 : (int)v;
	}
	*n = (int)count;
	return DALIC_OK;
}

int dalic_axes_get(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const axes_arg_t *a, int i,
                   int ndim, const char *layout, int *out, int *n)
{
	*n = a->n;
	if (a->per_sample) {
		int rc = axes_per_sample(ctx, ws, a, i, out, n);
		if (rc)
			return rc;
	} else if (a->use_names) {
		for (int k = 0; k < a->n; k++) {
			const char *at = strchr(layout, a->names[k]);
			if (!at)
				return dalic_op_fail(ctx, ws, i,
				                     "Axis '%c' is not present in the input layout",
				                     a->names[k]);
			out[k] = (int)(at - layout);
		}
	} else {
		memcpy(out, a->axes, sizeof(int) * (size_t)a->n);
	}
	if (*n == 0 && (a->flags & DALIC_AXES_ALL_IF_EMPTY)) {
		for (int d = 0; d < ndim; d++)
			out[d] = d;
		*n = ndim;
	}
	bool seen[DALIC_MAX_NDIM] = {0};
	for (int k = 0; k < *n; k++) {
		if (out[k] < -ndim || out[k] >= ndim)
			return dalic_op_fail(
			    ctx, ws, i,
			    "Axis %d out of range. Expected range is [%d, %d] for a %dD "
			    "input",
			    out[k], -ndim, ndim - 1, ndim);
		out[k] += out[k] < 0 ? ndim : 0;
		if (seen[out[k]] && !(a->flags & DALIC_AXES_REPEATS))
			return dalic_op_fail(
			    ctx, ws, i,
			    "Axis index %d occurs more than once in ``axes`` (might "
			    "include negative indices referring to the same axis",
			    out[k]);
		seen[out[k]] = true;
	}
	return DALIC_OK;
}
