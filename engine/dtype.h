/*
 * Data types: DALI's numbering (include/dalic.h), names, classes, element conversion.
 *
 * One table describes every dtype; code that must do something per type expands it instead
 * of listing the types by hand:
 *
 *     #define X(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME) \
 *             case DALIC_##ID: return sum_of((const CT *)p, n);
 *     switch (t) { DALIC_DTYPES_NUMERIC(X) default: break; }
 *     #undef X
 */
#ifndef DALIC_ENGINE_DTYPE_H
#define DALIC_ENGINE_DTYPE_H

#include "dalic.h"
#include "kernels/common/half.h"

#include <float.h>
#include <stdint.h>
#include <string.h>

/*
 * The numeric dtypes, one row each: X(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)
 *   ID     DALIC_<ID>, and DALI's name of the type ("UINT8")
 *   NUM    DALI's number (frozen: it is serialized; dtype.c checks it against the enum)
 *   SHORT  the numpy name
 *   CT     the C type an element is stored as (float16: its IEEE half bits; bool: one byte)
 *   CLASS  UINT, SINT, FLOAT, HALF or BOOL: how stored bits read as a value
 *          (DALIC_DTYPE_VALUE) and the class predicates below
 *   LO/HI  the range of values
 *   NPY    the numpy array-interface descr (little endian)
 *   CNAME  the type's name in DALI's messages (its C++ type name)
 */
#define DALIC_DTYPES_NUMERIC(X)                                                                    \
	X(UINT8, 0, "uint8", uint8_t, UINT, 0, UINT8_MAX, "|u1", "uint8")                          \
	X(UINT16, 1, "uint16", uint16_t, UINT, 0, UINT16_MAX, "<u2", "uint16")                     \
	X(UINT32, 2, "uint32", uint32_t, UINT, 0, UINT32_MAX, "<u4", "uint32")                     \
	X(UINT64, 3, "uint64", uint64_t, UINT, 0, UINT64_MAX, "<u8", "uint64")                     \
	X(INT8, 4, "int8", int8_t, SINT, INT8_MIN, INT8_MAX, "|i1", "int8")                        \
	X(INT16, 5, "int16", int16_t, SINT, INT16_MIN, INT16_MAX, "<i2", "int16")                  \
	X(INT32, 6, "int32", int32_t, SINT, INT32_MIN, INT32_MAX, "<i4", "int32")                  \
	X(INT64, 7, "int64", int64_t, SINT, INT64_MIN, INT64_MAX, "<i8", "int64")                  \
	X(FLOAT16, 8, "float16", uint16_t, HALF, -65504.0, 65504.0, "<f2", "float16")              \
	X(FLOAT, 9, "float32", float, FLOAT, -FLT_MAX, FLT_MAX, "<f4", "float")                    \
	X(FLOAT64, 10, "float64", double, FLOAT, -DBL_MAX, DBL_MAX, "<f8", "double")               \
	X(BOOL, 11, "bool", uint8_t, BOOL, 0, 1, "|b1", "bool")

/* The other dtypes: X(ID, NUM, SHORT, SIZE, CNAME); SIZE in bytes, 0 where it varies. */
#define DALIC_DTYPES_OTHER(X)                                                                      \
	X(STRING, 12, "string", 0, "string")                                                       \
	X(IMAGE_TYPE, 20, "image_type", 4, "IMAGE_TYPE")                                           \
	X(DATA_TYPE, 21, "data_type", 4, "DATA_TYPE")                                              \
	X(INTERP_TYPE, 22, "interp_type", 4, "INTERP_TYPE")                                        \
	X(TENSOR_LAYOUT, 23, "tensor_layout", 0, "TENSOR_LAYOUT")

/* The value of a stored element `x` of class CLASS: float16 bits become a float, a bool
 * byte 0 or 1, anything else is itself. */
#define DALIC_DTYPE_VALUE(CLASS, x) DALIC_DTYPE_VALUE_##CLASS(x)
#define DALIC_DTYPE_VALUE_UINT(x) (x)
#define DALIC_DTYPE_VALUE_SINT(x) (x)
#define DALIC_DTYPE_VALUE_FLOAT(x) (x)
#define DALIC_DTYPE_VALUE_HALF(x) dalic_half_to_f32(x)
#define DALIC_DTYPE_VALUE_BOOL(x) ((x) != 0)

/* Class predicates, 0 or 1: DALIC_DTYPE_IS(FLOAT, CLASS). */
#define DALIC_DTYPE_IS(WHAT, CLASS) DALIC_DTYPE_IS_##WHAT##_##CLASS
#define DALIC_DTYPE_IS_FLOAT_UINT 0
#define DALIC_DTYPE_IS_FLOAT_SINT 0
#define DALIC_DTYPE_IS_FLOAT_FLOAT 1
#define DALIC_DTYPE_IS_FLOAT_HALF 1
#define DALIC_DTYPE_IS_FLOAT_BOOL 0
#define DALIC_DTYPE_IS_SIGNED_UINT 0
#define DALIC_DTYPE_IS_SIGNED_SINT 1
#define DALIC_DTYPE_IS_SIGNED_FLOAT 1
#define DALIC_DTYPE_IS_SIGNED_HALF 1
#define DALIC_DTYPE_IS_SIGNED_BOOL 0

/* Saturating conversions to an integer type CT of range [LO, HI] (the table's columns): from
 * an int64 v, and from a double r already rounded and not NaN (HI may round up to 2^63 or
 * 2^64 as a double, hence >=). */
#define DALIC_SAT_FROM_I64(CT, LO, HI, v)                                                          \
	((v) < 0 ? ((v) < (LO) ? (CT)(LO) : (CT)(v))                                               \
		 : (uint64_t)(v) > (uint64_t)(HI) ? (CT)(HI) : (CT)(v))
#define DALIC_SAT_FROM_F64(CT, LO, HI, r)                                                          \
	((r) <= (double)(LO) ? (CT)(LO) : (r) >= (double)(HI) ? (CT)(HI) : (CT)(r))
/* What DALI's ConvertSat gives for NaN on x86: its clamp lets NaN through to the conversion
 * instruction, whose "integer indefinite" result is the lowest value of 32- and 64-bit
 * integers (0x80...0); narrower types keep its low bits (0), uint32 the low half of the
 * 64-bit one (0). Measured on DALI 2.4 (docs/dali-differences.md lists none here). */
#define DALIC_NAN_TO_INT(CT, LO)                                                                   \
	(sizeof(CT) == 8 ? (CT)0x8000000000000000ull                                              \
	 : sizeof(CT) == 4 && (LO) < 0 ? (CT)0x80000000u                                          \
	                                : (CT)0)

/* Parses "FLOAT", "float32", "types.FLOAT", "DALIDataType.UINT8", "uint8"... -> NO_TYPE if
 * not a dtype name. */
dalic_dtype_t dalic_dtype_parse(const char *name);
/* numpy-style short name: "uint8", "float32", "bool" ... (used in .npy and expressions). */
const char *dalic_dtype_short(dalic_dtype_t t);
/* The numpy descr of a numeric dtype ("<f4"), NULL for the others. */
const char *dalic_dtype_npy_descr(dalic_dtype_t t);
/* The type's name in DALI's messages ("float", "double", "uint8", "string"). */
const char *dalic_dtype_cname(dalic_dtype_t t);
bool dalic_dtype_is_numeric(dalic_dtype_t t);
bool dalic_dtype_is_float(dalic_dtype_t t);
bool dalic_dtype_is_signed(dalic_dtype_t t);   /* signed integers and floats */
bool dalic_dtype_is_integral(dalic_dtype_t t); /* integers and bool */

/* Element i of a numeric array of type t, as double / int64 (exact for integers). */
double dalic_dtype_load_f64(dalic_dtype_t t, const void *base, int64_t i);
int64_t dalic_dtype_load_i64(dalic_dtype_t t, const void *base, int64_t i);
/* Stores v into element i converting like DALI's ConvertSat: floats to integers round half
 * away from zero and saturate; NaN becomes DALIC_NAN_TO_INT, and true as a bool. */
void dalic_dtype_store_sat(dalic_dtype_t t, void *base, int64_t i, double v);
void dalic_dtype_store_i64_sat(dalic_dtype_t t, void *base, int64_t i, int64_t v);

/* float16 -> float32 (exact). */
float dalic_dtype_half_to_float(uint16_t h);

/* float32 -> IEEE half as DALI's float16 conversion does it: to nearest, ties away from zero
 * (not IEEE's ties to even: 2049 gives 2050, measured on DALI 2.4); 65520 and up become
 * infinity, NaN stays NaN. Inline so the per-pixel loops that call it vectorise; the code is
 * kernels/common/half.h's, shared with the CUDA kernels. */
static inline uint16_t dalic_dtype_float_to_half(float f)
{
	return dalic_half_from_f32(f);
}

#endif
