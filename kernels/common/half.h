/*
 * IEEE half <-> float32 as dalic (and DALI) convert them, in one place for the CPU
 * (engine/dtype.h's dalic_dtype_float_to_half / dalic_dtype_half_to_float wrap these) and the
 * CUDA kernels (DALIC_HD: host and device). float32 -> half rounds to nearest with ties away
 * from zero (not IEEE's ties to even: 2049 gives 2050, measured on DALI 2.4); 65520 and up
 * become infinity, NaN stays NaN. half -> float32 is exact.
 */
#ifndef DALIC_KERNELS_COMMON_HALF_H
#define DALIC_KERNELS_COMMON_HALF_H

#include "kernels/cuda/cu_defs.h"

#include <stdint.h>
#include <string.h>

DALIC_HD uint16_t dalic_half_from_f32(float f)
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
	half += (man & 0x1fff) >= 0x1000; /* a carry into the exponent is still right */
	return (uint16_t)(sign | (half > 0x7c00 ? 0x7c00 : half));
}

DALIC_HD float dalic_half_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff, bits;
	if (exp == 0) {
		if (man == 0) {
			bits = sign;
		} else { /* subnormal: normalise */
			exp = 127 - 15 + 1;
			while (!(man & 0x400)) {
				man <<= 1;
				exp--;
			}
			man &= 0x3ff;
			bits = sign | exp << 23 | man << 13;
		}
	} else if (exp == 31) {
		bits = sign | 0x7f800000 | man << 13;
	} else {
		bits = sign | (exp + 127 - 15) << 23 | man << 13;
	}
	float f;
	memcpy(&f, &bits, 4);
	return f;
}

#endif
