/*
 * DALI's ConvertSat, value by value: the rules kernels/common/convert.c's vectorised loops
 * apply (so the CPU cast and every other converting operator use them) and the per-element
 * conversion the CUDA cast kernel runs (kernels/cuda/cast.cuh). One source: the rule macros.
 *
 * A value is first widened by its source type: floating types (float16 too) to double,
 * uint64 to uint64, the other integers and bool to int64. Then one rule per target class:
 *   from double: NaN is DALIC_NAN_TO_INT (what DALI's x86 build gives), else round half away
 *                from zero and saturate; to bool "nonzero after rounding" (NaN is true); to
 *                float16 through float32; to float32/64 a plain conversion
 *   from int64:  saturate; to bool v != 0; to floating a plain conversion
 *   from uint64: only the upper bound can bind
 * Each rule takes the wide value as `v` (an lvalue: the double rule rounds it in place).
 */
#ifndef DALIC_KERNELS_COMMON_CONVERT_ELEM_H
#define DALIC_KERNELS_COMMON_CONVERT_ELEM_H

#include "engine/dtype.h"
#include "kernels/common/half.h"
#include "kernels/cuda/cu_defs.h"

#include <math.h>

#define DALIC_CVT_F64_SAT(CT, LO, HI, v)                                                           \
	(isnan(v) ? DALIC_NAN_TO_INT(CT, LO)                                                       \
	          : ((v) = round(v), DALIC_SAT_FROM_F64(CT, LO, HI, (v))))
#define DALIC_CVT_F64_UINT(CT, LO, HI, v) DALIC_CVT_F64_SAT(CT, LO, HI, v)
#define DALIC_CVT_F64_SINT(CT, LO, HI, v) DALIC_CVT_F64_SAT(CT, LO, HI, v)
#define DALIC_CVT_F64_BOOL(CT, LO, HI, v) (isnan(v) || round(v) != 0) /* static_cast<bool> */
#define DALIC_CVT_F64_HALF(CT, LO, HI, v) dalic_half_from_f32((float)(v))
#define DALIC_CVT_F64_FLOAT(CT, LO, HI, v) (v)

#define DALIC_CVT_I64_UINT(CT, LO, HI, v) DALIC_SAT_FROM_I64(CT, LO, HI, v)
#define DALIC_CVT_I64_SINT(CT, LO, HI, v) DALIC_SAT_FROM_I64(CT, LO, HI, v)
#define DALIC_CVT_I64_BOOL(CT, LO, HI, v) ((v) != 0)
#define DALIC_CVT_I64_HALF(CT, LO, HI, v) dalic_half_from_f32((float)(v))
#define DALIC_CVT_I64_FLOAT(CT, LO, HI, v) (v)

#define DALIC_CVT_U64_UINT(CT, LO, HI, v) ((v) > (uint64_t)(HI) ? (CT)(HI) : (CT)(v))
#define DALIC_CVT_U64_SINT(CT, LO, HI, v) DALIC_CVT_U64_UINT(CT, LO, HI, v)
#define DALIC_CVT_U64_BOOL(CT, LO, HI, v) ((v) != 0)
#define DALIC_CVT_U64_HALF(CT, LO, HI, v) dalic_half_from_f32((float)(v))
#define DALIC_CVT_U64_FLOAT(CT, LO, HI, v) (v)

/* Element k of dst (type `to`) from a wide value, by the rules above. */
DALIC_HD void dalic_cvt_store_f64(int to, void *dst, int64_t k, double v)
{
	switch (to) {
#define DALIC_CVT_CASE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                              \
	case DALIC_##ID:                                                                           \
		((CT *)dst)[k] = (CT)(DALIC_CVT_F64_##CLASS(CT, LO, HI, v));                       \
		break;
		DALIC_DTYPES_NUMERIC(DALIC_CVT_CASE)
#undef DALIC_CVT_CASE
	default:
		break;
	}
}

DALIC_HD void dalic_cvt_store_i64(int to, void *dst, int64_t k, int64_t v)
{
	switch (to) {
#define DALIC_CVT_CASE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                              \
	case DALIC_##ID:                                                                           \
		((CT *)dst)[k] = (CT)(DALIC_CVT_I64_##CLASS(CT, LO, HI, v));                       \
		break;
		DALIC_DTYPES_NUMERIC(DALIC_CVT_CASE)
#undef DALIC_CVT_CASE
	default:
		break;
	}
}

DALIC_HD void dalic_cvt_store_u64(int to, void *dst, int64_t k, uint64_t v)
{
	switch (to) {
#define DALIC_CVT_CASE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                              \
	case DALIC_##ID:                                                                           \
		((CT *)dst)[k] = (CT)(DALIC_CVT_U64_##CLASS(CT, LO, HI, v));                       \
		break;
		DALIC_DTYPES_NUMERIC(DALIC_CVT_CASE)
#undef DALIC_CVT_CASE
	default:
		break;
	}
}

/* dst[k] (type `to`) = ConvertSat(src[k] (type `from`)); the same type copies the bits. */
DALIC_HD void dalic_convert_elem(int to, void *dst, int from, const void *src, int64_t k)
{
	switch (from) {
#define DALIC_CVT_CASE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                              \
	case DALIC_##ID:                                                                           \
		if (to == from)                                                                    \
			((CT *)dst)[k] = ((const CT *)src)[k];                                     \
		else if (DALIC_DTYPE_IS(FLOAT, CLASS))                                             \
			dalic_cvt_store_f64(                                                       \
			    to, dst, k, (double)DALIC_DTYPE_VALUE(CLASS, ((const CT *)src)[k]));   \
		else if (DALIC_##ID == DALIC_UINT64)                                               \
			dalic_cvt_store_u64(to, dst, k, (uint64_t)((const CT *)src)[k]);           \
		else                                                                               \
			dalic_cvt_store_i64(                                                       \
			    to, dst, k, (int64_t)DALIC_DTYPE_VALUE(CLASS, ((const CT *)src)[k]));  \
		break;
		DALIC_DTYPES_NUMERIC(DALIC_CVT_CASE)
#undef DALIC_CVT_CASE
	default:
		break;
	}
}

#endif
