/*
 * The per-output-pixel work of DALI's DisplacementFilter (water, sphere), shared by the CPU
 * loops (kernels/common/displace.c) and the CUDA kernel (kernels/cuda/displace.cuh):
 *   - the sample point of output pixel (x, y): water's (x + dx[y], y + dy[x]), the row and
 *     column shifts made on the host with the C library's sinf/cosf (dalic_displace_water_
 *     shifts: CUDA's sinf is not glibc's, so the device only adds them), and sphere's
 *     centre + |t| / d · t;
 *   - NN or LINEAR sampling at that point with `fill` outside, and the store (uint8 rounded
 *     half away from zero and saturated, float as it is).
 * On the device the products, sums, the quotient and the square root use the _rn intrinsics,
 * so the result is the CPU's (which rounds every step: fp-contract is off there) bit for bit.
 *
 * Written in the C/C++ common subset (kernels/cuda/cu_defs.h).
 */
#ifndef DALIC_KERNELS_COMMON_DISPLACE_PX_H
#define DALIC_KERNELS_COMMON_DISPLACE_PX_H

#include "dalic.h"
#include "kernels/common/color_px.h"
#include "kernels/cuda/cu_defs.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#ifdef __CUDA_ARCH__
#define DALIC_DISPLACE_MUL(a, b) __fmul_rn(a, b)
#define DALIC_DISPLACE_ADD(a, b) __fadd_rn(a, b)
#define DALIC_DISPLACE_SUB(a, b) __fsub_rn(a, b)
#define DALIC_DISPLACE_DIV(a, b) __fdiv_rn(a, b)
#define DALIC_DISPLACE_SQRT(a) __fsqrt_rn(a)
#else
#define DALIC_DISPLACE_MUL(a, b) ((a) * (b))
#define DALIC_DISPLACE_ADD(a, b) ((a) + (b))
#define DALIC_DISPLACE_SUB(a, b) ((a) - (b))
#define DALIC_DISPLACE_DIV(a, b) ((a) / (b))
#define DALIC_DISPLACE_SQRT(a) sqrtf(a)
#endif

/* Forced inline: the CPU loop calls the pixel function with a constant type. */
#if defined(__GNUC__) || defined(__CUDACC__)
#define DALIC_DISPLACE_HD DALIC_HD __attribute__((always_inline))
#else
#define DALIC_DISPLACE_HD DALIC_HD
#endif

/* One image's sampling: HWC, uint8 or float; `fill` is the fill value as the element type
 * (uint8: truncated, as DALI stores it), held as float. */
typedef struct dalic_displace_img {
	const void *in;
	void *out;
	dalic_dtype_t dtype;
	int64_t w, h, c;
	bool linear;
	float fill;
} dalic_displace_img_t;

/* water's sample point: dx_row = ampl_x·sinf(freq_x·y + phase_x) of row y, dy_col =
 * ampl_y·cosf(freq_y·x + phase_y) of column x. */
DALIC_HD void dalic_displace_water_point(int64_t x, int64_t y, float dx_row, float dy_col,
                                         float *px, float *py)
{
	*px = DALIC_DISPLACE_ADD((float)x, dx_row);
	*py = DALIC_DISPLACE_ADD((float)y, dy_col);
}

/* sphere's sample point of (x, y) in a w x h image: t = (x + 0.5 − w/2, y + 0.5 − h/2),
 * centre + |t| / d · t with d the larger half-extent truncated to an integer. */
DALIC_HD void dalic_displace_sphere_point(int64_t x, int64_t y, int64_t w, int64_t h, float *px,
                                          float *py)
{
	const float mid_x = DALIC_DISPLACE_MUL((float)w, 0.5f);
	const float mid_y = DALIC_DISPLACE_MUL((float)h, 0.5f);
	const float d = (float)(int64_t)(mid_x > mid_y ? mid_x : mid_y);
	const float ty = DALIC_DISPLACE_SUB(DALIC_DISPLACE_ADD((float)y, 0.5f), mid_y);
	const float tx = DALIC_DISPLACE_SUB(DALIC_DISPLACE_ADD((float)x, 0.5f), mid_x);
	const float rad =
	    DALIC_DISPLACE_DIV(DALIC_DISPLACE_SQRT(DALIC_DISPLACE_ADD(DALIC_DISPLACE_MUL(tx, tx),
	                                                              DALIC_DISPLACE_MUL(ty, ty))),
	                       d);
	*px = DALIC_DISPLACE_ADD(mid_x, DALIC_DISPLACE_MUL(rad, tx));
	*py = DALIC_DISPLACE_ADD(mid_y, DALIC_DISPLACE_MUL(rad, ty));
}

/* Element (x, y, ch) of the input, or the fill outside. */
DALIC_DISPLACE_HD float dalic_displace_at(const dalic_displace_img_t *g, dalic_dtype_t t, int64_t x,
                                          int64_t y, int64_t ch)
{
	if (x < 0 || x >= g->w || y < 0 || y >= g->h)
		return g->fill;
	int64_t k = (y * g->w + x) * g->c + ch;
	return t == DALIC_UINT8 ? (float)((const uint8_t *)g->in)[k] : ((const float *)g->in)[k];
}

/* Output pixel (x, y), all channels, from point (px, py); t is g->dtype (a constant in the CPU
 * loop). NN takes the pixel floor(px), floor(py); LINEAR blends the four around
 * (px − 0.5, py − 0.5). */
DALIC_DISPLACE_HD void dalic_displace_pixel(const dalic_displace_img_t *g, dalic_dtype_t t,
                                            int64_t x, int64_t y, float px, float py)
{
	const int64_t W = g->w, H = g->h, C = g->c, o = (y * W + x) * C;
	if (!g->linear) {
		float fx = floorf(px), fy = floorf(py);
		bool inside = fx >= 0 && fx < (float)W && fy >= 0 && fy < (float)H;
		int64_t at = inside ? ((int64_t)fy * W + (int64_t)fx) * C : 0;
		for (int64_t c = 0; c < C; c++) {
			if (t == DALIC_UINT8)
				((uint8_t *)g->out)[o + c] =
				    inside ? ((const uint8_t *)g->in)[at + c] : (uint8_t)g->fill;
			else
				((float *)g->out)[o + c] =
				    inside ? ((const float *)g->in)[at + c] : g->fill;
		}
		return;
	}
	float sx = DALIC_DISPLACE_SUB(px, 0.5f), sy = DALIC_DISPLACE_SUB(py, 0.5f);
	float fx = floorf(sx), fy = floorf(sy);
	/* far outside (or NaN), all four neighbours are fill as in DALI; clamping the index keeps
	 * that and the conversion defined */
	int64_t x0 = fx >= -2 ? (fx <= (float)W ? (int64_t)fx : W) : -2;
	int64_t y0 = fy >= -2 ? (fy <= (float)H ? (int64_t)fy : H) : -2;
	float qx = DALIC_DISPLACE_SUB(sx, fx), rx = DALIC_DISPLACE_SUB(1.0f, qx);
	float qy = DALIC_DISPLACE_SUB(sy, fy);
	for (int64_t c = 0; c < C; c++) {
		float s0 = DALIC_DISPLACE_ADD(
		    DALIC_DISPLACE_MUL(dalic_displace_at(g, t, x0, y0, c), rx),
		    DALIC_DISPLACE_MUL(dalic_displace_at(g, t, x0 + 1, y0, c), qx));
		float s1 = DALIC_DISPLACE_ADD(
		    DALIC_DISPLACE_MUL(dalic_displace_at(g, t, x0, y0 + 1, c), rx),
		    DALIC_DISPLACE_MUL(dalic_displace_at(g, t, x0 + 1, y0 + 1, c), qx));
		float v =
		    DALIC_DISPLACE_ADD(s0, DALIC_DISPLACE_MUL(DALIC_DISPLACE_SUB(s1, s0), qy));
		if (t == DALIC_UINT8)
			((uint8_t *)g->out)[o + c] =
			    (uint8_t)dalic_color_px_round_small(v, 0.0f, 255.0f);
		else
			((float *)g->out)[o + c] = v;
	}
}

#endif
