/*
 * Named tracers owned by a pipeline (tracers.h): a stats collector (with or without trace
 * events), NVTX ranges, a stats server. Every tracer is an observer in the pipeline's mux,
 * so they all run at once; the pipeline frees them after its executor stopped.
 */
#include "stats/tracers.h"

#include "engine/error.h"
#include "engine/observer_nvtx.h"
#include "engine/pipeline.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct tracers {
	dalic_pipeline_t *pipe;
	dalic_stats_t *stats;
	bool trace, nvtx;
	dalic_stats_server_t *server;
} tracers_t;

static atomic_int tracers_trace_files;

static void tracers_stop(void *arg)
{
	tracers_t *t = arg;
	dalic_stats_server_stop(t->server);
	t->server = NULL;
}

/* The files the environment asks for; failures are reported on stderr (the pipeline is
 * being destroyed, nobody is left to receive a status). */
static void tracers_write_files(tracers_t *t)
{
	const char *file = getenv("DALIC_STATS_FILE");
	if (file && *file) {
		dalic_stats_snapshot_t *snap = NULL;
		FILE *f = fopen(file, "w");
		int rc = f ? dalic_stats_snapshot(t->stats, &snap) : DALIC_EIO;
		if (!rc)
			rc = dalic_stats_write_json(snap, f);
		if (f && fclose(f) && !rc)
			rc = DALIC_EIO;
		if (rc)
			fprintf(stderr, "dalic: tracer 'stats': cannot write DALIC_STATS_FILE '%s'\n",
				file);
		dalic_stats_snapshot_free(snap);
	}
	if (!t->trace)
		return;
	char def[64];
	file = getenv("DALIC_TRACE_FILE");
	if (!file || !*file) {
		snprintf(def, sizeof def, "dalic-trace-%ld-%d.json", (long)getpid(),
			 atomic_fetch_add(&tracers_trace_files, 1));
		file = def;
	}
	if (dalic_stats_save_trace(t->stats, file))
		fprintf(stderr, "dalic: tracer 'trace': %s\n", dalic_last_error());
}

static void tracers_free(void *arg)
{
	tracers_t *t = arg;
	if (!t)
		return;
	tracers_stop(t);
	if (t->stats) {
		dalic_stats_pipeline_destroyed(t->stats);
		tracers_write_files(t);
		dalic_stats_destroy(t->stats);
	}
	free(t);
}

static int tracers_get(dalic_pipeline_t *p, tracers_t **out)
{
	*out = dalic_pipeline_tracers(p);
	if (*out)
		return DALIC_OK;
	tracers_t *t = calloc(1, sizeof *t);
	if (!t)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	t->pipe = p;
	dalic_pipeline_set_tracers(p, t, tracers_stop, tracers_free);
	*out = t;
	return DALIC_OK;
}

static int tracers_add_stats(tracers_t *t, bool trace)
{
	if (t->stats && (t->trace || !trace))
		return DALIC_OK;
	if (t->stats) /* "trace" after "stats": the collector must keep events from the start */
		return dalic_fail(DALIC_ESTATE,
				  "tracer 'trace': name it together with (or instead of) 'stats'");
	dalic_stats_options_t o;
	dalic_stats_options_init(&o);
	o.trace = trace;
	DALIC_TRY(dalic_stats_create(t->pipe, &o, &t->stats));
	t->trace = trace;
	return DALIC_OK;
}

static int tracers_add_nvtx(tracers_t *t)
{
	if (t->nvtx)
		return DALIC_OK;
	dalic_observer_t obs;
	DALIC_TRY(dalic_observer_nvtx(&obs));
	DALIC_TRY(dalic_pipeline_add_observer(t->pipe, &obs));
	t->nvtx = true;
	return DALIC_OK;
}

/* Checks every name first, so a typo attaches nothing. */
static int tracers_check_names(const char *names, bool *stats, bool *trace, bool *nvtx)
{
	for (const char *at = names; *at;) {
		size_t len = strcspn(at, ";, ");
		if (len == 4 && !strncmp(at, "none", len)) {
		} else if (len == 5 && !strncmp(at, "stats", len)) {
			*stats = true;
		} else if (len == 5 && !strncmp(at, "trace", len)) {
			*trace = true;
		} else if (len == 4 && !strncmp(at, "nvtx", len)) {
			*nvtx = true;
		} else if (len) {
			return dalic_fail(DALIC_EINVAL,
					  "unknown tracer '%.*s' in '%s' (known: stats, trace, "
					  "nvtx, none)",
					  (int)len, at, names);
		}
		at += len + (at[len] != 0);
	}
	return DALIC_OK;
}

int dalic_tracers_attach(dalic_pipeline_t *p, const char *names)
{
	if (!p || !names)
		return dalic_fail(DALIC_EINVAL, "dalic_tracers_attach: NULL argument");
	bool stats = false, trace = false, nvtx = false;
	DALIC_TRY(tracers_check_names(names, &stats, &trace, &nvtx));
	tracers_t *t;
	DALIC_TRY(tracers_get(p, &t));
	if (stats || trace)
		DALIC_TRY(tracers_add_stats(t, trace));
	if (nvtx)
		DALIC_TRY(tracers_add_nvtx(t));
	return DALIC_OK;
}

dalic_stats_t *dalic_tracers_stats(const dalic_pipeline_t *p)
{
	const tracers_t *t = p ? dalic_pipeline_tracers(p) : NULL;
	return t ? t->stats : NULL;
}

static int tracers_interval_ms(void)
{
	const char *v = getenv("DALIC_STATS_INTERVAL_MS");
	long ms = v ? strtol(v, NULL, 10) : 0;
	return ms >= 10 && ms <= 60000 ? (int)ms : 500;
}

int dalic_stats_serve(dalic_pipeline_t *p, const char *path)
{
	if (!p || !path || !*path)
		return dalic_fail(DALIC_EINVAL, "dalic_stats_serve: NULL or empty argument");
	tracers_t *t;
	DALIC_TRY(tracers_get(p, &t));
	if (t->server)
		return dalic_fail(DALIC_ESTATE, "the pipeline already serves its stats");
	DALIC_TRY(tracers_add_stats(t, false));
	return dalic_stats_server_start(t->stats, path, tracers_interval_ms(), &t->server);
}

int dalic_tracers_from_env(dalic_pipeline_t *p)
{
	const char *names = getenv("DALIC_TRACERS");
	const char *sock = getenv("DALIC_STATS_SOCKET");
	if (names && *names) {
		int rc = dalic_tracers_attach(p, names);
		if (rc)
			return dalic_fail_wrap(rc, "DALIC_TRACERS");
	}
	if (sock && *sock) {
		int rc = dalic_stats_serve(p, sock);
		if (rc == DALIC_ESTATE) /* another pipeline serves it: the job goes on */
			fprintf(stderr, "dalic: DALIC_STATS_SOCKET: %s; this pipeline is not served\n",
				dalic_last_error());
		else if (rc)
			return dalic_fail_wrap(rc, "DALIC_STATS_SOCKET");
	}
	if (!dalic_pipeline_tracers(p))
		dalic_pipeline_set_tracers(p, NULL, NULL, NULL); /* read once */
	return DALIC_OK;
}
