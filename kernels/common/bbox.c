/* Bounding-box input checks shared by the box operators (see bbox.h). */
#include "kernels/common/bbox.h"

int dalic_bbox_check(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const dalic_batch_t *in)
{
	if (in->dtype != DALIC_FLOAT)
		return dalic_op_fail(ctx, ws, -1,
		                     "Bounding box in wrong format: expected float, got %s",
		                     dalic_dtype_name(in->dtype));
	for (int i = 0; i < in->num_samples; i++) {
		int64_t n = dalic_batch_sample_elems(in, i);
		if (n % 4)
			return dalic_op_fail(
			    ctx, ws, i,
			    "Bounding box tensor size must be a multiple of 4.Got: %lld",
			    (long long)n);
	}
	return DALIC_OK;
}

int dalic_bbox_setup_like_input(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int rc = dalic_bbox_check(ctx, ws, in);
	if (!rc)
		rc = dalic_batch_copy_meta(out, in);
	for (int i = 0; !rc && i < ws->batch_size; i++)
		out->sources[i] = in->sources[i];
	return rc;
}
