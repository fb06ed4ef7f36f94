/*
 * Checkpoints and seeks of the reader core (reader_core.h). The state is DALI's loader snapshot
 * {minstd_rand0 state at the start of the epoch, epoch, samples returned since}: the one after
 * the last entry handed to a batch, not the picks made ahead. A restore does what DALI's
 * RestoreStateFromSnapshot does: it goes straight to the start of the checkpoint's epoch
 * (generator, shard, the epoch's order) and replays the `age` picks made since, without
 * reading anything (picks never depend on data), so its cost does not grow with the epoch
 * number. The picks within the epoch cannot be skipped: with random_shuffle each one draws
 * from the generator a number of times that depends on the value drawn (libstdc++'s
 * uniform_int_distribution rejects values) and swaps entries of the pick buffer, so the
 * buffer after `age` picks exists only by making them. A seek makes the picks of the skipped
 * batches the same way.
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

int dalic_rdcore_op_ckpt_restore(dalic_op_ctx_t *ctx, const dalic_ckpt_reader_t *st)
{
	dalic_rdcore_t *c = ctx->state;
	DALIC_TRY(c->prepare(ctx));
	/* engine/checkpoint.c read the state: rng in [1, 2^31 - 2], epoch and age >= 0 */
	if (st->epoch == 0) { /* the one epoch whose generator state can be checked cheaply */
		img_minstd_t g;
		dalic_img_minstd_seed_seq(&g, (int64_t)c->seed);
		if ((uint32_t)g.x != st->rng)
			return dalic_op_fail(ctx, NULL, -1,
					     "the checkpoint's generator state at the start of epoch "
					     "0 is %u, this pipeline's is %u: the checkpoint comes from "
					     "another seed, shuffle setting or pipeline",
					     st->rng, (uint32_t)g.x);
	}
	dalic_rdcore_restart_epoch(c, st->rng, st->epoch);
	/* the epoch's batches start at its first sample (DALI assumes full batches) */
	for (int32_t i = 0; i < st->age && c->snap.epoch == st->epoch; i++) {
		int pos = c->max_batch > 0 ? i % c->max_batch : 0;
		dalic_rdcore_read_one(c, pos == 0, pos == c->max_batch - 1);
	}
	if (c->snap.epoch != st->epoch || c->snap.age != st->age)
		return dalic_op_fail(ctx, NULL, -1,
				     "the checkpoint puts this reader %d samples into epoch %d, "
				     "but its epochs are shorter here (%lld samples): the checkpoint "
				     "comes from another data set or pipeline",
				     st->age, st->epoch, (long long)c->size);
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
