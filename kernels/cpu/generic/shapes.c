/*
 * shapes (DALI's Shapes, and _Shape behind DataNode.shape()): each output sample is the shape
 * of the input sample, a 1-D tensor of ndim extents in `dtype` (int32, uint32, int64, uint64,
 * float or double; INT64 by default). A scalar input gives an empty shape. No data is read.
 */
#include "engine/dtype.h"
#include "engine/kernel.h"
#include "kernels/common/shape_out.h"

static const dalic_arg_schema_t args[] = {
    {"dtype", DALIC_ARG_DTYPE, "INT64", "Data type of the extents."},
    {0},
};

/* Shapes also has DALI's deprecated `type`, an alias of dtype. */
static const dalic_arg_schema_t shapes_args[] = {
    {"dtype", DALIC_ARG_DTYPE, "INT64", "Data type of the extents."},
    {"type", DALIC_ARG_DTYPE, "None", "Deprecated alias of dtype."},
    {0},
};

/* dtype, or Shapes' deprecated `type` when that is given instead. */
static dalic_dtype_t shapes_dtype(const dalic_op_ctx_t *ctx)
{
	bool legacy = ctx->schema->args != args && dalic_arg_given(ctx, "type") &&
	              !dalic_arg_given(ctx, "dtype");
	return (dalic_dtype_t)dalic_arg_int(ctx, legacy ? "type" : "dtype");
}

static int shapes_init(dalic_op_ctx_t *ctx)
{
	return dalic_shape_out_check(ctx, shapes_dtype(ctx));
}

static int shapes_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int rc = dalic_batch_set_meta(out, in->num_samples, shapes_dtype(ctx), 1);
	if (rc)
		return rc;
	dalic_batch_set_layout(out, "");
	int64_t n = in->ndim;
	dalic_batch_set_uniform_shape(out, &n);
	for (int i = 0; i < in->num_samples; i++)
		out->sources[i] = in->sources[i];
	return DALIC_OK;
}

static int shapes_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	const int64_t *shape = dalic_batch_shape(in, i);
	for (int d = 0; d < in->ndim; d++)
		dalic_dtype_store_i64_sat(out->dtype, out->ptrs[i], d, shape[d]);
	return DALIC_OK;
}

static const dalic_kernel_t kernel = {
    .init = shapes_init,
    .setup = shapes_setup,
    .run_sample = shapes_run_sample,
};

DALIC_OPERATOR(Shapes) = {
    .name = "Shapes",
    .fn = "shapes",
    .doc = "Returns the shapes of the tensors in the input batch.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = shapes_args,
    .cpu = &kernel,
};

DALIC_OPERATOR(_Shape) = {
    .name = "_Shape",
    .fn = "_shape",
    .doc = "Returns the shapes of the tensors in the input batch (behind DataNode.shape()).",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
