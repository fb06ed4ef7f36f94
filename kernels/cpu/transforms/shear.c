/*
 * transforms.shear (DALI's transforms__Shear): the affine matrix of a shear, from `shear`
 * factors or from `angles` in degrees (factor = tan(angle), angles within [-90, 90]), exactly
 * one of the two, about `center` when given. 2-D: two factors [s_x, s_y] give [[1, s_x],
 * [s_y, 1]]. 3-D: six factors, a 3x2 matrix [s_xy, s_xz, s_yx, s_yz, s_zx, s_zy], fill the
 * off-diagonal. An argument input gives per sample a 2-vector or a D x (D-1) matrix.
 */
#include "engine/kernel.h"
#include "kernels/common/xform.h"

#include <math.h>

/* The factors' argument: "shear" or "angles". */
static const char *shear_arg_name(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_xform_arg_present(ctx, ws, "shear") ? "shear" : "angles";
}

/* Sample i's factors (2 or 6) and the dimensionality they describe. */
static int shear_factors(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, float f[6], int *ndim)
{
	const char *name = shear_arg_name(ctx, ws);
	int64_t shape[2];
	int n, rank, rc = dalic_xform_arg(ctx, ws, i, name, 2, f, 6, &n, shape, &rank);
	if (rc)
		return rc;
	if (rank < 0) { /* a list: its size decides */
		if (n != 2 && n != 6)
			return dalic_op_fail(
			    ctx, ws, i,
			    "Shear matrix must have D*(D-1) elements where D is the "
			    "number of dimensions. Got %d elements.",
			    n);
		*ndim = n == 2 ? 2 : 3;
	} else if (rank == 1 ? shape[0] != 2
	                     : rank != 2 || shape[1] != shape[0] - 1 || (n != 2 && n != 6)) {
		return dalic_op_fail(ctx, ws, i,
		                     "Shear coefficient must be a D x (D-1) matrix or a 2-element "
		                     "vector. Got %d values in a %d-D tensor",
		                     n, rank);
	} else {
		*ndim = n == 2 ? 2 : 3;
	}
	if (!dalic_xform_arg_present(ctx, ws, "shear"))
		for (int k = 0; k < n; k++) {
			if (!(f[k] >= -90.0f && f[k] <= 90.0f))
				return dalic_op_fail(
				    ctx, ws, i,
				    "Angle is expected to be in the range [-90, 90]. "
				    "Got: %g",
				    (double)f[k]);
			f[k] = tanf(f[k] * (float)(M_PI / 180));
		}
	return DALIC_OK;
}

static int shear_ndim(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int in_ndim, int *ndim)
{
	(void)in_ndim;
	if (dalic_xform_arg_present(ctx, ws, "shear") +
	        dalic_xform_arg_present(ctx, ws, "angles") !=
	    1)
		return dalic_op_fail(ctx, ws, -1,
		                     "One and only one of the following arguments is expected: "
		                     "``shear`` or ``angles``");
	/* DALI checks every sample's angles before making any matrix */
	float f[6];
	int rc = DALIC_OK;
	for (int i = 0; !rc && i < ws->batch_size; i++)
		rc = shear_factors(ctx, ws, i, f, ndim);
	return rc;
}

static int shear_define(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int ndim, float *m)
{
	float f[6];
	int n, rc = shear_factors(ctx, ws, i, f, &n);
	if (rc)
		return rc;
	if (ndim == 2) {
		m[1] = f[0];
		m[3] = f[1];
	} else {
		/* rows of the 3x2 factor matrix fill each row's off-diagonal entries */
		m[1] = f[0], m[2] = f[1];
		m[4] = f[2], m[6] = f[3];
		m[8] = f[4], m[9] = f[5];
	}
	return dalic_xform_about_center(ctx, ws, i, ndim, m);
}

static const dalic_xform_def_t shear_def = {
    .min_ndim = 2,
    .max_ndim = 3,
    .ndim = shear_ndim,
    .define = shear_define,
};

DALIC_XFORM_KERNEL(shear);

static const dalic_arg_schema_t args[] = {
    {"shear", DALIC_ARG_FLOAT_LIST, "None",
     "Shear factors: [s_x, s_y] (2-D) or [s_xy, s_xz, s_yx, s_yz, s_zx, s_zy] (3-D).",
     .tensor = true},
    {"angles", DALIC_ARG_FLOAT_LIST, "None",
     "Shear angles in degrees, within [-90, 90], in the order of `shear`.", .tensor = true},
    {"center", DALIC_ARG_FLOAT_LIST, "None", "The center of the shear.", .tensor = true},
    DALIC_XFORM_ARGS,
    {0},
};

DALIC_OPERATOR(transforms__Shear) = {
    .name = "transforms__Shear",
    .fn = "transforms.shear",
    .module = "nvidia.dali.fn.transforms",
    .doc = "Produces a shear affine transform matrix (or applies one to the input transform).",
    .min_inputs = 0,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU,
    .args = args,
    .cpu = &shear_kernel,
};
