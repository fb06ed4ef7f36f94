/*
 * crop_mirror_normalize's per-value arithmetic, shared by the CPU operator
 * (kernels/cpu/image/crop_mirror_normalize.c) and the CUDA kernel (kernels/cuda/cmn.cuh):
 *
 * - the plan of a sample (dalic_cmn_px_plan): every layout walked as F x D x H x W x C with
 *   per-role strides, the window's anchor, the mirror, the output channels (pad_output);
 * - the source pixel of an output pixel (mirrored in W), or none when it lies outside;
 * - the value: in * mul[c] + add[c] in float, one product then one sum (mul = scale / std,
 *   add = shift - mean * mul, dalic_cmn_px_coeffs), or fill[c] outside the input and in the
 *   padded channels;
 * - the store: integers round half away from zero and saturate (NaN is 0), float16 rounds as
 *   DALI (half.h), float as is.
 *
 * On the device the products and sums use the _rn intrinsics, so nvcc fuses nothing into an
 * FMA and the values are the CPU's bit for bit.
 */
#ifndef DALIC_KERNELS_COMMON_CMN_PX_H
#define DALIC_KERNELS_COMMON_CMN_PX_H

#include "engine/dtype.h"
#include "kernels/common/half.h"
#include "kernels/cuda/cu_defs.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#ifdef __CUDA_ARCH__
#define DALIC_CMN_MUL(a, b) __fmul_rn(a, b)
#define DALIC_CMN_ADD(a, b) __fadd_rn(a, b)
#define DALIC_CMN_SUB(a, b) __fsub_rn(a, b)
#define DALIC_CMN_DIV(a, b) __fdiv_rn(a, b)
#else
#define DALIC_CMN_MUL(a, b) ((a) * (b))
#define DALIC_CMN_ADD(a, b) ((a) + (b))
#define DALIC_CMN_SUB(a, b) ((a) - (b))
#define DALIC_CMN_DIV(a, b) ((a) / (b))
#endif

#define DALIC_CMN_MAX_CH 64

/* The roles of the dimensions, outermost first in the walk. */
enum { DALIC_CMN_F, DALIC_CMN_D, DALIC_CMN_H, DALIC_CMN_W, DALIC_CMN_C, DALIC_CMN_ROLES };

typedef struct dalic_cmn_px_plan {
	int ndim;
	int in_type, out_type;                  /* dalic_dtype_t */
	int mirror;                             /* flip the window in W */
	int out_role[DALIC_MAX_NDIM];           /* role of output dim k */
	int64_t out_shape[DALIC_MAX_NDIM];      /* the output's shape */
	int64_t in_ext[DALIC_CMN_ROLES];        /* input extents per role (1 when absent) */
	int64_t anchor[DALIC_CMN_ROLES];        /* window anchor per role (0 for C) */
	int64_t ext[DALIC_CMN_ROLES];           /* output extents per role (C: oc) */
	int64_t ist[DALIC_CMN_ROLES];           /* input strides per role (0 when absent) */
	int64_t ost[DALIC_CMN_ROLES];           /* output strides per role (0 when absent) */
	int64_t C, oc;                          /* input and output channels */
} dalic_cmn_px_plan_t;

/* mul and add of one channel: (in - mean) * scale / std + shift as in * mul + add. */
DALIC_HD void dalic_cmn_px_coeffs(float scale, float shift, float mean, float std, float *mul,
                                  float *add)
{
	*mul = DALIC_CMN_DIV(scale, std);
	*add = DALIC_CMN_SUB(shift, DALIC_CMN_MUL(mean, *mul));
}

/* Output channels: C, or the next power of two with pad_output. */
DALIC_HD int64_t dalic_cmn_px_out_channels(int64_t C, bool pad_output)
{
	int64_t oc = C;
	while (pad_output && (oc & (oc - 1)))
		oc++;
	return oc;
}

/* The input element of channel 0 of output pixel (f, d, y, x), or -1 outside the input. */
DALIC_HD int64_t dalic_cmn_px_src(const dalic_cmn_px_plan_t *pl, int64_t f, int64_t d, int64_t y,
                                  int64_t x)
{
	const int64_t sf = pl->anchor[DALIC_CMN_F] + f, sd = pl->anchor[DALIC_CMN_D] + d;
	const int64_t sy = pl->anchor[DALIC_CMN_H] + y;
	const int64_t ow = pl->ext[DALIC_CMN_W];
	const int64_t sx = pl->anchor[DALIC_CMN_W] + (pl->mirror ? ow - 1 - x : x);
	if (sf < 0 || sf >= pl->in_ext[DALIC_CMN_F] || sd < 0 || sd >= pl->in_ext[DALIC_CMN_D] ||
	    sy < 0 || sy >= pl->in_ext[DALIC_CMN_H] || sx < 0 || sx >= pl->in_ext[DALIC_CMN_W])
		return -1;
	return sf * pl->ist[DALIC_CMN_F] + sd * pl->ist[DALIC_CMN_D] + sy * pl->ist[DALIC_CMN_H] +
	       sx * pl->ist[DALIC_CMN_W];
}

/* Element k of an array of t as float, through double as the CPU loads it. */
DALIC_HD float dalic_cmn_px_load(int t, const void *p, int64_t k)
{
	switch (t) {
#define DALIC_CMN_PX_LOAD(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                           \
	case DALIC_##ID:                                                                           \
		return (float)(double)DALIC_DTYPE_VALUE(CLASS, ((const CT *)p)[k]);
		DALIC_DTYPES_NUMERIC(DALIC_CMN_PX_LOAD)
#undef DALIC_CMN_PX_LOAD
	default:
		return 0;
	}
}

/* One normalised value: one product, then one sum. */
DALIC_HD float dalic_cmn_px_norm(float v, float mul, float add)
{
	return DALIC_CMN_ADD(DALIC_CMN_MUL(v, mul), add);
}

/* Channel c of the output pixel whose source is `at` (dalic_cmn_px_src): the normalised input,
 * or fill[c] outside the input and in padded channels. */
DALIC_HD float dalic_cmn_px_value(const dalic_cmn_px_plan_t *pl, const void *in, int64_t at,
                                  int64_t c, const float *mul, const float *add,
                                  const float *fill)
{
	if (at < 0 || c >= pl->C)
		return fill[c];
	return dalic_cmn_px_norm(dalic_cmn_px_load(pl->in_type, in, at + c * pl->ist[DALIC_CMN_C]),
	                         mul[c], add[c]);
}

/* Integer outputs: round half away from zero, saturate; NaN (a NaN mean or std) gives 0. */
DALIC_HD uint8_t dalic_cmn_px_u8(float v)
{
	v = roundf(v);
	return v != v ? (uint8_t)0 : v <= 0.0f ? (uint8_t)0 : v >= 255.0f ? (uint8_t)255 : (uint8_t)v;
}

DALIC_HD int8_t dalic_cmn_px_i8(float v)
{
	v = roundf(v);
	return v != v        ? (int8_t)0
	       : v <= -128.0f ? (int8_t)-128
	       : v >= 127.0f  ? (int8_t)127
	                      : (int8_t)v;
}

/* Element k of dst (FLOAT, FLOAT16, INT8 or UINT8) from v. */
DALIC_HD void dalic_cmn_px_store(int t, void *dst, int64_t k, float v)
{
	switch (t) {
	case DALIC_FLOAT:
		((float *)dst)[k] = v;
		break;
	case DALIC_FLOAT16:
		((uint16_t *)dst)[k] = dalic_half_from_f32(v);
		break;
	case DALIC_UINT8:
		((uint8_t *)dst)[k] = dalic_cmn_px_u8(v);
		break;
	case DALIC_INT8:
		((int8_t *)dst)[k] = dalic_cmn_px_i8(v);
		break;
	default:
		break;
	}
}

/* Output element o of a sample: its coordinates per role, its source pixel and its value. */
DALIC_HD float dalic_cmn_px_elem(const dalic_cmn_px_plan_t *pl, const void *in, int64_t o,
                                 const float *mul, const float *add, const float *fill)
{
	int64_t at[DALIC_CMN_ROLES] = {0, 0, 0, 0, 0};
	for (int k = pl->ndim - 1; k >= 0; k--) {
		at[pl->out_role[k]] = o % pl->out_shape[k];
		o /= pl->out_shape[k];
	}
	int64_t src = dalic_cmn_px_src(pl, at[DALIC_CMN_F], at[DALIC_CMN_D], at[DALIC_CMN_H],
	                               at[DALIC_CMN_W]);
	return dalic_cmn_px_value(pl, in, src, at[DALIC_CMN_C], mul, add, fill);
}

/* Contiguous strides of a shape, per role: dim_of_role[r] is the dimension of role r in that
 * shape (-1: absent, stride 0). */
DALIC_HOST void dalic_cmn_px_role_strides(int ndim, const int *dim_of_role, const int64_t *shape,
                                          int64_t *stride)
{
	int64_t st[DALIC_MAX_NDIM], acc = 1;
	for (int k = ndim - 1; k >= 0; k--) {
		st[k] = acc;
		acc *= shape[k];
	}
	for (int r = 0; r < DALIC_CMN_ROLES; r++)
		stride[r] = dim_of_role[r] < 0 ? 0 : st[dim_of_role[r]];
}

/*
 * The plan of one sample: input `layout` (ndim letters among F, D, H, W, C), `out_layout` a
 * permutation of it, the input's shape, the window (anchor and extents per input dim; the C
 * entries are ignored), pad_output and the mirror. Writes the output shape to pl->out_shape.
 */
DALIC_HOST void dalic_cmn_px_plan(dalic_cmn_px_plan_t *pl, const char *layout,
                                  const char *out_layout, int ndim, const int64_t *shape,
                                  const int64_t *anchor, const int64_t *wshape, bool pad_output,
                                  int in_type, int out_type, bool mirror)
{
	static const char roles[DALIC_CMN_ROLES] = {'F', 'D', 'H', 'W', 'C'};
	int dim[DALIC_CMN_ROLES], out_dim[DALIC_CMN_ROLES];
	memset(pl, 0, sizeof *pl);
	pl->ndim = ndim;
	pl->in_type = in_type;
	pl->out_type = out_type;
	pl->mirror = mirror;
	for (int r = 0; r < DALIC_CMN_ROLES; r++) {
		const char *p = strchr(layout, roles[r]), *q = strchr(out_layout, roles[r]);
		dim[r] = p ? (int)(p - layout) : -1;
		out_dim[r] = q ? (int)(q - out_layout) : -1;
	}
	const int cd = dim[DALIC_CMN_C];
	pl->C = cd < 0 ? 1 : shape[cd];
	pl->oc = dalic_cmn_px_out_channels(pl->C, pad_output);
	for (int r = 0; r < DALIC_CMN_ROLES; r++) {
		int dm = dim[r];
		pl->in_ext[r] = dm < 0 ? 1 : shape[dm];
		pl->anchor[r] = dm < 0 || r == DALIC_CMN_C ? 0 : anchor[dm];
		pl->ext[r] = dm < 0 ? 1 : r == DALIC_CMN_C ? pl->oc : wshape[dm];
		if (out_dim[r] >= 0) {
			pl->out_role[out_dim[r]] = r;
			pl->out_shape[out_dim[r]] = pl->ext[r];
		}
	}
	dalic_cmn_px_role_strides(ndim, dim, shape, pl->ist);
	dalic_cmn_px_role_strides(ndim, out_dim, pl->out_shape, pl->ost);
}

#endif
