/*
 * readers.file (DALI's readers__File / FileReader): reads files named by a directory tree
 * (labels from sorted subdirectories), a `file_list` or `files`/`labels`, and returns their
 * bytes (1-D uint8) and labels (int32, shape [1]).
 *
 * The order of samples is DALI's Loader exactly (the reader core, reader_core.h): the list
 * is shuffled once with mt19937(524287) for random_shuffle and reshuffled whole every epoch
 * for shuffle_after_epoch (FileLabelLoader's behaviour).
 *
 * Choosing the files is sequential and happens in setup (sizes are the output shapes); reading
 * their bytes happens per sample, in parallel. Each sample's source is the entry's relative
 * path, owned by this operator's state, so errors downstream can name the file.
 */
#include "engine/error.h"
#include "engine/kernel.h"
#include "kernels/common/img_files.h"
#include "kernels/common/reader_core.h"
#include "kernels/common/reader_io.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct reader {
	dalic_rdcore_t core;
	img_file_list_t files;
} reader_t;
_Static_assert(offsetof(reader_t, core) == 0, "the state starts with the reader core");

/* readers.file's loader (FileLabelLoader): a list of files, shuffled whole once for
 * random_shuffle, reshuffled whole every epoch for shuffle_after_epoch. */
static const rdcore_kind_t reader_kind = {.list_shuffle = true, .epoch = RDCORE_EPOCH_LIST};

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

/* DALI's PrepareMetadata: list, check, then the core shuffles and positions. */
static int reader_prepare(dalic_op_ctx_t *ctx)
{
	reader_t *r = ctx->state;
	if (r->core.ready)
		return DALIC_OK;
	char err[1024] = "";
	DALIC_TRY(reader_list_files(ctx, r, err, sizeof err));
	if (r->files.n == 0)
		return dalic_op_fail(ctx, NULL, -1, "No files found.");
	return dalic_rdcore_set_size(&r->core, ctx, r->files.n);
}

static void reader_fini(dalic_op_ctx_t *ctx);

static int reader_init_state(dalic_op_ctx_t *ctx)
{
	reader_t *r = ctx->state;
	DALIC_TRY(dalic_rdcore_init(&r->core, ctx, &reader_kind));
	r->core.prepare = reader_prepare;
	return r->core.lazy ? DALIC_OK : reader_prepare(ctx);
}

/* The engine calls fini only after a successful init: a failing init cleans up itself. */
static int reader_init(dalic_op_ctx_t *ctx)
{
	int rc = reader_init_state(ctx);
	if (rc)
		reader_fini(ctx);
	return rc;
}

static int reader_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	reader_t *r = ctx->state;
	DALIC_TRY(reader_prepare(ctx));
	dalic_batch_t *data = ws->outputs[0], *label = ws->outputs[1];
	int n = ws->batch_size;
	DALIC_TRY(dalic_batch_set_meta(data, n, DALIC_UINT8, 1));
	DALIC_TRY(dalic_batch_set_meta(label, n, DALIC_INT32, 1));
	dalic_batch_set_layout(data, "");
	dalic_batch_set_layout(label, "");
	dalic_rdcore_next_batch(&r->core, n);
	for (int i = 0; i < n; i++) {
		img_file_entry_t *e = &r->files.v[r->core.selected[i]];
		data->sources[i] = label->sources[i] = e->path;
		char err[512];
		if (dalic_rdio_entry_size(e, r->core.read_ahead, !r->core.no_mmap, err, sizeof err))
			return dalic_op_fail(ctx, ws, i, "%s", err);
		dalic_batch_shape_mut(data, i)[0] = e->size;
		dalic_batch_shape_mut(label, i)[0] = 1;
	}
	return DALIC_OK;
}

static int reader_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	reader_t *r = ctx->state;
	const img_file_entry_t *e = &r->files.v[r->core.selected[i]];
	uint8_t *dst = ws->outputs[0]->ptrs[i];
	*(int32_t *)ws->outputs[1]->ptrs[i] = e->label;
	char err[512];
	if (dalic_rdio_entry_read(e, !r->core.no_mmap, dst, err, sizeof err))
		return dalic_op_fail(ctx, ws, i, "%s", err);
	return DALIC_OK;
}

static void reader_fini(dalic_op_ctx_t *ctx)
{
	reader_t *r = ctx->state;
	dalic_img_file_list_free(&r->files);
	dalic_rdcore_fini(&r->core);
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
	DALIC_READER_COMMON_ARGS,
	DALIC_READER_EPOCH_ARGS,
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(reader_t),
	.init = reader_init,
	.setup = reader_setup,
	.run_sample = reader_run_sample,
	.fini = reader_fini,
	.reader_meta = dalic_rdcore_op_meta,
	.reset = dalic_rdcore_op_reset,
	.ckpt_save = dalic_rdcore_op_ckpt_save,
	.ckpt_restore = dalic_rdcore_op_ckpt_restore,
	.skip = dalic_rdcore_op_skip,
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
