/* Operator contexts: the per-instance runtime state a kernel sees (kernel.h), created from a
 * built node. Shared by the full engine and debug mode, so both run the same kernels. */
#ifndef DALIC_ENGINE_OPCTX_H
#define DALIC_ENGINE_OPCTX_H

#include "engine/graph.h"

/* Resolves arguments, seeds the master generator, allocates the kernel state and calls
 * the kernel's init. New: free with dalic_op_ctx_destroy. */
int dalic_op_ctx_create(const dalic_node_t *node, const dalic_graph_t *g, void *engine,
			dalic_op_ctx_t **out);
void dalic_op_ctx_destroy(dalic_op_ctx_t *ctx);
/* Re-seeds the generator and calls the kernel's reset (restart from iteration 0). */
int dalic_op_ctx_reset(dalic_op_ctx_t *ctx);
/* After a successful run of `batch` samples: a random operator's master generator moves
 * `batch` sequences on (DALI's Advance(ws.GetOutputBatchSize(0))). */
void dalic_op_ctx_advance_rng(dalic_op_ctx_t *ctx, int batch);
/* The kernel that runs this node on this machine (CUDA when available, else the CPU one). */
const dalic_kernel_t *dalic_op_ctx_kernel(const dalic_op_ctx_t *ctx);

#endif
