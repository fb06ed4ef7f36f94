/*
 * A window of a strided array copied to a contiguous one (readers.numpy's ROI and Fortran
 * order): output element (j0, .., jn-1) is input element (anchor + j) when that lies inside
 * in_shape, else the fill element. Strides are in elements; a C-order input has stride 1 in
 * its last dim and is copied by rows, a Fortran-order one by gathering.
 */
#ifndef DALIC_KERNELS_STRIDED_COPY_H
#define DALIC_KERNELS_STRIDED_COPY_H

#include <stddef.h>
#include <stdint.h>

typedef struct strided_copy {
	int ndim;
	size_t esize;            /* bytes per element: 1, 2, 4 or 8 */
	const int64_t *in_shape; /* ndim extents of the input */
	const int64_t *strides;  /* ndim input strides, in elements */
	const int64_t *anchor;   /* ndim window starts (may be negative) */
	const int64_t *out_shape;
	const void *fill; /* one element */
} strided_copy_t;

void dalic_strided_copy(const strided_copy_t *s, const void *in, void *out);

#endif
