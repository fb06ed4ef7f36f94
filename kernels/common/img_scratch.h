/* A growable per-thread scratch buffer for the image kernels: it only grows, so once the
 * largest sample has been seen, processing allocates nothing. Freed by its owner. */
#ifndef DALIC_KERNELS_IMG_SCRATCH_H
#define DALIC_KERNELS_IMG_SCRATCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct img_scratch {
	uint8_t *p;
	size_t cap;
} img_scratch_t;

/* At least `bytes` bytes (contents not kept across growth), or NULL when out of memory. */
static inline void *img_scratch_get(img_scratch_t *s, size_t bytes)
{
	if (bytes > s->cap) {
		/* 64-byte aligned for the vectorised loops; grow by 1/4 to absorb jitter. */
		size_t cap = bytes + bytes / 4;
		void *p = NULL;
		if (posix_memalign(&p, 64, cap))
			return NULL;
		free(s->p);
		s->p = p;
		s->cap = cap;
	}
	return s->p;
}

static inline void img_scratch_free(img_scratch_t *s)
{
	free(s->p);
	s->p = NULL;
	s->cap = 0;
}

#endif
