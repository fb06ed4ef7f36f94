/*
 * cast: converts every element to `dtype` with DALI's ConvertSat (include/dali/core/convert.h):
 * floating point to integer rounds half away from zero (std::round) and then saturates to
 * the target range; integer narrowing saturates; anything to bool is "nonzero after
 * rounding"; to floating point is a plain conversion. NaN becomes 0, as dalic_dtype_store_sat does.
 * Shape and layout pass through unchanged. The conversion is kernels/common/convert.c's.
 */
#include "engine/dtype.h"
#include "engine/kernel.h"
#include "kernels/common/convert.h"

static int cast_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_dtype_t to = (dalic_dtype_t)dalic_arg_int(ctx, "dtype");
	if (!dalic_dtype_is_numeric(to))
		return dalic_op_fail(ctx, ws, -1, "argument 'dtype': cannot cast to %s",
		                     dalic_dtype_name(to));
	if (!dalic_dtype_is_numeric(in->dtype))
		return dalic_op_fail(ctx, ws, -1, "cannot cast input of type %s",
		                     dalic_dtype_name(in->dtype));
	int rc = dalic_batch_copy_meta(ws->outputs[0], in);
	ws->outputs[0]->dtype = to;
	return rc;
}

static int cast_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	dalic_convert(out->dtype, out->ptrs[i], in->dtype, in->ptrs[i],
	              dalic_batch_sample_elems(in, i));
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"dtype", DALIC_ARG_DTYPE, NULL, "Output data type."},
    {0},
};

static const dalic_kernel_t kernel = {.setup = cast_setup, .run_sample = cast_run_sample};

DALIC_OPERATOR(Cast) = {
    .name = "Cast",
    .fn = "cast",
    .doc = "Casts the input to `dtype`, rounding and saturating like DALI's ConvertSat.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
