/*
 * readers.numpy (DALI's readers__Numpy / NumpyReader): one .npy array per file, listed from
 * `file_root` (its own files, then those of its immediate subdirectories, matching
 * `file_filter`), a `file_list` (a path per line) or `files`; the order of samples is DALI's
 * FileLoader (the reader core: whole-list shuffle, per-epoch reshuffle).
 *
 * The output is the array as numpy shows it: Fortran-order files are transposed to C order.
 * A region of interest (roi_start / rel_roi_start with roi_end / rel_roi_end / roi_shape /
 * rel_roi_shape, over `roi_axes` or every dim; constants or per-sample argument inputs) is
 * computed on that shape with slice's arithmetic; out_of_bounds_policy 'error', 'pad' (with
 * fill_value converted as DALI's ConvertSat) or 'trim_to_shape'. Every sample of a batch
 * must have the same dtype and number of dims (DALI's rule).
 *
 * Setup reads each header (kept with the file open for the run); the run reads the data:
 * straight into the output when the whole C-order array is wanted, else through the mapped
 * file (or a copy read with pread for dont_use_mmap) and a strided window copy. Version 2.0
 * and 3.0 headers are read too (DALI 2.4 refuses them); big-endian data is refused as DALI.
 */
#include "engine/checked.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "kernels/common/img_files.h"
#include "kernels/common/npy_header.h"
#include "kernels/common/reader_core.h"
#include "kernels/common/reader_io.h"
#include "kernels/common/sat_cast.h"
#include "kernels/common/slice_attr.h"
#include "kernels/common/strided_copy.h"
#include "kernels/common/thread_scratch.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct numpy_slot {
	int fd;                         /* open from setup to the run, -1 otherwise */
	int64_t file_size;
	npy_header_t h;
	int64_t shape[DALIC_MAX_NDIM]; /* the array's (C-order) shape */
	img_window_t roi;
	bool window; /* a window other than the whole array */
} numpy_slot_t;

typedef struct numpy_reader {
	dalic_rdcore_t core;
	img_file_list_t files;
	slice_attr_t roi;
	slice_oob_t oob;
	float fill;
	bool cache_headers;
	npy_header_t *headers; /* cache_header_information: per entry, valid when known[e] */
	bool *known;
	numpy_slot_t *slots;
	dalic_thread_scratch_t scratch;
} numpy_reader_t;
_Static_assert(offsetof(numpy_reader_t, core) == 0, "the state starts with the reader core");

/* FileLoader: the list shuffled whole once for random_shuffle, reshuffled every epoch. */
static const rdcore_kind_t numpy_kind = {.list_shuffle = true, .epoch = RDCORE_EPOCH_LIST};

static const slice_attr_names_t numpy_roi_names = {
    "roi_start", "rel_roi_start", "roi_end", "rel_roi_end", "roi_shape", "rel_roi_shape",
    "roi_axes",  NULL};

static int numpy_list_files(dalic_op_ctx_t *ctx, numpy_reader_t *r)
{
	const char *root = dalic_arg_string(ctx, "file_root");
	const char *list = dalic_arg_string(ctx, "file_list");
	const dalic_value_t *files = dalic_arg(ctx, "files");
	bool has_files = files->kind != DALIC_V_NONE;
	if (!root && !has_files && !list)
		return dalic_op_fail(ctx, NULL, -1, "``file_root`` argument is required when not "
		                                    "using ``files`` or ``file_list``.");
	if (has_files && list)
		return dalic_op_fail(ctx, NULL, -1, "File paths can be provided through ``files`` "
		                                    "or ``file_list`` but not both.");
	char err[1024] = "";
	int rc = 0;
	if (has_files) {
		if (files->n == 0)
			return dalic_op_fail(ctx, NULL, -1, "``files`` specified an empty list.");
		for (int i = 0; i < files->n && !rc; i++)
			rc = dalic_img_file_list_add(&r->files, root, files->s[i], 0);
		if (rc)
			snprintf(err, sizeof err, "%s", dalic_last_error());
	} else if (list) {
		if (!*list)
			return dalic_op_fail(ctx, NULL, -1, "``file_list`` argument cannot be empty");
		char *dir = NULL;
		const char *slash = strrchr(list, '/');
		if (!root && slash && !(dir = strndup(list, (size_t)(slash - list))))
			return dalic_op_fail(ctx, NULL, -1, "out of memory");
		rc = dalic_img_file_list_parse_names(&r->files, list, root ? root : dir, err,
		                                     sizeof err);
		free(dir);
	} else {
		const char *filter = dalic_arg_string(ctx, "file_filter");
		rc = dalic_img_file_list_scan_flat(&r->files, root, filter ? filter : "*.npy", err,
		                                   sizeof err);
	}
	return rc ? dalic_op_fail(ctx, NULL, -1, "%s", err) : DALIC_OK;
}

static int numpy_prepare(dalic_op_ctx_t *ctx)
{
	numpy_reader_t *r = ctx->state;
	if (r->core.ready)
		return DALIC_OK;
	DALIC_TRY(numpy_list_files(ctx, r));
	if (r->files.n == 0)
		return dalic_op_fail(ctx, NULL, -1, "No files found.");
	if (r->cache_headers) {
		r->headers = calloc((size_t)r->files.n, sizeof *r->headers);
		r->known = calloc((size_t)r->files.n, sizeof *r->known);
		if (!r->headers || !r->known)
			return dalic_op_fail(ctx, NULL, -1, "out of memory for %d headers",
			                     r->files.n);
	}
	return dalic_rdcore_set_size(&r->core, ctx, r->files.n);
}

static void numpy_close_slots(numpy_reader_t *r, int n)
{
	for (int i = 0; r->slots && i < n; i++)
		if (r->slots[i].fd >= 0) {
			close(r->slots[i].fd);
			r->slots[i].fd = -1;
		}
}

static void numpy_fini(dalic_op_ctx_t *ctx)
{
	numpy_reader_t *r = ctx->state;
	numpy_close_slots(r, ctx->max_batch_size);
	free(r->slots);
	free(r->headers);
	free(r->known);
	dalic_thread_scratch_free(&r->scratch);
	dalic_img_file_list_free(&r->files);
	dalic_rdcore_fini(&r->core);
}

static int numpy_init_state(dalic_op_ctx_t *ctx)
{
	numpy_reader_t *r = ctx->state;
	DALIC_TRY(dalic_rdcore_init(&r->core, ctx, &numpy_kind));
	r->core.prepare = numpy_prepare;
	if (dalic_arg_bool(ctx, "use_o_direct") && !r->core.no_mmap)
		return dalic_op_fail(ctx, NULL, -1,
		                     "Cannot use use_o_direct with ``dont_use_mmap=False``.");
	DALIC_TRY(dalic_slice_attr_init_named(ctx, &r->roi, &numpy_roi_names));
	DALIC_TRY(dalic_slice_oob_parse_basic(ctx, &r->oob));
	r->fill = r->oob == SLICE_OOB_PAD ? (float)dalic_arg_float(ctx, "fill_value") : 0.0f;
	r->cache_headers = dalic_arg_bool(ctx, "cache_header_information");
	r->slots = calloc((size_t)ctx->max_batch_size, sizeof *r->slots);
	if (!r->slots)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	for (int i = 0; i < ctx->max_batch_size; i++)
		r->slots[i].fd = -1;
	DALIC_TRY(dalic_thread_scratch_init(ctx, &r->scratch));
	return r->core.lazy ? DALIC_OK : numpy_prepare(ctx);
}

static int numpy_init(dalic_op_ctx_t *ctx)
{
	int rc = numpy_init_state(ctx);
	if (rc)
		numpy_fini(ctx);
	return rc;
}

/* The header of entry e (from `mem`, the read_ahead copy, or the open file). */
static int numpy_header(numpy_reader_t *r, const img_file_entry_t *e, numpy_slot_t *s,
                        const uint8_t *mem, char *err, size_t errn)
{
	int32_t ent = (int32_t)(e - r->files.v);
	if (r->cache_headers && r->known[ent]) {
		s->h = r->headers[ent];
		return 0;
	}
	uint8_t pre[256];
	int64_t got = s->file_size < (int64_t)sizeof pre ? s->file_size : (int64_t)sizeof pre;
	if (mem)
		memcpy(pre, mem, (size_t)got);
	else if (dalic_rdio_pread(s->fd, e->full, 0, got, pre, err, errn))
		return -1;
	int64_t size;
	if (dalic_npy_header_size(pre, (size_t)got, &size, err, errn))
		return -1;
	if (size > s->file_size) {
		snprintf(err, errn, "Can not read header.");
		return -1;
	}
	const uint8_t *hdr = pre;
	uint8_t *big = NULL;
	if (size > got && mem) {
		hdr = mem;
	} else if (size > got) {
		if (!(big = malloc((size_t)size))) {
			snprintf(err, errn, "out of memory for a header of %lld bytes", (long long)size);
			return -1;
		}
		if (dalic_rdio_pread(s->fd, e->full, 0, size, big, err, errn)) {
			free(big);
			return -1;
		}
		hdr = big;
	}
	int rc = dalic_npy_header_parse(hdr, size, &s->h, err, errn);
	free(big);
	if (!rc && r->cache_headers) {
		r->headers[ent] = s->h;
		r->known[ent] = true;
	}
	return rc;
}

/* Opens sample i's file (or keeps it for read_ahead) and reads its header. */
static int numpy_open(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, numpy_reader_t *r, int i,
                      img_file_entry_t *e)
{
	numpy_slot_t *s = &r->slots[i];
	char err[512];
	if (!e->cache) {
		s->fd = open(e->full, O_RDONLY | O_CLOEXEC);
		struct stat st;
		if (s->fd < 0 || fstat(s->fd, &st) != 0)
			return dalic_op_fail(ctx, ws, i, "cannot open '%s': %s", e->full,
			                     strerror(errno));
		s->file_size = st.st_size;
		if (r->core.read_ahead) {
			e->size = st.st_size;
			if (dalic_rdio_keep(e->full, e->size, !r->core.no_mmap, &e->cache,
			                    &e->cache_mapped, err, sizeof err))
				return dalic_op_fail(ctx, ws, i, "%s", err);
		}
	}
	if (e->cache) {
		s->file_size = e->size;
		if (s->fd >= 0)
			close(s->fd);
		s->fd = -1;
	}
	if (numpy_header(r, e, s, e->cache, err, sizeof err))
		return dalic_op_fail(ctx, ws, i, "%s. File: %s", err, e->path);
	int64_t end;
	if (!dalic_ck_add_i64(s->h.data_offset, s->h.nbytes, &end) || end > s->file_size)
		return dalic_op_fail(ctx, ws, i,
		                     "Failed to read file: %s: the header declares %lld bytes of data "
		                     "after %lld bytes of header; the file has %lld bytes",
		                     e->full, (long long)s->h.nbytes, (long long)s->h.data_offset,
		                     (long long)s->file_size);
	int nd = s->h.ndim;
	for (int d = 0; d < nd; d++)
		s->shape[d] = s->h.shape[d];
	return DALIC_OK;
}

/* The window of sample i on its array shape; sets the output's shape. */
static int numpy_window(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, numpy_reader_t *r, int i,
                        int64_t *out_shape)
{
	numpy_slot_t *s = &r->slots[i];
	int nd = s->h.ndim;
	for (int d = 0; d < nd; d++) {
		s->roi.anchor[d] = 0;
		s->roi.shape[d] = s->shape[d];
	}
	s->window = false;
	if (r->roi.named) {
		DALIC_TRY(dalic_slice_attr_window(ctx, ws, &r->roi, i, "", nd, s->shape, &s->roi));
		DALIC_TRY(dalic_slice_oob_apply(ctx, ws, i, r->oob, nd, s->shape, &s->roi));
		for (int d = 0; d < nd; d++)
			s->window |= s->roi.anchor[d] != 0 || s->roi.shape[d] != s->shape[d];
	}
	for (int d = 0; d < nd; d++)
		out_shape[d] = s->roi.shape[d];
	return DALIC_OK;
}

static int numpy_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	numpy_reader_t *r = ctx->state;
	DALIC_TRY(numpy_prepare(ctx));
	dalic_batch_t *out = ws->outputs[0];
	int n = ws->batch_size;
	numpy_close_slots(r, ctx->max_batch_size); /* a run that failed may have left some */
	dalic_rdcore_next_batch(&r->core, n);
	/* the dtype and dims come from the headers; the sources name the files before that */
	DALIC_TRY(dalic_batch_set_meta(out, n, DALIC_UINT8, 0));
	for (int i = 0; i < n; i++) {
		img_file_entry_t *e = &r->files.v[r->core.selected[i]];
		out->sources[i] = e->path;
		DALIC_TRY(numpy_open(ctx, ws, r, i, e));
		const numpy_slot_t *s0 = &r->slots[0], *s = &r->slots[i];
		const img_file_entry_t *e0 = &r->files.v[r->core.selected[0]];
		if (s->h.ndim != s0->h.ndim)
			return dalic_op_fail(ctx, ws, i,
			                     "Inconsistent data: All samples in the batch must have the "
			                     "same number of dimensions. Got \"%s\" with %d dimensions "
			                     "and \"%s\" with %d dimensions",
			                     e0->full, s0->h.ndim, e->full, s->h.ndim);
		if (s->h.dtype != s0->h.dtype)
			return dalic_op_fail(ctx, ws, i,
			                     "Inconsistent data: All samples in the batch must have the "
			                     "same data type. Got \"%s\" with data type %s and \"%s\" "
			                     "with data type %s",
			                     e0->full, dalic_dtype_cname(s0->h.dtype), e->full,
			                     dalic_dtype_cname(s->h.dtype));
	}
	DALIC_TRY(dalic_batch_set_meta(out, n, r->slots[0].h.dtype, r->slots[0].h.ndim));
	dalic_batch_set_layout(out, "");
	for (int i = 0; i < n; i++) {
		out->sources[i] = r->files.v[r->core.selected[i]].path;
		DALIC_TRY(numpy_window(ctx, ws, r, i, dalic_batch_shape_mut(out, i)));
	}
	return DALIC_OK;
}

/* The data of slot s held in memory: the read_ahead copy, a mapping (*map, *map_len) or a
 * copy in the thread's scratch. NULL after dalic_op_fail (status in *rc). */
static const uint8_t *numpy_data(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, numpy_reader_t *r,
                                 int i, int thread, void **map, size_t *map_len, int *rc)
{
	static const uint8_t none[8];
	numpy_slot_t *s = &r->slots[i];
	const img_file_entry_t *e = &r->files.v[r->core.selected[i]];
	if (s->h.nbytes == 0)
		return none; /* an empty array: the window is all fill */
	if (e->cache)
		return e->cache + s->h.data_offset;
	if (!r->core.no_mmap) {
		*map_len = (size_t)(s->h.data_offset + s->h.nbytes);
		*map = mmap(NULL, *map_len, PROT_READ, MAP_PRIVATE, s->fd, 0);
		if (*map != MAP_FAILED)
			return (const uint8_t *)*map + s->h.data_offset;
		*map = NULL;
		*rc = dalic_op_fail(ctx, ws, i, "cannot map '%s': %s", e->full, strerror(errno));
		return NULL;
	}
	uint8_t *buf = dalic_thread_scratch_get(ctx, ws, i, &r->scratch, thread,
	                                        (size_t)s->h.nbytes, rc);
	char err[512];
	if (buf && dalic_rdio_pread(s->fd, e->full, s->h.data_offset, s->h.nbytes, buf, err,
	                            sizeof err)) {
		*rc = dalic_op_fail(ctx, ws, i, "%s", err);
		return NULL;
	}
	return buf;
}

/* Window (and Fortran order) copy of slot i into the output. */
static int numpy_copy_window(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, numpy_reader_t *r, int i,
                             int thread, void *dst)
{
	numpy_slot_t *s = &r->slots[i];
	int nd = s->h.ndim;
	int64_t strides[DALIC_MAX_NDIM], v = 1;
	for (int k = 0; k < nd; k++) {
		int d = s->h.fortran ? k : nd - 1 - k; /* fastest-varying first */
		strides[d] = v;
		v *= s->shape[d];
	}
	uint64_t fill = 0;
	dalic_sat_store(s->h.dtype, &fill, 0, r->fill);
	int rc = DALIC_OK;
	void *map = NULL;
	size_t map_len = 0;
	const uint8_t *src = numpy_data(ctx, ws, r, i, thread, &map, &map_len, &rc);
	if (!src)
		return rc;
	strided_copy_t sc = {.ndim = nd,
	                     .esize = dalic_dtype_size(s->h.dtype),
	                     .in_shape = s->shape,
	                     .strides = strides,
	                     .anchor = s->roi.anchor,
	                     .out_shape = s->roi.shape,
	                     .fill = &fill};
	dalic_strided_copy(&sc, src, dst);
	if (map)
		munmap(map, map_len);
	return DALIC_OK;
}

static int numpy_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	numpy_reader_t *r = ctx->state;
	numpy_slot_t *s = &r->slots[i];
	const img_file_entry_t *e = &r->files.v[r->core.selected[i]];
	uint8_t *dst = ws->outputs[0]->ptrs[i];
	int rc = DALIC_OK;
	if (s->window || (s->h.fortran && s->h.ndim > 1)) {
		rc = numpy_copy_window(ctx, ws, r, i, thread, dst);
	} else if (e->cache) {
		memcpy(dst, e->cache + s->h.data_offset, (size_t)s->h.nbytes);
	} else {
		char err[512];
		if (dalic_rdio_pread(s->fd, e->full, s->h.data_offset, s->h.nbytes, dst, err,
		                     sizeof err))
			rc = dalic_op_fail(ctx, ws, i, "%s", err);
	}
	if (s->fd >= 0) {
		close(s->fd);
		s->fd = -1;
	}
	return rc;
}

static int numpy_reset(dalic_op_ctx_t *ctx)
{
	numpy_reader_t *r = ctx->state;
	numpy_close_slots(r, ctx->max_batch_size);
	dalic_rdcore_restart(&r->core);
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
	{"file_root", DALIC_ARG_STRING, "None",
	 "Directory whose files (and those of its subdirectories) matching file_filter are read."},
	{"file_filter", DALIC_ARG_STRING, "'*.npy'", "Glob pattern selecting files under file_root."},
	{"file_list", DALIC_ARG_STRING, "None",
	 "Text file with a path per line, relative to its directory or to file_root."},
	{"files", DALIC_ARG_STRING_LIST, "None", "File paths (relative to file_root if given)."},
	{"cache_header_information", DALIC_ARG_BOOL, "False",
	 "Parse each file's header once and keep it."},
	{"roi_start", DALIC_ARG_INT_LIST, "None", "Start of the region of interest.", .tensor = true},
	{"rel_roi_start", DALIC_ARG_FLOAT_LIST, "None",
	 "Start of the region of interest, as fractions of the extents.", .tensor = true},
	{"roi_end", DALIC_ARG_INT_LIST, "None", "End of the region of interest (exclusive).",
	 .tensor = true},
	{"rel_roi_end", DALIC_ARG_FLOAT_LIST, "None",
	 "End of the region of interest, as fractions of the extents.", .tensor = true},
	{"roi_shape", DALIC_ARG_INT_LIST, "None", "Shape of the region of interest.",
	 .tensor = true},
	{"rel_roi_shape", DALIC_ARG_FLOAT_LIST, "None",
	 "Shape of the region of interest, as fractions of the extents.", .tensor = true},
	{"roi_axes", DALIC_ARG_INT_LIST, "[]",
	 "Dims the ROI values refer to; empty: every dim in order."},
	{"out_of_bounds_policy", DALIC_ARG_STRING, "'error'",
	 "A ROI reaching outside the array: 'error', 'pad' (fill_value) or 'trim_to_shape'."},
	{"fill_value", DALIC_ARG_FLOAT, "0.0", "Value of padded elements."},
	{"use_o_direct", DALIC_ARG_BOOL, "False",
	 "Read bypassing the page cache (accepted as a hint; needs dont_use_mmap)."},
	{"register_buffers", DALIC_ARG_BOOL, "True", "GPU only in DALI (accepted)."},
	DALIC_READER_COMMON_ARGS,
	DALIC_READER_EPOCH_ARGS,
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(numpy_reader_t),
	.init = numpy_init,
	.setup = numpy_setup,
	.run_sample = numpy_run_sample,
	.fini = numpy_fini,
	.reader_meta = dalic_rdcore_op_meta,
	.reset = numpy_reset,
	.ckpt_save = dalic_rdcore_op_ckpt_save,
	.ckpt_restore = dalic_rdcore_op_ckpt_restore,
	.skip = dalic_rdcore_op_skip,
};

DALIC_OPERATOR(readers__Numpy) = {
	.name = "readers__Numpy",
	.fn = "readers.numpy",
	.aliases = {"NumpyReader"},
	.module = "nvidia.dali.fn.readers",
	.doc = "Reads NumPy .npy arrays from a directory, a file list or a list of files, with an "
	       "optional region of interest.",
	.min_inputs = 0,
	.max_inputs = 0,
	.num_outputs = 1,
	.devices = DALIC_DEV_CPU,
	.random = true,
	.is_reader = true,
	.args = args,
	.cpu = &kernel,
};
