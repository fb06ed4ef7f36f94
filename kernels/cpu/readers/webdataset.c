/*
 * readers.webdataset (DALI's readers__Webdataset): samples of tar archives, one output per
 * entry of `ext` ("jpg;jpeg" lists alternatives), each the bytes of the sample's component
 * with that extension viewed as its `dtypes` entry (uint8 by default). Samples come from
 * DALI index files (`index_paths`) or from the archives themselves (wds_index.h); each
 * component fills the outputs its extension selects (case-insensitively unless
 * case_sensitive_extensions), the first one found wins an output. A sample with fewer
 * matched components than outputs is kept with empty outputs (missing_component_behavior ""
 * or "empty"), dropped ("skip") or an error ("error") - DALI counts matched components, not
 * filled outputs, and dalic does the same. Sources: "<archive>:<offset>:<file>", per output.
 * Entries are samples in archive order; shuffle_after_epoch reshuffles the archives' order.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/graphdef.h"
#include "engine/kernel.h"
#include "engine/memory.h"
#include "kernels/common/reader_core.h"
#include "kernels/common/reader_io.h"
#include "kernels/common/wds_index.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { WDS_EMPTY, WDS_SKIP, WDS_RAISE };

typedef struct wds_part {
	int64_t offset, size;
	int32_t file;
	char *name;
} wds_part_t;

typedef struct webdataset {
	dalic_rdcore_t core;
	dalic_rdio_t io;
	int nout, missing;
	bool case_sensitive;
	char ***exts; /* per output: NULL-terminated extension alternatives */
	dalic_dtype_t *dtypes;
	wds_part_t *parts; /* every component of every archive */
	int nparts;
	char **part_src;
	int32_t *entry_part; /* per entry, per output: a part or -1 (empty) */
	int32_t *entry_file;
	size_t charged;
} webdataset_t;
_Static_assert(offsetof(webdataset_t, core) == 0, "the state starts with the reader core");

static const rdcore_kind_t webdataset_kind = {.epoch = RDCORE_EPOCH_FILES};

static int webdataset_outputs_for(const dalic_opdef_t *def)
{
	const dalic_value_t *v = dalic_graphdef_op_arg(def, "ext");
	return v && v->kind != DALIC_V_NONE && v->n > 0 ? v->n : 1;
}

static void webdataset_lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

/* `ext` entries split at ';', lowered unless case-sensitive, duplicates dropped. */
static int webdataset_parse_exts(dalic_op_ctx_t *ctx, webdataset_t *w)
{
	const dalic_value_t *ext = dalic_arg(ctx, "ext");
	w->nout = ext->n;
	w->exts = calloc((size_t)w->nout, sizeof *w->exts);
	if (!w->exts)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	for (int o = 0; o < w->nout; o++) {
		size_t len = strlen(ext->s[o]);
		char **set = calloc(len + 2, sizeof *set);
		if (!(w->exts[o] = set))
			return dalic_op_fail(ctx, NULL, -1, "out of memory");
		int k = 0;
		for (const char *p = ext->s[o];; p++) {
			const char *e = strchr(p, ';');
			size_t l = e ? (size_t)(e - p) : strlen(p);
			char *one = strndup(p, l);
			if (!one)
				return dalic_op_fail(ctx, NULL, -1, "out of memory");
			if (!w->case_sensitive)
				webdataset_lower(one);
			bool dup = false;
			for (int j = 0; j < k && !dup; j++)
				dup = !strcmp(set[j], one);
			if (dup || (!e && !l)) /* std::getline yields no trailing empty item */
				free(one);
			else
				set[k++] = one;
			if (!e)
				break;
			p = e;
		}
	}
	return DALIC_OK;
}

static int webdataset_parse_args(dalic_op_ctx_t *ctx, webdataset_t *w)
{
	const dalic_value_t *paths = dalic_arg(ctx, "paths"), *idx = dalic_arg(ctx, "index_paths");
	int nidx = idx->kind == DALIC_V_NONE ? 0 : idx->n;
	if (nidx && nidx != paths->n)
		return dalic_op_fail(ctx, NULL, -1,
		                     "The number of index files, if any, must match the number of "
		                     "archives in the dataset");
	if (paths->n == 0)
		return dalic_op_fail(ctx, NULL, -1, "No webdataset archives provided");
	const char *mcb = dalic_arg_string(ctx, "missing_component_behavior");
	char lower[16] = "";
	snprintf(lower, sizeof lower, "%s", mcb ? mcb : "");
	webdataset_lower(lower);
	if (!*lower || !strcmp(lower, "empty"))
		w->missing = WDS_EMPTY;
	else if (!strcmp(lower, "skip"))
		w->missing = WDS_SKIP;
	else if (!strcmp(lower, "error"))
		w->missing = WDS_RAISE;
	else
		return dalic_op_fail(ctx, NULL, -1,
		                     "Invalid value for missing_component_behavior '%s' possible "
		                     "values are: skip, error, empty",
		                     mcb);
	w->case_sensitive = dalic_arg_bool(ctx, "case_sensitive_extensions");
	DALIC_TRY(webdataset_parse_exts(ctx, w));
	const dalic_value_t *dt = dalic_arg(ctx, "dtypes");
	w->dtypes = calloc((size_t)w->nout + 1, sizeof *w->dtypes);
	if (!w->dtypes)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	int ndt = dt->kind == DALIC_V_NONE ? w->nout : dt->n;
	for (int o = 0; o < ndt; o++) {
		dalic_dtype_t t = dt->kind == DALIC_V_NONE ? DALIC_UINT8 : (dalic_dtype_t)dt->i[o];
		bool ok = (t >= DALIC_UINT8 && t <= DALIC_INT64) || t == DALIC_FLOAT16 ||
		          t == DALIC_FLOAT || t == DALIC_FLOAT64;
		if (!ok)
			return dalic_op_fail(ctx, NULL, -1,
			                     "Unsupported output dtype %s. Supported types are: uint8, "
			                     "uint16, uint32, uint64, int8, int16, int32, int64, float16, "
			                     "float, double",
			                     dalic_dtype_name(t));
		if (o < w->nout)
			w->dtypes[o] = t;
	}
	if (ndt != w->nout)
		return dalic_op_fail(ctx, NULL, -1,
		                     "Number of extensions does not match the number of provided types");
	return DALIC_OK;
}

/* The outputs a component's extension selects, into outs; returns how many. */
static int webdataset_outputs_of(const webdataset_t *w, const char *ext, int *outs)
{
	char lower[256];
	if (!w->case_sensitive) {
		snprintf(lower, sizeof lower, "%s", ext);
		webdataset_lower(lower);
		ext = lower;
	}
	int k = 0;
	for (int o = 0; o < w->nout; o++)
		for (char **e = w->exts[o]; *e; e++)
			if (!strcmp(*e, ext)) {
				outs[k++] = o;
				break;
			}
	return k;
}

/* Matches the raw samples of archive f to the outputs (DALI's PrepareMetadataImpl). */
static int webdataset_match(dalic_op_ctx_t *ctx, webdataset_t *w, int f, wds_raw_set_t *raw,
                            const char *idx_path, int64_t *nentries, size_t *cap)
{
	const char *path = w->io.files[f].path;
	int base = w->nparts;
	wds_part_t *parts = realloc(w->parts, sizeof *parts * (size_t)(w->nparts + raw->nc + 1));
	int *outs = malloc(sizeof(int) * (size_t)w->nout);
	bool *set = malloc((size_t)w->nout);
	if (!parts || !outs || !set) {
		if (parts)
			w->parts = parts;
		free(outs);
		free(set);
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	}
	w->parts = parts;
	for (int c = 0; c < raw->nc; c++) {
		parts[base + c] = (wds_part_t){raw->c[c].offset, (int64_t)raw->c[c].size, f,
		                               raw->c[c].name};
		raw->c[c].name = NULL; /* moved */
	}
	w->nparts += raw->nc;
	int rc = DALIC_OK;
	for (int s = 0; s < raw->ns && !rc; s++) {
		const wds_raw_t *r = &raw->s[s];
		char where[600];
		if (idx_path)
			snprintf(where, sizeof where, "index file at \"%s\" line %lld", idx_path,
			         (long long)r->line);
		else
			snprintf(where, sizeof where, "tar file at \"%s\"", path);
		if ((size_t)*nentries == *cap) {
			*cap = *cap ? *cap * 2 : 256;
			int32_t *ep = realloc(w->entry_part, sizeof *ep * *cap * (size_t)w->nout);
			int32_t *ef = ep ? realloc(w->entry_file, sizeof *ef * *cap) : NULL;
			if (ep)
				w->entry_part = ep;
			if (ef)
				w->entry_file = ef;
			if (!ep || !ef) {
				rc = dalic_op_fail(ctx, NULL, -1, "out of memory");
				break;
			}
		}
		int32_t *slot = w->entry_part + *nentries * w->nout;
		memset(set, 0, (size_t)w->nout);
		int matched = 0;
		for (int o = 0; o < w->nout; o++)
			slot[o] = -1;
		for (int c = r->first; c < r->first + r->n && !rc; c++) {
			int k = webdataset_outputs_of(w, raw->c[c].ext, outs), got = 0;
			for (int j = 0; j < k; j++) {
				int o = outs[j];
				if (set[o])
					continue; /* DALI warns: the first component wins */
				if (raw->c[c].size % (int64_t)dalic_dtype_size(w->dtypes[o])) {
					rc = dalic_op_fail(ctx, NULL, -1,
					                   "Error in index file at %s - component size and "
					                   "dtype incompatible (%lld bytes of %s)",
					                   where, (long long)raw->c[c].size,
					                   dalic_dtype_name(w->dtypes[o]));
					break;
				}
				slot[o] = base + c;
				set[o] = true;
				got++;
			}
			matched += got > 0;
		}
		if (rc)
			break;
		if (matched < w->nout && w->missing == WDS_RAISE)
			rc = dalic_op_fail(ctx, NULL, -1, "Underful sample detected at %s", where);
		else if (matched < w->nout && w->missing == WDS_SKIP)
			continue;
		w->entry_file[*nentries] = f;
		(*nentries)++;
	}
	free(outs);
	free(set);
	return rc;
}

/* The raw samples of archive f: from its index file or by walking the tar. */
static int webdataset_read_archive(dalic_op_ctx_t *ctx, webdataset_t *w, int f,
                                   const char *idx_path, wds_raw_set_t *raw)
{
	char err[1024];
	const char *path = w->io.files[f].path;
	if (idx_path) {
		if (dalic_wds_index_parse(raw, idx_path, err, sizeof err))
			return dalic_op_fail(ctx, NULL, -1, "%s", err);
		return DALIC_OK;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st)) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return dalic_op_fail(ctx, NULL, -1, "cannot open '%s': %s", path, strerror(e));
	}
	int rc = dalic_wds_tar_samples(raw, fd, st.st_size, path, err, sizeof err);
	close(fd);
	return rc ? dalic_op_fail(ctx, NULL, -1, "%s", err) : DALIC_OK;
}

static int webdataset_prepare(dalic_op_ctx_t *ctx)
{
	webdataset_t *w = ctx->state;
	if (w->core.ready)
		return DALIC_OK;
	const dalic_value_t *paths = dalic_arg(ctx, "paths"), *idx = dalic_arg(ctx, "index_paths");
	bool with_index = idx->kind != DALIC_V_NONE && idx->n > 0;
	int64_t n = 0;
	size_t cap = 0;
	int64_t *first = malloc(sizeof(int64_t) * ((size_t)paths->n + 1));
	if (!first)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	int rc = DALIC_OK;
	for (int f = 0; f < paths->n && !rc; f++) {
		char err[512];
		if (dalic_rdio_add(&w->io, paths->s[f], err, sizeof err) < 0) {
			rc = dalic_op_fail(ctx, NULL, -1, "%s", err);
			break;
		}
		first[f] = n;
		wds_raw_set_t raw = {0};
		const char *ip = with_index ? idx->s[f] : NULL;
		rc = webdataset_read_archive(ctx, w, f, ip, &raw);
		if (!rc)
			rc = webdataset_match(ctx, w, f, &raw, ip, &n, &cap);
		dalic_wds_raw_free(&raw);
	}
	first[paths->n] = n;
	if (!rc && n > INT32_MAX)
		rc = dalic_op_fail(ctx, NULL, -1, "too many samples");
	if (!rc)
		rc = dalic_rdcore_set_files(&w->core, ctx, paths->n, first);
	free(first);
	if (!rc && !(w->part_src = calloc((size_t)w->nparts + 1, sizeof *w->part_src)))
		rc = dalic_op_fail(ctx, NULL, -1, "out of memory");
	return rc ? rc : dalic_rdcore_set_size(&w->core, ctx, n);
}

static void webdataset_hint(void *user, int32_t e)
{
	webdataset_t *w = user;
	char err[256];
	for (int o = 0; o < w->nout; o++) {
		int32_t p = w->entry_part[(int64_t)e * w->nout + o];
		if (p >= 0 && !dalic_rdio_open(&w->io, w->parts[p].file, err, sizeof err))
			dalic_rdio_will_need(&w->io, w->parts[p].file, w->parts[p].offset,
			                     w->parts[p].size);
	}
}

static void webdataset_fini(dalic_op_ctx_t *ctx)
{
	webdataset_t *w = ctx->state;
	for (int o = 0; w->exts && o < w->nout; o++) {
		for (char **e = w->exts[o]; e && *e; e++)
			free(*e);
		free(w->exts[o]);
	}
	free(w->exts);
	free(w->dtypes);
	for (int p = 0; p < w->nparts; p++) {
		free(w->parts[p].name);
		if (w->part_src)
			free(w->part_src[p]);
	}
	free(w->parts);
	free(w->part_src);
	free(w->entry_part);
	free(w->entry_file);
	dalic_rdio_free(&w->io);
	dalic_rdcore_fini(&w->core);
	if (w->charged)
		dalic_mem_uncharge(w->charged);
}

static int webdataset_init_state(dalic_op_ctx_t *ctx)
{
	webdataset_t *w = ctx->state;
	DALIC_TRY(dalic_rdcore_init(&w->core, ctx, &webdataset_kind));
	w->core.prepare = webdataset_prepare;
	DALIC_TRY(webdataset_parse_args(ctx, w));
	dalic_rdio_init(&w->io, !w->core.no_mmap, w->core.read_ahead);
	w->core.hint = webdataset_hint;
	w->core.hint_user = w;
	return w->core.lazy ? DALIC_OK : webdataset_prepare(ctx);
}

static int webdataset_init(dalic_op_ctx_t *ctx)
{
	int rc = webdataset_init_state(ctx);
	if (rc)
		webdataset_fini(ctx);
	return rc;
}

static int webdataset_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	webdataset_t *w = ctx->state;
	DALIC_TRY(webdataset_prepare(ctx));
	int n = ws->batch_size;
	for (int o = 0; o < w->nout; o++) {
		DALIC_TRY(dalic_batch_set_meta(ws->outputs[o], n, w->dtypes[o], 1));
		dalic_batch_set_layout(ws->outputs[o], "");
	}
	dalic_rdcore_next_batch(&w->core, n);
	for (int i = 0; i < n; i++) {
		int32_t e = w->core.selected[i];
		for (int o = 0; o < w->nout; o++) {
			int32_t p = w->entry_part[(int64_t)e * w->nout + o];
			dalic_batch_t *out = ws->outputs[o];
			out->sources[i] = NULL;
			if (p < 0) {
				dalic_batch_shape_mut(out, i)[0] = 0;
				continue;
			}
			const wds_part_t *part = &w->parts[p];
			const char *path = w->io.files[part->file].path;
			const char *src = dalic_rdcore_source_in(&w->part_src[p], &w->charged,
			                                         "%s:%lld:%s", path,
			                                         (long long)part->offset, part->name);
			if (!src)
				return dalic_op_fail(ctx, ws, i, "%s", dalic_last_error());
			out->sources[i] = src;
			char err[1024];
			if (dalic_rdio_open(&w->io, part->file, err, sizeof err))
				return dalic_op_fail(ctx, ws, i, "%s", err);
			if (part->offset >= w->io.files[part->file].size)
				return dalic_op_fail(ctx, ws, i,
				                     "Malformed index file for \"%s\" - offset %lld is "
				                     "outside of the archive file (%lld bytes)",
				                     path, (long long)part->offset,
				                     (long long)w->io.files[part->file].size);
			if (dalic_rdio_check(&w->io, part->file, part->offset, part->size, part->name,
			                     err, sizeof err))
				return dalic_op_fail(ctx, ws, i, "%s", err);
			dalic_batch_shape_mut(out, i)[0] =
			    part->size / (int64_t)dalic_dtype_size(w->dtypes[o]);
		}
	}
	return DALIC_OK;
}

static int webdataset_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	webdataset_t *w = ctx->state;
	int32_t e = w->core.selected[i];
	for (int o = 0; o < w->nout; o++) {
		int32_t p = w->entry_part[(int64_t)e * w->nout + o];
		if (p < 0)
			continue;
		const wds_part_t *part = &w->parts[p];
		char err[512];
		if (dalic_rdio_read(&w->io, part->file, part->offset, part->size,
		                    ws->outputs[o]->ptrs[i], err, sizeof err))
			return dalic_op_fail(ctx, ws, i, "%s", err);
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
	{"paths", DALIC_ARG_STRING_LIST, NULL, "The tar archives."},
	{"index_paths", DALIC_ARG_STRING_LIST, "None",
	 "DALI index files, one per archive (wds2idx); without them the archives are walked."},
	{"ext", DALIC_ARG_STRING_LIST, NULL,
	 "One entry per output: the component extension(s) it takes, alternatives split by ';'."},
	{"missing_component_behavior", DALIC_ARG_STRING, "''",
	 "A sample missing a component: '' or 'empty' (empty output), 'skip' or 'error'."},
	{"dtypes", DALIC_ARG_DTYPE_LIST, "None", "Output types (default uint8 for every output)."},
	{"case_sensitive_extensions", DALIC_ARG_BOOL, "True", "Match extensions case-sensitively."},
	DALIC_READER_COMMON_ARGS,
	DALIC_READER_EPOCH_ARGS,
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(webdataset_t),
	.init = webdataset_init,
	.setup = webdataset_setup,
	.run_sample = webdataset_run_sample,
	.fini = webdataset_fini,
	.reader_meta = dalic_rdcore_op_meta,
	.reset = dalic_rdcore_op_reset,
	.ckpt_save = dalic_rdcore_op_ckpt_save,
	.ckpt_restore = dalic_rdcore_op_ckpt_restore,
	.skip = dalic_rdcore_op_skip,
};

DALIC_OPERATOR(readers__Webdataset) = {
	.name = "readers__Webdataset",
	.fn = "readers.webdataset",
	.module = "nvidia.dali.fn.readers",
	.doc = "Reads samples of webdataset tar archives, one output per extension.",
	.min_inputs = 0,
	.max_inputs = 0,
	.num_outputs = 1,
	.outputs_for = webdataset_outputs_for,
	.devices = DALIC_DEV_CPU,
	.random = true,
	.is_reader = true,
	.args = args,
	.cpu = &kernel,
};
