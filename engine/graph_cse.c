/* Common-subgraph elimination (see graph_cse.h). */
#include "engine/graph_cse.h"

#include "engine/error.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cse_buf {
	char *s;
	size_t len, cap;
	bool oom;
} cse_buf_t;

static void cse_printf(cse_buf_t *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || b->oom)
		return;
	if (b->len + (size_t)n + 1 > b->cap) {
		size_t cap = (b->cap ? b->cap * 2 : 256) + (size_t)n;
		char *s = realloc(b->s, cap);
		if (!s) {
			b->oom = true;
			return;
		}
		b->s = s;
		b->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

bool dalic_graph_cse_enabled(void)
{
	const char *opt = getenv("DALI_OPTIMIZE_GRAPH");
	const char *cse = getenv("DALI_ENABLE_CSE");
	return !(opt && atoi(opt) == 0) && !(cse && atoi(cse) == 0);
}

/* Arguments DALI's schemas mark ignore_cmp, and those the key writes itself. */
static bool cse_ignored_arg(const char *name, bool random)
{
	static const char *const names[] = {"_module", "_display_name", "preserve",
	                                    "_pipeline_internal", NULL};
	for (int i = 0; names[i]; i++)
		if (!strcmp(name, names[i]))
			return true;
	return !strncmp(name, "_origin_stack_", 14) || (random && !strcmp(name, "seed"));
}

static bool cse_foldable(const dalic_node_t *n)
{
	const dalic_opdef_t *d = n->def;
	if (!d)
		return true; /* inserted copies compare like any operator */
	const dalic_value_t *pres = dalic_graphdef_op_arg(d, "preserve");
	const dalic_value_t *pn = dalic_graphdef_op_arg(d, "preserve_name");
	return !n->schema->no_prune && !(pres && dalic_value_get_i(pres, 0)) && !d->name_given &&
	       !(pn && dalic_value_get_i(pn, 0)) && !n->schema->is_input &&
	       strcmp(n->schema->name, "ExternalSource");
}

static void cse_put_value(cse_buf_t *b, const dalic_value_t *v)
{
	cse_printf(b, "%d%c%d:", (int)v->kind, v->is_list ? 'L' : 'S', v->n);
	for (int i = 0; i < v->n; i++)
		switch (v->kind) {
		case DALIC_V_INT:
			cse_printf(b, "%" PRId64 ",", v->i[i]);
			break;
		case DALIC_V_FLOAT: /* DALI compares the 32-bit values it keeps */
			cse_printf(b, "%a,", (double)(float)v->f[i]);
			break;
		case DALIC_V_BOOL:
			cse_printf(b, "%d,", (int)v->b[i]);
			break;
		case DALIC_V_STRING:
			cse_printf(b, "%zu:%s,", strlen(v->s[i]), v->s[i]);
			break;
		default:
			break;
		}
}

static int cse_arg_cmp(const void *a, const void *b)
{
	return strcmp((*(const dalic_arg_t *const *)a)->name, (*(const dalic_arg_t *const *)b)->name);
}

/* The comparison key of n (inputs as edge identities: folds before it rewired them). */
static int cse_key(const dalic_node_t *n, cse_buf_t *b)
{
	b->len = 0;
	cse_printf(b, "%s|%d|%d|", n->schema->name, n->device, n->num_outputs);
	for (int k = 0; k < n->num_inputs; k++)
		cse_printf(b, "i%p,", (void *)n->inputs[k]);
	for (int k = 0; k < n->num_arg_inputs; k++)
		cse_printf(b, "a%zu:%s=%p,", strlen(n->arg_names[k]), n->arg_names[k],
		           (void *)n->arg_inputs[k]);
	for (int k = 0; k < n->num_outputs; k++)
		cse_printf(b, "h%" PRId64 ",", n->hints[k]);
	if (n->schema->random)
		cse_printf(b, "seed=%" PRIu64 "|", n->seed);
	const dalic_opdef_t *d = n->def;
	if (d && d->num_args) {
		const dalic_arg_t **args = malloc(sizeof *args * (size_t)d->num_args);
		if (!args)
			return dalic_fail(DALIC_ENOMEM, "out of memory folding the graph");
		int na = 0;
		for (int k = 0; k < d->num_args; k++)
			if (d->args[k].value.kind != DALIC_V_NONE &&
			    !cse_ignored_arg(d->args[k].name, n->schema->random))
				args[na++] = &d->args[k];
		qsort(args, (size_t)na, sizeof *args, cse_arg_cmp);
		for (int k = 0; k < na; k++) {
			cse_printf(b, "%zu:%s=", strlen(args[k]->name), args[k]->name);
			cse_put_value(b, &args[k]->value);
		}
		free(args);
	}
	return b->oom ? dalic_fail(DALIC_ENOMEM, "out of memory folding the graph") : DALIC_OK;
}

/* Moves every reader of `from` (consumers and pipeline outputs) to `to`. */
static int cse_redirect(dalic_graph_t *g, dalic_edge_t *from, dalic_edge_t *to)
{
	for (int c = 0; c < from->num_consumers; c++) {
		dalic_node_t *n = from->consumers[c];
		int in = from->consumer_input[c];
		if (in >= 0) {
			for (int k = 0; k < n->num_inputs; k++)
				if (n->inputs[k] == from)
					n->inputs[k] = to;
		} else {
			n->arg_inputs[-1 - in] = to;
		}
		if (to->num_consumers == to->cap_consumers) {
			int cap = to->cap_consumers ? to->cap_consumers * 2 : 4;
			dalic_node_t **cs = realloc(to->consumers, sizeof *cs * (size_t)cap);
			if (!cs)
				return dalic_fail(DALIC_ENOMEM, "out of memory folding the graph");
			to->consumers = cs;
			int *ci = realloc(to->consumer_input, sizeof *ci * (size_t)cap);
			if (!ci)
				return dalic_fail(DALIC_ENOMEM, "out of memory folding the graph");
			to->consumer_input = ci;
			to->cap_consumers = cap;
		}
		to->consumers[to->num_consumers] = n;
		to->consumer_input[to->num_consumers++] = in;
	}
	from->num_consumers = 0;
	for (int o = 0; o < g->num_outputs; o++)
		if (g->outputs[o] == from) {
			g->outputs[o] = to;
			to->is_output = true;
		}
	return DALIC_OK;
}

typedef struct cse_frame {
	dalic_node_t *node;
	int next;
} cse_frame_t;

/* DALI's graph order: depth-first from the outputs (inputs, then argument inputs), then the
 * nodes kept for their side effects; every node of a pruned graph is reached. */
static int cse_order(const dalic_graph_t *g, dalic_node_t **order)
{
	bool *seen = calloc((size_t)g->num_nodes + 1, sizeof *seen);
	cse_frame_t *st = calloc((size_t)g->num_nodes + 1, sizeof *st);
	int n = 0;
	for (int r = 0; seen && st && r < g->num_outputs + g->num_nodes; r++) {
		dalic_node_t *root = r < g->num_outputs ? g->outputs[r]->producer
		                                        : g->nodes[r - g->num_outputs];
		if (!root || seen[root->index])
			continue;
		int top = 0;
		seen[root->index] = true;
		st[top++] = (cse_frame_t){root, 0};
		while (top) {
			cse_frame_t *f = &st[top - 1];
			dalic_node_t *x = f->node;
			if (f->next < x->num_inputs + x->num_arg_inputs) {
				int k = f->next++;
				dalic_edge_t *e = k < x->num_inputs ? x->inputs[k]
				                                    : x->arg_inputs[k - x->num_inputs];
				dalic_node_t *p = e->producer;
				if (p && !seen[p->index]) {
					seen[p->index] = true;
					st[top++] = (cse_frame_t){p, 0};
				}
				continue;
			}
			order[n++] = x;
			top--;
		}
	}
	bool ok = seen && st;
	free(seen);
	free(st);
	return ok ? n : dalic_fail(DALIC_ENOMEM, "out of memory folding the graph");
}

int dalic_graph_cse_mark(dalic_graph_t *g, bool *keep)
{
	for (int i = 0; i < g->num_nodes; i++) {
		g->nodes[i]->index = i;
		keep[i] = true;
	}
	dalic_node_t **order = calloc((size_t)g->num_nodes + 1, sizeof *order);
	char **keys = calloc((size_t)g->num_nodes + 1, sizeof *keys);
	if (!order || !keys) {
		free(order);
		free(keys);
		return dalic_fail(DALIC_ENOMEM, "out of memory folding the graph");
	}
	dalic_strmap_t seen = {0};
	cse_buf_t b = {0};
	int n = cse_order(g, order), rc = n < 0 ? n : DALIC_OK;
	for (int i = 0; !rc && i < n; i++) {
		dalic_node_t *x = order[i];
		if ((rc = cse_key(x, &b)))
			break;
		dalic_node_t *first = dalic_strmap_get(&seen, b.s);
		if (first && cse_foldable(x)) {
			for (int o = 0; !rc && o < x->num_outputs; o++)
				rc = cse_redirect(g, x->outputs[o], first->outputs[o]);
			keep[x->index] = false;
			continue;
		}
		/* a node that cannot fold becomes the one later ones fold into (DALI) */
		if (!(keys[i] = strdup(b.s)))
			rc = dalic_fail(DALIC_ENOMEM, "out of memory folding the graph");
		else
			rc = dalic_strmap_put(&seen, keys[i], x);
	}
	dalic_strmap_clear(&seen);
	for (int i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	free(order);
	free(b.s);
	return rc;
}
