/*
 * The per-element rules of slice, crop and the other window copies, shared by the CPU copy
 * (kernels/common/slice_copy.c, crop's conversion) and the CUDA kernel (kernels/cuda/slice.cuh),
 * so both pick the same source element, fill value and conversion:
 *
 * - border modes map a coordinate outside an extent inside (dali/core/boundary.h);
 * - an element outside the input takes fill[coordinate along channel_dim % nfill];
 * - slice converts as DALI's slice kernels (clamp, then truncate toward zero; NaN is 0; floating
 *   and bool targets as ConvertSat), crop as ConvertSat from double (round half away).
 *
 * A plan (dalic_slice_elem_plan_t) names one sample's window; dalic_slice_elem_src maps an
 * output element to its source element, or to a fill value.
 */
#ifndef DALIC_KERNELS_COMMON_SLICE_ELEM_H
#define DALIC_KERNELS_COMMON_SLICE_ELEM_H

#include "kernels/common/convert_elem.h"
#include "kernels/cuda/cu_defs.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum {
	SLICE_BORDER_CONSTANT,
	SLICE_BORDER_CLAMP,
	SLICE_BORDER_REFLECT_1001,
	SLICE_BORDER_REFLECT_101,
	SLICE_BORDER_WRAP,
} slice_border_t;

/* The conversion of a plan: slice's (clamp, truncate) or crop's ConvertSat from double. */
enum { DALIC_SLICE_CVT_TRUNC, DALIC_SLICE_CVT_SAT };

#define DALIC_SLICE_ELEM_MAX_NDIM 8

/* Coordinate x of an extent n > 0 mapped inside by a border mode (not CONSTANT). */
DALIC_HD int64_t dalic_slice_elem_border(int border, int64_t x, int64_t n)
{
	if (x >= 0 && x < n)
		return x;
	switch (border) {
	case SLICE_BORDER_CLAMP:
		return x < 0 ? 0 : n - 1;
	case SLICE_BORDER_REFLECT_1001: {
		int64_t m = x % (2 * n);
		m = m < 0 ? m + 2 * n : m;
		return m < n ? m : 2 * n - 1 - m;
	}
	case SLICE_BORDER_REFLECT_101: {
		if (n == 1)
			return 0;
		int64_t m = x % (2 * n - 2);
		m = m < 0 ? m + 2 * n - 2 : m;
		return m < n ? m : 2 * n - 2 - m;
	}
	default: { /* wrap */
		int64_t m = x % n;
		return m < 0 ? m + n : m;
	}
	}
}

/* The fill value of an element outside the input whose output coordinate along channel_dim is
 * `chan` (ignored when channel_dim < 0): channels are never padded into, so the output
 * coordinate is the channel. */
DALIC_HD int dalic_slice_elem_fill_index(int nfill, int channel_dim, int64_t chan)
{
	return nfill <= 1 || channel_dim < 0 ? 0 : (int)(chan % nfill);
}

/* Element k of an array of t as double (dalic_dtype_load_f64's rule). */
DALIC_HD double dalic_slice_elem_load_f64(int t, const void *p, int64_t k)
{
	switch (t) {
#define DALIC_SLICE_ELEM_LOAD(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                       \
	case DALIC_##ID:                                                                           \
		return (double)DALIC_DTYPE_VALUE(CLASS, ((const CT *)p)[k]);
		DALIC_DTYPES_NUMERIC(DALIC_SLICE_ELEM_LOAD)
#undef DALIC_SLICE_ELEM_LOAD
	default:
		return 0;
	}
}

/* Slice's store of a double v into element k of dst, per class of the target: integers clamp
 * then truncate toward zero (NaN becomes 0), floating and bool targets as ConvertSat. */
#define DALIC_SLICE_TRUNC_INT(CT, LO, HI)                                                          \
	v = isnan(v) ? 0 : trunc(v);                                                               \
	((CT *)dst)[k] = DALIC_SAT_FROM_F64(CT, LO, HI, v);
#define DALIC_SLICE_TRUNC_UINT DALIC_SLICE_TRUNC_INT
#define DALIC_SLICE_TRUNC_SINT DALIC_SLICE_TRUNC_INT
#define DALIC_SLICE_TRUNC_SAT(CT, LO, HI) dalic_cvt_store_f64(to, dst, k, v);
#define DALIC_SLICE_TRUNC_FLOAT DALIC_SLICE_TRUNC_SAT
#define DALIC_SLICE_TRUNC_HALF DALIC_SLICE_TRUNC_SAT
#define DALIC_SLICE_TRUNC_BOOL DALIC_SLICE_TRUNC_SAT

/* dst[k] (type `to`) = src[j] (type `from`) as DALI's slice kernels convert. */
DALIC_HD void dalic_slice_elem_convert(int to, void *dst, int64_t k, int from, const void *src,
                                       int64_t j)
{
	double v = dalic_slice_elem_load_f64(from, src, j);
	switch (to) {
#define DALIC_SLICE_ELEM_CVT(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                        \
	case DALIC_##ID:                                                                           \
		DALIC_SLICE_TRUNC_##CLASS(CT, LO, HI) break;
		DALIC_DTYPES_NUMERIC(DALIC_SLICE_ELEM_CVT)
#undef DALIC_SLICE_ELEM_CVT
	default:
		break;
	}
}

/* dst[k] (type `to`) = ConvertSat(src[j] (type `from`) as double): crop's conversion, as
 * dalic_dtype_store_sat(to, dst, k, dalic_dtype_load_f64(from, src, j)). */
DALIC_HD void dalic_slice_elem_convert_sat(int to, void *dst, int64_t k, int from,
                                           const void *src, int64_t j)
{
	dalic_cvt_store_f64(to, dst, k, dalic_slice_elem_load_f64(from, src, j));
}

/* Bytes of an element of t (a numeric type). */
DALIC_HD int dalic_slice_elem_size(int t)
{
	switch (t) {
#define DALIC_SLICE_ELEM_SIZE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                       \
	case DALIC_##ID:                                                                           \
		return (int)sizeof(CT);
		DALIC_DTYPES_NUMERIC(DALIC_SLICE_ELEM_SIZE)
#undef DALIC_SLICE_ELEM_SIZE
	default:
		return 1;
	}
}

/* Element j of src to element k of dst, both of esize (1, 2, 4 or 8) bytes: a bit copy. */
DALIC_HD void dalic_slice_elem_copy(int esize, void *dst, int64_t k, const void *src, int64_t j)
{
	switch (esize) {
	case 1:
		((uint8_t *)dst)[k] = ((const uint8_t *)src)[j];
		break;
	case 2:
		((uint16_t *)dst)[k] = ((const uint16_t *)src)[j];
		break;
	case 4:
		((uint32_t *)dst)[k] = ((const uint32_t *)src)[j];
		break;
	default:
		((uint64_t *)dst)[k] = ((const uint64_t *)src)[j];
		break;
	}
}

/* One sample's window copy: output element (c_0, ..., c_{ndim-1}) of out_shape reads input
 * element anchor + c (mapped by `border`), or the fill value when that lies outside. */
typedef struct dalic_slice_elem_plan {
	int ndim;
	int border;              /* slice_border_t */
	int channel_dim, nfill;  /* the fill rule (dalic_slice_elem_fill_index) */
	int in_type, out_type;   /* dalic_dtype_t */
	int fill_type;           /* the type fill values are stored in: out_type (slice) or in_type */
	int cvt;                 /* DALIC_SLICE_CVT_TRUNC (slice) or _SAT (crop) */
	int64_t in_shape[DALIC_SLICE_ELEM_MAX_NDIM];
	int64_t anchor[DALIC_SLICE_ELEM_MAX_NDIM];
	int64_t out_shape[DALIC_SLICE_ELEM_MAX_NDIM];
} dalic_slice_elem_plan_t;

/* Elements of the output. */
DALIC_HD int64_t dalic_slice_elem_count(const dalic_slice_elem_plan_t *pl)
{
	int64_t n = 1;
	for (int d = 0; d < pl->ndim; d++)
		n *= pl->out_shape[d];
	return n;
}

/* The input element output element o reads, or -1 when it takes fill value *fill_at. */
DALIC_HD int64_t dalic_slice_elem_src(const dalic_slice_elem_plan_t *pl, int64_t o, int *fill_at)
{
	int64_t src = 0, stride = 1, chan = 0;
	bool inside = true;
	for (int d = pl->ndim - 1; d >= 0; d--) {
		int64_t c = o % pl->out_shape[d];
		o /= pl->out_shape[d];
		chan = d == pl->channel_dim ? c : chan;
		int64_t s = pl->anchor[d] + c;
		if (pl->border != SLICE_BORDER_CONSTANT)
			s = dalic_slice_elem_border(pl->border, s, pl->in_shape[d]);
		inside = inside && s >= 0 && s < pl->in_shape[d];
		src += s * stride;
		stride *= pl->in_shape[d];
	}
	*fill_at = dalic_slice_elem_fill_index(pl->nfill, pl->channel_dim, chan);
	return inside ? src : -1;
}

/* Writes output element o of `out` from `in` or `fill`, converted by the plan. */
DALIC_HD void dalic_slice_elem_store(const dalic_slice_elem_plan_t *pl, void *out, int64_t o,
                                     const void *in, const void *fill)
{
	int f;
	int64_t j = dalic_slice_elem_src(pl, o, &f);
	const void *src = j >= 0 ? in : fill;
	int from = j >= 0 ? pl->in_type : pl->fill_type;
	j = j >= 0 ? j : f;
	if (from == pl->out_type)
		dalic_slice_elem_copy(dalic_slice_elem_size(from), out, o, src, j);
	else if (pl->cvt == DALIC_SLICE_CVT_SAT)
		dalic_slice_elem_convert_sat(pl->out_type, out, o, from, src, j);
	else
		dalic_slice_elem_convert(pl->out_type, out, o, from, src, j);
}

#endif
