/*
 * The executor's private state, shared by its files:
 *   executor.c    creation (buffers, stages, queues, pool), destruction, accessors
 *   exec_node.c   running one node and one stage: setup, allocation, per-sample work on the
 *                 pool, observer hooks, error context
 *   exec_queue.c  slot queues (uniform / separated policy), the ready and in-use FIFOs,
 *                 failure bookkeeping, schedule / share / release / reset
 *   exec_async.c  the stage threads of the async modes
 *   exec_feed.c   external-source inputs: callbacks at schedule time, batch sizes
 *   exec_gpu.c    the device path: stage streams, kernel launches between events
 *
 * Locking: `mu` guards everything under "queue state" below. Stage threads and the caller
 * take it only to pick or hand over work; nodes run unlocked. Node buffers are owned by the
 * slot that indexes them, and a slot belongs to exactly one stage (or the caller) at a time,
 * so buffer contents need no lock: the mutex hand-over orders the writes before the reads.
 */
#ifndef DALIC_ENGINE_EXEC_INTERNAL_H
#define DALIC_ENGINE_EXEC_INTERNAL_H

#include "engine/executor.h"
#include "engine/error.h"
#include "engine/threadpool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

enum { EXEC_QCPU = 0, EXEC_QGPU = 1, EXEC_NUM_QUEUES = 2 };

/* An iteration that has started its first stage. Moves by value between FIFOs. */
typedef struct exec_rec {
	int64_t iteration;
	int64_t t_scheduled;
	int64_t t_ready;             /* its last stage finished (observers: ready -> taken) */
	int batch;                   /* -1 until a stage with a batch size provider sets it */
	int slot[EXEC_NUM_QUEUES];   /* slots held, -1 for none */
	bool cpu_counted;            /* counted in cpu_filled (finished the cpu stage) */
} exec_rec_t;

typedef struct exec_ring {
	exec_rec_t *v;
	int head, count, cap;
} exec_ring_t;

typedef struct exec_stage {
	struct dalic_exec *exec;
	int index;         /* position among the active stages */
	int stage;         /* DALIC_STAGE_* */
	int begin, end;    /* graph->nodes[begin, end) */
	int queue;         /* slot queue indexing this stage's buffers */
	bool acquires;     /* takes a free slot of `queue` when it starts an iteration */
	exec_ring_t in;    /* iterations waiting for this stage (not used by stage 0) */
	int *feeds;        /* graph indices of input nodes in this stage (batch size providers) */
	int num_feeds;
	pthread_cond_t cv; /* work or a free slot arrived, or stop */
	bool running;      /* working on an iteration now (async) */
	pthread_t tid;
	bool thread_started;
	void *stream;      /* mixed/gpu stages with kernels: their own device stream */
} exec_stage_t;

typedef struct exec_queue {
	int depth;
	int *free;         /* FIFO ring of free slots */
	int free_head, free_count;
	int release_after; /* stage index after which slots are freed; -1: at release_outputs */
	int acquirer;      /* stage index that takes free slots */
} exec_queue_t;

typedef struct exec_pending {
	int64_t iteration, t_scheduled;
} exec_pending_t;

/* Per external-source node: what the caller thread fed since the last reset. */
typedef struct exec_feed {
	dalic_feed_queue_t *q;
	int node;
	int64_t fed;
} exec_feed_t;

struct dalic_exec {
	dalic_graph_t *g;
	dalic_exec_node_t *nodes;
	int num_nodes;
	dalic_feed_queue_t **feeds; /* per node, NULL if not an input */
	bool pipelined, async, separated;
	int max_batch;
	dalic_pool_t *pool;
	exec_stage_t stages[DALIC_NUM_STAGES]; /* active (non-empty) stages, in order */
	int num_stages;
	int stage_queue[DALIC_NUM_STAGES];     /* slot queue of each DALIC_STAGE_* */
	exec_feed_t *inputs;
	int num_inputs;
	int64_t epoch_iteration;   /* iterations scheduled since reset (callbacks see this) */
	dalic_observer_t obs;
	bool observed;
	dalic_warnlog_t *warnings; /* borrowed from the pipeline */
	bool scan;

	/* ---- queue state, guarded by mu ---- */
	pthread_mutex_t mu;
	pthread_cond_t ready_cv;    /* ready pushed, iteration dropped, idle, failure, stop */
	exec_queue_t queues[EXEC_NUM_QUEUES];
	int num_queues;             /* 1 (uniform) or 2 (separated) */
	int out_queue;              /* queue whose slots hold the outputs */
	int out_limit;              /* in-use records that block any further ready iteration */
	exec_pending_t *pending;    /* scheduled, not started: ring */
	int pending_head, pending_count, pending_cap;
	int active;                 /* started, not yet ready or dropped */
	exec_ring_t ready, in_use;
	int cpu_filled;             /* slots whose cpu stage is done and not yet free */
	int64_t next_iteration;     /* assigned at schedule */
	int64_t completed;          /* iterations that became ready */
	bool failed;
	int64_t fail_iter;
	int fail_status;
	bool stopping;
	_Atomic bool stop_flag;     /* stopping, readable without mu: stages stop between nodes */
	char fail_msg[DALIC_ERRMSG_MAX];
};

/* exec_node.c */
int dalic_exec_run_stage(dalic_exec_t *e, exec_stage_t *st, exec_rec_t *rec);

/* exec_queue.c (all with mu held unless stated) */
int dalic_exec_queues_init(dalic_exec_t *e);
void dalic_exec_queues_free(dalic_exec_t *e);
bool dalic_exec_ring_push(exec_ring_t *r, const exec_rec_t *rec);
exec_rec_t *dalic_exec_ring_front(exec_ring_t *r);
void dalic_exec_ring_pop(exec_ring_t *r);
int dalic_exec_take_slot(dalic_exec_t *e, int q);
bool dalic_exec_is_dropped(const dalic_exec_t *e, const exec_rec_t *rec);
bool dalic_exec_is_failed(const dalic_exec_t *e, const exec_rec_t *rec);
/* Starts the oldest pending iteration: a record holding a free slot of stage 0's queue. */
void dalic_exec_start_pending(dalic_exec_t *e, exec_rec_t *rec);
/* Drops a pending iteration that follows a failure. */
void dalic_exec_drop_pending(dalic_exec_t *e);
/* Drops a started iteration that follows a failure: frees its slots. */
void dalic_exec_drop(dalic_exec_t *e, exec_rec_t *rec);
/* Accounts for stage `k` having run `rec` with status `rc`; hands the record to the next
 * stage's FIFO or to `ready` (or drops it after a failure). Signals whoever waits. */
void dalic_exec_finish_stage(dalic_exec_t *e, int k, exec_rec_t *rec, int rc);

/* exec_gpu.c: a stream for every mixed and gpu stage that has a node on the device */
int dalic_exec_streams_init(dalic_exec_t *e);
void dalic_exec_streams_free(dalic_exec_t *e);

/* exec_async.c */
int dalic_exec_async_start(dalic_exec_t *e);
void dalic_exec_async_stop(dalic_exec_t *e);

/* exec_feed.c */
int dalic_exec_feeds_init(dalic_exec_t *e);
void dalic_exec_feeds_free(dalic_exec_t *e);
/* Caller thread, unlocked: makes sure every input has a batch for the next iteration,
 * calling source callbacks. DALIC_EEND at end of data; other failures are returned with
 * their message. */
int dalic_exec_feeds_prepare(dalic_exec_t *e);
/* Stage thread, unlocked: the batch size the inputs of stage `st` give this iteration
 * (checks they agree with each other and with rec->batch). */
int dalic_exec_feeds_batch(dalic_exec_t *e, exec_stage_t *st, exec_rec_t *rec);

#endif
