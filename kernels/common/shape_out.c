/* The output types of shape operators (see shape_out.h). */
#include "kernels/common/shape_out.h"

#include "engine/dtype.h"

int dalic_shape_out_check(const dalic_op_ctx_t *ctx, dalic_dtype_t t)
{
	if (t == DALIC_INT32 || t == DALIC_UINT32 || t == DALIC_INT64 || t == DALIC_UINT64 ||
	    t == DALIC_FLOAT || t == DALIC_FLOAT64)
		return DALIC_OK;
	return dalic_op_fail(ctx, NULL, -1,
	                     "Operator %s can return the output as one of the following: int32, "
	                     "uint32, int64, uint64, float or double; requested: %s",
	                     ctx->schema->name,
	                     dalic_dtype_short(t) ? dalic_dtype_short(t) : dalic_dtype_name(t));
}
