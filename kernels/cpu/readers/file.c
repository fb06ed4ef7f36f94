/*
 * readers.file (DALI's readers__File / FileReader): reads files named by a directory tree
 * (labels from sorted subdirectories), a `file_list` or `files`/`labels`, and returns their
 * bytes (1-D uint8) and labels (int32, shape [1]).
 *
 * The order of samples is DALI's Loader exactly: the list (shuffled once with
 * mt19937(524287) when random_shuffle), read sequentially from the shard start and wrapped at
 * the end of the data (to 0, or to the shard start with stick_to_shard), a pick buffer of
 * `initial_fill` samples drawn from with default_random_engine(seed_seq{seed}), epochs split
 * at virtual-shard boundaries, and pad_last_batch repeating the last sample until every shard
 * has returned ceil(S / num_shards) samples and the batch is full. The libstdc++ generators are
 * reproduced in img_stdrand.c, so shuffled orders equal DALI's built with GCC.
 *
 * Choosing the files is sequential and happens in setup (sizes are the output shapes); reading
 * their bytes happens per sample, in parallel. Each sample's source is the entry's relative
 * path, owned by this operator's state, so errors downstream can name the file.
 */
#include "engine/kernel.h"
#include "engine/memory.h"
#include "kernels/common/img_files.h"
#include "kernels/common/img_stdrand.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define DALI_DATALOADER_SEED 524287u

typedef struct shard_span {
	int64_t start, end; /* positions in the stream of read samples */
} shard_span_t;

typedef struct reader {
	img_file_list_t files;
	int32_t *order;      /* dataset position -> entry; reshuffled by shuffle_after_epoch */
	int32_t *base_order; /* order right after metadata, for reset */
	bool ready;
	/* arguments */
	int shard_id, num_shards, initial_fill;
	bool stick, pad, shuffle, shuffle_after_epoch, read_ahead, no_mmap;
	uint32_t epoch_seed_base;
	/* DALI Loader / FileLabelLoader state */
	int64_t current_index, read_counter, returned_counter;
	int current_epoch, virtual_shard;
	img_minstd_t pick_rng;
	int32_t *buf; /* pick buffer of entries, slot = stream position % buf_size */
	int buf_size;
	bool filled;
	shard_span_t *shards; /* ring: live epochs in the stream */
	int shard_head, shard_count, shard_cap;
	int32_t last;
	int32_t *selected; /* entry per sample of the current batch */
} reader_t;

static int64_t reader_size_of(const reader_t *r)
{
	return r->files.n;
}

static shard_span_t *reader_front(reader_t *r)
{
	return &r->shards[r->shard_head];
}

static shard_span_t *reader_back(reader_t *r)
{
	return &r->shards[(r->shard_head + r->shard_count - 1) % r->shard_cap];
}

static void reader_push_shard(reader_t *r, int64_t at)
{
	/* Live epochs never outnumber buffered samples + 2, which sized the ring. */
	r->shards[(r->shard_head + r->shard_count) % r->shard_cap] = (shard_span_t){at, at};
	r->shard_count++;
}

static void reader_pop_shard(reader_t *r)
{
	r->shard_head = (r->shard_head + 1) % r->shard_cap;
	r->shard_count--;
}

/* FileLabelLoader::Reset: back to the start of the data or of the (virtual) shard. */
static void reader_reset_position(reader_t *r, bool wrap_to_shard)
{
	r->current_index = wrap_to_shard ? img_shard_start(r->virtual_shard, r->num_shards,
							   reader_size_of(r))
					 : 0;
	r->current_epoch++;
	if (r->shuffle_after_epoch) {
		img_mt19937_t g;
		dalic_img_mt19937_seed(&g, r->epoch_seed_base + (uint32_t)r->current_epoch);
		dalic_img_mt19937_shuffle(&g, r->order, (size_t)r->files.n);
	}
}

static bool reader_is_next_shard(const reader_t *r, int64_t index)
{
	return index >= reader_size_of(r) ||
	       (r->stick && r->shard_id + 1 < r->num_shards &&
		index >= img_shard_start(r->shard_id + 1, r->num_shards, reader_size_of(r)));
}

/* FileLabelLoader::ReadSample: the next entry in dataset order. */
static int32_t reader_read_sample(reader_t *r)
{
	int32_t e = r->order[r->current_index++];
	if (reader_is_next_shard(r, r->current_index))
		reader_reset_position(r, r->stick);
	return e;
}

/* Loader::IncreaseReadSampleCounter: a sample past the virtual shard starts a new epoch. */
static void reader_count_read(reader_t *r)
{
	r->read_counter++;
	int64_t at = r->read_counter - 1 + img_shard_start(r->virtual_shard, r->num_shards,
							   reader_size_of(r));
	bool next = at >= reader_size_of(r) ||
		    (r->virtual_shard + 1 < r->num_shards &&
		     at >= img_shard_start(r->virtual_shard + 1, r->num_shards, reader_size_of(r)));
	if (next) {
		if (!r->stick)
			r->virtual_shard++;
		r->read_counter = 1;
		if (r->virtual_shard == r->num_shards)
			r->virtual_shard = 0;
		reader_push_shard(r, reader_back(r)->end);
	}
}

/* Loader::ReadOne. */
static int32_t reader_read_one(reader_t *r, bool is_new_batch)
{
	if (!r->filled) {
		reader_push_shard(r, 0);
		for (int i = 0; i < r->buf_size; i++) {
			r->buf[i] = reader_read_sample(r);
			reader_count_read(r);
			reader_back(r)->end++;
		}
		r->filled = true;
	}
	if (reader_front(r)->start == reader_front(r)->end) {
		bool pad = r->pad && (r->returned_counter < img_shard_max_size(r->num_shards,
									       reader_size_of(r)) ||
				      !is_new_batch);
		if (pad) {
			r->returned_counter++;
			return r->last;
		}
		reader_pop_shard(r);
		r->returned_counter = 0;
	}
	int64_t offset =
	    r->shuffle ? dalic_img_minstd_uniform(&r->pick_rng, 0,
	                                          reader_front(r)->end - reader_front(r)->start - 1)
	               : 0;
	int64_t idx = (reader_front(r)->start + offset) % r->buf_size;
	int64_t head = reader_front(r)->start % r->buf_size;
	int32_t t = r->buf[idx];
	r->buf[idx] = r->buf[head];
	r->buf[head] = t;
	int32_t fresh = reader_read_sample(r);
	reader_count_read(r);
	int64_t slot = reader_back(r)->end % r->buf_size;
	int32_t picked = r->buf[slot];
	r->buf[slot] = fresh;
	reader_back(r)->end++;
	r->last = picked;
	reader_front(r)->start++;
	r->returned_counter++;
	return picked;
}

/* The state right after DALI's PrepareMetadata: the base order and Reset(true). */
static void reader_restart(dalic_op_ctx_t *ctx, reader_t *r)
{
	memcpy(r->order, r->base_order, sizeof(int32_t) * (size_t)r->files.n);
	r->current_epoch = 0;
	r->virtual_shard = r->shard_id;
	r->read_counter = r->returned_counter = 0;
	r->filled = false;
	r->shard_head = r->shard_count = 0;
	r->last = 0;
	dalic_img_minstd_seed_seq(&r->pick_rng, (int64_t)ctx->seed);
	reader_reset_position(r, true);
}

static int reader_list_files(dalic_op_ctx_t *ctx, reader_t *r, char *err, size_t errn)
{
	const char *root = dalic_arg_string(ctx, "file_root");
	const char *list = dalic_arg_string(ctx, "file_list");
	const dalic_value_t *files = dalic_arg(ctx, "files");
	const dalic_value_t *labels = dalic_arg(ctx, "labels");
	bool has_files = files->kind != DALIC_V_NONE, has_labels = labels->kind != DALIC_V_NONE;
	if (!root && !has_files && !list)
		return dalic_op_fail(ctx, NULL, -1, "``file_root`` argument is required when not "
						    "using ``files`` or ``file_list``.");
	if (has_files && list)
		return dalic_op_fail(ctx, NULL, -1, "File paths can be provided through ``files`` "
						    "or ``file_list`` but not both.");
	if (has_labels && !has_files)
		return dalic_op_fail(ctx, NULL, -1, "The argument ``labels`` is valid only when "
						    "file paths are provided as ``files`` argument.");
	const dalic_value_t *filters = dalic_arg(ctx, "file_filters");
	if (filters->kind != DALIC_V_NONE && filters->n == 0)
		return dalic_op_fail(ctx, NULL, -1, "``file_filters`` list cannot be empty.");
	int rc = 0;
	if (has_files) {
		if (files->n == 0)
			return dalic_op_fail(ctx, NULL, -1, "``files`` specified an empty list.");
		if (has_labels && labels->n != files->n)
			return dalic_op_fail(ctx, NULL, -1, "Provided %d labels for %d files.",
					     labels->n, files->n);
		for (int i = 0; i < files->n && has_labels; i++)
			if (labels->i[i] < INT32_MIN || labels->i[i] > INT32_MAX)
				return dalic_op_fail(ctx, NULL, -1,
				                     "``labels``[%d] = %lld (for '%s') is "
				                     "out of range: labels are 32-bit integers",
				                     i, (long long)labels->i[i], files->s[i]);
		for (int i = 0; i < files->n && !rc; i++)
			rc = dalic_img_file_list_add(&r->files, root, files->s[i],
					       has_labels ? (int32_t)labels->i[i] : i);
		if (rc)
			snprintf(err, errn, "%s", dalic_last_error());
	} else if (list) {
		if (!*list)
			return dalic_op_fail(ctx, NULL, -1, "``file_list`` argument cannot be empty");
		char *dir = NULL;
		const char *slash = strrchr(list, '/');
		if (!root && slash)
			dir = strndup(list, (size_t)(slash - list));
		rc = dalic_img_file_list_parse(&r->files, list, root ? root : dir, err, errn);
		free(dir);
	} else {
		const dalic_value_t *dirs = dalic_arg(ctx, "dir_filters");
		rc = dalic_img_file_list_scan(&r->files, root, (const char *const *)filters->s,
					filters->n, (const char *const *)dirs->s,
					dirs->kind == DALIC_V_NONE ? 0 : dirs->n,
					dalic_arg_bool(ctx, "case_sensitive_filter"), err, errn);
	}
	return rc ? dalic_op_fail(ctx, NULL, -1, "%s", err) : DALIC_OK;
}

/* DALI's PrepareMetadata: list, check, shuffle once, position at the shard start. */
static int reader_prepare(dalic_op_ctx_t *ctx)
{
	reader_t *r = ctx->state;
	if (r->ready)
		return DALIC_OK;
	char err[1024] = "";
	int rc = reader_list_files(ctx, r, err, sizeof err);
	if (rc)
		return rc;
	if (r->files.n == 0)
		return dalic_op_fail(ctx, NULL, -1, "No files found.");
	if (r->num_shards > r->files.n)
		return dalic_op_fail(ctx, NULL, -1,
				     "The number of input samples: %d, needs to be at least equal "
				     "to the requested number of shards: %d.",
				     r->files.n, r->num_shards);
	size_t n = (size_t)r->files.n;
	r->order = malloc(sizeof(int32_t) * n);
	r->base_order = malloc(sizeof(int32_t) * n);
	r->buf = malloc(sizeof(int32_t) * (size_t)r->buf_size);
	r->shard_cap = r->buf_size + 4;
	r->shards = malloc(sizeof(shard_span_t) * (size_t)r->shard_cap);
	if (!r->order || !r->base_order || !r->buf || !r->shards)
		return dalic_op_fail(ctx, NULL, -1, "out of memory for %zu file entries", n);
	for (size_t i = 0; i < n; i++)
		r->base_order[i] = (int32_t)i;
	if (r->shuffle) {
		img_mt19937_t g;
		dalic_img_mt19937_seed(&g, DALI_DATALOADER_SEED);
		dalic_img_mt19937_shuffle(&g, r->base_order, n);
	}
	r->ready = true;
	reader_restart(ctx, r);
	return DALIC_OK;
}

static void reader_fini(dalic_op_ctx_t *ctx);

static int reader_init_state(dalic_op_ctx_t *ctx)
{
	reader_t *r = ctx->state;
	r->shard_id = (int)dalic_arg_int(ctx, "shard_id");
	r->num_shards = (int)dalic_arg_int(ctx, "num_shards");
	r->stick = dalic_arg_bool(ctx, "stick_to_shard");
	r->pad = dalic_arg_bool(ctx, "pad_last_batch");
	r->shuffle = dalic_arg_bool(ctx, "random_shuffle");
	r->shuffle_after_epoch = dalic_arg_bool(ctx, "shuffle_after_epoch");
	r->read_ahead = dalic_arg_bool(ctx, "read_ahead");
	r->no_mmap = dalic_arg_bool(ctx, "dont_use_mmap");
	r->epoch_seed_base = dalic_arg_given(ctx, "shuffle_after_epoch_seed")
				     ? (uint32_t)dalic_arg_int(ctx, "shuffle_after_epoch_seed")
				     : DALI_DATALOADER_SEED;
	int64_t fill = dalic_arg_int(ctx, "initial_fill");
	if (r->num_shards < 1 || r->shard_id < 0 || r->num_shards <= r->shard_id)
		return dalic_op_fail(ctx, NULL, -1, "num_shards needs to be greater than shard_id "
				     "(got shard_id %d, num_shards %d)", r->shard_id, r->num_shards);
	if (r->shuffle && (fill < 1 || fill > (1 << 24)))
		return dalic_op_fail(ctx, NULL, -1, "initial_fill %lld must be in [1, 16777216]",
				     (long long)fill);
	if (r->shuffle_after_epoch && r->stick)
		return dalic_op_fail(ctx, NULL, -1,
				     "shuffle_after_epoch and stick_to_shard cannot be both true");
	if (r->shuffle_after_epoch && r->shuffle)
		return dalic_op_fail(ctx, NULL, -1,
				     "shuffle_after_epoch and random_shuffle cannot be both true");
	/* DALI implies stick_to_shard so every shard reshuffles the same way each epoch. */
	if (r->shuffle_after_epoch)
		r->stick = true;
	r->buf_size = r->shuffle ? (int)fill : 1;
	r->selected = calloc((size_t)ctx->max_batch_size, sizeof(int32_t));
	if (!r->selected)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	return dalic_arg_bool(ctx, "lazy_init") ? DALIC_OK : reader_prepare(ctx);
}

/* The engine calls fini only after a successful init: a failing init cleans up itself. */
static int reader_init(dalic_op_ctx_t *ctx)
{
	int rc = reader_init_state(ctx);
	if (rc)
		reader_fini(ctx);
	return rc;
}

/* Reads a whole file into dst (size bytes) or into a new read_ahead copy. */
static int reader_load_file(const img_file_entry_t *e, bool use_mmap, uint8_t *dst, char *err,
                            size_t n)
{
	int fd = open(e->full, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, n, "cannot open '%s': %s", e->full, strerror(errno));
		return -1;
	}
	int rc = 0;
	size_t size = (size_t)e->size;
	struct stat st;
	/* a mapping past the end of a file that shrank since setup's stat would be SIGBUS */
	if (use_mmap && (fstat(fd, &st) || st.st_size < e->size))
		use_mmap = false;
	if (size > 0 && use_mmap) {
		void *m = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED) {
			snprintf(err, n, "cannot map '%s': %s", e->full, strerror(errno));
			rc = -1;
		} else {
			memcpy(dst, m, size);
			munmap(m, size);
		}
	} else {
		size_t got = 0;
		while (got < size) {
			ssize_t k = read(fd, dst + got, size - got);
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0) {
				snprintf(err, n, "cannot read '%s': %s", e->full,
					 k < 0 ? strerror(errno) : "file shrank while reading");
				rc = -1;
				break;
			}
			got += (size_t)k;
		}
	}
	close(fd);
	return rc;
}

/* read_ahead keeps each file's bytes after its first use (mapped and populated, or read). */
static int reader_cache_file(reader_t *r, img_file_entry_t *e, char *err, size_t n)
{
	if (e->size == 0)
		return 0;
	if (!r->no_mmap) {
		int fd = open(e->full, O_RDONLY | O_CLOEXEC);
		struct stat st;
		if (fd >= 0 && (fstat(fd, &st) || st.st_size != e->size)) {
			close(fd);
			snprintf(err, n, "'%s' changed size while being read", e->full);
			return -1;
		}
		void *m = fd < 0 ? MAP_FAILED
				 : mmap(NULL, (size_t)e->size, PROT_READ, MAP_PRIVATE | MAP_POPULATE,
					fd, 0);
		if (fd >= 0)
			close(fd);
		if (m == MAP_FAILED) {
			snprintf(err, n, "cannot map '%s': %s", e->full, strerror(errno));
			return -1;
		}
		e->cache = m;
		e->cache_mapped = true;
		return 0;
	}
	if (dalic_mem_charge((size_t)e->size)) {
		snprintf(err, n, "read_ahead copy of '%s': %s", e->full, dalic_last_error());
		return -1;
	}
	uint8_t *copy = malloc((size_t)e->size);
	if (!copy) {
		dalic_mem_uncharge((size_t)e->size);
		snprintf(err, n, "out of memory for '%s'", e->full);
		return -1;
	}
	if (reader_load_file(e, false, copy, err, n)) {
		dalic_mem_uncharge((size_t)e->size);
		free(copy);
		return -1;
	}
	e->cache = copy;
	return 0;
}

static int reader_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	reader_t *r = ctx->state;
	int rc = reader_prepare(ctx);
	if (rc)
		return rc;
	dalic_batch_t *data = ws->outputs[0], *label = ws->outputs[1];
	int n = ws->batch_size;
	if ((rc = dalic_batch_set_meta(data, n, DALIC_UINT8, 1)) ||
	    (rc = dalic_batch_set_meta(label, n, DALIC_INT32, 1)))
		return rc;
	dalic_batch_set_layout(data, "");
	dalic_batch_set_layout(label, "");
	for (int i = 0; i < n; i++) {
		int32_t k = reader_read_one(r, i == 0);
		img_file_entry_t *e = &r->files.v[k];
		r->selected[i] = k;
		data->sources[i] = label->sources[i] = e->path;
		if (e->size < 0) {
			struct stat st;
			if (stat(e->full, &st) != 0)
				return dalic_op_fail(ctx, ws, i, "cannot access '%s': %s", e->full,
						     strerror(errno));
			e->size = st.st_size;
		}
		char err[512];
		if (r->read_ahead && !e->cache && reader_cache_file(r, e, err, sizeof err))
			return dalic_op_fail(ctx, ws, i, "%s", err);
		dalic_batch_shape_mut(data, i)[0] = e->size;
		dalic_batch_shape_mut(label, i)[0] = 1;
	}
	return DALIC_OK;
}

static int reader_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	reader_t *r = ctx->state;
	const img_file_entry_t *e = &r->files.v[r->selected[i]];
	uint8_t *dst = ws->outputs[0]->ptrs[i];
	*(int32_t *)ws->outputs[1]->ptrs[i] = e->label;
	if (e->cache) {
		memcpy(dst, e->cache, (size_t)e->size);
		return DALIC_OK;
	}
	char err[512];
	if (reader_load_file(e, !r->no_mmap, dst, err, sizeof err))
		return dalic_op_fail(ctx, ws, i, "%s", err);
	return DALIC_OK;
}

static int reader_meta(dalic_op_ctx_t *ctx, dalic_reader_meta_t *out)
{
	reader_t *r = ctx->state;
	int rc = reader_prepare(ctx);
	if (rc)
		return rc;
	int64_t s = reader_size_of(r);
	out->epoch_size = s;
	out->epoch_size_padded = r->pad ? img_shard_max_size(r->num_shards, s) * r->num_shards : s;
	out->number_of_shards = r->num_shards;
	out->shard_id = r->shard_id;
	out->pad_last_batch = r->pad;
	out->stick_to_shard = r->stick;
	return DALIC_OK;
}

static int reader_reset(dalic_op_ctx_t *ctx)
{
	reader_t *r = ctx->state;
	if (r->ready)
		reader_restart(ctx, r);
	return DALIC_OK;
}

static void reader_fini(dalic_op_ctx_t *ctx)
{
	reader_t *r = ctx->state;
	dalic_img_file_list_free(&r->files);
	free(r->order);
	free(r->base_order);
	free(r->buf);
	free(r->shards);
	free(r->selected);
}

static const dalic_arg_schema_t args[] = {
	{"file_root", DALIC_ARG_STRING, "None", "Directory with one subdirectory per class."},
	{"file_list", DALIC_ARG_STRING, "None",
	 "Text file with '<path> <label>' per line; paths relative to its directory."},
	{"files", DALIC_ARG_STRING_LIST, "None", "File paths (relative to file_root if given)."},
	{"labels", DALIC_ARG_INT_LIST, "None", "Labels for `files`; default: index in `files`."},
	{"file_filters", DALIC_ARG_STRING_LIST,
	 "['*.jpg', '*.jpeg', '*.png', '*.bmp', '*.tif', '*.tiff', '*.pnm', '*.ppm', '*.pgm', "
	 "'*.pbm', '*.jp2', '*.webp', '*.flac', '*.ogg', '*.wav']",
	 "fnmatch patterns selecting files in directory mode."},
	{"dir_filters", DALIC_ARG_STRING_LIST, "None",
	 "fnmatch patterns selecting subdirectories in directory mode."},
	{"case_sensitive_filter", DALIC_ARG_BOOL, "False", "Match filters case-sensitively."},
	{"random_shuffle", DALIC_ARG_BOOL, "False", "Pick samples at random from a buffer."},
	{"initial_fill", DALIC_ARG_INT, "1024", "Size of the random_shuffle buffer."},
	{"shuffle_after_epoch", DALIC_ARG_BOOL, "False", "Reshuffle the whole list every epoch."},
	{"shuffle_after_epoch_seed", DALIC_ARG_INT, "None",
	 "Base seed of the per-epoch reshuffle (must match across shards); default 524287."},
	{"shard_id", DALIC_ARG_INT, "0", "Index of the shard to read."},
	{"num_shards", DALIC_ARG_INT, "1", "Number of shards the data is split into."},
	{"stick_to_shard", DALIC_ARG_BOOL, "False", "Read the same shard every epoch."},
	{"pad_last_batch", DALIC_ARG_BOOL, "False",
	 "Repeat the last sample so every shard yields the same number of full batches."},
	{"read_ahead", DALIC_ARG_BOOL, "False", "Keep each file in memory after first use."},
	{"dont_use_mmap", DALIC_ARG_BOOL, "False", "Read files with read() instead of mmap."},
	{"prefetch_queue_depth", DALIC_ARG_INT, "1", "Loader prefetch depth (accepted; unused)."},
	{"lazy_init", DALIC_ARG_BOOL, "False", "List the files at the first run."},
	{"tensor_init_bytes", DALIC_ARG_INT, "1048576",
	 "Initial bytes per sample (accepted; outputs are sized from file sizes)."},
	{"skip_cached_images", DALIC_ARG_BOOL, "False",
	 "Skip samples cached by the decoder (accepted; dalic has no decoder cache)."},
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(reader_t),
	.init = reader_init,
	.setup = reader_setup,
	.run_sample = reader_run_sample,
	.fini = reader_fini,
	.reader_meta = reader_meta,
	.reset = reader_reset,
};

DALIC_OPERATOR(readers__File) = {
	.name = "readers__File",
	.fn = "readers.file",
	.aliases = {"FileReader"},
	.module = "nvidia.dali.fn.readers",
	.doc = "Reads (file, label) pairs from a directory, a file list or a list of files.",
	.min_inputs = 0,
	.max_inputs = 0,
	.num_outputs = 2,
	.devices = DALIC_DEV_CPU,
	.random = true,
	.is_reader = true,
	.args = args,
	.cpu = &kernel,
};
