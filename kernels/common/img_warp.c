/* Affine warping as DALI's WarpCPU and samplers (see img_warp.h). One set of loops per input
 * type (IMG_WARP_TYPES); the output is stored through one switch per value. */
#include "kernels/common/img_warp.h"

#include "engine/dtype.h"
#include "engine/error.h"

#include <math.h>

#define IMG_WARP_TILE 256

/* floor() as an int, for any float: coordinates beyond +-1e9 (and NaN) are as far outside any
 * image as 1e9 is, which keeps the conversion defined (DALI's floor_int is undefined there). */
static inline float img_warp_safe(float x)
{
	return x > -1e9f ? (x < 1e9f ? x : 1e9f) : -1e9f;
}

static inline int img_warp_floor(float x)
{
	return (int)floorf(x);
}

static inline int64_t img_warp_clamp(int64_t v, int64_t hi)
{
	return v < 0 ? 0 : v > hi ? hi : v;
}

static inline void img_warp_store(const img_warp_job_t *j, int64_t k, float v)
{
	if (j->out_type == DALIC_FLOAT) {
		((float *)j->out)[k] = v;
	} else if (j->out_type == DALIC_UINT8) {
		/* std::round (half away from zero) and saturation, NaN to 0, without a call */
		double r = v;
		((uint8_t *)j->out)[k] = !(r > 0) ? 0 : r >= 254.5 ? 255 : (uint8_t)(r + 0.5);
	} else {
		dalic_dtype_store_sat(j->out_type, j->out, k, v);
	}
}

/* A value stored as it is (NN): exact for every input type. */
static inline void img_warp_store_exact(const img_warp_job_t *j, int64_t k, double v)
{
	dalic_dtype_store_sat(j->out_type, j->out, k, v);
}

/* The element offset of pixel (x, y, z) (its channel 0), clamped into the image, or -1
 * outside it when the border is a fill. */
static inline int64_t img_warp_offset(const img_warp_job_t *j, int64_t x, int64_t y, int64_t z)
{
	const int64_t W = j->in_size[0], H = j->in_size[1], D = j->in_size[2];
	if (j->clamp) {
		x = img_warp_clamp(x, W - 1);
		y = img_warp_clamp(y, H - 1);
		z = img_warp_clamp(z, D - 1);
	} else if (x < 0 || x >= W || y < 0 || y >= H || z < 0 || z >= D) {
		return -1;
	}
	return ((z * H + y) * W + x) * j->channels;
}

/* The source coordinates of output pixel (0, y, z): M·(0.5, y + 0.5, z + 0.5), each row summed
 * from the translation as DALI's affine(). */
static void img_warp_row_start(const img_warp_job_t *j, int64_t y, int64_t z, float *src)
{
	const int n = j->ndim, cols = n + 1;
	const float p[3] = {0.5f, (float)y + 0.5f, (float)z + 0.5f};
	for (int r = 0; r < n; r++) {
		float s = j->m[r * cols + n];
		for (int k = 0; k < n; k++)
			s += j->m[r * cols + k] * p[k];
		src[r] = s;
	}
}

/*
 * One warp per input type CT. Taps are read as CT and weighted in float, as DALI's sampler
 * (`In s00 = ...; float s0 = s00 * px + s01 * qx`). `bin` is the fill converted to CT.
 */
#define IMG_WARP_TYPES(X)                                                                          \
	X(UINT8, uint8_t, u8)                                                                      \
	X(INT16, int16_t, i16)                                                                     \
	X(INT32, int32_t, i32)                                                                     \
	X(FLOAT, float, f32)

#define IMG_WARP_DEFINE(ID, CT, SUF)                                                               \
	/* One output pixel at source coordinates s (x, y[, z]) into out[o..o + channels). */      \
	static void img_warp_pixel_##SUF(const img_warp_job_t *j, const CT *in, const float *s,    \
	                                 int64_t o, CT bin)                                        \
	{                                                                                          \
		const int C = j->channels;                                                         \
		if (!j->linear) {                                                                  \
			int64_t at = img_warp_offset(                                              \
			    j, img_warp_floor(img_warp_safe(s[0])),                                \
			    img_warp_floor(img_warp_safe(s[1])),                                   \
			    j->ndim == 3 ? img_warp_floor(img_warp_safe(s[2])) : 0);               \
			for (int c = 0; c < C; c++) {                                              \
				if (at < 0)                                                        \
					img_warp_store_exact(j, o + c, j->fill);                   \
				else                                                               \
					img_warp_store_exact(j, o + c, in[at + c]);                \
			}                                                                          \
			return;                                                                    \
		}                                                                                  \
		float x = img_warp_safe(s[0]) - 0.5f, y = img_warp_safe(s[1]) - 0.5f;              \
		int64_t x0 = img_warp_floor(x), y0 = img_warp_floor(y);                            \
		float qx = x - (float)x0, px = 1 - qx, qy = y - (float)y0;                         \
		if (j->ndim == 2) {                                                                \
			int64_t a00 = img_warp_offset(j, x0, y0, 0);                               \
			int64_t a01 = img_warp_offset(j, x0 + 1, y0, 0);                           \
			int64_t a10 = img_warp_offset(j, x0, y0 + 1, 0);                           \
			int64_t a11 = img_warp_offset(j, x0 + 1, y0 + 1, 0);                       \
			for (int c = 0; c < C; c++) {                                              \
				CT s00 = a00 < 0 ? bin : in[a00 + c];                              \
				CT s01 = a01 < 0 ? bin : in[a01 + c];                              \
				CT s10 = a10 < 0 ? bin : in[a10 + c];                              \
				CT s11 = a11 < 0 ? bin : in[a11 + c];                              \
				float s0 = s00 * px + s01 * qx;                                    \
				float s1 = s10 * px + s11 * qx;                                    \
				img_warp_store(j, o + c, s0 + (s1 - s0) * qy);                     \
			}                                                                          \
			return;                                                                    \
		}                                                                                  \
		float zf = img_warp_safe(s[2]) - 0.5f;                                             \
		int64_t z0 = img_warp_floor(zf);                                                   \
		float py = 1 - qy, qz = zf - (float)z0;                                            \
		int64_t a[8]; /* z, y, x bits: s000, s001, s010, s011, s100, ... */                \
		for (int t = 0; t < 8; t++)                                                        \
			a[t] =                                                                     \
			    img_warp_offset(j, x0 + (t & 1), y0 + ((t >> 1) & 1), z0 + (t >> 2));  \
		for (int c = 0; c < C; c++) {                                                      \
			CT v[8];                                                                   \
			for (int t = 0; t < 8; t++)                                                \
				v[t] = a[t] < 0 ? bin : in[a[t] + c];                              \
			float s00 = v[0] * px + v[1] * qx;                                         \
			float s01 = v[2] * px + v[3] * qx;                                         \
			float s10 = v[4] * px + v[5] * qx;                                         \
			float s11 = v[6] * px + v[7] * qx;                                         \
			float s0 = s00 * py + s01 * qy;                                            \
			float s1 = s10 * py + s11 * qy;                                            \
			img_warp_store(j, o + c, s0 + (s1 - s0) * qz);                             \
		}                                                                                  \
	}                                                                                          \
                                                                                                   \
	static void img_warp_run_##SUF(const img_warp_job_t *j)                                    \
	{                                                                                          \
		const CT *in = j->in;                                                              \
		CT bin = 0;                                                                        \
		if (!j->clamp) {                                                                   \
			ID##_SLOT_CONVERT(bin, j->fill);                                           \
		}                                                                                  \
		const int n = j->ndim, cols = n + 1;                                               \
		const int64_t W = j->out_size[0], H = j->out_size[1];                              \
		const int64_t D = n == 3 ? j->out_size[2] : 1;                                     \
		float dsdx[3] = {0, 0, 0}, dtile[3] = {0, 0, 0};                                   \
		for (int r = 0; r < n; r++) {                                                      \
			dsdx[r] = j->m[r * cols];                                                  \
			dtile[r] = IMG_WARP_TILE * dsdx[r];                                        \
		}                                                                                  \
		for (int64_t z = 0; z < D; z++)                                                    \
			for (int64_t y = 0; y < H; y++) {                                          \
				float tile[3] = {0, 0, 0};                                         \
				img_warp_row_start(j, y, z, tile);                                 \
				int64_t o = ((z * H + y) * W) * j->channels;                       \
				for (int64_t x0 = 0; x0 < W; x0 += IMG_WARP_TILE) {                \
					float s[3] = {tile[0], tile[1], tile[2]};                  \
					int64_t x1 =                                               \
					    x0 + IMG_WARP_TILE < W ? x0 + IMG_WARP_TILE : W;       \
					for (int64_t x = x0; x < x1; x++) {                        \
						img_warp_pixel_##SUF(j, in, s,                     \
						                     o + x * j->channels, bin);    \
						for (int r = 0; r < n; r++)                        \
							s[r] += dsdx[r];                           \
					}                                                          \
					for (int r = 0; r < n; r++)                                \
						tile[r] += dtile[r];                               \
				}                                                                  \
			}                                                                          \
	}

/* The fill value as the input type: ConvertSat<In>(ConvertSat<Out>(fill)), the second
 * conversion made by the caller (j->fill is already of the output type). */
#define UINT8_SLOT_CONVERT(dst, v) dst = DALIC_SAT_FROM_F64(uint8_t, 0, UINT8_MAX, round(v))
#define INT16_SLOT_CONVERT(dst, v) dst = DALIC_SAT_FROM_F64(int16_t, INT16_MIN, INT16_MAX, round(v))
#define INT32_SLOT_CONVERT(dst, v) dst = DALIC_SAT_FROM_F64(int32_t, INT32_MIN, INT32_MAX, round(v))
#define FLOAT_SLOT_CONVERT(dst, v) dst = (float)(v)

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

void dalic_img_warp(const img_warp_job_t *job)
{
	switch (job->in_type) {
#define IMG_WARP_CASE(ID, CT, SUF)                                                                 \
	case DALIC_##ID:                                                                           \
		img_warp_run_##SUF(job);                                                           \
		break;
		IMG_WARP_TYPES(IMG_WARP_CASE)
#undef IMG_WARP_CASE
	default:
		break; /* refused by dalic_img_warp_supports */
	}
}
