/* Scratch buffers of the image kernels (see img_scratch.h). */
#include "kernels/common/img_scratch.h"

#include "engine/checked.h"
#include "engine/error.h"
#include "engine/memory.h"

#include <stdlib.h>

void *dalic_img_scratch_get(img_scratch_t *s, size_t bytes)
{
	if (bytes <= s->cap)
		return s->p;
	dalic_img_scratch_free(s); /* contents are not kept: never hold old and new at once */
	/* grow by 1/4 to absorb jitter, unless only the exact size fits the budget */
	size_t cap;
	if (!dalic_ck_add_size(bytes, bytes / 4, &cap) || dalic_mem_charge(cap)) {
		cap = bytes;
		if (dalic_mem_charge(cap))
			return NULL;
	}
	void *p = NULL;
	if (posix_memalign(&p, 64, cap ? cap : 1)) {
		dalic_mem_uncharge(cap);
		dalic_fail(DALIC_ENOMEM, "cannot allocate %zu bytes of scratch memory", cap);
		return NULL;
	}
	s->p = p;
	s->cap = cap;
	return p;
}

void dalic_img_scratch_free(img_scratch_t *s)
{
	free(s->p);
	dalic_mem_uncharge(s->cap);
	s->p = NULL;
	s->cap = 0;
}
