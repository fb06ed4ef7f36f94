/*
 * The Chrome trace file parsed back (cJSON): well-formed trace events, tracks named for the
 * stages, the consumer and the workers that ran samples, one span per operator run, spans
 * nested in their stage's span, queue counters within the depth; a full ring drops the
 * oldest events and still writes a valid file; a collector without tracing refuses.
 */
#include "test_stats_util.h"

#include <cjson/cJSON.h>
#include <stdio.h>

TestSuite(stats_trace, .timeout = 60);

static cJSON *trace_of(dalic_stats_t *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cr_assert_eq(dalic_stats_write_trace(s, f), 0, "%s", dalic_last_error());
	fclose(f);
	cJSON *doc = cJSON_Parse(buf);
	cr_assert(doc, "trace is not JSON near: %.300s", cJSON_GetErrorPtr());
	free(buf);
	return doc;
}

static const char *str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : "";
}

static double num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	cr_assert(cJSON_IsNumber(v), "missing number %s", key);
	return v->valuedouble;
}

static dalic_pipeline_t *two_op_pipeline(const stats_mode_t *m)
{
	dalic_pipeline_t *p = stats_pipeline(m, 8, false);
	dalic_op_t *coin = stats_op(p, "random.coin_flip", NULL);
	cr_assert_eq(dalic_op_set_name(coin, "coin"), 0);
	dalic_op_t *cast = stats_op(p, "cast", "coin");
	cr_assert_eq(dalic_op_set_name(cast, "wide"), 0);
	cr_assert_eq(dalic_op_set_int(cast, "dtype", DALIC_FLOAT64), 0);
	cr_assert_eq(dalic_pipeline_add_output(p, "wide", NULL), 0);
	return p;
}

typedef struct span {
	double ts, end;
	int64_t iteration;
} span_t;

Test(stats_trace, trace_parses_back_with_tracks_and_nested_spans)
{
	for (int m = 0; m < STATS_NUM_MODES; m++) {
		const char *mode = stats_modes[m].name;
		dalic_pipeline_t *p = two_op_pipeline(&stats_modes[m]);
		dalic_stats_t *s = stats_attach(p, true);
		stats_run(p, 6);
		stats_wait_idle(s, &stats_modes[m], 6);
		dalic_stats_snapshot_t *snap = stats_finish(s, p);
		cJSON *doc = trace_of(s);
		cJSON *events = cJSON_GetObjectItemCaseSensitive(doc, "traceEvents");
		cr_assert(cJSON_IsArray(events));
		bool cpu_track = false, consumer_track = false, worker_track = false;
		int coin_runs = 0, wide_runs = 0, chunks = 0, counters = 0;
		span_t stages[64];
		int nstages = 0;
		span_t ops[128];
		int nops = 0;
		const cJSON *e;
		cJSON_ArrayForEach(e, events)
		{
			const char *ph = str(e, "ph");
			cr_assert(*ph, "%s: event without ph", mode);
			if (!strcmp(ph, "M")) {
				const char *name =
				    str(cJSON_GetObjectItemCaseSensitive(e, "args"), "name");
				cpu_track |= !strcmp(name, "stage CPU");
				consumer_track |= !strcmp(name, "consumer");
				worker_track |= !strncmp(name, "worker ", 7);
				continue;
			}
			double ts = num(e, "ts");
			cr_expect_geq(ts, 0, "%s", mode);
			if (!strcmp(ph, "C")) {
				const cJSON *a = cJSON_GetObjectItemCaseSensitive(e, "args");
				cr_expect_leq(num(a, "occupancy"), stats_modes[m].cpu, "%s", mode);
				counters++;
				continue;
			}
			if (strcmp(ph, "X"))
				continue;
			double dur = num(e, "dur");
			cr_expect_geq(dur, 0);
			const char *cat = str(e, "cat");
			const cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "args");
			if (!strcmp(cat, "stage") && nstages < 64)
				stages[nstages++] =
				    (span_t){ts, ts + dur, (int64_t)num(args, "iteration")};
			if (!strcmp(cat, "operator")) {
				coin_runs += !strcmp(str(e, "name"), "coin");
				wide_runs += !strcmp(str(e, "name"), "wide");
				cr_expect_eq(num(e, "tid"), 1, "%s: cpu operators on the CPU track",
				             mode);
				if (nops < 128)
					ops[nops++] =
					    (span_t){ts, ts + dur, (int64_t)num(args, "iteration")};
			}
			if (!strcmp(cat, "samples")) {
				chunks++;
				cr_expect_geq(num(e, "tid"), 100);
				cr_expect_gt(num(args, "samples"), 0);
			}
		}
		cr_expect(cpu_track && consumer_track, "%s: tracks not named", mode);
		cr_expect(worker_track, "%s: no worker track", mode);
		cr_expect_gt(chunks, 0, "%s", mode);
		cr_expect_gt(counters, 0, "%s", mode);
		cr_expect_eq(coin_runs, snap->operators[0].time.count, "%s", mode);
		cr_expect_geq(coin_runs, 6, "%s", mode);
		cr_expect_eq(wide_runs, stats_find(snap, "wide")->time.count, "%s", mode);
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
		cr_expect_eq(num(other, "dropped"), 0);
		cJSON_Delete(doc);
		dalic_stats_snapshot_free(snap);
		dalic_stats_destroy(s);
	}
}

Test(stats_trace, full_ring_drops_oldest_and_stays_valid)
{
	dalic_pipeline_t *p = two_op_pipeline(&stats_modes[0]);
	dalic_stats_options_t o;
	dalic_stats_options_init(&o);
	o.trace = true;
	o.trace_capacity = 1; /* rounded up to the minimum ring */
	dalic_stats_t *s = NULL;
	cr_assert_eq(dalic_stats_create(p, &o, &s), 0);
	stats_run(p, 400);
	dalic_stats_snapshot_t *snap = stats_finish(s, p);
	cr_expect_gt(snap->trace_dropped, 0);
	cr_expect_gt(snap->trace_events, snap->trace_dropped);
	cJSON *doc = trace_of(s);
	cJSON *other = cJSON_GetObjectItemCaseSensitive(doc, "otherData");
	cr_expect_eq(num(other, "dropped"), (double)snap->trace_dropped);
	cr_expect_eq(num(other, "events"), (double)(snap->trace_events - snap->trace_dropped));
	cJSON_Delete(doc);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
}

Test(stats_trace, without_tracing_the_trace_is_refused)
{
	dalic_pipeline_t *p = two_op_pipeline(&stats_modes[0]);
	dalic_stats_t *s = stats_attach(p, false);
	stats_run(p, 2);
	FILE *f = tmpfile();
	cr_expect_eq(dalic_stats_write_trace(s, f), DALIC_ESTATE);
	fclose(f);
	dalic_stats_destroy(s);
	dalic_pipeline_destroy(p);
}
