/*
 * expand_dims: inserts dimensions of extent 1 into every sample without copying: the output
 * samples borrow the input samples (dalic_batch_share_sample), only the shape changes.
 * `axes` are positions in the output shape, so a (H, W) sample with axes [0, 3] becomes
 * (1, H, W, 1); they are sorted and de-duplicated first and must fit the output rank.
 * `new_axis_names` names the new dims in the layout (one letter per axis); without it the
 * output layout is empty, as in DALI's dali/operators/generic/expand_dims.cc. Indexing a
 * DataNode with dali.newaxis lowers to this operator.
 */
#include "engine/error.h"
#include "engine/kernel.h"

#include <stdlib.h>
#include <string.h>

typedef struct expand_state {
	int axes[DALIC_MAX_NDIM]; /* sorted, unique */
	int naxes;
} expand_state_t;

static int expand_dims_compare_ints(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static int expand_dims_bad_arg(const dalic_op_ctx_t *ctx, const char *arg, const char *msg)
{
	return dalic_fail(DALIC_EINVAL, "operator '%s' (%s): argument '%s': %s", ctx->inst,
	                  ctx->schema->name, arg, msg);
}

static int expand_dims_init(dalic_op_ctx_t *ctx)
{
	expand_state_t *st = ctx->state;
	const dalic_value_t *axes = dalic_arg(ctx, "axes");
	if (axes->n == 0)
		return expand_dims_bad_arg(ctx, "axes", "axes can't be empty");
	if (axes->n > DALIC_MAX_NDIM)
		return expand_dims_bad_arg(ctx, "axes", "too many axes");
	for (int k = 0; k < axes->n; k++) {
		int64_t a = dalic_value_get_i(axes, k);
		if (a < 0 || a >= DALIC_MAX_NDIM)
			return expand_dims_bad_arg(ctx, "axes",
			                           "axis numbers must be in [0, ndim)");
		st->axes[k] = (int)a;
	}
	qsort(st->axes, (size_t)axes->n, sizeof(int), expand_dims_compare_ints);
	for (int k = 0; k < axes->n; k++)
		if (!st->naxes || st->axes[st->naxes - 1] != st->axes[k])
			st->axes[st->naxes++] = st->axes[k];
	const char *names = dalic_arg_string(ctx, "new_axis_names");
	if (names && names[0] && (int)strlen(names) != st->naxes)
		return dalic_fail(DALIC_EINVAL,
		                  "operator '%s' (%s): specified %d new dimensions, but "
		                  "`new_axis_names` gives %d names",
		                  ctx->inst, ctx->schema->name, st->naxes, (int)strlen(names));
	return DALIC_OK;
}

static int expand_dims_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const expand_state_t *st = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int ndim = in->ndim + st->naxes;
	if (ndim > DALIC_MAX_NDIM)
		return dalic_op_fail(ctx, ws, -1, "%d dims plus %d new ones exceed %d", in->ndim,
		                     st->naxes, DALIC_MAX_NDIM);
	if (st->axes[st->naxes - 1] >= ndim)
		return dalic_op_fail(ctx, ws, -1,
		                     "axis %d is out of range for a %d-dim input with %d new "
		                     "dims (the output has %d dims)",
		                     st->axes[st->naxes - 1], in->ndim, st->naxes, ndim);
	int rc = dalic_batch_set_meta(out, in->num_samples, in->dtype, ndim);
	if (rc)
		return rc;
	/* src[d] is the input dim behind output dim d, or -1 for a new one */
	int src[DALIC_MAX_NDIM];
	for (int d = 0, k = 0, s = 0; d < ndim; d++)
		src[d] = k < st->naxes && st->axes[k] == d ? (k++, -1) : s++;
	for (int i = 0; i < in->num_samples; i++) {
		const int64_t *ish = dalic_batch_shape(in, i);
		int64_t shape[DALIC_MAX_NDIM];
		for (int d = 0; d < ndim; d++)
			shape[d] = src[d] < 0 ? 1 : ish[src[d]];
		dalic_batch_share_sample(out, i, in, i);
		dalic_batch_set_shape(out, i, shape);
	}
	const char *names = dalic_arg_string(ctx, "new_axis_names");
	char layout[DALIC_MAX_NDIM + 1] = "";
	if (names && names[0]) {
		/* input dims without a layout name get '?', as DALI writes them */
		bool named = (int)strlen(in->layout) == in->ndim;
		for (int d = 0, k = 0; d < ndim; d++)
			layout[d] = src[d] < 0 ? names[k++] : named ? in->layout[src[d]] : '?';
		layout[ndim] = 0;
	}
	dalic_batch_set_layout(out, layout);
	return DALIC_OK;
}

/* The output already points at the input's samples (setup); nothing is copied. */
static int expand_dims_run(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"axes", DALIC_ARG_INT_LIST, NULL, "Indices at which the new dimensions are inserted."},
    {"new_axis_names", DALIC_ARG_LAYOUT, "''",
     "Names of the new dimensions in the data layout, one per axis; without it the output "
     "layout is empty."},
    {0},
};

static const dalic_kernel_t kernel = {.state_size = sizeof(expand_state_t),
                                      .init = expand_dims_init,
                                      .setup = expand_dims_setup,
                                      .run = expand_dims_run};

DALIC_OPERATOR(ExpandDims) = {
    .name = "ExpandDims",
    .fn = "expand_dims",
    .doc = "Inserts new dimensions of extent 1 into the data shape; no data is copied.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .passthrough = true,
    .cpu = &kernel,
};
