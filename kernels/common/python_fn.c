/* The function-calling operators' body (see python_fn.h). */
#include "kernels/common/python_fn.h"

#include "engine/dtype.h"
#include "engine/error.h"

#include <stdlib.h>
#include <string.h>

int dalic_pyfn_outputs(const dalic_opdef_t *def)
{
	const dalic_value_t *v = dalic_graphdef_op_arg(def, "num_outputs");
	return v && v->kind == DALIC_V_INT && v->n ? (int)v->i[0] : 1;
}

int dalic_pyfn_init(dalic_op_ctx_t *ctx)
{
	const char *api = ctx->schema->fn;
	dalic_pyfn_state_t *st = ctx->state;
	int64_t id = dalic_arg_int(ctx, "function_id");
	if (!dalic_callback_get(id, &st->call, &st->obj))
		return dalic_fail(
		    DALIC_EUNSUPPORTED,
		    "operator '%s' (%s): its Python function is not "
		    "available (a pipeline read from serialized bytes cannot carry one; "
		    "load the script that defines it)",
		    ctx->inst, api);
	return DALIC_OK;
}

int dalic_pyfn_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const char *api = ctx->schema->fn;
	dalic_pyfn_state_t *st = ctx->state;
	int nout = ws->num_outputs, n = ws->batch_size;
	dalic_cb_samples_free(st->res, st->nres);
	free(st->res);
	st->nres = 0;
	if (!(st->res = calloc((size_t)(nout * n) + 1, sizeof *st->res)))
		return dalic_op_fail(ctx, ws, -1, "out of memory");
	st->nres = nout * n;
	int rc = st->call(st->obj, ctx, ws, nout, st->res);
	if (rc)
		return dalic_fail_wrap(rc, "operator '%s' (%s)", ctx->inst, api);
	/* numba_function has no output_layouts */
	const dalic_value_t *layouts = dalic_schema_arg(ctx->schema, "output_layouts")
	                                   ? dalic_arg(ctx, "output_layouts")
	                                   : NULL;
	for (int o = 0; o < nout; o++) {
		const dalic_cb_sample_t *first = &st->res[o * n];
		for (int s = 1; s < n; s++) {
			const dalic_cb_sample_t *x = &st->res[o * n + s];
			if (x->dtype != first->dtype || x->ndim != first->ndim)
				return dalic_op_fail(
				    ctx, ws, s,
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

int dalic_pyfn_run(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	dalic_pyfn_state_t *st = ctx->state;
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

void dalic_pyfn_fini(dalic_op_ctx_t *ctx)
{
	dalic_pyfn_state_t *st = ctx->state;
	dalic_cb_samples_free(st->res, st->nres);
	free(st->res);
}

const dalic_kernel_t dalic_pyfn_kernel = {
    .state_size = sizeof(dalic_pyfn_state_t),
    .init = dalic_pyfn_init,
    .setup = dalic_pyfn_setup,
    .run = dalic_pyfn_run,
    .fini = dalic_pyfn_fini,
};
