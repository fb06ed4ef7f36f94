/*
 * The per-sample thread pool: `num_threads` workers, each with a fixed index in
 * [0, num_threads) that kernels receive as run_sample's `thread` (so per-thread scratch in an
 * operator's state is safe). Several stage threads may submit at once; a job is a range of
 * items cut into chunks, and workers take chunks from the oldest job first.
 *
 * libvips threadpool discipline: picking work is serialized (one mutex, held only to take a
 * chunk or to account for one), doing it is parallel, and nothing is allocated once the pool
 * runs — a job lives on the submitter's stack. The submitter helps with its own job under
 * the index of an idle worker it borrows (that worker sleeps meanwhile), so an index is never
 * in use by two threads at once; with pinned workers it only waits.
 *
 * A failing item cancels the chunks of its job not yet handed out; the job reports the
 * failure of the lowest failing item, with its message, on the submitting thread.
 */
#ifndef DALIC_ENGINE_THREADPOOL_H
#define DALIC_ENGINE_THREADPOOL_H

#include "engine/error.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct dalic_pool dalic_pool_t;

/* Runs one item on worker `thread`; returns DALIC_OK or a status with dalic_fail's message. */
typedef int (*dalic_pool_item_fn)(void *arg, int item, int thread);
/* Called on the worker after each chunk it ran: items [first, first+count), CLOCK_MONOTONIC
 * ns, and the CPU time the running thread spent on them. Only for chunks that succeeded. */
typedef void (*dalic_pool_chunk_fn)(void *arg, int thread, int first, int count, int64_t t0,
				    int64_t t1, int64_t cpu_ns);

typedef struct dalic_pool_job {
	dalic_pool_item_fn fn;
	dalic_pool_chunk_fn chunk_done; /* optional */
	void *arg;
	int count;
	/* Expected to be too short to share: when the submitter can borrow an index it runs
	 * the whole job itself and wakes nobody (a wake-up costs more than such a job). */
	bool solo;
	/* Items slow enough that taking them one at a time costs nothing (a lock per item):
	 * chunks of one, so the threads finish together (8-item chunks of millisecond items
	 * leave one thread idle at the end for up to a chunk's time). */
	bool single;
	/* Optional: the order to run the items in, a permutation of [0, count) (item order[k] is
	 * handed out k-th, one at a time; fn, chunk_done and failures see the item itself). The
	 * executor puts the largest samples first so no core idles at the batch's end. A failure
	 * then cancels nothing, so the lowest failing item is still the one reported. */
	const int *order;
	/* private to the pool */
	int next, done, chunk;
	int status, failed_item;
	struct dalic_pool_job *link;
	char error[DALIC_ERRMSG_MAX];
} dalic_pool_job_t;

/* Starts `num_threads` workers; worker i pins itself to cpus[i] when cpus is given and
 * cpus[i] >= 0 (see affinity.h). Fails if a worker cannot start or pin. New: free with
 * dalic_pool_destroy. */
int dalic_pool_create(int num_threads, const int *cpus, dalic_pool_t **out);
/* Stops and joins the workers. No job may be running. NULL is ignored. */
void dalic_pool_destroy(dalic_pool_t *p);
/* Runs items [0, job->count) of `job` (fn, arg, count and chunk_done set by the caller) and
 * waits for all of them. Returns DALIC_OK, or the failing item's status with its message set
 * on the calling thread. Thread-safe. */
int dalic_pool_run(dalic_pool_t *p, dalic_pool_job_t *job);
int dalic_pool_size(const dalic_pool_t *p);

/* pthread_create for the engine's own threads (workers, stage threads): they start with the
 * terminal and job-control signals blocked, so SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGWINCH
 * reach the application's threads and their handlers never race with engine work. Returns
 * pthread_create's result. */
int dalic_pool_thread_create(pthread_t *tid, void *(*fn)(void *), void *arg);

#endif
