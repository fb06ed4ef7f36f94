/*
 * ArithmeticGenericOp: the operations themselves, one tight loop per operation and lane
 * (arith_expr.h). Operands arrive already converted to the node's compute type.
 *
 * Semantics follow DALI's arithm_meta: integer arithmetic wraps (computed in 64 bits, then
 * truncated by dalic_arith_normalize, which is the same modulo 2^n); `div` truncates toward zero;
 * integer `mod` is C's %; floating `div` is true division and floating `mod` is IEEE
 * remainder() (std::remainder in DALI); integer `pow` with a negative exponent is 0 (DALI's
 * ipow); `clamp` raises to lo first, then caps at hi; comparisons between a signed integer and
 * a uint64 are exact (DALI's safe_compare). Integer division or modulo by zero is reported
 * instead of trapping.
 */
#include "kernels/common/arith_expr.h"

#include "engine/dtype.h"

#include <math.h>
#include <string.h>
#ifdef __SSE__
#include <xmmintrin.h>
#endif

/* These loops are the operator's hot path. At -O2 GCC only vectorizes loops whose trip count
 * is known to fit the vector width, which a tile's length is not; ask for the usual cost
 * model here (the results are the same, only faster). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif

/* DALI's CPU rsqrt for float (dali/core/math_util.h): the processor's rsqrtss estimate and
 * one Newton step, so 0 gives NaN (0 * inf) and the low bits follow the processor's estimate;
 * without SSE, the bit trick with two steps. Double is 1 / sqrt. */
static inline float arith_rsqrt_f32(float x)
{
#ifdef __SSE__
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

static inline double arith_rsqrt_f64(double x)
{
	return 1 / sqrt(x);
}

/* ---- floating-point operations, once for float (F(x) = xf) and once for double ---- */

#define F32(fn) fn##f
#define F64(fn) fn
#define arith_rsqrtf arith_rsqrt_f32
#define arith_rsqrt arith_rsqrt_f64
#define LOOP(expr)                                                                                 \
	for (int k = 0; k < n; k++)                                                                \
		r[k] = (expr);                                                                     \
	break

#define FLOAT_OPS(T, F, NAME)                                                                      \
	static void NAME(arith_op_t op, const T *const *v, void *out, int n)                       \
	{                                                                                          \
		const T *a = v[0], *b = v[1], *c = v[2];                                           \
		T *r = out;                                                                        \
		int64_t *q = out; /* comparisons produce bools in the integer lane */              \
		switch (op) {                                                                      \
		case ARITH_PLUS:                                                                   \
			LOOP(a[k]);                                                                \
		case ARITH_MINUS:                                                                  \
			LOOP(-a[k]);                                                               \
		case ARITH_ABS:                                                                    \
		case ARITH_FABS:                                                                   \
			LOOP(F(fabs)(a[k]));                                                       \
		case ARITH_FLOOR:                                                                  \
			LOOP(F(floor)(a[k]));                                                      \
		case ARITH_CEIL:                                                                   \
			LOOP(F(ceil)(a[k]));                                                       \
		case ARITH_SQRT:                                                                   \
			LOOP(F(sqrt)(a[k]));                                                       \
		case ARITH_RSQRT:                                                                  \
			LOOP(F(arith_rsqrt)(a[k]));                                                \
		case ARITH_CBRT:                                                                   \
			LOOP(F(cbrt)(a[k]));                                                       \
		case ARITH_EXP:                                                                    \
			LOOP(F(exp)(a[k]));                                                        \
		case ARITH_LOG:                                                                    \
			LOOP(F(log)(a[k]));                                                        \
		case ARITH_LOG2:                                                                   \
			LOOP(F(log2)(a[k]));                                                       \
		case ARITH_LOG10:                                                                  \
			LOOP(F(log10)(a[k]));                                                      \
		case ARITH_SIN:                                                                    \
			LOOP(F(sin)(a[k]));                                                        \
		case ARITH_COS:                                                                    \
			LOOP(F(cos)(a[k]));                                                        \
		case ARITH_TAN:                                                                    \
			LOOP(F(tan)(a[k]));                                                        \
		case ARITH_ASIN:                                                                   \
			LOOP(F(asin)(a[k]));                                                       \
		case ARITH_ACOS:                                                                   \
			LOOP(F(acos)(a[k]));                                                       \
		case ARITH_ATAN:                                                                   \
			LOOP(F(atan)(a[k]));                                                       \
		case ARITH_SINH:                                                                   \
			LOOP(F(sinh)(a[k]));                                                       \
		case ARITH_COSH:                                                                   \
			LOOP(F(cosh)(a[k]));                                                       \
		case ARITH_TANH:                                                                   \
			LOOP(F(tanh)(a[k]));                                                       \
		case ARITH_ASINH:                                                                  \
			LOOP(F(asinh)(a[k]));                                                      \
		case ARITH_ACOSH:                                                                  \
			LOOP(F(acosh)(a[k]));                                                      \
		case ARITH_ATANH:                                                                  \
			LOOP(F(atanh)(a[k]));                                                      \
		case ARITH_ADD:                                                                    \
			LOOP(a[k] + b[k]);                                                         \
		case ARITH_SUB:                                                                    \
			LOOP(a[k] - b[k]);                                                         \
		case ARITH_MUL:                                                                    \
			LOOP(a[k] * b[k]);                                                         \
		case ARITH_DIV:                                                                    \
		case ARITH_FDIV:                                                                   \
			LOOP(a[k] / b[k]);                                                         \
		case ARITH_MOD:                                                                    \
			LOOP(F(remainder)(a[k], b[k]));                                            \
		case ARITH_MIN:                                                                    \
			LOOP(a[k] < b[k] ? a[k] : b[k]);                                           \
		case ARITH_MAX:                                                                    \
			LOOP(a[k] > b[k] ? a[k] : b[k]);                                           \
		case ARITH_POW:                                                                    \
		case ARITH_FPOW:                                                                   \
			LOOP(F(pow)(a[k], b[k]));                                                  \
		case ARITH_ATAN2:                                                                  \
			LOOP(F(atan2)(a[k], b[k]));                                                \
		case ARITH_CLAMP: /* DALI's order: raise to lo first, then cap at hi */            \
			for (int k = 0; k < n; k++) {                                              \
				T x = a[k] < b[k] ? b[k] : a[k];                                   \
				r[k] = x > c[k] ? c[k] : x;                                        \
			}                                                                          \
			break;                                                                     \
		case ARITH_EQ:                                                                     \
			for (int k = 0; k < n; k++)                                                \
				q[k] = a[k] == b[k];                                               \
			break;                                                                     \
		case ARITH_NEQ:                                                                    \
			for (int k = 0; k < n; k++)                                                \
				q[k] = a[k] != b[k];                                               \
			break;                                                                     \
		case ARITH_LT:                                                                     \
			for (int k = 0; k < n; k++)                                                \
				q[k] = a[k] < b[k];                                                \
			break;                                                                     \
		case ARITH_LEQ:                                                                    \
			for (int k = 0; k < n; k++)                                                \
				q[k] = a[k] <= b[k];                                               \
			break;                                                                     \
		case ARITH_GT:                                                                     \
			for (int k = 0; k < n; k++)                                                \
				q[k] = a[k] > b[k];                                                \
			break;                                                                     \
		case ARITH_GEQ:                                                                    \
			for (int k = 0; k < n; k++)                                                \
				q[k] = a[k] >= b[k];                                               \
			break;                                                                     \
		default:                                                                           \
			break; /* bitwise ops are rejected on floats by dalic_arith_infer */       \
		}                                                                                  \
	}

FLOAT_OPS(float, F32, arith_ops_f32)
FLOAT_OPS(double, F64, arith_ops_f64)

/* ---- integer operations on int64 lanes; `u` selects unsigned semantics ---- */

static int64_t arith_ipow_signed(int64_t x, int64_t y)
{
	if (y < 0)
		return 0; /* DALI's ipow */
	uint64_t acc = 1, p = (uint64_t)x;
	for (; y > 0; y >>= 1) {
		if (y & 1)
			acc *= p;
		p *= p;
	}
	return (int64_t)acc;
}

static int64_t arith_ipow_unsigned(uint64_t x, uint64_t y)
{
	uint64_t acc = 1;
	for (; y > 0; y >>= 1) {
		if (y & 1)
			acc *= x;
		x *= x;
	}
	return (int64_t)acc;
}

/* x, y: the operands as uint64, so that overflow wraps instead of being undefined */
#define ULOOP1(expr)                                                                               \
	for (int k = 0; k < n; k++) {                                                              \
		uint64_t x = (uint64_t)a[k];                                                       \
		r[k] = (int64_t)(expr);                                                            \
	}                                                                                          \
	break

#define ULOOP2(expr)                                                                               \
	for (int k = 0; k < n; k++) {                                                              \
		uint64_t x = (uint64_t)a[k], y = (uint64_t)b[k];                                   \
		r[k] = (int64_t)(expr);                                                            \
	}                                                                                          \
	break

#define CMP(OPR, S_U64_NEG, U64_S_NEG)                                                             \
	for (int k = 0; k < n; k++) {                                                              \
		int64_t x = a[k], y = b[k];                                                        \
		switch (cmp) {                                                                     \
		case ARITH_CMP_SIGNED:                                                             \
			r[k] = x OPR y;                                                            \
			break;                                                                     \
		case ARITH_CMP_UNSIGNED:                                                           \
			r[k] = (uint64_t)x OPR(uint64_t) y;                                        \
			break;                                                                     \
		case ARITH_CMP_S_U64:                                                              \
			r[k] = x < 0 ? S_U64_NEG : (uint64_t)x OPR(uint64_t) y;                    \
			break;                                                                     \
		case ARITH_CMP_U64_S:                                                              \
			r[k] = y < 0 ? U64_S_NEG : (uint64_t)x OPR(uint64_t) y;                    \
			break;                                                                     \
		}                                                                                  \
	}                                                                                          \
	break

/* Returns false on integer division by zero. */
static bool arith_ops_i64(arith_op_t op, bool u, arith_cmp_t cmp, const int64_t *const *v,
                          int64_t *r, int n)
{
	const int64_t *a = v[0], *b = v[1], *c = v[2];
	switch (op) {
	case ARITH_PLUS:
		ULOOP1(x);
	case ARITH_MINUS:
		ULOOP1(0 - x);
	case ARITH_ABS:
		ULOOP1(!u && a[k] < 0 ? 0 - x : x);
	case ARITH_ADD:
		ULOOP2(x + y);
	case ARITH_SUB:
		ULOOP2(x - y);
	case ARITH_MUL:
		ULOOP2(x * y);
	case ARITH_BITAND:
		ULOOP2(x & y);
	case ARITH_BITOR:
		ULOOP2(x | y);
	case ARITH_BITXOR:
		ULOOP2(x ^ y);
	case ARITH_DIV:
	case ARITH_MOD:
		for (int k = 0; k < n; k++) {
			if (b[k] == 0)
				return false;
			bool div = op == ARITH_DIV;
			if (u)
				r[k] = (int64_t)(div ? (uint64_t)a[k] / (uint64_t)b[k]
				                     : (uint64_t)a[k] % (uint64_t)b[k]);
			else if (b[k] == -1) /* INT64_MIN / -1 overflows in C; wrap like the rest */
				r[k] = div ? (int64_t)(0 - (uint64_t)a[k]) : 0;
			else
				r[k] = div ? a[k] / b[k] : a[k] % b[k];
		}
		break;
	case ARITH_MIN:
		for (int k = 0; k < n; k++)
			r[k] = (u ? (uint64_t)a[k] < (uint64_t)b[k] : a[k] < b[k]) ? a[k] : b[k];
		break;
	case ARITH_MAX:
		for (int k = 0; k < n; k++)
			r[k] = (u ? (uint64_t)a[k] > (uint64_t)b[k] : a[k] > b[k]) ? a[k] : b[k];
		break;
	case ARITH_CLAMP:
		for (int k = 0; k < n; k++) {
			int64_t x = a[k];
			if (u ? (uint64_t)x < (uint64_t)b[k] : x < b[k])
				x = b[k];
			r[k] = (u ? (uint64_t)x > (uint64_t)c[k] : x > c[k]) ? c[k] : x;
		}
		break;
	case ARITH_POW:
		for (int k = 0; k < n; k++)
			r[k] = u ? arith_ipow_unsigned((uint64_t)a[k], (uint64_t)b[k])
			         : arith_ipow_signed(a[k], b[k]);
		break;
	case ARITH_EQ:
		CMP(==, 0, 0);
	case ARITH_NEQ:
		CMP(!=, 1, 1);
	case ARITH_LT:
		CMP(<, 1, 0);
	case ARITH_LEQ:
		CMP(<=, 1, 0);
	case ARITH_GT:
		CMP(>, 0, 1);
	case ARITH_GEQ:
		CMP(>=, 0, 1);
	default:
		break; /* float-only ops never get an integer compute type */
	}
	return true;
}

/* Wraps int64 lane values to the range of dtype t (the static_cast to the node's type). */
void dalic_arith_normalize(dalic_dtype_t t, int64_t *r, int n)
{
#define WRAP(CT)                                                                                   \
	for (int k = 0; k < n; k++)                                                                \
		r[k] = (CT)r[k];                                                                   \
	break
	/* 64-bit lanes are already in range; floats never get here */
#define WRAP_UINT(CT) WRAP(CT)
#define WRAP_SINT(CT) WRAP(CT)
#define WRAP_BOOL(CT) WRAP(bool)
#define WRAP_FLOAT(CT) break
#define WRAP_HALF(CT) break
#define WRAP_CASE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                                  \
	case DALIC_##ID:                                                                           \
		if (sizeof(CT) == 8)                                                               \
			break;                                                                     \
		WRAP_##CLASS(CT);
	switch (t) {
		DALIC_DTYPES_NUMERIC(WRAP_CASE)
	default:
		break;
	}
#undef WRAP_CASE
#undef WRAP_UINT
#undef WRAP_SINT
#undef WRAP_BOOL
#undef WRAP_FLOAT
#undef WRAP_HALF
#undef WRAP
}

/* Runs node n on operands already converted to its compute type. False: division by zero. */
bool dalic_arith_apply(const arith_node_t *n, const void *const *v, void *out, int len)
{
	switch (dalic_arith_lane(n->compute)) {
	case ARITH_LANE_F32: {
		const float *f[ARITH_MAX_ARITY] = {v[0], v[1], v[2]};
		arith_ops_f32(n->op, f, out, len);
		return true;
	}
	case ARITH_LANE_F64: {
		const double *d[ARITH_MAX_ARITY] = {v[0], v[1], v[2]};
		arith_ops_f64(n->op, d, out, len);
		return true;
	}
	default: {
		const int64_t *i[ARITH_MAX_ARITY] = {v[0], v[1], v[2]};
		return arith_ops_i64(n->op, !dalic_dtype_is_signed(n->compute), n->cmp, i, out,
		                     len);
	}
	}
}
