/*
 * coord_flip (DALI's CoordFlip): reflects points [N, ndim] (float, ndim <= 3) about a center:
 * a flipped coordinate v becomes 2·center − v (in float, 2·center first, as DALI). `layout`
 * names the coordinate of each column ("x", "xy", "xyz" by default for 1, 2, 3 columns; "yx"
 * swaps them); every coordinate the points have must be in it. flip_* and center_* may be
 * given per sample.
 */
#include "engine/kernel.h"

#include <string.h>

typedef struct coord_flip {
	int ndim;
	int dim[3]; /* column of x, y, z (or 0, 1, 2 beyond ndim) */
} coord_flip_t;

static int coord_flip_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	coord_flip_t *c = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	if (in->dtype != DALIC_FLOAT)
		return dalic_op_fail(ctx, ws, -1, "Input is expected to be float, got %s",
		                     dalic_dtype_name(in->dtype));
	if (in->ndim != 2)
		return dalic_op_fail(
		    ctx, ws, -1, "the input must be points of shape [N, ndim], got %d-D samples",
		    in->ndim);
	for (int i = 0; i < ws->batch_size; i++) {
		int d = (int)dalic_batch_shape(in, i)[1];
		if (i > 0 && d != c->ndim)
			return dalic_op_fail(
			    ctx, ws, i,
			    "All samples are expected to have coordinates with same "
			    "number of dimensions. Got %d here and %d in sample 0",
			    d, c->ndim);
		c->ndim = d;
	}
	if (ws->batch_size > 0 && c->ndim > 3)
		return dalic_op_fail(ctx, ws, -1, "Unexpected number of dimensions %d", c->ndim);
	const char *layout = dalic_arg_string(ctx, "layout");
	static const char *const defaults[4] = {"", "x", "xy", "xyz"};
	if (!layout || !*layout)
		layout = defaults[ws->batch_size > 0 ? c->ndim : 0];
	static const char names[3] = {'x', 'y', 'z'};
	for (int d = 0; d < 3; d++) {
		const char *at = strchr(layout, names[d]);
		c->dim[d] = d;
		if (d >= c->ndim)
			continue;
		if (!at)
			return dalic_op_fail(ctx, ws, -1,
			                     "Dimension \"%c\" not found in the layout", names[d]);
		c->dim[d] = (int)(at - layout);
		if (c->dim[d] >= c->ndim)
			return dalic_op_fail(
			    ctx, ws, -1, "layout '%s' puts \"%c\" in column %d of %d-column points",
			    layout, names[d], c->dim[d], c->ndim);
	}
	dalic_batch_t *out = ws->outputs[0];
	int rc = dalic_batch_copy_meta(out, in);
	for (int i = 0; !rc && i < ws->batch_size; i++)
		out->sources[i] = in->sources[i];
	return rc;
}

static int coord_flip_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	(void)thread;
	const coord_flip_t *c = ctx->state;
	static const char *const flips[3] = {"flip_x", "flip_y", "flip_z"};
	static const char *const centers[3] = {"center_x", "center_y", "center_z"};
	bool flip[3] = {false, false, false};
	float origin[3] = {1, 1, 1};
	for (int d = 0; d < 3; d++) {
		double f, ctr;
		int rc = dalic_arg_float_at(ctx, ws, flips[d], i, &f);
		if (!rc)
			rc = dalic_arg_float_at(ctx, ws, centers[d], i, &ctr);
		if (rc)
			return rc;
		flip[c->dim[d]] = f != 0;
		origin[c->dim[d]] = 2.0f * (float)ctr;
	}
	const dalic_batch_t *in = ws->inputs[0];
	const float *src = in->ptrs[i];
	float *dst = ws->outputs[0]->ptrs[i];
	int64_t n = dalic_batch_sample_elems(in, i);
	for (int64_t k = 0, d = 0; k < n; k++, d++) {
		if (d == c->ndim)
			d = 0;
		dst[k] = flip[d] ? origin[d] - src[k] : src[k];
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"layout", DALIC_ARG_LAYOUT, "''",
     "Order of the coordinates: a string of x, y, z (default x, xy or xyz)."},
    {"flip_x", DALIC_ARG_INT, "1", "Flip the horizontal (x) coordinate.", .tensor = true},
    {"flip_y", DALIC_ARG_INT, "0", "Flip the vertical (y) coordinate.", .tensor = true},
    {"flip_z", DALIC_ARG_INT, "0", "Flip the depthwise (z) coordinate.", .tensor = true},
    {"center_x", DALIC_ARG_FLOAT, "0.5", "Flip center in the horizontal axis.", .tensor = true},
    {"center_y", DALIC_ARG_FLOAT, "0.5", "Flip center in the vertical axis.", .tensor = true},
    {"center_z", DALIC_ARG_FLOAT, "0.5", "Flip center in the depthwise axis.", .tensor = true},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(coord_flip_t),
    .setup = coord_flip_setup,
    .run_sample = coord_flip_run_sample,
};

DALIC_OPERATOR(CoordFlip) = {
    .name = "CoordFlip",
    .fn = "coord_flip",
    .doc = "Flips (reflects) the coordinates of points [N, ndim] about a center.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
