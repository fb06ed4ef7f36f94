/*
 * readers.mxnet (DALI's readers__MXNet / MXNetReader): records of MXNet RecordIO files
 * (recio.h) found through their one index file; outputs the image bytes (uint8, 1-D) and the
 * labels (float, [1] or [flag]). Entries are the records in offset order; shuffle_after_epoch
 * reshuffles the order of the files, as DALI's IndexedFileLoader. A record the index lets run
 * past its file continues in the next one, as DALI reads it. Sources: "<path> at index
 * <offset>", DALI's source_info. Images of one-part records held in memory borrow the
 * record's bytes (no copy). Damaged records are errors naming the file and offset.
 */
#include "engine/error.h"
#include "engine/kernel.h"
#include "engine/memory.h"
#include "kernels/common/reader_core.h"
#include "kernels/common/reader_io.h"
#include "kernels/common/recio.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct mxnet_slot {
	const uint8_t *rec; /* mapped, or in buf */
	uint8_t *buf, *joined;
	size_t buf_cap, joined_cap;
	recio_view_t view;
} mxnet_slot_t;

typedef struct mxnet_reader {
	dalic_rdcore_t core;
	dalic_rdio_t io;
	tfrec_index_t index;
	mxnet_slot_t *slots;
	size_t charged; /* the slots' record buffers */
} mxnet_reader_t;
_Static_assert(offsetof(mxnet_reader_t, core) == 0, "the state starts with the reader core");

static const rdcore_kind_t mxnet_kind = {.epoch = RDCORE_EPOCH_FILES};

static void mxnet_hint(void *user, int32_t e)
{
	mxnet_reader_t *r = user;
	const tfrec_record_t *rec = &r->index.v[e];
	dalic_rdio_will_need(&r->io, rec->file, rec->off, rec->size);
}

static int mxnet_prepare(dalic_op_ctx_t *ctx)
{
	mxnet_reader_t *r = ctx->state;
	if (r->core.ready)
		return DALIC_OK;
	const dalic_value_t *paths = dalic_arg(ctx, "path"), *idx = dalic_arg(ctx, "index_path");
	char err[1024];
	if (paths->n == 0)
		return dalic_op_fail(ctx, NULL, -1, "No files specified.");
	if (idx->n != 1)
		return dalic_op_fail(ctx, NULL, -1, "RecordIOReader supports only a single index file");
	int64_t *sizes = calloc((size_t)paths->n, sizeof *sizes);
	if (!sizes)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	int rc = 0;
	for (int k = 0; !rc && k < paths->n; k++) {
		rc = dalic_rdio_add(&r->io, paths->s[k], err, sizeof err) < 0 ||
		     dalic_rdio_open(&r->io, k, err, sizeof err);
		if (!rc)
			sizes[k] = r->io.files[k].size;
	}
	if (!rc)
		rc = dalic_recio_index_read(&r->index, idx->s[0], sizes, paths->n, err, sizeof err);
	free(sizes);
	if (rc)
		return dalic_op_fail(ctx, NULL, -1, "%s", err);
	if (r->index.n == 0)
		return dalic_op_fail(ctx, NULL, -1, "the RecordIO files hold no records");
	int64_t *first = malloc(sizeof(int64_t) * ((size_t)paths->n + 1));
	if (!first)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	dalic_tfrec_index_file_starts(&r->index, paths->n, first);
	rc = dalic_rdcore_set_files(&r->core, ctx, paths->n, first);
	free(first);
	return rc ? rc : dalic_rdcore_set_size(&r->core, ctx, r->index.n);
}

static void mxnet_fini(dalic_op_ctx_t *ctx)
{
	mxnet_reader_t *r = ctx->state;
	for (int i = 0; r->slots && i < ctx->max_batch_size; i++) {
		free(r->slots[i].buf);
		free(r->slots[i].joined);
	}
	free(r->slots);
	dalic_mem_uncharge(r->charged);
	dalic_tfrec_index_free(&r->index);
	dalic_rdio_free(&r->io);
	dalic_rdcore_fini(&r->core);
}

static int mxnet_init_state(dalic_op_ctx_t *ctx)
{
	mxnet_reader_t *r = ctx->state;
	DALIC_TRY(dalic_rdcore_init(&r->core, ctx, &mxnet_kind));
	r->core.prepare = mxnet_prepare;
	r->slots = calloc((size_t)ctx->max_batch_size, sizeof *r->slots);
	if (!r->slots)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	dalic_rdio_init(&r->io, !r->core.no_mmap, r->core.read_ahead);
	r->core.hint = mxnet_hint;
	r->core.hint_user = r;
	return r->core.lazy ? DALIC_OK : mxnet_prepare(ctx);
}

static int mxnet_init(dalic_op_ctx_t *ctx)
{
	int rc = mxnet_init_state(ctx);
	if (rc)
		mxnet_fini(ctx);
	return rc;
}

/* The bytes of record `rec` in slot i: mapped when it lies in one mapped file, else read
 * (through the following files when it runs past its own). */
static int mxnet_fetch(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, mxnet_reader_t *r, int i,
                       const tfrec_record_t *rec)
{
	mxnet_slot_t *s = &r->slots[i];
	const rdio_file_t *f = &r->io.files[rec->file];
	if (rec->off + rec->size <= f->size && (s->rec = dalic_rdio_at(&r->io, rec->file, rec->off)))
		return DALIC_OK;
	char err[512];
	if (dalic_rdio_buf_reserve(&s->buf, &s->buf_cap, (size_t)rec->size, &r->charged, err,
	                           sizeof err))
		return dalic_op_fail(ctx, ws, i, "%s", err);
	int64_t got = 0, off = rec->off;
	/* on past the file's end: the next file from its start, as DALI's reads go */
	for (int k = rec->file; got < rec->size && k < r->io.n; k++, off = 0) {
		int64_t piece = r->io.files[k].size - off;
		piece = piece < rec->size - got ? piece : rec->size - got;
		if (piece > 0 && dalic_rdio_read(&r->io, k, off, piece, s->buf + got, err, sizeof err))
			return dalic_op_fail(ctx, ws, i, "%s", err);
		got += piece > 0 ? piece : 0;
	}
	if (got < rec->size)
		return dalic_op_fail(ctx, ws, i,
		                     "record at offset %lld of '%s': the files end %lld bytes before "
		                     "the record does",
		                     (long long)rec->off, r->io.files[rec->file].path,
		                     (long long)(rec->size - got));
	s->rec = s->buf;
	return DALIC_OK;
}

static int mxnet_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	mxnet_reader_t *r = ctx->state;
	DALIC_TRY(mxnet_prepare(ctx));
	int n = ws->batch_size;
	dalic_batch_t *img = ws->outputs[0], *lab = ws->outputs[1];
	DALIC_TRY(dalic_batch_set_meta(img, n, DALIC_UINT8, 1));
	DALIC_TRY(dalic_batch_set_meta(lab, n, DALIC_FLOAT, 1));
	dalic_batch_set_layout(img, "");
	dalic_batch_set_layout(lab, "");
	dalic_rdcore_next_batch(&r->core, n);
	for (int i = 0; i < n; i++) {
		int32_t e = r->core.selected[i];
		const tfrec_record_t *rec = &r->index.v[e];
		const char *path = r->io.files[rec->file].path;
		const char *src =
		    dalic_rdcore_source(&r->core, e, "%s at index %lld", path, (long long)rec->off);
		if (!src)
			return dalic_op_fail(ctx, ws, i, "%s", dalic_last_error());
		img->sources[i] = lab->sources[i] = src;
		DALIC_TRY(mxnet_fetch(ctx, ws, r, i, rec));
		mxnet_slot_t *s = &r->slots[i];
		char err[512];
		if (dalic_recio_parse(s->rec, rec->size, &s->view, &s->joined, &s->joined_cap, err,
		                      sizeof err))
			return dalic_op_fail(ctx, ws, i, "%s (record at offset %lld of '%s')", err,
			                     (long long)rec->off, path);
		dalic_batch_shape_mut(img, i)[0] = s->view.image_size;
		dalic_batch_shape_mut(lab, i)[0] = s->view.nlabels;
		/* a one-part record held in memory until fini (mapped, or read whole for
		 * read_ahead): the image borrows its bytes, no copy; slot buffers are reused */
		if (s->rec != s->buf && !s->view.joined) {
			img->ptrs[i] = (void *)s->view.image;
			img->borrowed[i] = true;
		}
	}
	return DALIC_OK;
}

static int mxnet_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	mxnet_reader_t *r = ctx->state;
	const recio_view_t *v = &r->slots[i].view;
	if (!ws->outputs[0]->borrowed[i]) /* else the record's own bytes (mxnet_setup) */
		memcpy(ws->outputs[0]->ptrs[i], v->image, (size_t)v->image_size);
	if (v->labels)
		memcpy(ws->outputs[1]->ptrs[i], v->labels, 4 * (size_t)v->nlabels);
	else
		*(float *)ws->outputs[1]->ptrs[i] = v->label;
	(void)thread;
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
	{"path", DALIC_ARG_STRING_LIST, NULL, "RecordIO (.rec) files."},
	{"index_path", DALIC_ARG_STRING_LIST, NULL,
	 "The index file ('<key> <offset>' per record, offsets through all the files)."},
	DALIC_READER_COMMON_ARGS,
	DALIC_READER_EPOCH_ARGS,
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(mxnet_reader_t),
	.init = mxnet_init,
	.setup = mxnet_setup,
	.run_sample = mxnet_run_sample,
	.fini = mxnet_fini,
	.reader_meta = dalic_rdcore_op_meta,
	.reset = dalic_rdcore_op_reset,
	.ckpt_save = dalic_rdcore_op_ckpt_save,
	.ckpt_restore = dalic_rdcore_op_ckpt_restore,
	.skip = dalic_rdcore_op_skip,
};

DALIC_OPERATOR(readers__MXNet) = {
	.name = "readers__MXNet",
	.fn = "readers.mxnet",
	.aliases = {"MXNetReader"},
	.module = "nvidia.dali.fn.readers",
	.doc = "Reads images and labels from MXNet RecordIO files through their index.",
	.min_inputs = 0,
	.max_inputs = 0,
	.num_outputs = 2,
	.devices = DALIC_DEV_CPU,
	.random = true,
	.is_reader = true,
	.args = args,
	.cpu = &kernel,
};
