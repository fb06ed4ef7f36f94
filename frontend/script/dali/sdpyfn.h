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
 * or bool tensors. numba_function (sdnumba.c) lends its run_fn and setup_fn the same way and
 * runs them with numba's typing.
 */
#ifndef DALIC_FRONTEND_SCRIPT_DALI_SDPYFN_H
#define DALIC_FRONTEND_SCRIPT_DALI_SDPYFN_H

#include "engine/callback.h"
#include "frontend/script/dali/sdali.h"

#include <pthread.h>

/* A function lent to an operator. */
typedef struct sdpyfn {
	struct sdpyhost *host;
	pyval_t *func;
	pyval_t *setup;  /* numba_function's setup_fn, or NULL */
	const char *op;  /* "python_function", "numba_function" */
	char what[160];  /* "python_function 'flip'" */
	int line, col;   /* where it was lent */
	int64_t id;
	struct sdpyfn *next;
} sdpyfn_t;

/* What the definitions keep: the interpreter the functions live in, once the load ended. */
typedef struct sdpyhost {
	dalic_keep_t keep;
	pthread_mutex_t lock; /* one call at a time */
	pyinterp_t I;
	bool detached;
	/* or the load itself is kept as the definition's runtime (sdruntime.h): the calls run in
	 * its interpreter, under its lock */
	dalic_shared_t *shared;
	pyinterp_t *shared_I;
	pthread_mutex_t *shared_mu;
	pysrc_t src;
	char *text, *path;
	sdpyfn_t *fns;
} sdpyhost_t;

/* Whether the operator is PythonFunction. */
bool dalic_sdpyfn_is(const dalic_schema_t *s);
/* `function=v` of a PythonFunction created in pipeline P: lends v, *out the function_id. */
int dalic_sdpyfn_lend(pyinterp_t *I, const pynode_t *at, sdpipe_t *P, pyval_t *v,
                      pyval_t **out);
/* The interpreter f runs in, locked (one call at a time); NULL when the script's
 * interpreter is not kept. dalic_sdpyfn_leave unlocks. */
pyinterp_t *dalic_sdpyfn_enter(const sdpyfn_t *f);
void dalic_sdpyfn_leave(const sdpyfn_t *f);
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

/* ---- numba_function (sdnumba.c) ---- */
/* Whether the operator is NumbaFunction. */
bool dalic_sdnumba_is(const dalic_schema_t *s);
/* `run_fn=run, setup_fn=setup` (setup may be NULL) of a NumbaFunction in pipeline P: lends
 * both, *out the function_id. */
int dalic_sdnumba_lend(pyinterp_t *I, const pynode_t *at, sdpipe_t *P, pyval_t *run,
                       pyval_t *setup, pyval_t **out);
/* The callable the kernel calls for a lent numba_function (engine/callback.h). */
int dalic_sdnumba_call(void *obj, const dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                       int num_outputs, dalic_cb_sample_t *out);
/* Fills the plugin module `name` (nvidia.dali.plugin.numba...) into m. */
int dalic_sdnumba_module(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t *m);

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
