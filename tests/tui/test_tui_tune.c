/*
 * Tuning from the workbench: prefetch_queue_depth (uniform with + / -, or cpu/gpu through the
 * p prompt), bytes_per_sample and num_threads rebuild the pipeline and show the numbers
 * before and after side by side; bad values are refused with a message; w saves a report.
 */
#include "tests/testlib/tui.h"

#include <sys/stat.h>
#include <unistd.h>

TestSuite(tui_tune, .timeout = 60);

Test(tui_tune, plus_deepens_prefetch_and_compares)
{
	tl_tui_t r = tl_tui_run(
	    "@arith", "<Space>\nwait iteration 40\n+\nwait iteration 40\ndump\n-\n-\ndump\nq\n",
	    NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "prefetch 3");
	tl_tui_expect_has(&r, 1, "prefetch 2 -> 3");
	tl_tui_expect_has(&r, 1, "before");
	tl_tui_expect_has(&r, 1, "after");
	tl_tui_expect_has(&r, 1, "\xe2\x96\xb6 running"); /* a rebuild keeps it running */
	/* both throughputs were measured while running: a relative change is shown */
	char line[256] = "";
	const char *p = strstr(tl_tui_dump(&r, 1), "\xe2\x94\x82samples/s"); /* in QUEUES */
	cr_assert_not_null(p, "%s", tl_tui_dump(&r, 1));
	p += 3; /* past the pane border */
	snprintf(line, sizeof line, "%.*s", (int)strcspn(p, "\xe2"), p);
	cr_expect(strchr(line, '%'), "no relative change in '%s':\n%s", line, tl_tui_dump(&r, 1));
	tl_tui_expect_has(&r, 2, "prefetch 1");
	tl_tui_expect_has(&r, 2, "prefetch 2 -> 1");
	tl_tui_free(&r);
}

Test(tui_tune, prompt_sets_separate_cpu_and_gpu_depths)
{
	tl_tui_t r = tl_tui_run("samples/scripts/getting_started.py",
	                        "p\ndump\ntype cpu=2,gpu=3\n<Enter>\ndump\nq\n", "--size 140x30");
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "prefetch_queue_depth (N or cpu=N,gpu=M; now 2)");
	tl_tui_expect_has(&r, 2, "prefetch cpu=2,gpu=3");
	tl_tui_expect_has(&r, 2, "prefetch 2 -> cpu=2,gpu=3");
	tl_tui_expect_has(&r, 2, "async separated");
	tl_tui_free(&r);
}

Test(tui_tune, bytes_per_sample_and_threads)
{
	tl_tui_t r =
	    tl_tui_run("@arith", "b\ntype 4096\n<Enter>\ndump\nt\ntype 2\n<Enter>\ndump\nq\n",
	               "--size 140x30");
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "bytes_per_sample 4096");
	tl_tui_expect_has(&r, 1, "bytes_per_sample 0 -> 4096");
	tl_tui_expect_has(&r, 2, "threads 2");
	tl_tui_expect_has(&r, 2, "num_threads 4 -> 2");
	tl_tui_free(&r);
}

Test(tui_tune, bad_values_are_refused)
{
	tl_tui_t r = tl_tui_run(
	    "@arith", "p\ntype deep\n<Enter>\ndump\nt\ntype 0\n<Enter>\ndump\n-\n-\n-\ndump\nq\n",
	    NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "'deep' is not N or cpu=N,gpu=M");
	tl_tui_expect_has(&r, 1, "prefetch 2");
	tl_tui_expect_has(&r, 2, "'0' is not a count");
	tl_tui_expect_has(&r, 3, "cannot go below 1");
	tl_tui_expect_has(&r, 3, "prefetch 1");
	tl_tui_free(&r);
}

Test(tui_tune, save_writes_stats_trace_and_dot)
{
	char dir[] = "/tmp/dalic_tui_report_XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	char keys[256];
	snprintf(keys, sizeof keys, "n\nn\nw\ntype %s/report\n<Enter>\ndump\nq\n", dir);
	tl_tui_t r = tl_tui_run("@arith", keys, "--trace");
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "saved ");
	tl_tui_expect_has(&r, 1, "\xe2\x97\x8f trace"); /* the status line says it records */
	const char *want[][2] = {{"stats.json", "executor_statistics"},
	                         {"report.txt", "__Cast_4"},
	                         {"trace.json", "traceEvents"},
	                         {"graph.dot", "digraph"}};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		char path[256];
		snprintf(path, sizeof path, "%s/report/%s", dir, want[i][0]);
		char *text = tl_try_read_file(path, NULL);
		cr_expect_not_null(text, "%s not written", path);
		if (text)
			EXPECT_HAS(text, want[i][1], "%s lacks %s", path, want[i][1]);
		free(text);
	}
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
	tl_tui_free(&r);
}

Test(tui_tune, trace_is_recorded_on_request)
{
	char dir[] = "/tmp/dalic_tui_report_XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	char keys[512];
	snprintf(keys, sizeof keys,
	         "n\nw\ntype %s/a\n<Enter>\ndump\nT\nn\nn\nw\ntype %s/b\n<Enter>\ndump\nq\n", dir,
	         dir);
	tl_tui_t r = tl_tui_run("@arith", keys, NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "no trace: T records one");
	tl_tui_expect_has(&r, 2, "trace.json");
	char path[256];
	snprintf(path, sizeof path, "%s/a/trace.json", dir);
	cr_expect(access(path, F_OK) != 0, "%s written without T", path);
	snprintf(path, sizeof path, "%s/b/trace.json", dir);
	char *text = tl_try_read_file(path, NULL);
	cr_expect(text && strstr(text, "traceEvents"), "%s missing after T", path);
	free(text);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
	tl_tui_free(&r);
}
