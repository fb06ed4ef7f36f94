/*
 * cast: converts every element to `dtype` with DALI's ConvertSat (include/dali/core/convert.h):
 * floating point to integer rounds half away from zero (std::round) and then saturates to
 * the target range; integer narrowing saturates; anything to bool is "nonzero after
 * rounding"; to floating point is a plain conversion. NaN becomes 0, as dalic_dtype_store_sat does.
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

#define CAST_CHUNK 1024

typedef enum { CAST_WIDE_I64, CAST_WIDE_U64, CAST_WIDE_F64 } cast_wide_kind_t;

static cast_wide_kind_t cast_wide_kind(dalic_dtype_t t)
{
	if (dalic_dtype_is_float(t))
		return CAST_WIDE_F64;
	return t == DALIC_UINT64 ? CAST_WIDE_U64 : CAST_WIDE_I64;
}

typedef union cast_wide {
	int64_t i[CAST_CHUNK];
	uint64_t u[CAST_CHUNK];
	double f[CAST_CHUNK];
} cast_wide_t;

#define CAST_WIDEN_TO(W, CT, CLASS)                                                                \
	for (int k = 0; k < n; k++)                                                                \
		(W)[k] = DALIC_DTYPE_VALUE(CLASS, ((const CT *)src)[k]);

/* src[0..n) of type t into the wide buffer of its kind (int64, uint64 or double). */
static void cast_widen(dalic_dtype_t t, const void *src, int n, cast_wide_t *w)
{
	switch (t) {
#define CAST_WIDEN(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                                 \
	case DALIC_##ID:                                                                           \
		if (DALIC_DTYPE_IS(FLOAT, CLASS)) {                                                \
			CAST_WIDEN_TO(w->f, CT, CLASS)                                             \
		} else if (DALIC_##ID == DALIC_UINT64) {                                           \
			CAST_WIDEN_TO(w->u, CT, CLASS)                                             \
		} else {                                                                           \
			CAST_WIDEN_TO(w->i, CT, CLASS)                                             \
		}                                                                                  \
		break;
		DALIC_DTYPES_NUMERIC(CAST_WIDEN)
#undef CAST_WIDEN
	default:
		break;
	}
}

/* Narrowing loops: `SAT` converts one wide value v (of the function's type `wide`) to the
 * target C type CT. */
#define CAST_NARROW(CT, SAT)                                                                       \
	for (int k = 0; k < n; k++) {                                                              \
		wide v = w[k];                                                                     \
		((CT *)dst)[k] = (CT)(SAT);                                                        \
	}                                                                                          \
	break

/* From double: NaN is 0, else round half away from zero, then clamp. */
#define CAST_SAT_F(CT, LO, HI)                                                                     \
	(isnan(v) ? (CT)0 : (v = round(v), DALIC_SAT_FROM_F64(CT, LO, HI, v)))
#define CAST_F64_UINT(CT, LO, HI) CAST_SAT_F(CT, LO, HI)
#define CAST_F64_SINT(CT, LO, HI) CAST_SAT_F(CT, LO, HI)
#define CAST_F64_BOOL(CT, LO, HI) (!isnan(v) && round(v) != 0)
#define CAST_F64_HALF(CT, LO, HI) dalic_dtype_float_to_half((float)v)
#define CAST_F64_FLOAT(CT, LO, HI) v

static void cast_narrow_f64(dalic_dtype_t t, const double *w, int n, void *dst)
{
	typedef double wide;
	switch (t) {
#define CAST_CASE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                                  \
	case DALIC_##ID: CAST_NARROW(CT, CAST_F64_##CLASS(CT, LO, HI));
		DALIC_DTYPES_NUMERIC(CAST_CASE)
#undef CAST_CASE
	default:
		break;
	}
}

#define CAST_I64_UINT(CT, LO, HI) DALIC_SAT_FROM_I64(CT, LO, HI, v)
#define CAST_I64_SINT(CT, LO, HI) DALIC_SAT_FROM_I64(CT, LO, HI, v)
#define CAST_I64_BOOL(CT, LO, HI) v != 0
#define CAST_I64_HALF(CT, LO, HI) dalic_dtype_float_to_half((float)v)
#define CAST_I64_FLOAT(CT, LO, HI) v

static void cast_narrow_i64(dalic_dtype_t t, const int64_t *w, int n, void *dst)
{
	typedef int64_t wide;
	switch (t) {
#define CAST_CASE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                                  \
	case DALIC_##ID: CAST_NARROW(CT, CAST_I64_##CLASS(CT, LO, HI));
		DALIC_DTYPES_NUMERIC(CAST_CASE)
#undef CAST_CASE
	default:
		break;
	}
}

/* From uint64 (above INT64_MAX included): only HI can bind. */
#define CAST_U64_UINT(CT, LO, HI) (v > (uint64_t)(HI) ? (CT)(HI) : (CT)v)
#define CAST_U64_SINT(CT, LO, HI) CAST_U64_UINT(CT, LO, HI)
#define CAST_U64_BOOL(CT, LO, HI) v != 0
#define CAST_U64_HALF(CT, LO, HI) dalic_dtype_float_to_half((float)v)
#define CAST_U64_FLOAT(CT, LO, HI) v

static void cast_narrow_u64(dalic_dtype_t t, const uint64_t *w, int n, void *dst)
{
	typedef uint64_t wide;
	switch (t) {
#define CAST_CASE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                                  \
	case DALIC_##ID: CAST_NARROW(CT, CAST_U64_##CLASS(CT, LO, HI));
		DALIC_DTYPES_NUMERIC(CAST_CASE)
#undef CAST_CASE
	default:
		break;
	}
}

static int setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
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

static int run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int64_t n = dalic_batch_sample_elems(in, i);
	if (in->dtype == out->dtype) {
		memcpy(out->ptrs[i], in->ptrs[i], dalic_batch_sample_bytes(in, i));
		return DALIC_OK;
	}
	size_t in_es = dalic_dtype_size(in->dtype), out_es = dalic_dtype_size(out->dtype);
	cast_wide_t wide;
	cast_wide_kind_t kind = cast_wide_kind(in->dtype);
	for (int64_t start = 0; start < n; start += CAST_CHUNK) {
		int len = n - start < CAST_CHUNK ? (int)(n - start) : CAST_CHUNK;
		const char *src = (const char *)in->ptrs[i] + (size_t)start * in_es;
		char *dst = (char *)out->ptrs[i] + (size_t)start * out_es;
		cast_widen(in->dtype, src, len, &wide);
		if (kind == CAST_WIDE_F64)
			cast_narrow_f64(out->dtype, wide.f, len, dst);
		else if (kind == CAST_WIDE_U64)
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

static const dalic_kernel_t kernel = {.setup = setup, .run_sample = run_sample};

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
