/*
 * Boxes in the BATCH pane: a black picture with a box output beside it shows the box's
 * outline (coloured block cells) whether the picture or the boxes are selected, with a note
 * naming the other output; the same black picture without boxes shows nothing drawn.
 */
#include "tests/testlib/tui.h"

#include <stdlib.h>
#include <string.h>

TestSuite(tui_boxes, .timeout = 60);

/* Cells drawn with block elements (U+2580..U+259F) in the BATCH pane: right of the GRAPH
 * pane's border (U+2503) on the rows above the OPERATORS pane, whose queue bars are blocks
 * too. */
static int tui_boxes_batch_cells(const char *dump)
{
	int n = 0;
	const char *line = dump;
	while (*line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char *row = strndup(line, len);
		cr_assert_not_null(row);
		if (strstr(row, "OPERATORS")) {
			free(row);
			break;
		}
		const char *from = row, *bar;
		while ((bar = strstr(from, "\xe2\x94\x83")))
			from = bar + 3;
		for (const unsigned char *p = (const unsigned char *)from; p[0]; p++)
			if (p[0] == 0xe2 && p[1] == 0x96 && p[2] >= 0x80 && p[2] <= 0x9f)
				n++;
		free(row);
		if (!end)
			break;
		line = end + 1;
	}
	return n;
}

/* A 64x64 black RGB picture and, unless `none`, one relative box [0.25, 0.25, 0.75, 0.75];
 * the outputs in the order `outputs` gives. */
static const char *tui_boxes_script(const char *name, const char *outputs)
{
	char text[1024];
	int n = snprintf(text, sizeof text,
	                 "from nvidia.dali import pipeline_def, fn, types\n"
	                 "@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=3)\n"
	                 "def p():\n"
	                 "    img = fn.constant(idata=[0], shape=[64, 64, 3], dtype=types.UINT8,\n"
	                 "                      layout='HWC')\n"
	                 "    boxes = fn.constant(fdata=[0.25, 0.25, 0.75, 0.75], shape=[1, 4])\n"
	                 "    return %s\n"
	                 "pipe = p()\n",
	                 outputs);
	const char *path = tl_tmp_path(name);
	tl_write_file(path, text, (size_t)n);
	return path;
}

Test(tui_boxes, picture_selected_shows_the_boxes)
{
	tl_tui_t r = tl_tui_run(tui_boxes_script("pic.py", "img, boxes"), "n\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "drawn");
	cr_expect_gt(tui_boxes_batch_cells(tl_tui_dump(&r, 1)), 8, "no outline:\n%s",
	             tl_tui_dump(&r, 1));
	tl_tui_free(&r);
}

Test(tui_boxes, black_picture_alone_is_blank)
{
	tl_tui_t r = tl_tui_run(tui_boxes_script("alone.py", "img"), "n\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_lacks(&r, 1, "drawn");
	cr_expect_eq(tui_boxes_batch_cells(tl_tui_dump(&r, 1)), 0, "drawn:\n%s",
	             tl_tui_dump(&r, 1));
	tl_tui_free(&r);
}

Test(tui_boxes, boxes_selected_show_the_picture_under_them)
{
	tl_tui_t r = tl_tui_run(tui_boxes_script("boxes.py", "boxes, img"), "n\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "boxes drawn over output");
	tl_tui_expect_lacks(&r, 1, "= [");
	cr_expect_gt(tui_boxes_batch_cells(tl_tui_dump(&r, 1)), 8, "no outline:\n%s",
	             tl_tui_dump(&r, 1));
	tl_tui_free(&r);
}
