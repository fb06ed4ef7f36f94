/*
 * External sources fed from files (`--feed NAME=PATH`, see feed.h). A .npy file is read once
 * and its samples served from memory; directories and lists are read file by file as the
 * batches ask for them, so large image folders cost one batch of memory.
 */
#include "cli/feed.h"

#include "cli/cli.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct feed_one {
	char *name;
	char *path;
	/* a .npy of samples: */
	unsigned char *all; /* the whole file */
	const unsigned char *array;
	dalic_dtype_t dtype;
	int ndim; /* of a sample */
	int64_t shape[DALIC_MAX_NDIM];
	size_t sample_bytes;
	/* files, one sample each: */
	char **files;
	int n; /* samples */
	int batch;
	bool per_call;  /* a streaming input: one file per call, in order, whatever the iteration */
	int64_t calls;
	int64_t *shapes;
	const char **sources; /* each sample's file (the .npy for its samples) */
	unsigned char *buf;
	size_t cap;
} feed_one_t;

struct dalic_cli_feed {
	feed_one_t *v;
	int n;
};

static atomic_bool feed_quiet;
static _Thread_local char feed_error[1024];

/* Keeps the message for dalic_cli_feed_error and prints it (unless quiet). */
__attribute__((format(printf, 2, 3))) static int feed_fail(int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(feed_error, sizeof feed_error, fmt, ap);
	va_end(ap);
	if (!atomic_load(&feed_quiet))
		fprintf(stderr, "dalic: %s\n", feed_error);
	return status;
}

void dalic_cli_feeds_quiet(bool quiet)
{
	atomic_store(&feed_quiet, quiet);
}

const char *dalic_cli_feed_error(void)
{
	return feed_error;
}

/* ---- .npy ----------------------------------------------------------------------------- */

static dalic_dtype_t feed_npy_dtype(const char *descr)
{
	static const struct {
		const char *descr;
		dalic_dtype_t t;
	} map[] = {{"|u1", DALIC_UINT8},   {"<u2", DALIC_UINT16}, {"<u4", DALIC_UINT32},
	           {"<u8", DALIC_UINT64},  {"|i1", DALIC_INT8},   {"<i2", DALIC_INT16},
	           {"<i4", DALIC_INT32},   {"<i8", DALIC_INT64},  {"<f2", DALIC_FLOAT16},
	           {"<f4", DALIC_FLOAT},   {"<f8", DALIC_FLOAT64}, {"|b1", DALIC_BOOL},
	           {"<u1", DALIC_UINT8},   {"<i1", DALIC_INT8},   {"<b1", DALIC_BOOL}};
	for (size_t i = 0; i < sizeof map / sizeof *map; i++)
		if (!strcmp(descr, map[i].descr))
			return map[i].t;
	return DALIC_NO_TYPE;
}

/* Parses a .npy held in buf: dtype, shape, where the data starts. */
static int feed_npy_parse(const char *path, const unsigned char *buf, size_t len,
                          dalic_dtype_t *dtype, int *ndim, int64_t *shape, size_t *offset)
{
	if (len < 10 || memcmp(buf, "\x93NUMPY", 6))
		return feed_fail(DALIC_EINVAL, "--feed: '%s' is not a .npy file", path);
	size_t hlen = buf[8] | (size_t)buf[9] << 8, start = 10;
	if (buf[6] >= 2) {
		if (len < 12)
			return feed_fail(DALIC_EINVAL, "--feed: '%s' is truncated", path);
		hlen |= (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
		start = 12;
	}
	if (start + hlen > len)
		return feed_fail(DALIC_EINVAL, "--feed: '%s' is truncated", path);
	char *h = strndup((const char *)buf + start, hlen);
	if (!h)
		return feed_fail(DALIC_ENOMEM, "out of memory");
	char descr[8] = "";
	const char *d = strstr(h, "'descr':"), *s = strstr(h, "'shape':");
	bool fortran = strstr(h, "'fortran_order': True") != NULL;
	if (d)
		sscanf(d, "'descr': '%7[^']'", descr);
	*dtype = feed_npy_dtype(descr);
	*ndim = 0;
	bool ok = d && s && !fortran && *dtype != DALIC_NO_TYPE && (s = strchr(s, '('));
	for (s = ok ? s + 1 : s; ok && *s && *s != ')';) {
		char *end;
		long long v = strtoll(s, &end, 10);
		if (end == s || v < 0 || *ndim == DALIC_MAX_NDIM) {
			ok = false;
			break;
		}
		shape[(*ndim)++] = v;
		s = end + strspn(end, ", ");
	}
	free(h);
	if (!ok)
		return feed_fail(DALIC_EUNSUPPORTED,
		                      "--feed: '%s': only little-endian, C-order numeric .npy "
		                      "arrays of up to %d dimensions are read (descr '%s'%s)",
		                      path, DALIC_MAX_NDIM, descr, fortran ? ", Fortran order" : "");
	*offset = start + hlen;
	return DALIC_OK;
}

static size_t feed_elems(int ndim, const int64_t *shape)
{
	size_t n = 1;
	for (int d = 0; d < ndim; d++)
		n *= (size_t)shape[d];
	return n;
}

/* ---- files ---------------------------------------------------------------------------- */

static bool feed_is_npy(const char *path)
{
	size_t n = strlen(path);
	return n > 4 && !strcmp(path + n - 4, ".npy");
}

static int feed_add_file(feed_one_t *f, const char *dir, const char *name, int *cap)
{
	if (f->n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		char **v = realloc(f->files, sizeof *v * (size_t)*cap);
		if (!v)
			return feed_fail(DALIC_ENOMEM, "out of memory");
		f->files = v;
	}
	size_t len = strlen(dir) + strlen(name) + 2;
	if (!(f->files[f->n] = malloc(len)))
		return feed_fail(DALIC_ENOMEM, "out of memory");
	if (name[0] == '/' || !dir[0])
		snprintf(f->files[f->n], len, "%s", name);
	else
		snprintf(f->files[f->n], len, "%s/%s", dir, name);
	f->n++;
	return DALIC_OK;
}

static int feed_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int feed_open_dir(feed_one_t *f)
{
	DIR *d = opendir(f->path);
	if (!d)
		return feed_fail(DALIC_EIO, "--feed %s: cannot read directory '%s'", f->name,
		                      f->path);
	int cap = 0, rc = DALIC_OK;
	for (struct dirent *e; !rc && (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char p[4096];
		struct stat st;
		snprintf(p, sizeof p, "%s/%s", f->path, e->d_name);
		if (!stat(p, &st) && S_ISREG(st.st_mode))
			rc = feed_add_file(f, f->path, e->d_name, &cap);
	}
	closedir(d);
	if (!rc && f->n)
		qsort(f->files, (size_t)f->n, sizeof *f->files, feed_cmp);
	return rc;
}

/* A file with a NUL byte in its first 4 KiB is data (an encoded video or image), not a list
 * of files. */
static bool feed_is_binary(FILE *in)
{
	unsigned char head[4096];
	size_t n = fread(head, 1, sizeof head, in);
	rewind(in);
	return memchr(head, 0, n) != NULL;
}

static int feed_open_list(feed_one_t *f)
{
	FILE *in = fopen(f->path, "r");
	if (!in)
		return feed_fail(DALIC_EIO, "--feed %s: cannot read '%s'", f->name, f->path);
	if (feed_is_binary(in)) { /* the file itself is the one sample */
		fclose(in);
		int cap = 0;
		return feed_add_file(f, "", f->path, &cap);
	}
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", f->path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		dir[0] = 0;
	char line[4096];
	int cap = 0, rc = DALIC_OK;
	while (!rc && fgets(line, sizeof line, in)) {
		line[strcspn(line, "\r\n")] = 0;
		char *s = line + strspn(line, " \t");
		if (*s && *s != '#')
			rc = feed_add_file(f, dir, s, &cap);
	}
	fclose(in);
	return rc;
}

static int feed_slurp(const char *path, void **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return feed_fail(DALIC_EIO, "--feed: cannot read '%s'", path);
	unsigned char *buf = NULL;
	size_t n = 0, cap = 0, got;
	do {
		if (n == cap) {
			unsigned char *b = realloc(buf, cap = cap ? 2 * cap : 65536);
			if (!b) {
				free(buf);
				fclose(f);
				return feed_fail(DALIC_ENOMEM, "--feed: out of memory reading '%s'", path);
			}
			buf = b;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	bool bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		return feed_fail(DALIC_EIO, "--feed: cannot read '%s'", path);
	}
	*data = buf;
	*len = n;
	return DALIC_OK;
}

/* One file as a sample: a .npy array, or the raw bytes as uint8 [n]. */
static int feed_read_file(feed_one_t *f, const char *path, void **data, size_t *len,
                          dalic_dtype_t *dtype, int *ndim, int64_t *shape, size_t *offset)
{
	if (feed_slurp(path, data, len))
		return DALIC_EIO;
	if (!feed_is_npy(path)) {
		*dtype = DALIC_UINT8;
		*ndim = 1;
		shape[0] = (int64_t)*len;
		*offset = 0;
		return DALIC_OK;
	}
	int rc = feed_npy_parse(path, *data, *len, dtype, ndim, shape, offset);
	if (!rc && *offset + feed_elems(*ndim, shape) * dalic_dtype_size(*dtype) > *len)
		rc = feed_fail(DALIC_EINVAL, "--feed: '%s' is truncated", path);
	if (rc)
		free(*data);
	return rc;
}

static int feed_open_one(feed_one_t *f, const char *spec, int batch)
{
	const char *eq = strchr(spec, '=');
	if (!eq || eq == spec || !eq[1])
		return feed_fail(DALIC_EINVAL, "--feed takes NAME=PATH, not '%s'", spec);
	f->name = strndup(spec, (size_t)(eq - spec));
	f->path = strdup(eq + 1);
	f->batch = batch;
	if (!f->name || !f->path)
		return feed_fail(DALIC_ENOMEM, "out of memory");
	struct stat st;
	if (stat(f->path, &st))
		return feed_fail(DALIC_EIO, "--feed %s: no file or directory '%s'", f->name,
		                      f->path);
	int rc = DALIC_OK;
	size_t len, off;
	if (S_ISDIR(st.st_mode))
		rc = feed_open_dir(f);
	else if (!feed_is_npy(f->path))
		rc = feed_open_list(f);
	else if (!(rc = feed_read_file(f, f->path, (void **)&f->all, &len, &f->dtype, &f->ndim,
	                               f->shape, &off))) {
		if (f->ndim < 1)
			return feed_fail(DALIC_EINVAL,
			                      "--feed %s: '%s' is 0-dimensional; its first axis must "
			                      "be the samples",
			                      f->name, f->path);
		f->n = (int)f->shape[0];
		f->ndim--;
		memmove(f->shape, f->shape + 1, sizeof *f->shape * (size_t)f->ndim);
		f->array = f->all + off;
		f->sample_bytes = feed_elems(f->ndim, f->shape) * dalic_dtype_size(f->dtype);
	}
	if (rc)
		return rc;
	if (f->n <= 0)
		return feed_fail(DALIC_EINVAL, "--feed %s: '%s' holds no samples", f->name,
		                      f->path);
	if (!(f->shapes = calloc((size_t)batch * DALIC_MAX_NDIM, sizeof *f->shapes)) ||
	    !(f->sources = calloc((size_t)batch, sizeof *f->sources)))
		return feed_fail(DALIC_ENOMEM, "out of memory");
	return DALIC_OK;
}

/* ---- serving batches ------------------------------------------------------------------ */

static int feed_reserve(feed_one_t *f, size_t need)
{
	if (need <= f->cap)
		return DALIC_OK;
	unsigned char *b = realloc(f->buf, need);
	if (!b)
		return feed_fail(DALIC_ENOMEM, "--feed %s: out of memory", f->name);
	f->buf = b;
	f->cap = need;
	return DALIC_OK;
}

/* Appends sample k (a file) to the batch being packed; the first sample sets dtype/ndim. */
static int feed_pack_file(feed_one_t *f, int i, int k, size_t *used, dalic_dtype_t *dtype,
                          int *ndim)
{
	void *data;
	size_t len, off;
	dalic_dtype_t t;
	int nd;
	int64_t shape[DALIC_MAX_NDIM];
	if (feed_read_file(f, f->files[k], &data, &len, &t, &nd, shape, &off))
		return DALIC_EIO; /* printed; the engine names the source and the iteration */
	if (i && (t != *dtype || nd != *ndim)) {
		free(data);
		return feed_fail(DALIC_EINVAL,
		                  "--feed %s: '%s' is %s with %d dims, the batch's first sample %s "
		                  "with %d",
		                  f->name, f->files[k], dalic_dtype_name(t), nd,
		                  dalic_dtype_name(*dtype), *ndim);
	}
	*dtype = t;
	*ndim = nd;
	size_t bytes = feed_elems(nd, shape) * dalic_dtype_size(t);
	int rc = feed_reserve(f, *used + bytes + 1);
	if (!rc) {
		memcpy(f->buf + *used, (unsigned char *)data + off, bytes);
		memcpy(f->shapes + (size_t)i * nd, shape, sizeof *shape * (size_t)nd);
		*used += bytes;
	}
	free(data);
	return rc;
}

static int feed_next(void *user, int64_t iteration, dalic_feed_t *feed)
{
	feed_one_t *f = user;
	size_t used = 0;
	dalic_dtype_t dtype = f->dtype;
	int ndim = f->ndim;
	int rc = feed_reserve(f, f->files ? 1 : f->sample_bytes * (size_t)f->batch + 1);
	int64_t base = f->per_call ? f->calls++ : iteration;
	for (int i = 0; !rc && i < f->batch; i++) {
		int k = (int)((base * f->batch + i) % f->n);
		if (f->files) {
			f->sources[i] = f->files[k];
			rc = feed_pack_file(f, i, k, &used, &dtype, &ndim);
			continue;
		}
		f->sources[i] = f->path;
		memcpy(f->buf + used, f->array + f->sample_bytes * (size_t)k, f->sample_bytes);
		memcpy(f->shapes + (size_t)i * ndim, f->shape, sizeof *f->shape * (size_t)ndim);
		used += f->sample_bytes;
	}
	if (rc)
		return rc;
	rc = dalic_feed_batch_sources(feed, dtype, ndim, f->batch, f->shapes, f->buf, NULL,
	                              f->sources);
	if (rc && f->per_call && f->files) /* name the file the input could not take */
		feed_fail(rc, "--feed %s: '%s': %s", f->name, f->files[base % f->n],
		          dalic_last_error());
	return rc;
}

/* ---- the set of feeds ----------------------------------------------------------------- */

int dalic_cli_feeds_open(const char *const *specs, int n, int batch_size,
                         dalic_cli_feed_t **out)
{
	*out = NULL;
	if (!n)
		return DALIC_OK;
	if (batch_size <= 0)
		return feed_fail(DALIC_EINVAL, "--feed needs the pipeline's batch size");
	dalic_cli_feed_t *f = calloc(1, sizeof *f);
	if (!f || !(f->v = calloc((size_t)n, sizeof *f->v))) {
		free(f);
		return feed_fail(DALIC_ENOMEM, "out of memory");
	}
	f->n = n;
	for (int i = 0; i < n; i++)
		if (feed_open_one(&f->v[i], specs[i], batch_size)) {
			dalic_cli_feeds_close(f);
			return DALIC_EINVAL;
		}
	*out = f;
	return DALIC_OK;
}

/* DALI's streaming input takes one video per feed (input_batch_size 1), whatever the
 * pipeline's batch size: it gives the iteration's sequences itself. */
static bool feed_one_per_call(const char *schema)
{
	return schema && !strcmp(schema, "experimental__inputs__Video");
}

int dalic_cli_feeds_attach(dalic_cli_feed_t *f, dalic_pipeline_t *p)
{
	for (int i = 0; f && i < f->n; i++) {
		dalic_op_t *op = dalic_pipeline_find_op(p, f->v[i].name);
		if (op && feed_one_per_call(dalic_op_schema(op)))
			f->v[i].batch = 1, f->v[i].per_call = true;
		int rc = dalic_pipeline_set_source(p, f->v[i].name, feed_next, &f->v[i]);
		if (rc)
			return feed_fail(rc, "%s", dalic_last_error());
	}
	return DALIC_OK;
}

int dalic_cli_feeds_attach_debug(dalic_cli_feed_t *f, dalic_debug_t *s)
{
	for (int i = 0; f && i < f->n; i++) {
		dalic_debug_op_info_t info;
		int k = dalic_debug_find_op(s, f->v[i].name);
		if (k >= 0 && !dalic_debug_op_info(s, k, &info) && feed_one_per_call(info.schema))
			f->v[i].batch = 1, f->v[i].per_call = true;
		int rc = dalic_debug_set_source(s, f->v[i].name, feed_next, &f->v[i]);
		if (rc)
			return feed_fail(rc, "%s", dalic_last_error());
	}
	return DALIC_OK;
}

void dalic_cli_feeds_close(dalic_cli_feed_t *f)
{
	if (!f)
		return;
	for (int i = 0; i < f->n; i++) {
		feed_one_t *o = &f->v[i];
		for (int k = 0; o->files && k < o->n; k++)
			free(o->files[k]);
		free(o->files);
		free(o->all);
		free(o->shapes);
		free(o->sources);
		free(o->buf);
		free(o->name);
		free(o->path);
	}
	free(f->v);
	free(f);
}
