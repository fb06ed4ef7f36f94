/* The video readers' sample order: DALI's Loader (see video_loader.h). */
#include "kernels/common/video_loader.h"

#include "kernels/common/img_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VIDEO_LOADER_SEED 524287u

static struct video_loader_span *video_loader_front(video_loader_t *l)
{
	return &l->shards[l->shard_head];
}

static struct video_loader_span *video_loader_back(video_loader_t *l)
{
	return &l->shards[(l->shard_head + l->shard_count - 1) % l->shard_cap];
}

static void video_loader_push(video_loader_t *l, int64_t at)
{
	l->shards[(l->shard_head + l->shard_count) % l->shard_cap] =
	    (struct video_loader_span){at, at};
	l->shard_count++;
}

static void video_loader_reset_position(video_loader_t *l, bool wrap_to_shard)
{
	l->current_index = wrap_to_shard ? img_shard_start(l->virtual_shard, l->num_shards, l->size)
	                                 : 0;
}

static int32_t video_loader_read_sample(video_loader_t *l)
{
	int32_t s = l->order[l->current_index++];
	bool next_shard = l->current_index >= l->size ||
	                  (l->stick && l->shard_id + 1 < l->num_shards &&
	                   l->current_index >= img_shard_start(l->shard_id + 1, l->num_shards, l->size));
	if (next_shard)
		video_loader_reset_position(l, l->stick);
	return s;
}

static void video_loader_count_read(video_loader_t *l)
{
	l->read_counter++;
	int64_t at = l->read_counter - 1 + img_shard_start(l->virtual_shard, l->num_shards, l->size);
	bool next = at >= l->size ||
	            (l->virtual_shard + 1 < l->num_shards &&
	             at >= img_shard_start(l->virtual_shard + 1, l->num_shards, l->size));
	if (next) {
		if (!l->stick)
			l->virtual_shard++;
		l->read_counter = 1;
		if (l->virtual_shard == l->num_shards)
			l->virtual_shard = 0;
		video_loader_push(l, video_loader_back(l)->end);
	}
}

int32_t dalic_video_loader_next(video_loader_t *l, bool is_new_batch)
{
	if (!l->filled) {
		video_loader_push(l, 0);
		for (int i = 0; i < l->buf_size; i++) {
			l->buf[i] = video_loader_read_sample(l);
			video_loader_count_read(l);
			video_loader_back(l)->end++;
		}
		l->filled = true;
	}
	if (video_loader_front(l)->start == video_loader_front(l)->end) {
		bool pad = l->pad && (l->returned_counter < img_shard_max_size(l->num_shards, l->size) ||
		                      !is_new_batch);
		if (pad) {
			l->returned_counter++;
			return l->last;
		}
		l->shard_head = (l->shard_head + 1) % l->shard_cap;
		l->shard_count--;
		l->returned_counter = 0;
	}
	struct video_loader_span *f = video_loader_front(l);
	int64_t offset =
	    l->shuffle ? dalic_img_minstd_uniform(&l->pick_rng, 0, f->end - f->start - 1) : 0;
	int64_t idx = (f->start + offset) % l->buf_size, head = f->start % l->buf_size;
	int32_t t = l->buf[idx];
	l->buf[idx] = l->buf[head];
	l->buf[head] = t;
	int32_t fresh = video_loader_read_sample(l);
	video_loader_count_read(l);
	int64_t slot = video_loader_back(l)->end % l->buf_size;
	int32_t picked = l->buf[slot];
	l->buf[slot] = fresh;
	video_loader_back(l)->end++;
	l->last = picked;
	video_loader_front(l)->start++;
	l->returned_counter++;
	return picked;
}

void dalic_video_loader_restart(video_loader_t *l)
{
	for (int64_t i = 0; i < l->size; i++)
		l->order[i] = (int32_t)i;
	if (l->shuffle) {
		img_mt19937_t g;
		dalic_img_mt19937_seed(&g, VIDEO_LOADER_SEED);
		dalic_img_mt19937_shuffle(&g, l->order, (size_t)l->size);
	}
	l->virtual_shard = l->shard_id;
	l->read_counter = l->returned_counter = 0;
	l->filled = false;
	l->shard_head = l->shard_count = 0;
	l->last = 0;
	dalic_img_minstd_seed_seq(&l->pick_rng, (int64_t)l->seed);
	video_loader_reset_position(l, true);
}

int dalic_video_loader_init(video_loader_t *l, int64_t size, int shard_id, int num_shards,
                            bool stick, bool pad, bool shuffle, int64_t initial_fill,
                            uint64_t seed, char *err, size_t errn)
{
	memset(l, 0, sizeof *l);
	if (num_shards < 1 || shard_id < 0 || num_shards <= shard_id) {
		snprintf(err, errn, "num_shards needs to be greater than shard_id (got shard_id %d, "
		         "num_shards %d)", shard_id, num_shards);
		return -1;
	}
	if (shuffle && (initial_fill < 1 || initial_fill > (1 << 24))) {
		snprintf(err, errn, "initial_fill %lld must be in [1, 16777216]",
		         (long long)initial_fill);
		return -1;
	}
	if (size < num_shards) {
		snprintf(err, errn,
		         "The number of input samples: %lld, needs to be at least equal to the "
		         "requested number of shards: %d.",
		         (long long)size, num_shards);
		return -1;
	}
	l->size = size;
	l->shard_id = shard_id;
	l->num_shards = num_shards;
	l->stick = stick;
	l->pad = pad;
	l->shuffle = shuffle;
	l->seed = seed;
	l->buf_size = shuffle ? (int)initial_fill : 1;
	l->shard_cap = l->buf_size + 4;
	l->order = malloc(sizeof(int32_t) * (size_t)size);
	l->buf = malloc(sizeof(int32_t) * (size_t)l->buf_size);
	l->shards = malloc(sizeof *l->shards * (size_t)l->shard_cap);
	if (!l->order || !l->buf || !l->shards) {
		dalic_video_loader_free(l);
		snprintf(err, errn, "out of memory for %lld samples", (long long)size);
		return -1;
	}
	dalic_video_loader_restart(l);
	return 0;
}

void dalic_video_loader_free(video_loader_t *l)
{
	free(l->order);
	free(l->buf);
	free(l->shards);
	memset(l, 0, sizeof *l);
}

int64_t dalic_video_loader_padded_size(const video_loader_t *l)
{
	return l->pad ? img_shard_max_size(l->num_shards, l->size) * l->num_shards : l->size;
}
