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
 *
 * The per-element rules live in arith_elem.h, shared with the CUDA kernel (docs/gpu.md); this
 * file only arranges them into one loop per operation.
 */
/* These loops are the operator's hot path. At -O2 GCC only vectorizes loops whose trip count
 * is known to fit the vector width, which a tile's length is not; ask for the usual cost
 * model here (the results are the same, only faster). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif

#include "kernels/common/arith_elem.h"
#include "kernels/common/arith_expr.h"

#include "engine/dtype.h"


/* ---- floating-point operations, once for float (f32) and once for double (f64) ---- */

#define LOOP(expr)                                                                                 \
	for (int k = 0; k < n; k++)                                                                \
		r[k] = (expr);                                                                     \
	break

/* The operations by arity; each case is one loop calling the shared element rule with a
 * constant op, which the compiler folds (arith_elem.h forces the inlining). */
#define ARITH_FLOAT_UNARY(X, S)                                                                    \
	X(ARITH_PLUS, S)                                                                           \
	X(ARITH_MINUS, S) X(ARITH_ABS, S) X(ARITH_FABS, S) X(ARITH_FLOOR, S) X(ARITH_CEIL, S)      \
	    X(ARITH_SQRT, S) X(ARITH_RSQRT, S) X(ARITH_CBRT, S) X(ARITH_EXP, S) X(ARITH_LOG, S)    \
		X(ARITH_LOG2, S) X(ARITH_LOG10, S) X(ARITH_SIN, S) X(ARITH_COS, S) X(ARITH_TAN, S) \
		    X(ARITH_ASIN, S) X(ARITH_ACOS, S) X(ARITH_ATAN, S) X(ARITH_SINH, S)            \
			X(ARITH_COSH, S) X(ARITH_TANH, S) X(ARITH_ASINH, S) X(ARITH_ACOSH, S)      \
			    X(ARITH_ATANH, S)
#define ARITH_FLOAT_BINARY(X, S)                                                                   \
	X(ARITH_ADD, S)                                                                            \
	X(ARITH_SUB, S) X(ARITH_MUL, S) X(ARITH_DIV, S) X(ARITH_FDIV, S) X(ARITH_MOD, S)           \
	    X(ARITH_MIN, S) X(ARITH_MAX, S) X(ARITH_POW, S) X(ARITH_FPOW, S) X(ARITH_ATAN2, S)
#define ARITH_COMPARISONS(X, S)                                                                    \
	X(ARITH_EQ, S) X(ARITH_NEQ, S) X(ARITH_LT, S) X(ARITH_LEQ, S) X(ARITH_GT, S) X(ARITH_GEQ, S)

#define ARITH_UN_CASE(OP, S)                                                                       \
	case OP:                                                                                   \
		LOOP(dalic_arith_un_##S(OP, a[k]));
#define ARITH_BIN_CASE(OP, S)                                                                      \
	case OP:                                                                                   \
		LOOP(dalic_arith_bin_##S(OP, a[k], b[k]));
#define ARITH_CMP_CASE(OP, S)                                                                      \
	case OP:                                                                                   \
		for (int k = 0; k < n; k++)                                                        \
			q[k] = dalic_arith_cmp_##S(OP, a[k], b[k]);                                \
		break;

#define FLOAT_OPS(T, S, NAME)                                                                      \
	static void NAME(arith_op_t op, const T *const *v, void *out, int n)                       \
	{                                                                                          \
		const T *a = v[0], *b = v[1], *c = v[2];                                           \
		T *r = out;                                                                        \
		int64_t *q = out; /* comparisons produce bools in the integer lane */              \
		switch (op) {                                                                      \
			ARITH_FLOAT_UNARY(ARITH_UN_CASE, S)                                        \
			ARITH_FLOAT_BINARY(ARITH_BIN_CASE, S)                                      \
			ARITH_COMPARISONS(ARITH_CMP_CASE, S)                                       \
		case ARITH_CLAMP:                                                                  \
			LOOP(dalic_arith_clamp_##S(a[k], b[k], c[k]));                             \
		default:                                                                           \
			break; /* bitwise ops are rejected on floats by dalic_arith_infer */       \
		}                                                                                  \
	}

FLOAT_OPS(float, f32, arith_ops_f32)
FLOAT_OPS(double, f64, arith_ops_f64)

/* ---- integer operations on int64 lanes; `u` selects unsigned semantics ---- */

#define ARITH_INT_BINARY(X, S)                                                                     \
	X(ARITH_ADD, S)                                                                            \
	X(ARITH_SUB, S) X(ARITH_MUL, S) X(ARITH_BITAND, S) X(ARITH_BITOR, S) X(ARITH_BITXOR, S)    \
	    X(ARITH_MIN, S) X(ARITH_MAX, S) X(ARITH_POW, S)
#define ARITH_IBIN_CASE(OP, S)                                                                     \
	case OP:                                                                                   \
		LOOP(dalic_arith_bin_i64(OP, u, a[k], b[k]));
#define ARITH_ICMP_CASE(OP, S)                                                                     \
	case OP:                                                                                   \
		LOOP(dalic_arith_cmp_i64(OP, cmp, a[k], b[k]));

/* Returns false on integer division by zero. */
static bool arith_ops_i64(arith_op_t op, bool u, arith_cmp_t cmp, const int64_t *const *v,
                          int64_t *r, int n)
{
	const int64_t *a = v[0], *b = v[1], *c = v[2];
	switch (op) {
	case ARITH_PLUS:
		LOOP(dalic_arith_un_i64(ARITH_PLUS, u, a[k]));
	case ARITH_MINUS:
		LOOP(dalic_arith_un_i64(ARITH_MINUS, u, a[k]));
	case ARITH_ABS:
		LOOP(dalic_arith_un_i64(ARITH_ABS, u, a[k]));
		ARITH_INT_BINARY(ARITH_IBIN_CASE, i64)
		ARITH_COMPARISONS(ARITH_ICMP_CASE, i64)
	case ARITH_DIV:
	case ARITH_MOD:
		for (int k = 0; k < n; k++) {
			if (b[k] == 0)
				return false;
			r[k] = dalic_arith_bin_i64(op, u, a[k], b[k]);
		}
		break;
	case ARITH_CLAMP:
		LOOP(dalic_arith_clamp_i64(u, a[k], b[k], c[k]));
	default:
		break; /* float-only ops never get an integer compute type */
	}
	return true;
}

/* Wraps int64 lane values to the range of dtype t (the static_cast to the node's type). */
void dalic_arith_normalize(dalic_dtype_t t, int64_t *r, int n)
{
	/* 64-bit lanes are already in range; floats never get here */
#define WRAP_CASE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                                  \
	case DALIC_##ID:                                                                           \
		if (sizeof(CT) == 8 || DALIC_DTYPE_IS(FLOAT, CLASS))                               \
			break;                                                                     \
		for (int k = 0; k < n; k++)                                                        \
			r[k] = dalic_arith_wrap(DALIC_##ID, r[k]);                                 \
		break;
	switch (t) {
		DALIC_DTYPES_NUMERIC(WRAP_CASE)
	default:
		break;
	}
#undef WRAP_CASE
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
