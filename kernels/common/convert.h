/*
 * Element conversion with DALI's ConvertSat (include/dali/core/convert.h), for cast, cast_like
 * and any operator that writes another type than it reads: floating point to integer rounds
 * half away from zero and saturates; integer narrowing saturates; anything to bool is "nonzero
 * after rounding" (NaN is true); to floating point is a plain conversion; NaN to an integer is
 * what DALI's x86 build gives (DALIC_NAN_TO_INT: 0, or 0x80...0 for 32/64-bit types).
 */
#ifndef DALIC_KERNELS_CONVERT_H
#define DALIC_KERNELS_CONVERT_H

#include "dalic.h"

#include <stdint.h>

/* Converts n elements of type `from` at src into type `to` at dst (numeric types only; the
 * same type is a copy). src and dst must not overlap. */
void dalic_convert(dalic_dtype_t to, void *dst, dalic_dtype_t from, const void *src, int64_t n);

#endif
