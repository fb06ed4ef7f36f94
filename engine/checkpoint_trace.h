/*
 * The engine side of checkpoints (docs/checkpoints.md).
 *
 * Each stateful node keeps the states it had after its last few iterations (DALI's
 * per-iteration checkpoints of the dynamic executor): a checkpoint takes every node's state
 * after the iteration whose outputs were consumed last, so prefetched iterations never show.
 * Restore applies a parsed checkpoint at build; seek moves the states on without running.
 */
#ifndef DALIC_ENGINE_CHECKPOINT_TRACE_H
#define DALIC_ENGINE_CHECKPOINT_TRACE_H

#include "engine/checkpoint.h"
#include "engine/kernel.h"

typedef struct dalic_ckpt_run dalic_ckpt_run_t;
typedef struct dalic_ckpt_trace dalic_ckpt_trace_t;

/* After a successful run of iteration `iteration` (exec_node.c): records ctx's state. */
void dalic_ckpt_trace_record(dalic_op_ctx_t *ctx, int64_t iteration);

/* The operator's kind for checkpoints; DALIC_EUNSUPPORTED (DALI's words) for operators
 * whose state dalic cannot save. */
int dalic_ckpt_node_kind(const dalic_op_ctx_t *ctx, dalic_ckpt_kind_t *kind);

/* The seek's core (checkpoint_seek.c), shared with debug mode's goto: moves the operators of
 * `nodes` n iterations on without running them. When one of them cannot be moved that way,
 * *why gets a new string naming them (free()) and nothing moves. */
struct dalic_exec_node;
int dalic_ckpt_move_nodes(struct dalic_exec_node *nodes, int num, int64_t n, char **why);

/* Debug mode's checkpoints (checkpoint_run.c): the states the nodes (parallel to g->nodes)
 * have now as checkpoint bytes at position `iter` of epoch `epoch_idx` (iterator_data: the
 * JSON a restored checkpoint carried, or NULL), and a parsed checkpoint restored into them
 * with the checks of a pipeline's restore (`what` names it in errors). Both need the graph's
 * enable_checkpointing, as DALI's do. */
struct dalic_graph;
int dalic_ckpt_nodes_save(const struct dalic_graph *g, struct dalic_exec_node *nodes,
			  int64_t iter, int64_t epoch_idx, const char *iterator_data,
			  uint8_t **bytes, size_t *len);
int dalic_ckpt_nodes_restore(const struct dalic_graph *g, struct dalic_exec_node *nodes,
			     const dalic_ckpt_t *c, const char *what);

#endif
