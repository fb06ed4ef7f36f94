/*
 * Observer hooks: how stats (and the TUI through stats) watch the executor without the
 * executor knowing about them. Every executor mode calls these; all are optional. Hooks run
 * on executor threads (stage threads and, for work_chunk, pool workers), possibly
 * concurrently for different stages, so implementations must be thread-safe and cheap: they
 * record numbers, never block. Times are CLOCK_MONOTONIC nanoseconds.
 */
#ifndef DALIC_ENGINE_OBSERVER_H
#define DALIC_ENGINE_OBSERVER_H

#include "engine/graph.h"

enum {
	DALIC_WAIT_CONSUMER = 0,  /* the application waited for a ready iteration (input-bound) */
	DALIC_WAIT_FREE_SLOT = 1, /* a stage waited for a free queue slot (consumer-bound) */
	DALIC_WAIT_INPUT = 2,     /* a stage waited for the previous stage's output */
	DALIC_WAIT_READY = 3,     /* a ready iteration waited for the consumer to take it */
};

enum { DALIC_QUEUE_CPU = 0, DALIC_QUEUE_GPU = 1 }; /* queues: cpu stage, mixed+gpu stages */

typedef struct dalic_observer {
	void *user;
	/* A node ran for one iteration (setup + allocation + run), on its stage's thread;
	 * cpu_ns: that thread's CPU time for it, less the chunks it ran itself (work_chunk
	 * reports those), so a node's CPU time is cpu_ns plus its chunks' cpu_ns. */
	void (*node_run)(void *user, const dalic_node_t *node, int64_t iteration, int batch,
			 int64_t t_start, int64_t t_end, int64_t cpu_ns);
	/* A node ran its kernels on the device (exec_gpu.c): gpu_ns is the time between the
	 * events recorded before and after them on its stage's stream. After node_run. */
	void (*node_gpu)(void *user, const dalic_node_t *node, int64_t iteration, int64_t gpu_ns);
	/* A pool worker ran samples [first, first+count) of a node; cpu_ns: the CPU time of the
	 * thread that ran them (CLOCK_THREAD_CPUTIME_ID around the chunk). */
	void (*work_chunk)(void *user, const dalic_node_t *node, int64_t iteration, int thread,
			   int first, int count, int64_t t_start, int64_t t_end, int64_t cpu_ns);
	/* A stage finished an iteration. */
	void (*stage_run)(void *user, int stage, int64_t iteration, int64_t t_start,
			  int64_t t_end);
	/* An iteration became ready (all stages done). */
	void (*iteration_ready)(void *user, int64_t iteration, int64_t t_scheduled, int64_t t_ready);
	/* Output i of node after its run: sizes for executor_statistics. */
	void (*output_memory)(void *user, const dalic_node_t *node, int output,
			      const dalic_batch_t *batch, int64_t iteration);
	/* An output buffer grew; `sample` is the largest sample of the batch, `source` its file. */
	void (*buffer_growth)(void *user, const dalic_node_t *node, int output, int64_t iteration,
			      int sample, const char *source, size_t old_capacity,
			      size_t new_capacity);
	/* Occupancy of a prefetch queue (ready + in use) after it changed. */
	void (*queue_level)(void *user, int queue, int occupancy, int depth, int64_t t);
	/* Somebody waited. */
	void (*wait)(void *user, int kind, int64_t t_start, int64_t t_end);
	/* An operator reported a data-quality warning (or, in a scan, a refused sample) for a
	 * sample; `w`'s strings are borrowed for the call. Called from pool workers. */
	void (*warning)(void *user, const dalic_node_t *node, const dalic_warning_t *w);
	/* Spans for live timelines (NVTX): a node / stage starts, and ends with `status`
	 * (DALIC_OK or the error), always paired on the same thread, failures included. */
	void (*node_begin)(void *user, const dalic_node_t *node, int64_t iteration);
	void (*node_end)(void *user, const dalic_node_t *node, int64_t iteration, int status);
	void (*stage_begin)(void *user, int stage, int64_t iteration);
	void (*stage_end)(void *user, int stage, int64_t iteration, int status);
} dalic_observer_t;

#endif
