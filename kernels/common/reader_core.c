/*
 * DALI's Loader (loader.h, loader.cc) and the Reset / shuffle behaviour of its loaders, over
 * int32 entries; see reader_core.h. The pick buffer holds entries, slot = stream position %
 * buf_size; `shards` is the ring of live epochs in the stream of read entries.
 */
#include "kernels/common/reader_core.h"

#include "engine/error.h"
#include "engine/memory.h"
#include "kernels/common/img_files.h"
#include "kernels/common/reader_rand.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RDCORE_DATALOADER_SEED 524287u

static rdcore_span_t *rdcore_front(dalic_rdcore_t *c)
{
	return &c->shards[c->shard_head];
}

static rdcore_span_t *rdcore_back(dalic_rdcore_t *c)
{
	return &c->shards[(c->shard_head + c->shard_count - 1) % c->shard_cap];
}

static void rdcore_push_shard(dalic_rdcore_t *c, int64_t at)
{
	/* live epochs never outnumber buffered entries + 2, which sized the ring */
	c->shards[(c->shard_head + c->shard_count) % c->shard_cap] = (rdcore_span_t){at, at};
	c->shard_count++;
}

static void rdcore_pop_shard(dalic_rdcore_t *c)
{
	c->shard_head = (c->shard_head + 1) % c->shard_cap;
	c->shard_count--;
}

/* The per-epoch reshuffle: the list (cumulative) or the order of the files (from the
 * stored order), with mt19937_64(seed + (epoch << 32)). */
static void rdcore_epoch_shuffle(dalic_rdcore_t *c)
{
	rdrand_mt64_t g;
	dalic_rdrand_mt64_seed(&g, c->epoch_seed + ((uint64_t)c->current_epoch << 32));
	if (c->kind.epoch == RDCORE_EPOCH_LIST) {
		/* with checkpointing DALI shuffles the original list, not the last epoch's */
		if (c->checkpointing)
			memcpy(c->order, c->base_order, sizeof(int32_t) * (size_t)c->size);
		dalic_rdrand_mt64_shuffle(&g, c->order, (size_t)c->size);
		return;
	}
	for (int f = 0; f < c->nfiles; f++)
		c->file_order[f] = f;
	dalic_rdrand_mt64_shuffle(&g, c->file_order, (size_t)c->nfiles);
	int64_t p = 0;
	for (int k = 0; k < c->nfiles; k++) {
		int f = c->file_order[k];
		for (int64_t e = c->file_first[f]; e < c->file_first[f + 1]; e++)
			c->order[p++] = (int32_t)e;
	}
}

/* The loader's Reset: back to the start of the data or of the (virtual) shard. */
static void rdcore_reset_position(dalic_rdcore_t *c, bool wrap_to_shard)
{
	int shard = c->kind.own_shard_reset ? c->shard_id : c->virtual_shard;
	c->current_index = wrap_to_shard ? img_shard_start(shard, c->num_shards, c->size) : 0;
	c->current_epoch++;
	if (c->shuffle_after_epoch && c->kind.epoch != RDCORE_EPOCH_NONE)
		rdcore_epoch_shuffle(c);
}

static bool rdcore_is_next_shard(const dalic_rdcore_t *c, int64_t index)
{
	return index >= c->size ||
	       (c->stick && c->shard_id + 1 < c->num_shards &&
	        index >= img_shard_start(c->shard_id + 1, c->num_shards, c->size));
}

/* ReadSample: the next entry in dataset order, wrapping after it. */
static int32_t rdcore_read_entry(dalic_rdcore_t *c)
{
	int32_t e = c->order[c->current_index++];
	if (rdcore_is_next_shard(c, c->current_index))
		rdcore_reset_position(c, c->stick);
	return e;
}

/* IncreaseReadSampleCounter: an entry past the virtual shard starts a new epoch. */
static void rdcore_count_read(dalic_rdcore_t *c)
{
	c->read_counter++;
	int64_t at =
	    c->read_counter - 1 + img_shard_start(c->virtual_shard, c->num_shards, c->size);
	bool next = at >= c->size ||
	            (c->virtual_shard + 1 < c->num_shards &&
	             at >= img_shard_start(c->virtual_shard + 1, c->num_shards, c->size));
	if (next) {
		if (!c->stick)
			c->virtual_shard++;
		c->read_counter = 1;
		if (c->virtual_shard == c->num_shards)
			c->virtual_shard = 0;
		rdcore_push_shard(c, rdcore_back(c)->end);
	}
}

/* Loader::ShouldPadBatch: the epoch is depleted and this shard still owes samples, or the
 * batch is not full yet. */
static bool rdcore_should_pad(const dalic_rdcore_t *c, bool flag)
{
	return c->pad &&
	       (c->returned_counter < img_shard_max_size(c->num_shards, c->size) || !flag);
}

/* DALI 2.4's SaveStateSnapshot in ReadOne: once the epoch is depleted and no padding is left
 * in this batch, the next sample belongs to the next epoch, so the snapshot moves there right
 * after the sample just returned (a checkpoint taken at an epoch's end says (epoch + 1, 0)). */
static void rdcore_epoch_snapshot(dalic_rdcore_t *c, bool is_end_of_batch)
{
	bool depleted = !c->shard_count || rdcore_front(c)->start == rdcore_front(c)->end;
	if (depleted && !rdcore_should_pad(c, is_end_of_batch))
		c->snap = (dalic_ckpt_reader_t){(uint32_t)c->pick_rng.x, c->snap.epoch + 1, 0};
}

/* Loader::ReadOne. */
int32_t dalic_rdcore_read_one(dalic_rdcore_t *c, bool is_new_batch, bool is_end_of_batch)
{
	c->reads++;
	if (!c->filled) {
		rdcore_push_shard(c, 0);
		for (int i = 0; i < c->buf_size; i++) {
			c->buf[i] = rdcore_read_entry(c);
			rdcore_count_read(c);
			rdcore_back(c)->end++;
		}
		c->filled = true;
	}
	if (rdcore_front(c)->start == rdcore_front(c)->end) {
		if (rdcore_should_pad(c, is_new_batch)) {
			c->returned_counter++;
			c->snap.age++;
			rdcore_epoch_snapshot(c, is_end_of_batch);
			return c->last;
		}
		rdcore_pop_shard(c);
		c->returned_counter = 0;
	}
	int64_t span = rdcore_front(c)->end - rdcore_front(c)->start;
	int64_t offset = c->shuffle ? dalic_img_minstd_uniform(&c->pick_rng, 0, span - 1) : 0;
	int64_t idx = (rdcore_front(c)->start + offset) % c->buf_size;
	int64_t head = rdcore_front(c)->start % c->buf_size;
	int32_t t = c->buf[idx];
	c->buf[idx] = c->buf[head];
	c->buf[head] = t;
	int32_t fresh = rdcore_read_entry(c);
	rdcore_count_read(c);
	int64_t slot = rdcore_back(c)->end % c->buf_size;
	int32_t picked = c->buf[slot];
	c->buf[slot] = fresh;
	rdcore_back(c)->end++;
	c->last = picked;
	rdcore_front(c)->start++;
	c->returned_counter++;
	c->snap.age++;
	rdcore_epoch_snapshot(c, is_end_of_batch);
	return picked;
}

void dalic_rdcore_restart_epoch(dalic_rdcore_t *c, uint32_t rng, int32_t epoch)
{
	if (!c->ready)
		return;
	memcpy(c->order, c->base_order, sizeof(int32_t) * (size_t)c->size);
	/* Reset below counts the epoch on, as at the start (current_epoch is epoch + 1 while
	 * the entries of `epoch` are read) */
	c->current_epoch = epoch;
	c->virtual_shard =
	    c->stick ? c->shard_id : (int)(((int64_t)c->shard_id + epoch) % c->num_shards);
	c->read_counter = c->returned_counter = 0;
	c->filled = false;
	c->shard_head = c->shard_count = 0;
	c->last = 0;
	c->ahead_head = c->ahead_n = 0;
	c->pick_rng.x = rng;
	c->snap = (dalic_ckpt_reader_t){rng, epoch, 0};
	c->consumed_snap = c->snap;
	c->reads = 0;
	rdcore_reset_position(c, true);
}

void dalic_rdcore_restart(dalic_rdcore_t *c)
{
	img_minstd_t g;
	dalic_img_minstd_seed_seq(&g, (int64_t)c->seed);
	dalic_rdcore_restart_epoch(c, (uint32_t)g.x, 0);
}

int dalic_rdcore_init(dalic_rdcore_t *c, dalic_op_ctx_t *ctx, const rdcore_kind_t *kind)
{
	c->kind = *kind;
	c->seed = ctx->seed;
	c->checkpointing = ctx->checkpointing;
	c->shard_id = (int)dalic_arg_int(ctx, "shard_id");
	c->num_shards = (int)dalic_arg_int(ctx, "num_shards");
	c->stick = dalic_arg_bool(ctx, "stick_to_shard");
	c->pad = dalic_arg_bool(ctx, "pad_last_batch");
	c->shuffle = dalic_arg_bool(ctx, "random_shuffle");
	c->read_ahead = dalic_arg_bool(ctx, "read_ahead");
	c->no_mmap = dalic_arg_bool(ctx, "dont_use_mmap");
	c->lazy = dalic_arg_bool(ctx, "lazy_init");
	c->max_batch = ctx->max_batch_size;
	int64_t fill = dalic_arg_int(ctx, "initial_fill");
	int64_t depth = dalic_arg_int(ctx, "prefetch_queue_depth");
	c->epoch_seed = RDCORE_DATALOADER_SEED;
	if (kind->epoch != RDCORE_EPOCH_NONE) {
		c->shuffle_after_epoch = dalic_arg_bool(ctx, "shuffle_after_epoch");
		if (dalic_arg_given(ctx, "shuffle_after_epoch_seed"))
			c->epoch_seed = (uint64_t)dalic_arg_int(ctx, "shuffle_after_epoch_seed");
	}
	if (c->num_shards < 1 || c->shard_id < 0 || c->num_shards <= c->shard_id)
		return dalic_op_fail(ctx, NULL, -1,
		                     "num_shards needs to be greater than shard_id (got shard_id %d, "
		                     "num_shards %d)",
		                     c->shard_id, c->num_shards);
	if (c->shuffle && (fill < 1 || fill > (1 << 24)))
		return dalic_op_fail(ctx, NULL, -1, "initial_fill %lld must be in [1, 16777216]",
		                     (long long)fill);
	if (depth < 1 || depth > 64)
		return dalic_op_fail(ctx, NULL, -1, "prefetch_queue_depth %lld must be in [1, 64]",
		                     (long long)depth);
	if (c->shuffle_after_epoch && c->stick)
		return dalic_op_fail(ctx, NULL, -1,
		                     "shuffle_after_epoch and stick_to_shard cannot be both true");
	if (c->shuffle_after_epoch && c->shuffle)
		return dalic_op_fail(ctx, NULL, -1,
		                     "shuffle_after_epoch and random_shuffle cannot be both true");
	/* DALI implies stick_to_shard so every shard reshuffles the same way each epoch */
	if (c->shuffle_after_epoch)
		c->stick = true;
	c->buf_size = c->shuffle ? (int)fill : 1;
	c->prefetch_depth = (int)depth;
	/* picks ahead only without padding: a pad decision depends on the batch size */
	c->ahead_cap = c->pad ? 0 : (int)depth * c->max_batch;
	c->selected = calloc((size_t)c->max_batch, sizeof(int32_t));
	c->ahead = c->ahead_cap ? calloc((size_t)c->ahead_cap, sizeof(int32_t)) : NULL;
	c->ahead_snap = c->ahead_cap ? calloc((size_t)c->ahead_cap, sizeof *c->ahead_snap) : NULL;
	if (!c->selected || (c->ahead_cap && (!c->ahead || !c->ahead_snap)))
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	return DALIC_OK;
}

int dalic_rdcore_set_files(dalic_rdcore_t *c, dalic_op_ctx_t *ctx, int nfiles, const int64_t *first)
{
	c->file_first = malloc(sizeof(int64_t) * ((size_t)nfiles + 1));
	c->file_order = malloc(sizeof(int32_t) * ((size_t)nfiles + 1));
	if (!c->file_first || !c->file_order)
		return dalic_op_fail(ctx, NULL, -1, "out of memory for %d files", nfiles);
	memcpy(c->file_first, first, sizeof(int64_t) * ((size_t)nfiles + 1));
	c->nfiles = nfiles;
	return DALIC_OK;
}

int dalic_rdcore_set_size(dalic_rdcore_t *c, dalic_op_ctx_t *ctx, int64_t size)
{
	if (size > INT32_MAX)
		return dalic_op_fail(ctx, NULL, -1, "%lld samples: readers hold at most 2^31 - 1",
		                     (long long)size);
	if (c->num_shards > size)
		return dalic_op_fail(ctx, NULL, -1,
		                     "The number of input samples: %lld, needs to be at least equal "
		                     "to the requested number of shards: %d.",
		                     (long long)size, c->num_shards);
	size_t n = (size_t)size;
	size_t bytes = n * 2 * sizeof(int32_t) + n * sizeof(char *);
	if (dalic_mem_charge(bytes))
		return dalic_op_fail(ctx, NULL, -1, "index of %lld samples: %s", (long long)size,
		                     dalic_last_error());
	c->charged = bytes;
	c->order = malloc(sizeof(int32_t) * n);
	c->base_order = malloc(sizeof(int32_t) * n);
	c->sources = calloc(n, sizeof(char *));
	c->buf = malloc(sizeof(int32_t) * (size_t)c->buf_size);
	c->shard_cap = c->buf_size + 4;
	c->shards = malloc(sizeof(rdcore_span_t) * (size_t)c->shard_cap);
	if (!c->order || !c->base_order || !c->sources || !c->buf || !c->shards)
		return dalic_op_fail(ctx, NULL, -1, "out of memory for %zu sample entries", n);
	c->size = size;
	for (size_t i = 0; i < n; i++)
		c->base_order[i] = (int32_t)i;
	if (c->shuffle && c->kind.list_shuffle) {
		img_mt19937_t g;
		dalic_img_mt19937_seed(&g, RDCORE_DATALOADER_SEED);
		dalic_img_mt19937_shuffle(&g, c->base_order, n);
	}
	c->ready = true;
	dalic_rdcore_restart(c);
	return DALIC_OK;
}

static void rdcore_fill_ahead(dalic_rdcore_t *c)
{
	while (c->ahead_n < c->ahead_cap) {
		/* the pad decision never reaches here (no look-ahead with pad_last_batch) */
		int32_t e = dalic_rdcore_read_one(c, false, false);
		c->ahead[(c->ahead_head + c->ahead_n) % c->ahead_cap] = e;
		c->ahead_snap[(c->ahead_head + c->ahead_n) % c->ahead_cap] = c->snap;
		c->ahead_n++;
		if (c->hint)
			c->hint(c->hint_user, e);
	}
}

void dalic_rdcore_next_batch(dalic_rdcore_t *c, int n)
{
	if (!c->ahead_cap) {
		for (int i = 0; i < n; i++)
			c->selected[i] = dalic_rdcore_read_one(c, i == 0, i == n - 1);
		c->consumed_snap = c->snap;
		return;
	}
	rdcore_fill_ahead(c);
	for (int i = 0; i < n; i++) {
		if (!c->ahead_n)
			rdcore_fill_ahead(c);
		c->selected[i] = c->ahead[c->ahead_head];
		c->consumed_snap = c->ahead_snap[c->ahead_head];
		c->ahead_head = (c->ahead_head + 1) % c->ahead_cap;
		c->ahead_n--;
	}
	rdcore_fill_ahead(c);
}

void dalic_rdcore_meta(const dalic_rdcore_t *c, dalic_reader_meta_t *out)
{
	out->epoch_size = c->size;
	out->epoch_size_padded =
	    c->pad ? img_shard_max_size(c->num_shards, c->size) * c->num_shards : c->size;
	out->number_of_shards = c->num_shards;
	out->shard_id = c->shard_id;
	out->pad_last_batch = c->pad;
	out->stick_to_shard = c->stick;
}

static const char *rdcore_vsource(char **slot, size_t *charged, const char *fmt, va_list ap)
{
	if (*slot)
		return *slot;
	char *s = NULL;
	int n = vasprintf(&s, fmt, ap);
	if (n < 0) {
		dalic_fail(DALIC_ENOMEM, "out of memory");
		return NULL;
	}
	if (dalic_mem_charge((size_t)n + 1)) {
		free(s);
		return NULL;
	}
	*charged += (size_t)n + 1;
	*slot = s;
	return s;
}

const char *dalic_rdcore_source(dalic_rdcore_t *c, int32_t entry, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const char *s = rdcore_vsource(&c->sources[entry], &c->charged, fmt, ap);
	va_end(ap);
	return s;
}

const char *dalic_rdcore_source_in(char **slot, size_t *charged, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const char *s = rdcore_vsource(slot, charged, fmt, ap);
	va_end(ap);
	return s;
}

void dalic_rdcore_fini(dalic_rdcore_t *c)
{
	if (c->sources)
		for (int64_t i = 0; i < c->size; i++)
			free(c->sources[i]);
	if (c->charged)
		dalic_mem_uncharge(c->charged);
	free(c->sources);
	free(c->order);
	free(c->base_order);
	free(c->file_first);
	free(c->file_order);
	free(c->buf);
	free(c->shards);
	free(c->ahead);
	free(c->ahead_snap);
	free(c->selected);
	memset(c, 0, sizeof *c);
}

int dalic_rdcore_op_meta(dalic_op_ctx_t *ctx, dalic_reader_meta_t *out)
{
	dalic_rdcore_t *c = ctx->state;
	DALIC_TRY(c->prepare(ctx));
	dalic_rdcore_meta(c, out);
	return DALIC_OK;
}

int dalic_rdcore_op_reset(dalic_op_ctx_t *ctx)
{
	dalic_rdcore_restart(ctx->state);
	return DALIC_OK;
}
