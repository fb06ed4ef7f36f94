/*
 * The colour operators' per-value arithmetic, shared by the CPU loops (kernels/common/color.c)
 * and the CUDA kernels (kernels/cuda/color.cuh):
 *   - the twist family (hsv, color_twist, hue, saturation): each output channel is
 *     ((r * m0 + g * m1) + b * m2) + offset in float, left to right;
 *   - the brightness-contrast family: in * mul + add in float, with mul and add from
 *     dalic_color_bc_coeffs (DALI's rearrangement, each step rounded to float).
 * On the device the products and sums use the _rn intrinsics, so nvcc fuses nothing into an
 * FMA (DALI's CPU kernels round every step, and color.c turns contraction off).
 *
 * The saturating stores (DALI's ConvertSat: round half away from zero, clamp, NaN as x86 gives
 * it) repeat kernels/common/sat_cast.h's rules in DALIC_HD form for the kernels; test_cuda_color
 * checks them against sat_cast.h over sweeps of floats.
 */
#ifndef DALIC_KERNELS_COMMON_COLOR_PX_H
#define DALIC_KERNELS_COMMON_COLOR_PX_H

#include "dalic.h"
#include "kernels/common/half.h"
#include "kernels/cuda/cu_defs.h"

#include <math.h>
#include <stdint.h>

#ifdef __CUDA_ARCH__
#define DALIC_COLOR_MUL(a, b) __fmul_rn(a, b)
#define DALIC_COLOR_ADD(a, b) __fadd_rn(a, b)
#else
#define DALIC_COLOR_MUL(a, b) ((a) * (b))
#define DALIC_COLOR_ADD(a, b) ((a) + (b))
#endif

/* One output channel of the twist: ((r * m0 + g * m1) + b * m2) + offset. */
DALIC_HD float dalic_color_twist_dot(float r, float g, float b, float m0, float m1, float m2,
                                     float offset)
{
	float v = DALIC_COLOR_ADD(DALIC_COLOR_MUL(r, m0), DALIC_COLOR_MUL(g, m1));
	v = DALIC_COLOR_ADD(v, DALIC_COLOR_MUL(b, m2));
	return DALIC_COLOR_ADD(v, offset);
}

DALIC_HD float dalic_color_muladd(float x, float mul, float add)
{
	return DALIC_COLOR_ADD(DALIC_COLOR_MUL(x, mul), add);
}

/* DALI's rearrangement of shift * range + brightness * (center + contrast * (in - center)):
 * mul = brightness * contrast, add = shift * range + brightness * (center - contrast *
 * center), each step rounded to float. */
DALIC_HD void dalic_color_bc_coeffs(float brightness, float shift, float contrast, float center,
                                    float full_range, float *mul, float *add)
{
	float c = DALIC_COLOR_ADD(center, -DALIC_COLOR_MUL(contrast, center));
	*add = DALIC_COLOR_ADD(DALIC_COLOR_MUL(shift, full_range), DALIC_COLOR_MUL(brightness, c));
	*mul = DALIC_COLOR_MUL(brightness, contrast);
}

/* ---- loads and ConvertSat stores (uint8, int16, int32, float, float16) ---- */

DALIC_HD float dalic_color_px_load(dalic_dtype_t t, const void *base, int64_t i)
{
	switch (t) {
	case DALIC_UINT8:
		return (float)((const uint8_t *)base)[i];
	case DALIC_INT16:
		return (float)((const int16_t *)base)[i];
	case DALIC_INT32:
		return (float)((const int32_t *)base)[i];
	case DALIC_FLOAT16:
		return dalic_half_to_f32(((const uint16_t *)base)[i]);
	default:
		return ((const float *)base)[i];
	}
}

/* v rounded half away from zero and clamped to [lo, hi] (|lo|, |hi| < 2^23); NaN gives 0. */
DALIC_HD int32_t dalic_color_px_round_small(float v, float lo, float hi)
{
	float c = v >= lo ? (v <= hi ? v : hi) : lo;
	c = v == v ? c : 0.0f;
	int32_t i = (int32_t)c;
	float f = c - (float)i;
	return i + (f >= 0.5f) - (f <= -0.5f);
}

/* int32: round, then clamp in double; NaN is INT32_MIN (x86's integer indefinite). */
DALIC_HD int32_t dalic_color_px_f2i32(float v)
{
	if (v != v)
		return INT32_MIN;
	double r = (double)roundf(v);
	return r <= (double)INT32_MIN ? INT32_MIN : r >= (double)INT32_MAX ? INT32_MAX : (int32_t)r;
}

DALIC_HD void dalic_color_px_store(dalic_dtype_t t, void *base, int64_t i, float v)
{
	switch (t) {
	case DALIC_UINT8:
		((uint8_t *)base)[i] = (uint8_t)dalic_color_px_round_small(v, 0.0f, 255.0f);
		break;
	case DALIC_INT16:
		((int16_t *)base)[i] = (int16_t)dalic_color_px_round_small(v, -32768.0f, 32767.0f);
		break;
	case DALIC_INT32:
		((int32_t *)base)[i] = dalic_color_px_f2i32(v);
		break;
	case DALIC_FLOAT16:
		((uint16_t *)base)[i] = dalic_half_from_f32(v);
		break;
	default:
		((float *)base)[i] = v;
		break;
	}
}

#endif
