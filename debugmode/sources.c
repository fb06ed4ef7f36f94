/*
 * External-source logs (see eager.h). Debug mode keeps every batch fed to a session, packed as
 * it was given, because a restart must replay the same data: the full engine consumes fed
 * batches, debug mode rewinds. Each consumer (the session's executor, and the fresh executor
 * and full engine that dalic_debug_measure times) reads the log through its own cursor.
 */
#include "debugmode/eager.h"

#include "engine/error.h"

#include <stdlib.h>
#include <string.h>

/* A copy of batch source names (NULL for NULL), freed with sources_names_free. */
static char **sources_names_dup(int batch, const char *const *names, bool *oom)
{
	*oom = false;
	if (!names || batch <= 0)
		return NULL;
	char **v = calloc((size_t)batch, sizeof *v);
	for (int i = 0; v && i < batch; i++)
		if (names[i] && !(v[i] = strdup(names[i]))) {
			while (i--)
				free(v[i]);
			free(v);
			v = NULL;
		}
	*oom = !v;
	return v;
}

static void sources_names_free(char **v, int batch)
{
	for (int i = 0; v && i < batch; i++)
		free(v[i]);
	free(v);
}

int dalic_debug_source_log_add(dalic_source_log_t *log, dalic_dtype_t dtype, int ndim, int batch,
                         const int64_t *shapes, const void *data, const char *layout,
                         const char *const *sources)
{
	size_t elem = dalic_dtype_size(dtype);
	if (!elem || ndim < 0 || ndim > DALIC_MAX_NDIM || batch < 0)
		return dalic_fail(DALIC_EINVAL,
		                  "external_source '%s': invalid dtype, ndim or batch", log->name);
	size_t bytes = 0;
	for (int i = 0; i < batch; i++) {
		size_t n = elem;
		for (int d = 0; d < ndim; d++) {
			if (shapes[(size_t)i * ndim + d] < 0)
				return dalic_fail(
				    DALIC_EINVAL,
				    "external_source '%s': negative extent in sample %d", log->name,
				    i);
			n *= (size_t)shapes[(size_t)i * ndim + d];
		}
		bytes += n;
	}
	if (log->num_fed == log->cap_fed) {
		int cap = log->cap_fed ? 2 * log->cap_fed : 8;
		dalic_fed_batch_t *f = realloc(log->fed, sizeof *f * (size_t)cap);
		if (!f)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		log->fed = f;
		log->cap_fed = cap;
	}
	dalic_fed_batch_t *f = &log->fed[log->num_fed];
	memset(f, 0, sizeof *f);
	f->dtype = dtype;
	f->ndim = ndim;
	f->batch = batch;
	f->bytes = bytes;
	f->shapes = malloc(sizeof(int64_t) * ((size_t)batch * ndim + 1));
	f->data = malloc(bytes + 1);
	f->layout = layout ? strdup(layout) : NULL;
	bool oom;
	f->sources = sources_names_dup(batch, sources, &oom);
	if (!f->shapes || !f->data || (layout && !f->layout) || oom) {
		free(f->shapes);
		free(f->data);
		free(f->layout);
		sources_names_free(f->sources, batch);
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	if (batch > 0 && ndim > 0)
		memcpy(f->shapes, shapes, sizeof(int64_t) * (size_t)batch * ndim);
	if (bytes)
		memcpy(f->data, data, bytes);
	log->num_fed++;
	return DALIC_OK;
}

void dalic_debug_source_log_free(dalic_source_log_t *log)
{
	for (int i = 0; i < log->num_fed; i++) {
		free(log->fed[i].shapes);
		free(log->fed[i].data);
		free(log->fed[i].layout);
		sources_names_free(log->fed[i].sources, log->fed[i].batch);
	}
	free(log->fed);
	free(log->name);
	memset(log, 0, sizeof *log);
}

static int sources_tap(void *ctx, dalic_dtype_t dtype, int ndim, int batch, const int64_t *shapes,
                       const void *data, const char *layout, const char *const *sources)
{
	return dalic_debug_source_log_add(ctx, dtype, ndim, batch, shapes, data, layout, sources);
}

int dalic_debug_source_log_callback(void *user, int64_t iteration, dalic_feed_t *feed)
{
	dalic_source_reader_t *r = user;
	dalic_source_log_t *log = r->log;
	if (r->cursor < log->num_fed) {
		const dalic_fed_batch_t *f = &log->fed[r->cursor];
		int rc = dalic_feed_batch_sources(feed, f->dtype, f->ndim, f->batch, f->shapes,
		                                  f->data, f->layout,
		                                  (const char *const *)f->sources);
		if (!rc)
			r->cursor++;
		return rc;
	}
	if (log->fn && log->record) {
		feed->tap = sources_tap;
		feed->tap_ctx = log;
		int rc = log->fn(log->user, iteration, feed);
		feed->tap = NULL;
		if (!rc) /* this reader took it; the others (and a restart) replay it */
			r->cursor = log->num_fed;
		return rc;
	}
	if (log->fn)
		return log->fn(log->user, iteration, feed);
	return DALIC_EEND;
}
