/* Per-thread scratch buffers of an operator instance (see thread_scratch.h). */
#include "kernels/common/thread_scratch.h"

#include <stdlib.h>

int dalic_thread_scratch_init(dalic_op_ctx_t *ctx, dalic_thread_scratch_t *t)
{
	t->n = ctx->num_threads + 1;
	t->bufs = calloc((size_t)t->n, sizeof *t->bufs);
	return t->bufs ? DALIC_OK : dalic_op_fail(ctx, NULL, -1, "out of memory");
}

void *dalic_thread_scratch_get(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                               dalic_thread_scratch_t *t, int thread, size_t bytes, int *rc)
{
	if (thread < 0 || thread >= t->n) {
		*rc = dalic_op_fail(ctx, ws, i, "worker thread %d outside the %d expected", thread,
		                    t->n);
		return NULL;
	}
	void *p = dalic_img_scratch_get(&t->bufs[thread], bytes);
	if (!p)
		*rc = dalic_op_fail(ctx, ws, i, "scratch memory: %s", dalic_last_error());
	return p;
}

void dalic_thread_scratch_free(dalic_thread_scratch_t *t)
{
	for (int k = 0; t->bufs && k < t->n; k++)
		dalic_img_scratch_free(&t->bufs[k]);
	free(t->bufs);
	t->bufs = NULL;
}
