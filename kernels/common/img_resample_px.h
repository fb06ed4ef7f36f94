/*
 * The per-output-value arithmetic of separable resampling (img_resample.h), shared by the CPU
 * resampler (kernels/common/img_resample.c) and the CUDA resize kernel
 * (kernels/cuda/resize.cuh):
 *   - a pass computes each value as sum_k w[k] * src[at + idx[k] * step] in float, the taps
 *     in table order, starting from 0 and rounding every product and every sum
 *     (dalic_resample_px_taps); the vertical pass steps by a row, the horizontal pass by 1
 *     over indices premultiplied by the channel count;
 *   - integer outputs round like DALI: add 0.5, clamp, truncate (dalic_resample_px_store).
 * The vectorised CPU loops (img_resample.c, img_resample_avx2.c) compute the same products
 * and sums in the same order, lane by lane, so every form gives the same bits. On the device
 * the products and sums use the _rn intrinsics, so nvcc fuses nothing into an FMA.
 */
#ifndef DALIC_KERNELS_COMMON_IMG_RESAMPLE_PX_H
#define DALIC_KERNELS_COMMON_IMG_RESAMPLE_PX_H

#include "dalic.h"
#include "kernels/cuda/cu_defs.h"

#include <stdint.h>

#ifdef __CUDA_ARCH__
#define DALIC_RESAMPLE_MUL(a, b) __fmul_rn(a, b)
#define DALIC_RESAMPLE_ADD(a, b) __fadd_rn(a, b)
#else
#define DALIC_RESAMPLE_MUL(a, b) ((a) * (b))
#define DALIC_RESAMPLE_ADD(a, b) ((a) + (b))
#endif

/* Value i of a uint8, int16, uint16 or float array, as float. */
DALIC_HD float dalic_resample_px_load(dalic_dtype_t t, const void *base, int64_t i)
{
	switch (t) {
	case DALIC_UINT8:
		return (float)((const uint8_t *)base)[i];
	case DALIC_INT16:
		return (float)((const int16_t *)base)[i];
	case DALIC_UINT16:
		return (float)((const uint16_t *)base)[i];
	default:
		return ((const float *)base)[i];
	}
}

/* One output value of a pass: sum over k < taps of w[k] * src[at + idx[k] * step]. */
DALIC_HD float dalic_resample_px_taps(dalic_dtype_t t, const void *src, int64_t at, int64_t step,
                                      const int32_t *idx, const float *w, int taps)
{
	float s = 0;
	for (int k = 0; k < taps; k++)
		s = DALIC_RESAMPLE_ADD(
		    s,
		    DALIC_RESAMPLE_MUL(w[k], dalic_resample_px_load(t, src, at + idx[k] * step)));
	return s;
}

/*
 * Stores v as element i of a uint8, int16, uint16 or float array: integers as DALI rounds
 * them (v + 0.5, clamped to the type's range, truncated toward zero). A NaN stores 0, which
 * is what x86's truncating conversion leaves in the low bits (weights are finite, so only a
 * NaN in a float input could get here, and float inputs give float outputs).
 */
DALIC_HD void dalic_resample_px_store(dalic_dtype_t t, void *base, int64_t i, float v)
{
	float r = DALIC_RESAMPLE_ADD(v, 0.5f);
	switch (t) {
	case DALIC_UINT8:
		((uint8_t *)base)[i] = r >= 255 ? 255 : r > 0 ? (uint8_t)r : 0;
		break;
	case DALIC_INT16:
		((int16_t *)base)[i] = r >= 32767   ? 32767
		                       : r > -32768 ? (int16_t)r
		                       : r == r     ? -32768
		                                    : 0;
		break;
	case DALIC_UINT16:
		((uint16_t *)base)[i] = r >= 65535 ? 65535 : r > 0 ? (uint16_t)r : 0;
		break;
	default:
		((float *)base)[i] = v;
		break;
	}
}

#endif
