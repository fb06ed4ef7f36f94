/*
 * Operator seeds, as DALI 2.4 assigns them (docs/dali-behaviour.md §12.1).
 *
 * std::seed_seq{pipeline seed}.generate() gives 1024 values. They are handed out in DALI's
 * operator order: the order in which Python's Pipeline adds operators to the C++ pipeline, a
 * depth-first walk from the pipeline outputs (in order) that lists an operator after its
 * inputs (regular inputs, then argument inputs by name), followed by the walks from the
 * preserved operators (preserve=True, no-prune schemas) in creation order. Each operator
 * whose schema has a `seed` argument and that was not given one takes the next value;
 * operators of one logical id (multiple input sets) share the first one's value but still
 * use up a value each. A given `seed` is used as it is, negative values included (as a
 * 64-bit key: seed=-1 is key 0xFFFFFFFFFFFFFFFF), and uses up nothing.
 */
#ifndef DALIC_ENGINE_GRAPH_SEEDS_H
#define DALIC_ENGINE_GRAPH_SEEDS_H

#include "engine/graph.h"

/* The operator nodes of g (nodes inserted by the build excepted) in DALI's operator order
 * into order[] (room for g->num_nodes); returns how many, -1 when out of memory. */
int dalic_graph_dali_order(const dalic_graph_t *g, dalic_node_t **order);
/* Sets node->seed of every random node of a built (pruned, ordered) graph. */
int dalic_graph_assign_seeds(dalic_graph_t *g);

#endif
