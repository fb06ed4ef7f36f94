/*
 * `dalic tune` through the binary ($DALIC_BIN, set by `make test`; skipped without it) on a
 * script whose best setting is known by construction: an operator that sleeps 8 ms per
 * batch on the stage thread (num_threads cannot matter) and a simulated consumer holding
 * each batch 10 ± 10 ms (--consumer-ms). With one queue slot an iteration costs producer +
 * consumer; deeper prefetch overlaps them (~+60%). The tuner must find deeper prefetch,
 * explain it by the consumer's waits, and call the thread counts no measurable difference.
 */
#include "tests/testlib.h"

#include <cjson/cJSON.h>

TestSuite(tune_cli, .timeout = 90, .fini = tl_tmpdir_remove);

static const char tune_cli_script[] =
    "from nvidia.dali import pipeline_def\n"
    "import nvidia.dali.fn as fn\n"
    "\n"
    "@pipeline_def\n"
    "def slow():\n"
    "    return fn._test.sleep_batch(output=\"value\", sleep_us=4000)\n"
    "\n"
    "pipe = slow(batch_size=2, num_threads=2, device_id=None, prefetch_queue_depth=1)\n";

static const char *tune_cli_write_script(void)
{
	const char *path = tl_tmp_path("slow.py");
	tl_write_text(path, tune_cli_script);
	return path;
}

static cJSON *tune_cli_field(const cJSON *o, const char *k)
{
	cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	cr_assert_not_null(v, "no '%s'", k);
	return v;
}

Test(tune_cli, finds_deeper_prefetch_for_a_slow_consumer_and_explains_it)
{
	const char *script = tune_cli_write_script();
	tl_cmd_t c = tl_dalic(NULL,
	                      "tune %s --consumer-ms 10,10 --axes prefetch,threads -n 8 "
	                      "--warmup 1 --min-trials 3 --budget 8 --ci 5 --json 2>/dev/null",
	                      script);
	cr_assert_eq(c.status, 0, "dalic tune failed: %s", c.out);
	cJSON *doc = cJSON_Parse(c.out);
	cr_assert(doc, "not JSON: %.300s", c.out);
	cJSON *settings = tune_cli_field(doc, "settings");
	int rec = tune_cli_field(doc, "recommended")->valueint;
	cr_assert(rec > 0 && rec < cJSON_GetArraySize(settings), "%s", c.out);
	cJSON *r = cJSON_GetArrayItem(settings, rec), *b = cJSON_GetArrayItem(settings, 0);
	const char *name = tune_cli_field(r, "name")->valuestring;
	cr_expect(!strncmp(name, "prefetch_queue_depth=", 21), "recommended %s", name);
	cr_expect_gt(tune_cli_field(r, "prefetch_cpu")->valueint, 1);
	cr_expect_str_eq(tune_cli_field(r, "verdict")->valuestring, "faster");
	cr_expect_gt(tune_cli_field(r, "gain_lo")->valuedouble, 0.05);
	EXPECT_HAS(tune_cli_field(doc, "reason")->valuestring, "faster beyond the noise");
	double wait_b = tune_cli_field(tune_cli_field(b, "mechanism"), "consumer_wait")->valuedouble;
	cJSON *mech = tune_cli_field(r, "mechanism");
	double wait_r = tune_cli_field(mech, "consumer_wait")->valuedouble;
	cr_expect_gt(wait_b, wait_r + 0.2, "consumer wait %.2f at depth 1, %.2f at %s", wait_b,
	             wait_r, name);
	EXPECT_HAS(tune_cli_field(mech, "text")->valuestring, "consumer waits");
	cJSON *s;
	int threads = 0;
	cJSON_ArrayForEach(s, settings)
	{
		if (strncmp(tune_cli_field(s, "name")->valuestring, "num_threads=", 12))
			continue;
		threads++;
		cr_expect_str_eq(tune_cli_field(s, "verdict")->valuestring,
		                 "no measurable difference", "%s", c.out);
	}
	cr_expect_geq(threads, 1, "no thread setting swept");
	cJSON_Delete(doc);
	tl_cmd_free(&c);
}

Test(tune_cli, the_table_has_intervals_mechanism_and_the_flags)
{
	const char *script = tune_cli_write_script();
	tl_cmd_t c = tl_dalic(NULL,
	                      "tune %s --consumer-ms 10,10 --axes prefetch -n 6 --warmup 1 "
	                      "--min-trials 2 --budget 4 --ci 5 2>/dev/null",
	                      script);
	cr_assert_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "consumer: 10.0 ms ± 10.0 ms per batch (simulated)");
	EXPECT_HAS(c.out, "vs baseline [95% CI]");
	EXPECT_HAS(c.out, "# Mechanism");
	EXPECT_HAS(c.out, "prefetch_queue_depth=3: consumer waits");
	EXPECT_HAS(c.out, "flags: --prefetch-queue-depth ");
	tl_cmd_free(&c);
}

Test(tune_cli, bad_options_are_refused)
{
	static const char *const bad[][2] = {
	    {"--ci 0", "invalid value '0' for --ci"},
	    {"--ci 2x", "invalid value '2x' for --ci"},
	    {"--budget -1", "invalid value '-1' for --budget"},
	    {"--consumer-ms 5,x", "invalid value '5,x' for --consumer-ms"},
	    {"--axes prefetch,colour", "invalid value 'prefetch,colour' for --axes"},
	    {"--min-trials 1", "invalid value '1' for --min-trials"},
	    {"--min-trials 9 --max-trials 5", "--min-trials 9 exceeds --max-trials 5"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		tl_cmd_t c = tl_dalic(NULL, "tune @coin %s", bad[i][0]);
		cr_expect_eq(c.status, 2, "%s: status %d", bad[i][0], c.status);
		EXPECT_HAS(c.out, bad[i][1]);
		tl_cmd_free(&c);
	}
}
