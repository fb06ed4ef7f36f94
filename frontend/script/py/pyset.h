/*
 * Python's set in pipeline scripts (pyset.c): `set()`, `set(iterable)`, literals `{a, b}`,
 * set comprehensions, `in`, len, iteration, truth, ==, <= / >= (subsets), | & - ^, and the
 * methods wild modules use (add, discard, remove, pop, update, union, intersection,
 * difference, symmetric_difference, issubset, issuperset, isdisjoint, copy, clear). A set is
 * a host value over an insertion-ordered dict of its elements: it iterates in insertion
 * order where CPython's order follows the hashes (sorted() gives both the same answer).
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYSET_H
#define DALIC_FRONTEND_SCRIPT_PY_PYSET_H

#include "frontend/script/py/pyeval.h"

extern const pytype_t dalic_pyset_type;

/* A new empty set. NULL when out of memory. */
pyval_t *dalic_pyset_new(pyinterp_t *I);
/* Adds v (an error naming its type when it is unhashable). */
int dalic_pyset_add(pyinterp_t *I, const pynode_t *at, pyval_t *set, pyval_t *v);
/* Whether v is in the set (an unhashable v is an error, as in Python). */
int dalic_pyset_has(pyinterp_t *I, const pynode_t *at, pyval_t *set, pyval_t *v, bool *out);
/* The `set` built-in (also the type for isinstance). */
int dalic_pyset_open(pyinterp_t *I);

#endif
