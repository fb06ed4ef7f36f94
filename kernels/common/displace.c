/* DALI's DisplacementFilter for water and sphere (see displace.h). */
#include "kernels/common/displace.h"

#include "engine/dtype.h"
#include "kernels/common/sat_cast.h"

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

/* Pixel (x, y) channel c, or the fill value outside. */
#define DISPLACE_AT(T, x, y, c)                                                                    \
	((x) < 0 || (x) >= W || (y) < 0 || (y) >= H ? fill : src[((y)*W + (x)) * C + (c)])

/* NN and LINEAR sampling of one row for element type T; CONVERT stores a float result. */
#define DISPLACE_ROW(T, CONVERT)                                                                   \
	do {                                                                                       \
		const T *src = in;                                                                 \
		T *dst = (T *)out + y * W * C;                                                     \
		const T fill = fill_t;                                                             \
		for (int64_t x = 0; x < W; x++) {                                                  \
			if (!linear) {                                                             \
				float fx = floorf(px[x]), fy = floorf(py[x]);                      \
				bool inside =                                                      \
				    fx >= 0 && fx < (float)W && fy >= 0 && fy < (float)H;          \
				int64_t ix = inside ? (int64_t)fx : 0,                             \
				        iy = inside ? (int64_t)fy : 0;                             \
				for (int64_t c = 0; c < C; c++)                                    \
					dst[x * C + c] =                                           \
					    inside ? src[(iy * W + ix) * C + c] : fill;            \
				continue;                                                          \
			}                                                                          \
			float sx = px[x] - 0.5f, sy = py[x] - 0.5f;                                \
			float fx = floorf(sx), fy = floorf(sy);                                    \
			/* far outside (or NaN), all four neighbours are fill as in DALI; clamping \
			 * the index keeps that and the conversion defined */                      \
			int64_t x0 = fx >= -2 ? (fx <= (float)W ? (int64_t)fx : W) : -2;           \
			int64_t y0 = fy >= -2 ? (fy <= (float)H ? (int64_t)fy : H) : -2;           \
			float qx = sx - fx, rx = 1 - qx, qy = sy - fy;                             \
			for (int64_t c = 0; c < C; c++) {                                          \
				float s0 = DISPLACE_AT(T, x0, y0, c) * rx +                        \
				           DISPLACE_AT(T, x0 + 1, y0, c) * qx;                     \
				float s1 = DISPLACE_AT(T, x0, y0 + 1, c) * rx +                    \
				           DISPLACE_AT(T, x0 + 1, y0 + 1, c) * qx;                 \
				dst[x * C + c] = CONVERT(s0 + (s1 - s0) * qy);                     \
			}                                                                          \
		}                                                                                  \
	} while (0)

#define DISPLACE_FLOAT(v) (v)

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
	const int64_t H = shape[0], W = shape[1], C = shape[2];
	const void *in = in_b->ptrs[i];
	void *out = out_b->ptrs[i];
	bool linear = dalic_arg_int(ctx, "interp_type") == DALIC_INTERP_LINEAR;
	float fill_f = (float)dalic_arg_float(ctx, "fill_value");
	/* DALI keeps the fill value in the element type: a plain (truncating) conversion */
	uint8_t fill_u8 = fill_f != fill_f || fill_f <= 0 ? 0
	                  : fill_f >= 255                 ? 255
	                                                  : (uint8_t)fill_f;
	float *px = scratch, *py = scratch + W;
	for (int64_t y = 0; y < H; y++) {
		row(params, y, H, W, px, py);
		if (in_b->dtype == DALIC_UINT8) {
			const uint8_t fill_t = fill_u8;
			DISPLACE_ROW(uint8_t, dalic_sat_f2u8);
		} else {
			const float fill_t = fill_f;
			DISPLACE_ROW(float, DISPLACE_FLOAT);
		}
	}
	return DALIC_OK;
}
