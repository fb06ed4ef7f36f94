/* Reductions as DALI's CPU kernels compute them (see reduce.h). */
#include "kernels/common/reduce.h"

#include "engine/dtype.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Products and sums must round to float one by one, as DALI's do. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#endif

#define REDUCE_TREE_THRESHOLD 32

/* ---- axes ------------------------------------------------------------------------------ */

int dalic_reduce_axes(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *layout, int ndim,
                      uint64_t *mask)
{
	bool has_axes = dalic_arg_given(ctx, "axes"),
	     has_names = dalic_arg_given(ctx, "axis_names");
	if (has_axes && has_names)
		return dalic_op_fail(ctx, ws, -1,
		                     "Arguments `axes` and `axis_names` are mutually "
		                     "exclusive");
	*mask = 0;
	if (has_names) {
		const char *names = dalic_arg_string(ctx, "axis_names");
		for (const char *c = names; c && *c; c++) {
			const char *at = layout ? strchr(layout, *c) : NULL;
			if (!at || !*c)
				return dalic_op_fail(ctx, ws, -1,
				                     "Axis '%c' is not present in the input "
				                     "layout \"%s\"",
				                     *c, layout ? layout : "");
			*mask |= 1ull << (at - layout);
		}
		return DALIC_OK;
	}
	if (!has_axes) {
		*mask = ndim ? (ndim >= 64 ? ~0ull : (1ull << ndim) - 1) : 0;
		return DALIC_OK;
	}
	const dalic_value_t *v = dalic_arg(ctx, "axes");
	for (int k = 0; k < v->n; k++) {
		int64_t a = dalic_value_get_i(v, k);
		if (a < -ndim || a >= ndim)
			return dalic_op_fail(ctx, ws, -1,
			                     "Axis index out of range: %lld not in range "
			                     "[%d,%d]",
			                     (long long)a, -ndim, ndim - 1);
		if (a < 0)
			a += ndim;
		if (*mask & (1ull << a))
			return dalic_op_fail(ctx, ws, -1, "Duplicate axis index %lld",
			                     (long long)a);
		*mask |= 1ull << a;
	}
	return DALIC_OK;
}

int dalic_reduce_out_shape(const int64_t *shape, int ndim, uint64_t mask, bool keep_dims,
                           int64_t *out)
{
	int n = 0;
	for (int d = 0; d < ndim; d++) {
		if (!(mask & (1ull << d)))
			out[n++] = shape[d];
		else if (keep_dims)
			out[n++] = 1;
	}
	return n;
}

int64_t dalic_reduce_volume(const int64_t *shape, int ndim, uint64_t mask)
{
	int64_t v = 1;
	for (int d = 0; d < ndim; d++)
		if (mask & (1ull << d))
			v *= shape[d];
	return v;
}

/* ---- typed leaves ------------------------------------------------------------------------ */

typedef union reduce_acc {
	uint8_t u8;
	int8_t i8;
	uint16_t u16;
	int16_t i16;
	uint32_t u32;
	int32_t i32;
	uint64_t u64;
	int64_t i64;
	float f;
} reduce_acc_t;

/* One (kind, input, accumulator) kernel: a strided range reduced with DALI's tree and
 * combined into *acc, the combination of two accumulators, the neutral value, and the
 * conversion of one preprocessed element (the empty-axes case). */
typedef struct reduce_ops {
	dalic_reduce_kind_t kind;
	dalic_dtype_t in, out;
	void (*leaf)(reduce_acc_t *acc, const void *data, int64_t stride, int64_t n, float mean);
	void (*combine)(reduce_acc_t *acc, const reduce_acc_t *v);
	void (*neutral)(reduce_acc_t *acc);
	void (*one)(reduce_acc_t *acc, const void *data, int64_t i, float mean);
} reduce_ops_t;

#define REDUCE_P_SUM(x, mean) (x)
/* Squares as C++ computes them: promoted to int (uint16 squares wrap around in int as they
 * do in DALI, written through unsigned to avoid C's undefined overflow), int32 and uint32
 * widened to 64 bits, 64-bit squares wrapping. */
#define REDUCE_P_SQUARE(x, mean) ((x) * (x))
#define REDUCE_P_SQUAREU16(x, mean) ((int)((uint32_t)(x) * (x)))
#define REDUCE_P_SQUARE32(x, mean) ((int64_t)(x) * (x))
#define REDUCE_P_SQUAREU32(x, mean) ((uint64_t)(x) * (x))
#define REDUCE_P_SQUARE64(x, mean) ((__typeof__(x))((uint64_t)(x) * (uint64_t)(x)))
#define REDUCE_P_VARIANCE(x, mean) (((x) - (mean)) * ((x) - (mean)))
#define REDUCE_R_ADD(a, v) ((a) += (v))
/* Integer accumulators wrap around (through unsigned: the same bits, no undefined overflow). */
#define REDUCE_R_ADDW(a, v) ((a) = (__typeof__(a))((uint64_t)(a) + (uint64_t)(v)))
#define REDUCE_R_MIN(a, v) ((a) = (v) < (a) ? (v) : (a))
#define REDUCE_R_MAX(a, v) ((a) = (v) > (a) ? (v) : (a))

/* reduce_NAME_leaf / _combine / _neutral / _one for input type ST, accumulator member M of type DT,
 * preprocessing P, reduction R, neutral value NEU. */
#define REDUCE_DEFINE(NAME, ST, DT, M, P, R, NEU)                                                  \
	/* DALI's reduce1D_stride: halves while more than 32 elements, then one run summed left    \
	 * to right into a fresh accumulator; typed, so the whole range is one call */             \
	static DT reduce_##NAME##_tree(const ST *s, int64_t stride, int64_t n, float mean)         \
	{                                                                                          \
		DT t = NEU;                                                                        \
		if (n > REDUCE_TREE_THRESHOLD) {                                                   \
			int64_t m = n >> 1;                                                        \
			DT t1 = reduce_##NAME##_tree(s, stride, m, mean);                          \
			DT t2 = reduce_##NAME##_tree(s + m * stride, stride, n - m, mean);         \
			R(t1, t2);                                                                 \
			R(t, t1);                                                                  \
			return t;                                                                  \
		}                                                                                  \
		DT r = NEU;                                                                        \
		for (int64_t i = 0; i < n; i++)                                                    \
			R(r, P(s[i * stride], mean));                                              \
		R(t, r);                                                                           \
		return t;                                                                          \
	}                                                                                          \
	static void reduce_##NAME##_leaf(reduce_acc_t *acc, const void *data, int64_t stride,      \
	                                 int64_t n, float mean)                                    \
	{                                                                                          \
		R(acc->M, reduce_##NAME##_tree(data, stride, n, mean));                            \
	}                                                                                          \
	static void reduce_##NAME##_combine(reduce_acc_t *acc, const reduce_acc_t *v)              \
	{                                                                                          \
		R(acc->M, v->M);                                                                   \
	}                                                                                          \
	static void reduce_##NAME##_neutral(reduce_acc_t *acc)                                     \
	{                                                                                          \
		acc->M = NEU;                                                                      \
	}                                                                                          \
	static void reduce_##NAME##_one(reduce_acc_t *acc, const void *data, int64_t i,            \
	                                float mean)                                                \
	{                                                                                          \
		acc->M = (DT)P(((const ST *)data)[i], mean);                                       \
	}

#define REDUCE_ENTRY(NAME, KIND, IN, OUT)                                                          \
	{                                                                                          \
		KIND, IN, OUT, reduce_##NAME##_leaf, reduce_##NAME##_combine,                      \
		    reduce_##NAME##_neutral, reduce_##NAME##_one                                   \
	}

/* Sums into the input type, its 64-bit widening and float (sum); the input type and float
 * (mean); squares into the input type (rms), the 64-bit widening (mean_square) and float;
 * variance into float; min and max into the input type. */
#define REDUCE_INT_KERNELS(T, ST, W, WT, WM, SQ)                                                   \
	REDUCE_DEFINE(sum_##T##_##T, ST, ST, T, REDUCE_P_SUM, REDUCE_R_ADDW, 0)                    \
	REDUCE_DEFINE(sum_##T##_w, ST, WT, WM, REDUCE_P_SUM, REDUCE_R_ADDW, 0)                     \
	REDUCE_DEFINE(sum_##T##_f, ST, float, f, REDUCE_P_SUM, REDUCE_R_ADD, 0)                    \
	REDUCE_DEFINE(sq_##T##_##T, ST, ST, T, SQ, REDUCE_R_ADDW, 0)                               \
	REDUCE_DEFINE(sq_##T##_w, ST, WT, WM, SQ, REDUCE_R_ADDW, 0)                                \
	REDUCE_DEFINE(sq_##T##_f, ST, float, f, SQ, REDUCE_R_ADD, 0)                               \
	REDUCE_DEFINE(var_##T, ST, float, f, REDUCE_P_VARIANCE, REDUCE_R_ADD, 0)                   \
	REDUCE_DEFINE(min_##T, ST, ST, T, REDUCE_P_SUM, REDUCE_R_MIN, W##_MAX_OF(ST))              \
	REDUCE_DEFINE(max_##T, ST, ST, T, REDUCE_P_SUM, REDUCE_R_MAX, W##_MIN_OF(ST))

#define U_MAX_OF(ST) ((ST) ~(ST)0)
#define U_MIN_OF(ST) ((ST)0)
#define S_MAX_OF(ST) ((ST)(((uint64_t)1 << (8 * sizeof(ST) - 1)) - 1))
#define S_MIN_OF(ST) ((ST)(-S_MAX_OF(ST) - 1))

REDUCE_INT_KERNELS(u8, uint8_t, U, uint64_t, u64, REDUCE_P_SQUARE)
REDUCE_INT_KERNELS(i8, int8_t, S, int64_t, i64, REDUCE_P_SQUARE)
REDUCE_INT_KERNELS(u16, uint16_t, U, uint64_t, u64, REDUCE_P_SQUAREU16)
REDUCE_INT_KERNELS(i16, int16_t, S, int64_t, i64, REDUCE_P_SQUARE)
REDUCE_INT_KERNELS(u32, uint32_t, U, uint64_t, u64, REDUCE_P_SQUAREU32)
REDUCE_INT_KERNELS(i32, int32_t, S, int64_t, i64, REDUCE_P_SQUARE32)
REDUCE_INT_KERNELS(u64, uint64_t, U, uint64_t, u64, REDUCE_P_SQUARE64)
REDUCE_INT_KERNELS(i64, int64_t, S, int64_t, i64, REDUCE_P_SQUARE64)
REDUCE_DEFINE(sum_f_f, float, float, f, REDUCE_P_SUM, REDUCE_R_ADD, 0)
REDUCE_DEFINE(sq_f_f, float, float, f, REDUCE_P_SQUARE, REDUCE_R_ADD, 0)
REDUCE_DEFINE(var_f, float, float, f, REDUCE_P_VARIANCE, REDUCE_R_ADD, 0)
REDUCE_DEFINE(min_f, float, float, f, REDUCE_P_SUM, REDUCE_R_MIN, FLT_MAX)
REDUCE_DEFINE(max_f, float, float, f, REDUCE_P_SUM, REDUCE_R_MAX, -FLT_MAX)

#define REDUCE_INT_ENTRIES(T, ID, WID)                                                             \
	REDUCE_ENTRY(sum_##T##_##T, DALIC_REDUCE_SUM, ID, ID),                                     \
	    REDUCE_ENTRY(sum_##T##_w, DALIC_REDUCE_SUM, ID, WID),                                  \
	    REDUCE_ENTRY(sum_##T##_f, DALIC_REDUCE_SUM, ID, DALIC_FLOAT),                          \
	    REDUCE_ENTRY(sq_##T##_##T, DALIC_REDUCE_SQUARE, ID, ID),                               \
	    REDUCE_ENTRY(sq_##T##_w, DALIC_REDUCE_SQUARE, ID, WID),                                \
	    REDUCE_ENTRY(sq_##T##_f, DALIC_REDUCE_SQUARE, ID, DALIC_FLOAT),                        \
	    REDUCE_ENTRY(var_##T, DALIC_REDUCE_VARIANCE, ID, DALIC_FLOAT),                         \
	    REDUCE_ENTRY(min_##T, DALIC_REDUCE_MIN, ID, ID),                                       \
	    REDUCE_ENTRY(max_##T, DALIC_REDUCE_MAX, ID, ID)

static const reduce_ops_t reduce_table[] = {
    REDUCE_INT_ENTRIES(u8, DALIC_UINT8, DALIC_UINT64),
    REDUCE_INT_ENTRIES(i8, DALIC_INT8, DALIC_INT64),
    REDUCE_INT_ENTRIES(u16, DALIC_UINT16, DALIC_UINT64),
    REDUCE_INT_ENTRIES(i16, DALIC_INT16, DALIC_INT64),
    REDUCE_INT_ENTRIES(u32, DALIC_UINT32, DALIC_UINT64),
    REDUCE_INT_ENTRIES(i32, DALIC_INT32, DALIC_INT64),
    REDUCE_INT_ENTRIES(u64, DALIC_UINT64, DALIC_UINT64),
    REDUCE_INT_ENTRIES(i64, DALIC_INT64, DALIC_INT64),
    REDUCE_ENTRY(sum_f_f, DALIC_REDUCE_SUM, DALIC_FLOAT, DALIC_FLOAT),
    REDUCE_ENTRY(sq_f_f, DALIC_REDUCE_SQUARE, DALIC_FLOAT, DALIC_FLOAT),
    REDUCE_ENTRY(var_f, DALIC_REDUCE_VARIANCE, DALIC_FLOAT, DALIC_FLOAT),
    REDUCE_ENTRY(min_f, DALIC_REDUCE_MIN, DALIC_FLOAT, DALIC_FLOAT),
    REDUCE_ENTRY(max_f, DALIC_REDUCE_MAX, DALIC_FLOAT, DALIC_FLOAT),
};

static const reduce_ops_t *reduce_find(dalic_reduce_kind_t kind, dalic_dtype_t in,
                                       dalic_dtype_t out)
{
	for (size_t k = 0; k < sizeof reduce_table / sizeof *reduce_table; k++) {
		const reduce_ops_t *o = &reduce_table[k];
		if (o->kind == kind && o->in == in && o->out == out)
			return o;
	}
	return NULL;
}

bool dalic_reduce_supported(dalic_reduce_kind_t kind, dalic_dtype_t in, dalic_dtype_t out)
{
	return reduce_find(kind, in, out) != NULL;
}

/* ---- DALI's traversal ---------------------------------------------------------------------- */

/* The reduced dims after merging adjacent ones: extents and element strides, outermost
 * first. */
typedef struct reduce_strided {
	const reduce_ops_t *ops;
	const uint8_t *data;
	size_t esize;
	float mean;
	int dims;
	int64_t size[DALIC_MAX_NDIM], stride[DALIC_MAX_NDIM];
} reduce_strided_t;

/* reduce(): the outer reduced dims split in halves while the range has more than 32
 * elements and at least two slices; the innermost is one typed tree (the leaf). */
static void reduce_axis(const reduce_strided_t *st, reduce_acc_t *acc, int axis, int64_t extent,
                        int64_t offset)
{
	const reduce_ops_t *o = st->ops;
	int64_t stride = st->stride[axis];
	reduce_acc_t t1, t2;
	if (axis == st->dims - 1) {
		/* tmp = neutral; reduce1D(tmp, ...); R(reduced, tmp) */
		o->neutral(&t1);
		o->leaf(&t1, st->data + (size_t)offset * st->esize, stride, st->size[axis],
		        st->mean);
		o->combine(acc, &t1);
		return;
	}
	int64_t sub = 1;
	for (int d = axis + 1; d < st->dims; d++)
		sub *= st->size[d];
	if (extent >= 2 && extent * sub > REDUCE_TREE_THRESHOLD) {
		int64_t mid = extent / 2;
		o->neutral(&t1);
		o->neutral(&t2);
		reduce_axis(st, &t1, axis, mid, offset);
		reduce_axis(st, &t2, axis, extent - mid, offset + mid * stride);
		o->combine(&t1, &t2);
		o->combine(acc, &t1);
	} else {
		for (int64_t i = 0; i < extent; i++) {
			o->neutral(&t1);
			reduce_axis(st, &t1, axis + 1, st->size[axis + 1], offset + i * stride);
			o->combine(acc, &t1);
		}
	}
}

static void reduce_store(dalic_dtype_t t, void *out, int64_t k, const reduce_acc_t *a)
{
	switch (t) {
	case DALIC_UINT8:
		((uint8_t *)out)[k] = a->u8;
		break;
	case DALIC_INT8:
		((int8_t *)out)[k] = a->i8;
		break;
	case DALIC_UINT16:
		((uint16_t *)out)[k] = a->u16;
		break;
	case DALIC_INT16:
		((int16_t *)out)[k] = a->i16;
		break;
	case DALIC_UINT32:
		((uint32_t *)out)[k] = a->u32;
		break;
	case DALIC_INT32:
		((int32_t *)out)[k] = a->i32;
		break;
	case DALIC_UINT64:
		((uint64_t *)out)[k] = a->u64;
		break;
	case DALIC_INT64:
		((int64_t *)out)[k] = a->i64;
		break;
	case DALIC_FLOAT:
		((float *)out)[k] = a->f;
		break;
	default:
		break;
	}
}

void dalic_reduce_run(dalic_reduce_kind_t kind, dalic_dtype_t it, const void *in,
                      const int64_t *shape, int ndim, uint64_t mask, dalic_dtype_t ot, void *out,
                      const float *mean)
{
	reduce_strided_t st = {
	    .ops = reduce_find(kind, it, ot), .data = in, .esize = dalic_dtype_size(it)};
	if (!st.ops)
		return;
	if (!mask) { /* nothing reduced: each element preprocessed and converted */
		int64_t n = 1;
		for (int d = 0; d < ndim; d++)
			n *= shape[d];
		for (int64_t k = 0; k < n; k++) {
			reduce_acc_t a;
			st.ops->one(&a, in, k, mean ? mean[k] : 0);
			reduce_store(ot, out, k, &a);
		}
		return;
	}
	/* merge runs of adjacent reduced dims, as DALI's CollapseAxes */
	int64_t dims[DALIC_MAX_NDIM], strides[DALIC_MAX_NDIM];
	bool red[DALIC_MAX_NDIM];
	int nd = 0;
	for (int d = 0; d < ndim; d++) {
		bool r = mask & (1ull << d);
		if (nd && red[nd - 1] == r && r)
			dims[nd - 1] *= shape[d];
		else {
			dims[nd] = shape[d];
			red[nd++] = r;
		}
	}
	int64_t s = 1;
	for (int d = nd - 1; d >= 0; d--) {
		strides[d] = s;
		s *= dims[d];
	}
	int64_t kept[DALIC_MAX_NDIM], kstride[DALIC_MAX_NDIM], nout = 1;
	int nk = 0;
	for (int d = 0; d < nd; d++) {
		if (red[d]) {
			st.size[st.dims] = dims[d];
			st.stride[st.dims++] = strides[d];
		} else {
			kept[nk] = dims[d];
			kstride[nk++] = strides[d];
			nout *= dims[d];
		}
	}
	/* output elements in order: an odometer over the kept dims */
	int64_t pos[DALIC_MAX_NDIM] = {0}, offset = 0;
	for (int64_t k = 0; k < nout; k++) {
		reduce_acc_t a;
		st.ops->neutral(&a);
		st.mean = mean ? mean[k] : 0;
		reduce_axis(&st, &a, 0, st.size[0], offset);
		reduce_store(ot, out, k, &a);
		for (int d = nk - 1; d >= 0; d--) {
			offset += kstride[d];
			if (++pos[d] < kept[d])
				break;
			offset -= kstride[d] * kept[d];
			pos[d] = 0;
		}
	}
}

/* float to integer as x86-64 code compiled from C++ converts it: through a 32-bit (narrow
 * types) or 64-bit truncation, with the "integer indefinite" value (the sign bit alone) for
 * NaN and out-of-range values, then wrapped to the type. Defined behaviour for every float. */
static int64_t reduce_f2i64(float v, bool via64)
{
	if (via64)
		return v > -9223372036854775808.0f && v < 9223372036854775808.0f ? (int64_t)v
		                                                                 : INT64_MIN;
	return v > -2147483904.0f && v < 2147483648.0f ? (int32_t)v : INT32_MIN;
}

static uint64_t reduce_f2u64(float v)
{
	if (v >= 9223372036854775808.0f && v < 18446744073709551616.0f)
		return (uint64_t)(v - 9223372036854775808.0f) + (1ull << 63);
	return (uint64_t)reduce_f2i64(v, true);
}

#define REDUCE_TO_UINT8(v) ((uint8_t)reduce_f2i64(v, false))
#define REDUCE_TO_INT8(v) ((int8_t)reduce_f2i64(v, false))
#define REDUCE_TO_UINT16(v) ((uint16_t)reduce_f2i64(v, false))
#define REDUCE_TO_INT16(v) ((int16_t)reduce_f2i64(v, false))
#define REDUCE_TO_INT32(v) ((int32_t)reduce_f2i64(v, false))
#define REDUCE_TO_UINT32(v) ((uint32_t)reduce_f2i64(v, true))
#define REDUCE_TO_INT64(v) reduce_f2i64(v, true)
#define REDUCE_TO_UINT64(v) reduce_f2u64(v)
#define REDUCE_TO_FLOAT(v) (v)

void dalic_reduce_scale(dalic_dtype_t ot, void *out, int64_t n, float norm, bool root)
{
	for (int64_t k = 0; k < n; k++) {
		float v;
		switch (ot) {
#define REDUCE_SCALE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                                \
	case DALIC_##ID:                                                                           \
		v = (float)((CT *)out)[k] * norm;                                                  \
		if (root)                                                                          \
			v = sqrtf(v);                                                              \
		((CT *)out)[k] = REDUCE_TO_##ID(v);                                                \
		break;
			REDUCE_SCALE(UINT8, 0, 0, uint8_t, 0, 0, 0, 0, 0)
			REDUCE_SCALE(INT8, 0, 0, int8_t, 0, 0, 0, 0, 0)
			REDUCE_SCALE(UINT16, 0, 0, uint16_t, 0, 0, 0, 0, 0)
			REDUCE_SCALE(INT16, 0, 0, int16_t, 0, 0, 0, 0, 0)
			REDUCE_SCALE(UINT32, 0, 0, uint32_t, 0, 0, 0, 0, 0)
			REDUCE_SCALE(INT32, 0, 0, int32_t, 0, 0, 0, 0, 0)
			REDUCE_SCALE(UINT64, 0, 0, uint64_t, 0, 0, 0, 0, 0)
			REDUCE_SCALE(INT64, 0, 0, int64_t, 0, 0, 0, 0, 0)
			REDUCE_SCALE(FLOAT, 0, 0, float, 0, 0, 0, 0, 0)
#undef REDUCE_SCALE
		default:
			return;
		}
	}
}
