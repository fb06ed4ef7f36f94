/*
 * Conditionals (`enable_conditionals=True`), lowered exactly as DALI's AutoGraph-based front
 * end does (docs/dali-behaviour.md §5): `if` on a DataNode splits the data nodes each branch reads and
 * merges the variables it modifies; `and` / `or` / `not` likewise. The DataNode type's flow
 * hooks (sdval_node.c) call in here while the current pipeline has conditionals.
 */
#ifndef DALIC_FRONTEND_SCRIPT_DALI_SDCOND_H
#define DALIC_FRONTEND_SCRIPT_DALI_SDCOND_H

#include "frontend/script/dali/sdali.h"

typedef struct sdcond sdcond_t;

int dalic_sdcond_new(pyinterp_t *I, sdpipe_t *p);
/* Whether DataNodes now take part in control flow (a conditional pipeline is traced). */
bool dalic_sdcond_active(pyinterp_t *I);
/* AutoGraph's `ld`: a DataNode read from a variable, split to the current scope. */
int dalic_sdcond_load(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t **out);
/* Inputs of an operator: split to the current scope. */
int dalic_sdcond_preprocess(pyinterp_t *I, const pynode_t *at, pyval_t *node, pyval_t **out);
/* Registers operator outputs in the current (or global) scope. */
int dalic_sdcond_register(pyinterp_t *I, pyval_t *outputs, bool global_scope);
int dalic_sdcond_if(pyinterp_t *I, pyframe_t *F, const pynode_t *s, pyval_t *pred);
/* `a and ...` / `a or ...` (N_BOOLOP node, values from index `next` on evaluated lazily)
 * with a DataNode `a`. */
int dalic_sdcond_and_or(pyinterp_t *I, pyframe_t *F, const pynode_t *node, int next, pyval_t *a,
                        pyval_t **out);
int dalic_sdcond_not(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t **out);

#endif
