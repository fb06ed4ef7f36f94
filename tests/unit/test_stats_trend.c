/*
 * The trend (issue 26): a point per interval while iterations complete, cumulative counters
 * that only grow, each point in its own interval of the grid since the start, bounded memory
 * (when full, every other point goes and the interval doubles), the readers' bytes and files,
 * and the JSON's per-point rates.
 */
#include "tests/testlib/schema_check.h"

#include <math.h>

TestSuite(stats_trend, .timeout = 60);

/* sleeper: 4 samples x 2 ms on 2 workers, ~4 ms an iteration, synchronous */
static dalic_pipeline_t *stats_trend_pipeline(void)
{
	dalic_pipeline_params_t prm = tl_mode_params(&tl_modes[0], 4, 2);
	prm.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_create(&prm, &p));
	dalic_op_t *op = tl_stats_op(p, "_test__Sleep", NULL);
	ASSERT_OK(dalic_op_set_name(op, "sleeper"));
	ASSERT_OK(dalic_op_set_string(op, "output", "value"));
	ASSERT_OK(dalic_op_set_int(op, "sleep_us", 2000));
	ASSERT_OK(dalic_pipeline_add_output(p, "sleeper", "cpu"));
	return p;
}

static dalic_stats_t *stats_trend_attach(dalic_pipeline_t *p, int interval_ms, int capacity)
{
	dalic_stats_options_t o;
	dalic_stats_options_init(&o);
	cr_expect_eq(o.trend_interval_ms, 1000, "the default: a point a second");
	o.trend_interval_ms = interval_ms;
	o.trend_capacity = capacity;
	dalic_stats_t *s = NULL;
	ASSERT_OK(dalic_stats_create(p, &o, &s));
	return s;
}

/* Points in time order, one per interval of the grid, counters never decreasing. */
static void stats_trend_expect_series(const dalic_stats_snapshot_t *snap)
{
	const int sleeper = 0;
	for (int i = 1; i < snap->num_trend; i++) {
		const dalic_stats_trend_point_t *a = &snap->trend[i - 1], *b = &snap->trend[i];
		cr_expect_lt(floor(a->t_s / snap->trend_interval_s),
		             floor(b->t_s / snap->trend_interval_s), "points %d and %d share an interval",
		             i - 1, i);
		cr_expect_geq(b->iterations, a->iterations);
		cr_expect_geq(b->samples, a->samples);
		cr_expect_geq(b->cpu_s, a->cpu_s);
		cr_expect_geq(snap->trend_operator_ns[i * snap->num_operators + sleeper],
		              snap->trend_operator_ns[(i - 1) * snap->num_operators + sleeper]);
	}
	for (int i = 0; i < snap->num_trend; i++) {
		cr_expect_eq(snap->trend[i].samples, 4 * snap->trend[i].iterations);
		cr_expect_eq(snap->trend[i].reader_files, 0, "no reader here");
	}
}

Test(stats_trend, a_point_per_interval_with_growing_counters)
{
	dalic_pipeline_t *p = stats_trend_pipeline();
	dalic_stats_t *s = stats_trend_attach(p, 20, 600);
	tl_stats_run(p, 40);
	dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
	/* 40 iterations of at least 4 ms: 160 ms or more, a point every 20 ms */
	cr_expect_geq(snap->num_trend, 5, "%d points", snap->num_trend);
	cr_expect_float_eq(snap->trend_interval_s, 0.02, 1e-9);
	cr_expect_geq(snap->trend[0].iterations, 1, "the first point comes with the first iteration");
	stats_trend_expect_series(snap);
	const dalic_stats_trend_point_t *last = &snap->trend[snap->num_trend - 1];
	cr_expect_leq(last->samples, snap->samples);
	cr_expect_leq(last->t_s, snap->process_elapsed_s);
	/* the sleeper's time at the last point: at most its total, and most of it (the points
	 * after it cover at most one interval) */
	int64_t at_last = snap->trend_operator_ns[(snap->num_trend - 1) * snap->num_operators];
	cr_expect_leq(at_last, tl_stats_find(snap, "sleeper")->time.total_ns);
	cr_expect_geq(at_last, tl_stats_find(snap, "sleeper")->time.total_ns / 2);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
}

Test(stats_trend, a_full_series_keeps_every_other_point_and_doubles_the_interval)
{
	dalic_pipeline_t *p = stats_trend_pipeline();
	dalic_stats_t *s = stats_trend_attach(p, 10, 4);
	tl_stats_run(p, 40); /* 160 ms or more: 16 intervals of 10 ms at least */
	dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
	cr_expect_leq(snap->num_trend, 4);
	cr_expect_geq(snap->num_trend, 2);
	/* 16 intervals into 4 points: doubled at least twice (10 -> 20 -> 40 ms) */
	cr_expect_geq(snap->trend_interval_s, 0.04 - 1e-9, "%.3f", snap->trend_interval_s);
	double k = log2(snap->trend_interval_s / 0.01);
	cr_expect_float_eq(k, round(k), 1e-6, "the interval doubles: %.3f s",
	                   snap->trend_interval_s);
	stats_trend_expect_series(snap);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
}

Test(stats_trend, reset_starts_a_new_series)
{
	dalic_pipeline_t *p = stats_trend_pipeline();
	dalic_stats_t *s = stats_trend_attach(p, 10, 4);
	tl_stats_run(p, 30);
	dalic_stats_reset(s);
	dalic_stats_snapshot_t *snap = NULL;
	ASSERT_OK(dalic_stats_snapshot(s, &snap));
	cr_expect_eq(snap->num_trend, 0);
	cr_expect_float_eq(snap->trend_interval_s, 0.01, 1e-9);
	dalic_stats_snapshot_free(snap);
	tl_stats_run(p, 1);
	ASSERT_OK(dalic_stats_snapshot(s, &snap));
	cr_expect_eq(snap->num_trend, 1);
	cr_expect_eq(snap->trend[0].iterations, 1);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
	dalic_pipeline_destroy(p);
}

/* getting_started.py reads JPEGs with readers.file: the first point (with the first
 * iteration) counts its files and their bytes, and the JSON gives the rates. */
Test(stats_trend, json_has_reader_files_bytes_and_rates)
{
	tl_cmd_t c = tl_dalic(NULL, "stats samples/scripts/getting_started.py -n 3 --json 2>/dev/null");
	cr_assert_eq(c.status, 0, "%s", c.out);
	cJSON *doc = cJSON_Parse(c.out);
	cr_assert(doc, "not JSON: %.200s", c.out);
	cJSON *sc = tl_schema_load("docs/stats-schema.md");
	cr_assert(sc);
	char err[512];
	cr_expect(tl_schema_validate(sc, sc, doc, err, sizeof err), "%s", err);
	cJSON *trend = cJSON_GetObjectItemCaseSensitive(doc, "trend");
	cJSON *pts = cJSON_GetObjectItemCaseSensitive(trend, "points");
	cr_assert_geq(cJSON_GetArraySize(pts), 1);
	cJSON *p0 = cJSON_GetArrayItem(pts, 0);
	double files = cJSON_GetObjectItemCaseSensitive(p0, "reader_files")->valuedouble;
	double bytes = cJSON_GetObjectItemCaseSensitive(p0, "reader_bytes")->valuedouble;
	double t = cJSON_GetObjectItemCaseSensitive(p0, "t_seconds")->valuedouble;
	cr_expect_geq(files, 4, "batch 4: the first iteration read 4 files");
	cr_expect_gt(bytes, 1000 * files, "JPEGs of more than a kilobyte");
	cr_assert_gt(t, 0);
	cr_expect_float_eq(cJSON_GetObjectItemCaseSensitive(p0, "files_per_second")->valuedouble,
	                   files / t, 1e-6 * files / t);
	cr_expect_float_eq(cJSON_GetObjectItemCaseSensitive(p0, "reader_mb_per_second")->valuedouble,
	                   bytes / t * 1e-6, 1e-6 * bytes / t * 1e-6);
	cJSON *ops = cJSON_GetObjectItemCaseSensitive(p0, "operator_ns");
	cr_expect_eq(cJSON_GetArraySize(ops),
	             cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "operators")));
	cJSON_Delete(sc);
	cJSON_Delete(doc);
	tl_cmd_free(&c);
}
