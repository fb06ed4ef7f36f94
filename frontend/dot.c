/*
 * DOT export of a built graph, line for line what DALI's GenerateDOTFromGraph
 * (graph2dot.cc) prints, so the two tools' files diff cleanly:
 *
 *     digraph graphname {
 *     <op>[color="<stage colour>"];           only with use_colors
 *     <op> -> <child op>;                     one per distinct consumer, "[style=dotted]"
 *                                             before the ";" with show_tensors
 *     <data>[shape=box];                      with show_tensors, per output i:
 *     <op> -> <data>[label=i];
 *     <data> -> <consumer op>[label=<input index at the consumer>];
 *                                             a blank line after each operator
 *     }
 *
 * Operators come in the graph's execution order; ids are instance names and data node names
 * (with "_cpu" / "_gpu" appended) with '[' and ']' turned into '_'. DALI prints ids bare even
 * when they are not valid DOT ids; dalic quotes those (a name with '-' or '.', a DOT keyword),
 * which changes nothing for the names DALI itself generates and keeps the file renderable.
 * Argument inputs are numbered after the regular inputs, as in DALI's OpSpec.
 */
#include "frontend/dot.h"

#include "engine/error.h"

#include <ctype.h>
#include <errno.h>
#include <gvc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool plain_id(const char *s)
{
	static const char *const keywords[] = {"node",     "edge",   "graph", "digraph",
	                                       "subgraph", "strict", NULL};
	if (!*s || isdigit((unsigned char)*s))
		return false;
	for (const char *p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return false;
	for (int i = 0; keywords[i]; i++)
		if (!strcasecmp(s, keywords[i]))
			return false;
	return true;
}

/* Prints `name` + `suffix` as a DOT id, brackets replaced as DALI does. */
static void put_id(FILE *f, const char *name, const char *suffix)
{
	char buf[1024];
	snprintf(buf, sizeof buf, "%s%s", name, suffix);
	for (char *p = buf; *p; p++)
		if (*p == '[' || *p == ']')
			*p = '_';
	if (plain_id(buf)) {
		fputs(buf, f);
		return;
	}
	fputc('"', f);
	for (const char *p = buf; *p; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

static void put_op(FILE *f, const dalic_node_t *n)
{
	put_id(f, n->inst, "");
}

static void put_data(FILE *f, const dalic_edge_t *e)
{
	put_id(f, e->name, e->gpu ? "_gpu" : "_cpu");
}

static const char *stage_color(int stage)
{
	switch (stage) {
	case DALIC_STAGE_CPU:
		return "blue";
	case DALIC_STAGE_GPU:
		return "#76b900";
	case DALIC_STAGE_MIXED:
		return "cyan";
	}
	return "black";
}

/* Input index of use `u` of edge e at its consumer (argument inputs after regular ones). */
static int input_index(const dalic_edge_t *e, int u)
{
	int k = e->consumer_input[u];
	return k >= 0 ? k : e->consumers[u]->num_inputs + (-1 - k);
}

static bool seen_before(const dalic_node_t *n, int out, int use)
{
	const dalic_node_t *c = n->outputs[out]->consumers[use];
	for (int o = 0; o <= out; o++) {
		const dalic_edge_t *e = n->outputs[o];
		for (int u = 0; u < (o == out ? use : e->num_consumers); u++)
			if (e->consumers[u] == c)
				return true;
	}
	return false;
}

static void put_node(FILE *f, const dalic_node_t *n, bool show_tensors, bool use_colors)
{
	if (use_colors) {
		put_op(f, n);
		fprintf(f, "[color=\"%s\"];\n", stage_color(n->stage));
	}
	for (int o = 0; o < n->num_outputs; o++)
		for (int u = 0; u < n->outputs[o]->num_consumers; u++) {
			if (seen_before(n, o, u))
				continue;
			put_op(f, n);
			fputs(" -> ", f);
			put_op(f, n->outputs[o]->consumers[u]);
			fputs(show_tensors ? "[style=dotted];\n" : ";\n", f);
		}
	if (show_tensors)
		for (int o = 0; o < n->num_outputs; o++) {
			const dalic_edge_t *e = n->outputs[o];
			put_data(f, e);
			fputs("[shape=box];\n", f);
			put_op(f, n);
			fputs(" -> ", f);
			put_data(f, e);
			fprintf(f, "[label=%d];\n", o);
			for (int u = 0; u < e->num_consumers; u++) {
				put_data(f, e);
				fputs(" -> ", f);
				put_op(f, e->consumers[u]);
				fprintf(f, "[label=%d];\n", input_index(e, u));
			}
		}
	fputc('\n', f);
}

int dalic_dot_write(const dalic_graph_t *g, FILE *f, bool show_tensors, bool use_colors)
{
	fputs("digraph graphname {\n", f);
	for (int i = 0; i < g->num_nodes; i++)
		put_node(f, g->nodes[i], show_tensors, use_colors);
	fputs("}\n", f);
	if (fflush(f) || ferror(f))
		return dalic_fail(DALIC_EIO, "cannot write the DOT graph: %s", strerror(errno));
	return DALIC_OK;
}

static int write_dot_file(const dalic_graph_t *g, const char *path, bool show_tensors,
                          bool use_colors)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return dalic_fail(DALIC_EIO, "cannot open '%s': %s", path, strerror(errno));
	int rc = dalic_dot_write(g, f, show_tensors, use_colors);
	if (fclose(f) && !rc)
		rc = dalic_fail(DALIC_EIO, "cannot write '%s': %s", path, strerror(errno));
	return rc ? dalic_fail_wrap(rc, "%s", path) : DALIC_OK;
}

/* One Graphviz context for the process: creating one reads the plugin configuration every
 * time (and libgvc 2.4x leaks that buffer), and the workbench renders often. Graphviz is
 * not thread-safe, so renders take turns. */
static GVC_t *gvc;
static pthread_once_t gvc_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t gvc_lock = PTHREAD_MUTEX_INITIALIZER;

static void gvc_start(void)
{
	gvc = gvContext();
}

/* Lays the DOT text out with Graphviz's dot engine and renders it as `format`. */
static int render_with_graphviz(const char *text, const char *format, const char *path)
{
	pthread_once(&gvc_once, gvc_start);
	if (!gvc)
		return dalic_fail(DALIC_ENOMEM, "cannot start Graphviz");
	pthread_mutex_lock(&gvc_lock);
	int rc = DALIC_OK;
	Agraph_t *ag = agmemread(text);
	if (!ag) {
		rc = dalic_fail(DALIC_EIO, "Graphviz could not read the generated DOT graph");
	} else {
		if (gvLayout(gvc, ag, "dot"))
			rc = dalic_fail(DALIC_EIO, "Graphviz could not lay out the graph");
		else if (gvRenderFilename(gvc, ag, format, path))
			rc = dalic_fail(DALIC_EIO, "Graphviz could not render '%s' as %s", path,
			                format);
		gvFreeLayout(gvc, ag);
		agclose(ag);
	}
	pthread_mutex_unlock(&gvc_lock);
	return rc;
}

int dalic_dot_render(const dalic_graph_t *g, const char *path, bool show_tensors, bool use_colors)
{
	const char *ext = strrchr(path, '.');
	if (ext && (!strcasecmp(ext, ".dot") || !strcasecmp(ext, ".gv")))
		return write_dot_file(g, path, show_tensors, use_colors);
	const char *format = !ext                       ? NULL
	                     : !strcasecmp(ext, ".svg") ? "svg"
	                     : !strcasecmp(ext, ".png") ? "png"
	                                                : NULL;
	if (!format)
		return dalic_fail(DALIC_EINVAL,
		                  "'%s': the graph file must end in .dot, .gv, .svg or .png", path);
	char *text = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&text, &size);
	if (!mem)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	int rc = dalic_dot_write(g, mem, show_tensors, use_colors);
	fclose(mem);
	if (!rc)
		rc = render_with_graphviz(text, format, path);
	free(text);
	return rc;
}
