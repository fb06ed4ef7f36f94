/*
 * Element conversion (convert.h). Elements go through a small stack buffer in chunks: integer
 * sources are widened to int64 (uint64 keeps its own path so values above INT64_MAX saturate
 * correctly), floating sources to double, then one loop per target type narrows them.
 */
#include "kernels/common/convert.h"

#include "engine/dtype.h"
#include "kernels/common/convert_elem.h"

#include <math.h>
#include <string.h>

/* The conversion loops are the hot path. At -O2 GCC only vectorizes loops whose trip count is
 * known to fit the vector width; ask for the usual cost model here (same results, faster). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif

#define CONVERT_CHUNK 1024

typedef enum { CONVERT_WIDE_I64, CONVERT_WIDE_U64, CONVERT_WIDE_F64 } convert_wide_kind_t;

static convert_wide_kind_t convert_wide_kind(dalic_dtype_t t)
{
	if (dalic_dtype_is_float(t))
		return CONVERT_WIDE_F64;
	return t == DALIC_UINT64 ? CONVERT_WIDE_U64 : CONVERT_WIDE_I64;
}

typedef union convert_wide {
	int64_t i[CONVERT_CHUNK];
	uint64_t u[CONVERT_CHUNK];
	double f[CONVERT_CHUNK];
} convert_wide_t;

#define CONVERT_WIDEN_TO(W, CT, CLASS)                                                             \
	for (int k = 0; k < n; k++)                                                                \
		(W)[k] = DALIC_DTYPE_VALUE(CLASS, ((const CT *)src)[k]);

/* src[0..n) of type t into the wide buffer of its kind (int64, uint64 or double). */
static void convert_widen(dalic_dtype_t t, const void *src, int n, convert_wide_t *w)
{
	switch (t) {
#define CONVERT_WIDEN(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                               \
	case DALIC_##ID:                                                                           \
		if (DALIC_DTYPE_IS(FLOAT, CLASS)) {                                                \
			CONVERT_WIDEN_TO(w->f, CT, CLASS)                                          \
		} else if (DALIC_##ID == DALIC_UINT64) {                                           \
			CONVERT_WIDEN_TO(w->u, CT, CLASS)                                          \
		} else {                                                                           \
			CONVERT_WIDEN_TO(w->i, CT, CLASS)                                          \
		}                                                                                  \
		break;
		DALIC_DTYPES_NUMERIC(CONVERT_WIDEN)
#undef CONVERT_WIDEN
	default:
		break;
	}
}

/* Narrowing loops: `SAT` converts one wide value v (of the function's type `wide`) to the
 * target C type CT. */
#define CONVERT_NARROW(CT, SAT)                                                                    \
	for (int k = 0; k < n; k++) {                                                              \
		wide v = w[k];                                                                     \
		((CT *)dst)[k] = (CT)(SAT);                                                        \
	}                                                                                          \
	break

/* The per-value rules are kernels/common/convert_elem.h's (shared with the CUDA cast). */
#define CONVERT_F64_UINT(CT, LO, HI) DALIC_CVT_F64_UINT(CT, LO, HI, v)
#define CONVERT_F64_SINT(CT, LO, HI) DALIC_CVT_F64_SINT(CT, LO, HI, v)
#define CONVERT_F64_BOOL(CT, LO, HI) DALIC_CVT_F64_BOOL(CT, LO, HI, v)
#define CONVERT_F64_HALF(CT, LO, HI) DALIC_CVT_F64_HALF(CT, LO, HI, v)
#define CONVERT_F64_FLOAT(CT, LO, HI) DALIC_CVT_F64_FLOAT(CT, LO, HI, v)

static void convert_narrow_f64(dalic_dtype_t t, const double *w, int n, void *dst)
{
	typedef double wide;
	switch (t) {
#define CONVERT_CASE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                                \
	case DALIC_##ID:                                                                           \
		CONVERT_NARROW(CT, CONVERT_F64_##CLASS(CT, LO, HI));
		DALIC_DTYPES_NUMERIC(CONVERT_CASE)
#undef CONVERT_CASE
	default:
		break;
	}
}

#define CONVERT_I64_UINT(CT, LO, HI) DALIC_CVT_I64_UINT(CT, LO, HI, v)
#define CONVERT_I64_SINT(CT, LO, HI) DALIC_CVT_I64_SINT(CT, LO, HI, v)
#define CONVERT_I64_BOOL(CT, LO, HI) DALIC_CVT_I64_BOOL(CT, LO, HI, v)
#define CONVERT_I64_HALF(CT, LO, HI) DALIC_CVT_I64_HALF(CT, LO, HI, v)
#define CONVERT_I64_FLOAT(CT, LO, HI) DALIC_CVT_I64_FLOAT(CT, LO, HI, v)

static void convert_narrow_i64(dalic_dtype_t t, const int64_t *w, int n, void *dst)
{
	typedef int64_t wide;
	switch (t) {
#define CONVERT_CASE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                                \
	case DALIC_##ID:                                                                           \
		CONVERT_NARROW(CT, CONVERT_I64_##CLASS(CT, LO, HI));
		DALIC_DTYPES_NUMERIC(CONVERT_CASE)
#undef CONVERT_CASE
	default:
		break;
	}
}

/* From uint64 (above INT64_MAX included): only HI can bind. */
#define CONVERT_U64_UINT(CT, LO, HI) DALIC_CVT_U64_UINT(CT, LO, HI, v)
#define CONVERT_U64_SINT(CT, LO, HI) DALIC_CVT_U64_SINT(CT, LO, HI, v)
#define CONVERT_U64_BOOL(CT, LO, HI) DALIC_CVT_U64_BOOL(CT, LO, HI, v)
#define CONVERT_U64_HALF(CT, LO, HI) DALIC_CVT_U64_HALF(CT, LO, HI, v)
#define CONVERT_U64_FLOAT(CT, LO, HI) DALIC_CVT_U64_FLOAT(CT, LO, HI, v)

static void convert_narrow_u64(dalic_dtype_t t, const uint64_t *w, int n, void *dst)
{
	typedef uint64_t wide;
	switch (t) {
#define CONVERT_CASE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                                \
	case DALIC_##ID:                                                                           \
		CONVERT_NARROW(CT, CONVERT_U64_##CLASS(CT, LO, HI));
		DALIC_DTYPES_NUMERIC(CONVERT_CASE)
#undef CONVERT_CASE
	default:
		break;
	}
}

void dalic_convert(dalic_dtype_t to, void *dst, dalic_dtype_t from, const void *src, int64_t n)
{
	size_t in_es = dalic_dtype_size(from), out_es = dalic_dtype_size(to);
	if (to == from) {
		memcpy(dst, src, (size_t)n * in_es);
		return;
	}
	convert_wide_t wide;
	convert_wide_kind_t kind = convert_wide_kind(from);
	for (int64_t start = 0; start < n; start += CONVERT_CHUNK) {
		int len = n - start < CONVERT_CHUNK ? (int)(n - start) : CONVERT_CHUNK;
		const char *s = (const char *)src + (size_t)start * in_es;
		char *d = (char *)dst + (size_t)start * out_es;
		convert_widen(from, s, len, &wide);
		if (kind == CONVERT_WIDE_F64)
			convert_narrow_f64(to, wide.f, len, d);
		else if (kind == CONVERT_WIDE_U64)
			convert_narrow_u64(to, wide.u, len, d);
		else
			convert_narrow_i64(to, wide.i, len, d);
	}
}
