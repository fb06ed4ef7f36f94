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
#include "engine/pipeline.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gvc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static bool dot_plain_id(const char *s)
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
static void dot_put_id(FILE *f, const char *name, const char *suffix)
{
	char buf[1024];
	snprintf(buf, sizeof buf, "%s%s", name, suffix);
	for (char *p = buf; *p; p++)
		if (*p == '[' || *p == ']')
			*p = '_';
	if (dot_plain_id(buf)) {
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

static void dot_put_op(FILE *f, const dalic_node_t *n)
{
	dot_put_id(f, n->inst, "");
}

static void dot_put_data(FILE *f, const dalic_edge_t *e)
{
	dot_put_id(f, e->name, e->gpu ? "_gpu" : "_cpu");
}

static const char *dot_stage_color(int stage)
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
static int dot_input_index(const dalic_edge_t *e, int u)
{
	int k = e->consumer_input[u];
	return k >= 0 ? k : e->consumers[u]->num_inputs + (-1 - k);
}

/* One use of a node's outputs by a consumer, in drawing order. */
typedef struct dot_use {
	const dalic_node_t *consumer;
	int order;
	bool first; /* the first use of this consumer: the one that draws the arrow */
} dot_use_t;

static int dot_use_cmp(const void *a, const void *b)
{
	const dot_use_t *x = a, *y = b;
	if (x->consumer != y->consumer)
		return (uintptr_t)x->consumer < (uintptr_t)y->consumer ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

static int dot_use_order(const void *a, const void *b)
{
	const dot_use_t *x = a, *y = b;
	return (x->order > y->order) - (x->order < y->order);
}

/* The arrows op -> consumer, once per distinct consumer in first-use order: sorting the uses
 * finds the first of each, however many consumers an output has. */
static int dot_put_children(FILE *f, const dalic_node_t *n, bool show_tensors)
{
	int total = 0;
	for (int o = 0; o < n->num_outputs; o++)
		total += n->outputs[o]->num_consumers;
	if (!total)
		return DALIC_OK;
	dot_use_t *uses = calloc((size_t)total, sizeof *uses);
	if (!uses)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	int k = 0;
	for (int o = 0; o < n->num_outputs; o++)
		for (int u = 0; u < n->outputs[o]->num_consumers; u++, k++)
			uses[k] = (dot_use_t){n->outputs[o]->consumers[u], k, false};
	qsort(uses, (size_t)total, sizeof *uses, dot_use_cmp);
	for (k = 0; k < total; k++)
		uses[k].first = k == 0 || uses[k].consumer != uses[k - 1].consumer;
	qsort(uses, (size_t)total, sizeof *uses, dot_use_order);
	for (k = 0; k < total; k++) {
		if (!uses[k].first)
			continue;
		dot_put_op(f, n);
		fputs(" -> ", f);
		dot_put_op(f, uses[k].consumer);
		fputs(show_tensors ? "[style=dotted];\n" : ";\n", f);
	}
	free(uses);
	return DALIC_OK;
}

static int dot_put_node(FILE *f, const dalic_node_t *n, bool show_tensors, bool use_colors)
{
	if (use_colors) {
		dot_put_op(f, n);
		fprintf(f, "[color=\"%s\"];\n", dot_stage_color(n->stage));
	}
	DALIC_TRY(dot_put_children(f, n, show_tensors));
	if (show_tensors)
		for (int o = 0; o < n->num_outputs; o++) {
			const dalic_edge_t *e = n->outputs[o];
			dot_put_data(f, e);
			fputs("[shape=box];\n", f);
			dot_put_op(f, n);
			fputs(" -> ", f);
			dot_put_data(f, e);
			fprintf(f, "[label=%d];\n", o);
			for (int u = 0; u < e->num_consumers; u++) {
				dot_put_data(f, e);
				fputs(" -> ", f);
				dot_put_op(f, e->consumers[u]);
				fprintf(f, "[label=%d];\n", dot_input_index(e, u));
			}
		}
	fputc('\n', f);
	return DALIC_OK;
}

int dalic_dot_write(const dalic_graph_t *g, FILE *f, bool show_tensors, bool use_colors)
{
	fputs("digraph graphname {\n", f);
	for (int i = 0; i < g->num_nodes; i++)
		DALIC_TRY(dot_put_node(f, g->nodes[i], show_tensors, use_colors));
	fputs("}\n", f);
	if (fflush(f) || ferror(f))
		return dalic_fail(DALIC_EIO, "cannot write the DOT graph: %s", strerror(errno));
	return DALIC_OK;
}

/* Writes all of buf to fd, then closes it; false (errno set) if either fails. */
static bool dot_write_close(int fd, const char *buf, size_t len)
{
	bool ok = true;
	while (ok && len > 0) {
		ssize_t n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			errno = n == 0 ? EIO : errno;
			ok = false;
			break;
		}
		buf += n;
		len -= (size_t)n;
	}
	int err = errno;
	if (close(fd) && ok)
		return false;
	errno = err;
	return ok;
}

/* Saves buf as `path` whole or not at all: a regular file is written under a temporary name
 * in the same directory and renamed when complete; a device or pipe (/dev/stdout) is
 * written in place. */
static int dot_save(const char *path, const char *buf, size_t len)
{
	static atomic_uint counter;
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		int fd = open(path, O_WRONLY | O_TRUNC);
		if (fd < 0 || !dot_write_close(fd, buf, len))
			return dalic_fail(DALIC_EIO, "cannot write '%s': %s", path,
			                  strerror(errno));
		return DALIC_OK;
	}
	size_t n = strlen(path) + 48;
	char *tmp = malloc(n);
	if (!tmp)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	snprintf(tmp, n, "%s.tmp-%ld-%u", path, (long)getpid(), atomic_fetch_add(&counter, 1));
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
	bool ok = fd >= 0 && dot_write_close(fd, buf, len) && rename(tmp, path) == 0;
	int err = errno;
	if (!ok && fd >= 0)
		unlink(tmp);
	free(tmp);
	return ok ? DALIC_OK : dalic_fail(DALIC_EIO, "cannot write '%s': %s", path, strerror(err));
}

/* One Graphviz context for the process: creating one reads the plugin configuration every
 * time (and libgvc 2.4x leaks that buffer), and the workbench renders often. Graphviz is
 * not thread-safe, so renders take turns. */
static GVC_t *gvc;
static pthread_once_t gvc_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t gvc_lock = PTHREAD_MUTEX_INITIALIZER;

static void dot_gvc_start(void)
{
	gvc = gvContext();
}

/* Lays the DOT text out with Graphviz's dot engine and renders it as `format` into memory
 * (Graphviz does not report a failed file write, so dalic writes the file itself).
 * *out is new: gvFreeRenderData. */
static int dot_render_graphviz(const char *text, const char *format, char **out,
			       unsigned *len)
{
	pthread_once(&gvc_once, dot_gvc_start);
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
		else if (gvRenderData(gvc, ag, format, out, len))
			rc = dalic_fail(DALIC_EIO, "Graphviz could not render the graph as %s",
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
	bool dot = ext && (!strcasecmp(ext, ".dot") || !strcasecmp(ext, ".gv"));
	const char *format = dot || !ext                ? NULL
			     : !strcasecmp(ext, ".svg") ? "svg"
			     : !strcasecmp(ext, ".png") ? "png"
							: NULL;
	if (!dot && !format)
		return dalic_fail(DALIC_EINVAL,
				  "'%s': the graph file must end in .dot, .gv, .svg or .png", path);
	char *text = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&text, &size);
	if (!mem)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	int rc = dalic_dot_write(g, mem, show_tensors, use_colors);
	if (fclose(mem) && !rc)
		rc = dalic_fail(DALIC_ENOMEM, "out of memory");
	if (!rc && dot) {
		rc = dot_save(path, text, size);
	} else if (!rc) {
		char *image = NULL;
		unsigned len = 0;
		rc = dot_render_graphviz(text, format, &image, &len);
		if (!rc)
			rc = dot_save(path, image, len);
		if (image)
			gvFreeRenderData(image);
	}
	free(text);
	return rc;
}

int dalic_pipeline_write_dot(dalic_pipeline_t *p, FILE *f, unsigned flags)
{
	if (!p || !f)
		return dalic_fail(DALIC_EINVAL, "dalic_pipeline_write_dot: NULL argument");
	DALIC_TRY(dalic_pipeline_build(p));
	return dalic_dot_write(dalic_pipeline_graph(p), f, flags & DALIC_DOT_SHOW_TENSORS,
			       flags & DALIC_DOT_USE_COLORS);
}

int dalic_pipeline_save_graph(dalic_pipeline_t *p, const char *path, unsigned flags)
{
	if (!p || !path)
		return dalic_fail(DALIC_EINVAL, "dalic_pipeline_save_graph: NULL argument");
	DALIC_TRY(dalic_pipeline_build(p));
	return dalic_dot_render(dalic_pipeline_graph(p), path, flags & DALIC_DOT_SHOW_TENSORS,
				flags & DALIC_DOT_USE_COLORS);
}
