/*
 * DALI's operator order (docs/dali-behaviour.md §12.1): the order in which Python's Pipeline
 * adds operators to the C++ pipeline. It is a depth-first walk from the pipeline outputs, in
 * order, that lists an operator after its inputs (regular inputs, then argument inputs by
 * name), followed by the walks from the preserved operators (preserve=True, no-prune schemas)
 * in creation order. Operators no walk reaches are pruned: they are not listed.
 *
 * DALI serializes operators in this order and hands out seeds and logical ids in it, so the
 * protobuf writer (frontend/proto) and the seed assignment (graph_seeds.c) both use it.
 */
#ifndef DALIC_ENGINE_GRAPHDEF_ORDER_H
#define DALIC_ENGINE_GRAPHDEF_ORDER_H

#include "engine/graphdef.h"

/* True when the operator is kept without reaching an output (preserve=True or no-prune). */
bool dalic_graphdef_op_preserved(const dalic_opdef_t *op);
/* Fills order[] (room for g->num_ops) with indices into g->ops in DALI's order and returns
 * how many were listed, or -1 (message set) when out of memory. Inputs naming no producer
 * are skipped: the graph build reports them. */
int dalic_graphdef_dali_order(const dalic_graphdef_t *g, int *order);

#endif
