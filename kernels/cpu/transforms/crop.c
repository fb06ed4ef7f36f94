/*
 * transforms.crop (DALI's transforms__Crop): the affine matrix mapping the box
 * [from_start, from_end] onto [to_start, to_end], per dimension scale = to_extent / from_extent
 * and offset = to_start − scale · from_start (a zero extent gives infinities, as DALI). The
 * number of dimensions is the longest of the four arguments; a one-value argument applies to
 * every dimension. With `absolute`, start and end are swapped where start > end.
 */
#include "engine/kernel.h"
#include "kernels/common/xform.h"

static const char *const crop_args[4] = {"from_start", "from_end", "to_start", "to_end"};

/* The four arguments of sample i, broadcast to ndim values (ndim 0: only read them). */
static int crop_read(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                     float v[4][DALIC_XFORM_MAX_NDIM + 1], int n[4])
{
	for (int a = 0; a < 4; a++) {
		int rc = dalic_xform_arg(ctx, ws, i, crop_args[a], 1, v[a],
		                         DALIC_XFORM_MAX_NDIM + 1, &n[a], NULL, NULL);
		if (rc)
			return rc;
		if (n[a] < 1)
			return dalic_op_fail(ctx, ws, i, "`%s` must have at least one value",
			                     crop_args[a]);
	}
	return DALIC_OK;
}

static int crop_ndim(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int in_ndim, int *ndim)
{
	(void)in_ndim;
	float v[4][DALIC_XFORM_MAX_NDIM + 1];
	int n[4], rc = crop_read(ctx, ws, 0, v, n);
	if (rc)
		return rc;
	*ndim = 0;
	for (int a = 0; a < 4; a++)
		*ndim = n[a] > *ndim ? n[a] : *ndim;
	for (int a = 0; a < 4; a++)
		if (n[a] != *ndim && n[a] != 1)
			return dalic_op_fail(
			    ctx, ws, -1,
			    "Arguments ``from_start``, ``from_end``, ``to_start`` and "
			    "``to_end`` should have the same number of dimensions or be "
			    "a single element which will be broadcast to all dimensions");
	return DALIC_OK;
}

static int crop_define(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int ndim, float *m)
{
	float v[4][DALIC_XFORM_MAX_NDIM + 1];
	int n[4], rc = crop_read(ctx, ws, i, v, n);
	if (rc)
		return rc;
	for (int a = 0; a < 4; a++)
		if (n[a] != ndim && n[a] != 1)
			return dalic_xform_arg_count(ctx, ws, i, crop_args[a], n[a], ndim);
	bool absolute = dalic_arg_bool(ctx, "absolute");
	for (int d = 0; d < ndim; d++) {
		float fs = v[0][n[0] == 1 ? 0 : d], fe = v[1][n[1] == 1 ? 0 : d];
		float ts = v[2][n[2] == 1 ? 0 : d], te = v[3][n[3] == 1 ? 0 : d];
		if (absolute) {
			float t;
			if (fs > fe)
				t = fs, fs = fe, fe = t;
			if (ts > te)
				t = ts, ts = te, te = t;
		}
		float scale = (te - ts) / (fe - fs);
		m[d * (ndim + 1) + d] = scale;
		m[d * (ndim + 1) + ndim] = ts - scale * fs;
	}
	return DALIC_OK;
}

static const dalic_xform_def_t crop_def = {
    .min_ndim = 1,
    .max_ndim = 6,
    .ndim = crop_ndim,
    .define = crop_define,
};

DALIC_XFORM_KERNEL(crop);

static const dalic_arg_schema_t args[] = {
    {"from_start", DALIC_ARG_FLOAT_LIST, "[0.0]",
     "The lower bound of the original coordinate space.", .tensor = true},
    {"from_end", DALIC_ARG_FLOAT_LIST, "[1.0]", "The upper bound of the original coordinate space.",
     .tensor = true},
    {"to_start", DALIC_ARG_FLOAT_LIST, "[0.0]",
     "The lower bound of the destination coordinate space.", .tensor = true},
    {"to_end", DALIC_ARG_FLOAT_LIST, "[1.0]",
     "The upper bound of the destination coordinate space.", .tensor = true},
    {"absolute", DALIC_ARG_BOOL, "False", "Swap start and end where start > end."},
    DALIC_XFORM_ARGS,
    {0},
};

DALIC_OPERATOR(transforms__Crop) = {
    .name = "transforms__Crop",
    .fn = "transforms.crop",
    .module = "nvidia.dali.fn.transforms",
    .doc = "Produces an affine transform matrix mapping one box onto another (to adjust "
           "coordinates after a crop).",
    .min_inputs = 0,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU,
    .args = args,
    .cpu = &crop_kernel,
};
