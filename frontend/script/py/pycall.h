/*
 * Calls into a script from outside its run: a host calls a function the script defined
 * after the module ran (DALI's python_function, called while a pipeline runs, sample after
 * sample). Such a call is "sealed": it may read everything the module made, but changes
 * none of it — assigning a global or an attribute, or mutating a list or dict that existed
 * before the call, is an error naming the function — so every byte the call allocates can be
 * given back when it returns and thousands of calls leave the arena as it was. The function
 * runs on a coroutine of its own (pycoro.h), so its stack does not depend on the thread
 * that calls, and with the interpreter's limits counted afresh for each call.
 *
 * One interpreter, one call at a time: callers serialize (the DALI layer holds a mutex).
 * Host hooks are off during the call.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYCALL_H
#define DALIC_FRONTEND_SCRIPT_PY_PYCALL_H

#include "frontend/script/py/pyeval.h"

/* Builds the call's arguments (values made now are freed after the call). */
typedef int (*pycall_args_fn)(pyinterp_t *I, void *ctx, pyargs_t *args);
/* Takes the result out of the interpreter before its memory goes. */
typedef int (*pycall_take_fn)(pyinterp_t *I, void *ctx, pyval_t *result);

/* Calls fn(args) sealed; `what` names it in messages ("python_function 'flip'"). */
int dalic_pycall_run(pyinterp_t *I, pyval_t *fn, const char *what, pycall_args_fn args,
                     pycall_take_fn take, void *ctx);
/* During a sealed call: an error unless obj (a dict, list, instance, class, module or
 * frame table) was made by the call itself. `what` says what would change. */
int dalic_pycall_check_write(pyinterp_t *I, const pynode_t *at, const void *obj,
                             const char *what);
/* Frees the coroutine sealed calls run on (dalic_pystate_close). */
void dalic_pycall_close(pyinterp_t *I);

#endif
