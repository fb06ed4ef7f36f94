/*
 * ArithmeticGenericOp: evaluating a typed expression over one output sample (arith_expr.h).
 *
 * The sample is cut into tiles of ARITH_TILE output elements. Per tile, nodes run in
 * post-order: operands are converted to the node's compute type (a tensor input is loaded
 * straight into it, or read in place when it already has that representation and needs no
 * broadcasting), the operation runs as one tight loop, and the result is normalized to the
 * node's dtype. The root writes straight into the output when the output dtype is the lane
 * type.
 *
 * As in DALI's arithm_meta, every operand is cast to the node's compute type before the
 * operation (arith_ops.c) and every result is cast to the node's dtype after it. An integer
 * division by zero stops the sample with an error instead of trapping.
 */
/* Conversion loops are the hot path; see the note in arith_ops.c. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif

#include "kernels/common/arith_elem.h"
#include "kernels/common/arith_expr.h"

#include "engine/dtype.h"

#include <string.h>

/* ---- loading input elements into a lane ---- */

#define LOAD_AS(CT, LT, EXPR)                                                                      \
	do {                                                                                       \
		const CT *src_ = (const CT *)base + off;                                           \
		LT *dst_ = dst;                                                                    \
		for (int k = 0; k < n; k++)                                                        \
			dst_[k] = (LT)(EXPR);                                                      \
	} while (0);                                                                               \
	break

/* One case per dtype, loading into the lane type `lane_ct` that LOAD_TO declares. */
/* float16 reads through the rule the CUDA kernel uses (arith_elem.h) */
#define ARITH_VALUE(CLASS, x) ARITH_VALUE_##CLASS(x)
#define ARITH_VALUE_UINT(x) DALIC_DTYPE_VALUE_UINT(x)
#define ARITH_VALUE_SINT(x) DALIC_DTYPE_VALUE_SINT(x)
#define ARITH_VALUE_FLOAT(x) DALIC_DTYPE_VALUE_FLOAT(x)
#define ARITH_VALUE_BOOL(x) DALIC_DTYPE_VALUE_BOOL(x)
#define ARITH_VALUE_HALF(x) dalic_half_to_f32(x)
#define ARITH_LOAD_CASE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                             \
	case DALIC_##ID:                                                                           \
		LOAD_AS(CT, lane_ct, ARITH_VALUE(CLASS, src_[k]));
#define LOAD_TO(LT)                                                                                \
	{                                                                                          \
		typedef LT lane_ct;                                                                \
		switch (t) {                                                                       \
			DALIC_DTYPES_NUMERIC(ARITH_LOAD_CASE)                                      \
		default:                                                                           \
			break;                                                                     \
		}                                                                                  \
	}

/* Elements [off, off + n) of an array of dtype t as values in `lane` (a C conversion, which
 * is what DALI's static_cast to the compute type does; integers only ever meet integer lanes
 * or become floats, so no float is ever narrowed to an integer here). */
static void arith_load_run(dalic_dtype_t t, const void *base, int64_t off, int n, arith_lane_t lane,
                           void *dst)
{
	switch (lane) {
	case ARITH_LANE_I64:
		LOAD_TO(int64_t) break;
	case ARITH_LANE_F32:
		LOAD_TO(float) break;
	case ARITH_LANE_F64:
		LOAD_TO(double) break;
	}
}

static size_t arith_lane_size(arith_lane_t lane)
{
	return lane == ARITH_LANE_F32 ? sizeof(float) : 8;
}

static void arith_fill_run(dalic_dtype_t t, const void *base, int64_t off, int n, arith_lane_t lane,
                           void *dst)
{
	arith_load_run(t, base, off, 1, lane, dst);
	size_t es = arith_lane_size(lane);
	for (int k = 1; k < n; k++)
		memcpy((char *)dst + (size_t)k * es, dst, es);
}

static bool arith_is_lane_native(dalic_dtype_t t)
{
	return t == DALIC_FLOAT || t == DALIC_FLOAT64 || t == DALIC_INT64 || t == DALIC_UINT64;
}

void dalic_arith_round_to_half(float *v, int n)
{
	for (int k = 0; k < n; k++)
		v[k] = dalic_arith_round_half(v[k]);
}

/* Values of operand `op` at output elements [start, start + n), converted to dtype `to` —
 * read in place when nothing changes, else loaded (and broadcast) into dst. */
static const void *arith_gather(const arith_operand_t *op, const arith_sample_t *s, int64_t start,
                                int n, dalic_dtype_t to, void *dst)
{
	arith_lane_t lane = dalic_arith_lane(to);
	bool to_half = to == DALIC_FLOAT16 && op->dtype != DALIC_FLOAT16;
	if (op->mode == ARITH_SAME && arith_is_lane_native(op->dtype) &&
	    dalic_arith_lane(op->dtype) == lane)
		return (const char *)op->data + (size_t)start * dalic_dtype_size(op->dtype);
	if (op->mode == ARITH_SCALAR) {
		arith_fill_run(op->dtype, op->data, 0, n, lane, dst);
	} else if (op->mode == ARITH_SAME) {
		arith_load_run(op->dtype, op->data, start, n, lane, dst);
	} else {
		/* broadcasting: walk the output coordinates in runs along the innermost dim */
		int nd = s->ndim;
		int64_t coord[DALIC_MAX_NDIM], rem = start;
		for (int d = nd - 1; d >= 0; d--) {
			coord[d] = rem % s->shape[d];
			rem /= s->shape[d];
		}
		size_t es = arith_lane_size(lane);
		for (int done = 0; done < n;) {
			int64_t off = 0;
			for (int d = 0; d < nd; d++)
				off += coord[d] * op->strides[d];
			int64_t left = s->shape[nd - 1] - coord[nd - 1];
			int run = left < n - done ? (int)left : n - done;
			void *at = (char *)dst + (size_t)done * es;
			if (op->strides[nd - 1] == 0)
				arith_fill_run(op->dtype, op->data, off, run, lane, at);
			else
				arith_load_run(op->dtype, op->data, off, run, lane, at);
			done += run;
			coord[nd - 1] += run;
			for (int d = nd - 1; d > 0 && coord[d] == s->shape[d]; d--) {
				coord[d] = 0;
				coord[d - 1]++;
			}
		}
	}
	if (to_half)
		dalic_arith_round_to_half(dst, n);
	return dst;
}

/* ---- converting between lanes ---- */

#define CONVERT(ST, DT)                                                                            \
	do {                                                                                       \
		const ST *s_ = src;                                                                \
		DT *d_ = dst;                                                                      \
		for (int k = 0; k < n; k++)                                                        \
			d_[k] = (DT)s_[k];                                                         \
	} while (0)

/* Operand values of dtype `from` as values of dtype `to` (a static_cast, as DALI does before
 * every operation). Returns src when nothing needs to change. */
static const void *arith_convert(const void *src, dalic_dtype_t from, dalic_dtype_t to, int n,
                                 void *dst)
{
	arith_lane_t lf = dalic_arith_lane(from), lt = dalic_arith_lane(to);
	if (lf == lt) {
		if (to != DALIC_FLOAT16 || from == DALIC_FLOAT16)
			return src; /* integer promotions never narrow; uint64 -> int64 keeps bits
			             */
		memcpy(dst, src, sizeof(float) * (size_t)n);
		dalic_arith_round_to_half(dst, n);
		return dst;
	}
	bool u64 = from == DALIC_UINT64;
	switch (lf * 3 + lt) {
	case ARITH_LANE_I64 * 3 + ARITH_LANE_F32:
		if (u64)
			CONVERT(uint64_t, float);
		else
			CONVERT(int64_t, float);
		break;
	case ARITH_LANE_I64 * 3 + ARITH_LANE_F64:
		if (u64)
			CONVERT(uint64_t, double);
		else
			CONVERT(int64_t, double);
		break;
	case ARITH_LANE_F32 * 3 + ARITH_LANE_F64:
		CONVERT(float, double);
		break;
	case ARITH_LANE_F64 * 3 + ARITH_LANE_F32:
		CONVERT(double, float);
		break;
	case ARITH_LANE_F32 * 3 + ARITH_LANE_I64:
		CONVERT(float, int64_t);
		break;
	case ARITH_LANE_F64 * 3 + ARITH_LANE_I64:
		CONVERT(double, int64_t);
		break;
	}
	if (to == DALIC_FLOAT16)
		dalic_arith_round_to_half(dst, n);
	return dst;
}

/* Writes lane values of dtype t to the output (the dtype's own representation). */
static void arith_store(dalic_dtype_t t, const void *src, void *base, int64_t off, int n)
{
#define STORE(ST, CT)                                                                              \
	do {                                                                                       \
		const ST *s_ = src;                                                                \
		CT *d_ = (CT *)base + off;                                                         \
		for (int k = 0; k < n; k++)                                                        \
			d_[k] = (CT)s_[k];                                                         \
	} while (0);                                                                               \
	break
	/* integers and bool come from the int64 lane, floats from their own */
#define STORE_UINT(CT) STORE(int64_t, CT)
#define STORE_SINT(CT) STORE(int64_t, CT)
#define STORE_BOOL(CT) STORE(int64_t, CT)
#define STORE_FLOAT(CT) STORE(CT, CT)
#define STORE_HALF(CT)                                                                             \
	do {                                                                                       \
		const float *s_ = src;                                                             \
		CT *d_ = (CT *)base + off;                                                         \
		for (int k = 0; k < n; k++)                                                        \
			d_[k] = dalic_half_from_f32(s_[k]);                                     \
	} while (0);                                                                               \
	break
#define STORE_CASE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                                  \
	case DALIC_##ID:                                                                           \
		STORE_##CLASS(CT);
	switch (t) {
		DALIC_DTYPES_NUMERIC(STORE_CASE)
	default:
		break;
	}
#undef STORE_CASE
#undef STORE_UINT
#undef STORE_SINT
#undef STORE_BOOL
#undef STORE_FLOAT
#undef STORE_HALF
#undef STORE
}

void dalic_arith_operand(const void *data, dalic_dtype_t dtype, int in_ndim,
                         const int64_t *in_shape, int out_ndim, const int64_t *out_shape,
                         arith_operand_t *op)
{
	int64_t in_elems = 1, out_elems = 1;
	for (int d = 0; d < in_ndim; d++)
		in_elems *= in_shape[d];
	for (int d = 0; d < out_ndim; d++)
		out_elems *= out_shape[d];
	op->data = data;
	op->dtype = dtype;
	op->mode = in_elems == out_elems ? ARITH_SAME
	           : in_elems == 1       ? ARITH_SCALAR
	                                 : ARITH_STRIDED;
	int64_t stride = 1;
	for (int d = out_ndim - 1; d >= 0; d--) {
		int id = d - (out_ndim - in_ndim);
		if (id < 0) {
			op->strides[d] = 0;
			continue;
		}
		op->strides[d] = in_shape[id] == 1 && out_shape[d] != 1 ? 0 : stride;
		stride *= in_shape[id];
	}
}

size_t dalic_arith_scratch_tiles(const arith_expr_t *e)
{
	size_t n = 0;
	for (int j = 0; j < e->num_nodes; j++)
		n += 1 + (size_t)e->nodes[j].num_args;
	return n;
}

void dalic_arith_fill_constants(const arith_expr_t *e, const int64_t *ints, const double *reals,
                                arith_tile_t *const_tiles)
{
	for (int j = 0; j < e->num_nodes; j++) {
		const arith_node_t *n = &e->nodes[j];
		if (n->kind != ARITH_CONST)
			continue;
		arith_tile_t *t = &const_tiles[n->slot];
		if (dalic_dtype_is_integral(n->dtype)) {
			t->i[0] = ints[n->index];
			dalic_arith_normalize(n->dtype, t->i, 1);
		} else if (n->dtype == DALIC_FLOAT64) {
			t->d[0] = (float)reals[n->index];
		} else {
			t->f[0] = (float)reals[n->index];
			if (n->dtype == DALIC_FLOAT16)
				dalic_arith_round_to_half(t->f, 1);
		}
		size_t es = arith_lane_size(dalic_arith_lane(n->dtype));
		for (int k = 1; k < ARITH_TILE; k++)
			memcpy((char *)t + (size_t)k * es, t, es);
	}
}

/* One tile [start, start + len). Returns -1 or the failing node. */
static int arith_eval_tile(const arith_expr_t *e, const arith_sample_t *s, int64_t start, int len,
                           arith_tile_t *scratch, const arith_tile_t *const_tiles)
{
	const void *vals[ARITH_MAX_NODES];
	int root = e->num_nodes - 1;
	arith_tile_t *tiles = scratch;
	for (int j = 0; j < e->num_nodes; j++) {
		const arith_node_t *n = &e->nodes[j];
		arith_tile_t *res = tiles++;
		if (n->kind == ARITH_INPUT) {
			/* read by the consumer straight into its compute type, see below */
			if (j == root)
				vals[j] = arith_gather(&s->inputs[n->index], s, start, len,
				                       n->dtype, res);
			continue;
		}
		if (n->kind == ARITH_CONST) {
			vals[j] = &const_tiles[n->slot];
			continue;
		}
		const void *v[ARITH_MAX_ARITY] = {0};
		for (int a = 0; a < n->num_args; a++) {
			const arith_node_t *arg = &e->nodes[n->args[a]];
			if (arg->kind == ARITH_INPUT)
				v[a] = arith_gather(&s->inputs[arg->index], s, start, len,
				                    n->compute, tiles++);
			else
				v[a] = arith_convert(vals[n->args[a]], arg->dtype, n->compute, len,
				                     tiles++);
		}
		void *out = res;
		if (j == root && arith_is_lane_native(n->dtype))
			out = (char *)s->out + (size_t)start * dalic_dtype_size(n->dtype);
		if (!dalic_arith_apply(n, v, out, len))
			return j;
		if (n->dtype == DALIC_FLOAT16)
			dalic_arith_round_to_half(out, len);
		else if (dalic_arith_lane(n->dtype) == ARITH_LANE_I64)
			dalic_arith_normalize(n->dtype, out, len);
		vals[j] = out;
	}
	const arith_node_t *r = &e->nodes[root];
	if (r->kind != ARITH_FUNC || !arith_is_lane_native(r->dtype))
		arith_store(r->dtype, vals[root], s->out, start, len);
	return -1;
}

int dalic_arith_eval_sample(const arith_expr_t *e, const arith_sample_t *s, arith_tile_t *scratch,
                            const arith_tile_t *const_tiles)
{
	for (int64_t start = 0; start < s->elems; start += ARITH_TILE) {
		int len = s->elems - start < ARITH_TILE ? (int)(s->elems - start) : ARITH_TILE;
		int bad = arith_eval_tile(e, s, start, len, scratch, const_tiles);
		if (bad >= 0)
			return bad;
	}
	return -1;
}
