/*
 * Helpers shared by the executor tests (tests/unit/test_exec_*.c): the four executor modes,
 * a counting source callback, pipelines built through the public API, a thread-safe observer
 * log, and polling with a deadline (tests never sleep for a fixed time to "let things
 * settle" without also checking the result).
 */
#ifndef DALIC_TEST_EXEC_UTIL_H
#define DALIC_TEST_EXEC_UTIL_H

#include "dalic.h"
#include "engine/observer.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

typedef struct exec_mode {
	const char *name;
	bool pipelined, async, separated;
	int cpu, gpu;
} exec_mode_t;

/* simple, pipelined, async, separated (cpu 3 / gpu 2). */
extern const exec_mode_t test_exec_modes[4];
#define FOR_EACH_MODE(m)                                                                           \
	for (const exec_mode_t *m = test_exec_modes; m < test_exec_modes + 4; m++)

/* A source of INT64 scalars: sample i of callback iteration k holds k * 100 + i. */
typedef struct test_source {
	int batch;
	int end_at;          /* return DALIC_EEND at this callback iteration (-1: never) */
	int fail_at;         /* return DALIC_EIO at this callback iteration (-1: never) */
	int max_sleep_us;    /* random sleep before producing (0: none) */
	atomic_int calls;
	unsigned seed;
} test_source_t;

void test_source_init(test_source_t *s, int batch);
int test_source_fn(void *user, int64_t iteration, dalic_feed_t *feed);

/* Parameters for a mode: batch, threads, the mode's queue depths. */
dalic_pipeline_params_t test_params(const exec_mode_t *m, int batch, int threads);

/* src = external_source("src"); y = _test.sleep(src, device) [+ gpu]; output y.
 * `device` "cpu" or "gpu" (the gpu variant has cpu, mixed and gpu stages). Extra int
 * arguments of the sleep op as name/value pairs ended by NULL. Asserts on failure. */
dalic_pipeline_t *test_pipe_sleep(const dalic_pipeline_params_t *params, const char *device,
				  test_source_t *src, ...);

/* Asserts output 0 is INT64 scalars with sample i == k * 100 + i. */
void test_expect_source_values(dalic_pipeline_t *p, int64_t k, int batch, const char *mode);

/* Observer log: stage runs and ready iterations, in the order they happened. */
typedef struct test_log {
	pthread_mutex_t mu;
	int n;
	struct {
		int stage; /* DALIC_STAGE_*, or -1 for iteration_ready */
		int64_t iteration;
	} ev[4096];
	atomic_int stage_runs[3];
	atomic_int waits[3];
	atomic_int max_cpu_level, max_gpu_level;
	atomic_int chunks, node_runs, bad_thread;
	int num_threads;
} test_log_t;

void test_log_init(test_log_t *l, int num_threads);
/* Hooks that record into *l (user = l). */
dalic_observer_t test_log_observer(test_log_t *l);
/* Polls until stage `stage` ran `n` times (or 5 s pass); returns the count seen. */
int test_wait_stage_runs(test_log_t *l, int stage, int n);
/* Sleeps `ms` milliseconds. */
void test_sleep_ms(int ms);

#endif
