/*
 * GRAPH pane: operators laid out by Graphviz appear as boxes with their stage, joined by
 * box-drawing edges; the selection (double border) follows the arrow keys; the next operator
 * of the debug engine is marked; a graph larger than the pane scrolls to the selection.
 */
#include "tui_test.h"

TestSuite(tui_graph, .timeout = 60);

/* The label inside the double-bordered (selected) box, or "" if none is visible. */
static const char *selected_label(const char *dump, char *buf, size_t n)
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
	tui_run_t r = tui_run("@arith", "z\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tui_expect_has(&r, 1, "GRAPH");
	for (const char *op = "Uniform_0\0CoinFlip_1\0Cast_4\0"; *op; op += strlen(op) + 1)
		tui_expect_has(&r, 1, op);
	tui_expect_has(&r, 1, "\xe2\x94\x8c"); /* ┌ a box */
	tui_expect_has(&r, 1,
	               "\xe2\x94\x94\xe2\x94\x80"
	               "cpu"); /* └─cpu stage tag */
	/* an edge's arrowhead: ▶ left to right, ▼ top to bottom, whichever layout fits */
	cr_expect(strstr(tui_dump(&r, 1), "\xe2\x96\xb6") ||
	              strstr(tui_dump(&r, 1), "\xe2\x96\xbc"),
	          "no arrowhead:\n%s", tui_dump(&r, 1));
	/* internal operators (MakeContiguous) are not drawn */
	tui_expect_lacks(&r, 1, "MakeContiguous");
	tui_run_free(&r);
}

Test(tui_graph, image_pipeline_shows_stages)
{
	tui_run_t r = tui_run("samples/scripts/getting_started.py", "z\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tui_expect_has(&r, 1, "File_0");
	tui_expect_has(&r, 1, "Image_1");
	tui_expect_has(&r, 1, "Resize_2");
	tui_expect_has(&r, 1,
	               "\xe2\x94\x80"
	               "mixed"); /* decoders.image(device="mixed") */
	tui_expect_has(&r, 1,
	               "\xe2\x94\x80"
	               "gpu");
	tui_expect_has(&r, 1,
	               "\xe2\x94\x80"
	               "cpu");
	tui_run_free(&r);
}

Test(tui_graph, arrows_move_the_selection)
{
	tui_run_t r = tui_run("@arith", "z\ndump\n<Right>\ndump\n<Left>\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	char a[64], b[64], c[64];
	selected_label(tui_dump(&r, 1), a, sizeof a);
	selected_label(tui_dump(&r, 2), b, sizeof b);
	selected_label(tui_dump(&r, 3), c, sizeof c);
	cr_expect_str_eq(a, "Uniform_0", "%s", tui_dump(&r, 1));
	cr_expect(b[0] && strcmp(a, b), "selection did not move:\n%s", tui_dump(&r, 2));
	cr_expect_str_eq(c, a, "%s", tui_dump(&r, 3));
	tui_run_free(&r);
}

Test(tui_graph, next_operator_of_debug_engine_is_marked)
{
	tui_run_t r = tui_run("@arith", "z\ns\ns\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	/* heavy border and ▶ on the operator about to run (CoinFlip_1 after two steps) */
	tui_expect_has(&r, 1,
	               "\xe2\x94\x83\xe2\x96\xb6"
	               "CoinFlip_1");
	tui_run_free(&r);
}

Test(tui_graph, big_graph_scrolls_to_the_selection)
{
	/* at 80x24 the graph is wider than its pane: » says there is more to the right */
	tui_run_t r = tui_run("@arith", "dump\n[\ndump\nq\n", "--size 80x24");
	cr_expect_eq(r.status, 0, "%s", r.out);
	tui_expect_has(&r, 1, "\xc2\xbb");
	tui_expect_lacks(&r, 1, "\xe2\x94\x82 Cast_4 \xe2\x94\x82");
	/* '[' from the first operator wraps to the last: the view scrolls to it */
	tui_expect_has(&r, 2, "\xe2\x95\x91 Cast_4 \xe2\x95\x91");
	tui_expect_has(&r, 2, "\xc2\xab");
	tui_run_free(&r);
}
