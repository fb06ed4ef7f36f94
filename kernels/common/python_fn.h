/*
 * The body of the operators that call a function of the pipeline script (python_function,
 * the PyTorch plugin's torch_python_function, the numba plugin's numba_function): the script's front end lends the callable
 * under the id `function_id` (engine/callback.h) and runs it in its interpreter, one call at a
 * time; the results are held between setup, which needs their shapes, and run, which copies
 * them out. A definition read back from bytes has no callable: DALI cannot serialize these
 * operators either (IsSerializable).
 */
#ifndef DALIC_KERNELS_PYTHON_FN_H
#define DALIC_KERNELS_PYTHON_FN_H

#include "engine/callback.h"
#include "engine/graphdef.h"
#include "engine/kernel.h"

typedef struct dalic_pyfn_state {
	dalic_cb_call_fn call;
	void *obj;
	dalic_cb_sample_t *res; /* num_outputs * batch_size */
	int nres;
} dalic_pyfn_state_t;

/* num_outputs of the definition (1 by default). */
int dalic_pyfn_outputs(const dalic_opdef_t *def);
/* The kernel both operators run: init finds the lent callable, setup calls the function on
 * the batch and sets the outputs' types, shapes and layouts, run copies the results out.
 * Errors name the operator by its fn API name (the schema's: "python_function"). */
extern const dalic_kernel_t dalic_pyfn_kernel;
/* Its parts, for an operator that checks its arguments at build first (numba_function). */
int dalic_pyfn_init(dalic_op_ctx_t *ctx);
int dalic_pyfn_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws);
int dalic_pyfn_run(dalic_op_ctx_t *ctx, const dalic_ws_t *ws);
void dalic_pyfn_fini(dalic_op_ctx_t *ctx);

/* The arguments both operators have; batch_processing's default differs (DALI: False for
 * python_function, True for torch_python_function). */
#define DALIC_PYFN_ARGS(batch_default)                                                        \
	{"function_id", DALIC_ARG_INT, NULL,                                                   \
	 "The callable: the script's front end lends its Python function under this id "     \
	 "(DALI's `function`, a Python object)"},                                              \
	{"num_outputs", DALIC_ARG_INT, "1", "Number of outputs"},                              \
	{"batch_processing", DALIC_ARG_BOOL, batch_default,                                    \
	 "Whether the function is called once per batch (lists of samples in and out) rather " \
	 "than once per sample"},                                                              \
	{"output_layouts", DALIC_ARG_STRING_LIST, "None", "Layouts of the outputs"}

#endif
