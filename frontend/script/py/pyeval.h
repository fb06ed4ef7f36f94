/*
 * Expressions: evaluation with Python's scoping, the operators on values (truth, binary
 * operators, comparisons), attribute and item access, calls and iteration, assignment
 * targets — plus the located errors every part of the core raises. Host values take part
 * through their pytype_t hooks (pyval.h).
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYEVAL_H
#define DALIC_FRONTEND_SCRIPT_PY_PYEVAL_H

#include "engine/error.h"
#include "frontend/script/py/pystate.h"

/* In a function with `pyinterp_t *I`, `const pynode_t *at` and `pyval_t **out`: sets *out
 * to v and returns DALIC_OK, or the out-of-memory error when v is NULL (its allocation
 * failed). */
#define PYEVAL_RET(v)                                                                              \
	do {                                                                                       \
		*out = (v);                                                                        \
		return *out ? DALIC_OK : dalic_pyeval_oom(I, at);                                  \
	} while (0)

/* ---- errors (pyeval.c) ---- */
int dalic_pyeval_error(pyinterp_t *I, const pynode_t *at, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* An interpreter limit (steps, loop iterations, depth, sizes): the statement cannot
 * complete the way Python would, so the load stops; never skipped. */
int dalic_pyeval_limit(pyinterp_t *I, const pynode_t *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Locates the engine's current error message at `at`. */
int dalic_pyeval_relocate(pyinterp_t *I, const pynode_t *at, int code);
int dalic_pyeval_oom(pyinterp_t *I, const pynode_t *at);
/* Error for using an opaque value where dalic needs to know it. */
int dalic_pyeval_opaque_error(pyinterp_t *I, const pynode_t *at, const pyval_t *v,
                              const char *where);
/* Counts one evaluation step; fails when the script runs away or nests too deeply. */
int dalic_pyeval_step(pyinterp_t *I, const pynode_t *at);

/* ---- names and expressions (pyeval.c, pyeval_chain.c) ---- */
int dalic_pyeval_expr(pyinterp_t *I, pyframe_t *F, const pynode_t *e, pyval_t **out);
/* Values `from`.. of an and / or chain, evaluated lazily. */
int dalic_pyeval_boolop_from(pyinterp_t *I, pyframe_t *F, const pynode_t *node, int from,
                             pyval_t **out);
/* A left-nested chain of binary operators, attributes, calls and subscripts, evaluated
 * without recursing along the chain (a script may hold 100k-term sums). */
int dalic_pyeval_chain(pyinterp_t *I, pyframe_t *F, const pynode_t *e, pyval_t **out);
/* The index of a subscript (slices, tuples of them). */
int dalic_pyeval_subscript_index(pyinterp_t *I, pyframe_t *F, const pynode_t *e, pyval_t **out);
/* Runs comprehension e in frame C from its first iterable: elements go into acc (a list or
 * dict), or are yielded one by one when acc is NULL (a lazy generator expression). */
int dalic_pyeval_comprehension(pyinterp_t *I, pyframe_t *C, const pynode_t *e, pyval_t *first,
                               pyval_t *acc);
int dalic_pyeval_call_expr(pyinterp_t *I, pyframe_t *F, const pynode_t *e, pyval_t *fn,
                           pyval_t **out);
int dalic_pyeval_assign(pyinterp_t *I, pyframe_t *F, const pynode_t *target, pyval_t *value);
int dalic_pyeval_lookup(pyinterp_t *I, pyframe_t *F, const pynode_t *at, const char *name,
                        pyval_t **out);
int dalic_pyeval_store(pyinterp_t *I, pyframe_t *F, const pynode_t *at, const char *name,
                       pyval_t *value);
/* str(v) / repr(v) into the arena. */
int dalic_pyeval_str(pyinterp_t *I, const pynode_t *at, pyval_t *v, bool repr, pyval_t **out);

/* ---- operators (pyeval_ops.c) ---- */
int dalic_pyeval_truth(pyinterp_t *I, const pynode_t *at, pyval_t *v, bool *out);
int dalic_pyeval_unary(pyinterp_t *I, const pynode_t *at, pyunary_t op, pyval_t *v, pyval_t **out);
int dalic_pyeval_binop(pyinterp_t *I, const pynode_t *at, pyop_t op, pyval_t *l, pyval_t *r,
                       pyval_t **out);
int dalic_pyeval_compare(pyinterp_t *I, const pynode_t *at, pycmp_t op, pyval_t *l, pyval_t *r,
                         pyval_t **out);

/* ---- access, calls, iteration (pyeval_access.c) ---- */
int dalic_pyeval_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *obj, const char *name,
                         pyval_t **out);
/* Like dalic_pyeval_getattr but *out = NULL (no error) when the attribute does not exist. */
int dalic_pyeval_getattr_opt(pyinterp_t *I, const pynode_t *at, pyval_t *obj, const char *name,
                             pyval_t **out);
int dalic_pyeval_setattr(pyinterp_t *I, const pynode_t *at, pyval_t *obj, const char *name,
                         pyval_t *value);
int dalic_pyeval_getitem(pyinterp_t *I, const pynode_t *at, pyval_t *obj, pyval_t *index,
                         pyval_t **out);
int dalic_pyeval_setitem(pyinterp_t *I, const pynode_t *at, pyval_t *obj, pyval_t *index,
                         pyval_t *value);
int dalic_pyeval_call(pyinterp_t *I, const pynode_t *at, pyval_t *fn, const pyargs_t *args,
                      pyval_t **out);
int dalic_pyeval_call1(pyinterp_t *I, const pynode_t *at, pyval_t *fn, pyval_t *arg, pyval_t **out);
/* Items of an iterable (list, tuple, str, dict keys, range...); `unpack` for targets.
 * Opaque: *opaque = true and no items. */
int dalic_pyeval_iterate(pyinterp_t *I, const pynode_t *at, pyval_t *v, bool unpack,
                         pyval_t ***items, int *n, bool *opaque);

/* ---- arguments of built-in calls (pyeval.c) ---- */
/* The keyword argument `name` of args, or NULL. */
pyval_t *dalic_pyeval_kwarg(const pyargs_t *args, const char *name);
/* Checks positional/keyword counts of a built-in call against the parameter names in
 * order; fills vals[] (NULL for absent optional ones). */
int dalic_pyeval_parse_args(pyinterp_t *I, const pynode_t *at, const char *fname,
                            const pyargs_t *args, const char *const *names, int nrequired,
                            int nnames, pyval_t **vals);

#endif
