/*
 * The warnings log a pipeline owns (issue 20): every data-quality warning an operator reports
 * for a sample it still produced — a codec's "Corrupt JPEG data: ..." for an image it decoded
 * anyway, as DALI does — and, in a scan (dalic_pipeline_make_scan), every sample an operator
 * refused, kept instead of stopping the pipeline. Entries name the operator instance, the
 * iteration, the sample and its source; the public view is dalic_warning_t (dalic.h).
 *
 * Kernels report through dalic_op_warn / dalic_op_sample_error (kernel.h); the executor points
 * each operator context at its node's sink (log, observer hooks, scan flag) before a run.
 * Appends come from pool workers concurrently: one mutex, held for a copy. Entries never move
 * once added (pages of fixed size), so their strings stay valid until the log is cleared.
 */
#ifndef DALIC_ENGINE_WARNINGS_H
#define DALIC_ENGINE_WARNINGS_H

#include "dalic.h"
#include "engine/observer.h"

typedef struct dalic_warnlog dalic_warnlog_t;

/* Where an operator context's warnings go (set by the executor for each run). */
typedef struct dalic_warn_sink {
	dalic_warnlog_t *log;        /* NULL: warnings are dropped */
	const dalic_observer_t *obs; /* its `warning` hook is called too; may be NULL */
	const dalic_node_t *node;
	bool scan;                   /* sample errors are recorded instead of failing */
} dalic_warn_sink_t;

/* New empty log, or NULL when out of memory. */
dalic_warnlog_t *dalic_warnlog_new(void);
void dalic_warnlog_free(dalic_warnlog_t *w);
/* Appends a copy of *e. Past DALIC_WARNLOG_MAX entries (or out of memory) the entry is only
 * counted as dropped. Thread-safe. */
#define DALIC_WARNLOG_MAX (1 << 22)
void dalic_warnlog_add(dalic_warnlog_t *w, const dalic_warning_t *e);
int64_t dalic_warnlog_count(dalic_warnlog_t *w);
int64_t dalic_warnlog_dropped(dalic_warnlog_t *w);
/* Entry i (strings borrowed until the log is cleared or freed); false when out of range. */
bool dalic_warnlog_get(dalic_warnlog_t *w, int64_t i, dalic_warning_t *out);
void dalic_warnlog_clear(dalic_warnlog_t *w);

#endif
