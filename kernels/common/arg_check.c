/* Numeric argument validation (see arg_check.h). */
#include "kernels/common/arg_check.h"

#include "engine/checked.h"

#include <math.h>

int dalic_argck_finite(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, const char *name,
		       const double *v, int n)
{
	for (int k = 0; k < n; k++)
		if (!isfinite(v[k]))
			return dalic_op_fail(ctx, ws, i, "argument '%s': %g is not a finite number",
			                     name, v[k]);
	return DALIC_OK;
}

int dalic_argck_to_i64(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, const char *name,
		       double v, int64_t *out)
{
	if (dalic_ck_double_to_i64(v, out))
		return DALIC_OK;
	return dalic_op_fail(ctx, ws, i, "argument '%s': %g is not a finite number within +-2**62",
	                     name, v);
}

int dalic_argck_range(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, const char *name,
		      double v, double lo, double hi)
{
	if (v >= lo && v <= hi)
		return DALIC_OK;
	return dalic_op_fail(ctx, ws, i, "argument '%s': %g is outside [%g, %g]", name, v, lo, hi);
}
