/*
 * Common-subgraph elimination, as DALI's graph::EliminateCommonSubgraphs (docs/dali-behaviour.md
 * §4): after pruning, two operators whose schema, device, inputs (after earlier folds),
 * output devices and arguments agree compute the same thing, so the later one (in DALI's
 * graph order: a depth-first walk from the outputs, then the preserved operators) is folded
 * into the first and its consumers read the first one's outputs. Arguments DALI leaves out of
 * the comparison (_module, _display_name, preserve, the _origin_stack_* trace) are left out;
 * a random operator's seed counts, so only operators given the same seed fold. Operators
 * with preserve=True, preserve_name (a user's name=, ExternalSource) or a no-prune schema
 * never fold. It changes which operators run (executor_statistics keys), never a value.
 * DALI_OPTIMIZE_GRAPH=0 or DALI_ENABLE_CSE=0 in the environment turn it off, as in DALI.
 */
#ifndef DALIC_ENGINE_GRAPH_CSE_H
#define DALIC_ENGINE_GRAPH_CSE_H

#include "engine/graph.h"

/* False when the environment turns the elimination off. */
bool dalic_graph_cse_enabled(void);
/* Rewires the consumers (and pipeline outputs) of folded nodes to the survivors and sets
 * keep[node->index] for every node that stays; the caller frees the others. Nodes carry
 * their seeds already. */
int dalic_graph_cse_mark(dalic_graph_t *g, bool *keep);

#endif
