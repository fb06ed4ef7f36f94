/*
 * Arithmetic, comparisons, math functions and indexing on DataNodes (docs/dali-behaviour.md §6.12):
 * Python operators and nvidia.dali.math functions become one ArithmeticGenericOp each;
 * indexing lowers to TensorSubscript / SubscriptDimCheck / ExpandDims as DALI's
 * DataNode.__getitem__ does; .gpu() / .cpu() move a node between devices.
 */
#ifndef DALIC_FRONTEND_SCRIPT_DALI_SDARITH_H
#define DALIC_FRONTEND_SCRIPT_DALI_SDARITH_H

#include "frontend/script/dali/sdali.h"

/* expression_desc op name of a binary operator, or NULL when DataNodes do not support it */
const char *dalic_sdarith_binop_name(pyop_t op);
const char *dalic_sdarith_cmp_name(pycmp_t op);
/* One ArithmeticGenericOp `name` over inputs (DataNodes, Python scalars, constants). */
int dalic_sdarith_op(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **inputs, int n,
                     pyval_t **out);
int dalic_sdarith_subscript(pyinterp_t *I, const pynode_t *at, pyval_t *node, pyval_t *index,
                            pyval_t **out);
/* DataNode.gpu() / .cpu() */
int dalic_sdarith_to_device(pyinterp_t *I, const pynode_t *at, pyval_t *node, const char *device,
                            pyval_t **out);
/* The members of the nvidia.dali.math module. */
int dalic_sdarith_math_module(pyinterp_t *I, pyval_t *mod);

#endif
