/*
 * The graph pane's layout: libgraphviz's dot engine places the operators, and the result is
 * mapped onto character cells — a box per operator and, per cell, which of its four sides
 * an edge line leaves through (so crossings and fan-ins become ├ ┬ ┼ naturally).
 *
 * Scale: one column is 0.1 inch and one row 0.2 inch (a terminal cell is about twice as tall
 * as it is wide), and every box is declared to Graphviz with its exact cell size, so the
 * layout needs no rescaling and boxes never overlap.
 *
 * Operators inserted by the build (MakeContiguous, transfers) are left out; edges through
 * them are contracted, so the picture shows the pipeline the user wrote.
 */
#ifndef DALIC_TUI_GRAPH_LAYOUT_H
#define DALIC_TUI_GRAPH_LAYOUT_H

#include "tui/model.h"

enum { TUI_LINE_N = 1, TUI_LINE_E = 2, TUI_LINE_S = 4, TUI_LINE_W = 8 };

typedef struct tui_gbox {
	int node;       /* index into the graph's nodes */
	int x, y, w, h; /* cells, in layout coordinates */
	char label[40];
} tui_gbox_t;

typedef struct tui_glayout {
	uint64_t generation; /* of the graph laid out */
	bool top_to_bottom;
	int w, h; /* layout size in cells */
	int num_boxes;
	tui_gbox_t *boxes;
	uint8_t *lines;   /* w * h: TUI_LINE_* bits */
	uint32_t *arrows; /* w * h: arrowhead glyph or 0 */
} tui_glayout_t;

/* Lays out g's visible operators. New: free with dalic_tui_glayout_free; NULL if Graphviz fails. */
tui_glayout_t *dalic_tui_glayout_build(const tui_graph_t *g, bool top_to_bottom);
void dalic_tui_glayout_free(tui_glayout_t *l);
/* Frees the Graphviz context kept between layouts (at exit). */
void dalic_tui_glayout_shutdown(void);
/* The box of graph node `node`, or NULL (internal or unknown). */
const tui_gbox_t *dalic_tui_glayout_box(const tui_glayout_t *l, int node);
/* Box-drawing glyph for a set of TUI_LINE_* bits. */
uint32_t dalic_tui_line_glyph(unsigned bits);

#endif
