/* Affine warping as DALI's WarpCPU and samplers (see img_warp.h). One row loop per input type
 * (IMG_WARP_TYPES), so the per-tap type switch of the shared pixel function (img_warp_px.h)
 * folds to one load; the coordinates of each 256-pixel tile come from the shared
 * dalic_img_warp_tile_src, the same function the CUDA kernel runs. */
#include "kernels/common/img_warp.h"

#include "engine/dtype.h"
#include "engine/error.h"
#include "kernels/common/xform.h"

#include <math.h>

#define IMG_WARP_TYPES(X)                                                                          \
	X(UINT8, uint8_t, u8)                                                                      \
	X(INT16, int16_t, i16)                                                                     \
	X(INT32, int32_t, i32)                                                                     \
	X(FLOAT, float, f32)

/* The rows of one image (or volume): per tile, the coordinates of its pixels, then the pixels.
 * `it` is a constant in each instance, so dalic_img_warp_pixel's loads fold. */
#define IMG_WARP_DEFINE(ID, CT, SUF)                                                               \
	static void img_warp_run_##SUF(const img_warp_job_t *j)                                    \
	{                                                                                          \
		const int n = j->ndim;                                                             \
		const int64_t W = j->out_size[0], H = j->out_size[1];                              \
		const int64_t D = n == 3 ? j->out_size[2] : 1;                                     \
		float src[DALIC_IMG_WARP_TILE * 3];                                                \
		for (int64_t z = 0; z < D; z++)                                                    \
			for (int64_t y = 0; y < H; y++) {                                          \
				int64_t o = ((z * H + y) * W) * j->channels;                       \
				for (int64_t k = 0; k * DALIC_IMG_WARP_TILE < W; k++) {            \
					int64_t x0 = k * DALIC_IMG_WARP_TILE;                      \
					int64_t cnt = W - x0 < DALIC_IMG_WARP_TILE                 \
					                  ? W - x0                                 \
					                  : DALIC_IMG_WARP_TILE;                   \
					for (int r = 0; r < n; r++)                                \
						dalic_img_warp_tile_src(j, r, y, z, k, cnt,        \
						                        src + r, 3);               \
					for (int64_t x = 0; x < cnt; x++)                          \
						dalic_img_warp_pixel(j, DALIC_##ID, j->in, j->out, \
						                     src + 3 * x,                  \
						                     o + (x0 + x) * j->channels);  \
				}                                                                  \
			}                                                                          \
	}

IMG_WARP_TYPES(IMG_WARP_DEFINE)

bool dalic_img_warp_supports(dalic_dtype_t t)
{
	return t == DALIC_UINT8 || t == DALIC_INT16 || t == DALIC_INT32 || t == DALIC_FLOAT;
}

int dalic_img_warp_fits(const int64_t *size, int ndim, int64_t channels)
{
	const int64_t big = (int64_t)1 << 30;
	for (int d = 0; d < ndim; d++)
		if (size[d] >= big)
			return dalic_fail(DALIC_EUNSUPPORTED,
			                  "an extent of %lld: warps support extents below 2**30",
			                  (long long)size[d]);
	if (channels >= big)
		return dalic_fail(DALIC_EUNSUPPORTED, "%lld channels: too many",
		                  (long long)channels);
	return DALIC_OK;
}

/* The fill value as a LINEAR tap: ConvertSat<In>(ConvertSat<Out>(fill)), the second conversion
 * made by the operator (j->fill is already of the output type), then as float. */
void dalic_img_warp_prepare(img_warp_job_t *job)
{
	double v = job->fill;
	float f = 0;
	if (job->clamp)
		f = 0;
	else if (job->in_type == DALIC_UINT8)
		f = (float)DALIC_SAT_FROM_F64(uint8_t, 0, UINT8_MAX, round(v));
	else if (job->in_type == DALIC_INT16)
		f = (float)DALIC_SAT_FROM_F64(int16_t, INT16_MIN, INT16_MAX, round(v));
	else if (job->in_type == DALIC_INT32)
		f = (float)DALIC_SAT_FROM_F64(int32_t, INT32_MIN, INT32_MAX, round(v));
	else
		f = (float)v;
	job->fill_in = f;
}

void dalic_img_warp(const img_warp_job_t *job)
{
	img_warp_job_t j = *job;
	dalic_img_warp_prepare(&j);
	switch (j.in_type) {
#define IMG_WARP_CASE(ID, CT, SUF)                                                                 \
	case DALIC_##ID:                                                                           \
		img_warp_run_##SUF(&j);                                                            \
		break;
		IMG_WARP_TYPES(IMG_WARP_CASE)
#undef IMG_WARP_CASE
	default:
		break; /* refused by dalic_img_warp_supports */
	}
}

double dalic_img_warp_fill(dalic_dtype_t out, double f)
{
	if (out == DALIC_FLOAT)
		return (float)f;
	f = isnan(f) ? 0 : round(f);
	double lo = out == DALIC_UINT8 ? 0 : out == DALIC_INT16 ? INT16_MIN : INT32_MIN;
	double hi = out == DALIC_UINT8 ? UINT8_MAX : out == DALIC_INT16 ? INT16_MAX : INT32_MAX;
	return f < lo ? lo : f > hi ? hi : f;
}

float dalic_img_warp_radians(double degrees)
{
	return (float)degrees * (float)(M_PI / 180);
}

/* R rotates by the angle the other way in y-down axes: DALI turns counter-clockwise on screen. */
void dalic_img_warp_rotation(float radians, int64_t in_w, int64_t in_h, int64_t out_w,
                             int64_t out_h, float m[6])
{
	float c = cosf(radians), sn = sinf(radians);
	float t_in[9], r[9] = {c, -sn, 0, sn, c, 0, 0, 0, 1}, t_out[9], tr[9], all[9];
	dalic_xform_identity(2, t_in);
	dalic_xform_identity(2, t_out);
	t_in[2] = (float)in_w * 0.5f;
	t_in[5] = (float)in_h * 0.5f;
	t_out[2] = -((float)out_w * 0.5f);
	t_out[5] = -((float)out_h * 0.5f);
	dalic_xform_mul(2, t_in, r, tr);
	dalic_xform_mul(2, tr, t_out, all);
	for (int k = 0; k < 6; k++)
		m[k] = all[k];
}
