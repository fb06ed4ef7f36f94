/*
 * `dalic stats` and `dalic tune` driven through the dalic binary ($DALIC_BIN, set by
 * `make test`; skipped without it) on the built-in @coin and @arith pipelines: the --json
 * document passes the schema, the report carries the executor_statistics lines, --trace
 * writes a trace that parses, and tune sweeps every axis and recommends one of its settings.
 */
#include "tests/testlib/schema_check.h"

TestSuite(stats_cli, .timeout = 120, .fini = tl_tmpdir_remove);

Test(stats_cli, stats_json_passes_the_schema)
{
	tl_cmd_t c = tl_dalic(NULL, "stats @coin -n 6 --json --prefetch-queue-depth 3 2>/dev/null");
	char *out = c.out;
	cr_assert_eq(c.status, 0, "dalic stats failed: %s", out);
	cJSON *doc = cJSON_Parse(out);
	cr_assert(doc, "not JSON: %.200s", out);
	cJSON *sc = tl_schema_load("docs/stats-schema.md");
	cr_assert(sc);
	char err[512];
	cr_expect(tl_schema_validate(sc, sc, doc, err, sizeof err), "%s", err);
	cJSON *p = cJSON_GetObjectItemCaseSensitive(doc, "pipeline");
	cr_expect_str_eq(cJSON_GetObjectItemCaseSensitive(p, "source")->valuestring, "@coin");
	cr_expect(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "enable_memory_stats")),
	          "dalic stats turns memory statistics on");
	cJSON *q = cJSON_GetObjectItemCaseSensitive(p, "prefetch_queue_depth");
	cr_expect_eq(cJSON_GetObjectItemCaseSensitive(q, "cpu")->valueint, 3);
	/* @coin: coin_flip at batch 8 -> 32 bytes */
	cJSON *es = cJSON_GetObjectItemCaseSensitive(doc, "executor_statistics");
	cJSON *e;
	bool coin = false;
	cJSON_ArrayForEach(e, es)
	{
		if (strstr(e->string, "CoinFlip")) {
			coin = true;
			cJSON *real = cJSON_GetObjectItemCaseSensitive(e, "real_memory_size");
			cr_expect_eq(cJSON_GetArrayItem(real, 0)->valuedouble, 32.0);
		}
	}
	cr_expect(coin, "no CoinFlip entry in executor_statistics");
	cJSON_Delete(sc);
	cJSON_Delete(doc);
	free(out);
}

Test(stats_cli, stats_report_and_trace_file)
{
	const char *path = tl_tmp_path("trace.json");
	tl_cmd_t c = tl_dalic(NULL, "stats @arith -n 5 --warmup 2 --trace %s 2>/dev/null", path);
	char *out = c.out;
	cr_assert_eq(c.status, 0, "dalic stats failed: %s", out);
	EXPECT_HAS(out, "\n# executor_statistics\n");
	EXPECT_HAS(out, "\nverdict: ");
	EXPECT_HAS(out, "\nwarmup_iterations: 2\n");
	/* the warm-up is left out; with the async executor one prefetched iteration may finish
	 * on either side of the reset, and one more before the pipeline stops */
	const char *it = strstr(out, "\niterations: ");
	cr_assert(it, "%s", out);
	long its = strtol(it + 13, NULL, 10);
	cr_expect(its >= 4 && its <= 7, "%ld iterations counted for 5 runs after the warm-up", its);
	EXPECT_HAS(out, "\ntrace_file: ");
	char *buf = tl_read_file(path, NULL);
	cJSON *doc = cJSON_Parse(buf);
	free(buf);
	cr_assert(doc, "trace is not JSON");
	cr_expect_gt(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "traceEvents")), 10);
	cJSON_Delete(doc);
	free(out);
}

Test(stats_cli, bad_options_are_usage_errors)
{
	tl_cmd_t c = tl_dalic(NULL, "stats @coin -n many 2>/dev/null");
	char *out = c.out;
	cr_expect_eq(c.status, 2);
	free(out);
	c = tl_dalic(NULL, "tune @coin --frobnicate 2>/dev/null");
	out = c.out;
	cr_expect_eq(c.status, 2);
	free(out);
	c = tl_dalic(NULL, "stats nosuchfile.pb -n 1 2>/dev/null");
	out = c.out;
	cr_expect_eq(c.status, 1);
	free(out);
}

Test(stats_cli, tune_sweeps_every_axis_and_recommends)
{
	tl_cmd_t c =
	    tl_dalic(NULL, "tune @coin -n 4 --warmup 1 --json --num-threads 2 2>/dev/null");
	char *out = c.out;
	cr_assert_eq(c.status, 0, "dalic tune failed: %s", out);
	cJSON *doc = cJSON_Parse(out);
	cr_assert(doc, "not JSON: %.300s", out);
	cJSON *settings = cJSON_GetObjectItemCaseSensitive(doc, "settings");
	int n = cJSON_GetArraySize(settings);
	bool depth = false, threads = false, hint = false;
	cJSON *s;
	cJSON_ArrayForEach(s, settings)
	{
		const char *name = cJSON_GetObjectItemCaseSensitive(s, "name")->valuestring;
		depth |= !strncmp(name, "prefetch_queue_depth=", 21);
		threads |= !strncmp(name, "num_threads=", 12);
		hint |= !strncmp(name, "bytes_per_sample", 16);
		cr_expect(!cJSON_GetObjectItemCaseSensitive(s, "error"), "%s failed", name);
		cr_expect_gt(cJSON_GetObjectItemCaseSensitive(s, "samples_per_second")->valuedouble,
		             0, "%s", name);
		cr_expect_geq(cJSON_GetObjectItemCaseSensitive(s, "p99_ms")->valuedouble,
		              cJSON_GetObjectItemCaseSensitive(s, "p50_ms")->valuedouble, "%s",
		              name);
	}
	cr_expect(depth && threads && hint, "an axis is missing from the sweep");
	cr_expect_str_eq(
	    cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(settings, 0), "name")->valuestring,
	    "baseline");
	int rec = cJSON_GetObjectItemCaseSensitive(doc, "recommended")->valueint;
	cr_expect(rec >= 0 && rec < n);
	const char *why = cJSON_GetObjectItemCaseSensitive(doc, "reason")->valuestring;
	EXPECT_HAS(why, "samples/s");
	cJSON_Delete(doc);
	free(out);
}
