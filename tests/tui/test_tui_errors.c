/*
 * Errors from the pipeline appear in place — a bad sample names its operator, sample and
 * file in the BATCH pane and marks the operator in the graph; a bad script shows its
 * file:line — and the workbench stays up: keys keep working and q exits normally.
 */
#include "tests/testlib/tui.h"

TestSuite(tui_errors, .timeout = 60);

Test(tui_errors, bad_sample_shows_operator_sample_and_file)
{
	tl_tui_t r = tl_tui_run("tests/tui/data/bad_image.py", "n\ndump\n?\ndump\nq\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "ERROR in __Image_1, sample 1");
	tl_tui_expect_has(&r, 1, "file: tests/data/not_an_image.jpg");
	tl_tui_expect_has(&r, 1,
	                  "\xe2\x9c\x96"
	                  "Image_1");                   /* ✖ in the graph box */
	tl_tui_expect_has(&r, 1, "\xe2\x9c\x96 ERROR"); /* status line */
	tl_tui_expect_has(&r, 2, "HELP");               /* still answering keys */
	tl_tui_free(&r);
}

Test(tui_errors, debug_engine_stops_on_the_failing_operator)
{
	tl_tui_t r = tl_tui_run("tests/tui/data/bad_image.py", "e\nn\ndump\nn\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "ERROR in __Image_1, sample 1");
	tl_tui_expect_has(&r, 1, "not_an_image.jpg");
	tl_tui_expect_has(&r, 1, "op 2/4"); /* stopped on the decoder */
	/* the next iteration is tried and fails on the same file again; still up */
	tl_tui_expect_has(&r, 2, "ERROR in __Image_1");
	tl_tui_free(&r);
}

Test(tui_errors, bad_script_shows_where_and_stays_up)
{
	tl_tui_t r = tl_tui_run("tests/tui/data/bad_syntax.py", "dump\nR\nn\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "bad_syntax.py:8");
	tl_tui_expect_has(&r, 1, "no graph");
	tl_tui_expect_has(&r, 1, "\xe2\x9c\x96 ERROR");
	tl_tui_expect_has(&r, 2, "bad_syntax.py:8"); /* reload: still broken, still shown */
	tl_tui_free(&r);
}

Test(tui_errors, missing_pipeline_file_is_an_error_in_place)
{
	tl_tui_t r = tl_tui_run("tests/tui/data/no_such_pipeline.py", "dump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "no_such_pipeline.py");
	tl_tui_expect_has(&r, 1, "\xe2\x9c\x96 ERROR");
	tl_tui_free(&r);
}
