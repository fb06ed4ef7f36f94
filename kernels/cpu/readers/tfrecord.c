/*
 * readers.tfrecord (DALI's readers___TFRecord; fn.readers.tfrecord, ops.readers.TFRecord,
 * legacy TFRecordReader): records of TFRecord files, located by DALI's index files ("offset
 * size" per record, as `dalic tfrecord-index` or DALI's tfrecord2idx write them), parsed as
 * tf.train.Example; one output per feature (`feature_names` / `features`, which the script
 * front end makes from the `features` dict).
 *
 * Each record is `uint64 length, uint32 masked_crc32c(length), payload, uint32
 * masked_crc32c(payload)`. DALI checks neither CRC; dalic checks the length's on every read
 * (in setup) and the payload's the first time this reader delivers the record (in the
 * parallel run; a bit per index entry remembers it), and again whenever the payload fails
 * to parse; a mismatch names the file and the offset. Re-reading an unchanged file cannot
 * fail a CRC that passed, and a full CRC per epoch was a third of the reader's time
 * (docs/dali-differences.md, "Readers"). Outputs:
 * int64 -> INT64, float32 -> FLOAT, string -> UINT8 bytes (the first value).
 * - FixedLenFeature(shape): that shape ([1] for []); the record must hold volume(shape)
 *   values (DALI leaves the rest uninitialised or fails);
 * - VarLenFeature: [count], or [count / volume(partial), *partial] with a partial shape;
 * - a feature missing from a record gives its default: the fixed shape filled with it, or one
 *   row of it for VarLenFeature (DALI returns an uninitialised scalar), the default's bytes
 *   for strings.
 * String samples borrow the record's bytes where the file is held in memory (no copy).
 * Entries are records in file order; shuffle_after_epoch reshuffles the order of the files
 * (DALI's IndexedFileLoader). Sources: "<path> at index <offset>", as DALI's source_info.
 */
#include "engine/checked.h"
#include "engine/error.h"
#include "engine/graphdef.h"
#include "engine/kernel.h"
#include "engine/memory.h"
#include "kernels/common/crc32c.h"
#include "kernels/common/reader_core.h"
#include "kernels/common/reader_io.h"
#include "kernels/common/tfrec_example.h"
#include "kernels/common/tfrec_feature.h"
#include "kernels/common/tfrec_index.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tfrecord_slot {
	const uint8_t *rec; /* the record: in the mapped file, or in buf */
	uint8_t *buf;
	size_t buf_cap;
	int64_t len; /* payload bytes */
	tfrec_span_t *spans;
} tfrecord_slot_t;

typedef struct tfrecord {
	dalic_rdcore_t core;
	dalic_rdio_t io;
	tfrec_index_t index;
	int nfeat;
	const char **names; /* borrowed from the arguments */
	dalic_tfrec_feature_t *feat;
	tfrecord_slot_t *slots;
	uint64_t *verified; /* bit e: index entry e's payload CRC has matched */
	size_t charged;
} tfrecord_t;
_Static_assert(offsetof(tfrecord_t, core) == 0, "the state starts with the reader core");

static const rdcore_kind_t tfrecord_kind = {.epoch = RDCORE_EPOCH_FILES};

static int tfrecord_outputs_for(const dalic_opdef_t *def)
{
	const dalic_value_t *v = dalic_graphdef_op_arg(def, "feature_names");
	return v && v->kind != DALIC_V_NONE && v->n > 0 ? v->n : 1;
}

static uint64_t tfrecord_le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t tfrecord_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void tfrecord_hint(void *user, int32_t e)
{
	tfrecord_t *r = user;
	const tfrec_record_t *rec = &r->index.v[e];
	char err[256];
	if (!dalic_rdio_open(&r->io, rec->file, err, sizeof err))
		dalic_rdio_will_need(&r->io, rec->file, rec->off, rec->size);
}

/* One bit per index entry for tfrecord_verify_once, charged to the memory budget. */
static int tfrecord_alloc_marks(dalic_op_ctx_t *ctx, tfrecord_t *r)
{
	size_t bytes = ((size_t)r->index.n + 63) / 64 * sizeof *r->verified;
	if (r->verified)
		return DALIC_OK;
	if (dalic_mem_charge(bytes))
		return dalic_op_fail(ctx, NULL, -1, "%s", dalic_last_error());
	r->charged += bytes;
	if (!(r->verified = calloc(1, bytes)))
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	return DALIC_OK;
}

static int tfrecord_prepare(dalic_op_ctx_t *ctx)
{
	tfrecord_t *r = ctx->state;
	if (r->core.ready)
		return DALIC_OK;
	const dalic_value_t *paths = dalic_arg(ctx, "path"), *idx = dalic_arg(ctx, "index_path");
	char err[1024];
	if (paths->n == 0)
		return dalic_op_fail(ctx, NULL, -1, "No files specified.");
	if (idx->n != paths->n)
		return dalic_op_fail(ctx, NULL, -1,
		                     "Number of index files needs to match the number of data files "
		                     "(%d index files for %d data files)",
		                     idx->n, paths->n);
	for (int k = 0; k < paths->n; k++)
		if (dalic_rdio_add(&r->io, paths->s[k], err, sizeof err) < 0 ||
		    dalic_tfrec_index_read(&r->index, idx->s[k], k, err, sizeof err))
			return dalic_op_fail(ctx, NULL, -1, "%s", err);
	if (r->index.n == 0)
		return dalic_op_fail(ctx, NULL, -1, "Content of index files should not be empty");
	int64_t *first = malloc(sizeof(int64_t) * ((size_t)paths->n + 1));
	if (!first)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	dalic_tfrec_index_file_starts(&r->index, paths->n, first);
	int rc = dalic_rdcore_set_files(&r->core, ctx, paths->n, first);
	free(first);
	if (rc)
		return rc;
	DALIC_TRY(tfrecord_alloc_marks(ctx, r));
	return dalic_rdcore_set_size(&r->core, ctx, r->index.n);
}

static int tfrecord_parse_features(dalic_op_ctx_t *ctx, tfrecord_t *r)
{
	const dalic_value_t *names = dalic_arg(ctx, "feature_names");
	const dalic_value_t *feats = dalic_arg(ctx, "features");
	if (names->n != feats->n)
		return dalic_op_fail(ctx, NULL, -1,
		                     "Number of features needs to match number of feature names.");
	if (feats->n == 0)
		return dalic_op_fail(ctx, NULL, -1, "No features provided");
	r->nfeat = feats->n;
	r->names = (const char **)names->s;
	r->feat = calloc((size_t)r->nfeat, sizeof *r->feat);
	if (!r->feat)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	for (int i = 0; i < r->nfeat; i++) {
		char err[256];
		dalic_tfrec_feature_t *f = &r->feat[i];
		if (dalic_tfrec_feature_parse(feats->s[i], f, err, sizeof err))
			return dalic_op_fail(ctx, NULL, -1, "feature '%s': %s", names->s[i], err);
		int64_t vol = 1;
		if (!dalic_ck_volume(f->shape, f->ndim, &vol) || f->ndim >= DALIC_MAX_NDIM)
			return dalic_op_fail(ctx, NULL, -1, "feature '%s': shape too large",
			                     names->s[i]);
		if (f->type == TFREC_STRING && (!f->fixed || vol > 1))
			return dalic_op_fail(ctx, NULL, -1,
			                     "feature '%s': Tensors of strings are not supported. A "
			                     "string feature is FixedLenFeature([], string, ...) or "
			                     "FixedLenFeature([1], string, ...)",
			                     names->s[i]);
		if (!f->fixed && f->ndim && vol == 0)
			return dalic_op_fail(ctx, NULL, -1,
			                     "feature '%s': a partial shape of zero volume", names->s[i]);
	}
	return DALIC_OK;
}

static void tfrecord_fini(dalic_op_ctx_t *ctx)
{
	tfrecord_t *r = ctx->state;
	for (int i = 0; r->slots && i < ctx->max_batch_size; i++) {
		free(r->slots[i].buf);
		free(r->slots[i].spans);
	}
	free(r->slots);
	free(r->verified);
	for (int i = 0; r->feat && i < r->nfeat; i++)
		dalic_tfrec_feature_free(&r->feat[i]);
	free(r->feat);
	dalic_tfrec_index_free(&r->index);
	dalic_rdio_free(&r->io);
	dalic_rdcore_fini(&r->core);
	if (r->charged)
		dalic_mem_uncharge(r->charged);
}

static int tfrecord_init_state(dalic_op_ctx_t *ctx)
{
	tfrecord_t *r = ctx->state;
	DALIC_TRY(dalic_rdcore_init(&r->core, ctx, &tfrecord_kind));
	r->core.prepare = tfrecord_prepare;
	if (dalic_arg_bool(ctx, "use_o_direct") && !r->core.no_mmap)
		return dalic_op_fail(ctx, NULL, -1,
		                     "Cannot use use_o_direct with ``dont_use_mmap=False``.");
	DALIC_TRY(tfrecord_parse_features(ctx, r));
	r->slots = calloc((size_t)ctx->max_batch_size, sizeof *r->slots);
	if (!r->slots)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	for (int i = 0; i < ctx->max_batch_size; i++)
		if (!(r->slots[i].spans = calloc((size_t)r->nfeat, sizeof(tfrec_span_t))))
			return dalic_op_fail(ctx, NULL, -1, "out of memory");
	dalic_rdio_init(&r->io, !r->core.no_mmap, r->core.read_ahead);
	r->core.hint = tfrecord_hint;
	r->core.hint_user = r;
	return r->core.lazy ? DALIC_OK : tfrecord_prepare(ctx);
}

static int tfrecord_init(dalic_op_ctx_t *ctx)
{
	int rc = tfrecord_init_state(ctx);
	if (rc)
		tfrecord_fini(ctx);
	return rc;
}

/* The record of slot i in memory: mapped, or read into the slot's buffer. */
static int tfrecord_fetch(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, tfrecord_t *r, int i,
                          const tfrec_record_t *rec)
{
	tfrecord_slot_t *s = &r->slots[i];
	char err[512];
	if (dalic_rdio_open(&r->io, rec->file, err, sizeof err) ||
	    dalic_rdio_check(&r->io, rec->file, rec->off, rec->size, "record", err, sizeof err))
		return dalic_op_fail(ctx, ws, i, "%s", err);
	s->rec = dalic_rdio_at(&r->io, rec->file, rec->off);
	if (s->rec)
		return DALIC_OK;
	if (dalic_rdio_buf_reserve(&s->buf, &s->buf_cap, (size_t)rec->size, &r->charged, err,
	                           sizeof err))
		return dalic_op_fail(ctx, ws, i, "%s", err);
	if (dalic_rdio_read(&r->io, rec->file, rec->off, rec->size, s->buf, err, sizeof err))
		return dalic_op_fail(ctx, ws, i, "%s", err);
	s->rec = s->buf;
	return DALIC_OK;
}

/* Header checks: the length's CRC, and the length against the index. */
static int tfrecord_header(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, tfrecord_t *r, int i,
                           const tfrec_record_t *rec)
{
	tfrecord_slot_t *s = &r->slots[i];
	const char *path = r->io.files[rec->file].path;
	if (rec->size < 16)
		return dalic_op_fail(ctx, ws, i,
		                     "record at offset %lld of '%s': the index gives %lld bytes, less "
		                     "than a TFRecord header and footer (16)",
		                     (long long)rec->off, path, (long long)rec->size);
	if (dalic_crc32c_masked(s->rec, 8) != tfrecord_le32(s->rec + 8))
		return dalic_op_fail(ctx, ws, i,
		                     "corrupt TFRecord: the length CRC does not match at offset %lld "
		                     "of '%s'",
		                     (long long)rec->off, path);
	uint64_t len = tfrecord_le64(s->rec);
	if (len != (uint64_t)rec->size - 16)
		return dalic_op_fail(ctx, ws, i,
		                     "record at offset %lld of '%s' holds %llu payload bytes but its "
		                     "index entry says %lld bytes in all (expected %llu): the index "
		                     "does not belong to this file",
		                     (long long)rec->off, path, (unsigned long long)len,
		                     (long long)rec->size, (unsigned long long)len + 16);
	s->len = (int64_t)len;
	return DALIC_OK;
}

static int tfrecord_data_crc(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, tfrecord_t *r, int i)
{
	const tfrecord_slot_t *s = &r->slots[i];
	if (dalic_crc32c_masked(s->rec + 12, (size_t)s->len) == tfrecord_le32(s->rec + 12 + s->len))
		return DALIC_OK;
	const tfrec_record_t *rec = &r->index.v[r->core.selected[i]];
	return dalic_op_fail(ctx, ws, i,
	                     "corrupt TFRecord: the data CRC does not match in the record at "
	                     "offset %lld of '%s'",
	                     (long long)rec->off, r->io.files[rec->file].path);
}

/* The payload CRC of slot i unless its index entry's has matched before. Workers set bits
 * of shared words (one record can fill two slots of a batch), hence the atomics; a record
 * checked twice at once is harmless. */
static int tfrecord_verify_once(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, tfrecord_t *r, int i)
{
	int32_t e = r->core.selected[i];
	uint64_t *word = &r->verified[e >> 6], bit = 1ull << (e & 63);
	if (__atomic_load_n(word, __ATOMIC_RELAXED) & bit)
		return DALIC_OK;
	DALIC_TRY(tfrecord_data_crc(ctx, ws, r, i));
	__atomic_fetch_or(word, bit, __ATOMIC_RELAXED);
	return DALIC_OK;
}

/* Output shape of feature k for slot i. */
static int tfrecord_shape(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, tfrecord_t *r, int i, int k,
                          int64_t *dims)
{
	const dalic_tfrec_feature_t *f = &r->feat[k];
	const tfrec_span_t *sp = &r->slots[i].spans[k];
	static const int want_kind[] = {TFREC_KIND_INT64, TFREC_KIND_BYTES, TFREC_KIND_FLOAT};
	static const char *const kind_names[] = {"nothing", "a bytes_list", "a float_list",
	                                         "an int64_list"};
	const char *name = r->names[k];
	bool missing = !sp->present || sp->kind == TFREC_KIND_NONE;
	if (!missing && sp->kind != want_kind[f->type])
		return dalic_op_fail(ctx, ws, i, "feature '%s' holds %s, the reader asks for %s", name,
		                     kind_names[sp->kind], dalic_tfrec_type_name(f->type));
	if (f->type == TFREC_STRING) {
		dims[0] = missing || !sp->count ? (int64_t)f->dflt_len : (int64_t)sp->first_len;
		return DALIC_OK;
	}
	int64_t vol = 1;
	for (int d = 0; d < f->ndim; d++)
		vol *= f->shape[d];
	if (f->fixed) {
		dims[0] = 1;
		for (int d = 0; d < f->ndim; d++)
			dims[d] = f->shape[d];
		if (!missing && sp->count != vol)
			return dalic_op_fail(ctx, ws, i,
			                     "feature '%s' has %lld values; its FixedLenFeature shape "
			                     "takes %lld",
			                     name, (long long)sp->count, (long long)vol);
		return DALIC_OK;
	}
	int64_t count = missing ? vol : sp->count;
	if (count % vol)
		return dalic_op_fail(ctx, ws, i,
		                     "Feature size not matching partial shape: feature '%s' has %lld "
		                     "values, not a multiple of %lld",
		                     name, (long long)count, (long long)vol);
	dims[0] = f->ndim ? count / vol : count;
	for (int d = 0; d < f->ndim; d++)
		dims[d + 1] = f->shape[d];
	return DALIC_OK;
}

/* A string feature's bytes stay where they are when the record is held in memory (mapped,
 * or read whole for read_ahead) until fini: sample i of output k borrows them, and
 * run_sample writes nothing there (no copy per record). Records read into the slot's buffer,
 * which the next batch reuses, are copied. */
static void tfrecord_borrow(tfrecord_t *r, dalic_batch_t *out, int i, int k)
{
	const tfrecord_slot_t *s = &r->slots[i];
	const tfrec_span_t *sp = &s->spans[k];
	if (r->feat[k].type != TFREC_STRING || s->rec == s->buf || !sp->present ||
	    sp->kind != TFREC_KIND_BYTES || !sp->count)
		return;
	out->ptrs[i] = (void *)sp->first;
	out->borrowed[i] = true;
}

static int tfrecord_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	tfrecord_t *r = ctx->state;
	DALIC_TRY(tfrecord_prepare(ctx));
	int n = ws->batch_size;
	for (int k = 0; k < r->nfeat; k++) {
		const dalic_tfrec_feature_t *f = &r->feat[k];
		dalic_dtype_t t = f->type == TFREC_INT64   ? DALIC_INT64
		                  : f->type == TFREC_FLOAT32 ? DALIC_FLOAT
		                                             : DALIC_UINT8;
		int ndim = f->type == TFREC_STRING ? 1 : f->fixed ? (f->ndim ? f->ndim : 1) : f->ndim + 1;
		DALIC_TRY(dalic_batch_set_meta(ws->outputs[k], n, t, ndim));
		dalic_batch_set_layout(ws->outputs[k], "");
	}
	dalic_rdcore_next_batch(&r->core, n);
	for (int i = 0; i < n; i++) {
		int32_t e = r->core.selected[i];
		const tfrec_record_t *rec = &r->index.v[e];
		const char *src = dalic_rdcore_source(&r->core, e, "%s at index %lld",
		                                      r->io.files[rec->file].path, (long long)rec->off);
		if (!src)
			return dalic_op_fail(ctx, ws, i, "%s", dalic_last_error());
		for (int k = 0; k < r->nfeat; k++)
			ws->outputs[k]->sources[i] = src;
		DALIC_TRY(tfrecord_fetch(ctx, ws, r, i, rec));
		DALIC_TRY(tfrecord_header(ctx, ws, r, i, rec));
		char err[256];
		if (dalic_tfrec_example_scan(r->slots[i].rec + 12, (size_t)r->slots[i].len, r->nfeat,
		                             r->names, r->slots[i].spans, err, sizeof err)) {
			DALIC_TRY(tfrecord_data_crc(ctx, ws, r, i));
			return dalic_op_fail(ctx, ws, i, "%s (offset %lld of '%s')", err,
			                     (long long)rec->off, r->io.files[rec->file].path);
		}
		for (int k = 0; k < r->nfeat; k++) {
			DALIC_TRY(tfrecord_shape(ctx, ws, r, i, k, dalic_batch_shape_mut(ws->outputs[k], i)));
			tfrecord_borrow(r, ws->outputs[k], i, k);
		}
	}
	return DALIC_OK;
}

static void tfrecord_fill_default(const dalic_tfrec_feature_t *f, void *dst, int64_t elems)
{
	if (f->type == TFREC_STRING) {
		memcpy(dst, f->dflt_str, f->dflt_len);
	} else if (f->type == TFREC_INT64) {
		for (int64_t j = 0; j < elems; j++)
			((int64_t *)dst)[j] = f->dflt_int;
	} else {
		for (int64_t j = 0; j < elems; j++)
			((float *)dst)[j] = f->dflt_float;
	}
}

static int tfrecord_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	tfrecord_t *r = ctx->state;
	DALIC_TRY(tfrecord_verify_once(ctx, ws, r, i));
	for (int k = 0; k < r->nfeat; k++) {
		const dalic_tfrec_feature_t *f = &r->feat[k];
		const tfrec_span_t *sp = &r->slots[i].spans[k];
		void *dst = ws->outputs[k]->ptrs[i];
		if (ws->outputs[k]->borrowed[i]) /* the record's own bytes (tfrecord_borrow) */
			continue;
		bool missing = !sp->present || sp->kind == TFREC_KIND_NONE;
		if (missing || (f->type == TFREC_STRING && !sp->count))
			tfrecord_fill_default(f, dst, dalic_batch_sample_elems(ws->outputs[k], i));
		else if (f->type == TFREC_STRING)
			memcpy(dst, sp->first, sp->first_len);
		else if (f->type == TFREC_INT64)
			dalic_tfrec_copy_int64s(sp, dst);
		else
			dalic_tfrec_copy_floats(sp, dst);
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
	{"path", DALIC_ARG_STRING_LIST, NULL, "TFRecord files."},
	{"index_path", DALIC_ARG_STRING_LIST, NULL,
	 "Index files, one per TFRecord file ('offset size' per record; `dalic tfrecord-index`)."},
	{"feature_names", DALIC_ARG_STRING_LIST, NULL, "Names of the features to extract."},
	{"features", DALIC_ARG_TF_FEATURE_LIST, NULL,
	 "The features, one per name: 'FixedLenFeature([shape], type, default)' or "
	 "'VarLenFeature([partial shape,] type, default)', type int64, string or float32."},
	{"use_o_direct", DALIC_ARG_BOOL, "False",
	 "Read bypassing the page cache (accepted as a hint; needs dont_use_mmap)."},
	DALIC_READER_COMMON_ARGS,
	DALIC_READER_EPOCH_ARGS,
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(tfrecord_t),
	.init = tfrecord_init,
	.setup = tfrecord_setup,
	.run_sample = tfrecord_run_sample,
	.fini = tfrecord_fini,
	.reader_meta = dalic_rdcore_op_meta,
	.reset = dalic_rdcore_op_reset,
	.ckpt_save = dalic_rdcore_op_ckpt_save,
	.ckpt_restore = dalic_rdcore_op_ckpt_restore,
	.skip = dalic_rdcore_op_skip,
};

DALIC_OPERATOR(readers___TFRecord) = {
	.name = "readers___TFRecord",
	.fn = "readers.tfrecord",
	.aliases = {"readers__TFRecord", "_TFRecordReader", "TFRecordReader"},
	.module = "nvidia.dali.fn.readers",
	.doc = "Reads tf.train.Example records from TFRecord files, one output per feature.",
	.min_inputs = 0,
	.max_inputs = 0,
	.num_outputs = 1,
	.outputs_for = tfrecord_outputs_for,
	.devices = DALIC_DEV_CPU,
	.random = true,
	.is_reader = true,
	.args = args,
	.cpu = &kernel,
};
