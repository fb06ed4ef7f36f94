/*
 * transforms.rotation (DALI's transforms__Rotation): the affine matrix that rotates by `angle`
 * degrees (counter-clockwise in 2-D; right-handed about `axis` in 3-D), about `center` when
 * given. The transform is 3-D when `axis` is given and 2-D otherwise. As DALI: the angle goes
 * to radians in float (angle · float(π/180)), an axis with one non-zero component becomes a
 * unit axis and others are divided by their length, and a zero angle gives the identity.
 */
#include "engine/kernel.h"
#include "kernels/common/xform.h"

#include <math.h>

static int rotation_ndim(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int in_ndim, int *ndim)
{
	(void)in_ndim;
	*ndim = dalic_xform_arg_present(ctx, ws, "axis") ? 3 : 2;
	return DALIC_OK;
}

/* DALI's rotation3D: Rodrigues' formula on a normalized axis, in float. */
static void rotation_3d(float *m, float axis[3], float rad)
{
	if (!(rad != 0))
		return; /* m is the identity already */
	float c = cosf(rad), s = sinf(rad);
	if ((axis[0] != 0) + (axis[1] != 0) + (axis[2] != 0) == 1) {
		for (int k = 0; k < 3; k++)
			axis[k] = axis[k] < 0 ? -1.0f : axis[k] > 0 ? 1.0f : 0.0f;
	} else {
		float len = sqrtf(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
		for (int k = 0; k < 3; k++)
			axis[k] /= len;
	}
	float u = axis[0], v = axis[1], w = axis[2];
	float uu = u * u, vv = v * v, ww = w * w, uv = u * v, uw = u * w, vw = v * w;
	const float r[9] = {
	    uu + (vv + ww) * c,   uv * (1 - c) - w * s, uw * (1 - c) + v * s,
	    uv * (1 - c) + w * s, vv + (uu + ww) * c,   vw * (1 - c) - u * s,
	    uw * (1 - c) - v * s, vw * (1 - c) + u * s, ww + (uu + vv) * c,
	};
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			m[i * 4 + j] = r[i * 3 + j];
}

static int rotation_define(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int ndim, float *m)
{
	float angle, axis[3];
	int n, rc;
	if ((rc = dalic_xform_arg(ctx, ws, i, "angle", 0, &angle, 1, &n, NULL, NULL)))
		return rc;
	if ((rc = dalic_xform_arg_count(ctx, ws, i, "angle", n, 1)))
		return rc;
	float rad = angle * (float)(M_PI / 180);
	if (ndim == 2) {
		float c = cosf(rad), s = sinf(rad);
		m[0] = c;
		m[1] = -s;
		m[3] = s;
		m[4] = c;
	} else {
		if ((rc = dalic_xform_arg(ctx, ws, i, "axis", 1, axis, 3, &n, NULL, NULL)) ||
		    (rc = dalic_xform_arg_count(ctx, ws, i, "axis", n, 3)))
			return rc;
		rotation_3d(m, axis, rad);
	}
	return dalic_xform_about_center(ctx, ws, i, ndim, m);
}

static const dalic_xform_def_t rotation_def = {
    .min_ndim = 2,
    .max_ndim = 3,
    .ndim = rotation_ndim,
    .define = rotation_define,
};

DALIC_XFORM_KERNEL(rotation);

static const dalic_arg_schema_t args[] = {
    {"angle", DALIC_ARG_FLOAT, NULL, "Angle, in degrees.", .tensor = true},
    {"axis", DALIC_ARG_FLOAT_LIST, "None",
     "Axis of rotation (3-D transforms only); need not be normalized.", .tensor = true},
    {"center", DALIC_ARG_FLOAT_LIST, "None", "The center of the rotation.", .tensor = true},
    DALIC_XFORM_ARGS,
    {0},
};

DALIC_OPERATOR(transforms__Rotation) = {
    .name = "transforms__Rotation",
    .fn = "transforms.rotation",
    .module = "nvidia.dali.fn.transforms",
    .doc = "Produces a rotation affine transform matrix (or applies one to the input "
           "transform); 3-D when `axis` is given.",
    .min_inputs = 0,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU,
    .args = args,
    .cpu = &rotation_kernel,
};
