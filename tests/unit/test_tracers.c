/*
 * Several observers at once (engine/observer_mux.h) and tracers chosen by name
 * (dalic_tracers_attach, DALIC_TRACERS): two collectors on one pipeline both count every
 * iteration, in every executor mode; node and stage spans pair up, failures included; an
 * unknown tracer name is refused naming it; "trace" writes its Chrome trace at destroy;
 * "nvtx" runs beside "stats" where the CUDA toolkit was found and is refused otherwise.
 */
#include "tests/testlib.h"

#include "engine/pipeline.h"

#include <cjson/cJSON.h>
#include <stdatomic.h>
#include <stdlib.h>

TestSuite(tracers, .timeout = 60);

/* coin -> cast("wide"), batch 8: two operators, one CPU stage */
static dalic_pipeline_t *tracers_pipeline(const tl_mode_t *m)
{
	dalic_pipeline_t *p = tl_stats_pipeline(m, 8, false);
	dalic_op_t *coin = tl_stats_op(p, "random.coin_flip", NULL);
	ASSERT_OK(dalic_op_set_name(coin, "coin"));
	dalic_op_t *cast = tl_stats_op(p, "cast", "coin");
	ASSERT_OK(dalic_op_set_name(cast, "wide"));
	ASSERT_OK(dalic_op_set_int(cast, "dtype", DALIC_FLOAT64));
	ASSERT_OK(dalic_pipeline_add_output(p, "wide", NULL));
	return p;
}

Test(tracers, two_collectors_both_see_every_iteration)
{
	TL_FOR_EACH_MODE(m)
	{
		dalic_pipeline_t *p = tracers_pipeline(m);
		dalic_stats_t *a = tl_stats_attach(p, false);
		dalic_stats_t *b = tl_stats_attach(p, true);
		tl_stats_run(p, 5);
		dalic_pipeline_destroy(p);
		dalic_stats_pipeline_destroyed(a);
		dalic_stats_pipeline_destroyed(b);
		dalic_stats_t *both[2] = {a, b};
		for (int k = 0; k < 2; k++) {
			dalic_stats_snapshot_t *snap = NULL;
			ASSERT_OK(dalic_stats_snapshot(both[k], &snap));
			/* the async modes finish the prefetched iterations at destroy */
			cr_expect(snap->iterations >= 5, "%s, collector %d: %lld iterations",
				  m->name, k, (long long)snap->iterations);
			cr_expect_eq(snap->samples, snap->iterations * 8, "%s", m->name);
			const dalic_stats_operator_t *wide = dalic_stats_find_operator(snap, "wide");
			cr_assert(wide, "%s", m->name);
			cr_expect_eq(wide->time.count, snap->iterations, "%s", m->name);
			dalic_stats_snapshot_free(snap);
			dalic_stats_destroy(both[k]);
		}
	}
}

typedef struct tracers_spans {
	atomic_int node_begin, node_end, stage_begin, stage_end, node_run, failed_ends;
} tracers_spans_t;

static void tracers_on_node_begin(void *u, const dalic_node_t *n, int64_t it)
{
	atomic_fetch_add(&((tracers_spans_t *)u)->node_begin, 1);
}

static void tracers_on_node_end(void *u, const dalic_node_t *n, int64_t it, int status)
{
	atomic_fetch_add(&((tracers_spans_t *)u)->node_end, 1);
	if (status)
		atomic_fetch_add(&((tracers_spans_t *)u)->failed_ends, 1);
}

static void tracers_on_stage_begin(void *u, int stage, int64_t it)
{
	atomic_fetch_add(&((tracers_spans_t *)u)->stage_begin, 1);
}

static void tracers_on_stage_end(void *u, int stage, int64_t it, int status)
{
	atomic_fetch_add(&((tracers_spans_t *)u)->stage_end, 1);
}

static void tracers_on_node_run(void *u, const dalic_node_t *n, int64_t it, int batch,
				int64_t t0, int64_t t1, int64_t cpu_ns)
{
	atomic_fetch_add(&((tracers_spans_t *)u)->node_run, 1);
}

static dalic_observer_t tracers_span_observer(tracers_spans_t *c)
{
	return (dalic_observer_t){.user = c,
				  .node_begin = tracers_on_node_begin,
				  .node_end = tracers_on_node_end,
				  .stage_begin = tracers_on_stage_begin,
				  .stage_end = tracers_on_stage_end,
				  .node_run = tracers_on_node_run};
}

Test(tracers, spans_pair_up_for_every_observer)
{
	const tl_mode_t *m = &tl_modes[0]; /* simple: exactly the iterations run */
	dalic_pipeline_t *p = tracers_pipeline(m);
	tracers_spans_t one = {0}, two = {0};
	dalic_observer_t o1 = tracers_span_observer(&one), o2 = tracers_span_observer(&two);
	ASSERT_OK(dalic_pipeline_add_observer(p, &o1));
	dalic_stats_t *s = tl_stats_attach(p, false); /* a third, in the middle */
	ASSERT_OK(dalic_pipeline_add_observer(p, &o2));
	tl_stats_run(p, 4);
	tracers_spans_t *both[2] = {&one, &two};
	for (int k = 0; k < 2; k++) {
		/* 3 nodes (coin, wide, the output's __MakeContiguous) x 4 iterations */
		cr_expect_eq(atomic_load(&both[k]->node_begin), 12, "observer %d", k);
		cr_expect_eq(atomic_load(&both[k]->node_end), 12, "observer %d", k);
		cr_expect_eq(atomic_load(&both[k]->node_run), 12, "observer %d", k);
		cr_expect_eq(atomic_load(&both[k]->stage_begin), 4, "observer %d", k);
		cr_expect_eq(atomic_load(&both[k]->stage_end), 4, "observer %d", k);
	}
	/* removing one leaves the others running */
	dalic_pipeline_remove_observer(p, &one);
	tl_stats_run(p, 1);
	cr_expect_eq(atomic_load(&one.node_begin), 12);
	cr_expect_eq(atomic_load(&two.node_begin), 15);
	dalic_stats_snapshot_t *snap = NULL;
	ASSERT_OK(dalic_stats_snapshot(s, &snap));
	cr_expect_eq(snap->iterations, 5);
	cr_expect_eq(snap->num_operators, 3, "coin, wide and the output's copy");
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s); /* synchronous executor, between runs: allowed */
	tl_stats_run(p, 1);
	cr_expect_eq(atomic_load(&two.node_begin), 18);
	dalic_pipeline_destroy(p);
}

Test(tracers, a_failing_node_still_ends_its_span)
{
	dalic_pipeline_t *p = tl_stats_pipeline(&tl_modes[0], 2, false);
	dalic_op_t *src = NULL;
	ASSERT_OK(dalic_pipeline_add_op(p, "ExternalSource", "cpu", &src));
	ASSERT_OK(dalic_op_set_name(src, "in"));
	dalic_op_t *r = tl_stats_op(p, "Reshape", "in");
	ASSERT_OK(dalic_op_set_name(r, "r"));
	int64_t shape[] = {7};
	ASSERT_OK(dalic_op_set_ints(r, "shape", 1, shape));
	ASSERT_OK(dalic_pipeline_add_output(p, "r", NULL));
	tracers_spans_t c = {0};
	dalic_observer_t o = tracers_span_observer(&c);
	ASSERT_OK(dalic_pipeline_add_observer(p, &o));
	tl_feed(p, "in", DALIC_UINT8, 1, 2, (int64_t[]){3, 3}, (uint8_t[6]){0}, NULL);
	cr_expect_neq(dalic_pipeline_run(p), DALIC_OK, "3 elements cannot become 7");
	cr_expect_eq(atomic_load(&c.node_begin), atomic_load(&c.node_end));
	cr_expect_eq(atomic_load(&c.failed_ends), 1);
	cr_expect_eq(atomic_load(&c.stage_begin), atomic_load(&c.stage_end));
	dalic_pipeline_destroy(p);
}

Test(tracers, unknown_names_are_refused_naming_them)
{
	dalic_pipeline_t *p = tracers_pipeline(&tl_modes[0]);
	EXPECT_STATUS(dalic_tracers_attach(p, "stats;bogus"), DALIC_EINVAL);
	EXPECT_ERROR_HAS("unknown tracer 'bogus'");
	cr_expect_null(dalic_tracers_stats(p), "a typo attaches nothing");
	ASSERT_OK(dalic_tracers_attach(p, "none"));
	ASSERT_OK(dalic_tracers_attach(p, "stats"));
	cr_expect_not_null(dalic_tracers_stats(p));
	dalic_pipeline_destroy(p);
}

Test(tracers, nvtx_runs_beside_stats_when_the_toolkit_is_there)
{
	dalic_pipeline_t *p = tracers_pipeline(&tl_modes[2]);
#ifdef DALIC_HAVE_CUDA
	ASSERT_OK(dalic_tracers_attach(p, "stats;nvtx"));
	tl_stats_run(p, 3);
	dalic_stats_snapshot_t *snap = NULL;
	ASSERT_OK(dalic_stats_snapshot(dalic_tracers_stats(p), &snap));
	cr_expect_geq(snap->iterations, 1);
	dalic_stats_snapshot_free(snap);
#else
	EXPECT_STATUS(dalic_tracers_attach(p, "nvtx"), DALIC_EUNSUPPORTED);
	EXPECT_ERROR_HAS("without the CUDA toolkit");
	tl_stats_run(p, 3);
#endif
	dalic_pipeline_destroy(p);
}

Test(tracers, environment_picks_tracers_and_trace_is_written_at_destroy)
{
	const char *trace = tl_tmp_path("env-trace.json");
	const char *stats = tl_tmp_path("env-stats.json");
	setenv("DALIC_TRACERS", "stats;trace", 1);
	setenv("DALIC_TRACE_FILE", trace, 1);
	setenv("DALIC_STATS_FILE", stats, 1);
	dalic_pipeline_t *p = tracers_pipeline(&tl_modes[0]);
	tl_stats_run(p, 3);
	cr_expect_not_null(dalic_tracers_stats(p));
	dalic_pipeline_destroy(p);
	unsetenv("DALIC_TRACERS");
	size_t n = 0;
	char *text = tl_read_file(trace, &n);
	cJSON *doc = cJSON_Parse(text);
	cr_assert(doc, "the trace is JSON");
	cr_expect(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(doc, "traceEvents")));
	cJSON_Delete(doc);
	free(text);
	text = tl_read_file(stats, &n);
	doc = cJSON_Parse(text);
	cr_assert(doc, "the stats are JSON");
	const cJSON *its = cJSON_GetObjectItemCaseSensitive(doc, "iterations");
	cr_expect(cJSON_IsNumber(its) && its->valuedouble == 3, "3 iterations in the file");
	cJSON_Delete(doc);
	free(text);

	setenv("DALIC_TRACERS", "stats;nope", 1);
	p = tracers_pipeline(&tl_modes[0]);
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EINVAL);
	EXPECT_ERROR_HAS("DALIC_TRACERS");
	unsetenv("DALIC_TRACERS");
	dalic_pipeline_destroy(p);
}
