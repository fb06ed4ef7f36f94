/* The window copy with conversion (see slice_copy.h). */
#include "kernels/common/slice_copy.h"

#include "engine/dtype.h"

#include <math.h>
#include <string.h>

/* n elements from src (in_type) to dst (out_type): clamp, then truncate (slice_elem.h). */
static void slice_copy_convert(dalic_dtype_t out_type, void *dst, dalic_dtype_t in_type,
                               const void *src, int64_t n)
{
	for (int64_t k = 0; k < n; k++)
		dalic_slice_elem_convert(out_type, dst, k, in_type, src, k);
}

void dalic_slice_fill_cast(dalic_dtype_t t, void *base, int64_t i, double v)
{
	float f = (float)v;
	/* cvttss2si: out of range (or NaN) gives the "integer indefinite", the lowest value */
	int32_t i32 = f >= -2147483648.0f && f < 2147483648.0f ? (int32_t)f : INT32_MIN;
	int64_t i64 =
	    f >= -9223372036854775808.0f && f < 9223372036854775808.0f ? (int64_t)f : INT64_MIN;
	uint64_t u64 = f >= 9223372036854775808.0f && f < 18446744073709551616.0f ? (uint64_t)f
	                                                                          : (uint64_t)i64;
	switch (t) {
	case DALIC_INT8:
		((int8_t *)base)[i] = (int8_t)(uint8_t)i32;
		break;
	case DALIC_UINT8:
		((uint8_t *)base)[i] = (uint8_t)i32;
		break;
	case DALIC_INT16:
		((int16_t *)base)[i] = (int16_t)(uint16_t)i32;
		break;
	case DALIC_UINT16:
		((uint16_t *)base)[i] = (uint16_t)i32;
		break;
	case DALIC_INT32:
		((int32_t *)base)[i] = i32;
		break;
	case DALIC_UINT32:
		((uint32_t *)base)[i] = (uint32_t)i64;
		break;
	case DALIC_INT64:
		((int64_t *)base)[i] = i64;
		break;
	case DALIC_UINT64:
		((uint64_t *)base)[i] = u64;
		break;
	default:
		dalic_dtype_store_sat(t, base, i, f);
		break; /* floating point and bool */
	}
}

/* n elements from src to dst, converted when the types differ. */
static void slice_copy_run(void *dst, dalic_dtype_t out_type, const void *src,
                           dalic_dtype_t in_type, int64_t n)
{
	if (in_type == out_type)
		memcpy(dst, src, (size_t)n * dalic_dtype_size(out_type));
	else
		slice_copy_convert(out_type, dst, in_type, src, n);
}

/* Merges trailing dims the window covers whole into the one before (HWC with C whole copies
 * rows of W*C, not pixels). Only for the constant border, and only where the fill value of an
 * element stays fill[k % nfill] or fill[pos[channel_dim]]. Returns the new ndim. */
static int slice_copy_merge_dims(int64_t *in_shape, img_window_t *w, int ndim, int nfill,
                                 int *channel_dim)
{
	int chan = *channel_dim;
	bool inner = chan == ndim - 1 && (nfill <= 1 || nfill == in_shape[ndim - 1]);
	while (ndim > 1 && w->anchor[ndim - 1] == 0 && w->shape[ndim - 1] == in_shape[ndim - 1]) {
		int d = ndim - 2;
		if (nfill > 1 && chan >= 0 && chan >= d && !inner)
			break;
		w->anchor[d] *= in_shape[ndim - 1];
		w->shape[d] *= in_shape[ndim - 1];
		in_shape[d] *= in_shape[ndim - 1];
		ndim--;
	}
	if (chan >= ndim)
		*channel_dim = ndim - 1; /* merged into the last dim: fill[k % nfill] */
	return ndim;
}

void dalic_slice_copy(const void *in, dalic_dtype_t in_type, const int64_t *in_shape_arg,
                      int ndim, const img_window_t *w_arg, void *out, dalic_dtype_t out_type,
                      slice_border_t border, const void *fill, int nfill, int channel_dim)
{
	int64_t in_shape[DALIC_MAX_NDIM];
	img_window_t win = *w_arg, *w = &win;
	memcpy(in_shape, in_shape_arg, sizeof *in_shape * (size_t)ndim);
	if (border == SLICE_BORDER_CONSTANT)
		ndim = slice_copy_merge_dims(in_shape, w, ndim, nfill, &channel_dim);
	size_t ies = dalic_dtype_size(in_type), oes = dalic_dtype_size(out_type);
	int64_t total = 1, rows = 1;
	for (int d = 0; d < ndim; d++)
		total *= w->shape[d];
	if (total == 0)
		return;
	if (ndim == 0) {
		slice_copy_run(out, out_type, in, in_type, 1);
		return;
	}
	for (int d = 0; d + 1 < ndim; d++)
		rows *= w->shape[d];
	const int last = ndim - 1;
	const int64_t n = w->shape[last], a = w->anchor[last], in_n = in_shape[last];
	int64_t in_stride[DALIC_MAX_NDIM], pos[DALIC_MAX_NDIM] = {0};
	in_stride[last] = 1;
	for (int d = last - 1; d >= 0; d--)
		in_stride[d] = in_stride[d + 1] * in_shape[d + 1];
	/* the part of every row along the last dim that lies inside the input: [lead, end) */
	int64_t lead = a < 0 ? -a : 0, end = a + n > in_n ? in_n - a : n;
	lead = lead > n ? n : lead;
	end = end < lead ? lead : end;
	uint8_t *o = out;
	for (int64_t r = 0; r < rows; r++, o += (size_t)n * oes) {
		bool inside = true;
		int64_t off = 0;
		for (int d = 0; d < last; d++) {
			int64_t s = w->anchor[d] + pos[d];
			if (border != SLICE_BORDER_CONSTANT)
				s = dalic_slice_elem_border(border, s, in_shape[d]);
			inside &= s >= 0 && s < in_shape[d];
			off += s * in_stride[d];
		}
		const uint8_t *row = inside ? (const uint8_t *)in + (size_t)off * ies : in;
		int64_t from = inside ? lead : n, to = inside ? end : n;
		if (to > from)
			slice_copy_run(o + (size_t)from * oes, out_type,
			               row + (size_t)(a + from) * ies, in_type, to - from);
		for (int64_t k = 0; k < n; k++) {
			if (k == from && to > from) { /* the inside run, copied above */
				k = to - 1;
				continue;
			}
			if (inside && border != SLICE_BORDER_CONSTANT) {
				int64_t x = dalic_slice_elem_border(border, a + k, in_n);
				slice_copy_run(o + (size_t)k * oes, out_type, row + (size_t)x * ies,
				               in_type, 1);
				continue;
			}
			int c = dalic_slice_elem_fill_index(nfill, channel_dim,
			                                    channel_dim < 0      ? 0
			                                    : channel_dim == last ? k
			                                                          : pos[channel_dim]);
			memcpy(o + (size_t)k * oes, (const uint8_t *)fill + (size_t)c * oes, oes);
		}
		for (int d = last - 1; d >= 0; d--) {
			if (++pos[d] < w->shape[d])
				break;
			pos[d] = 0;
		}
	}
}
