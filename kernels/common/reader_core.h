/*
 * The reader core every readers.* operator shares: DALI's Loader (loader.h) over the entries
 * of a dataset, numbered 0..size-1 by the reader. It owns the common arguments (sharding,
 * shuffling, padding, read modes, lazy_init, prefetch_queue_depth) and decides which entry
 * fills each sample slot of a batch, exactly as DALI 2.4 does for the same seed:
 *  - shards: start(id) = floor(size * id / n); without stick_to_shard the reader moves on to
 *    the next shard after each epoch; it reads sequentially and wraps;
 *  - random_shuffle: a pick buffer of initial_fill entries, drawn from with
 *    default_random_engine(seed_seq{seed}) (img_stdrand.h); readers of lists of files also
 *    shuffle the whole list once with mt19937(524287) first;
 *  - shuffle_after_epoch (implies stick_to_shard): lists of files reshuffle the whole list,
 *    cumulatively, with mt19937_64(seed + (epoch << 32)) every epoch; container readers
 *    (TFRecord, RecordIO, webdataset) reshuffle the order of their files, keeping each file's
 *    records in order;
 *  - pad_last_batch repeats the last entry until every shard returned ceil(size / n) samples
 *    and the batch is full;
 *  - prefetch_queue_depth: the picks of the next batches are made ahead (they do not depend
 *    on reading), so a reader can ask the kernel for their bytes early (hint callback).
 * Sources: dalic_rdcore_source() keeps one string per entry for the life of the operator, so
 * batches may borrow it (DALI's source_info: "file at index N", "tar:offset:name"...).
 */
#ifndef DALIC_KERNELS_READER_CORE_H
#define DALIC_KERNELS_READER_CORE_H

#include "engine/checkpoint.h"
#include "engine/kernel.h"
#include "kernels/common/img_stdrand.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum {
	RDCORE_EPOCH_NONE,  /* the loader has no shuffle_after_epoch (LMDB, sequences) */
	RDCORE_EPOCH_LIST,  /* FileLabelLoader / FileLoader: the list, cumulatively */
	RDCORE_EPOCH_FILES, /* IndexedFileLoader / webdataset: the order of the files */
} rdcore_epoch_t;

/* How a reader's DALI loader behaves where loaders differ. */
typedef struct rdcore_kind {
	bool list_shuffle;    /* random_shuffle shuffles the whole list once first */
	rdcore_epoch_t epoch; /* what shuffle_after_epoch does */
	bool own_shard_reset; /* Reset(true) returns to shard_id's start (not the virtual one) */
} rdcore_kind_t;

typedef struct rdcore_span {
	int64_t start, end; /* positions in the stream of read entries */
} rdcore_span_t;

/* Called for each entry picked ahead of its batch (prefetch_queue_depth). */
typedef void (*rdcore_hint_fn)(void *user, int32_t entry);

typedef struct dalic_rdcore {
	rdcore_kind_t kind;
	/* the reader's listing (its PrepareMetadata), for dalic_rdcore_op_meta */
	int (*prepare)(dalic_op_ctx_t *ctx);
	/* arguments */
	int shard_id, num_shards, initial_fill, prefetch_depth;
	bool stick, pad, shuffle, shuffle_after_epoch, read_ahead, no_mmap, lazy;
	uint64_t epoch_seed;
	uint64_t seed;
	bool ready; /* the reader listed its data (set_size done) */
	/* the dataset: `order[p]` is the entry at dataset position p */
	int64_t size;
	int32_t *order, *base_order;
	/* RDCORE_EPOCH_FILES: entries of file f are [file_first[f], file_first[f + 1]) */
	int nfiles;
	int64_t *file_first;
	int32_t *file_order;
	/* DALI's Loader state */
	int64_t current_index, read_counter, returned_counter;
	int current_epoch, virtual_shard;
	img_minstd_t pick_rng;
	int32_t *buf;
	int buf_size;
	bool filled;
	rdcore_span_t *shards;
	int shard_head, shard_count, shard_cap;
	int32_t last;
	/* picks made ahead: a ring of `ahead_cap` entries, `ahead_n` from `ahead_head` */
	int32_t *ahead;
	int ahead_cap, ahead_head, ahead_n;
	rdcore_hint_fn hint;
	void *hint_user;
	/* the entries of the current batch, per sample slot */
	int32_t *selected;
	int max_batch;
	/* per-entry source strings, made on first use */
	char **sources;
	size_t charged; /* bytes of the index and the sources, against the budget */
	/* checkpoints (reader_ckpt.c): DALI's loader snapshot after the last read, per entry
	 * picked ahead, and after the last entry handed to a batch */
	bool checkpointing;
	dalic_ckpt_reader_t snap, consumed_snap;
	dalic_ckpt_reader_t *ahead_snap;
	int64_t reads; /* ReadOne calls since restart */
} dalic_rdcore_t;

/* The arguments every reader has (DALI's LoaderBase), for schema tables: */
#define DALIC_READER_COMMON_ARGS                                                                   \
	{"random_shuffle", DALIC_ARG_BOOL, "False", "Pick samples at random from a buffer."},      \
	{"initial_fill", DALIC_ARG_INT, "1024", "Size of the random_shuffle buffer."},             \
	{"shard_id", DALIC_ARG_INT, "0", "Index of the shard to read."},                           \
	{"num_shards", DALIC_ARG_INT, "1", "Number of shards the data is split into."},            \
	{"stick_to_shard", DALIC_ARG_BOOL, "False", "Read the same shard every epoch."},           \
	{"pad_last_batch", DALIC_ARG_BOOL, "False",                                                \
	 "Repeat the last sample so every shard yields the same number of full batches."},         \
	{"read_ahead", DALIC_ARG_BOOL, "False", "Keep the data in memory after its first use."},   \
	{"dont_use_mmap", DALIC_ARG_BOOL, "False", "Read with read() instead of mapping files."},  \
	{"prefetch_queue_depth", DALIC_ARG_INT, "1",                                               \
	 "Batches whose samples are picked ahead (their reads are announced to the system)."},     \
	{"lazy_init", DALIC_ARG_BOOL, "False", "List the data at the first run."},                 \
	{"tensor_init_bytes", DALIC_ARG_INT, "1048576",                                            \
	 "Initial bytes per sample (accepted; outputs are sized from the data)."},                 \
	{"skip_cached_images", DALIC_ARG_BOOL, "False",                                            \
	 "Skip samples cached by the decoder (accepted; dalic has no decoder cache)."}
/* ... and those of the readers that reshuffle between epochs. */
#define DALIC_READER_EPOCH_ARGS                                                                    \
	{"shuffle_after_epoch", DALIC_ARG_BOOL, "False", "Reshuffle the data every epoch."},       \
	{"shuffle_after_epoch_seed", DALIC_ARG_INT, "None",                                        \
	 "Base seed of the per-epoch reshuffle (the same on every shard); default 524287."}

/* Reads the common arguments (the epoch ones when `kind->epoch` is not NONE) and checks them
 * with DALI's messages. Errors name the operator. */
int dalic_rdcore_init(dalic_rdcore_t *c, dalic_op_ctx_t *ctx, const rdcore_kind_t *kind);
/* The reader listed `size` entries: checks the shard count, shuffles once when asked and
 * positions at the shard start (DALI's PrepareMetadata). For RDCORE_EPOCH_FILES, call
 * dalic_rdcore_set_files first. */
int dalic_rdcore_set_size(dalic_rdcore_t *c, dalic_op_ctx_t *ctx, int64_t size);
/* Entries of file f are [first[f], first[f + 1]), nfiles + 1 values (copied). */
int dalic_rdcore_set_files(dalic_rdcore_t *c, dalic_op_ctx_t *ctx, int nfiles,
                           const int64_t *first);
/* Picks the entries of the next batch of n samples into c->selected. */
void dalic_rdcore_next_batch(dalic_rdcore_t *c, int n);
/* Back to the state right after set_size (pipeline reset). */
void dalic_rdcore_restart(dalic_rdcore_t *c);
/* DALI's RestoreEpochState: the state at the start of `epoch` (its first sample next), with
 * the pick generator at `rng`: the (virtual) shard and the epoch's order of that epoch, an
 * empty pick buffer (filled again at the next read, as DALI's restore does). Needs
 * checkpointing for readers that reshuffle their list every epoch (the order must not depend
 * on earlier epochs). */
void dalic_rdcore_restart_epoch(dalic_rdcore_t *c, uint32_t rng, int32_t epoch);
void dalic_rdcore_meta(const dalic_rdcore_t *c, dalic_reader_meta_t *out);
/* Kernel functions for readers whose state starts with their dalic_rdcore_t: reader_meta
 * (lists through c->prepare first) and reset. */
int dalic_rdcore_op_meta(dalic_op_ctx_t *ctx, dalic_reader_meta_t *out);
int dalic_rdcore_op_reset(dalic_op_ctx_t *ctx);
void dalic_rdcore_fini(dalic_rdcore_t *c);
/* Loader::ReadOne (reader_core.c), for the checkpoint replay: the flags say whether the
 * sample is the first or the last of its batch (they decide padding). */
int32_t dalic_rdcore_read_one(dalic_rdcore_t *c, bool is_new_batch, bool is_end_of_batch);
/* Kernel functions (ckpt_save, ckpt_restore, skip) for readers whose state starts with their
 * dalic_rdcore_t (reader_ckpt.c). */
int dalic_rdcore_op_ckpt_save(dalic_op_ctx_t *ctx, dalic_ckpt_reader_t *out);
int dalic_rdcore_op_ckpt_restore(dalic_op_ctx_t *ctx, const dalic_ckpt_reader_t *st);
int dalic_rdcore_op_skip(dalic_op_ctx_t *ctx, int64_t batches);

/* The source string of `entry`, formatted on first use and kept until fini. NULL when out of
 * memory or over the budget (dalic_last_error set). */
const char *dalic_rdcore_source(dalic_rdcore_t *c, int32_t entry, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same for a table of the reader's own (*slot, charging *charged): readers whose outputs
 * come from different places of a sample (webdataset) keep one string per place. */
const char *dalic_rdcore_source_in(char **slot, size_t *charged, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
