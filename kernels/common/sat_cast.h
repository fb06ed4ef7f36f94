/*
 * Float to element conversions as DALI's ConvertSat<Out>(float) does them on the CPU: integers
 * round half away from zero (std::round) and saturate to the type's range, NaN gives 0 for
 * 8- and 16-bit types and the lowest value of 32/64-bit ones (DALIC_NAN_TO_INT, x86's);
 * float16 rounds to nearest with ties away from zero (DALI's, unlike IEEE's ties to even); float
 * and double are plain conversions.
 *
 * The 8- and 16-bit cases are written without roundf and branches (clamp, truncate, add the
 * carry of the fraction) so the per-pixel loops that call them vectorise at -O2 on baseline
 * x86-64; the result equals roundf-then-clamp for every float.
 */
#ifndef DALIC_KERNELS_SAT_CAST_H
#define DALIC_KERNELS_SAT_CAST_H

#include "engine/dtype.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* v rounded half away from zero and clamped to [lo, hi] (integers with |lo|, |hi| < 2^23). */
static inline int32_t dalic_sat_round_small(float v, float lo, float hi)
{
	float c = v >= lo ? (v <= hi ? v : hi) : lo;
	c = v == v ? c : 0.0f; /* NaN */
	int32_t i = (int32_t)c;
	float f = c - (float)i;
	return i + (f >= 0.5f) - (f <= -0.5f);
}

static inline uint8_t dalic_sat_f2u8(float v)
{
	return (uint8_t)dalic_sat_round_small(v, 0.0f, 255.0f);
}
static inline int8_t dalic_sat_f2i8(float v)
{
	return (int8_t)dalic_sat_round_small(v, -128.0f, 127.0f);
}
static inline uint16_t dalic_sat_f2u16(float v)
{
	return (uint16_t)dalic_sat_round_small(v, 0.0f, 65535.0f);
}
static inline int16_t dalic_sat_f2i16(float v)
{
	return (int16_t)dalic_sat_round_small(v, -32768.0f, 32767.0f);
}

/* float to IEEE half as DALI's float16 conversion does it (engine/dtype.h). */
static inline uint16_t dalic_sat_f2half(float f)
{
	return dalic_dtype_float_to_half(f);
}

/* Wider integers: round, then compare in double (HI may round up to 2^31, 2^63, 2^64). */
#define DALIC_SAT_F2WIDE(CT, LO, HI, v)                                                            \
	((v) != (v) ? DALIC_NAN_TO_INT(CT, LO) : DALIC_SAT_FROM_F64(CT, LO, HI, (double)roundf(v)))

static inline int32_t dalic_sat_f2i32(float v)
{
	return DALIC_SAT_F2WIDE(int32_t, INT32_MIN, INT32_MAX, v);
}

/* Stores float v into element i of an array of type t (any numeric dtype). */
static inline void dalic_sat_store(dalic_dtype_t t, void *base, int64_t i, float v)
{
	switch (t) {
	case DALIC_UINT8:
		((uint8_t *)base)[i] = dalic_sat_f2u8(v);
		break;
	case DALIC_INT8:
		((int8_t *)base)[i] = dalic_sat_f2i8(v);
		break;
	case DALIC_UINT16:
		((uint16_t *)base)[i] = dalic_sat_f2u16(v);
		break;
	case DALIC_INT16:
		((int16_t *)base)[i] = dalic_sat_f2i16(v);
		break;
	case DALIC_INT32:
		((int32_t *)base)[i] = dalic_sat_f2i32(v);
		break;
	case DALIC_UINT32:
		((uint32_t *)base)[i] = DALIC_SAT_F2WIDE(uint32_t, 0, UINT32_MAX, v);
		break;
	case DALIC_INT64:
		((int64_t *)base)[i] = DALIC_SAT_F2WIDE(int64_t, INT64_MIN, INT64_MAX, v);
		break;
	case DALIC_UINT64:
		((uint64_t *)base)[i] = DALIC_SAT_F2WIDE(uint64_t, 0, UINT64_MAX, v);
		break;
	case DALIC_FLOAT16:
		((uint16_t *)base)[i] = dalic_sat_f2half(v);
		break;
	case DALIC_FLOAT:
		((float *)base)[i] = v;
		break;
	case DALIC_FLOAT64:
		((double *)base)[i] = v;
		break;
	case DALIC_BOOL:
		((uint8_t *)base)[i] = v != v || roundf(v) != 0; /* NaN is true */
		break;
	default:
		break;
	}
}

/* Element i of an array of numeric type t as a float (static_cast<float>). */
static inline float dalic_sat_load(dalic_dtype_t t, const void *base, int64_t i)
{
	switch (t) {
#define DALIC_SAT_LOAD(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                              \
	case DALIC_##ID:                                                                           \
		return (float)DALIC_DTYPE_VALUE(CLASS, ((const CT *)base)[i]);
		DALIC_DTYPES_NUMERIC(DALIC_SAT_LOAD)
#undef DALIC_SAT_LOAD
	default:
		return 0;
	}
}

/* n elements [at, at + n) of type t as floats, one typed loop per call (vectorisable). */
static inline void dalic_sat_load_n(dalic_dtype_t t, const void *base, int64_t at, int64_t n,
                                    float *out)
{
	switch (t) {
#define DALIC_SAT_LOAD_N(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                            \
	case DALIC_##ID:                                                                           \
		for (int64_t k = 0; k < n; k++)                                                    \
			out[k] = (float)DALIC_DTYPE_VALUE(CLASS, ((const CT *)base)[at + k]);      \
		break;
		DALIC_DTYPES_NUMERIC(DALIC_SAT_LOAD_N)
#undef DALIC_SAT_LOAD_N
	default:
		break;
	}
}

/* Stores n floats into elements [at, at + n) of type t with ConvertSat, one typed loop. */
static inline void dalic_sat_store_n(dalic_dtype_t t, void *base, int64_t at, const float *v,
                                     int64_t n)
{
#define DALIC_SAT_STORE_N(CT, CONVERT)                                                             \
	for (int64_t k = 0; k < n; k++)                                                            \
		((CT *)base)[at + k] = CONVERT(v[k]);                                              \
	break
#define DALIC_SAT_PLAIN(x) (x)
#define DALIC_SAT_U32(x) DALIC_SAT_F2WIDE(uint32_t, 0, UINT32_MAX, x)
#define DALIC_SAT_I64(x) DALIC_SAT_F2WIDE(int64_t, INT64_MIN, INT64_MAX, x)
#define DALIC_SAT_U64(x) DALIC_SAT_F2WIDE(uint64_t, 0, UINT64_MAX, x)
#define DALIC_SAT_BOOL(x) ((x) == (x) && roundf(x) != 0)
	switch (t) {
	case DALIC_UINT8:
		DALIC_SAT_STORE_N(uint8_t, dalic_sat_f2u8);
	case DALIC_INT8:
		DALIC_SAT_STORE_N(int8_t, dalic_sat_f2i8);
	case DALIC_UINT16:
		DALIC_SAT_STORE_N(uint16_t, dalic_sat_f2u16);
	case DALIC_INT16:
		DALIC_SAT_STORE_N(int16_t, dalic_sat_f2i16);
	case DALIC_UINT32:
		DALIC_SAT_STORE_N(uint32_t, DALIC_SAT_U32);
	case DALIC_INT32:
		DALIC_SAT_STORE_N(int32_t, dalic_sat_f2i32);
	case DALIC_UINT64:
		DALIC_SAT_STORE_N(uint64_t, DALIC_SAT_U64);
	case DALIC_INT64:
		DALIC_SAT_STORE_N(int64_t, DALIC_SAT_I64);
	case DALIC_FLOAT16:
		DALIC_SAT_STORE_N(uint16_t, dalic_sat_f2half);
	case DALIC_FLOAT:
		DALIC_SAT_STORE_N(float, DALIC_SAT_PLAIN);
	case DALIC_FLOAT64:
		DALIC_SAT_STORE_N(double, DALIC_SAT_PLAIN);
	case DALIC_BOOL:
		DALIC_SAT_STORE_N(uint8_t, DALIC_SAT_BOOL);
	default:
		break;
	}
#undef DALIC_SAT_STORE_N
}

#endif
