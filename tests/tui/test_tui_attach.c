/*
 * `dalic tui --attach PATH` (tui/attach_view.c): the workbench on a pipeline this test serves
 * (its server thread answers while the test waits for the command), read-only — the banner,
 * the operators, queues, workers and trends of the snapshot, keys that would step saying they
 * are unavailable, `m` / `M` (mark, since mark) — and a socket nobody serves refused.
 */
#include "tests/testlib.h"
#include "tests/testlib/tui.h"

#include <stdlib.h>
#include <unistd.h>

TestSuite(tui_attach, .timeout = 120, .fini = tl_tmpdir_remove);

Test(tui_attach, shows_a_live_pipeline_read_only)
{
	setenv("DALIC_STATS_INTERVAL_MS", "50", 1);
	const char *path = tl_tmp_path("tui_attach.sock");
	dalic_pipeline_t *p = tl_stats_pipeline(&tl_modes[0], 4, false); /* simple: exact counts */
	dalic_op_t *coin = tl_stats_op(p, "random.coin_flip", NULL);
	ASSERT_OK(dalic_op_set_name(coin, "coin"));
	ASSERT_OK(dalic_pipeline_add_output(p, "coin", NULL));
	ASSERT_OK(dalic_stats_serve(p, path));
	tl_stats_run(p, 3);
	char args[300];
	snprintf(args, sizeof args, "--attach %s", path);
	tl_tui_t r = tl_tui_run(args,
	                        "dump\n<Space>\ndump\nn\ndump\nM\ndump\nm\ndump\nwait snapshot\n"
	                        "M\ndump\nq\n",
	                        "--size 110x36");
	cr_assert_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "ATTACHED READ-ONLY to ");
	tl_tui_expect_has(&r, 1, "iterations 3  samples 12 ");
	tl_tui_expect_has(&r, 1, "OPERATORS");
	tl_tui_expect_has(&r, 1, "coin ");
	tl_tui_expect_has(&r, 1, "QUEUES / WORKERS");
	tl_tui_expect_has(&r, 1, "workers busy ");
	tl_tui_expect_has(&r, 1, "TRENDS");
	tl_tui_expect_has(&r, 1, "samples/s ");
	char pid[128];
	snprintf(pid, sizeof pid, "unavailable, attached read-only (the pipeline runs in pid %ld)",
	         (long)getpid());
	tl_tui_expect_has(&r, 2, "<Space>: ");
	tl_tui_expect_has(&r, 2, pid);
	tl_tui_expect_has(&r, 3, "n: unavailable");
	tl_tui_expect_has(&r, 4, "no mark yet");
	tl_tui_expect_has(&r, 5, "marked at snapshot ");
	/* nothing ran between the mark and now: every counter grew by 0 */
	tl_tui_expect_has(&r, 6, "SINCE MARK (snapshot ");
	tl_tui_expect_has(&r, 6, "(0 iterations)");
	char line[512];
	const char *d = tl_tui_dump(&r, 6);
	bool found = false;
	for (int row = 0; row < 36; row++)
		/* "┃coin": its row of the pane (the workers name it too) */
		if (tl_tui_line(d, row, line, sizeof line) && strstr(line, "\xe2\x94\x83" "coin ")) {
			found = true;
			cr_expect(strstr(line, "+0       +0       +0             +0"), "%s", line);
		}
	cr_expect(found, "no coin row:\n%s", d);
	tl_tui_free(&r);
	dalic_pipeline_destroy(p);
	unsetenv("DALIC_STATS_INTERVAL_MS");
}

Test(tui_attach, a_socket_nobody_serves_is_refused)
{
	char args[300];
	snprintf(args, sizeof args, "--attach %s", tl_tmp_path("tui_attach_none.sock"));
	tl_tui_t r = tl_tui_run(args, "dump\nq\n", NULL);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.out, "cannot connect to"), "%s", r.out);
	tl_tui_free(&r);
}
