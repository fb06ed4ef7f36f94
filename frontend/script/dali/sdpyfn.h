/*
 * python_function in pipeline scripts (sdpyfn.c, sdpyfn_conv.c): fn.python_function,
 * ops.PythonFunction, fn.dl_tensor_python_function and the PyTorch plugin's
 * torch_python_function lend a function of the script to the PythonFunction operator
 * (engine/callback.h). At the end of the module each function's body is checked against
 * what dalic's interpreter evaluates (a value of a module dalic does not model, DALI
 * operators, `global` / `import` / `yield` are refused, naming the function and the
 * construct); the interpreter then outlives the load, kept by the definitions that use it,
 * and runs the function in sealed calls (py/pycall.h) while the pipeline runs: one call at a
 * time under a lock, samples in as nested lists (or scalars), arrays out as int64, float64
 * or bool tensors. numba_function is refused by name.
 */
#ifndef DALIC_FRONTEND_SCRIPT_DALI_SDPYFN_H
#define DALIC_FRONTEND_SCRIPT_DALI_SDPYFN_H

#include "engine/callback.h"
#include "frontend/script/dali/sdali.h"

#include <pthread.h>

typedef struct sdpyhost sdpyhost_t;

/* Whether the operator is PythonFunction. */
bool dalic_sdpyfn_is(const dalic_schema_t *s);
/* `function=v` of a PythonFunction created in pipeline P: lends v, *out the function_id. */
int dalic_sdpyfn_lend(pyinterp_t *I, const pynode_t *at, sdpipe_t *P, pyval_t *v,
                      pyval_t **out);
/* End of the module: checks every lent function's body. */
int dalic_sdpyfn_check(pyinterp_t *I);
/* Load end (dalic_sdali_close): the interpreter moves to the definitions that keep it. */
void dalic_sdpyfn_detach(sdstate_t *S);
/* ... unless the load itself is kept as the definition's runtime `rt` (debug prints with
 * values, Python sources: sdruntime.h): the functions then run in its interpreter, under its
 * lock `mu`, and keep it alive. */
void dalic_sdpyfn_share(sdstate_t *S, dalic_shared_t *rt, pthread_mutex_t *mu);
/* Registers the plugin modules (nvidia.dali.plugin.pytorch..., numba). */
int dalic_sdpyfn_open(pyinterp_t *I);

/* ---- conversions (sdpyfn_conv.c) ---- */
/* Sample i of a batch as a Python value: a scalar for 0-d data, else nested lists. */
int dalic_sdpyfn_to_py(pyinterp_t *I, const pynode_t *at, const dalic_batch_t *b, int i,
                       pyval_t **out);
/* A Python value (scalar or rectangular nested lists / tuples of bool, int or float) as a
 * sample. Its type is `like` (the inputs' common type, DALIC_NO_TYPE when none) when the
 * elements are of that kind — numpy keeps an array's type through indexing and arithmetic
 * with Python numbers — else what numpy makes of Python numbers: bool, int64, float64.
 * `what` names the function in errors. */
int dalic_sdpyfn_from_py(pyinterp_t *I, const pynode_t *at, pyval_t *v, dalic_dtype_t like,
                         const char *what, dalic_cb_sample_t *out);

#endif
