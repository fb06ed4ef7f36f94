/*
 * The window copy of slice and pad-style operators, with a type conversion: copies window `w`
 * of an input (in_shape, ndim dims, elements of in_type) to the contiguous output of out_type.
 * Elements outside the input take fill values (SLICE_BORDER_CONSTANT) or the input's element
 * at a coordinate mapped inside, as DALI's border modes do (dali/core/boundary.h): clamp to
 * the edge, reflect with the edge repeated (1001: "dcba|abcd|dcba") or not (101:
 * "dcb|abcd|cba"), or wrap around. Different types convert like DALI's slice
 * kernels: clamp to the output range, then truncate toward zero (NaN becomes 0); floating
 * outputs are plain conversions.
 *
 * Fill values are DALI's float arguments cast to the element type as C++'s static_cast does
 * on x86-64 (truncation toward zero, then the low bits: 300.7 as uint8 is 44, -1 is 255),
 * which is what DALI writes.
 */
#ifndef DALIC_KERNELS_SLICE_COPY_H
#define DALIC_KERNELS_SLICE_COPY_H

#include "kernels/common/img_window.h"
#include "kernels/common/slice_elem.h"

#include <stdint.h>

/* slice_border_t and the per-element rules: slice_elem.h (shared with the CUDA kernel). */

/* With a border other than CONSTANT every extent of the input must be > 0.
 * fill: nfill values of out_type; the value for an element outside the input is
 * fill[coordinate along channel_dim] (fill[0] when channel_dim < 0 or nfill == 1). */
void dalic_slice_copy(const void *in, dalic_dtype_t in_type, const int64_t *in_shape, int ndim,
                      const img_window_t *w, void *out, dalic_dtype_t out_type,
                      slice_border_t border, const void *fill, int nfill, int channel_dim);
/* Stores (float)v into element i of an array of t, as static_cast<T>(float) on x86-64. */
void dalic_slice_fill_cast(dalic_dtype_t t, void *base, int64_t i, double v);

#endif
