/*
 * Debug mode's own cost: the same definition (same seed, same external-source data) run for
 * N iterations by a fresh eager executor with inspection idle, and by the full engine. Each is
 * timed twice, alternating, and the faster run of each counts, so neither side is charged for
 * cold caches or page faults that the other then enjoys. Creation, graph build and the first
 * `warm` iterations are not timed: `warm` is the prefetch depth, so that the full engine's
 * prefetching has filled its queue and, like the eager executor, computes exactly one
 * iteration per timed run.
 */
#include "debugmode/session.h"

#include "engine/clock.h"
#include "engine/error.h"
#include "engine/pipeline.h"

#include <stdlib.h>

static double perf_now_s(void)
{
	return (double)dalic_clock_ns() * 1e-9;
}

/* An interrupt ends a measurement: its numbers would be of an arbitrary run length. */
static int perf_interrupted(void)
{
	return dalic_fail(DALIC_ESTATE, "interrupted");
}

static int perf_warm_iterations(const dalic_debug_t *s)
{
	int depth = s->def->params.prefetch_cpu;
	return depth > 0 ? depth : 1;
}

static int perf_time_eager(dalic_debug_t *s, int64_t iterations, double *secs, int64_t *done)
{
	dalic_eager_t *e;
	int rc = dalic_eager_create(s->def, s->logs, s->num_logs, &e);
	if (rc)
		return rc;
	int64_t warm = perf_warm_iterations(s), it = 0;
	double t0 = 0;
	for (; !rc && it < warm + iterations; it++) {
		if (it == warm)
			t0 = perf_now_s();
		if (dalic_debug_take_interrupt(s))
			rc = perf_interrupted();
		if (!rc)
			rc = dalic_eager_begin(e, it);
		for (int k = 0; !rc && k < e->num_ops; k++) {
			int sample;
			rc = dalic_eager_run_op(e, k, it, &sample);
		}
	}
	*secs = t0 > 0 ? perf_now_s() - t0 : 0;
	if (rc == DALIC_EEND) {
		rc = DALIC_OK;
		it--;
	}
	*done = it > warm ? it - warm : 0;
	dalic_eager_destroy(e);
	return rc;
}

static int perf_time_full(dalic_debug_t *s, int64_t iterations, double *secs, int64_t *done)
{
	dalic_graphdef_t *def = dalic_graphdef_clone(s->def);
	if (!def)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	def->debug = false;
	dalic_pipeline_t *p;
	int rc = dalic_pipeline_from_graphdef(def, &p);
	if (rc)
		return rc;
	dalic_source_reader_t *readers = calloc((size_t)s->num_logs + 1, sizeof *readers);
	if (!readers)
		rc = dalic_fail(DALIC_ENOMEM, "out of memory");
	if (!rc)
		rc = dalic_pipeline_build(p);
	for (int i = 0; !rc && i < s->num_logs; i++) {
		readers[i].log = &s->logs[i];
		/* sources pruned from the graph have no queue: nothing to feed */
		if (dalic_graph_find_node(dalic_pipeline_graph(p), s->logs[i].name))
			rc = dalic_pipeline_set_source(p, s->logs[i].name,
			                               dalic_debug_source_log_callback, &readers[i]);
	}
	int64_t warm = perf_warm_iterations(s), it = 0;
	double t0 = 0;
	for (; !rc && it < warm + iterations; it++) {
		if (it == warm)
			t0 = perf_now_s();
		rc = dalic_debug_take_interrupt(s) ? perf_interrupted() : dalic_pipeline_run(p);
	}
	*secs = t0 > 0 ? perf_now_s() - t0 : 0;
	if (rc == DALIC_EEND) {
		rc = DALIC_OK;
		it--;
	}
	*done = it > warm ? it - warm : 0;
	dalic_pipeline_destroy(p);
	free(readers);
	return rc;
}

static int perf_measure(dalic_debug_t *s, int64_t iterations, dalic_debug_perf_t *out)
{
	if (iterations <= 0 || iterations > DALIC_DEBUG_MAX_ITERATIONS)
		return dalic_fail(DALIC_EINVAL, "measure: %lld iterations: give 1 to %d",
		                  (long long)iterations, DALIC_DEBUG_MAX_ITERATIONS);
	double best_full = 0, best_eager = 0;
	int64_t n_full = 0, n_eager = 0;
	for (int round = 0; round < 2; round++) {
		double secs = 0;
		int64_t done = 0;
		int rc = perf_time_full(s, iterations, &secs, &done);
		if (rc)
			return dalic_fail_wrap(rc, "measure: full engine");
		if (!round || secs < best_full)
			best_full = secs;
		n_full = done;
		rc = perf_time_eager(s, iterations, &secs, &done);
		if (rc)
			return dalic_fail_wrap(rc, "measure: debug mode");
		if (!round || secs < best_eager)
			best_eager = secs;
		n_eager = done;
	}
	if (n_full != n_eager)
		return dalic_fail(DALIC_ESTATE,
		                  "measure: the full engine ran %lld iterations, debug mode %lld",
		                  (long long)n_full, (long long)n_eager);
	*out = (dalic_debug_perf_t){
	    .iterations = n_eager,
	    .debug_seconds = best_eager,
	    .full_seconds = best_full,
	    .slowdown = best_full > 0 ? best_eager / best_full : 0,
	};
	return DALIC_OK;
}

int dalic_debug_measure(dalic_debug_t *s, int64_t iterations, dalic_debug_perf_t *out)
{
	int rc = perf_measure(s, iterations, out);
	dalic_debug_take_interrupt(s); /* one that came as it finished goes with it */
	return rc;
}
