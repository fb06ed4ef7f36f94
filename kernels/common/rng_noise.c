/* The noise generators' shared rules (see rng_noise.h); messages follow DALI's. */
#include "kernels/common/rng_noise.h"

#include "engine/dtype.h"
#include "engine/error.h"
#include "kernels/common/rng_shape.h"

#include <string.h>

static const dalic_dtype_t rng_noise_types[] = {
    DALIC_UINT8, DALIC_INT8,   DALIC_UINT16, DALIC_INT16, DALIC_UINT32,
    DALIC_INT32, DALIC_UINT64, DALIC_INT64,  DALIC_FLOAT,
};

int dalic_rng_noise_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	DALIC_TRY(dalic_rng_check_dtype(ctx, ws, in->dtype, rng_noise_types,
					(int)(sizeof rng_noise_types / sizeof *rng_noise_types)));
	DALIC_TRY(dalic_batch_copy_meta(ws->outputs[0], in));
	return DALIC_OK;
}

int dalic_rng_noise_geometry(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, bool per_channel,
			     dalic_rng_noise_geom_t *geo)
{
	const dalic_batch_t *in = ws->inputs[0];
	int64_t n = dalic_batch_sample_elems(in, i);
	*geo = (dalic_rng_noise_geom_t){.pixels = n, .channels = 1, .p_stride = 1, .c_stride = 1};
	if (per_channel)
		return DALIC_OK;
	int ndim = in->ndim;
	const char *c = strchr(in->layout, 'C');
	int cdim = !in->layout[0] ? ndim - 1 : c ? (int)(c - in->layout) : -1;
	if (ndim == 0)
		return dalic_op_fail(ctx, ws, i,
				     "scalar samples have no channels to share a draw (per_channel=False "
				     "needs a channel dimension)");
	if (cdim != 0 && cdim != ndim - 1)
		return dalic_op_fail(ctx, ws, i,
				     "'C' should be the first or the last dimension in the layout, "
				     "except for empty layouts where channel-last is assumed. Got "
				     "layout: \"%s\".",
				     in->layout);
	const int64_t *sh = dalic_batch_shape(in, i);
	geo->channels = sh[cdim];
	geo->pixels = geo->channels ? n / geo->channels : 0;
	geo->c_stride = 1;
	for (int d = cdim + 1; d < ndim; d++)
		geo->c_stride *= sh[d];
	geo->p_stride = cdim == 0 ? 1 : geo->channels;
	return DALIC_OK;
}
