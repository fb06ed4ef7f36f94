/*
 * python_function: DALI's PythonFunction — a function of the pipeline script runs on the
 * inputs, per sample or on the whole batch (`batch_processing`), and returns the outputs.
 * The script's front end lends the callable under the id `function_id` (engine/callback.h)
 * and runs it in its interpreter (one call at a time); the callable's results are held
 * here between setup, which needs their shapes, and run, which copies them out. A
 * definition read back from bytes has no callable: DALI cannot serialize the operator
 * either (IsSerializable), so such a pipeline never comes from a .pb file.
 */
#include "engine/callback.h"
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/graphdef.h"

#include <stdlib.h>
#include <string.h>

typedef struct pyfn_state {
	dalic_cb_call_fn call;
	void *obj;
	dalic_cb_sample_t *res; /* num_outputs * batch_size */
	int nres;
} pyfn_state_t;

static int pyfn_outputs(const dalic_opdef_t *def)
{
	const dalic_value_t *v = dalic_graphdef_op_arg(def, "num_outputs");
	return v && v->kind == DALIC_V_INT && v->n ? (int)v->i[0] : 1;
}

static int python_function_init(dalic_op_ctx_t *ctx)
{
	pyfn_state_t *st = ctx->state;
	int64_t id = dalic_arg_int(ctx, "function_id");
	if (!dalic_callback_get(id, &st->call, &st->obj))
		return dalic_fail(DALIC_EUNSUPPORTED,
		                  "operator '%s' (python_function): its Python function is not "
		                  "available (a pipeline read from serialized bytes cannot carry one; "
		                  "load the script that defines it)",
		                  ctx->inst);
	return DALIC_OK;
}

static int python_function_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	pyfn_state_t *st = ctx->state;
	int nout = ws->num_outputs, n = ws->batch_size;
	dalic_cb_samples_free(st->res, st->nres);
	free(st->res);
	st->nres = 0;
	if (!(st->res = calloc((size_t)(nout * n) + 1, sizeof *st->res)))
		return dalic_op_fail(ctx, ws, -1, "out of memory");
	st->nres = nout * n;
	int rc = st->call(st->obj, ctx, ws, nout, st->res);
	if (rc)
		return dalic_fail_wrap(rc, "operator '%s' (python_function)", ctx->inst);
	const dalic_value_t *layouts = dalic_arg(ctx, "output_layouts");
	for (int o = 0; o < nout; o++) {
		const dalic_cb_sample_t *first = &st->res[o * n];
		for (int s = 1; s < n; s++) {
			const dalic_cb_sample_t *x = &st->res[o * n + s];
			if (x->dtype != first->dtype || x->ndim != first->ndim)
				return dalic_op_fail(ctx, ws, s,
				                     "output %d is %s with %d dimensions here but %s with "
				                     "%d in sample 0: a batch has one type and rank",
				                     o, dalic_dtype_name(x->dtype), x->ndim,
				                     dalic_dtype_name(first->dtype), first->ndim);
		}
		dalic_batch_t *b = ws->outputs[o];
		DALIC_TRY(dalic_batch_set_meta(b, n, first->dtype, first->ndim));
		for (int s = 0; s < n; s++)
			dalic_batch_set_shape(b, s, st->res[o * n + s].shape);
		if (layouts && layouts->kind == DALIC_V_STRING && o < layouts->n && layouts->s[o])
			dalic_batch_set_layout(b, layouts->s[o]);
	}
	return DALIC_OK;
}

static int python_function_run(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	pyfn_state_t *st = ctx->state;
	int n = ws->batch_size;
	for (int o = 0; o < ws->num_outputs; o++)
		for (int s = 0; s < n; s++) {
			const dalic_cb_sample_t *x = &st->res[o * n + s];
			if (x->bytes)
				memcpy(dalic_batch_mut(ws->outputs[o], s), x->data, x->bytes);
		}
	dalic_cb_samples_free(st->res, st->nres);
	return DALIC_OK;
}

static void python_function_fini(dalic_op_ctx_t *ctx)
{
	pyfn_state_t *st = ctx->state;
	dalic_cb_samples_free(st->res, st->nres);
	free(st->res);
}

static const dalic_kernel_t pyfn_kernel = {
    .state_size = sizeof(pyfn_state_t),
    .init = python_function_init,
    .setup = python_function_setup,
    .run = python_function_run,
    .fini = python_function_fini,
};

static const dalic_arg_schema_t pyfn_args[] = {
    {"function_id", DALIC_ARG_INT, NULL,
     "The callable: the script's front end lends its Python function under this id (DALI's "
     "`function`, a Python object)"},
    {"num_outputs", DALIC_ARG_INT, "1", "Number of outputs"},
    {"batch_processing", DALIC_ARG_BOOL, "False",
     "Whether the function is called once per batch (lists of samples in and out) rather "
     "than once per sample"},
    {"output_layouts", DALIC_ARG_STRING_LIST, "None", "Layouts of the outputs"},
    {0},
};

DALIC_OPERATOR(PythonFunction) = {
    .name = "PythonFunction",
    .fn = "python_function",
    .doc = "Runs a Python function of the pipeline script on the inputs (through dalic's "
           "interpreter, one call at a time).",
    .min_inputs = 0,
    .max_inputs = 256,
    .num_outputs = 1,
    .outputs_for = pyfn_outputs,
    .devices = DALIC_DEV_CPU,
    .no_prune = false,
    .not_serializable = true,
    .args = pyfn_args,
    .cpu = &pyfn_kernel,
};
