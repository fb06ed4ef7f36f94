/*
 * ArithmeticGenericOp's per-element arithmetic, shared by the CPU tile loops (arith_ops.c,
 * arith_eval.c) and the CUDA kernel (kernels/cuda/arith.cuh), so both compute every value by
 * the same rule: the operations in each lane, the wrap of integer results to their dtype,
 * float16 rounding and the loads and stores of every element type.
 *
 * The CPU calls these with a constant `op` inside one loop per operation; they are forced
 * inline there so the switch folds away and the loops still vectorize. On the device the four
 * basic float operations use the _rn intrinsics: nvcc would otherwise contract a multiply of
 * one node and an add of the next into an FMA, which the CPU never does.
 *
 * What cannot be one source: the device's libm (sinf, expf, powf, ...) is not glibc's, and
 * rsqrt is the processor's estimate plus a Newton step on the CPU (as DALI's CPU kernel) but
 * CUDA's rsqrtf on the device; docs/gpu.md states the tolerance `make test-gpu` allows there.
 */
#ifndef DALIC_KERNELS_COMMON_ARITH_ELEM_H
#define DALIC_KERNELS_COMMON_ARITH_ELEM_H

#include "kernels/common/arith_expr.h"
#include "kernels/common/half.h"
#include "kernels/cuda/cu_defs.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>
#if !defined(__CUDA_ARCH__) && defined(__SSE__)
#include <xmmintrin.h>
#endif

#if defined(__CUDACC__) || !defined(__GNUC__)
#define DALIC_ARITH_HD DALIC_HD
#else
#define DALIC_ARITH_HD DALIC_HD __attribute__((always_inline))
#endif

/* One value in its lane (arith_expr.h). */
typedef union dalic_arith_val {
	int64_t i;
	float f;
	double d;
} dalic_arith_val_t;

DALIC_ARITH_HD arith_lane_t dalic_arith_lane_of(dalic_dtype_t t)
{
	if (t == DALIC_FLOAT16 || t == DALIC_FLOAT)
		return ARITH_LANE_F32;
	return t == DALIC_FLOAT64 ? ARITH_LANE_F64 : ARITH_LANE_I64;
}

DALIC_ARITH_HD bool dalic_arith_unsigned(dalic_dtype_t t)
{
	return t == DALIC_UINT8 || t == DALIC_UINT16 || t == DALIC_UINT32 || t == DALIC_UINT64 ||
	       t == DALIC_BOOL;
}

DALIC_ARITH_HD bool dalic_arith_is_cmp(arith_op_t op)
{
	return op >= ARITH_EQ && op <= ARITH_GEQ;
}

DALIC_ARITH_HD float dalic_arith_round_half(float x)
{
	return dalic_half_to_f32(dalic_half_from_f32(x));
}

/* ---- floating-point operations ---- */

DALIC_ARITH_HD float dalic_arith_rsqrt_f32(float x)
{
#if defined(__CUDA_ARCH__)
	return rsqrtf(x);
#elif defined(__SSE__)
	float y = _mm_cvtss_f32(_mm_rsqrt_ss(_mm_set_ss(x)));
	return y * (1.5f - x * 0.5f * y * y);
#else
	float x2 = x * 0.5f, y = x;
	int32_t i;
	memcpy(&i, &y, sizeof i);
	i = 0x5F375A86 - (i >> 1);
	memcpy(&y, &i, sizeof y);
	y = y * (1.5f - (x2 * y * y));
	return y * (1.5f - (x2 * y * y));
#endif
}

DALIC_ARITH_HD double dalic_arith_rsqrt_f64(double x)
{
	return 1 / sqrt(x);
}

/*
 * One function per lane and arity. F(fn) names the float or double libm function, T the
 * lane type; ADD..DIV are the four basic operations (intrinsics on the device).
 */
#ifdef __CUDA_ARCH__
#define DALIC_ARITH_ADD32(a, b) __fadd_rn(a, b)
#define DALIC_ARITH_SUB32(a, b) __fsub_rn(a, b)
#define DALIC_ARITH_MUL32(a, b) __fmul_rn(a, b)
#define DALIC_ARITH_DIV32(a, b) __fdiv_rn(a, b)
#define DALIC_ARITH_ADD64(a, b) __dadd_rn(a, b)
#define DALIC_ARITH_SUB64(a, b) __dsub_rn(a, b)
#define DALIC_ARITH_MUL64(a, b) __dmul_rn(a, b)
#define DALIC_ARITH_DIV64(a, b) __ddiv_rn(a, b)
#else
#define DALIC_ARITH_ADD32(a, b) ((a) + (b))
#define DALIC_ARITH_SUB32(a, b) ((a) - (b))
#define DALIC_ARITH_MUL32(a, b) ((a) * (b))
#define DALIC_ARITH_DIV32(a, b) ((a) / (b))
#define DALIC_ARITH_ADD64(a, b) ((a) + (b))
#define DALIC_ARITH_SUB64(a, b) ((a) - (b))
#define DALIC_ARITH_MUL64(a, b) ((a) * (b))
#define DALIC_ARITH_DIV64(a, b) ((a) / (b))
#endif

#define DALIC_ARITH_FLOAT_ELEM(T, SFX, BITS, F)                                                    \
	DALIC_ARITH_HD T dalic_arith_un_##SFX(arith_op_t op, T a)                                  \
	{                                                                                          \
		switch (op) {                                                                      \
		case ARITH_PLUS:                                                                   \
			return a;                                                                  \
		case ARITH_MINUS:                                                                  \
			return -a;                                                                 \
		case ARITH_ABS:                                                                    \
		case ARITH_FABS:                                                                   \
			return F(fabs)(a);                                                         \
		case ARITH_FLOOR:                                                                  \
			return F(floor)(a);                                                        \
		case ARITH_CEIL:                                                                   \
			return F(ceil)(a);                                                         \
		case ARITH_SQRT:                                                                   \
			return F(sqrt)(a);                                                         \
		case ARITH_RSQRT:                                                                  \
			return dalic_arith_rsqrt_##SFX(a);                                         \
		case ARITH_CBRT:                                                                   \
			return F(cbrt)(a);                                                         \
		case ARITH_EXP:                                                                    \
			return F(exp)(a);                                                          \
		case ARITH_LOG:                                                                    \
			return F(log)(a);                                                          \
		case ARITH_LOG2:                                                                   \
			return F(log2)(a);                                                         \
		case ARITH_LOG10:                                                                  \
			return F(log10)(a);                                                        \
		case ARITH_SIN:                                                                    \
			return F(sin)(a);                                                          \
		case ARITH_COS:                                                                    \
			return F(cos)(a);                                                          \
		case ARITH_TAN:                                                                    \
			return F(tan)(a);                                                          \
		case ARITH_ASIN:                                                                   \
			return F(asin)(a);                                                         \
		case ARITH_ACOS:                                                                   \
			return F(acos)(a);                                                         \
		case ARITH_ATAN:                                                                   \
			return F(atan)(a);                                                         \
		case ARITH_SINH:                                                                   \
			return F(sinh)(a);                                                         \
		case ARITH_COSH:                                                                   \
			return F(cosh)(a);                                                         \
		case ARITH_TANH:                                                                   \
			return F(tanh)(a);                                                         \
		case ARITH_ASINH:                                                                  \
			return F(asinh)(a);                                                        \
		case ARITH_ACOSH:                                                                  \
			return F(acosh)(a);                                                        \
		case ARITH_ATANH:                                                                  \
			return F(atanh)(a);                                                        \
		default:                                                                           \
			return a;                                                                  \
		}                                                                                  \
	}                                                                                          \
	DALIC_ARITH_HD T dalic_arith_bin_##SFX(arith_op_t op, T a, T b)                            \
	{                                                                                          \
		switch (op) {                                                                      \
		case ARITH_ADD:                                                                    \
			return DALIC_ARITH_ADD##BITS(a, b);                                        \
		case ARITH_SUB:                                                                    \
			return DALIC_ARITH_SUB##BITS(a, b);                                        \
		case ARITH_MUL:                                                                    \
			return DALIC_ARITH_MUL##BITS(a, b);                                        \
		case ARITH_DIV:                                                                    \
		case ARITH_FDIV:                                                                   \
			return DALIC_ARITH_DIV##BITS(a, b);                                        \
		case ARITH_MOD:                                                                    \
			return F(remainder)(a, b);                                                 \
		case ARITH_MIN:                                                                    \
			return a < b ? a : b;                                                      \
		case ARITH_MAX:                                                                    \
			return a > b ? a : b;                                                      \
		case ARITH_POW:                                                                    \
		case ARITH_FPOW:                                                                   \
			return F(pow)(a, b);                                                       \
		case ARITH_ATAN2:                                                                  \
			return F(atan2)(a, b);                                                     \
		default:                                                                           \
			return a;                                                                  \
		}                                                                                  \
	}                                                                                          \
	/* DALI's clamp: raise to lo first, then cap at hi */                                      \
	DALIC_ARITH_HD T dalic_arith_clamp_##SFX(T a, T lo, T hi)                                  \
	{                                                                                          \
		T x = a < lo ? lo : a;                                                             \
		return x > hi ? hi : x;                                                            \
	}                                                                                          \
	DALIC_ARITH_HD int64_t dalic_arith_cmp_##SFX(arith_op_t op, T a, T b)                      \
	{                                                                                          \
		switch (op) {                                                                      \
		case ARITH_EQ:                                                                     \
			return a == b;                                                             \
		case ARITH_NEQ:                                                                    \
			return a != b;                                                             \
		case ARITH_LT:                                                                     \
			return a < b;                                                              \
		case ARITH_LEQ:                                                                    \
			return a <= b;                                                             \
		case ARITH_GT:                                                                     \
			return a > b;                                                              \
		case ARITH_GEQ:                                                                    \
			return a >= b;                                                             \
		default:                                                                           \
			return 0;                                                                  \
		}                                                                                  \
	}

#define DALIC_ARITH_F32NAME(fn) fn##f
#define DALIC_ARITH_F64NAME(fn) fn
DALIC_ARITH_FLOAT_ELEM(float, f32, 32, DALIC_ARITH_F32NAME)
DALIC_ARITH_FLOAT_ELEM(double, f64, 64, DALIC_ARITH_F64NAME)

/* ---- integer operations on the int64 lane; `u` selects unsigned semantics ---- */

DALIC_ARITH_HD int64_t dalic_arith_ipow(bool u, int64_t a, int64_t b)
{
	if (!u && b < 0)
		return 0; /* DALI's ipow */
	uint64_t acc = 1, p = (uint64_t)a, y = (uint64_t)b;
	for (; y > 0; y >>= 1) {
		if (y & 1)
			acc *= p;
		p *= p;
	}
	return (int64_t)acc;
}

DALIC_ARITH_HD int64_t dalic_arith_un_i64(arith_op_t op, bool u, int64_t a)
{
	uint64_t x = (uint64_t)a; /* as uint64, so overflow wraps instead of being undefined */
	switch (op) {
	case ARITH_MINUS:
		return (int64_t)(0 - x);
	case ARITH_ABS:
		return (int64_t)(!u && a < 0 ? 0 - x : x);
	default: /* plus */
		return a;
	}
}

/* Division and modulo need b != 0 (the callers report a zero first). */
DALIC_ARITH_HD int64_t dalic_arith_bin_i64(arith_op_t op, bool u, int64_t a, int64_t b)
{
	uint64_t x = (uint64_t)a, y = (uint64_t)b;
	switch (op) {
	case ARITH_ADD:
		return (int64_t)(x + y);
	case ARITH_SUB:
		return (int64_t)(x - y);
	case ARITH_MUL:
		return (int64_t)(x * y);
	case ARITH_BITAND:
		return (int64_t)(x & y);
	case ARITH_BITOR:
		return (int64_t)(x | y);
	case ARITH_BITXOR:
		return (int64_t)(x ^ y);
	case ARITH_DIV:
	case ARITH_MOD: {
		bool div = op == ARITH_DIV;
		if (b == 0)
			return 0;
		if (u)
			return (int64_t)(div ? x / y : x % y);
		if (b == -1) /* INT64_MIN / -1 overflows in C; wrap like the rest */
			return div ? (int64_t)(0 - x) : 0;
		return div ? a / b : a % b;
	}
	case ARITH_MIN:
		return (u ? x < y : a < b) ? a : b;
	case ARITH_MAX:
		return (u ? x > y : a > b) ? a : b;
	case ARITH_POW:
		return dalic_arith_ipow(u, a, b);
	default:
		return a;
	}
}

DALIC_ARITH_HD int64_t dalic_arith_clamp_i64(bool u, int64_t a, int64_t lo, int64_t hi)
{
	if (u ? (uint64_t)a < (uint64_t)lo : a < lo)
		a = lo;
	return (u ? (uint64_t)a > (uint64_t)hi : a > hi) ? hi : a;
}

/* Integer comparison by DALI's safe_compare: a negative signed value compared with a uint64
 * is never converted to unsigned. */
DALIC_ARITH_HD int64_t dalic_arith_cmp_i64(arith_op_t op, arith_cmp_t cmp, int64_t x, int64_t y)
{
	/* s_u64: x < 0 <= y; u64_s: y < 0 <= x */
	bool neg = (cmp == ARITH_CMP_S_U64 && x < 0) || (cmp == ARITH_CMP_U64_S && y < 0);
	if (neg) {
		bool less = cmp == ARITH_CMP_S_U64; /* the negative side is the smaller one */
		switch (op) {
		case ARITH_EQ:
			return 0;
		case ARITH_NEQ:
			return 1;
		case ARITH_LT:
		case ARITH_LEQ:
			return less;
		default:
			return !less;
		}
	}
	bool u = cmp != ARITH_CMP_SIGNED;
	uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
	switch (op) {
	case ARITH_EQ:
		return x == y;
	case ARITH_NEQ:
		return x != y;
	case ARITH_LT:
		return u ? ux < uy : x < y;
	case ARITH_LEQ:
		return u ? ux <= uy : x <= y;
	case ARITH_GT:
		return u ? ux > uy : x > y;
	default:
		return u ? ux >= uy : x >= y;
	}
}

/* An int64-lane value wrapped to integral dtype t (a static_cast to t). */
DALIC_ARITH_HD int64_t dalic_arith_wrap(dalic_dtype_t t, int64_t v)
{
	switch (t) {
	case DALIC_UINT8:
		return (uint8_t)v;
	case DALIC_UINT16:
		return (uint16_t)v;
	case DALIC_UINT32:
		return (uint32_t)v;
	case DALIC_INT8:
		return (int8_t)v;
	case DALIC_INT16:
		return (int16_t)v;
	case DALIC_INT32:
		return (int32_t)v;
	case DALIC_BOOL:
		return v != 0;
	default:
		return v;
	}
}

/* ---- loads, conversions and stores of one element ---- */

/* Element `i` of an array of dtype t, in t's own lane (uint64 keeps its bits, a bool byte
 * reads 0 or 1, float16 becomes its float). */
DALIC_ARITH_HD dalic_arith_val_t dalic_arith_load(dalic_dtype_t t, const void *base, int64_t i)
{
	dalic_arith_val_t v;
	v.i = 0;
	switch (t) {
	case DALIC_UINT8:
		v.i = ((const uint8_t *)base)[i];
		break;
	case DALIC_UINT16:
		v.i = ((const uint16_t *)base)[i];
		break;
	case DALIC_UINT32:
		v.i = ((const uint32_t *)base)[i];
		break;
	case DALIC_UINT64:
		v.i = (int64_t)((const uint64_t *)base)[i];
		break;
	case DALIC_INT8:
		v.i = ((const int8_t *)base)[i];
		break;
	case DALIC_INT16:
		v.i = ((const int16_t *)base)[i];
		break;
	case DALIC_INT32:
		v.i = ((const int32_t *)base)[i];
		break;
	case DALIC_INT64:
		v.i = ((const int64_t *)base)[i];
		break;
	case DALIC_BOOL:
		v.i = ((const uint8_t *)base)[i] != 0;
		break;
	case DALIC_FLOAT16:
		v.f = dalic_half_to_f32(((const uint16_t *)base)[i]);
		break;
	case DALIC_FLOAT:
		v.f = ((const float *)base)[i];
		break;
	default:
		v.d = ((const double *)base)[i];
		break;
	}
	return v;
}

/* A value of dtype `from` as dtype `to` (DALI's static_cast before every operation); float16
 * targets round to half. */
DALIC_ARITH_HD dalic_arith_val_t dalic_arith_convert(dalic_arith_val_t v, dalic_dtype_t from,
                                                     dalic_dtype_t to)
{
	arith_lane_t lf = dalic_arith_lane_of(from), lt = dalic_arith_lane_of(to);
	bool u64 = from == DALIC_UINT64;
	dalic_arith_val_t r = v;
	if (lf == ARITH_LANE_I64 && lt == ARITH_LANE_F32)
		r.f = u64 ? (float)(uint64_t)v.i : (float)v.i;
	else if (lf == ARITH_LANE_I64 && lt == ARITH_LANE_F64)
		r.d = u64 ? (double)(uint64_t)v.i : (double)v.i;
	else if (lf == ARITH_LANE_F32 && lt == ARITH_LANE_F64)
		r.d = (double)v.f;
	else if (lf == ARITH_LANE_F64 && lt == ARITH_LANE_F32)
		r.f = (float)v.d;
	else if (lf == ARITH_LANE_F32 && lt == ARITH_LANE_I64)
		r.i = (int64_t)v.f;
	else if (lf == ARITH_LANE_F64 && lt == ARITH_LANE_I64)
		r.i = (int64_t)v.d;
	if (to == DALIC_FLOAT16 && from != DALIC_FLOAT16)
		r.f = dalic_arith_round_half(r.f);
	return r;
}

/* Writes a value of dtype t (already normalized to t) as element i of an array of t. */
DALIC_ARITH_HD void dalic_arith_store(dalic_dtype_t t, void *base, int64_t i, dalic_arith_val_t v)
{
	switch (t) {
	case DALIC_UINT8:
	case DALIC_BOOL:
		((uint8_t *)base)[i] = (uint8_t)v.i;
		break;
	case DALIC_UINT16:
		((uint16_t *)base)[i] = (uint16_t)v.i;
		break;
	case DALIC_UINT32:
		((uint32_t *)base)[i] = (uint32_t)v.i;
		break;
	case DALIC_UINT64:
		((uint64_t *)base)[i] = (uint64_t)v.i;
		break;
	case DALIC_INT8:
		((int8_t *)base)[i] = (int8_t)v.i;
		break;
	case DALIC_INT16:
		((int16_t *)base)[i] = (int16_t)v.i;
		break;
	case DALIC_INT32:
		((int32_t *)base)[i] = (int32_t)v.i;
		break;
	case DALIC_INT64:
		((int64_t *)base)[i] = v.i;
		break;
	case DALIC_FLOAT16:
		((uint16_t *)base)[i] = dalic_half_from_f32(v.f);
		break;
	case DALIC_FLOAT:
		((float *)base)[i] = v.f;
		break;
	default:
		((double *)base)[i] = v.d;
		break;
	}
}

/*
 * Function node n on operands already converted to n->compute: the result in n->dtype's lane,
 * normalized to n->dtype (float16 rounded, integers wrapped). *zero is set on an integer
 * division or modulo by zero.
 */
DALIC_ARITH_HD dalic_arith_val_t dalic_arith_node(const arith_node_t *n, const dalic_arith_val_t *v,
                                                  bool *zero)
{
	dalic_arith_val_t r;
	r.i = 0;
	arith_op_t op = n->op;
	int na = n->num_args;
	switch (dalic_arith_lane_of(n->compute)) {
	case ARITH_LANE_F32:
		if (dalic_arith_is_cmp(op))
			r.i = dalic_arith_cmp_f32(op, v[0].f, v[1].f);
		else if (op == ARITH_CLAMP)
			r.f = dalic_arith_clamp_f32(v[0].f, v[1].f, v[2].f);
		else
			r.f = na == 1 ? dalic_arith_un_f32(op, v[0].f)
			              : dalic_arith_bin_f32(op, v[0].f, v[1].f);
		break;
	case ARITH_LANE_F64:
		if (dalic_arith_is_cmp(op))
			r.i = dalic_arith_cmp_f64(op, v[0].d, v[1].d);
		else if (op == ARITH_CLAMP)
			r.d = dalic_arith_clamp_f64(v[0].d, v[1].d, v[2].d);
		else
			r.d = na == 1 ? dalic_arith_un_f64(op, v[0].d)
			              : dalic_arith_bin_f64(op, v[0].d, v[1].d);
		break;
	default: {
		bool u = dalic_arith_unsigned(n->compute);
		if (dalic_arith_is_cmp(op))
			r.i = dalic_arith_cmp_i64(op, n->cmp, v[0].i, v[1].i);
		else if (op == ARITH_CLAMP)
			r.i = dalic_arith_clamp_i64(u, v[0].i, v[1].i, v[2].i);
		else if (na == 1)
			r.i = dalic_arith_un_i64(op, u, v[0].i);
		else {
			if ((op == ARITH_DIV || op == ARITH_MOD) && v[1].i == 0)
				*zero = true;
			r.i = dalic_arith_bin_i64(op, u, v[0].i, v[1].i);
		}
		break;
	}
	}
	if (n->dtype == DALIC_FLOAT16)
		r.f = dalic_arith_round_half(r.f);
	else if (dalic_arith_lane_of(n->dtype) == ARITH_LANE_I64)
		r.i = dalic_arith_wrap(n->dtype, r.i);
	return r;
}

#endif
