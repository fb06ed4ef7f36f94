/*
 * The executor: runs a built graph iteration by iteration in stages cpu -> mixed -> gpu,
 * into queue slots (DALI's UniformQueuePolicy). A slot moves free -> (stages run) -> ready
 * -> in use (shared with the caller) -> free (released). Pipeline outputs and, when
 * pipelined, data crossing stages have one buffer per slot; other intermediates have one.
 *
 * This file's interface is what the pipeline object drives; the synchronous modes (simple,
 * pipelined) run stages in the calling thread.
 */
#ifndef DALIC_ENGINE_EXECUTOR_H
#define DALIC_ENGINE_EXECUTOR_H

#include "engine/feed.h"
#include "engine/graph.h"
#include "engine/observer.h"

typedef struct dalic_exec dalic_exec_t;

/* Per-node runtime state, visible to stats and debug mode. */
typedef struct dalic_exec_node {
	dalic_node_t *node;
	dalic_op_ctx_t *ctx;
	int num_outputs;
	int *nbuf;                   /* buffers per output */
	dalic_batch_t **bufs;        /* bufs[o][b] */
	dalic_mem_counter_t *mem;    /* per output, shared by its buffers */
	/* workspace arrays, reused every iteration */
	const dalic_batch_t **in;
	dalic_batch_t **out;
	const dalic_batch_t **arg_in;
	/* last run's timing (ns), for stats */
	int64_t last_ns;
} dalic_exec_node_t;

/* Creates the executor: operator contexts, buffers (presized by hints), input queues.
 * `feeds[i]` is the queue of input node i in graph order (NULL for non-input nodes).
 * The graph is borrowed and must outlive the executor. */
int dalic_exec_create(dalic_graph_t *g, dalic_feed_queue_t **feeds, dalic_exec_t **out);
void dalic_exec_destroy(dalic_exec_t *e);

/* Runs (sync) one iteration into a free slot and marks it ready. DALIC_EEND when an input
 * reported end of data (nothing scheduled). Operator failures are not returned here: the
 * slot is marked failed and the error comes out of dalic_exec_share(). */
int dalic_exec_schedule(dalic_exec_t *e);
/* Number of free slots. */
int dalic_exec_free_slots(const dalic_exec_t *e);
/* Takes the oldest ready slot into use; its output batches via dalic_exec_output(). */
int dalic_exec_share(dalic_exec_t *e);
/* Returns the oldest in-use slot to the free list. */
int dalic_exec_release(dalic_exec_t *e);
int dalic_exec_num_in_use(const dalic_exec_t *e);
/* Output i of the oldest in-use slot. */
const dalic_batch_t *dalic_exec_output(const dalic_exec_t *e, int i);
/* Drops ready / in-use slots (iteration numbering and operator state continue). */
void dalic_exec_reset_queues(dalic_exec_t *e);
/* Installs observer hooks (copied; NULL removes). Call while no iteration runs. */
void dalic_exec_set_observer(dalic_exec_t *e, const dalic_observer_t *obs);
/* Read access for stats / debug mode. */
int dalic_exec_num_nodes(const dalic_exec_t *e);
dalic_exec_node_t *dalic_exec_node(dalic_exec_t *e, int i);
int64_t dalic_exec_iterations(const dalic_exec_t *e);
int dalic_exec_depth(const dalic_exec_t *e);

#endif
