/*
 * Shared helpers of the executor tests (tests/unit/test_exec_*.c): a counting source
 * callback, the sleep-operator pipeline, a thread-safe observer log (engine/observer.h) and
 * polling with a deadline (tests never sleep a fixed time to "let things settle" without
 * also checking the result).
 */
#ifndef DALIC_TESTS_TESTLIB_EXEC_H
#define DALIC_TESTS_TESTLIB_EXEC_H

#include "tests/testlib.h"

#include "engine/observer.h"

#include <pthread.h>
#include <stdatomic.h>

/* A source of INT64 scalars: sample i of callback iteration k holds k * 100 + i. */
typedef struct tl_seq_source {
	int batch;
	int end_at;       /* return DALIC_EEND at this callback iteration (-1: never) */
	int fail_at;      /* return DALIC_EIO at this callback iteration (-1: never) */
	int max_sleep_us; /* random sleep before producing (0: none) */
	atomic_int calls;
	unsigned seed;
} tl_seq_source_t;

void tl_seq_source_init(tl_seq_source_t *s, int batch);
int tl_seq_source_fn(void *user, int64_t iteration, dalic_feed_t *feed);

/* src = external_source("src"); y = _test.sleep(src, device) [+ gpu]; output y.
 * `device` "cpu" or "gpu" (the gpu variant has cpu, mixed and gpu stages). Extra int
 * arguments of the sleep op as name/value pairs ended by NULL. Built. */
dalic_pipeline_t *tl_sleep_pipeline(const dalic_pipeline_params_t *params, const char *device,
                                    tl_seq_source_t *src, ...);

/* Asserts output 0 is INT64 scalars with sample i == k * 100 + i. */
void tl_expect_seq_values(dalic_pipeline_t *p, int64_t k, int batch, const char *mode);

/* Observer log: stage runs and ready iterations, in the order they happened. */
typedef struct tl_log {
	pthread_mutex_t mu;
	int n;
	struct {
		int stage; /* DALIC_STAGE_*, or -1 for iteration_ready */
		int64_t iteration;
	} ev[4096];
	atomic_int stage_runs[3];
	atomic_int waits[4];
	atomic_int max_cpu_level, max_gpu_level;
	atomic_int chunks, node_runs, bad_thread;
	int num_threads;
} tl_log_t;

void tl_log_init(tl_log_t *l, int num_threads);
/* Hooks that record into *l (user = l). */
dalic_observer_t tl_log_observer(tl_log_t *l);
/* Polls until stage `stage` ran `n` times (or 5 s pass); returns the count seen. */
int tl_wait_stage_runs(tl_log_t *l, int stage, int n);

#endif
