/* DALI's DisplacementFilter for water and sphere (see displace.h). */
#include "kernels/common/displace.h"

#include "engine/dtype.h"

#include <math.h>
#include <string.h>

/* Every sampling step rounds to float as DALI's sampler does. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#endif

int dalic_displace_init(dalic_op_ctx_t *ctx)
{
	int64_t t = dalic_arg_int(ctx, "interp_type");
	if (t != DALIC_INTERP_NN && t != DALIC_INTERP_LINEAR)
		return dalic_op_fail(ctx, NULL, -1,
		                     "Unsupported interpolation type, only NN and "
		                     "LINEAR are supported for this operation");
	return DALIC_OK;
}

int dalic_displace_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	if (in->layout[0] ? strcmp(in->layout, "HWC") : in->ndim != 3)
		return dalic_op_fail(ctx, ws, -1,
		                     "The layout \"%s\" does not match any of the "
		                     "allowed layouts for input 0. Valid layouts are: "
		                     "HWC",
		                     in->layout);
	if (in->dtype != DALIC_UINT8 && in->dtype != DALIC_FLOAT)
		return dalic_op_fail(ctx, ws, -1, "Unexpected input type %s",
		                     dalic_dtype_cname(in->dtype));
	int rc = dalic_batch_copy_meta(ws->outputs[0], in);
	for (int i = 0; !rc && i < ws->batch_size; i++)
		ws->outputs[0]->sources[i] = in->sources[i];
	return rc;
}

float dalic_displace_fill(dalic_dtype_t t, double fill_value)
{
	float f = (float)fill_value;
	if (t != DALIC_UINT8)
		return f;
	/* DALI keeps the fill value in the element type: a plain (truncating) conversion */
	return f != f || f <= 0 ? 0 : f >= 255 ? 255 : (float)(uint8_t)f;
}

float dalic_displace_water_dx(const dalic_displace_water_t *w, int64_t y)
{
	return w->ax * sinf(w->fx * (float)y + w->phx);
}

float dalic_displace_water_dy(const dalic_displace_water_t *w, int64_t x)
{
	return w->ay * cosf(w->fy * (float)x + w->phy);
}

/* The rows of one image: the points from `row`, then the shared per-pixel sampling with the
 * element type as a constant, so its loads and stores fold. */
static void displace_image(const dalic_displace_img_t *g, dalic_displace_row_fn row,
                           const void *params, float *px, float *py)
{
	for (int64_t y = 0; y < g->h; y++) {
		row(params, y, g->h, g->w, px, py);
		if (g->dtype == DALIC_UINT8)
			for (int64_t x = 0; x < g->w; x++)
				dalic_displace_pixel(g, DALIC_UINT8, x, y, px[x], py[x]);
		else
			for (int64_t x = 0; x < g->w; x++)
				dalic_displace_pixel(g, DALIC_FLOAT, x, y, px[x], py[x]);
	}
}

int dalic_displace_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                              dalic_displace_row_fn row, const void *params, float *scratch)
{
	const dalic_batch_t *in_b = ws->inputs[0];
	dalic_batch_t *out_b = ws->outputs[0];
	double mask;
	int rc = dalic_arg_float_at(ctx, ws, "mask", i, &mask);
	if (rc)
		return rc;
	if (!mask) {
		memcpy(out_b->ptrs[i], in_b->ptrs[i], dalic_batch_sample_bytes(in_b, i));
		return DALIC_OK;
	}
	const int64_t *shape = dalic_batch_shape(in_b, i);
	dalic_displace_img_t g;
	g.in = in_b->ptrs[i];
	g.out = out_b->ptrs[i];
	g.dtype = in_b->dtype;
	g.h = shape[0];
	g.w = shape[1];
	g.c = shape[2];
	g.linear = dalic_arg_int(ctx, "interp_type") == DALIC_INTERP_LINEAR;
	g.fill = dalic_displace_fill(in_b->dtype, dalic_arg_float(ctx, "fill_value"));
	displace_image(&g, row, params, scratch, scratch + g.w);
	return DALIC_OK;
}
