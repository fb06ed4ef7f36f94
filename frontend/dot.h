/*
 * The built graph as Graphviz DOT, in the format of DALI's save_graph_to_dot_file()
 * (docs/dali-behaviour.md §9), and rendered to SVG or PNG through libgraphviz.
 */
#ifndef DALIC_FRONTEND_DOT_H
#define DALIC_FRONTEND_DOT_H

#include "engine/graph.h"

#include <stdio.h>

/* Writes `g` (borrowed) as DOT text to f. show_tensors adds a box per data node with
 * labelled edges; use_colors colours operators by stage (cpu blue, mixed cyan,
 * gpu #76b900). DALIC_EIO if writing fails. */
int dalic_dot_write(const dalic_graph_t *g, FILE *f, bool show_tensors, bool use_colors);

/* Writes the graph to `path`, chosen by its extension: ".dot" (or ".gv") the DOT text,
 * ".svg" / ".png" laid out by Graphviz's dot engine and rendered. DALIC_EINVAL for another
 * extension, DALIC_EIO when the file cannot be written or Graphviz fails. */
int dalic_dot_render(const dalic_graph_t *g, const char *path, bool show_tensors, bool use_colors);

#endif
