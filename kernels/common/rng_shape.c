/* Output shapes of random operators (see rng_shape.h). */
#include "kernels/common/rng_shape.h"

#include "engine/dtype.h"
#include "kernels/common/arg_check.h"

#include <string.h>

int dalic_rng_setup_output(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, dalic_dtype_t dtype)
{
	if (!dalic_dtype_is_numeric(dtype))
		return dalic_op_fail(ctx, ws, -1, "dtype %s is not numeric", dalic_dtype_name(dtype));
	dalic_batch_t *out = ws->outputs[0];
	const dalic_batch_t *like = ws->num_inputs > 0 ? ws->inputs[0] : NULL;
	const dalic_batch_t *shape_in = dalic_arg_input(ws, "shape");
	const dalic_value_t *shape = dalic_arg(ctx, "shape");
	int64_t ndim = 0;
	if (shape_in)
		ndim = shape_in->num_samples ? dalic_batch_sample_elems(shape_in, 0) : 0;
	else if (shape->kind != DALIC_V_NONE)
		ndim = shape->n;
	else if (like)
		ndim = like->ndim;
	if (ndim > DALIC_MAX_NDIM)
		return dalic_op_fail(ctx, ws, -1, "shape has %lld dims, at most %d supported",
				     (long long)ndim, DALIC_MAX_NDIM);
	int rc = dalic_batch_set_meta(out, ws->batch_size, dtype, (int)ndim);
	if (rc)
		return rc;
	for (int i = 0; i < ws->batch_size; i++) {
		int64_t *dims = dalic_batch_shape_mut(out, i);
		if (shape_in || shape->kind != DALIC_V_NONE) {
			double v[DALIC_MAX_NDIM];
			int n;
			rc = dalic_arg_floats_at(ctx, ws, "shape", i, v, DALIC_MAX_NDIM, &n);
			if (rc)
				return rc;
			if (n != ndim)
				return dalic_op_fail(ctx, ws, i,
				                     "shape has %d dims, sample 0 has %lld", n,
				                     (long long)ndim);
			for (int d = 0; d < ndim; d++) {
				if (v[d] < 0)
					return dalic_op_fail(ctx, ws, i, "negative extent in shape");
				if ((rc = dalic_argck_to_i64(ctx, ws, i, "shape", v[d], &dims[d])))
					return rc;
			}
		} else if (like) {
			memcpy(dims, dalic_batch_shape(like, i), sizeof(int64_t) * (size_t)ndim);
		}
	}
	return DALIC_OK;
}
