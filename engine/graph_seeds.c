/* Operator seeds in DALI's operator order (see graph_seeds.h). */
#include "engine/graph_seeds.h"

#include "engine/error.h"
#include "engine/rng.h"

#include <stdlib.h>

#define SEEDS_MAX 1024 /* DALI's MAX_SEEDS */

typedef struct seeds_frame {
	dalic_node_t *node;
	int next; /* next input to visit: regular inputs, then argument inputs */
} seeds_frame_t;

static dalic_node_t *seeds_input_producer(const dalic_node_t *n, int k)
{
	const dalic_edge_t *e = k < n->num_inputs ? n->inputs[k] : n->arg_inputs[k - n->num_inputs];
	return e->producer;
}

/* Appends `root` and everything it reads, not yet listed, to order[] in post-order. The walk
 * keeps its own stack: a long chain of operators must not exhaust the C stack. */
static void seeds_walk(dalic_node_t *root, bool *listed, seeds_frame_t *stack, dalic_node_t **order,
                       int *n_order)
{
	if (!root || listed[root->index])
		return;
	int top = 0;
	listed[root->index] = true;
	stack[top++] = (seeds_frame_t){root, 0};
	while (top > 0) {
		seeds_frame_t *f = &stack[top - 1];
		dalic_node_t *n = f->node;
		if (f->next < n->num_inputs + n->num_arg_inputs) {
			dalic_node_t *p = seeds_input_producer(n, f->next++);
			if (p && !listed[p->index]) {
				listed[p->index] = true;
				stack[top++] = (seeds_frame_t){p, 0};
			}
			continue;
		}
		order[(*n_order)++] = n;
		top--;
	}
}

static bool seeds_preserved(const dalic_node_t *n)
{
	const dalic_value_t *p = n->def ? dalic_graphdef_op_arg(n->def, "preserve") : NULL;
	return n->schema->no_prune || (p && dalic_value_get_i(p, 0));
}

/* The nodes in DALI's operator order; nodes no walk reaches (none, after pruning) follow in
 * definition order, so that every node gets a seed. */
static int seeds_order(const dalic_graph_t *g, dalic_node_t **order)
{
	bool *listed = calloc((size_t)g->num_nodes + 1, sizeof *listed);
	seeds_frame_t *stack = calloc((size_t)g->num_nodes + 1, sizeof *stack);
	if (!listed || !stack) {
		free(listed);
		free(stack);
		return -1;
	}
	int n = 0;
	for (int k = 0; k < g->num_outputs; k++)
		seeds_walk(g->outputs[k]->producer, listed, stack, order, &n);
	const dalic_graphdef_t *def = g->def;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; def && i < def->num_ops; i++) {
			dalic_node_t *node = dalic_graph_find_node(g, def->ops[i]->inst);
			if (node && (pass == 1 || seeds_preserved(node)))
				seeds_walk(node, listed, stack, order, &n);
		}
	free(listed);
	free(stack);
	return n;
}

int dalic_graph_assign_seeds(dalic_graph_t *g)
{
	uint32_t seeds[SEEDS_MAX];
	dalic_seed_seq_generate(g->params.seed, seeds, SEEDS_MAX);
	dalic_node_t **order = calloc((size_t)g->num_nodes + 1, sizeof *order);
	int n = order ? seeds_order(g, order) : -1;
	if (n < 0) {
		free(order);
		return dalic_fail(DALIC_ENOMEM, "out of memory assigning seeds");
	}
	int next = 0;
	for (int i = 0; i < n; i++) {
		dalic_node_t *node = order[i];
		if (!node->schema->random || !node->def)
			continue;
		const dalic_value_t *given = dalic_graphdef_op_arg(node->def, "seed");
		if (given) {
			node->seed = (uint64_t)dalic_value_get_i(given, 0);
			continue;
		}
		node->seed = seeds[next];
		for (int k = 0; k < i; k++) { /* multiple input sets: the group's first seed */
			const dalic_node_t *o = order[k];
			if (o->schema == node->schema && o->logical_id == node->logical_id &&
			    o->def && !dalic_graphdef_op_arg(o->def, "seed")) {
				node->seed = o->seed;
				break;
			}
		}
		next = (next + 1) % SEEDS_MAX;
	}
	free(order);
	return DALIC_OK;
}
