/*
 * Checkpoints and seeks of the reader core (reader_core.h). The state is DALI's loader snapshot
 * {minstd_rand0 state at the start of the epoch, epoch, samples returned since}: the one after
 * the last entry handed to a batch, not the picks made ahead. A restore replays the picks
 * from the start without reading anything (picks never depend on data) until the loader
 * reaches that (epoch, age), and checks that its generator agrees with the checkpoint's. A
 * seek makes the picks of the skipped batches the same way.
 */
#include "kernels/common/reader_core.h"

#include "engine/error.h"

int dalic_rdcore_op_ckpt_save(dalic_op_ctx_t *ctx, dalic_ckpt_reader_t *out)
{
	dalic_rdcore_t *c = ctx->state;
	if (!c->ready) { /* lazy_init, never run: the initial state */
		img_minstd_t g;
		dalic_img_minstd_seed_seq(&g, (int64_t)c->seed);
		*out = (dalic_ckpt_reader_t){(uint32_t)g.x, 0, 0};
	} else {
		*out = c->consumed_snap;
	}
	return DALIC_OK;
}

/* (epoch, age) before (e2, a2)? */
static bool rdckpt_before(const dalic_ckpt_reader_t *s, int32_t epoch, int32_t age)
{
	return s->epoch < epoch || (s->epoch == epoch && s->age < age);
}

int dalic_rdcore_op_ckpt_restore(dalic_op_ctx_t *ctx, const dalic_ckpt_reader_t *st)
{
	dalic_rdcore_t *c = ctx->state;
	DALIC_TRY(c->prepare(ctx));
	dalic_rdcore_restart(c);
	while (rdckpt_before(&c->snap, st->epoch, st->age))
		dalic_rdcore_read_one(c, c->max_batch > 0 && c->reads % c->max_batch == 0);
	if (c->snap.epoch != st->epoch || c->snap.age != st->age)
		return dalic_op_fail(ctx, NULL, -1,
				     "the checkpoint puts this reader %d samples into epoch %d, "
				     "but its epochs are shorter here (%lld samples): the checkpoint "
				     "comes from another data set or pipeline",
				     st->age, st->epoch, (long long)c->size);
	if (c->snap.rng != st->rng)
		return dalic_op_fail(ctx, NULL, -1,
				     "the checkpoint's generator state at the start of epoch %d is "
				     "%u, this pipeline's is %u: the checkpoint comes from another "
				     "seed, shuffle setting or pipeline",
				     st->epoch, st->rng, c->snap.rng);
	c->consumed_snap = c->snap;
	return DALIC_OK;
}

int dalic_rdcore_op_skip(dalic_op_ctx_t *ctx, int64_t batches)
{
	dalic_rdcore_t *c = ctx->state;
	DALIC_TRY(c->prepare(ctx));
	rdcore_hint_fn hint = c->hint;
	c->hint = NULL; /* nothing of the skipped batches will be read */
	for (int64_t b = 0; b < batches; b++)
		dalic_rdcore_next_batch(c, c->max_batch);
	c->hint = hint;
	return DALIC_OK;
}
