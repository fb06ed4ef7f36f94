/*
 * The tune view (U): the workbench runs the trial engine of `dalic tune` on the pipeline with
 * the parameters in effect and shows, in QUEUES, each setting's change against the baseline
 * with its 95% interval and verdict, then the recommendation; U again goes back to the
 * queues; a bad budget is refused with a message.
 */
#include "tests/testlib/tui.h"

TestSuite(tui_tune_view, .timeout = 90);

Test(tui_tune_view, shows_intervals_verdicts_and_the_recommendation)
{
	tl_tui_t r = tl_tui_run("@coin", "U\ntype 20\n<Enter>\ndump\nU\ndump\nq\n", "--size 140x30");
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "tune done: ");
	tl_tui_expect_has(&r, 1, "vs baseline       change  95%CI verdict");
	tl_tui_expect_has(&r, 1, "prefetch=1 ");
	tl_tui_expect_has(&r, 1, "threads=1 ");
	tl_tui_expect_has(&r, 1, "-> ");
	tl_tui_expect_has(&r, 1, "tune: "); /* the reason on the message line */
	/* 7 settings need 28 trials for two each; a trial costs up to ~0.5 s on a loaded
	 * machine (clone, build, warm-up), so 20 s leave every setting an interval */
	const char *d = tl_tui_dump(&r, 1), *pm = strstr(d, "% \xc2\xb1");
	cr_expect(pm, "no interval shown:\n%s", d);
	tl_tui_expect_lacks(&r, 2, "tune done: ");
	tl_tui_expect_has(&r, 2, "verdict: "); /* the queues are back */
	tl_tui_free(&r);
}

Test(tui_tune_view, a_bad_budget_is_refused)
{
	tl_tui_t r = tl_tui_run("@coin", "U\ntype soon\n<Enter>\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "tune: 'soon' is not a budget of 1 to 3600 seconds");
	tl_tui_expect_lacks(&r, 1, "tune done");
	tl_tui_free(&r);
}
