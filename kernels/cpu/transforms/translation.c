/*
 * transforms.translation (DALI's transforms__Translation): the affine matrix that moves points
 * by `offset`; its length is the number of dimensions (1 to 6). With an input transform the
 * translation is applied after it (or before, with reverse_order). Base: kernels/common/xform.
 */
#include "engine/kernel.h"
#include "kernels/common/xform.h"

static int translation_ndim(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int in_ndim, int *ndim)
{
	(void)in_ndim;
	float v[DALIC_XFORM_MAX_NDIM + 1];
	int n, rc = dalic_xform_arg(ctx, ws, 0, "offset", 1, v, DALIC_XFORM_MAX_NDIM + 1, &n, NULL,
	                            NULL);
	if (rc)
		return rc;
	if (n < 1)
		return dalic_op_fail(ctx, ws, -1, "`offset` must have at least one value");
	*ndim = n;
	return DALIC_OK;
}

static int translation_define(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int ndim, float *m)
{
	float v[DALIC_XFORM_MAX_NDIM];
	int n,
	    rc = dalic_xform_arg(ctx, ws, i, "offset", 1, v, DALIC_XFORM_MAX_NDIM, &n, NULL, NULL);
	if (!rc)
		rc = dalic_xform_arg_count(ctx, ws, i, "offset", n, ndim);
	for (int d = 0; !rc && d < ndim; d++)
		m[d * (ndim + 1) + ndim] = v[d];
	return rc;
}

static const dalic_xform_def_t translation_def = {
    .min_ndim = 1,
    .max_ndim = 6,
    .ndim = translation_ndim,
    .define = translation_define,
};

DALIC_XFORM_KERNEL(translation);

static const dalic_arg_schema_t args[] = {
    {"offset", DALIC_ARG_FLOAT_LIST, NULL,
     "The translation vector; its length is the number of dimensions.", .tensor = true},
    DALIC_XFORM_ARGS,
    {0},
};

DALIC_OPERATOR(transforms__Translation) = {
    .name = "transforms__Translation",
    .aliases = {"TransformTranslation"}, /* DALI's deprecated name, as serialized */
    .fn = "transforms.translation",
    .module = "nvidia.dali.fn.transforms",
    .doc = "Produces a translation affine transform matrix (or applies one to the input "
           "transform).",
    .min_inputs = 0,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU,
    .args = args,
    .cpu = &translation_kernel,
};
