/*
 * Debug session internals (private to debugmode/): the session object behind
 * include/dalic_debug.h and the helpers its files share. The position model, stop reasons and
 * breakpoint rules are described in the public header; this file only holds state.
 */
#ifndef DALIC_DEBUGMODE_SESSION_H
#define DALIC_DEBUGMODE_SESSION_H

#include "engine/warnings.h"
#include "dalic_debug.h"
#include "debugmode/eager.h"

#include <stdatomic.h>

typedef struct dalic_debug_cond dalic_debug_cond_t;

typedef struct dalic_breakpoint {
	int id;
	dalic_debug_break_kind_t kind;
	char *text;
	int64_t hits;
	int64_t iteration;  /* BREAK_ITER */
	dalic_debug_cond_t *cond; /* BREAK_COND */
} dalic_breakpoint_t;

struct dalic_debug {
	dalic_graphdef_t *def; /* owned: the definition as run (printed nodes preserved) */
	dalic_eager_t *e;
	dalic_source_log_t *logs; /* one per input operator of the definition */
	int num_logs;
	int *pos_of; /* node index -> position in the execution order */

	/* position */
	int64_t iteration;
	int pos;     /* next operator; e->num_ops when the iteration is complete */
	bool begun;  /* inputs asked for this iteration's batch */
	bool ended;  /* end of data reached */
	bool failed; /* stopped on an operator error in this iteration */
	bool pristine; /* no iteration begun since open, restart or checkpoint load */
	int64_t iterations_done;
	/* DALI's epoch_idx: the loaded checkpoint's, plus each end of data the session went on
	 * past (DALI's reset after StopIteration); the iterator JSON a loaded checkpoint held */
	int64_t epoch_idx;
	char *iterator_data;
	/* mark / since (mark.c): counters at the mark, the last since's rows; completed
	 * iterations, never reset */
	struct dalic_growth *mark;
	struct dalic_growth *since;
	struct dalic_debug_growth *since_rows;
	int64_t iterations_total;

	/* the last stop */
	dalic_debug_stop_t stop;
	int stop_break;
	const char *stop_op;   /* borrowed from the graph */
	const char *stop_node; /* borrowed from the graph */
	int stop_sample;
	char *stop_source;
	char *stop_message; /* a WARNING stop's message */
	char *error;
	dalic_warnlog_t *warnings; /* what the operators warned about (the eager engine's log) */
	bool break_warnings;       /* a BREAK_WARNING breakpoint exists */

	/* breakpoints; a stop at a breakpoint is not repeated when resuming at that position */
	dalic_breakpoint_t *breaks;
	int num_breaks, cap_breaks, next_break_id;
	bool has_resume;
	int64_t resume_iteration;
	int resume_pos;
	/* dalic_debug_interrupt: set from a signal handler or another thread, consumed by the
	 * run check that honours it (dalic_debug_take_interrupt) */
	atomic_int interrupted;

	/* print() replay of debug=True scripts */
	dalic_debug_print_fn print_fn;
	void *print_user;
	bool prints_muted;
	int next_print;   /* next record to replay in this iteration */
	int *print_after; /* per record: position after which it can print (-1: at the start) */

	/* host copies of device-memory batches for reading */
	dalic_batch_t *host;
	int64_t *host_runs; /* producer run count the copy was made at, -1 none */
};

/* The most iterations one run command may go through (goto's target, continue's and
 * measure's counts): a bound a person can wait for, so a typo cannot start an endless run. */
#define DALIC_DEBUG_MAX_ITERATIONS 1000000000

/* Whether an interrupt is pending; clears it. */
bool dalic_debug_take_interrupt(dalic_debug_t *s);
/* dalic_debug_open from a graph definition (copied); for tests and the library's own use. */
int dalic_debug_open_def(const dalic_graphdef_t *def, dalic_debug_t **out);

/* Records `msg` as the session's error message (copies). */
void dalic_debug_set_error(dalic_debug_t *s, const char *msg);

/* Breakpoints (breaks.c): the breakpoint stopping before position (iteration, pos), or NULL;
 * the first condition breakpoint that holds on the outputs of node `node_index` (its data node
 * and sample go to *edge / *sample). */
dalic_breakpoint_t *dalic_debug_break_before(dalic_debug_t *s);
dalic_breakpoint_t *dalic_debug_break_after(dalic_debug_t *s, int node_index,
                                            const dalic_edge_t **edge, int *sample);
void dalic_debug_breaks_free(dalic_debug_t *s);

/* Print replay (prints.c). */
int dalic_debug_prints_init(dalic_debug_t *s);
/* Replays the records whose values are ready at the current position; fails with the
 * error of a print the script renders. */
int dalic_debug_prints_fire(dalic_debug_t *s);
/* Frees the mark and the last since (mark.c). */
void dalic_debug_mark_free(dalic_debug_t *s);

/* The batch of an edge, readable on the host (copied from device memory when needed). */
const dalic_batch_t *dalic_debug_edge_batch(dalic_debug_t *s, const dalic_edge_t *edge);
/* Finds a data node by name (see dalic_debug_node). */
const dalic_edge_t *dalic_debug_find_edge(const dalic_debug_t *s, const char *name);

/* Statistics of one sample (stats.c); `std` only when need_std. */
void dalic_debug_sample_stats(const dalic_batch_t *b, int sample, bool need_std,
                              dalic_debug_stats_t *out);

/* Conditions (cond.c). */
int dalic_debug_cond_parse(const char *text, dalic_debug_cond_t **out);
void dalic_debug_cond_free(dalic_debug_cond_t *c);
/* The data node the condition is restricted to ("NODE: ..."), or NULL for every node. */
const char *dalic_debug_cond_node(const dalic_debug_cond_t *c);
/* First sample of b satisfying c, or -1. */
int dalic_debug_cond_eval(const dalic_debug_cond_t *c, const dalic_batch_t *b);

#endif
