/*
 * The Chrome trace file parsed back (cJSON): well-formed trace events, tracks named for the
 * stages, the consumer and the workers that ran samples, one span per operator run, spans
 * nested in their stage's span, queue counters within the depth; a full ring drops the
 * oldest events and still writes a valid file; a collector without tracing refuses.
 */
#include "tests/testlib.h"

#include <cjson/cJSON.h>
#include <stdio.h>

TestSuite(stats_trace, .timeout = 60);

static cJSON *stats_trace_of(dalic_stats_t *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ASSERT_OK(dalic_stats_write_trace(s, f));
	fclose(f);
	cJSON *doc = cJSON_Parse(buf);
	cr_assert(doc, "trace is not JSON near: %.300s", cJSON_GetErrorPtr());
	free(buf);
	return doc;
}

static const char *stats_trace_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : "";
}

static double stats_trace_num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	cr_assert(cJSON_IsNumber(v), "missing number %s", key);
	return v->valuedouble;
}

static dalic_pipeline_t *stats_trace_two_op_pipeline(const tl_mode_t *m)
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

typedef struct stats_trace_span {
	double ts, end;
	int64_t iteration;
} stats_trace_span_t;

Test(stats_trace, trace_parses_back_with_tracks_and_nested_spans)
{
	for (int m = 0; m < TL_NUM_MODES; m++) {
		const char *mode = tl_modes[m].name;
		dalic_pipeline_t *p = stats_trace_two_op_pipeline(&tl_modes[m]);
		dalic_stats_t *s = tl_stats_attach(p, true);
		tl_stats_run(p, 6);
		tl_stats_wait_idle(s, &tl_modes[m], 6);
		dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
		cJSON *doc = stats_trace_of(s);
		cJSON *events = cJSON_GetObjectItemCaseSensitive(doc, "traceEvents");
		cr_assert(cJSON_IsArray(events));
		bool cpu_track = false, consumer_track = false, worker_track = false;
		int coin_runs = 0, wide_runs = 0, chunks = 0, counters = 0, worker_counters = 0,
		    trend_counters = 0, op_counters = 0, coin_counters = 0;
		stats_trace_span_t stages[64];
		int nstages = 0;
		stats_trace_span_t ops[128];
		int nops = 0;
		const cJSON *e;
		cJSON_ArrayForEach(e, events)
		{
			const char *ph = stats_trace_str(e, "ph");
			cr_assert(*ph, "%s: event without ph", mode);
			if (!strcmp(ph, "M")) {
				const char *name = stats_trace_str(
				    cJSON_GetObjectItemCaseSensitive(e, "args"), "name");
				cpu_track |= !strcmp(name, "stage CPU");
				consumer_track |= !strcmp(name, "consumer");
				worker_track |= !strncmp(name, "worker ", 7);
				continue;
			}
			double ts = stats_trace_num(e, "ts");
			cr_expect_geq(ts, 0, "%s", mode);
			if (!strcmp(ph, "C")) {
				const cJSON *a = cJSON_GetObjectItemCaseSensitive(e, "args");
				if (!strncmp(stats_trace_str(e, "name"), "worker ", 7)) {
					cr_expect_leq(stats_trace_num(a, "cpu"), 100, "%s", mode);
					worker_counters++;
					continue;
				}
				if (!strncmp(stats_trace_str(e, "name"), "op time ", 8)) {
					op_counters++; /* the trend's per-operator time */
					coin_counters += !strcmp(stats_trace_str(e, "name"),
					                         "op time coin");
					cr_expect_geq(stats_trace_num(a, "ms/s"), 0, "%s", mode);
					continue;
				}
				if (strncmp(stats_trace_str(e, "name"), "queue ", 6)) {
					/* samples/s, memory held, cpu cores, reader MB/s, files/s */
					trend_counters++;
					continue;
				}
				cr_expect_leq(stats_trace_num(a, "occupancy"), tl_modes[m].cpu,
				              "%s", mode);
				counters++;
				continue;
			}
			if (strcmp(ph, "X"))
				continue;
			double dur = stats_trace_num(e, "dur");
			cr_expect_geq(dur, 0);
			const char *cat = stats_trace_str(e, "cat");
			const cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "args");
			if (!strcmp(cat, "stage") && nstages < 64)
				stages[nstages++] = (stats_trace_span_t){
				    ts, ts + dur, (int64_t)stats_trace_num(args, "iteration")};
			if (!strcmp(cat, "operator")) {
				coin_runs += !strcmp(stats_trace_str(e, "name"), "coin");
				wide_runs += !strcmp(stats_trace_str(e, "name"), "wide");
				cr_expect_eq(stats_trace_num(e, "tid"), 1,
				             "%s: cpu operators on the CPU track", mode);
				if (nops < 128)
					ops[nops++] = (stats_trace_span_t){
					    ts, ts + dur,
					    (int64_t)stats_trace_num(args, "iteration")};
			}
			if (!strcmp(cat, "samples")) {
				chunks++;
				cr_expect_geq(stats_trace_num(e, "tid"), 100);
				cr_expect_gt(stats_trace_num(args, "samples"), 0);
			}
		}
		cr_expect(cpu_track && consumer_track, "%s: tracks not named", mode);
		cr_expect(worker_track, "%s: no worker track", mode);
		cr_expect_gt(chunks, 0, "%s", mode);
		cr_expect_gt(counters, 0, "%s", mode);
		cr_expect_eq(worker_counters, 2 * chunks, "%s: a cpu %% rise and fall per chunk", mode);
		cr_expect_eq(trend_counters % 5, 0, "%s: five trend counters a point", mode);
		cr_expect_geq(trend_counters, 5, "%s: the first iteration takes a trend point", mode);
		/* coin and wide, not the internal MakeContiguous nodes: two a point */
		cr_expect_eq(op_counters, 2 * (trend_counters / 5), "%s: op time counters", mode);
		cr_expect_eq(coin_counters, trend_counters / 5, "%s: coin's time each point", mode);
		cr_expect_eq(coin_runs, snap->operators[0].time.count, "%s", mode);
		cr_expect_geq(coin_runs, 6, "%s", mode);
		cr_expect_eq(wide_runs, tl_stats_find(snap, "wide")->time.count, "%s", mode);
		/* every operator span lies inside the stage span of its iteration (1 us slack for
		 * the 3-decimal rounding of microseconds) */
		for (int i = 0; i < nops; i++) {
			bool inside = false;
			for (int k = 0; k < nstages && !inside; k++)
				inside = stages[k].iteration == ops[i].iteration &&
				         ops[i].ts >= stages[k].ts - 0.001 &&
				         ops[i].end <= stages[k].end + 0.001;
			cr_expect(inside, "%s: operator span of iteration %lld outside its stage",
			          mode, (long long)ops[i].iteration);
		}
		cJSON *other = cJSON_GetObjectItemCaseSensitive(doc, "otherData");
		cr_expect_eq(stats_trace_num(other, "dropped"), 0);
		cJSON_Delete(doc);
		dalic_stats_snapshot_free(snap);
		dalic_stats_destroy(s);
	}
}

Test(stats_trace, full_ring_drops_oldest_and_stays_valid)
{
	dalic_pipeline_t *p = stats_trace_two_op_pipeline(&tl_modes[0]);
	dalic_stats_options_t o;
	dalic_stats_options_init(&o);
	o.trace = true;
	o.trace_capacity = 1; /* rounded up to the minimum ring */
	dalic_stats_t *s = NULL;
	ASSERT_OK(dalic_stats_create(p, &o, &s));
	tl_stats_run(p, 400);
	dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
	cr_expect_gt(snap->trace_dropped, 0);
	cr_expect_gt(snap->trace_events, snap->trace_dropped);
	cJSON *doc = stats_trace_of(s);
	cJSON *other = cJSON_GetObjectItemCaseSensitive(doc, "otherData");
	cr_expect_eq(stats_trace_num(other, "dropped"), (double)snap->trace_dropped);
	cr_expect_eq(stats_trace_num(other, "events"),
	             (double)(snap->trace_events - snap->trace_dropped));
	cJSON_Delete(doc);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
}

Test(stats_trace, without_tracing_the_trace_is_refused)
{
	dalic_pipeline_t *p = stats_trace_two_op_pipeline(&tl_modes[0]);
	dalic_stats_t *s = tl_stats_attach(p, false);
	tl_stats_run(p, 2);
	FILE *f = tmpfile();
	EXPECT_STATUS(dalic_stats_write_trace(s, f), DALIC_ESTATE);
	fclose(f);
	dalic_stats_destroy(s);
	dalic_pipeline_destroy(p);
}
