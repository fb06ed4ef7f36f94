/* Internal pipeline entry points used by the front ends, the CLI, stats and debug mode. */
#ifndef DALIC_ENGINE_PIPELINE_H
#define DALIC_ENGINE_PIPELINE_H

#include "dalic.h"
#include "engine/graph.h"
#include "engine/graphdef.h"
#include "engine/observer.h"
#include "engine/observer_mux.h"
#include "engine/warnings.h"

/* Copies caller's parameters (any struct_size, see dalic.h) into the library's struct;
 * DALIC_EINVAL when src was not initialised, DALIC_EUNSUPPORTED when it sets fields this
 * library does not know. */
int dalic_pipeline_params_import(dalic_pipeline_params_t *dst, const dalic_pipeline_params_t *src);
/* Creates a pipeline that owns `def` (consumed, also on failure). */
int dalic_pipeline_from_graphdef(dalic_graphdef_t *def, dalic_pipeline_t **out);
/* Borrowed: the definition (valid for the pipeline's lifetime; do not modify after build). */
dalic_graphdef_t *dalic_pipeline_graphdef(dalic_pipeline_t *p);
/* Borrowed: the built graph, or NULL before build. */
const dalic_graph_t *dalic_pipeline_graph(const dalic_pipeline_t *p);

/* Installs observer hooks (copied), now and for every later build, replacing all others.
 * NULL removes every observer. Observers change only while no iteration is in flight. */
void dalic_pipeline_set_observer(dalic_pipeline_t *p, const dalic_observer_t *obs);
/* Adds observer hooks (copied) beside the others (engine/observer_mux.h); DALIC_ESTATE when
 * DALIC_OBSERVER_MUX_MAX are installed. */
int dalic_pipeline_add_observer(dalic_pipeline_t *p, const dalic_observer_t *obs);
/* Removes the observers whose user is `user`. */
void dalic_pipeline_remove_observer(dalic_pipeline_t *p, const void *user);
/* The pipeline's tracers (stats/tracers.c), NULL if none. Once set (even to NULL) the
 * pipeline no longer reads DALIC_TRACERS at build. At destroy stop_fn runs first (the
 * executor still exists: stop readers of it), free_fn after every executor thread stopped. */
void *dalic_pipeline_tracers(const dalic_pipeline_t *p);
void dalic_pipeline_set_tracers(dalic_pipeline_t *p, void *tracers, void (*stop_fn)(void *),
				void (*free_fn)(void *));
/* Borrowed: the executor, or NULL before build (stats, debug mode). */
struct dalic_exec;
struct dalic_exec *dalic_pipeline_exec(dalic_pipeline_t *p);

/* The pipeline's checkpoint bookkeeping (engine/checkpoint_run.c), NULL until needed. */
struct dalic_ckpt_run;
struct dalic_ckpt_run **dalic_pipeline_ckpt(dalic_pipeline_t *p);

/* Borrowed: the pipeline's warnings log. */
dalic_warnlog_t *dalic_pipeline_warnlog(const dalic_pipeline_t *p);
/* Marks an unbuilt pipeline as a scan: its sample errors go to the warnings log (the graph
 * changes are dalic_pipeline_make_scan's). */
int dalic_pipeline_set_scan(dalic_pipeline_t *p);

#endif
