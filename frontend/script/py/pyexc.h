/*
 * Python exceptions in the core: the built-in exception classes with Python's hierarchy
 * (BaseException > Exception > LookupError > KeyError ...), exception objects, and the
 * link between the core's located errors and the exceptions `except` clauses see.
 *
 * An error travels as a status code plus the thread's located message (pysrc.h). When that
 * message is a Python error ("ValueError: ...", raised by the core or by `raise`), the
 * interpreter also keeps the exception object in I->exc, tied to the message by its hash so
 * a stale object is never mistaken for a newer error. Errors that are not Python exceptions
 * (dalic cannot evaluate something, interpreter limits, errors while a pipeline is built)
 * have no exception object and pass through every `except` clause.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYEXC_H
#define DALIC_FRONTEND_SCRIPT_PY_PYEXC_H

#include "frontend/script/py/pyeval.h"

/* Installs the exception classes in I->builtins. */
int dalic_pyexc_open(pyinterp_t *I);
/* The built-in exception class `name`, or NULL when there is none. */
pyclass_t *dalic_pyexc_class(pyinterp_t *I, const char *name);
/* A new exception object of cls whose str() is `msg` (NULL: no arguments). */
pyval_t *dalic_pyexc_new(pyinterp_t *I, pyclass_t *cls, const char *msg);
/* Records the exception of the error just reported with unlocated text `msg` (its prefix
 * names the class); called by dalic_pyeval_error. */
void dalic_pyexc_note(pyinterp_t *I, const char *msg);
/* The exception object of the pending error, or NULL when it is not a Python exception. */
pyval_t *dalic_pyexc_pending(pyinterp_t *I);
/* Whether the pending error is an exception of class `name` or a subclass. */
bool dalic_pyexc_pending_is(pyinterp_t *I, const char *name);
/* Forgets the pending error (an except clause or the iteration protocol handled it). */
void dalic_pyexc_clear(pyinterp_t *I);
/* Whether exception object `exc` matches an except clause's type (a class or a tuple). */
bool dalic_pyexc_matches(const pyval_t *exc, const pyval_t *type);
/* `raise exc from cause`: reports the located error and makes exc the pending exception.
 * exc is a class or an exception object; cause NULL when absent. */
int dalic_pyexc_raise(pyinterp_t *I, const pynode_t *at, pyval_t *exc, pyval_t *cause);
/* Bare `raise`: the exception being handled again, with its original message. */
int dalic_pyexc_reraise(pyinterp_t *I, const pynode_t *at);
/* A pending error put aside while other code runs (finally blocks, __exit__). */
typedef struct pyexc_saved {
	char msg[DALIC_ERRMSG_MAX];
	pyval_t *exc;
} pyexc_saved_t;
void dalic_pyexc_save(pyinterp_t *I, pyexc_saved_t *s);
/* Reports the saved error again with status rc (< 0); returns rc. */
int dalic_pyexc_restore(pyinterp_t *I, const pyexc_saved_t *s, int rc);
/* Re-reports the pending error at `at` (the caller of the code that raised it), keeping
 * its exception object. Returns code. */
int dalic_pyexc_relocate(pyinterp_t *I, const pynode_t *at, int code);
/* str() of an exception object. */
const char *dalic_pyexc_text(const pyval_t *exc);

#endif
