/*
 * normalize's arithmetic, shared by the CPU operator (kernels/cpu/math/normalize.c) and the
 * CUDA kernel (kernels/cuda/normalize.cuh):
 *   - the per-element value (x - mean) * inv + shift, each step rounded to float;
 *   - the inverse deviation, from a given deviation (DALI's CalcInvStdDev) or from a sum of
 *     squared deviations (DALI's SumSquare2InvStdDev / ScaleRSqrtKeepZero, whose 4-wide SSE
 *     loop and scalar tail round differently: the element's position picks the formula);
 *   - DALI's reduction order (kernels/common/reduce.c) as an explicit-stack walk, so a GPU
 *     thread adds the same values in the same order as the CPU and the sums are bit-identical.
 * On the device the products and sums use the _rn intrinsics, so nvcc fuses nothing into an
 * FMA (the CPU files turn contraction off). The reciprocal square root is the processor's SSE
 * estimate refined once, as DALI's CPU kernel: the device uses rsqrtf, which is not the same
 * estimate, so inverses computed from a variance or with epsilon compare within a tolerance
 * on a GPU (docs/gpu.md); on the CPU grid runner they are the CPU's, bit for bit.
 */
#ifndef DALIC_KERNELS_COMMON_NORMALIZE_PX_H
#define DALIC_KERNELS_COMMON_NORMALIZE_PX_H

#include "dalic.h"
#include "kernels/common/convert_elem.h"
#include "kernels/cuda/cu_defs.h"

#include <math.h>
#include <stdint.h>
#if defined(__SSE__) && !defined(__CUDACC__)
#include <xmmintrin.h>
#endif

#ifdef __CUDA_ARCH__
#define DALIC_NORM_ADD(a, b) __fadd_rn(a, b)
#define DALIC_NORM_SUB(a, b) __fsub_rn(a, b)
#define DALIC_NORM_MUL(a, b) __fmul_rn(a, b)
#define DALIC_NORM_DIV(a, b) __fdiv_rn(a, b)
#else
#define DALIC_NORM_ADD(a, b) ((a) + (b))
#define DALIC_NORM_SUB(a, b) ((a) - (b))
#define DALIC_NORM_MUL(a, b) ((a) * (b))
#define DALIC_NORM_DIV(a, b) ((a) / (b))
#endif

/* Runs of at most this many elements are summed left to right (reduce.c's threshold). */
#define DALIC_NORM_TREE_RUN 32

/* ---- per element ---------------------------------------------------------------------- */

/* Element i of an input of type t (the operator's int8 ... uint32 and float) as a float. */
DALIC_HD float dalic_norm_load(int t, const void *base, int64_t i)
{
	switch (t) {
	case DALIC_INT8:
		return (float)((const int8_t *)base)[i];
	case DALIC_UINT8:
		return (float)((const uint8_t *)base)[i];
	case DALIC_INT16:
		return (float)((const int16_t *)base)[i];
	case DALIC_UINT16:
		return (float)((const uint16_t *)base)[i];
	case DALIC_INT32:
		return (float)((const int32_t *)base)[i];
	case DALIC_UINT32:
		return (float)((const uint32_t *)base)[i];
	default:
		return ((const float *)base)[i];
	}
}

/* (x - mean) * inv + shift, inv being scale / stddev. */
DALIC_HD float dalic_norm_value(float x, float mean, float inv, float shift)
{
	return DALIC_NORM_ADD(DALIC_NORM_MUL(DALIC_NORM_SUB(x, mean), inv), shift);
}

/* ConvertSat to the output type: convert_elem.h's rules, which the CPU's sat_cast.h stores
 * share for every float (cuda_cast checks them pair by pair). */
DALIC_HD void dalic_norm_store(int t, void *base, int64_t i, float v)
{
	dalic_cvt_store_f64(t, base, i, (double)v);
}

/* ---- the inverse deviation ------------------------------------------------------------ */

/* The reciprocal square root estimate: SSE's rsqrtss on the CPU, rsqrtf on the device. */
DALIC_HD float dalic_norm_rsqrt_estimate(float x)
{
#ifdef __CUDA_ARCH__
	return rsqrtf(x);
#elif defined(__SSE__) && !defined(__CUDACC__)
	return _mm_cvtss_f32(_mm_rsqrt_ss(_mm_set_ss(x)));
#else
	return 1.0f / sqrtf(x);
#endif
}

/* DALI's rsqrt(): the estimate refined once, y * (1.5 - x * 0.5 * y * y). Without SSE on the
 * host, 1 / sqrt. */
DALIC_HD float dalic_norm_rsqrt(float x)
{
#if defined(__CUDA_ARCH__) || (defined(__SSE__) && !defined(__CUDACC__))
	float y = dalic_norm_rsqrt_estimate(x);
	float t = DALIC_NORM_MUL(DALIC_NORM_MUL(DALIC_NORM_MUL(x, 0.5f), y), y);
	return DALIC_NORM_MUL(y, DALIC_NORM_SUB(1.5f, t));
#else
	return 1.0f / sqrtf(x);
#endif
}

/* A given deviation -> scale / sqrt(sd^2 + epsilon), or scale / sd (0 for 0) without epsilon
 * (DALI's CalcInvStdDev). */
DALIC_HD float dalic_norm_inv_given(float sd, float epsilon, float scale)
{
	if (epsilon != 0)
		return DALIC_NORM_MUL(
		    scale, dalic_norm_rsqrt(DALIC_NORM_ADD(DALIC_NORM_MUL(sd, sd), epsilon)));
	return sd != 0 ? DALIC_NORM_DIV(scale, sd) : 0.0f;
}

/* The factors of the fold for v values: rdiv = 1 / (v - ddof) and mul = scale; with no
 * degrees of freedom left, rdiv 1 and, without epsilon, mul 0 (the output is `shift`). */
DALIC_HD void dalic_norm_fold_coeffs(int64_t v, int ddof, float epsilon, float scale, float *rdiv,
                                     float *mul)
{
	*rdiv = 0;
	*mul = scale;
	if (v > ddof) {
		*rdiv = (float)(1.0 / (double)(v - ddof));
	} else if (epsilon == 0) {
		*rdiv = 1;
		*mul = 0;
	}
}

/*
 * Element k of n of DALI's ScaleRSqrtKeepZero: mul / sqrt(sq * rdiv + epsilon), a zero kept
 * as zero when epsilon is 0. DALI runs it four values at a time with SSE, y * (3 - x * y * y)
 * times mul / 2, and the last n % 4 with the scalar rsqrt() times mul; the two round
 * differently (and the SSE lanes give -0 for a zero with a negative scale), so the position
 * picks the formula. Without SSE every element takes the scalar one.
 */
DALIC_HD float dalic_norm_fold(float sq, int64_t k, int64_t n, float epsilon, float rdiv, float mul)
{
	float x = DALIC_NORM_MUL(sq, rdiv);
#if defined(__CUDA_ARCH__) || (defined(__SSE__) && !defined(__CUDACC__))
	if (k < (n & ~(int64_t)3)) {
		float y;
		if (epsilon != 0) {
			x = DALIC_NORM_ADD(x, epsilon);
			y = dalic_norm_rsqrt_estimate(x);
		} else {
			y = x != 0 ? dalic_norm_rsqrt_estimate(x) : 0.0f; /* NaN != 0 too */
		}
		y = DALIC_NORM_MUL(y,
		                   DALIC_NORM_SUB(3.0f, DALIC_NORM_MUL(x, DALIC_NORM_MUL(y, y))));
		return DALIC_NORM_MUL(y, DALIC_NORM_MUL(mul, 0.5f));
	}
#else
	(void)k;
	(void)n;
#endif
	if (epsilon != 0)
		return DALIC_NORM_MUL(dalic_norm_rsqrt(DALIC_NORM_ADD(x, epsilon)), mul);
	return x != 0 ? DALIC_NORM_MUL(dalic_norm_rsqrt(x), mul) : 0.0f;
}

/* ---- DALI's reduction order ------------------------------------------------------------ */

/*
 * The reduced geometry of one sample, as reduce.c's dalic_reduce_run sees it: the reduced
 * dims after merging adjacent ones (extents, element strides, and sub[d], the elements one
 * index of dim d spans), and the kept dims whose odometer numbers the outputs.
 */
typedef struct dalic_norm_tree {
	int dims, nkept;
	int64_t size[DALIC_MAX_NDIM], stride[DALIC_MAX_NDIM], sub[DALIC_MAX_NDIM];
	int64_t kept[DALIC_MAX_NDIM], kstride[DALIC_MAX_NDIM];
	int64_t nout, volume; /* outputs; elements behind each */
} dalic_norm_tree_t;

/*
 * A node of the tree: elements [at, at + count) of the reduced index space (row-major over
 * the reduced dims). On an outer dim (axis < dims - 1) it is `extent` slices of that dim,
 * count extent * sub[axis]; on the innermost it is `extent` consecutive elements of one row.
 */
typedef struct dalic_norm_node {
	int64_t axis, at, extent;
} dalic_norm_node_t;

/* The stack: below the root, each level halves an extent (ceil(log2) levels a dim) or
 * descends a dim: at most log2(volume) + 2 * dims + 1 levels. */
#define DALIC_NORM_STACK (64 + 2 * DALIC_MAX_NDIM + 2)

/* The reduction applied to each element: x (sum) or (x - mean)^2 (variance). */
enum { DALIC_NORM_SUM = 0, DALIC_NORM_VAR = 1 };

/* The plan of a sample of `shape` reduced over `mask` (reduce.c's merging). */
DALIC_HOST void dalic_norm_tree_make(dalic_norm_tree_t *t, const int64_t *shape, int ndim,
                                     uint64_t mask)
{
	int64_t dims[DALIC_MAX_NDIM], strides[DALIC_MAX_NDIM];
	int red[DALIC_MAX_NDIM];
	int nd = 0;
	t->dims = t->nkept = 0;
	t->nout = t->volume = 1;
	for (int d = 0; d < ndim; d++) {
		int r = (mask >> d) & 1;
		if (nd && red[nd - 1] == r && r) {
			dims[nd - 1] *= shape[d];
		} else {
			dims[nd] = shape[d];
			red[nd++] = r;
		}
	}
	int64_t s = 1;
	for (int d = nd - 1; d >= 0; d--) {
		strides[d] = s;
		s *= dims[d];
	}
	for (int d = 0; d < nd; d++) {
		if (red[d]) {
			t->size[t->dims] = dims[d];
			t->stride[t->dims++] = strides[d];
			t->volume *= dims[d];
		} else {
			t->kept[t->nkept] = dims[d];
			t->kstride[t->nkept++] = strides[d];
			t->nout *= dims[d];
		}
	}
	int64_t sub = 1;
	for (int d = t->dims - 1; d >= 0; d--) {
		t->sub[d] = sub;
		sub *= t->size[d];
	}
}

/* Offset of index k of an n-dim odometer with extents dim and strides stride (innermost last). */
DALIC_HD int64_t dalic_norm_odometer(int n, const int64_t *dim, const int64_t *stride, int64_t k)
{
	int64_t off = 0;
	for (int d = n - 1; d >= 0; d--) {
		int64_t q = k / dim[d];
		off += (k - q * dim[d]) * stride[d];
		k = q;
	}
	return off;
}

/* Element offset of output k's first input (k numbers the kept dims' odometer). */
DALIC_HD int64_t dalic_norm_tree_base(const dalic_norm_tree_t *t, int64_t k)
{
	return dalic_norm_odometer(t->nkept, t->kept, t->kstride, k);
}

/* Element offset (from the output's base) of reduced index at. */
DALIC_HD int64_t dalic_norm_tree_offset(const dalic_norm_tree_t *t, int64_t at)
{
	int64_t off = 0;
	for (int d = t->dims - 1; d >= 0; d--) {
		int64_t q = at / t->size[d];
		off += (at - q * t->size[d]) * t->stride[d];
		at = q;
	}
	return off;
}

DALIC_HD int64_t dalic_norm_node_count(const dalic_norm_tree_t *t, const dalic_norm_node_t *n)
{
	return n->axis == t->dims - 1 ? n->extent : n->extent * t->sub[n->axis];
}

/* The root: all reduced elements of one output. */
DALIC_HD dalic_norm_node_t dalic_norm_tree_root(const dalic_norm_tree_t *t)
{
	dalic_norm_node_t n;
	n.axis = 0;
	n.at = 0;
	n.extent = t->dims ? t->size[0] : 0;
	return n;
}

/* One element, preprocessed: x, or (x - mean)^2. */
DALIC_HD float dalic_norm_elem(int kind, int type, const void *data, int64_t off, float mean)
{
	float x = dalic_norm_load(type, data, off);
	if (kind == DALIC_NORM_VAR) {
		float d = DALIC_NORM_SUB(x, mean);
		return DALIC_NORM_MUL(d, d);
	}
	return x;
}

typedef struct dalic_norm_frame {
	dalic_norm_node_t node;
	int64_t next; /* children done */
	int split;    /* two halves (else a loop over slices) */
	float acc;
} dalic_norm_frame_t;

/*
 * The value of `node` for the output whose first input is at element `base`, summed in
 * reduce.c's order: a range of more than 32 elements is split in halves (an outer dim while
 * it has two slices or more), the halves added; smaller outer ranges add their slices one by
 * one into a fresh accumulator; innermost runs of at most 32 are summed left to right from 0.
 * (reduce.c also adds each subtotal into a fresh 0; x + 0 is x for every subtotal, which is
 * never -0 since each run starts at +0.)
 *
 * Nodes of at most `chunk` elements (below the node itself) are not walked: with `parts`
 * their values are read from parts[*next, ...] in order, otherwise they are written to
 * emit[*next] (emit may be NULL to count) and count as 0. Pass chunk < 0 to walk everything.
 */
DALIC_HD float dalic_norm_tree_eval(const dalic_norm_tree_t *t, dalic_norm_node_t node, int kind,
                                    int type, const void *data, int64_t base, float mean,
                                    int64_t chunk, const float *parts, dalic_norm_node_t *emit,
                                    int64_t *next)
{
	dalic_norm_frame_t st[DALIC_NORM_STACK];
	int top = 0;
	float v;
	st[0].node = node;
	st[0].next = -1; /* not expanded yet */
	for (;;) {
		dalic_norm_frame_t *f = &st[top];
		const dalic_norm_node_t *n = &f->node;
		if (f->next < 0) {
			int64_t count = dalic_norm_node_count(t, n);
			if (top > 0 && count <= chunk) { /* a chunk: read, or listed */
				if (parts) {
					v = parts[*next];
				} else {
					if (emit)
						emit[*next] = *n;
					v = 0;
				}
				++*next;
				goto up;
			}
			if (n->axis == t->dims - 1 && n->extent <= DALIC_NORM_TREE_RUN) {
				/* (an empty reduction has extents of 0: no offset to take) */
				int64_t off =
				    n->extent ? base + dalic_norm_tree_offset(t, n->at) : 0;
				int64_t step = t->stride[t->dims - 1];
				v = 0;
				for (int64_t i = 0; i < n->extent; i++)
					v = DALIC_NORM_ADD(v,
					                   dalic_norm_elem(kind, type, data,
					                                   off + i * step, mean));
				goto up;
			}
			/* halves (the innermost dim, or an outer range of more than 32 elements
			 * with two slices or more), else the slices of an outer dim */
			f->split = n->axis == t->dims - 1 ||
			           (n->extent >= 2 && count > DALIC_NORM_TREE_RUN);
			f->next = 0;
			f->acc = 0;
		}
		if (f->next < (f->split ? 2 : n->extent)) {
			dalic_norm_node_t c;
			if (f->split) {
				int64_t half = n->extent >> 1;
				int64_t span = n->axis == t->dims - 1 ? 1 : t->sub[n->axis];
				c.axis = n->axis;
				c.at = f->next ? n->at + half * span : n->at;
				c.extent = f->next ? n->extent - half : half;
			} else {
				c.axis = n->axis + 1;
				c.at = n->at + f->next * t->sub[n->axis];
				c.extent = t->size[n->axis + 1];
			}
			top++;
			st[top].node = c;
			st[top].next = -1;
			continue;
		}
		v = f->acc;
	up:
		if (--top < 0)
			return v;
		f = &st[top];
		f->acc = f->split && f->next == 0 ? v : DALIC_NORM_ADD(f->acc, v);
		f->next++;
	}
}

#endif
