/*
 * GRAPH pane: operators laid out by Graphviz appear as boxes with their stage, joined by
 * box-drawing edges; the selection (double border) follows the arrow keys; the next operator
 * of the debug engine is marked; a graph larger than the pane scrolls to the selection.
 */
#include "tests/testlib/tui.h"

TestSuite(tui_graph, .timeout = 60);

/* The label inside the double-bordered (selected) box, or "" if none is visible. */
static const char *tui_graph_selected_label(const char *dump, char *buf, size_t n)
{
	const char *p = strstr(dump, "\xe2\x95\x91 "); /* "║ " */
	buf[0] = 0;
	if (!p)
		return buf;
	p += 4;
	const char *end = strstr(p, " \xe2\x95\x91");
	if (end)
		snprintf(buf, n, "%.*s", (int)(end - p), p);
	return buf;
}

Test(tui_graph, operators_are_boxes_joined_by_edges)
{
	tl_tui_t r = tl_tui_run("@arith", "z\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "GRAPH");
	for (const char *op = "Uniform_0\0CoinFlip_1\0Cast_4\0"; *op; op += strlen(op) + 1)
		tl_tui_expect_has(&r, 1, op);
	tl_tui_expect_has(&r, 1, "\xe2\x94\x8c"); /* ┌ a box */
	tl_tui_expect_has(&r, 1,
	                  "\xe2\x94\x94\xe2\x94\x80"
	                  "cpu"); /* └─cpu stage tag */
	/* an edge's arrowhead: ▶ left to right, ▼ top to bottom, whichever layout fits */
	cr_expect(strstr(tl_tui_dump(&r, 1), "\xe2\x96\xb6") ||
	              strstr(tl_tui_dump(&r, 1), "\xe2\x96\xbc"),
	          "no arrowhead:\n%s", tl_tui_dump(&r, 1));
	/* internal operators (MakeContiguous) are not drawn */
	tl_tui_expect_lacks(&r, 1, "MakeContiguous");
	tl_tui_free(&r);
}

Test(tui_graph, image_pipeline_shows_stages)
{
	tl_tui_t r = tl_tui_run("samples/scripts/getting_started.py", "z\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "File_0");
	tl_tui_expect_has(&r, 1, "Image_1");
	tl_tui_expect_has(&r, 1, "Resize_2");
	tl_tui_expect_has(&r, 1,
	                  "\xe2\x94\x80"
	                  "mixed"); /* decoders.image(device="mixed") */
	tl_tui_expect_has(&r, 1,
	                  "\xe2\x94\x80"
	                  "gpu");
	tl_tui_expect_has(&r, 1,
	                  "\xe2\x94\x80"
	                  "cpu");
	tl_tui_free(&r);
}

Test(tui_graph, arrows_move_the_selection)
{
	tl_tui_t r = tl_tui_run("@arith", "z\ndump\n<Right>\ndump\n<Left>\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	char a[64], b[64], c[64];
	tui_graph_selected_label(tl_tui_dump(&r, 1), a, sizeof a);
	tui_graph_selected_label(tl_tui_dump(&r, 2), b, sizeof b);
	tui_graph_selected_label(tl_tui_dump(&r, 3), c, sizeof c);
	cr_expect_str_eq(a, "Uniform_0", "%s", tl_tui_dump(&r, 1));
	cr_expect(b[0] && strcmp(a, b), "selection did not move:\n%s", tl_tui_dump(&r, 2));
	cr_expect_str_eq(c, a, "%s", tl_tui_dump(&r, 3));
	tl_tui_free(&r);
}

Test(tui_graph, next_operator_of_debug_engine_is_marked)
{
	tl_tui_t r = tl_tui_run("@arith", "z\ns\ns\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	/* heavy border and ▶ on the operator about to run (CoinFlip_1 after two steps) */
	tl_tui_expect_has(&r, 1,
	                  "\xe2\x94\x83\xe2\x96\xb6"
	                  "CoinFlip_1");
	tl_tui_free(&r);
}

Test(tui_graph, big_graph_scrolls_to_the_selection)
{
	/* at 80x24 the graph is wider than its pane: » says there is more to the right */
	tl_tui_t r = tl_tui_run("@arith", "dump\n[\ndump\nq\n", "--size 80x24");
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "\xc2\xbb");
	tl_tui_expect_lacks(&r, 1, "\xe2\x94\x82 Cast_4 \xe2\x94\x82");
	/* '[' from the first operator wraps to the last: the view scrolls to it */
	tl_tui_expect_has(&r, 2, "\xe2\x95\x91 Cast_4 \xe2\x95\x91");
	tl_tui_expect_has(&r, 2, "\xc2\xab");
	tl_tui_free(&r);
}
