/*
 * cast_like (DALI's CastLike): casts the first input to the type of the second, with DALI's
 * ConvertSat (kernels/common/convert.h); shape, layout and source info are the first input's.
 * Only the second input's type matters: its shapes and values are never read.
 */
#include "engine/dtype.h"
#include "engine/kernel.h"
#include "kernels/common/convert.h"

static int cast_like_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0], *like = ws->inputs[1];
	if (!dalic_dtype_is_numeric(in->dtype))
		return dalic_op_fail(ctx, ws, -1, "cannot cast input of type %s",
		                     dalic_dtype_name(in->dtype));
	if (!dalic_dtype_is_numeric(like->dtype))
		return dalic_op_fail(ctx, ws, -1, "cannot cast to the type of the second input, %s",
		                     dalic_dtype_name(like->dtype));
	int rc = dalic_batch_copy_meta(ws->outputs[0], in);
	ws->outputs[0]->dtype = like->dtype;
	return rc;
}

static int cast_like_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	dalic_convert(out->dtype, out->ptrs[i], in->dtype, in->ptrs[i],
	              dalic_batch_sample_elems(in, i));
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {0},
};

static const dalic_kernel_t kernel = {
    .setup = cast_like_setup,
    .run_sample = cast_like_run_sample,
};

DALIC_OPERATOR(CastLike) = {
    .name = "CastLike",
    .fn = "cast_like",
    .doc = "Casts the first tensor to the type of the second tensor.",
    .min_inputs = 2,
    .max_inputs = 2,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
