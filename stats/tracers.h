/*
 * Tracers chosen by name (DALIC_TRACERS="stats;nvtx;trace", dalic_tracers_attach, the
 * --tracers flag) and the stats server they may run (serve.c). A pipeline owns its tracers
 * (engine/pipeline.h's tracer slot): they die with it, after its executor stopped.
 */
#ifndef DALIC_STATS_TRACERS_H
#define DALIC_STATS_TRACERS_H

#include "dalic_stats.h"

/* At the first build of a pipeline with no tracers chosen: reads DALIC_TRACERS and
 * DALIC_STATS_SOCKET and attaches what they name. */
int dalic_tracers_from_env(dalic_pipeline_t *p);

/* ---- the stats server (serve.c) ---- */
typedef struct dalic_stats_server dalic_stats_server_t;

/* Binds `path` (a stale socket file is replaced; one a live process serves is refused) and
 * starts the thread that sends a snapshot of `s` every interval_ms to each client. */
int dalic_stats_server_start(dalic_stats_t *s, const char *path, int interval_ms,
			     dalic_stats_server_t **out);
/* Stops the thread, closes every client, removes the socket file. NULL is ignored. */
void dalic_stats_server_stop(dalic_stats_server_t *srv);
/* Clients dropped for not reading (tests). */
int64_t dalic_stats_server_dropped(const dalic_stats_server_t *srv);

#endif
