/* A growable per-thread scratch buffer for the image kernels: it only grows, so once the
 * largest sample has been seen, processing allocates nothing. Its bytes are charged against
 * the memory budget (engine/memory.h). Freed by its owner. */
#ifndef DALIC_KERNELS_IMG_SCRATCH_H
#define DALIC_KERNELS_IMG_SCRATCH_H

#include <stddef.h>
#include <stdint.h>

typedef struct img_scratch {
	uint8_t *p;
	size_t cap;
} img_scratch_t;

/* At least `bytes` bytes, 64-byte aligned (contents not kept across growth), or NULL with
 * dalic_last_error() set when the budget refuses or memory is out. */
void *dalic_img_scratch_get(img_scratch_t *s, size_t bytes);
void dalic_img_scratch_free(img_scratch_t *s);

#endif
