/* Operator seeds in DALI's operator order (see graph_seeds.h). */
#include "engine/graph_seeds.h"

#include "engine/error.h"
#include "engine/graphdef_order.h"
#include "engine/rng.h"

#include <stdlib.h>

#define SEEDS_MAX 1024 /* DALI's MAX_SEEDS */

/* The nodes in DALI's operator order (graphdef_order.h); nodes the walk does not list (none,
 * after pruning) follow in definition order, so that every node gets a seed. */
int dalic_graph_dali_order(const dalic_graph_t *g, dalic_node_t **order)
{
	const dalic_graphdef_t *def = g->def;
	int num_ops = def ? def->num_ops : 0;
	int *idx = calloc((size_t)num_ops + 1, sizeof *idx);
	bool *listed = calloc((size_t)num_ops + 1, sizeof *listed);
	int walked = idx && listed && def ? dalic_graphdef_dali_order(def, idx) : 0;
	if (!idx || !listed || walked < 0) {
		free(idx);
		free(listed);
		return -1;
	}
	int n = 0;
	for (int i = 0; i < walked; i++)
		listed[idx[i]] = true;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < (pass ? num_ops : walked); i++) {
			int k = pass ? i : idx[i];
			dalic_node_t *node = (pass && listed[k]) ? NULL
			                                         : dalic_graph_find_node(g, def->ops[k]->inst);
			if (node && node->def == def->ops[k] && n < g->num_nodes)
				order[n++] = node;
		}
	free(idx);
	free(listed);
	return n;
}

int dalic_graph_assign_seeds(dalic_graph_t *g)
{
	uint32_t seeds[SEEDS_MAX];
	dalic_seed_seq_generate(g->params.seed, seeds, SEEDS_MAX);
	dalic_node_t **order = calloc((size_t)g->num_nodes + 1, sizeof *order);
	int n = order ? dalic_graph_dali_order(g, order) : -1;
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
