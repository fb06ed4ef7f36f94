/*
 * One growable scratch buffer per worker thread of an operator instance (img_scratch.h's
 * buffers, charged against the memory budget): run_sample gets its thread's buffer, so a
 * fixed-shape pipeline stops allocating after its first iterations.
 */
#ifndef DALIC_KERNELS_THREAD_SCRATCH_H
#define DALIC_KERNELS_THREAD_SCRATCH_H

#include "engine/kernel.h"
#include "kernels/common/img_scratch.h"

typedef struct dalic_thread_scratch {
	img_scratch_t *bufs;
	int n;
} dalic_thread_scratch_t;

/* One buffer for each of the instance's worker threads (and the stage thread); for init. */
int dalic_thread_scratch_init(dalic_op_ctx_t *ctx, dalic_thread_scratch_t *t);
/* At least `bytes` for `thread` while running sample i, or NULL after dalic_op_fail (the
 * status is in *rc). */
void *dalic_thread_scratch_get(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                               dalic_thread_scratch_t *t, int thread, size_t bytes, int *rc);
void dalic_thread_scratch_free(dalic_thread_scratch_t *t);

#endif
