/* The warnings log (see warnings.h). */
#include "engine/warnings.h"

#include "engine/error.h"
#include "engine/kernel.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WARNLOG_PAGE 1024

typedef struct warnlog_entry {
	dalic_warning_t pub;
	char *strings; /* op, schema, source and message, one allocation */
} warnlog_entry_t;

struct dalic_warnlog {
	pthread_mutex_t mu;
	warnlog_entry_t **pages;
	int64_t count, cap_pages, dropped;
};

dalic_warnlog_t *dalic_warnlog_new(void)
{
	dalic_warnlog_t *w = calloc(1, sizeof *w);
	if (w)
		pthread_mutex_init(&w->mu, NULL);
	return w;
}

static void warnlog_release(dalic_warnlog_t *w)
{
	for (int64_t i = 0; i < w->count; i++)
		free(w->pages[i / WARNLOG_PAGE][i % WARNLOG_PAGE].strings);
	for (int64_t p = 0; p < w->cap_pages; p++)
		free(w->pages[p]);
	free(w->pages);
	w->pages = NULL;
	w->count = w->cap_pages = w->dropped = 0;
}

void dalic_warnlog_free(dalic_warnlog_t *w)
{
	if (!w)
		return;
	warnlog_release(w);
	pthread_mutex_destroy(&w->mu);
	free(w);
}

void dalic_warnlog_clear(dalic_warnlog_t *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	warnlog_release(w);
	pthread_mutex_unlock(&w->mu);
}

/* Room for entry w->count (a new page when needed); false when out of memory. */
static bool warnlog_reserve(dalic_warnlog_t *w)
{
	int64_t page = w->count / WARNLOG_PAGE;
	if (page < w->cap_pages)
		return true;
	warnlog_entry_t **pages = realloc(w->pages, (size_t)(page + 1) * sizeof *pages);
	if (!pages)
		return false;
	w->pages = pages;
	if (!(pages[page] = malloc(WARNLOG_PAGE * sizeof **pages)))
		return false;
	w->cap_pages = page + 1;
	return true;
}

/* Copies s after *at, advancing it; NULL stays NULL. */
static const char *warnlog_put(char **at, const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	memcpy(*at, s, n);
	const char *r = *at;
	*at += n;
	return r;
}

void dalic_warnlog_add(dalic_warnlog_t *w, const dalic_warning_t *e)
{
	size_t n = 4;
	const char *parts[4] = {e->op, e->schema, e->source, e->message};
	for (int k = 0; k < 4; k++)
		n += parts[k] ? strlen(parts[k]) : 0;
	char *strings = malloc(n);
	pthread_mutex_lock(&w->mu);
	if (!strings || w->count >= DALIC_WARNLOG_MAX || !warnlog_reserve(w)) {
		w->dropped++;
		pthread_mutex_unlock(&w->mu);
		free(strings);
		return;
	}
	warnlog_entry_t *slot = &w->pages[w->count / WARNLOG_PAGE][w->count % WARNLOG_PAGE];
	slot->pub = *e;
	slot->strings = strings;
	char *at = strings;
	slot->pub.op = warnlog_put(&at, e->op);
	slot->pub.schema = warnlog_put(&at, e->schema);
	slot->pub.source = warnlog_put(&at, e->source);
	slot->pub.message = warnlog_put(&at, e->message);
	w->count++;
	pthread_mutex_unlock(&w->mu);
}

int64_t dalic_warnlog_count(dalic_warnlog_t *w)
{
	pthread_mutex_lock(&w->mu);
	int64_t n = w->count;
	pthread_mutex_unlock(&w->mu);
	return n;
}

int64_t dalic_warnlog_dropped(dalic_warnlog_t *w)
{
	pthread_mutex_lock(&w->mu);
	int64_t n = w->dropped;
	pthread_mutex_unlock(&w->mu);
	return n;
}

bool dalic_warnlog_get(dalic_warnlog_t *w, int64_t i, dalic_warning_t *out)
{
	pthread_mutex_lock(&w->mu);
	bool ok = i >= 0 && i < w->count;
	if (ok)
		*out = w->pages[i / WARNLOG_PAGE][i % WARNLOG_PAGE].pub;
	pthread_mutex_unlock(&w->mu);
	return ok;
}

/* ---- the kernels' side ---------------------------------------------------------------------- */

/* The source of `sample`: the first input (or output) that names one. */
static const char *warnlog_source(const dalic_ws_t *ws, int sample)
{
	if (!ws || sample < 0)
		return NULL;
	for (int i = 0; i < ws->num_inputs; i++)
		if (ws->inputs[i] && sample < ws->inputs[i]->num_samples &&
		    ws->inputs[i]->sources[sample])
			return ws->inputs[i]->sources[sample];
	for (int i = 0; i < ws->num_outputs; i++)
		if (ws->outputs[i] && sample < ws->outputs[i]->num_samples &&
		    ws->outputs[i]->sources[sample])
			return ws->outputs[i]->sources[sample];
	return NULL;
}

static void warnlog_report(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int sample,
                           long repeats, bool error, const char *msg)
{
	const dalic_warn_sink_t *s = ctx->warn;
	if (!s)
		return;
	dalic_warning_t e = {
	    .op = ctx->inst,
	    .schema = ctx->schema->name,
	    .iteration = ws ? ws->iteration : -1,
	    .sample = sample,
	    .source = warnlog_source(ws, sample),
	    .record = -1,
	    .message = msg,
	    .repeats = repeats > 0 ? repeats : 1,
	    .error = error,
	};
	if (s->log)
		dalic_warnlog_add(s->log, &e);
	if (s->obs && s->obs->warning)
		s->obs->warning(s->obs->user, s->node, &e);
}

void dalic_op_warn(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int sample, long repeats,
                   const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	warnlog_report(ctx, ws, sample, repeats, false, msg);
}

bool dalic_op_scanning(const dalic_op_ctx_t *ctx)
{
	return ctx->warn && ctx->warn->scan;
}

int dalic_op_sample_error(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int sample,
                          const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (!dalic_op_scanning(ctx))
		return dalic_op_fail(ctx, ws, sample, "%s", msg);
	warnlog_report(ctx, ws, sample, 1, true, msg);
	return DALIC_OK;
}
