/*
 * BATCH pane: decoded images are drawn as chafa thumbnails with the selected sample's shape,
 * dtype, statistics and source file; non-image tensors are shown as values; any node can be
 * looked at in the debug engine; the arrows pick a sample.
 */
#include "tests/testlib/tui.h"

TestSuite(tui_batch, .timeout = 60);

/* Cells drawn with block elements (U+2580..U+259F): how much picture there is. */
static int tui_batch_block_cells(const char *dump)
{
	int n = 0;
	for (const unsigned char *p = (const unsigned char *)dump; p[0]; p++)
		if (p[0] == 0xe2 && p[1] == 0x96 && p[2] >= 0x80 && p[2] <= 0x9f)
			n++;
	return n;
}

Test(tui_batch, images_have_thumbnails_and_provenance)
{
	tl_tui_t r = tl_tui_run("samples/scripts/getting_started.py", "n\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "__CropMirrorNormalize_3");
	tl_tui_expect_has(&r, 1, "FLOAT CHW");
	tl_tui_expect_has(&r, 1, "[3, 224, 224]");
	tl_tui_expect_has(&r, 1, "[#0]");
	cr_expect(strstr(tl_tui_dump(&r, 1), "cat/") || strstr(tl_tui_dump(&r, 1), "coffee/") ||
	              strstr(tl_tui_dump(&r, 1), "space/"),
	          "no source file:\n%s", tl_tui_dump(&r, 1));
	cr_expect_gt(tui_batch_block_cells(tl_tui_dump(&r, 1)), 40, "no thumbnails:\n%s",
	             tl_tui_dump(&r, 1));
	tl_tui_free(&r);
}

Test(tui_batch, debug_engine_shows_any_node)
{
	/* from crop_mirror_normalize two operators back: the decoder's output */
	tl_tui_t r = tl_tui_run("samples/scripts/getting_started.py",
	                        "e\nn\n[\n[\ndump\n[\nv\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "__Image_1");
	tl_tui_expect_has(&r, 1, "it 0 UINT8 HWC");
	cr_expect_gt(tui_batch_block_cells(tl_tui_dump(&r, 1)), 40, "no thumbnails:\n%s",
	             tl_tui_dump(&r, 1));
	/* the reader's second output: labels, as values */
	tl_tui_expect_has(&r, 2, "output 2/2");
	tl_tui_expect_has(&r, 2, "INT32");
	tl_tui_expect_has(&r, 2, "#0");
	tl_tui_free(&r);
}

Test(tui_batch, tensors_are_shown_as_values)
{
	tl_tui_t r = tl_tui_run("@arith", "n\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "__Uniform_0");
	tl_tui_expect_has(&r, 1, "it 0 FLOAT cpu, 32 samples");
	tl_tui_expect_has(&r, 1, "#0   [] = ");
	tl_tui_expect_has(&r, 1, "#5   [] = ");
	tl_tui_free(&r);
}

Test(tui_batch, arrows_pick_a_sample)
{
	tl_tui_t r = tl_tui_run("samples/scripts/getting_started.py",
	                        "n\n<Tab>\n<Tab>\n<Tab>\ndump\n<Right>\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "[#0]");
	tl_tui_expect_has(&r, 1, "#0 [3, 224, 224] FLOAT min");
	tl_tui_expect_has(&r, 2, "[#1]");
	tl_tui_expect_has(&r, 2, "#1 [3, 224, 224] FLOAT min");
	tl_tui_free(&r);
}
