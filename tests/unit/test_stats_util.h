/*
 * Shared pieces of the stats tests: pipelines in each executor mode, feeding helpers and
 * lookups in snapshots. Everything asserts (Criterion) with dalic_last_error() on failure.
 */
#ifndef DALIC_TEST_STATS_UTIL_H
#define DALIC_TEST_STATS_UTIL_H

#include <criterion/criterion.h>

#include "dalic.h"
#include "dalic_stats.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct stats_mode {
	const char *name;
	bool pipelined, async, separated;
	int cpu, gpu;
} stats_mode_t;

/* The four executor modes; every stats test that can runs in all of them. */
static const stats_mode_t stats_modes[] = {
    {"simple", false, false, false, 1, 1},
    {"pipelined", true, false, false, 2, 2},
    {"async pipelined", true, true, false, 2, 2},
    {"async separated pipelined", true, true, true, 3, 2},
};
#define STATS_NUM_MODES ((int)(sizeof stats_modes / sizeof stats_modes[0]))

static inline dalic_pipeline_t *stats_pipeline(const stats_mode_t *m, int batch, bool mem_stats)
{
	dalic_pipeline_params_t p;
	dalic_pipeline_params_init(&p);
	p.batch_size = batch;
	p.num_threads = 2;
	p.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	p.seed = 7;
	p.exec_pipelined = m->pipelined;
	p.exec_async = m->async;
	p.separated_queues = m->separated;
	p.prefetch_cpu = m->cpu;
	p.prefetch_gpu = m->gpu;
	p.enable_memory_stats = mem_stats;
	dalic_pipeline_t *pipe = NULL;
	cr_assert_eq(dalic_pipeline_create(&p, &pipe), DALIC_OK, "%s: %s", m->name,
	             dalic_last_error());
	return pipe;
}

static inline dalic_op_t *stats_op(dalic_pipeline_t *p, const char *op, const char *input)
{
	dalic_op_t *o = NULL;
	cr_assert_eq(dalic_pipeline_add_op(p, op, "cpu", &o), DALIC_OK, "%s", dalic_last_error());
	if (input)
		cr_assert_eq(dalic_op_add_input(o, input, NULL), DALIC_OK, "%s",
		             dalic_last_error());
	return o;
}

static inline dalic_stats_t *stats_attach(dalic_pipeline_t *p, bool trace)
{
	dalic_stats_options_t o;
	dalic_stats_options_init(&o);
	o.trace = trace;
	dalic_stats_t *s = NULL;
	cr_assert_eq(dalic_stats_create(p, &o, &s), DALIC_OK, "%s", dalic_last_error());
	return s;
}

static inline void stats_run(dalic_pipeline_t *p, int n)
{
	for (int i = 0; i < n; i++)
		cr_assert_eq(dalic_pipeline_run(p), DALIC_OK, "iteration %d: %s", i,
		             dalic_last_error());
}

/* Waits (up to 10 s) until the iterations scheduled by `runs` run() calls have finished
 * what they can: the async executors keep prefetched iterations in flight after the last
 * run(). The first run() fills the cpu queue; outputs wait for one of the gpu (output)
 * queue's slots, one of which the caller holds. */
static inline void stats_wait_idle(dalic_stats_t *s, const stats_mode_t *m, int runs)
{
	int64_t cpu_done = runs + (m->pipelined ? m->cpu - 1 : 0);
	int64_t ready = runs + (m->pipelined ? (m->cpu < m->gpu ? m->cpu : m->gpu) - 1 : 0);
	for (int i = 0; i < 10000; i++) {
		dalic_stats_snapshot_t *snap = NULL;
		cr_assert_eq(dalic_stats_snapshot(s, &snap), DALIC_OK);
		bool idle = snap->iterations >= ready && snap->stages[0].time.count >= cpu_done;
		dalic_stats_snapshot_free(snap);
		if (idle)
			return;
		struct timespec ts = {0, 1000000};
		nanosleep(&ts, NULL);
	}
	cr_assert_fail("%s: the iterations of %d runs did not finish", m->name, runs);
}

/* Snapshot after the pipeline is gone: every iteration in flight has finished. */
static inline dalic_stats_snapshot_t *stats_finish(dalic_stats_t *s, dalic_pipeline_t *p)
{
	dalic_pipeline_destroy(p);
	dalic_stats_pipeline_destroyed(s);
	dalic_stats_snapshot_t *snap = NULL;
	cr_assert_eq(dalic_stats_snapshot(s, &snap), DALIC_OK, "%s", dalic_last_error());
	return snap;
}

static inline const dalic_stats_operator_t *stats_find(const dalic_stats_snapshot_t *snap,
                                                       const char *name)
{
	const dalic_stats_operator_t *op = dalic_stats_find_operator(snap, name);
	cr_assert(op, "operator %s not in the snapshot", name);
	return op;
}

/* The first internal operator whose name starts with `prefix`. */
static inline const dalic_stats_operator_t *stats_find_prefix(const dalic_stats_snapshot_t *snap,
                                                              const char *prefix)
{
	for (int i = 0; i < snap->num_operators; i++)
		if (!strncmp(snap->operators[i].name, prefix, strlen(prefix)))
			return &snap->operators[i];
	cr_assert_fail("no operator named %s* in the snapshot", prefix);
	return NULL;
}

#endif
