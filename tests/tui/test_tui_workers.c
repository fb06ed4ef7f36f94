/*
 * CPU accounting in the workbench (issue 26): the QUEUES pane sums up the worker pool (busy and
 * CPU share) and gives each worker a line — busy bar, busy %, the operator it spent most time
 * on —; the OPERATORS pane has a cpu column (CPU per run) where it is wide enough, and the
 * slowest operator's line quotes its CPU time.
 */
#include "tests/testlib/tui.h"

TestSuite(tui_workers, .timeout = 60);

Test(tui_workers, queues_pane_lists_the_workers)
{
	/* @arith has 2 worker threads; 40 rows leave the QUEUES pane rows for both, and 160
	 * columns the slowest operator's whole line, whatever width its times print at */
	tl_tui_t r = tl_tui_run("@arith", "n\nn\nn\ndump\nq\n", "--size 160x40");
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "workers busy ");
	tl_tui_expect_has(&r, 1, "w0 ");
	tl_tui_expect_has(&r, 1, "w1 ");
	tl_tui_expect_has(&r, 1, "of the work, cpu ");
	tl_tui_free(&r);
}

Test(tui_workers, wide_operators_pane_has_a_cpu_column)
{
	tl_tui_t r = tl_tui_run("@arith", "n\n<Tab>\nz\ndump\nq\n", "--size 130x30");
	cr_expect_eq(r.status, 0, "%s", r.out);
	char line[512];
	const char *header = tl_tui_line(tl_tui_dump(&r, 1), 2, line, sizeof line);
	cr_expect(strstr(header, " cpu "), "header: %s", header);
	cr_expect(strstr(header, "warn"), "header: %s", header);
	tl_tui_free(&r);
}

/* Running for 2.5 s gives the trend (a point a second) at least two points: the QUEUES pane
 * plots samples/s. */
Test(tui_workers, running_pipeline_plots_samples_per_second)
{
	tl_tui_t r = tl_tui_run("@arith", "<Space>\nwait 2.5s\n<Space>\nwait idle\ndump\nq\n",
	                        "--size 120x40");
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "samples/s \xe2\x96"); /* a block element follows */
	tl_tui_free(&r);
}

/* With room, the other trend series follow (issue 26): the readers' MB/s, memory held, CPU
 * cores, and the selected operator's milliseconds of work per second, named. */
Test(tui_workers, running_pipeline_plots_every_trend)
{
	tl_tui_t r = tl_tui_run("samples/scripts/getting_started.py",
	                        "]\n<Space>\nwait 2.5s\n<Space>\nwait idle\ndump\nq\n",
	                        "--size 120x60");
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "samples/s \xe2\x96");
	tl_tui_expect_has(&r, 1, "MB/s read \xe2\x96");
	tl_tui_expect_has(&r, 1, "MiB held  \xe2\x96");
	tl_tui_expect_has(&r, 1, "cpu cores \xe2\x96");
	tl_tui_expect_has(&r, 1, "op ms/s   \xe2\x96");
	tl_tui_free(&r);
}
