/*
 * Graphviz layout mapped to cells (graph_layout.h). Edges come back from Graphviz as cubic
 * Bézier splines in points; each is sampled finely, the samples are snapped to cells, and
 * consecutive cells are joined by unit steps whose directions are OR-ed into the cell's line
 * bits. The last free cell before the head box gets an arrowhead pointing into it.
 * Graphviz reports warnings on stderr, which would scribble over the curses screen, so its
 * error function is replaced by a silent one while laying out.
 */
#include "tui/graph_layout.h"

#include "tui/screen.h"

#include <gvc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PT_PER_COL 7.2  /* 0.1 inch */
#define PT_PER_ROW 14.4 /* 0.2 inch */
#define BOX_ROWS 3
#define LABEL_MAX 18

uint32_t dalic_tui_line_glyph(unsigned b)
{
	static const uint32_t glyph[16] = {
	    [0] = ' ',
	    [TUI_LINE_N] = 0x2502,
	    [TUI_LINE_S] = 0x2502,
	    [TUI_LINE_N | TUI_LINE_S] = 0x2502,
	    [TUI_LINE_E] = 0x2500,
	    [TUI_LINE_W] = 0x2500,
	    [TUI_LINE_E | TUI_LINE_W] = 0x2500,
	    [TUI_LINE_N | TUI_LINE_E] = 0x2570,
	    [TUI_LINE_N | TUI_LINE_W] = 0x256f,
	    [TUI_LINE_S | TUI_LINE_E] = 0x256d,
	    [TUI_LINE_S | TUI_LINE_W] = 0x256e,
	    [TUI_LINE_N | TUI_LINE_E | TUI_LINE_S] = 0x251c,
	    [TUI_LINE_N | TUI_LINE_W | TUI_LINE_S] = 0x2524,
	    [TUI_LINE_E | TUI_LINE_W | TUI_LINE_S] = 0x252c,
	    [TUI_LINE_E | TUI_LINE_W | TUI_LINE_N] = 0x2534,
	    [15] = 0x253c,
	};
	return glyph[b & 15];
}

/* One Graphviz context for the process: graphviz 2.43's gvContext() leaks the plugin
 * configuration it reads (gvconfig), so a context per layout would leak ~3.6 KB each time
 * the pane is resized. The context is only ever used from the UI thread. */
static GVC_t *context;

void dalic_tui_glayout_shutdown(void)
{
	if (context)
		gvFreeContext(context);
	context = NULL;
}

/* LeakSanitizer: that configuration buffer is Graphviz's, not ours. libgvc has no frame
 * pointers, so the leak's stack stops in the library and is matched by module (sanitizer
 * builds only; the runtime looks this hook up by name). */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libgvc.so\n";
}

static int layout_silent(char *msg)
{
	(void)msg;
	return 0;
}

static void layout_make_label(const char *name, char *out, size_t n)
{
	if (!strncmp(name, "__", 2))
		name += 2;
	size_t len = strlen(name);
	if (len <= LABEL_MAX) {
		snprintf(out, n, "%s", name);
		return;
	}
	/* keep both ends: the operator's kind at the start, its number at the end */
	int head = LABEL_MAX / 2, tail = LABEL_MAX - head - 1;
	snprintf(out, n, "%.*s\xe2\x80\xa6%s", head, name, name + len - tail);
}

/* Visible producers of node v's input edge from u: u itself, or through internal nodes. */
static void layout_visible_sources(const tui_graph_t *g, int u, bool *mark, int depth)
{
	if (depth > g->num_nodes)
		return;
	if (!g->nodes[u].internal) {
		mark[u] = true;
		return;
	}
	for (int e = 0; e < g->num_edges; e++)
		if (g->edges[e].to == u)
			layout_visible_sources(g, g->edges[e].from, mark, depth + 1);
}

typedef struct raster {
	tui_glayout_t *l;
	int last_x, last_y;
	bool have_last;
} raster_t;

static bool layout_in_box(const tui_glayout_t *l, int x, int y)
{
	for (int i = 0; i < l->num_boxes; i++) {
		const tui_gbox_t *b = &l->boxes[i];
		if (x >= b->x && x < b->x + b->w && y >= b->y && y < b->y + b->h)
			return true;
	}
	return false;
}

static void layout_link_cells(tui_glayout_t *l, int x, int y, unsigned a, int nx, int ny,
                              unsigned b)
{
	if (x >= 0 && y >= 0 && x < l->w && y < l->h && !layout_in_box(l, x, y))
		l->lines[y * l->w + x] |= (uint8_t)a;
	if (nx >= 0 && ny >= 0 && nx < l->w && ny < l->h && !layout_in_box(l, nx, ny))
		l->lines[ny * l->w + nx] |= (uint8_t)b;
}

/* Moves the pen to cell (x, y): unit steps from the previous cell, the longer axis first. */
static void layout_raster_cell(raster_t *r, int x, int y)
{
	if (!r->have_last) {
		r->last_x = x;
		r->last_y = y;
		r->have_last = true;
		return;
	}
	while (r->last_x != x || r->last_y != y) {
		int dx = x - r->last_x, dy = y - r->last_y;
		int sx = 0, sy = 0;
		if (abs(dx) >= abs(dy))
			sx = dx > 0 ? 1 : -1;
		else
			sy = dy > 0 ? 1 : -1;
		unsigned out = sx > 0   ? TUI_LINE_E
		               : sx < 0 ? TUI_LINE_W
		               : sy > 0 ? TUI_LINE_S
		                        : TUI_LINE_N;
		unsigned in = out == TUI_LINE_E   ? TUI_LINE_W
		              : out == TUI_LINE_W ? TUI_LINE_E
		              : out == TUI_LINE_S ? TUI_LINE_N
		                                  : TUI_LINE_S;
		layout_link_cells(r->l, r->last_x, r->last_y, out, r->last_x + sx, r->last_y + sy,
		                  in);
		r->last_x += sx;
		r->last_y += sy;
	}
}

/* Spline samples level with the end boxes are left out: the ports take over there, so every
 * edge leaves and enters a box straight instead of wherever Graphviz spread its ports. */
static bool layout_near_ends(const tui_glayout_t *l, const tui_gbox_t *tail, const tui_gbox_t *head,
                             int x, int y)
{
	if (l->top_to_bottom)
		return (y >= tail->y && y <= tail->y + tail->h) ||
		       (y >= head->y - 1 && y < head->y + head->h);
	return (x >= tail->x && x <= tail->x + tail->w) ||
	       (x >= head->x - 1 && x < head->x + head->w);
}

static void layout_cubic(const pointf *p, double t, double *x, double *y)
{
	double u = 1 - t;
	*x = u * u * u * p[0].x + 3 * u * u * t * p[1].x + 3 * u * t * t * p[2].x +
	     t * t * t * p[3].x;
	*y = u * u * u * p[0].y + 3 * u * u * t * p[1].y + 3 * u * t * t * p[2].y +
	     t * t * t * p[3].y;
}

/* Where an edge leaves the tail box and enters the head box: the middle of the facing sides,
 * so every edge meets a box at its label row (LR) or centre column (TB). */
static void layout_edge_port(const tui_glayout_t *l, const tui_gbox_t *b, bool head, int *x, int *y)
{
	if (l->top_to_bottom) {
		*x = b->x + b->w / 2;
		*y = head ? b->y - 1 : b->y + b->h;
	} else {
		*x = head ? b->x - 1 : b->x + b->w;
		*y = b->y + b->h / 2;
	}
}

static void layout_raster_edge(tui_glayout_t *l, Agedge_t *e, double top, const tui_gbox_t *tail,
                               const tui_gbox_t *head)
{
	splines *spl = ED_spl(e);
	if (!spl || !tail || !head)
		return;
	raster_t r = {l, 0, 0, false};
	int x, y;
	layout_edge_port(l, tail, false, &x, &y);
	layout_link_cells(l, x, y, l->top_to_bottom ? TUI_LINE_N : TUI_LINE_W, -1, -1, 0);
	layout_raster_cell(&r, x, y);
	for (int b = 0; b < spl->size; b++) {
		const bezier *bz = &spl->list[b];
		for (int i = 0; i + 3 < bz->size; i += 3)
			for (int s = 0; s <= 24; s++) {
				double px, py;
				layout_cubic(&bz->list[i], s / 24.0, &px, &py);
				int cx = (int)floor(px / PT_PER_COL),
				    cy = (int)floor((top - py) / PT_PER_ROW);
				if (!layout_near_ends(l, tail, head, cx, cy))
					layout_raster_cell(&r, cx, cy);
			}
	}
	layout_edge_port(l, head, true, &x, &y);
	layout_raster_cell(&r, x, y);
	if (x >= 0 && y >= 0 && x < l->w && y < l->h && !layout_in_box(l, x, y))
		l->arrows[y * l->w + x] = l->top_to_bottom ? 0x25bc : 0x25b6; /* ▼ ▶ */
}

static void layout_set_inches(void *obj, const char *attr, double cells, double per_cell)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%.3f", cells * per_cell / 72.0);
	agsafeset(obj, (char *)attr, buf, "");
}

tui_glayout_t *dalic_tui_glayout_build(const tui_graph_t *g, bool tb)
{
	tui_glayout_t *l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	l->generation = g->generation;
	l->top_to_bottom = tb;
	l->boxes = calloc((size_t)g->num_nodes + 1, sizeof *l->boxes);
	Agnode_t **an = calloc((size_t)g->num_nodes + 1, sizeof *an);
	bool *mark = calloc((size_t)g->num_nodes + 1, sizeof *mark);
	if (!context)
		context = gvContext();
	GVC_t *gvc = context;
	if (!l->boxes || !an || !mark || !gvc) {
		free(an);
		free(mark);
		dalic_tui_glayout_free(l);
		return NULL;
	}
	agseterrf(layout_silent);
	Agraph_t *ag = agopen("pipeline", Agdirected, NULL);
	agsafeset(ag, "rankdir", tb ? "TB" : "LR", "");
	agsafeset(ag, "nodesep", tb ? "0.3" : "0.2", "");
	agsafeset(ag, "ranksep", tb ? "0.4" : "0.5", "");
	for (int i = 0; i < g->num_nodes; i++) {
		if (g->nodes[i].internal)
			continue;
		tui_gbox_t *b = &l->boxes[l->num_boxes++];
		b->node = i;
		layout_make_label(g->nodes[i].name, b->label, sizeof b->label);
		b->w = dalic_tui_text_width(b->label) + 4;
		if (b->w < 9)
			b->w = 9;
		b->h = BOX_ROWS;
		char id[16];
		snprintf(id, sizeof id, "n%d", i);
		an[i] = agnode(ag, id, 1);
		agsafeset(an[i], "shape", "box", "");
		agsafeset(an[i], "fixedsize", "true", "");
		agsafeset(an[i], "label", "", "");
		layout_set_inches(an[i], "width", b->w, PT_PER_COL);
		layout_set_inches(an[i], "height", b->h, PT_PER_ROW);
	}
	for (int v = 0; v < g->num_nodes; v++) {
		if (!an[v])
			continue;
		memset(mark, 0, sizeof *mark * (size_t)g->num_nodes);
		for (int e = 0; e < g->num_edges; e++)
			if (g->edges[e].to == v)
				layout_visible_sources(g, g->edges[e].from, mark, 0);
		for (int u = 0; u < g->num_nodes; u++)
			if (mark[u] && an[u])
				agedge(ag, an[u], an[v], NULL, 1);
	}
	bool ok = gvLayout(gvc, ag, "dot") == 0;
	if (ok) {
		boxf bb = GD_bb(ag);
		double top = bb.UR.y;
		l->w = (int)ceil(bb.UR.x / PT_PER_COL) + 1;
		l->h = (int)ceil(bb.UR.y / PT_PER_ROW) + 1;
		l->lines = calloc((size_t)l->w * (size_t)l->h, 1);
		l->arrows = calloc((size_t)l->w * (size_t)l->h, sizeof *l->arrows);
		ok = l->lines && l->arrows;
		for (int i = 0; ok && i < l->num_boxes; i++) {
			tui_gbox_t *b = &l->boxes[i];
			pointf c = ND_coord(an[b->node]);
			b->x = (int)lround(c.x / PT_PER_COL - b->w / 2.0);
			b->y = (int)lround((top - c.y) / PT_PER_ROW - b->h / 2.0);
			if (b->x < 0)
				b->x = 0;
			if (b->y < 0)
				b->y = 0;
		}
		for (int i = 0; ok && i < l->num_boxes; i++)
			for (Agedge_t *e = agfstout(ag, an[l->boxes[i].node]); e;
			     e = agnxtout(ag, e)) {
				const tui_gbox_t *head = NULL;
				for (int k = 0; k < l->num_boxes; k++)
					if (an[l->boxes[k].node] == aghead(e))
						head = &l->boxes[k];
				layout_raster_edge(l, e, top, &l->boxes[i], head);
			}
		gvFreeLayout(gvc, ag);
	}
	agclose(ag);
	free(an);
	free(mark);
	if (!ok) {
		dalic_tui_glayout_free(l);
		return NULL;
	}
	return l;
}

void dalic_tui_glayout_free(tui_glayout_t *l)
{
	if (!l)
		return;
	free(l->boxes);
	free(l->lines);
	free(l->arrows);
	free(l);
}

const tui_gbox_t *dalic_tui_glayout_box(const tui_glayout_t *l, int node)
{
	for (int i = 0; l && i < l->num_boxes; i++)
		if (l->boxes[i].node == node)
			return &l->boxes[i];
	return NULL;
}
