/*
 * Per-node state traces (checkpoint_trace.h): a small ring of (iteration, state) per stateful
 * node, written by the stage thread that runs the node, read by the caller's checkpoint().
 */
#include "engine/checkpoint_trace.h"

#include "engine/checkpoint_run.h"
#include "engine/error.h"
#include "engine/opctx.h"

#include <stdlib.h>
#include <string.h>

/* Operators DALI itself cannot checkpoint (CheckpointingUnsupportedError, exp 4/5c). */
static const char *const cktrace_dali_refuses[] = {
    "decoders__Video", "experimental__decoders__Video", "experimental__readers__Fits", NULL,
};

int dalic_ckpt_node_kind(const dalic_op_ctx_t *ctx, dalic_ckpt_kind_t *kind)
{
	const dalic_kernel_t *k = dalic_op_ctx_kernel(ctx);
	for (int i = 0; cktrace_dali_refuses[i]; i++)
		if (!strcmp(ctx->schema->name, cktrace_dali_refuses[i]))
			return dalic_fail(DALIC_EUNSUPPORTED,
					  "operator '%s': Checkpointing is not implemented for this "
					  "operator: `nvidia.dali.fn.%s`.",
					  ctx->inst, ctx->schema->fn ? ctx->schema->fn : ctx->schema->name);
	if (k && k->reader_meta) {
		if (!k->ckpt_save || !k->ckpt_restore)
			return dalic_fail(DALIC_EUNSUPPORTED,
					  "operator '%s': dalic cannot checkpoint `nvidia.dali.fn.%s` "
					  "yet (DALI can): checkpointing covers the readers of dalic's "
					  "reader core and the random operators",
					  ctx->inst, ctx->schema->fn ? ctx->schema->fn : ctx->schema->name);
		*kind = DALIC_CKPT_READER;
	} else {
		*kind = ctx->schema->random ? DALIC_CKPT_RNG : DALIC_CKPT_STATELESS;
	}
	return DALIC_OK;
}

int dalic_ckpt_trace_capture(dalic_op_ctx_t *ctx, dalic_ckpt_kind_t kind, dalic_ckpt_rec_t *rec)
{
	if (kind == DALIC_CKPT_RNG)
		rec->rng = ctx->rng;
	else if (kind == DALIC_CKPT_READER)
		return dalic_op_ctx_kernel(ctx)->ckpt_save(ctx, &rec->reader);
	return DALIC_OK;
}

void dalic_ckpt_trace_record(dalic_op_ctx_t *ctx, int64_t iteration)
{
	dalic_ckpt_trace_t *t = ctx->trace;
	if (!t || t->kind == DALIC_CKPT_STATELESS)
		return;
	dalic_ckpt_rec_t rec = {.iteration = iteration};
	if (dalic_ckpt_trace_capture(ctx, t->kind, &rec))
		return; /* readers' save cannot fail; keep the older state rather than garbage */
	pthread_mutex_lock(&t->mu);
	int at = (t->head + t->count) % t->cap;
	if (t->count == t->cap) {
		t->head = (t->head + 1) % t->cap;
		t->count--;
		t->evicted = true;
	}
	t->ring[at] = rec;
	t->count++;
	pthread_mutex_unlock(&t->mu);
}

int dalic_ckpt_trace_state_at(dalic_ckpt_trace_t *t, int64_t iteration, dalic_ckpt_rec_t *out)
{
	int rc = DALIC_OK;
	pthread_mutex_lock(&t->mu);
	int found = -1;
	for (int i = 0; i < t->count; i++) {
		const dalic_ckpt_rec_t *r = &t->ring[(t->head + i) % t->cap];
		if (r->iteration <= iteration)
			found = (t->head + i) % t->cap;
	}
	if (found >= 0)
		*out = t->ring[found];
	else if (!t->evicted)
		*out = t->initial;
	else
		rc = dalic_fail(DALIC_ESTATE, "the state after iteration %lld is no longer kept",
				(long long)iteration);
	pthread_mutex_unlock(&t->mu);
	return rc;
}

void dalic_ckpt_trace_reset(dalic_ckpt_trace_t *t, const dalic_ckpt_rec_t *initial)
{
	pthread_mutex_lock(&t->mu);
	t->initial = *initial;
	t->head = t->count = 0;
	t->evicted = false;
	pthread_mutex_unlock(&t->mu);
}
