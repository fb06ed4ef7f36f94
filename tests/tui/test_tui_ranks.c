/*
 * `dalic tui --stats-dir DIR` (tui/ranks_view.c): a directory of ranks' statistics opened
 * read-only — the RANKS pane with the straggler marked, the selected rank's operators, the
 * summary with the shard coverage — driven headless.
 */
#include "tests/testlib.h"
#include "tests/testlib/tui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

TestSuite(tui_ranks, .timeout = 120, .fini = tl_tmpdir_remove);

/* Three ranks of the file reader over the sample images (fast even under sanitizers); rank 1
 * slowed down far below them. */
static const char *tranks_make_dir(void)
{
	const char *script = tl_tmp_path("tranks.py");
	tl_write_text(script, "from nvidia.dali import pipeline_def\n"
	                      "import nvidia.dali.fn as fn\n"
	                      "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                      "def p():\n"
	                      "    jpegs, labels = fn.readers.file(file_root='samples/images', "
	                      "name='Reader')\n"
	                      "    return jpegs, labels\n"
	                      "pipe = p()\n");
	static char dir[256];
	snprintf(dir, sizeof dir, "%s", tl_tmp_path("tranks_stats"));
	setenv("DALIC_TEST_DELAY_RANK", "1", 1);
	setenv("DALIC_TEST_DELAY_US", "60000", 1);
	setenv("WORLD_SIZE", "3", 1);
	for (int r = 0; r < 3; r++) {
		char v[16];
		snprintf(v, sizeof v, "%d", r);
		setenv("RANK", v, 1);
		tl_cmd_t c = tl_dalic(NULL, "stats %s --shard-from-env -n 3 --warmup 1 --stats-dir %s",
		                      script, dir);
		cr_assert_eq(c.status, 0, "rank %d: %s", r, c.out);
		tl_cmd_free(&c);
	}
	unsetenv("RANK");
	unsetenv("WORLD_SIZE");
	return dir;
}

Test(tui_ranks, ranks_pane_marks_the_straggler_and_selects_ranks)
{
	char args[300];
	snprintf(args, sizeof args, "--stats-dir %s", tranks_make_dir());
	tl_tui_t r = tl_tui_run(args, "dump\n<Down>\ndump\n<Down>\n<Down>\ndump\nq\n",
	                        "--size 100x30");
	cr_assert_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "RANKS");
	tl_tui_expect_has(&r, 1, "(read-only)");
	tl_tui_expect_has(&r, 1, "OPERATORS of rank 0");
	tl_tui_expect_has(&r, 1, "> 0 ");
	tl_tui_expect_has(&r, 1, "every sample in exactly one rank's shard");
	tl_tui_expect_has(&r, 1, "world 3, ranks found 3");
	tl_tui_expect_has(&r, 1, "Reader "); /* the selected rank's operators */
	/* rank 1's row carries the mark */
	const char *d = tl_tui_dump(&r, 1);
	char line[256];
	bool marked = false;
	for (int row = 0; row < 30; row++)
		if (tl_tui_line(d, row, line, sizeof line) && strstr(line, "  1 "))
			marked |= strstr(line, "STRAGGLER") != NULL;
	cr_expect(marked, "rank 1 is not marked:\n%s", d);
	tl_tui_expect_has(&r, 2, "OPERATORS of rank 1");
	tl_tui_expect_has(&r, 2, "> 1 ");
	tl_tui_expect_has(&r, 3, "OPERATORS of rank 2"); /* the last rank stops the selection */
	tl_tui_free(&r);
}

Test(tui_ranks, an_empty_directory_is_refused)
{
	const char *dir = tl_tmp_path("tranks_empty");
	tl_rmtree(dir);
	cr_assert_eq(mkdir(dir, 0777), 0);
	char args[300];
	snprintf(args, sizeof args, "--stats-dir %s", dir);
	tl_tui_t r = tl_tui_run(args, "dump\nq\n", NULL);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.out, "no stats-rank-N.json"), "%s", r.out);
	cr_expect_eq(r.num_dumps, 0);
	tl_tui_free(&r);
}
