/*
 * The eager executor behind debug mode (private to debugmode/). It builds the graph of a
 * definition and runs one operator at a time, in definition order, iteration by iteration.
 * It owns no node code: nodes are created, bound and run by the full engine's node path
 * (dalic_exec_node_*, executor.h), so debug mode runs the same kernels with the same setup,
 * buffer placement, per-sample pool, empty-input skip and error attribution. Every operator
 * output has exactly one buffer, overwritten when the operator runs again, so after an
 * operator ran its outputs hold the current iteration's data until its next run.
 *
 * External sources get an input queue whose callback replays the batches fed to the session
 * (kept for restarts) and otherwise asks the user's source callback; running out of both is end
 * of data.
 */
#ifndef DALIC_DEBUGMODE_EAGER_H
#define DALIC_DEBUGMODE_EAGER_H

#include "dalic_debug.h"
#include "engine/executor.h"
#include "engine/feed.h"
#include "engine/graph.h"

/* One batch fed with dalic_debug_feed_input, packed as given. */
typedef struct dalic_fed_batch {
	dalic_dtype_t dtype;
	int ndim, batch;
	int64_t *shapes;
	void *data;
	size_t bytes;
	char *layout;
	char **sources; /* batch names (entries may be NULL), or NULL */
} dalic_fed_batch_t;

/* What an external source produces, shared by the eager executors and the full engine that
 * dalic_debug_measure compares against. */
typedef struct dalic_source_log {
	char *name;
	dalic_fed_batch_t *fed;
	int num_fed, cap_fed;
	dalic_source_fn fn;
	void *user;
	bool record; /* fn's batches join the log (a script's Python source cannot be asked
	              * twice for one iteration: restart replays what it gave) */
} dalic_source_log_t;

/* One consumer's position in a log: each queue (eager or full engine) reads the fed batches in
 * order from its own cursor. */
typedef struct dalic_source_reader {
	dalic_source_log_t *log;
	int cursor;
} dalic_source_reader_t;

/* The source callback installed on every queue: the next fed batch, else the user's callback,
 * else end of data. `user` is a dalic_source_reader_t. */
int dalic_debug_source_log_callback(void *user, int64_t iteration, dalic_feed_t *feed);
int dalic_debug_source_log_add(dalic_source_log_t *log, dalic_dtype_t dtype, int ndim, int batch,
                         const int64_t *shapes, const void *data, const char *layout,
                         const char *const *sources);
void dalic_debug_source_log_free(dalic_source_log_t *log);

typedef struct dalic_eager_node {
	/* the engine's node (executor.h, in dalic_eager_t.xnodes): context, one buffer per
	 * output, bound workspace; created and run by the engine's own functions */
	dalic_exec_node_t *x;
	dalic_feed_queue_t *feed; /* input operators only */
	dalic_source_reader_t reader;
	/* names for dalic_debug_op_info, borrowed from the graph */
	const char **input_names, **input_args, **output_names;
	int64_t last_iteration, total_ns, runs;
	int64_t *growths; /* per output: buffer growths (debug mode's mark / since) */
} dalic_eager_node_t;

typedef struct dalic_eager {
	dalic_graphdef_t *def; /* owned copy */
	dalic_graph_t *g;
	dalic_eager_node_t *nodes; /* parallel to g->nodes */
	dalic_exec_node_t *xnodes; /* parallel to g->nodes: the engine's nodes */
	int *order;                /* execution order: indices into nodes */
	int num_ops;
	dalic_pool_t *pool; /* num_threads workers, as the full engine's */
	int batch; /* current iteration's batch size (0: not begun) */
	dalic_warnlog_t *warnings; /* where the operators' warnings go (borrowed; NULL: dropped) */
	dalic_observer_t obs;      /* counts buffer growths into nodes[].growths */
} dalic_eager_t;

/* Builds from `def` (copied) and creates the operators. `logs`/`num_logs`: the source logs
 * the session keeps, matched to input operators by instance name (borrowed; must outlive the
 * executor). New: free with dalic_eager_destroy. */
int dalic_eager_create(const dalic_graphdef_t *def, dalic_source_log_t *logs, int num_logs,
                       dalic_eager_t **out);
void dalic_eager_destroy(dalic_eager_t *e);
/* Starts `iteration`: asks every input for its batch (all must agree on the size). DALIC_EEND
 * at the end of data. */
int dalic_eager_begin(dalic_eager_t *e, int64_t iteration);
/* Runs the k-th operator of the execution order for `iteration`. On failure *failed_sample
 * gets the failing sample, or -1 when the failure is not tied to one. */
int dalic_eager_run_op(dalic_eager_t *e, int k, int64_t iteration, int *failed_sample);
/* Back to the state right after creation: operators re-seeded and reset, input queues
 * emptied (the logs are replayed from iteration 0), batch tags cleared. */
int dalic_eager_reset(dalic_eager_t *e);
/* Clears an input's end-of-data mark after more data was fed. */
void dalic_eager_resume_inputs(dalic_eager_t *e);
/* Node index of an op instance, or -1. */
int dalic_eager_find_node(const dalic_eager_t *e, const char *inst);

/* Output o of graph node i: the one batch it writes every run. */
static inline dalic_batch_t *dalic_eager_output(const dalic_eager_t *e, int i, int o)
{
	return &e->xnodes[i].bufs[o][0];
}

#endif
