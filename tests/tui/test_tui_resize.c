/*
 * The screen is resizable down to 80x24: every pane, the status line and the key bar are
 * still drawn, and nothing is drawn outside the screen.
 */
#include "tests/testlib/tui.h"

TestSuite(tui_resize, .timeout = 60);

static void tui_resize_expect_complete(const tl_tui_t *r, int n, int w, int h)
{
	int dw, dh;
	tl_tui_dump_size(tl_tui_dump(r, n), &dw, &dh);
	cr_expect_eq(dh, h, "dump %d has %d lines, not %d", n, dh, h);
	cr_expect_leq(dw, w, "dump %d is %d columns wide, more than %d", n, dw, w);
	for (const char *p = "GRAPH\0OPERATORS\0QUEUES\0BATCH\0Quit\0it 1\0"; *p;
	     p += strlen(p) + 1)
		tl_tui_expect_has(r, n, p);
}

Test(tui_resize, renders_at_80x24)
{
	tl_tui_t r =
	    tl_tui_run("samples/scripts/getting_started.py", "n\ndump\nq\n", "--size 80x24");
	cr_expect_eq(r.status, 0, "%s", r.out);
	tui_resize_expect_complete(&r, 1, 80, 24);
	tl_tui_expect_has(&r, 1, "DEVICES EMULATED");
	tl_tui_free(&r);
}

Test(tui_resize, follows_a_resize_while_running)
{
	tl_tui_t r =
	    tl_tui_run("@arith", "n\ndump\nresize 80x24\ndump\nresize 132x43\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tui_resize_expect_complete(&r, 1, 100, 30);
	tui_resize_expect_complete(&r, 2, 80, 24);
	tui_resize_expect_complete(&r, 3, 132, 43);
	tl_tui_free(&r);
}
