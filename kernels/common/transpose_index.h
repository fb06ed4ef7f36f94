/*
 * transpose's index arithmetic, shared by the CPU operator (kernels/cpu/generic/transpose.c)
 * and the CUDA kernel (kernels/cuda/transpose.cuh).
 *
 * A plan lists the output's dims with their strides in the input, after dropping extent-1
 * dims and merging output neighbours that are adjacent in the input (H and W in HWC -> CHW),
 * so the CPU's inner loop is as long as possible. Output element o (in output order) reads
 * input element dalic_transpose_src_elem(plan, o).
 */
#ifndef DALIC_KERNELS_COMMON_TRANSPOSE_INDEX_H
#define DALIC_KERNELS_COMMON_TRANSPOSE_INDEX_H

#include "kernels/cuda/cu_defs.h"

#define DALIC_TRANSPOSE_MAX_NDIM 8

typedef struct dalic_transpose_plan {
	int m;                                 /* merged dims, at least 1 */
	int64_t ext[DALIC_TRANSPOSE_MAX_NDIM]; /* their extents, outermost first */
	int64_t str[DALIC_TRANSPOSE_MAX_NDIM]; /* their strides in the input, in elements */
	int64_t total;                         /* elements of the sample */
} dalic_transpose_plan_t;

/* The plan of a sample of input shape `ish` (nd dims) whose output dim d is input dim
 * perm[d]. */
DALIC_HOST void dalic_transpose_plan_make(dalic_transpose_plan_t *pl, int nd, const int64_t *ish,
                                          const int *perm)
{
	int64_t in_strides[DALIC_TRANSPOSE_MAX_NDIM], stride = 1;
	for (int d = nd - 1; d >= 0; d--) {
		in_strides[d] = stride;
		stride *= ish[d];
	}
	pl->total = stride;
	int m = 0;
	for (int d = 0; d < nd; d++) {
		int64_t e = ish[perm[d]];
		if (e == 1)
			continue;
		int64_t s = in_strides[perm[d]];
		if (m > 0 && pl->str[m - 1] == s * e) {
			pl->ext[m - 1] *= e;
			pl->str[m - 1] = s;
		} else {
			pl->ext[m] = e;
			pl->str[m++] = s;
		}
	}
	if (m == 0) { /* every extent is 1 */
		pl->ext[0] = 1;
		pl->str[0] = 1;
		m = 1;
	}
	pl->m = m;
}

/* The input element output element o reads. */
DALIC_HD int64_t dalic_transpose_src_elem(const dalic_transpose_plan_t *pl, int64_t o)
{
	int64_t src = 0;
	for (int d = pl->m - 1; d >= 0; d--) {
		src += o % pl->ext[d] * pl->str[d];
		o /= pl->ext[d];
	}
	return src;
}

#endif
