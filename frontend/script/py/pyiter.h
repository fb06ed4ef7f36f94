/*
 * Iteration. `for` loops, comprehensions, next() and `yield from` go through the lazy
 * protocol here: lists, tuples, strings and dicts hand out their items, while generators,
 * iterator objects of user classes (__iter__ / __next__, the external_source pattern),
 * classes with only __getitem__ (the old sequence protocol) and iterators over items are
 * asked for one value at a time, so an endless generator with a `break` works. Everything
 * else (list(), sorted(), zip()...) takes all items at once through dalic_pyeval_iterate,
 * which drains a lazy iterator up to the loop limit.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYITER_H
#define DALIC_FRONTEND_SCRIPT_PY_PYITER_H

#include "frontend/script/py/pyeval.h"

typedef struct pyiter {
	pyval_t **items; /* eager: all items */
	int n, i;
	pyval_t *lazy; /* or a lazy iterator asked one value at a time */
	int64_t index; /* the old sequence protocol: next index to ask __getitem__ for */
	bool by_index;
} pyiter_t;

/* An iterator over items[0..n) (type name `type_name`: "list_iterator", "generator"...). */
pyval_t *dalic_pyiter_over(pyinterp_t *I, pyval_t **items, int n, const char *type_name);
/* Whether v is asked for its values one at a time (generators, iterators). */
bool dalic_pyiter_is_lazy(pyinterp_t *I, const pyval_t *v);
/* Starts iterating v; *opaque when v is a value dalic does not model (no items). */
int dalic_pyiter_open(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyiter_t *it, bool *opaque);
/* The next value, or *done. */
int dalic_pyiter_next(pyinterp_t *I, const pynode_t *at, pyiter_t *it, pyval_t **out, bool *done);
/* All remaining values of a lazy v, at most PY_MAX_LOOP_ITERATIONS of them. */
int dalic_pyiter_drain(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t ***items, int *n);
/* next(it[, default]) on any iterator: *done (no default) after raising StopIteration. */
int dalic_pyiter_next_of(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t **out);
/* Registers iter() and next(). */
int dalic_pyiter_open_builtins(pyinterp_t *I);

#endif
