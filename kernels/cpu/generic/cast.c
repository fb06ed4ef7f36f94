/*
 * cast: converts every element to `dtype` with DALI's ConvertSat (include/dali/core/convert.h):
 * floating point to integer rounds half away from zero (std::round) and then saturates to
 * the target range; integer narrowing saturates; anything to bool is "nonzero after
 * rounding"; to floating point is a plain conversion. NaN becomes 0, as dalic_store_sat does.
 * Shape and layout pass through unchanged.
 *
 * Elements go through a small stack buffer in chunks: integer sources are widened to int64
 * (uint64 keeps its own path so values above INT64_MAX saturate correctly), floating sources
 * to double, then one loop per target type narrows them. Same-type casts are a copy.
 */
#include "engine/dtype.h"
#include "engine/kernel.h"

#include <math.h>
#include <string.h>

/* The conversion loops are the hot path. At -O2 GCC only vectorizes loops whose trip count is
 * known to fit the vector width; ask for the usual cost model here (same results, faster). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif

#define CHUNK 1024

typedef enum { WIDE_I64, WIDE_U64, WIDE_F64 } wide_t;

static wide_t cast_wide_kind(dalic_dtype_t t)
{
	if (dalic_dtype_is_float(t))
		return WIDE_F64;
	return t == DALIC_UINT64 ? WIDE_U64 : WIDE_I64;
}

#define WIDEN(CT, WT)                                                                              \
	for (int k = 0; k < n; k++)                                                                \
		w[k] = (WT)((const CT *)src)[k];                                                   \
	break

/* src[0..n) of type t into the wide buffer (int64, uint64 or double). */
static void cast_widen(dalic_dtype_t t, const void *src, int n, void *wide)
{
	switch (t) {
	case DALIC_FLOAT16: {
		double *w = wide;
		for (int k = 0; k < n; k++)
			w[k] = dalic_half_to_float(((const uint16_t *)src)[k]);
		break;
	}
	case DALIC_FLOAT: {
		double *w = wide;
		WIDEN(float, double);
	}
	case DALIC_FLOAT64:
		memcpy(wide, src, sizeof(double) * (size_t)n);
		break;
	case DALIC_UINT64:
		memcpy(wide, src, sizeof(uint64_t) * (size_t)n);
		break;
	default: {
		int64_t *w = wide;
		switch (t) {
		case DALIC_UINT8:
			WIDEN(uint8_t, int64_t);
		case DALIC_UINT16:
			WIDEN(uint16_t, int64_t);
		case DALIC_UINT32:
			WIDEN(uint32_t, int64_t);
		case DALIC_INT8:
			WIDEN(int8_t, int64_t);
		case DALIC_INT16:
			WIDEN(int16_t, int64_t);
		case DALIC_INT32:
			WIDEN(int32_t, int64_t);
		case DALIC_INT64:
			WIDEN(int64_t, int64_t);
		case DALIC_BOOL:
			WIDEN(uint8_t, int64_t);
		default:
			break;
		}
	}
	}
}

/* Narrowing loops: `SAT(v)` saturates one wide value v (of the function's type `wide`) to
 * the target C type CT. */
#define NARROW(CT, SAT)                                                                            \
	for (int k = 0; k < n; k++) {                                                              \
		wide v = w[k];                                                                     \
		((CT *)dst)[k] = (CT)(SAT);                                                        \
	}                                                                                          \
	break

/* Round, then clamp to [lo, hi] given as doubles; hi may round up to 2^63 or 2^64, so the
 * comparison is >= and the bound itself is returned as the type's maximum. */
#define SAT_F(CT, lo, hi, maxv)                                                                    \
	(isnan(v) ? 0 : (v = round(v)) <= (lo) ? (CT)(lo) : v >= (hi) ? (CT)(maxv) : (CT)v)

static void cast_narrow_f64(dalic_dtype_t t, const double *w, int n, void *dst)
{
	typedef double wide;
	switch (t) {
	case DALIC_UINT8:
		NARROW(uint8_t, SAT_F(uint8_t, 0, 255.0, 255));
	case DALIC_UINT16:
		NARROW(uint16_t, SAT_F(uint16_t, 0, 65535.0, 65535));
	case DALIC_UINT32:
		NARROW(uint32_t, SAT_F(uint32_t, 0, 4294967295.0, UINT32_MAX));
	case DALIC_UINT64:
		NARROW(uint64_t, SAT_F(uint64_t, 0, 18446744073709551615.0, UINT64_MAX));
	case DALIC_INT8:
		NARROW(int8_t, SAT_F(int8_t, -128.0, 127.0, 127));
	case DALIC_INT16:
		NARROW(int16_t, SAT_F(int16_t, -32768.0, 32767.0, 32767));
	case DALIC_INT32:
		NARROW(int32_t, SAT_F(int32_t, -2147483648.0, 2147483647.0, INT32_MAX));
	case DALIC_INT64:
		NARROW(int64_t,
		       SAT_F(int64_t, -9223372036854775808.0, 9223372036854775807.0, INT64_MAX));
	case DALIC_BOOL:
		NARROW(uint8_t, !isnan(v) && round(v) != 0);
	case DALIC_FLOAT16:
		NARROW(uint16_t, dalic_float_to_half((float)v));
	case DALIC_FLOAT:
		NARROW(float, v);
	case DALIC_FLOAT64:
		NARROW(double, v);
	default:
		break;
	}
}

#define SAT_I(lo, hi) (v < (lo) ? (lo) : v > (hi) ? (hi) : v)

static void cast_narrow_i64(dalic_dtype_t t, const int64_t *w, int n, void *dst)
{
	typedef int64_t wide;
	switch (t) {
	case DALIC_UINT8:
		NARROW(uint8_t, SAT_I(0, 255));
	case DALIC_UINT16:
		NARROW(uint16_t, SAT_I(0, 65535));
	case DALIC_UINT32:
		NARROW(uint32_t, SAT_I(0, (int64_t)UINT32_MAX));
	case DALIC_UINT64:
		NARROW(uint64_t, v < 0 ? 0 : v);
	case DALIC_INT8:
		NARROW(int8_t, SAT_I(-128, 127));
	case DALIC_INT16:
		NARROW(int16_t, SAT_I(-32768, 32767));
	case DALIC_INT32:
		NARROW(int32_t, SAT_I((int64_t)INT32_MIN, (int64_t)INT32_MAX));
	case DALIC_INT64:
		NARROW(int64_t, v);
	case DALIC_BOOL:
		NARROW(uint8_t, v != 0);
	case DALIC_FLOAT16:
		NARROW(uint16_t, dalic_float_to_half((float)v));
	case DALIC_FLOAT:
		NARROW(float, v);
	case DALIC_FLOAT64:
		NARROW(double, v);
	default:
		break;
	}
}

#define SAT_U(hi) (v > (hi) ? (hi) : v)

static void cast_narrow_u64(dalic_dtype_t t, const uint64_t *w, int n, void *dst)
{
	typedef uint64_t wide;
	switch (t) {
	case DALIC_UINT8:
		NARROW(uint8_t, SAT_U(255u));
	case DALIC_UINT16:
		NARROW(uint16_t, SAT_U(65535u));
	case DALIC_UINT32:
		NARROW(uint32_t, SAT_U(UINT32_MAX));
	case DALIC_UINT64:
		NARROW(uint64_t, v);
	case DALIC_INT8:
		NARROW(int8_t, SAT_U(127u));
	case DALIC_INT16:
		NARROW(int16_t, SAT_U(32767u));
	case DALIC_INT32:
		NARROW(int32_t, SAT_U((uint64_t)INT32_MAX));
	case DALIC_INT64:
		NARROW(int64_t, SAT_U((uint64_t)INT64_MAX));
	case DALIC_BOOL:
		NARROW(uint8_t, v != 0);
	case DALIC_FLOAT16:
		NARROW(uint16_t, dalic_float_to_half((float)v));
	case DALIC_FLOAT:
		NARROW(float, v);
	case DALIC_FLOAT64:
		NARROW(double, v);
	default:
		break;
	}
}

static int cast_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_dtype_t to = (dalic_dtype_t)dalic_arg_int(ctx, "dtype");
	if (!dalic_dtype_is_numeric(to))
		return dalic_op_fail(ctx, ws, -1, "argument 'dtype': cannot cast to %s",
		                     dalic_dtype_name(to));
	if (!dalic_dtype_is_numeric(in->dtype))
		return dalic_op_fail(ctx, ws, -1, "cannot cast input of type %s",
		                     dalic_dtype_name(in->dtype));
	int rc = dalic_batch_copy_meta(ws->outputs[0], in);
	ws->outputs[0]->dtype = to;
	return rc;
}

static int cast_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int64_t n = dalic_batch_sample_elems(in, i);
	if (in->dtype == out->dtype) {
		memcpy(out->ptrs[i], in->ptrs[i], dalic_batch_sample_bytes(in, i));
		return DALIC_OK;
	}
	size_t in_es = dalic_dtype_size(in->dtype), out_es = dalic_dtype_size(out->dtype);
	union {
		int64_t i[CHUNK];
		uint64_t u[CHUNK];
		double f[CHUNK];
	} wide;
	wide_t kind = cast_wide_kind(in->dtype);
	for (int64_t start = 0; start < n; start += CHUNK) {
		int len = n - start < CHUNK ? (int)(n - start) : CHUNK;
		const char *src = (const char *)in->ptrs[i] + (size_t)start * in_es;
		char *dst = (char *)out->ptrs[i] + (size_t)start * out_es;
		cast_widen(in->dtype, src, len, &wide);
		if (kind == WIDE_F64)
			cast_narrow_f64(out->dtype, wide.f, len, dst);
		else if (kind == WIDE_U64)
			cast_narrow_u64(out->dtype, wide.u, len, dst);
		else
			cast_narrow_i64(out->dtype, wide.i, len, dst);
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"dtype", DALIC_ARG_DTYPE, NULL, "Output data type."},
    {0},
};

static const dalic_kernel_t kernel = {.setup = cast_setup, .run_sample = cast_run_sample};

DALIC_OPERATOR(Cast) = {
    .name = "Cast",
    .fn = "cast",
    .doc = "Casts the input to `dtype`, rounding and saturating like DALI's ConvertSat.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
