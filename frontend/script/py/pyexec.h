/*
 * Statements, functions and classes. Module-level code runs like Python with one
 * difference that makes display-only code harmless: a module-level statement that fails
 * because of a Python error (it uses run results, matplotlib, argparse...) is skipped and the
 * first such failure remembered, unless the host is strict at that moment or the failure is
 * an interpreter limit (dalic_pyeval_limit) — those always stop the load.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYEXEC_H
#define DALIC_FRONTEND_SCRIPT_PY_PYEXEC_H

#include "frontend/script/py/pyeval.h"

/* statement control flow: positive results of dalic_pyexec_block */
enum { PYEXEC_RETURN = 1, PYEXEC_BREAK = 2, PYEXEC_CONTINUE = 3 };

int dalic_pyexec_block(pyinterp_t *I, pyframe_t *F, const pynode_list_t *b);
int dalic_pyexec_module(pyinterp_t *I);
int dalic_pyexec_call_function(pyinterp_t *I, const pynode_t *at, pyfunc_t *f, pyval_t *self,
                               const pyargs_t *args, pyval_t **out);
int dalic_pyexec_instantiate(pyinterp_t *I, const pynode_t *at, pyclass_t *cls,
                             const pyargs_t *args, pyval_t **out);
/* A new instance of cls, __init__ not run. */
pyval_t *dalic_pyexec_new_instance(pyinterp_t *I, pyclass_t *cls);
/* A new class with no bases (host classes such as Pipeline); NULL when out of memory. */
pyclass_t *dalic_pyexec_new_class(pyinterp_t *I, const char *name, const char *module);
/* Attribute of a class along its bases (NULL when absent). */
pyval_t *dalic_pyexec_class_lookup(pyclass_t *cls, const char *name, pyclass_t **found_in);
bool dalic_pyexec_is_subclass(const pyclass_t *cls, const pyclass_t *base);
pyframe_t *dalic_pyexec_new_frame(pyinterp_t *I, pyframe_kind_t kind, pyframe_t *parent);
/* pyexec_try.c: with, try and raise statements */
int dalic_pyexec_with_stmt(pyinterp_t *I, pyframe_t *F, const pynode_t *s);
int dalic_pyexec_try_stmt(pyinterp_t *I, pyframe_t *F, const pynode_t *s);
int dalic_pyexec_raise_stmt(pyinterp_t *I, pyframe_t *F, const pynode_t *s);

#endif
