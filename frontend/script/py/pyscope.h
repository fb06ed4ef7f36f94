/*
 * Small sorted sets of variable names used by the static analyses of pipeline functions
 * (which names a function binds, which an `if` modifies, which are live afterwards). Sets
 * are immutable arena arrays; every operation returns a new set.
 */
#ifndef DALIC_FRONTEND_SCRIPT_NAMES_H
#define DALIC_FRONTEND_SCRIPT_NAMES_H

#include "frontend/script/py/pyast.h"

typedef struct nset {
	const char **v;
	int n;
} nset_t;

/* Each returns the new set; on allocation failure *ok becomes false and the result is
 * empty (callers check *ok once at the end). */
nset_t nset_add(script_arena_t *a, nset_t s, const char *name, bool *ok);
nset_t nset_union(script_arena_t *a, nset_t x, nset_t y, bool *ok);
nset_t nset_minus(script_arena_t *a, nset_t x, nset_t y, bool *ok);
nset_t nset_inter(script_arena_t *a, nset_t x, nset_t y, bool *ok);
bool nset_has(nset_t s, const char *name);
bool nset_equal(nset_t x, nset_t y);

/* Names a statement list binds in its own scope (assignment and for targets, imports,
 * def / class names, with / except targets, del), not looking into nested functions. */
nset_t script_bound_names(script_arena_t *a, const snode_list_t *body, bool *ok);
/* Names an expression reads (free names of lambdas and comprehensions included). */
nset_t script_used_names(script_arena_t *a, const snode_t *e, nset_t acc, bool *ok);
/* Names read anywhere in a block, nested functions and classes included. */
nset_t script_block_used_names(script_arena_t *a, const snode_list_t *b, nset_t acc, bool *ok);
/* Names bound by an assignment target (tuple unpacking, starred). */
nset_t script_target_names(script_arena_t *a, const snode_t *target, nset_t acc, bool *ok);
/* Whether a return statement appears in the block (not in nested functions). */
bool script_block_has_return(const snode_list_t *body);

/* Liveness of the `if` statements of a function body: fills each S_IF's sif_info_t
 * (script_liveness.c). */
int script_liveness_function(script_arena_t *a, snode_t *def);

#endif
