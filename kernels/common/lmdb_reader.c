/* LMDB readers' shared part (see lmdb_reader.h). */
#include "kernels/common/lmdb_reader.h"

#include "engine/error.h"

#include <stdio.h>
#include <stdlib.h>

/* LMDBLoader: no list shuffle, no shuffle_after_epoch, Reset to shard_id's start. */
static const rdcore_kind_t lmdb_reader_kind = {.epoch = RDCORE_EPOCH_NONE,
                                               .own_shard_reset = true};

/* The operator's state starts with its dalic_lmdb_reader_t. */
static int lmdb_reader_prepare_op(dalic_op_ctx_t *ctx)
{
	return dalic_lmdb_reader_prepare(ctx->state, ctx);
}

int dalic_lmdb_reader_init(dalic_lmdb_reader_t *r, dalic_op_ctx_t *ctx)
{
	DALIC_TRY(dalic_rdcore_init(&r->core, ctx, &lmdb_reader_kind));
	r->core.prepare = lmdb_reader_prepare_op;
	r->recs = calloc((size_t)ctx->max_batch_size, sizeof *r->recs);
	if (!r->recs)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	return r->core.lazy ? DALIC_OK : dalic_lmdb_reader_prepare(r, ctx);
}

int dalic_lmdb_reader_prepare(dalic_lmdb_reader_t *r, dalic_op_ctx_t *ctx)
{
	if (r->core.ready)
		return DALIC_OK;
	const dalic_value_t *paths = dalic_arg(ctx, "path");
	char err[1024];
	if (paths->n == 0)
		return dalic_op_fail(ctx, NULL, -1, "No files specified.");
	r->opened = true;
	if (dalic_lmdb_set_open(&r->set, (const char *const *)paths->s, paths->n, err, sizeof err))
		return dalic_op_fail(ctx, NULL, -1, "%s", err);
	if (r->set.first[r->set.n] == 0)
		return dalic_op_fail(ctx, NULL, -1, "the LMDB databases hold no records");
	return dalic_rdcore_set_size(&r->core, ctx, r->set.first[r->set.n]);
}

int dalic_lmdb_reader_next(dalic_lmdb_reader_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                           int nout)
{
	DALIC_TRY(dalic_lmdb_reader_prepare(r, ctx));
	dalic_rdcore_next_batch(&r->core, ws->batch_size);
	for (int i = 0; i < ws->batch_size; i++) {
		int32_t e = r->core.selected[i];
		const uint8_t *key;
		size_t key_len;
		const char *path;
		char err[1024];
		if (dalic_lmdb_set_get(&r->set, e, &key, &key_len, &r->recs[i].value, &r->recs[i].len,
		                       &path, err, sizeof err))
			return dalic_op_fail(ctx, ws, i, "%s", err);
		const char *src = dalic_rdcore_source(&r->core, e, "%s at key %.*s", path,
		                                      (int)key_len, (const char *)key);
		if (!src)
			return dalic_op_fail(ctx, ws, i, "%s", dalic_last_error());
		for (int k = 0; k < nout; k++)
			ws->outputs[k]->sources[i] = src;
	}
	return DALIC_OK;
}

void dalic_lmdb_reader_fini(dalic_lmdb_reader_t *r)
{
	free(r->recs);
	if (r->opened)
		dalic_lmdb_set_close(&r->set);
	dalic_rdcore_fini(&r->core);
}
