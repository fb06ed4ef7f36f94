/*
 * GRAPH pane: the pipeline as Graphviz lays it out (graph_layout.c), drawn as boxes coloured
 * by stage with the stage written in the bottom border, so it reads without colour too.
 * The selected operator has a double border; the executing one a heavy border and a ▶ (in
 * the debug engine: the operator that runs next; in the full engine: every operator that ran
 * since the previous frame); a failed one a ✖. Left-to-right layout unless top-to-bottom fits
 * the pane better; a graph larger than the pane scrolls, following the selection.
 */
#include "tui/app.h"

#include "tui/keys.h"
#include "tui/theme.h"

#include <stdlib.h>
#include <string.h>

/* How badly a layout overflows a pane: 0 when it fits. */
static double pane_graph_overflow(const tui_glayout_t *l, int w, int h)
{
	double ox = l->w > w ? (double)(l->w - w) / w : 0,
	       oy = l->h > h ? (double)(l->h - h) / h : 0;
	return ox + oy;
}

static void pane_graph_ensure_layout(tui_app_t *app, int w, int h)
{
	const tui_graph_t *g = app->model->graph;
	tui_glayout_t *l = app->layout;
	if (l && g && l->generation == g->generation && app->layout_w == w && app->layout_h == h)
		return;
	dalic_tui_glayout_free(l);
	app->layout = NULL;
	if (!g)
		return;
	tui_glayout_t *lr = dalic_tui_glayout_build(g, false);
	if (lr && pane_graph_overflow(lr, w, h) > 0) {
		tui_glayout_t *tb = dalic_tui_glayout_build(g, true);
		if (tb && pane_graph_overflow(tb, w, h) < pane_graph_overflow(lr, w, h)) {
			dalic_tui_glayout_free(lr);
			lr = tb;
		} else {
			dalic_tui_glayout_free(tb);
		}
	}
	app->layout = lr;
	app->layout_w = w;
	app->layout_h = h;
}

static void pane_graph_follow_selection(tui_app_t *app, int w, int h)
{
	const tui_gbox_t *b = dalic_tui_glayout_box(app->layout, dalic_tui_app_selected_node(app));
	if (b && strcmp(app->graph_followed, app->sel_op)) {
		if (b->x < app->graph_x || b->x + b->w > app->graph_x + w)
			app->graph_x = b->x + b->w / 2 - w / 2;
		if (b->y < app->graph_y || b->y + b->h > app->graph_y + h)
			app->graph_y = b->y + b->h / 2 - h / 2;
		snprintf(app->graph_followed, sizeof app->graph_followed, "%s", app->sel_op);
	}
	const tui_glayout_t *l = app->layout;
	if (app->graph_x > l->w - w)
		app->graph_x = l->w - w;
	if (app->graph_y > l->h - h)
		app->graph_y = l->h - h;
	if (app->graph_x < 0)
		app->graph_x = 0;
	if (app->graph_y < 0)
		app->graph_y = 0;
}

static bool pane_graph_executing(const tui_app_t *app, int node)
{
	const tui_model_t *m = app->model;
	if (m->engine == TUI_ENGINE_DEBUG)
		return node == m->next_op;
	return node < app->num_active && app->active[node];
}

static void pane_graph_draw_box(tui_app_t *app, tui_canvas_t c, const tui_gbox_t *b, int ox, int oy)
{
	static const uint32_t light[] = {0x250c, 0x2510, 0x2514, 0x2518, 0x2500, 0x2502};
	static const uint32_t heavy[] = {0x250f, 0x2513, 0x2517, 0x251b, 0x2501, 0x2503};
	static const uint32_t dbl[] = {0x2554, 0x2557, 0x255a, 0x255d, 0x2550, 0x2551};
	static const char *stage_name[] = {"cpu", "mixed", "gpu"};
	const tui_gnode_t *n = &app->model->graph->nodes[b->node];
	bool selected = !strcmp(n->name, app->sel_op);
	bool running = pane_graph_executing(app, b->node);
	bool failed = app->model->error.set && !strcmp(app->model->error.op, n->name);
	const uint32_t *g = selected ? dbl : running ? heavy : light;
	tui_style_t st = failed ? dalic_tui_style(TUI_S_ERROR) : dalic_tui_stage_style(n->stage);
	tui_canvas_t bc = dalic_tui_canvas_sub(c, (tui_rect_t){b->x - ox, b->y - oy, b->w, b->h});
	/* a box partly scrolled out keeps its true corners: draw in box coordinates */
	int bx = b->x - ox < 0 ? b->x - ox : 0, by = b->y - oy < 0 ? b->y - oy : 0;
	for (int x = 1; x < b->w - 1; x++) {
		dalic_tui_put(bc, bx + x, by, g[4], st);
		dalic_tui_put(bc, bx + x, by + b->h - 1, g[4], st);
	}
	for (int y = 1; y < b->h - 1; y++) {
		dalic_tui_put(bc, bx, by + y, g[5], st);
		dalic_tui_put(bc, bx + b->w - 1, by + y, g[5], st);
		dalic_tui_fill(bc, (tui_rect_t){bx + 1, by + y, b->w - 2, 1}, ' ',
		               dalic_tui_style(TUI_S_NORMAL));
	}
	dalic_tui_put(bc, bx, by, g[0], st);
	dalic_tui_put(bc, bx + b->w - 1, by, g[1], st);
	dalic_tui_put(bc, bx, by + b->h - 1, g[2], st);
	dalic_tui_put(bc, bx + b->w - 1, by + b->h - 1, g[3], st);
	tui_style_t ls = selected ? dalic_tui_style(TUI_S_SELECTED) : dalic_tui_style(TUI_S_NORMAL);
	if (failed)
		dalic_tui_put(bc, bx + 1, by + 1, 0x2716, dalic_tui_style(TUI_S_ERROR)); /* ✖ */
	else if (running)
		dalic_tui_put(bc, bx + 1, by + 1, 0x25b6, dalic_tui_style(TUI_S_EXECUTING)); /* ▶ */
	dalic_tui_print(bc, bx + 2, by + 1, ls, b->label, b->w - 4);
	dalic_tui_print(bc, bx + 2, by + b->h - 1, st,
	                stage_name[n->stage >= 0 && n->stage < 3 ? n->stage : 0], b->w - 4);
}

static void pane_graph_draw(tui_app_t *app, tui_canvas_t c)
{
	const tui_model_t *m = app->model;
	if (!m->graph) {
		dalic_tui_wrap(c, 1, 0, c.r.h, dalic_tui_style(TUI_S_DIM),
		               m->error.set
		                   ? "no graph: the pipeline did not load (the error is shown in "
		                     "BATCH and below)"
		                   : "loading the pipeline...");
		return;
	}
	pane_graph_ensure_layout(app, c.r.w, c.r.h);
	const tui_glayout_t *l = app->layout;
	if (!l) {
		dalic_tui_print(c, 1, 0, dalic_tui_style(TUI_S_ERROR),
		                "Graphviz could not lay the graph out", -1);
		return;
	}
	pane_graph_follow_selection(app, c.r.w, c.r.h);
	int ox = app->graph_x, oy = app->graph_y;
	for (int y = 0; y < c.r.h && y + oy < l->h; y++)
		for (int x = 0; x < c.r.w && x + ox < l->w; x++) {
			int i = (y + oy) * l->w + x + ox;
			if (l->arrows[i])
				dalic_tui_put(c, x, y, l->arrows[i], dalic_tui_style(TUI_S_EDGE));
			else if (l->lines[i])
				dalic_tui_put(c, x, y, dalic_tui_line_glyph(l->lines[i]),
				              dalic_tui_style(TUI_S_EDGE));
		}
	for (int i = 0; i < l->num_boxes; i++)
		pane_graph_draw_box(app, c, &l->boxes[i], ox, oy);
	/* scroll hints where the graph continues beyond the pane */
	tui_style_t dim = dalic_tui_style(TUI_S_DIM);
	if (ox > 0)
		dalic_tui_put(c, 0, c.r.h / 2, 0xab, dim); /* « */
	if (ox + c.r.w < l->w)
		dalic_tui_put(c, c.r.w - 1, c.r.h / 2, 0xbb, dim); /* » */
	if (oy > 0)
		dalic_tui_put(c, c.r.w / 2, 0, 0x2303, dim); /* ⌃ */
	if (oy + c.r.h < l->h)
		dalic_tui_put(c, c.r.w / 2, c.r.h - 1, 0x2304, dim); /* ⌄ */
}

/* The nearest box in the direction of an arrow key, or -1. */
static int pane_graph_neighbour(const tui_glayout_t *l, const tui_gbox_t *from, int pane_graph_key)
{
	int fx = from->x + from->w / 2, fy = (from->y + from->h / 2) * 2; /* rows are 2 units */
	int best = -1;
	long best_score = 0;
	for (int i = 0; i < l->num_boxes; i++) {
		const tui_gbox_t *b = &l->boxes[i];
		if (b == from)
			continue;
		long dx = b->x + b->w / 2 - fx, dy = (b->y + b->h / 2) * 2 - fy;
		long along = pane_graph_key == TUI_KEY_RIGHT  ? dx
		             : pane_graph_key == TUI_KEY_LEFT ? -dx
		             : pane_graph_key == TUI_KEY_DOWN ? dy
		                                              : -dy;
		long across = pane_graph_key == TUI_KEY_RIGHT || pane_graph_key == TUI_KEY_LEFT
		                  ? labs(dy)
		                  : labs(dx);
		if (along <= 0)
			continue;
		long score = along + 2 * across;
		if (best < 0 || score < best_score) {
			best = b->node;
			best_score = score;
		}
	}
	return best;
}

static unsigned pane_graph_key(tui_app_t *app, int k)
{
	const tui_glayout_t *l = app->layout;
	if (!l || !l->num_boxes)
		return TUI_HANDLED;
	int half = app->panes[TUI_PANE_GRAPH].h / 2 + 1;
	switch (k) {
	case TUI_KEY_PGUP:
		app->graph_y -= half;
		return TUI_HANDLED | TUI_REDRAW;
	case TUI_KEY_PGDN:
		app->graph_y += half;
		return TUI_HANDLED | TUI_REDRAW;
	case TUI_KEY_HOME:
		app->graph_x = 0;
		return TUI_HANDLED | TUI_REDRAW;
	case TUI_KEY_END:
		app->graph_x = l->w;
		return TUI_HANDLED | TUI_REDRAW;
	}
	const tui_gbox_t *from = dalic_tui_glayout_box(l, dalic_tui_app_selected_node(app));
	int to = from ? pane_graph_neighbour(l, from, k) : l->boxes[0].node;
	if (to < 0) /* nothing that way: walk execution order instead */
		for (int i = 0; i < l->num_boxes; i++)
			if (&l->boxes[i] == from) {
				int j = k == TUI_KEY_RIGHT || k == TUI_KEY_DOWN ? i + 1 : i - 1;
				to = j >= 0 && j < l->num_boxes ? l->boxes[j].node : -1;
			}
	if (to < 0)
		return TUI_HANDLED;
	dalic_tui_app_select_node(app, to);
	return TUI_HANDLED | TUI_REDRAW | TUI_SELECT;
}

const tui_pane_class_t tui_pane_graph = {
    .title = "GRAPH",
    .draw = pane_graph_draw,
    .key = pane_graph_key,
};
