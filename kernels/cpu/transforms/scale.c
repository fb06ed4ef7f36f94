/*
 * transforms.scale (DALI's transforms__Scale): the affine matrix that scales by `scale` per
 * dimension, about `center` when given (translation center·(1 − scale)). The number of
 * dimensions is the length of `scale` when it has several values; for one value it is the
 * input transform's, else `ndim`, else 1, and the value applies to every dimension.
 */
#include "engine/kernel.h"
#include "kernels/common/xform.h"

static int scale_ndim(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int in_ndim, int *ndim)
{
	float v[DALIC_XFORM_MAX_NDIM + 1];
	int n, rc = dalic_xform_arg(ctx, ws, 0, "scale", 1, v, DALIC_XFORM_MAX_NDIM + 1, &n, NULL,
	                            NULL);
	if (rc)
		return rc;
	if (n < 1)
		return dalic_op_fail(ctx, ws, -1, "`scale` must have at least one value");
	if (n > 1)
		*ndim = n;
	else if (in_ndim)
		*ndim = in_ndim;
	else if (dalic_arg_given(ctx, "ndim") && dalic_arg_int(ctx, "ndim") > 0)
		*ndim = dalic_arg_int(ctx, "ndim") > DALIC_XFORM_MAX_NDIM
		            ? DALIC_XFORM_MAX_NDIM + 1 /* refused by the base as unsupported */
		            : (int)dalic_arg_int(ctx, "ndim");
	else
		*ndim = 1;
	return DALIC_OK;
}

static int scale_define(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int ndim, float *m)
{
	float s[DALIC_XFORM_MAX_NDIM], c[DALIC_XFORM_MAX_NDIM];
	int ns, nc = 0, rc;
	if ((rc =
	         dalic_xform_arg(ctx, ws, i, "scale", 1, s, DALIC_XFORM_MAX_NDIM, &ns, NULL, NULL)))
		return rc;
	if (ns != 1 && (rc = dalic_xform_arg_count(ctx, ws, i, "scale", ns, ndim)))
		return rc;
	bool centered = dalic_xform_arg_present(ctx, ws, "center");
	if (centered && ((rc = dalic_xform_arg(ctx, ws, i, "center", 1, c, DALIC_XFORM_MAX_NDIM,
	                                       &nc, NULL, NULL)) ||
	                 (rc = dalic_xform_arg_count(ctx, ws, i, "center", nc, ndim))))
		return rc;
	for (int d = 0; d < ndim; d++) {
		float sd = s[ns == 1 ? 0 : d];
		m[d * (ndim + 1) + d] = sd;
		if (centered)
			m[d * (ndim + 1) + ndim] = c[d] * (1.0f - sd);
	}
	return DALIC_OK;
}

static const dalic_xform_def_t scale_def = {
    .min_ndim = 1,
    .max_ndim = 6,
    .ndim = scale_ndim,
    .define = scale_define,
};

DALIC_XFORM_KERNEL(scale);

static const dalic_arg_schema_t args[] = {
    {"scale", DALIC_ARG_FLOAT_LIST, NULL,
     "The scale factor per dimension (one value: every dimension).", .tensor = true},
    {"center", DALIC_ARG_FLOAT_LIST, "None", "The center of the scaling.", .tensor = true},
    {"ndim", DALIC_ARG_INT, "None",
     "Number of dimensions, when `scale` is one value and there is no input transform."},
    DALIC_XFORM_ARGS,
    {0},
};

DALIC_OPERATOR(transforms__Scale) = {
    .name = "transforms__Scale",
    .fn = "transforms.scale",
    .module = "nvidia.dali.fn.transforms",
    .doc = "Produces a scale affine transform matrix (or applies one to the input transform).",
    .min_inputs = 0,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU,
    .args = args,
    .cpu = &scale_kernel,
};
