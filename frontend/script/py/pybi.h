/*
 * Python's built-ins (print, len, range, sorted... in pybi.c; the types int / str / list...,
 * isinstance, super in pybi_types.c (exceptions: pyexc.c); methods of str / list / dict in
 * pybi_methods.c) and the helpers every library written in C uses (Lua's lauxlib): argument
 * checks, registration tables, opaque results.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYBI_H
#define DALIC_FRONTEND_SCRIPT_PY_PYBI_H

#include "frontend/script/py/pyeval.h"

/* One C function of a library: registration tables end with {NULL, NULL}. */
typedef struct pyreg {
	const char *name;
	pycfn_t fn;
} pyreg_t;

/* obj.__len__ / __iter__ / __contains__ / __getitem__ of a built-in container (str, list,
 * tuple, dict, set; __getitem__ where it subscripts): bound methods doing what len(), iter(),
 * `in` and obj[i] do, so hasattr(x, "__len__") answers as Python does. *out NULL for other
 * names. */
int dalic_pybi_dunder_attr(pyinterp_t *I, const pynode_t *at, pyval_t *self, const char *name,
                           pyval_t **out);
/* Installs the built-in functions, types and exceptions in I->builtins. */
int dalic_pybi_open(pyinterp_t *I);
int dalic_pybi_open_types(pyinterp_t *I);
/* Sets d[name] = a built-in for every entry of regs (a method table when `methods`: read
 * through an instance, each binds to it). */
int dalic_pybi_register(pyinterp_t *I, pydict_t *d, const pyreg_t *regs, bool methods);
pyval_t *dalic_pybi_make(pyinterp_t *I, const char *name, pycfn_t fn, pyval_t *self, void *data);
/* A built-in that is its own receiver, so fn reads `data` as self->builtin.data. */
pyval_t *dalic_pybi_make_self(pyinterp_t *I, const char *name, pycfn_t fn, void *data);

/* Argument count checks for built-ins ("f() takes at most 2 arguments (3 given)"). */
int dalic_pybi_nargs(pyinterp_t *I, const pynode_t *at, const char *f, const pyargs_t *args, int lo,
                     int hi);
int dalic_pybi_no_kwargs(pyinterp_t *I, const pynode_t *at, const char *f, const pyargs_t *args);
bool dalic_pybi_any_opaque(const pyargs_t *args);
/* *out = an opaque value standing for the result of f(...). */
int dalic_pybi_opaque_result(pyinterp_t *I, const pynode_t *at, const char *f, pyval_t **out);
/* Items of an iterable; an opaque iterable is an error. */
int dalic_pybi_items(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t ***items, int *n);
pyval_t *dalic_pybi_tuple(pyinterp_t *I, pyval_t **items, int n);
/* Bound method `name` of a built-in value (str, list, dict, tuple), or *out = NULL. */
int dalic_pybi_method(pyinterp_t *I, const pynode_t *at, pyval_t *self, const char *name,
                      pyval_t **out);

#endif
