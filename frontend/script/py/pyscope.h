/*
 * Static facts about functions, computed once when a `def` has been parsed (pyscope.c): the
 * return rewrite AutoGraph applies, local and global names, whether it returns, and the
 * liveness of its `if` statements (pyscope_live.c), which a host lowering `if` statements
 * uses. Built on small sorted sets of variable names (pyscope_names.c): immutable arena
 * arrays, every operation returns a new set.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYSCOPE_H
#define DALIC_FRONTEND_SCRIPT_PY_PYSCOPE_H

#include "frontend/script/py/pyast.h"

typedef struct pynameset {
	const char **v;
	int n;
} pynameset_t;

/* Each returns the new set; on allocation failure *ok becomes false and the result is
 * empty (callers check *ok once at the end). */
pynameset_t dalic_pyscope_set_add(pyarena_t *a, pynameset_t s, const char *name, bool *ok);
pynameset_t dalic_pyscope_set_union(pyarena_t *a, pynameset_t x, pynameset_t y, bool *ok);
pynameset_t dalic_pyscope_set_minus(pyarena_t *a, pynameset_t x, pynameset_t y, bool *ok);
pynameset_t dalic_pyscope_set_inter(pyarena_t *a, pynameset_t x, pynameset_t y, bool *ok);
bool dalic_pyscope_set_has(pynameset_t s, const char *name);
bool dalic_pyscope_set_equal(pynameset_t x, pynameset_t y);

/* Names a statement list binds in its own scope (assignment and for targets, imports,
 * def / class names, with / except targets, del), not looking into nested functions. */
pynameset_t dalic_pyscope_bound_names(pyarena_t *a, const pynode_list_t *body, bool *ok);
/* Names an expression reads (free names of lambdas and comprehensions included). */
pynameset_t dalic_pyscope_used_names(pyarena_t *a, const pynode_t *e, pynameset_t acc, bool *ok);
/* Names read anywhere in a block, nested functions and classes included. */
pynameset_t dalic_pyscope_block_used_names(pyarena_t *a, const pynode_list_t *b, pynameset_t acc,
                                           bool *ok);
/* Names bound by an assignment target (tuple unpacking, starred). */
pynameset_t dalic_pyscope_target_names(pyarena_t *a, const pynode_t *target, pynameset_t acc,
                                       bool *ok);
/* Composite targets assigned in a block (pyscope_composite.c): AutoGraph's `d['k']`, `d[0]`
 * qualified names, their root variables and first target nodes, in order of appearance. */
typedef struct pyscope_composites {
	const char **names, **roots;
	const pynode_t **targets;
	int n, cap;
} pyscope_composites_t;
void dalic_pyscope_composites(pyarena_t *a, const pynode_list_t *b, pyscope_composites_t *c,
                              bool *ok);
/* Whether a return statement appears in the block (not in nested functions). */
bool dalic_pyscope_block_has_return(const pynode_list_t *body);

/* Liveness of the `if` statements of a function body: fills each S_IF's pyif_info_t
 * (pyscope_live.c). */
int dalic_pyscope_liveness(pyarena_t *a, pynode_t *def);

/* Scope facts and the return rewrite of a finished `def` (pyscope.c). */
int dalic_pyscope_function(pyarena_t *a, pynode_t *def);
int dalic_pyscope_module(pyarena_t *a, pyast_t *m);

#endif
