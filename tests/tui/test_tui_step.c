/*
 * Stepping and running: n steps one iteration (the status line's iteration moves), s steps
 * one operator in the debug engine, Space runs and pauses the full engine, e switches engine.
 */
#include "tests/testlib/tui.h"

TestSuite(tui_step, .timeout = 60);

/* The iteration number on the status line ("it N"), or -1. */
static long tui_step_status_iteration(const char *dump)
{
	char line[512];
	const char *p = strstr(tl_tui_line(dump, 0, line, sizeof line), "\xe2\x94\x82 it ");
	return p ? strtol(p + strlen("\xe2\x94\x82 it "), NULL, 10) : -1;
}

Test(tui_step, step_iteration_changes_the_iteration)
{
	tl_tui_t r = tl_tui_run("@arith", "dump\nn\ndump\nn\nn\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	cr_expect_eq(tui_step_status_iteration(tl_tui_dump(&r, 1)), 0, "%s", tl_tui_dump(&r, 1));
	cr_expect_eq(tui_step_status_iteration(tl_tui_dump(&r, 2)), 1, "%s", tl_tui_dump(&r, 2));
	cr_expect_eq(tui_step_status_iteration(tl_tui_dump(&r, 3)), 3, "%s", tl_tui_dump(&r, 3));
	tl_tui_free(&r);
}

Test(tui_step, step_operator_runs_one_operator_in_the_debug_engine)
{
	tl_tui_t r = tl_tui_run("@arith", "s\ndump\ns\ndump\nn\ndump\nn\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "debug (eager)");
	tl_tui_expect_has(&r, 1, "it 0 op 1/7");
	tl_tui_expect_has(&r, 2, "it 0 op 2/7");
	tl_tui_expect_has(&r, 3, "it 0 op 7/7"); /* n finishes the iteration */
	tl_tui_expect_has(&r, 4, "it 1 op 7/7"); /* and runs the whole next one */
	tl_tui_free(&r);
}

Test(tui_step, space_runs_and_pauses_the_full_engine)
{
	tl_tui_t r = tl_tui_run(
	    "@arith", "<Space>\nwait iteration 50\ndump\n<Space>\ndump\nwait 200ms\ndump\nq\n",
	    NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	long running = tui_step_status_iteration(tl_tui_dump(&r, 1));
	long paused = tui_step_status_iteration(tl_tui_dump(&r, 2));
	cr_expect_geq(running, 50, "%s", tl_tui_dump(&r, 1));
	tl_tui_expect_has(&r, 2, "paused");
	/* paused means paused: nothing moves */
	cr_expect_eq(tui_step_status_iteration(tl_tui_dump(&r, 3)), paused, "%s",
	             tl_tui_dump(&r, 3));
	cr_expect_geq(paused, running);
	tl_tui_free(&r);
}

Test(tui_step, engine_switches_between_full_and_debug)
{
	tl_tui_t r = tl_tui_run("@arith", "dump\ne\ndump\ne\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "async pipelined");
	tl_tui_expect_has(&r, 2, "debug (eager)");
	tl_tui_expect_has(&r, 2, "no prefetch");
	tl_tui_expect_has(&r, 3, "async pipelined");
	tl_tui_free(&r);
}

Test(tui_step, debug_flag_starts_in_the_debug_engine)
{
	tl_tui_t r = tl_tui_run("@arith", "dump\nq\n", "--debug");
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "debug (eager)");
	tl_tui_free(&r);
}
