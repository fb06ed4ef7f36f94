/*
 * The executor: DALI's stage executor (docs/dali-behaviour.md §3.3). A built graph runs iteration by
 * iteration in stages cpu -> mixed -> gpu, into queue slots:
 *
 *   simple      (exec_pipelined=False)  stages run in the caller's thread, one iteration per
 *                                       schedule; intermediates have one buffer
 *   pipelined   (exec_async=False)      same thread, but data crossing stages gets one buffer
 *                                       per slot and the first schedule fills the queue
 *   async       (default)               one thread per non-empty stage; schedule only enqueues
 *   separated   (prefetch cpu/gpu sizes) async, with a cpu slot queue and a mixed+gpu slot
 *                                       queue: the cpu stage runs up to cpu_size ahead
 *
 * A slot moves free -> (stages run) -> ready -> in use (shared with the caller) -> free
 * (released). Pipeline outputs, and when pipelined data crossing stages, have one buffer per
 * slot of their stage's queue; other intermediates have one. Per-sample work of every stage
 * runs on one pool of num_threads workers. docs/executor.md tells the whole story.
 *
 * Threading: the schedule/share/release/reset family is called by one thread at a time (the
 * thread driving the pipeline); stage threads and pool workers are internal.
 */
#ifndef DALIC_ENGINE_EXECUTOR_H
#define DALIC_ENGINE_EXECUTOR_H

#include "engine/feed.h"
#include "engine/graph.h"
#include "engine/observer.h"
#include "engine/threadpool.h"
#include "engine/warnings.h"

typedef struct dalic_exec dalic_exec_t;

/* Per-node runtime state, visible to stats and debug mode. */
typedef struct dalic_exec_node {
	dalic_node_t *node;
	dalic_op_ctx_t *ctx;
	int num_outputs;
	int *nbuf;                   /* buffers per output */
	dalic_batch_t **bufs;        /* bufs[o][b] */
	dalic_mem_counter_t *mem;    /* per output, shared by its buffers */
	/* workspace arrays, reused every iteration (a node runs on one stage thread) */
	const dalic_batch_t **in;
	dalic_batch_t **out;
	const dalic_batch_t **arg_in;
	/* last run's timing (ns), for stats: the whole node, and its per-sample work */
	int64_t last_ns;
	int64_t work_ns;
	/* the order samples are handed out in, largest first (exec_node.c); grown as needed */
	int *order;
	int64_t *order_bytes;
	int order_cap;
	dalic_warn_sink_t sink; /* where the operator's warnings go (ctx->warn points here) */
	/* The GPU path (exec_gpu.c): the dispatch entry when this gpu/mixed node launches its
	 * CUDA kernel (NULL: CPU path), the events around its kernels, its descriptor scratch,
	 * and the last run's GPU time (ns, -1 when it ran no kernel). */
	const struct dalic_gpu_op *gpu;
	void *gpu_events[2];
	struct dalic_gpu_scratch *gpu_scratch;
	int64_t last_gpu_ns;
} dalic_exec_node_t;

/*
 * One node, the one path every executor takes: the full engine's stages and debug mode's
 * eager executor call these and nothing else to create, bind and run a node, so both run
 * the same kernels with the same buffers by construction (exec_node.c).
 */

/* What a node run needs besides the node: the per-sample pool, the observer hooks (NULL:
 * none), the iteration and its batch size (used by nodes without inputs). */
typedef struct dalic_exec_run {
	dalic_pool_t *pool;
	const dalic_observer_t *obs;
	int64_t iteration;
	int batch;
	dalic_warnlog_t *warnings; /* the operators' warnings log (NULL: dropped) */
	bool scan;                 /* sample errors are recorded, not failures */
	void *stream;              /* the stage's device stream (NULL: the default stream) */
	int device;                /* the pipeline's device_id (kernels run there) */
} dalic_exec_run_t;

/* Creates node n's operator context (`feed`: its input queue, NULL for non-input nodes) and
 * workspace arrays, with one buffer per output; set x->nbuf[o] before dalic_exec_node_alloc
 * for more. On failure call dalic_exec_node_free. */
int dalic_exec_node_init(dalic_exec_node_t *x, dalic_graph_t *g, dalic_node_t *n,
			 dalic_feed_queue_t *feed);
/* Creates the output buffers: x->nbuf[o] per output, in the memory DALI places them in
 * (device for mixed/gpu outputs, pinned when a cpu output feeds one, else host), presized
 * from the node's bytes_per_sample hint for `max_batch` samples. */
int dalic_exec_node_alloc(dalic_exec_node_t *x, const dalic_graph_t *g, int max_batch);
void dalic_exec_node_free(dalic_exec_node_t *x);
/* The per-sample pool of a graph: num_threads workers, pinned per set_affinity /
 * DALI_AFFINITY_MASK. */
int dalic_exec_pool_create(const dalic_graph_t *g, dalic_pool_t **out);
/* Points the node's inputs and outputs at the buffers an iteration uses: buffer
 * slot % nbuf of each output, where the slot is slot_of_stage[producer's stage] (negative,
 * or slot_of_stage NULL: buffer 0). `nodes` is indexed by graph node index. */
void dalic_exec_node_bind(dalic_exec_node_t *nodes, dalic_exec_node_t *x,
			  const int *slot_of_stage);
/* Runs the bound node for one iteration: skips it (empty outputs) when all its inputs are
 * empty, else setup, output allocation (growth reported to obs), per-sample work on the
 * pool, whole-batch work, obs hooks. A failure's message names the operator and the
 * iteration; *failed_sample (may be NULL) gets the failing sample, or -1 when the failure
 * is not tied to one. DALIC_EEND (end of data) is returned as is. */
int dalic_exec_node_run(dalic_exec_node_t *x, const dalic_exec_run_t *r, int *failed_sample);
/* The dispatch entry node n runs on the device (exec_gpu.c): a gpu/mixed node with a kernel
 * in the dispatch table, on a backend that is not emulated; NULL for the CPU path. */
const struct dalic_gpu_op *dalic_exec_gpu_op(const dalic_node_t *n);
/* A gpu/mixed node that runs its CPU kernel: no GPU, or no kernel in the dispatch table. */
bool dalic_exec_node_emulated(const dalic_node_t *n);
/* Runs the bound node's kernels on r->stream between its two events and waits for them:
 * the outputs are complete on return and *gpu_ns holds the GPU time. */
int dalic_exec_node_run_gpu(dalic_exec_node_t *x, const dalic_exec_run_t *r,
			    const dalic_ws_t *ws, int64_t *gpu_ns);
void dalic_exec_node_gpu_free(dalic_exec_node_t *x);

/* Creates the executor: operator contexts, buffers (presized by hints), slot queues, the
 * worker pool (pinned per set_affinity / DALI_AFFINITY_MASK) and, in async modes, the stage
 * threads. `feeds[i]` is the queue of input node i in graph order (NULL for non-input nodes).
 * The graph and the feed queues are borrowed and must outlive the executor. */
int dalic_exec_create(dalic_graph_t *g, dalic_feed_queue_t **feeds, dalic_exec_t **out);
/* Stops the stage threads (an operator running now finishes its batch), joins the workers,
 * frees everything. Never waits for the caller to release or for data. NULL is ignored. */
void dalic_exec_destroy(dalic_exec_t *e);

/* Schedules one iteration: runs the inputs' source callbacks on the calling thread, then
 * runs the iteration (sync modes) or enqueues it (async). DALIC_EEND when an input reported
 * end of data (nothing scheduled). Operator failures are not returned here: the failing
 * iteration comes out of dalic_exec_share() as its error, after the iterations before it,
 * and nothing after it runs. Sync modes fail with DALIC_ESTATE when no slot is free. */
int dalic_exec_schedule(dalic_exec_t *e);
/* Number of free slots of the first stage's queue. */
int dalic_exec_free_slots(const dalic_exec_t *e);
/* Takes the oldest ready iteration into use (async: waits for it). Fails without waiting
 * when nothing is scheduled or every output slot is held by the caller; returns a failed
 * iteration's error. */
int dalic_exec_share(dalic_exec_t *e);
/* Whether an iteration failed (its error came or will come out of share; nothing after it
 * runs). Thread-safe. */
bool dalic_exec_failed(dalic_exec_t *e);
/* Returns the oldest in-use iteration's slots to the queues. */
int dalic_exec_release(dalic_exec_t *e);
/* Gives back the most recently shared iteration (its outputs failed a check). */
void dalic_exec_unshare(dalic_exec_t *e);
int dalic_exec_num_in_use(const dalic_exec_t *e);
/* Output i of the most recently shared iteration (NULL if none is in use). Borrowed until
 * that iteration is released. */
const dalic_batch_t *dalic_exec_output(const dalic_exec_t *e, int i);
/* Executor iteration number of the most recently shared iteration, -1 if none is in use. */
int64_t dalic_exec_shared_iteration(const dalic_exec_t *e);
/* Before the first schedule: iterations are numbered from n (a seek moved the operators n
 * iterations on). DALIC_ESTATE once anything was scheduled. */
int dalic_exec_skip_iterations(dalic_exec_t *e, int64_t n);
/* Waits until no iteration is in flight, then drops ready and in-use iterations and starts
 * a new epoch for the inputs (callback iteration numbers restart at 0). Global iteration
 * numbering and operator state continue. Returns the error of an in-flight iteration that
 * failed while draining (the pipeline is then broken). */
int dalic_exec_reset_queues(dalic_exec_t *e);
/* The caller fed one batch to input queue `q` (dalic_pipeline_feed_input). */
void dalic_exec_note_fed(dalic_exec_t *e, const dalic_feed_queue_t *q);
/* Installs observer hooks (copied; NULL removes). Call while no iteration runs. */
void dalic_exec_set_observer(dalic_exec_t *e, const dalic_observer_t *obs);
/* Where the operators' warnings go (borrowed; must outlive the executor), and whether sample
 * errors are recorded there instead of failing (a scan). Only while no iteration is in
 * flight. */
void dalic_exec_set_warnings(dalic_exec_t *e, dalic_warnlog_t *log, bool scan);

/* Read access for stats / debug mode. */
int dalic_exec_num_nodes(const dalic_exec_t *e);
dalic_exec_node_t *dalic_exec_node(dalic_exec_t *e, int i);
/* Iterations scheduled so far (all epochs). */
int64_t dalic_exec_iterations(const dalic_exec_t *e);
/* Queue depth: the uniform depth, or the cpu size when separated. */
int dalic_exec_depth(const dalic_exec_t *e);
/* Depth of queue DALIC_QUEUE_CPU / DALIC_QUEUE_GPU (equal unless separated). */
int dalic_exec_queue_depth(const dalic_exec_t *e, int queue);
/* "simple", "pipelined", "async pipelined" or "async separated pipelined". Static. */
const char *dalic_exec_mode(const dalic_exec_t *e);
/* Per-sample worker threads. */
int dalic_exec_num_threads(const dalic_exec_t *e);

#endif
