/*
 * flip's arithmetic, shared by the CPU operator (kernels/cpu/image/flip.c) and the CUDA kernel
 * (kernels/cuda/flip.cuh), so both move the same bytes by the same rule.
 *
 * A plan collapses a sample to its dims up to the last flipped one; everything after that dim
 * moves as one contiguous "unit" of unit_bytes. Output unit o then comes from the source unit
 * that dalic_flip_src_unit names: each flipped coordinate c of extent n reads n - 1 - c.
 */
#ifndef DALIC_KERNELS_COMMON_FLIP_INDEX_H
#define DALIC_KERNELS_COMMON_FLIP_INDEX_H

#include "kernels/cuda/cu_defs.h"

#include <string.h>

#define DALIC_FLIP_MAX_NDIM 8

typedef struct dalic_flip_plan {
	int nd;                             /* dims kept: 0 when nothing flips (a plain copy) */
	int64_t shape[DALIC_FLIP_MAX_NDIM]; /* extents of those dims */
	uint8_t flip[DALIC_FLIP_MAX_NDIM];  /* which of them flip */
	int64_t unit_bytes;                 /* bytes of one unit (dims after nd-1, times elem) */
	int64_t units;                      /* units in the sample */
} dalic_flip_plan_t;

/* The source unit of output unit o. */
DALIC_HD int64_t dalic_flip_src_unit(const dalic_flip_plan_t *pl, int64_t o)
{
	int64_t src = 0, stride = 1;
	for (int d = pl->nd - 1; d >= 0; d--) {
		int64_t c = o % pl->shape[d];
		o /= pl->shape[d];
		src += (pl->flip[d] ? pl->shape[d] - 1 - c : c) * stride;
		stride *= pl->shape[d];
	}
	return src;
}

/*
 * The plan of one sample: `layout` names its ndim dims (W, H and D are the flippable ones),
 * `flags` holds horizontal, vertical and depthwise (non-zero flips).
 */
DALIC_HOST void dalic_flip_plan_make(dalic_flip_plan_t *pl, const char *layout, int ndim,
                                     const int64_t *shape, int64_t elem_bytes,
                                     const double flags[3])
{
	static const char axes[3] = {'W', 'H', 'D'};
	int last = -1;
	uint8_t flip[DALIC_FLIP_MAX_NDIM];
	memset(flip, 0, sizeof flip);
	for (int a = 0; a < 3; a++) {
		const char *p = strchr(layout, axes[a]);
		if (p && flags[a] != 0 && (int)(p - layout) < ndim) {
			int d = (int)(p - layout);
			flip[d] = 1;
			last = d > last ? d : last;
		}
	}
	int64_t total = 1;
	for (int d = 0; d < ndim; d++)
		total *= shape[d];
	pl->nd = last + 1;
	pl->unit_bytes = elem_bytes;
	for (int d = last + 1; d < ndim; d++)
		pl->unit_bytes *= shape[d];
	for (int d = 0; d < pl->nd; d++) {
		pl->shape[d] = shape[d];
		pl->flip[d] = flip[d];
	}
	pl->units = pl->unit_bytes ? total * elem_bytes / pl->unit_bytes : 0;
	if (last < 0) { /* no flip: one unit, the whole sample */
		pl->unit_bytes = total * elem_bytes;
		pl->units = total ? 1 : 0;
	}
}

#endif
