/*
 * `dalic stats` and `dalic tune` driven through the dalic binary ($DALIC_BIN, set by
 * `make test`; skipped without it) on the built-in @coin and @arith pipelines: the --json
 * document passes the schema, the report carries the executor_statistics lines, --trace
 * writes a trace that parses, and tune sweeps every axis and recommends one of its settings.
 */
#include "test_stats_schema_check.h"

#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

TestSuite(stats_cli, .timeout = 120);

/* Runs `dalic ARGS`, returns its stdout (new, free()) and exit status. */
static char *dalic(const char *args, int *status)
{
	const char *bin = getenv("DALIC_BIN");
	if (!bin)
		cr_skip_test("DALIC_BIN is not set (run through `make test`)");
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s %s 2>/dev/null", bin, args);
	FILE *f = popen(cmd, "r");
	cr_assert(f, "cannot run %s", cmd);
	char *out = NULL;
	size_t len = 0, cap = 0;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
		if (len + n + 1 > cap) {
			cap = (len + n + 1) * 2;
			out = realloc(out, cap);
		}
		memcpy(out + len, buf, n);
		len += n;
	}
	if (!out)
		out = calloc(1, 1);
	out[len] = 0;
	*status = pclose(f);
	return out;
}

Test(stats_cli, stats_json_passes_the_schema)
{
	int st;
	char *out = dalic("stats @coin -n 6 --json --prefetch-queue-depth 3", &st);
	cr_assert_eq(st, 0, "dalic stats failed: %s", out);
	cJSON *doc = cJSON_Parse(out);
	cr_assert(doc, "not JSON: %.200s", out);
	cJSON *sc = stats_schema_load("docs/stats-schema.md");
	cr_assert(sc);
	char err[512];
	cr_expect(stats_schema_validate(sc, sc, doc, err, sizeof err), "%s", err);
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
	char path[] = "/tmp/dalic-stats-trace-XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	close(fd);
	char args[256];
	snprintf(args, sizeof args, "stats @arith -n 5 --warmup 2 --trace %s", path);
	int st;
	char *out = dalic(args, &st);
	cr_assert_eq(st, 0, "dalic stats failed: %s", out);
	cr_expect(strstr(out, "\n# executor_statistics\n"), "%s", out);
	cr_expect(strstr(out, "\nverdict: "), "%s", out);
	cr_expect(strstr(out, "\nwarmup_iterations: 2\n"), "%s", out);
	/* the warm-up is left out; with the async executor one prefetched iteration may finish
	 * on either side of the reset, and one more before the pipeline stops */
	const char *it = strstr(out, "\niterations: ");
	cr_assert(it, "%s", out);
	long its = strtol(it + 13, NULL, 10);
	cr_expect(its >= 4 && its <= 7, "%ld iterations counted for 5 runs after the warm-up", its);
	cr_expect(strstr(out, "\ntrace_file: "), "%s", out);
	FILE *f = fopen(path, "r");
	cr_assert(f);
	static char buf[1 << 22];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	cJSON *doc = cJSON_Parse(buf);
	cr_assert(doc, "trace is not JSON");
	cr_expect_gt(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "traceEvents")), 10);
	cJSON_Delete(doc);
	unlink(path);
	free(out);
}

Test(stats_cli, bad_options_are_usage_errors)
{
	int st;
	char *out = dalic("stats @coin -n many", &st);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	free(out);
	out = dalic("tune @coin --frobnicate", &st);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	free(out);
	out = dalic("stats nosuchfile.pb -n 1", &st);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 1);
	free(out);
}

Test(stats_cli, tune_sweeps_every_axis_and_recommends)
{
	int st;
	char *out = dalic("tune @coin -n 4 --warmup 1 --json --num-threads 2", &st);
	cr_assert_eq(st, 0, "dalic tune failed: %s", out);
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
	cr_expect(strstr(why, "samples/s"), "%s", why);
	cJSON_Delete(doc);
	free(out);
}
