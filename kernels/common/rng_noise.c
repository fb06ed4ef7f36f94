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

int dalic_rng_noise_geom_of(const char *layout, int ndim, const int64_t *shape,
			    bool per_channel, dalic_rng_noise_geom_t *geo)
{
	int64_t n = 1;
	for (int d = 0; d < ndim; d++)
		n *= shape[d];
	*geo = (dalic_rng_noise_geom_t){.pixels = n, .channels = 1, .p_stride = 1, .c_stride = 1};
	if (per_channel)
		return 0;
	const char *c = strchr(layout, 'C');
	int cdim = !layout[0] ? ndim - 1 : c ? (int)(c - layout) : -1;
	if (ndim == 0)
		return -1;
	if (cdim != 0 && cdim != ndim - 1)
		return -2;
	geo->channels = shape[cdim];
	geo->pixels = geo->channels ? n / geo->channels : 0;
	geo->c_stride = 1;
	for (int d = cdim + 1; d < ndim; d++)
		geo->c_stride *= shape[d];
	geo->p_stride = cdim == 0 ? 1 : geo->channels;
	return 0;
}

int dalic_rng_noise_geometry(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, bool per_channel,
			     dalic_rng_noise_geom_t *geo)
{
	const dalic_batch_t *in = ws->inputs[0];
	int rc = dalic_rng_noise_geom_of(in->layout, in->ndim, dalic_batch_shape(in, i), per_channel,
					 geo);
	if (rc == -1)
		return dalic_op_fail(ctx, ws, i,
				     "scalar samples have no channels to share a draw (per_channel=False "
				     "needs a channel dimension)");
	if (rc == -2)
		return dalic_op_fail(ctx, ws, i,
				     "'C' should be the first or the last dimension in the layout, "
				     "except for empty layouts where channel-last is assumed. Got "
				     "layout: \"%s\".",
				     in->layout);
	return DALIC_OK;
}
