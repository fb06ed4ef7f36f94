/*
 * The order in which the video readers return their samples (sequences): DALI's Loader, as
 * readers.file follows it (kernels/cpu/readers/file.c) — the list shuffled once with
 * mt19937(524287) when random_shuffle, read from the shard start and wrapped at the end of the
 * data (or of the shard with stick_to_shard), a pick buffer of `initial_fill` samples drawn
 * from with default_random_engine(seed_seq{seed}), epochs split at virtual-shard boundaries,
 * and pad_last_batch repeating the last sample until every shard has returned
 * ceil(S / num_shards) samples and the batch is full.
 *
 * A generic loader over sample indices 0..size-1: the piece a shared reader core would own
 * (it repeats file.c's loader, which has no shuffle_after_epoch here since the video readers
 * have none).
 */
#ifndef DALIC_KERNELS_VIDEO_LOADER_H
#define DALIC_KERNELS_VIDEO_LOADER_H

#include "kernels/common/img_stdrand.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct video_loader {
	int64_t size;
	int shard_id, num_shards, buf_size;
	bool stick, pad, shuffle;
	uint64_t seed;
	int32_t *order; /* dataset position -> sample */
	int64_t current_index, read_counter, returned_counter;
	int virtual_shard;
	img_minstd_t pick_rng;
	int32_t *buf;
	bool filled;
	struct video_loader_span {
		int64_t start, end;
	} *shards;
	int shard_head, shard_count, shard_cap;
	int32_t last;
} video_loader_t;

/* Checks the arguments (messages as DALI words them) and allocates for `size` samples. */
int dalic_video_loader_init(video_loader_t *l, int64_t size, int shard_id, int num_shards,
                            bool stick, bool pad, bool shuffle, int64_t initial_fill,
                            uint64_t seed, char *err, size_t errn);
void dalic_video_loader_free(video_loader_t *l);
/* Back to the state right after init. */
void dalic_video_loader_restart(video_loader_t *l);
/* The next sample; is_new_batch for the first sample of a batch (pad_last_batch). */
int32_t dalic_video_loader_next(video_loader_t *l, bool is_new_batch);
/* Epoch size with padding, as reader_meta reports it. */
int64_t dalic_video_loader_padded_size(const video_loader_t *l);

#endif
