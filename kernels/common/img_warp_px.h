/*
 * The per-output-pixel work of the affine warps (warp_affine, rotate), shared by the CPU loops
 * (kernels/common/img_warp.c) and the CUDA kernel (kernels/cuda/warp.cuh), so both compute the
 * same source coordinates and the same samples by the same float steps:
 *   - dalic_img_warp_tile_src: the source coordinates of a run of output pixels of one row,
 *     as DALI's WarpCPU makes them: the row's x = 0 at M·(0.5, y + 0.5[, z + 0.5]), every
 *     256-pixel tile starting 256·M[:, 0] further than the previous one, and each pixel one
 *     M[:, 0] further than its left neighbour, all in float (a serial chain: pixel x of a row
 *     costs one add once the previous is known, which is why the GPU kernel builds a tile's
 *     coordinates in shared memory before it samples);
 *   - dalic_img_warp_pixel: NN or LINEAR sampling at one source point, the border (clamp or
 *     fill) and the saturating store, as DALI's samplers.
 * On the device the products and sums use the _rn intrinsics, so nvcc contracts nothing into an
 * FMA (the CPU build has no FMA: x86-64 baseline; DALI rounds every step).
 *
 * Written in the C/C++ common subset (kernels/cuda/cu_defs.h).
 */
#ifndef DALIC_KERNELS_COMMON_IMG_WARP_PX_H
#define DALIC_KERNELS_COMMON_IMG_WARP_PX_H

#include "dalic.h"
#include "kernels/common/convert_elem.h"
#include "kernels/cuda/cu_defs.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/* Pixels per tile: DALI's WarpCPU restarts its coordinate sums every 256 pixels. */
#define DALIC_IMG_WARP_TILE 256

#ifdef __CUDA_ARCH__
#define DALIC_IMG_WARP_MUL(a, b) __fmul_rn(a, b)
#define DALIC_IMG_WARP_ADD(a, b) __fadd_rn(a, b)
#define DALIC_IMG_WARP_SUB(a, b) __fsub_rn(a, b)
#else
#define DALIC_IMG_WARP_MUL(a, b) ((a) * (b))
#define DALIC_IMG_WARP_ADD(a, b) ((a) + (b))
#define DALIC_IMG_WARP_SUB(a, b) ((a) - (b))
#endif

/* Forced inline: the CPU loops call the pixel function with a constant input type, and the
 * type switch of every tap folds away only when it is inlined. */
#if defined(__GNUC__) || defined(__CUDACC__)
#define DALIC_IMG_WARP_HD DALIC_HD __attribute__((always_inline))
#else
#define DALIC_IMG_WARP_HD DALIC_HD
#endif

typedef struct img_warp_job {
	int ndim; /* spatial: 2 (HWC) or 3 (DHWC) */
	const void *in;
	dalic_dtype_t in_type;
	int64_t in_size[3]; /* x, y, z extents: W, H, D */
	int channels;
	void *out;
	dalic_dtype_t out_type;
	int64_t out_size[3];
	float m[12]; /* ndim x (ndim + 1), row-major */
	bool linear;
	bool clamp;    /* border: replicate the edge; else `fill` */
	double fill;   /* the fill as stored by NN (converted to the output type on store) */
	float fill_in; /* the fill as a LINEAR tap: dalic_img_warp_prepare sets it */
} img_warp_job_t;

/* floor() as an int, for any float: coordinates beyond +-1e9 (and NaN) are as far outside any
 * image as 1e9 is, which keeps the conversion defined (DALI's floor_int is undefined there). */
DALIC_HD float dalic_img_warp_safe(float x)
{
	return x > -1e9f ? (x < 1e9f ? x : 1e9f) : -1e9f;
}

DALIC_HD int dalic_img_warp_floor(float x)
{
	return (int)floorf(x);
}

DALIC_HD int64_t dalic_img_warp_clamp(int64_t v, int64_t hi)
{
	return v < 0 ? 0 : v > hi ? hi : v;
}

/* The element offset of pixel (x, y, z) (its channel 0), clamped into the image, or -1 outside
 * it when the border is a fill. */
DALIC_HD int64_t dalic_img_warp_offset(const img_warp_job_t *j, int64_t x, int64_t y, int64_t z)
{
	const int64_t W = j->in_size[0], H = j->in_size[1], D = j->in_size[2];
	if (j->clamp) {
		x = dalic_img_warp_clamp(x, W - 1);
		y = dalic_img_warp_clamp(y, H - 1);
		z = dalic_img_warp_clamp(z, D - 1);
	} else if (x < 0 || x >= W || y < 0 || y >= H || z < 0 || z >= D) {
		return -1;
	}
	return ((z * H + y) * W + x) * j->channels;
}

/*
 * Coordinate r (0: x, 1: y, 2: z) of the sources of output pixels x0 .. x0 + n - 1 of row
 * (y, z), x0 = k * DALIC_IMG_WARP_TILE, into dst[0], dst[stride], ...: the row start summed from
 * the translation (M[r]·(0.5, y + 0.5, z + 0.5)), plus the tile step k times, plus M[r][0]
 * once per pixel.
 */
DALIC_HD void dalic_img_warp_tile_src(const img_warp_job_t *j, int r, int64_t y, int64_t z,
                                      int64_t k, int64_t n, float *dst, int64_t stride)
{
	const int nd = j->ndim, cols = nd + 1;
	const float *row = j->m + r * cols;
	const float p[3] = {0.5f, (float)y + 0.5f, (float)z + 0.5f};
	float s = row[nd];
	for (int c = 0; c < nd; c++)
		s = DALIC_IMG_WARP_ADD(s, DALIC_IMG_WARP_MUL(row[c], p[c]));
	const float d = row[0], dtile = DALIC_IMG_WARP_MUL((float)DALIC_IMG_WARP_TILE, d);
	for (int64_t t = 0; t < k; t++)
		s = DALIC_IMG_WARP_ADD(s, dtile);
	for (int64_t x = 0; x < n; x++) {
		dst[x * stride] = s;
		s = DALIC_IMG_WARP_ADD(s, d);
	}
}

/* Element k of an input of type t: as float (a LINEAR tap, DALI's `In` weighted in float) and
 * as double (NN: exact for every input type). */
DALIC_IMG_WARP_HD float dalic_img_warp_load(dalic_dtype_t t, const void *in, int64_t k)
{
	switch (t) {
	case DALIC_UINT8:
		return (float)((const uint8_t *)in)[k];
	case DALIC_INT16:
		return (float)((const int16_t *)in)[k];
	case DALIC_INT32:
		return (float)((const int32_t *)in)[k];
	default:
		return ((const float *)in)[k];
	}
}

DALIC_IMG_WARP_HD double dalic_img_warp_load_exact(dalic_dtype_t t, const void *in, int64_t k)
{
	switch (t) {
	case DALIC_UINT8:
		return ((const uint8_t *)in)[k];
	case DALIC_INT16:
		return ((const int16_t *)in)[k];
	case DALIC_INT32:
		return ((const int32_t *)in)[k];
	default:
		return ((const float *)in)[k];
	}
}

/* An interpolated value into out[k]: float as it is, integers rounded half away from zero and
 * saturated (NaN as DALI's ConvertSat on x86). */
DALIC_IMG_WARP_HD void dalic_img_warp_store(dalic_dtype_t t, void *out, int64_t k, float v)
{
	if (t == DALIC_FLOAT) {
		((float *)out)[k] = v;
	} else if (t == DALIC_UINT8) {
		/* std::round (half away from zero) and saturation, NaN to 0, without a call */
		double r = v;
		((uint8_t *)out)[k] = !(r > 0) ? 0 : r >= 254.5 ? 255 : (uint8_t)(r + 0.5);
	} else {
		dalic_cvt_store_f64(t, out, k, (double)v);
	}
}

/*
 * Output pixel o (element offset of its channel 0 in `out`) from source point s (x, y[, z]) of
 * `in` (one frame), its input type `it` (equal to j->in_type; a constant in the CPU loops).
 * NN takes the pixel floor(s); LINEAR blends the 2 (or 8) pixels around s - 0.5:
 * s0 = s00·(1 − qx) + s01·qx per row, then s0 + (s1 − s0)·qy (and likewise in z).
 */
DALIC_IMG_WARP_HD void dalic_img_warp_pixel(const img_warp_job_t *j, dalic_dtype_t it,
                                            const void *in, void *out, const float *s, int64_t o)
{
	const int C = j->channels;
	const dalic_dtype_t ot = j->out_type;
	if (!j->linear) {
		int64_t at = dalic_img_warp_offset(
		    j, dalic_img_warp_floor(dalic_img_warp_safe(s[0])),
		    dalic_img_warp_floor(dalic_img_warp_safe(s[1])),
		    j->ndim == 3 ? dalic_img_warp_floor(dalic_img_warp_safe(s[2])) : 0);
		for (int c = 0; c < C; c++)
			dalic_cvt_store_f64(ot, out, o + c,
			                    at < 0 ? j->fill
			                           : dalic_img_warp_load_exact(it, in, at + c));
		return;
	}
	const float bin = j->fill_in;
	float x = DALIC_IMG_WARP_SUB(dalic_img_warp_safe(s[0]), 0.5f);
	float y = DALIC_IMG_WARP_SUB(dalic_img_warp_safe(s[1]), 0.5f);
	int64_t x0 = dalic_img_warp_floor(x), y0 = dalic_img_warp_floor(y);
	float qx = DALIC_IMG_WARP_SUB(x, (float)x0), px = DALIC_IMG_WARP_SUB(1.0f, qx);
	float qy = DALIC_IMG_WARP_SUB(y, (float)y0);
	if (j->ndim == 2) {
		int64_t a00 = dalic_img_warp_offset(j, x0, y0, 0);
		int64_t a01 = dalic_img_warp_offset(j, x0 + 1, y0, 0);
		int64_t a10 = dalic_img_warp_offset(j, x0, y0 + 1, 0);
		int64_t a11 = dalic_img_warp_offset(j, x0 + 1, y0 + 1, 0);
		for (int c = 0; c < C; c++) {
			float s00 = a00 < 0 ? bin : dalic_img_warp_load(it, in, a00 + c);
			float s01 = a01 < 0 ? bin : dalic_img_warp_load(it, in, a01 + c);
			float s10 = a10 < 0 ? bin : dalic_img_warp_load(it, in, a10 + c);
			float s11 = a11 < 0 ? bin : dalic_img_warp_load(it, in, a11 + c);
			float s0 = DALIC_IMG_WARP_ADD(DALIC_IMG_WARP_MUL(s00, px),
			                              DALIC_IMG_WARP_MUL(s01, qx));
			float s1 = DALIC_IMG_WARP_ADD(DALIC_IMG_WARP_MUL(s10, px),
			                              DALIC_IMG_WARP_MUL(s11, qx));
			dalic_img_warp_store(
			    ot, out, o + c,
			    DALIC_IMG_WARP_ADD(s0,
			                       DALIC_IMG_WARP_MUL(DALIC_IMG_WARP_SUB(s1, s0), qy)));
		}
		return;
	}
	float zf = DALIC_IMG_WARP_SUB(dalic_img_warp_safe(s[2]), 0.5f);
	int64_t z0 = dalic_img_warp_floor(zf);
	float py = DALIC_IMG_WARP_SUB(1.0f, qy), qz = DALIC_IMG_WARP_SUB(zf, (float)z0);
	int64_t a[8]; /* z, y, x bits: s000, s001, s010, s011, s100, ... */
	for (int t = 0; t < 8; t++)
		a[t] = dalic_img_warp_offset(j, x0 + (t & 1), y0 + ((t >> 1) & 1), z0 + (t >> 2));
	for (int c = 0; c < C; c++) {
		float v[8];
		for (int t = 0; t < 8; t++)
			v[t] = a[t] < 0 ? bin : dalic_img_warp_load(it, in, a[t] + c);
		float r[4]; /* s00, s01, s10, s11: the x blends of the 4 (z, y) rows */
		for (int t = 0; t < 4; t++)
			r[t] = DALIC_IMG_WARP_ADD(DALIC_IMG_WARP_MUL(v[2 * t], px),
			                          DALIC_IMG_WARP_MUL(v[2 * t + 1], qx));
		float s0 =
		    DALIC_IMG_WARP_ADD(DALIC_IMG_WARP_MUL(r[0], py), DALIC_IMG_WARP_MUL(r[1], qy));
		float s1 =
		    DALIC_IMG_WARP_ADD(DALIC_IMG_WARP_MUL(r[2], py), DALIC_IMG_WARP_MUL(r[3], qy));
		dalic_img_warp_store(
		    ot, out, o + c,
		    DALIC_IMG_WARP_ADD(s0, DALIC_IMG_WARP_MUL(DALIC_IMG_WARP_SUB(s1, s0), qz)));
	}
}

#endif
