/* DALI's operator order over a graph definition (see graphdef_order.h). */
#include "engine/graphdef_order.h"

#include "engine/error.h"
#include "engine/strmap.h"

#include <stdint.h>
#include <stdlib.h>

typedef struct order_frame {
	int op;
	int next; /* next input to visit */
} order_frame_t;

typedef struct order_walk {
	const dalic_graphdef_t *g;
	dalic_strmap_t producers; /* data node -> producing op index + 1 (the first one) */
	bool *listed;
	order_frame_t *stack;
	int *order;
	int n;
} order_walk_t;

bool dalic_graphdef_op_preserved(const dalic_opdef_t *op)
{
	const dalic_value_t *p = dalic_graphdef_op_arg(op, "preserve");
	return op->schema->no_prune || (p && p->kind != DALIC_V_NONE && dalic_value_get_i(p, 0));
}

static int order_producer(const order_walk_t *w, const char *node)
{
	return (int)(intptr_t)dalic_strmap_get(&w->producers, node) - 1;
}

/* Appends `root` and everything it reads, not yet listed, in post-order. The walk keeps its
 * own stack: a long chain of operators must not exhaust the C stack. */
static void order_walk_from(order_walk_t *w, int root)
{
	if (root < 0 || w->listed[root])
		return;
	int top = 0;
	w->listed[root] = true;
	w->stack[top++] = (order_frame_t){root, 0};
	while (top > 0) {
		order_frame_t *f = &w->stack[top - 1];
		const dalic_opdef_t *op = w->g->ops[f->op];
		if (f->next < op->num_inputs) {
			int p = order_producer(w, op->inputs[f->next++].name);
			if (p >= 0 && !w->listed[p]) {
				w->listed[p] = true;
				w->stack[top++] = (order_frame_t){p, 0};
			}
			continue;
		}
		w->order[w->n++] = f->op;
		top--;
	}
}

static int order_index_producers(order_walk_t *w)
{
	for (int i = 0; i < w->g->num_ops; i++) {
		const dalic_opdef_t *op = w->g->ops[i];
		for (int k = 0; k < op->num_outputs; k++)
			if (!dalic_strmap_has(&w->producers, op->outputs[k]))
				DALIC_TRY(dalic_strmap_put(&w->producers, op->outputs[k],
				                           (void *)(intptr_t)(i + 1)));
	}
	return DALIC_OK;
}

int dalic_graphdef_dali_order(const dalic_graphdef_t *g, int *order)
{
	order_walk_t w = {.g = g, .order = order};
	w.listed = calloc((size_t)g->num_ops + 1, sizeof *w.listed);
	w.stack = calloc((size_t)g->num_ops + 1, sizeof *w.stack);
	int rc = !w.listed || !w.stack ? dalic_fail(DALIC_ENOMEM, "out of memory ordering operators")
	                               : order_index_producers(&w);
	if (!rc) {
		for (int k = 0; k < g->num_outputs; k++)
			order_walk_from(&w, order_producer(&w, g->outputs[k].name));
		for (int i = 0; i < g->num_ops; i++)
			if (dalic_graphdef_op_preserved(g->ops[i]))
				order_walk_from(&w, i);
	}
	dalic_strmap_clear(&w.producers);
	free(w.listed);
	free(w.stack);
	return rc ? -1 : w.n;
}
