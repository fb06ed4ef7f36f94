/*
 * readers.sequence (DALI's readers__Sequence / SequenceReader, deprecated there): sequences of
 * frames from a directory of streams, as DALI's SequenceLoader lists them. The frames are the
 * image files of file_root/<stream>/ (one level, DALI's glob "*" / "*": no dot files), sorted
 * by path; a stream is one directory. Each stream gives the sequences starting at frames
 * 0, step, 2 * step, ... of sequence_length frames `stride` apart, while the last one fits
 * (sequences never cross streams, none is padded). Output: the decoded frames (image_type),
 * uint8 [F, H, W, C], layout "FHWC"; every frame of a sequence must decode to the first one's
 * shape. The sample's source is its first frame's path. LMDB-like loader: random_shuffle
 * shuffles the whole list once, resets return to the reader's own shard.
 */
#include "engine/error.h"
#include "engine/kernel.h"
#include "engine/memory.h"
#include "kernels/common/img_codec.h"
#include "kernels/common/img_files.h"
#include "kernels/common/reader_core.h"
#include "kernels/common/reader_io.h"

#include <glob.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct seq_reader {
	dalic_rdcore_t core;
	img_file_list_t frames; /* sorted paths */
	int64_t *first;         /* per sequence: its first frame */
	int64_t nseq;
	int length, step, stride, image_type;
	img_decoder_t **dec; /* per thread, and one for setup's probes */
	int ndec;
	img_info_t *info;    /* per sample slot: its first frame's header */
	uint8_t **bytes;     /* per thread: a frame's file */
	size_t *cap, charged;
} seq_reader_t;
_Static_assert(offsetof(seq_reader_t, core) == 0, "the state starts with the reader core");

static const rdcore_kind_t seq_kind = {.list_shuffle = true, .own_shard_reset = true};

/* DALI's image extensions (kKnownImageExtensions), in any case. */
static bool seq_is_image(const char *path)
{
	static const char *const ext[] = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff",
	                                  ".pnm", ".ppm", ".pgm", ".pbm", ".jp2", ".webp"};
	size_t n = strlen(path);
	for (size_t k = 0; k < sizeof ext / sizeof *ext; k++) {
		size_t e = strlen(ext[k]);
		if (n > e && !strcasecmp(path + n - e, ext[k]))
			return true;
	}
	return false;
}

static int seq_cmp_path(const void *a, const void *b)
{
	return strcmp(((const img_file_entry_t *)a)->path, ((const img_file_entry_t *)b)->path);
}

/* The frames and the sequences (GatherExtractedStreams, GenerateSequences). */
static int seq_prepare(dalic_op_ctx_t *ctx)
{
	seq_reader_t *r = ctx->state;
	if (r->core.ready)
		return DALIC_OK;
	const char *root = dalic_arg_string(ctx, "file_root");
	char pattern[4096];
	snprintf(pattern, sizeof pattern, "%s/*/*", root ? root : "");
	glob_t g;
	if (glob(pattern, 0, NULL, &g))
		return dalic_op_fail(ctx, NULL, -1,
		                     "Glob for pattern: \"%s\" failed. Verify the file_root argument",
		                     pattern);
	size_t skip = strlen(root) + 1;
	int rc = DALIC_OK;
	for (size_t k = 0; !rc && k < g.gl_pathc; k++)
		if (seq_is_image(g.gl_pathv[k]) &&
		    dalic_img_file_list_add(&r->frames, root, g.gl_pathv[k] + skip, 0))
			rc = dalic_op_fail(ctx, NULL, -1, "%s", dalic_last_error());
	globfree(&g);
	DALIC_TRY(rc);
	if (r->frames.n > 1)
		qsort(r->frames.v, (size_t)r->frames.n, sizeof *r->frames.v, seq_cmp_path);
	r->first = malloc(sizeof *r->first * ((size_t)r->frames.n + 1));
	if (!r->first)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	for (int s = 0, e; s < r->frames.n; s = e) {
		const char *p = r->frames.v[s].path, *slash = strrchr(p, '/');
		size_t dir = (size_t)(slash - p + 1);
		for (e = s + 1; e < r->frames.n && !strncmp(r->frames.v[e].path, p, dir) &&
		                !strchr(r->frames.v[e].path + dir, '/');
		     e++)
			;
		for (int64_t i = s; i + (int64_t)(r->length - 1) * r->stride < e; i += r->step)
			r->first[r->nseq++] = i;
	}
	if (r->nseq == 0)
		return dalic_op_fail(ctx, NULL, -1,
		                     "No files found: no stream of '%s' has %d frames %d apart", root,
		                     r->length, r->stride);
	return dalic_rdcore_set_size(&r->core, ctx, r->nseq);
}

static void seq_fini(dalic_op_ctx_t *ctx)
{
	seq_reader_t *r = ctx->state;
	for (int t = 0; r->dec && t < r->ndec; t++) {
		dalic_img_decoder_free(r->dec[t]);
		free(r->bytes[t]);
	}
	dalic_mem_uncharge(r->charged);
	free(r->dec);
	free(r->bytes);
	free(r->cap);
	free(r->info);
	free(r->first);
	dalic_img_file_list_free(&r->frames);
	dalic_rdcore_fini(&r->core);
}

static int seq_init_state(dalic_op_ctx_t *ctx)
{
	seq_reader_t *r = ctx->state;
	DALIC_TRY(dalic_rdcore_init(&r->core, ctx, &seq_kind));
	r->core.prepare = seq_prepare;
	r->length = (int)dalic_arg_int(ctx, "sequence_length");
	r->step = (int)dalic_arg_int(ctx, "step");
	r->stride = (int)dalic_arg_int(ctx, "stride");
	r->image_type = (int)dalic_arg_int(ctx, "image_type");
	if (r->length <= 0)
		return dalic_op_fail(ctx, NULL, -1, "Sequence length must be positive");
	if (r->step <= 0)
		return dalic_op_fail(ctx, NULL, -1, "Step must be positive");
	if (r->stride <= 0)
		return dalic_op_fail(ctx, NULL, -1, "Stride must be positive");
	if (r->image_type < DALIC_RGB || r->image_type > DALIC_ANY_DATA)
		return dalic_op_fail(ctx, NULL, -1, "unknown image_type %d", r->image_type);
	r->ndec = ctx->num_threads + 2; /* the workers, the stage thread, setup's probes */
	r->dec = calloc((size_t)r->ndec, sizeof *r->dec);
	r->bytes = calloc((size_t)r->ndec, sizeof *r->bytes);
	r->cap = calloc((size_t)r->ndec, sizeof *r->cap);
	r->info = calloc((size_t)ctx->max_batch_size, sizeof *r->info);
	if (!r->dec || !r->bytes || !r->cap || !r->info)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	for (int t = 0; t < r->ndec; t++)
		if (!(r->dec[t] = dalic_img_decoder_new()))
			return dalic_op_fail(ctx, NULL, -1, "out of memory");
	return r->core.lazy ? DALIC_OK : seq_prepare(ctx);
}

static int seq_init(dalic_op_ctx_t *ctx)
{
	int rc = seq_init_state(ctx);
	if (rc)
		seq_fini(ctx);
	return rc;
}

static img_file_entry_t *seq_frame(seq_reader_t *r, int i, int k)
{
	return &r->frames.v[r->first[r->core.selected[i]] + (int64_t)k * r->stride];
}

/* Frame k of the sequence in slot i (sized in setup) read into thread t's buffer and its
 * header probed. */
static int seq_probe(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int k, int t,
                     img_info_t *info, size_t *len)
{
	seq_reader_t *r = ctx->state;
	const img_file_entry_t *e = seq_frame(r, i, k);
	char err[512];
	if (dalic_rdio_buf_reserve(&r->bytes[t], &r->cap[t], (size_t)e->size + 1, &r->charged,
	                           err, sizeof err) ||
	    dalic_rdio_entry_read(e, !r->core.no_mmap, r->bytes[t], err, sizeof err) ||
	    dalic_img_probe(r->dec[t], r->bytes[t], (size_t)e->size, true, info, err, sizeof err))
		return dalic_op_fail(ctx, ws, i, "frame '%s': %s", e->path, err);
	*len = (size_t)e->size;
	return DALIC_OK;
}

static int seq_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	seq_reader_t *r = ctx->state;
	DALIC_TRY(seq_prepare(ctx));
	int n = ws->batch_size;
	dalic_batch_t *out = ws->outputs[0];
	DALIC_TRY(dalic_batch_set_meta(out, n, DALIC_UINT8, 4));
	dalic_batch_set_layout(out, "FHWC");
	dalic_rdcore_next_batch(&r->core, n);
	for (int i = 0; i < n; i++) {
		char err[512];
		for (int k = 0; k < r->length; k++) { /* sizes (and read_ahead copies) before run */
			img_file_entry_t *e = seq_frame(r, i, k);
			if (dalic_rdio_entry_size(e, r->core.read_ahead, !r->core.no_mmap, err,
			                          sizeof err))
				return dalic_op_fail(ctx, ws, i, "frame '%s': %s", e->path, err);
		}
		size_t len;
		DALIC_TRY(seq_probe(ctx, ws, i, 0, r->ndec - 1, &r->info[i], &len));
		out->sources[i] = seq_frame(r, i, 0)->path;
		img_info_t *f = &r->info[i];
		dalic_batch_set_shape(out, i,
		                      (const int64_t[]){r->length, img_oriented_h(f), img_oriented_w(f),
		                                        dalic_img_output_channels(f, r->image_type)});
	}
	return DALIC_OK;
}

static int seq_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	seq_reader_t *r = ctx->state;
	const img_info_t *want = &r->info[i];
	int h = img_oriented_h(want), w = img_oriented_w(want);
	int c = dalic_img_output_channels(want, r->image_type);
	size_t frame = (size_t)h * (size_t)w * (size_t)c;
	uint8_t *out = ws->outputs[0]->ptrs[i];
	for (int k = 0; k < r->length; k++) {
		img_info_t info;
		size_t len;
		DALIC_TRY(seq_probe(ctx, ws, i, k, thread, &info, &len));
		const char *path = seq_frame(r, i, k)->path;
		if (img_oriented_h(&info) != h || img_oriented_w(&info) != w ||
		    dalic_img_output_channels(&info, r->image_type) != c)
			return dalic_op_fail(ctx, ws, i,
			                     "frame '%s' is %d x %d x %d, the sequence's first %d x %d x %d",
			                     path, img_oriented_h(&info), img_oriented_w(&info),
			                     dalic_img_output_channels(&info, r->image_type), h, w, c);
		char err[512];
		if (dalic_img_decode(r->dec[thread], r->bytes[thread], len, &info, r->image_type, NULL,
		                     out + (size_t)k * frame, err, sizeof err))
			return dalic_op_fail(ctx, ws, i, "frame '%s': %s", path, err);
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
	{"file_root", DALIC_ARG_STRING, NULL, "Directory of streams: one directory of frames each."},
	{"sequence_length", DALIC_ARG_INT, NULL, "Frames in each sequence."},
	{"step", DALIC_ARG_INT, "1", "Frames between the first frames of consecutive sequences."},
	{"stride", DALIC_ARG_INT, "1", "Frames between consecutive frames of a sequence."},
	{"image_type", DALIC_ARG_IMAGE_TYPE, "RGB", "Colour space of the decoded frames."},
	DALIC_READER_COMMON_ARGS,
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(seq_reader_t),
	.init = seq_init,
	.setup = seq_setup,
	.run_sample = seq_run_sample,
	.fini = seq_fini,
	.reader_meta = dalic_rdcore_op_meta,
	.reset = dalic_rdcore_op_reset,
	.ckpt_save = dalic_rdcore_op_ckpt_save,
	.ckpt_restore = dalic_rdcore_op_ckpt_restore,
	.skip = dalic_rdcore_op_skip,
};

DALIC_OPERATOR(readers__Sequence) = {
	.name = "readers__Sequence",
	.fn = "readers.sequence",
	.aliases = {"SequenceReader"},
	.module = "nvidia.dali.fn.readers",
	.doc = "Reads sequences of decoded frames from directories of image files, one directory "
	       "per stream.",
	.min_inputs = 0,
	.max_inputs = 0,
	.num_outputs = 1,
	.devices = DALIC_DEV_CPU,
	.random = true,
	.is_reader = true,
	.args = args,
	.cpu = &kernel,
};
