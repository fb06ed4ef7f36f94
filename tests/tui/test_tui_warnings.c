/*
 * Data-quality warnings in the workbench (issue 20): the BATCH pane marks a sample whose file
 * the decoder warned about (decoded anyway, as DALI does) and shows the warning for the
 * selected one.
 */
#include "tests/testlib/damage.h"
#include "tests/testlib/tui.h"

#include <sys/stat.h>

TestSuite(tui_warnings, .timeout = 60, .fini = tl_tmpdir_remove);

/* A script decoding [arith_flip3.jpg, arith.jpg] of the damaged set, in that order. */
static const char *tuiw_script(void)
{
	const char *set = tl_tmp_path("set");
	cr_assert_eq(mkdir(set, 0755), 0);
	cr_assert_gt(tl_damage_write_set("samples/images", set), 0);
	char text[1024];
	snprintf(text, sizeof text,
	         "from nvidia.dali import pipeline_def\n"
	         "import nvidia.dali.fn as fn\n"
	         "@pipeline_def\n"
	         "def damaged():\n"
	         "    jpegs, labels = fn.readers.file(file_root='%s',\n"
	         "                                    files=['arith_flip3.jpg', 'arith.jpg'])\n"
	         "    return fn.decoders.image(jpegs, name='dec')\n"
	         "pipe = damaged(batch_size=2, num_threads=1, device_id=None)\n",
	         set);
	const char *path = tl_tmp_path("damaged.py");
	tl_write_text(path, text);
	return path;
}

Test(tui_warnings, batch_marks_the_damaged_sample)
{
	tl_tui_t r = tl_tui_run(tuiw_script(), "n\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "[#0 \xe2\x9a\xa0]");
	tl_tui_expect_has(&r, 1, "dec: Corrupt JPEG data: bad arithmetic c"); /* cut at the pane */
	cr_expect_null(strstr(tl_tui_dump(&r, 1), "#1 \xe2\x9a\xa0"), "%s", tl_tui_dump(&r, 1));
	tl_tui_free(&r);
}
