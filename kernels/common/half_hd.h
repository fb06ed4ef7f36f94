/*
 * float16 conversions for code that runs on both the CPU and the GPU (DALIC_HD): the same rules
 * as engine/dtype.h's dalic_dtype_half_to_float and dalic_dtype_float_to_half (test_cuda_arith
 * compares them for every half and a sweep of floats), which the host-only engine keeps.
 */
#ifndef DALIC_KERNELS_COMMON_HALF_HD_H
#define DALIC_KERNELS_COMMON_HALF_HD_H

#include "kernels/cuda/cu_defs.h"

#include <stdint.h>
#include <string.h>

DALIC_HD float dalic_hd_half_to_float(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff, bits;
	if (exp == 0 && man == 0) {
		bits = sign;
	} else if (exp == 0) { /* subnormal: normalise */
		exp = 127 - 15 + 1;
		while (!(man & 0x400)) {
			man <<= 1;
			exp--;
		}
		bits = sign | exp << 23 | (man & 0x3ff) << 13;
	} else if (exp == 31) {
		bits = sign | 0x7f800000 | man << 13;
	} else {
		bits = sign | (exp + 127 - 15) << 23 | man << 13;
	}
	float f;
	memcpy(&f, &bits, 4);
	return f;
}

/* To nearest, ties away from zero (DALI's float16), 65520 and up to infinity. */
DALIC_HD uint16_t dalic_hd_float_to_half(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000, man = x & 0x7fffff;
	int32_t exp = (int32_t)((x >> 23) & 0xff) - 127 + 15;
	if (((x >> 23) & 0xff) == 0xff)
		return (uint16_t)(sign | 0x7c00 | (man ? 0x200 : 0));
	if (exp >= 31)
		return (uint16_t)(sign | 0x7c00);
	if (exp <= 0) {
		if (exp < -10)
			return (uint16_t)sign;
		man |= 0x800000;
		uint32_t shift = (uint32_t)(14 - exp);
		uint32_t half = man >> shift, rem = man & ((1u << shift) - 1);
		return (uint16_t)(sign | (half + (rem >= 1u << (shift - 1))));
	}
	uint32_t half = (uint32_t)exp << 10 | man >> 13;
	half += (man & 0x1fff) >= 0x1000;
	return (uint16_t)(sign | (half > 0x7c00 ? 0x7c00 : half));
}

#endif
