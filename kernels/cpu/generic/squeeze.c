/*
 * squeeze (DALI's Squeeze): removes dimensions of extent 1, named by index (`axes`) or by
 * layout letter (`axis_names`), exactly one of the two. The output borrows the input's
 * samples; only shapes and the layout change. Removing a dimension whose extent is not 1
 * would change the volume and is an error naming the sample. As in DALI 2.4, indices outside
 * [0, ndim) name no dimension and remove nothing.
 */
#include "engine/kernel.h"

#include <stdlib.h>
#include <string.h>

typedef struct squeeze_state {
	int axes[DALIC_MAX_NDIM]; /* sorted, without duplicates; only with `axes` */
	int naxes;
	bool by_name;
} squeeze_state_t;

static int squeeze_compare_ints(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static int squeeze_init(dalic_op_ctx_t *ctx)
{
	squeeze_state_t *st = ctx->state;
	bool has_axes = dalic_arg_given(ctx, "axes"),
	     has_names = dalic_arg_given(ctx, "axis_names");
	if (has_axes && has_names)
		return dalic_op_fail(ctx, NULL, -1,
		                     "Provided both ``axes`` and ``axis_names`` arguments");
	if (!has_axes && !has_names)
		return dalic_op_fail(ctx, NULL, -1, "Missing argument ``axes`` or ``axis_names``.");
	st->by_name = has_names;
	if (has_names)
		return DALIC_OK;
	const dalic_value_t *axes = dalic_arg(ctx, "axes");
	int n = 0;
	for (int k = 0; k < axes->n; k++) {
		int64_t a = dalic_value_get_i(axes, k);
		if (a < 0 || a >= DALIC_MAX_NDIM)
			continue; /* no input has such a dimension */
		if (n == DALIC_MAX_NDIM)
			return dalic_op_fail(ctx, NULL, -1,
			                     "Specified at least twice same dimension to remove.");
		st->axes[n++] = (int)a;
	}
	qsort(st->axes, (size_t)n, sizeof(int), squeeze_compare_ints);
	for (int k = 1; k < n; k++)
		if (st->axes[k] == st->axes[k - 1])
			return dalic_op_fail(ctx, NULL, -1,
			                     "Specified at least twice same dimension to remove.");
	st->naxes = n;
	return DALIC_OK;
}

/* remove[d] for the dims of an input with `layout` and `ndim` dims. */
static int squeeze_dims(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *layout, int ndim,
                        bool *remove)
{
	const squeeze_state_t *st = ctx->state;
	memset(remove, 0, sizeof(bool) * DALIC_MAX_NDIM);
	if (!st->by_name) {
		for (int k = 0; k < st->naxes; k++)
			if (st->axes[k] < ndim)
				remove[st->axes[k]] = true;
		return DALIC_OK;
	}
	for (const char *c = dalic_arg_string(ctx, "axis_names"); c && *c; c++) {
		const char *at = strchr(layout, *c);
		if (!at)
			return dalic_op_fail(ctx, ws, -1,
			                     "Axis '%c' is not present in the input layout", *c);
		if (remove[at - layout])
			return dalic_op_fail(ctx, ws, -1,
			                     "Specified at least twice same dimension to remove.");
		remove[at - layout] = true;
	}
	return DALIC_OK;
}

static int squeeze_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	bool remove[DALIC_MAX_NDIM];
	int rc = squeeze_dims(ctx, ws, in->layout, in->ndim, remove);
	if (rc)
		return rc;
	int ndim = 0;
	char layout[DALIC_MAX_NDIM + 1] = "";
	bool named = in->layout[0] != 0;
	for (int d = 0; d < in->ndim; d++)
		if (!remove[d]) {
			if (named)
				layout[ndim] = in->layout[d];
			ndim++;
		}
	layout[named ? ndim : 0] = 0;
	if ((rc = dalic_batch_set_meta(out, in->num_samples, in->dtype, ndim)))
		return rc;
	dalic_batch_set_layout(out, layout);
	for (int i = 0; i < in->num_samples; i++) {
		const int64_t *ish = dalic_batch_shape(in, i);
		int64_t shape[DALIC_MAX_NDIM], kept = 1, all = dalic_batch_sample_elems(in, i);
		bool lost = false;
		for (int d = 0, o = 0; d < in->ndim; d++) {
			if (!remove[d]) {
				shape[o++] = ish[d];
				kept *= ish[d]; /* fits: numpy's rule held for the input */
			} else {
				lost |= ish[d] != 1;
			}
		}
		if (lost)
			return dalic_op_fail(
			    ctx, ws, i,
			    "The volume of the new shape should match the one of the "
			    "original shape. Requested a shape with %lld elements but "
			    "the original shape has %lld elements.",
			    (long long)kept, (long long)all);
		dalic_batch_share_sample(out, i, in, i);
		dalic_batch_set_shape(out, i, shape);
	}
	return DALIC_OK;
}

/* The output already points at the input's samples (setup); nothing is copied. */
static int squeeze_run(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"axes", DALIC_ARG_INT_LIST, "None", "Indices of the dimensions to remove.", .tensor = true},
    {"axis_names", DALIC_ARG_LAYOUT, "None", "Layout letters of the dimensions to remove."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(squeeze_state_t),
    .init = squeeze_init,
    .setup = squeeze_setup,
    .run = squeeze_run,
};

DALIC_OPERATOR(Squeeze) = {
    .name = "Squeeze",
    .fn = "squeeze",
    .doc = "Removes dimensions of extent 1 given by `axes` or `axis_names`; no data is copied.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .passthrough = true,
    .cpu = &kernel,
};
