/*
 * numba_function (nvidia.dali.plugin.numba.fn; DALI's NumbaFunction): a `run_fn` of the
 * pipeline script writes its outputs into arrays the operator allocates (numba style,
 * `out0[i, j] = in0[j, i]`), per sample or per batch; an optional `setup_fn(outs, ins)` sets
 * the outputs' shapes first, else each output takes its input's shape and type. DALI compiles
 * both with numba; dalic runs them in its interpreter with numba's typing (the script front
 * end lends them under `function_id`, frontend/script/dali/sdnumba.c) through the
 * function-calling kernel (kernels/common/python_fn.h). At build the arguments are checked as
 * DALI's NumbaFuncImpl checks them. Not serializable, as in DALI.
 */
#include "kernels/common/python_fn.h"

#include "engine/error.h"

static int numba_fn_outputs(const dalic_opdef_t *def)
{
	const dalic_value_t *v = dalic_graphdef_op_arg(def, "out_types");
	return v && v->n ? v->n : 1;
}

/* DALI's NumbaFuncImpl constructor: the type and dimension lists agree. */
static int numba_fn_init(dalic_op_ctx_t *ctx)
{
	const dalic_value_t *ot = dalic_arg(ctx, "out_types"), *it = dalic_arg(ctx, "in_types");
	const dalic_value_t *on = dalic_arg(ctx, "outs_ndim"), *in = dalic_arg(ctx, "ins_ndim");
	const char *api = ctx->schema->fn;
	if (ot->n > 6)
		return dalic_fail(DALIC_EINVAL,
		                  "operator '%s' (%s): Trying to specify %d outputs. This operator "
		                  "can have at most 6 outputs.",
		                  ctx->inst, api, ot->n);
	if (it->n > 6)
		return dalic_fail(
		    DALIC_EINVAL,
		    "operator '%s' (%s): Trying to specify %d inputs. This operator can "
		    "have at most 6 inputs.",
		    ctx->inst, api, it->n);
	if (on->n != ot->n)
		return dalic_fail(DALIC_EINVAL,
		                  "operator '%s' (%s): Size of `outs_ndim` should match size of "
		                  "`out_types`.",
		                  ctx->inst, api);
	for (int i = 0; i < on->n; i++)
		if (on->i[i] < 0)
			return dalic_fail(
			    DALIC_EINVAL,
			    "operator '%s' (%s): All dimensions should be non negative. "
			    "Value specified in `outs_ndim` at index %d is negative.",
			    ctx->inst, api, i);
	if (!dalic_arg_bool(ctx, "setup_fn") && ot->n != it->n)
		return dalic_fail(DALIC_EINVAL,
		                  "operator '%s' (%s): Size of `out_types` should match size of "
		                  "`in_types` when `setup_fn` isn't provided.",
		                  ctx->inst, api);
	if (in->n != it->n)
		return dalic_fail(DALIC_EINVAL,
		                  "operator '%s' (%s): Size of `ins_dnim` should match size of "
		                  "`in_types`.",
		                  ctx->inst, api);
	for (int i = 0; i < in->n; i++)
		if (in->i[i] < 0)
			return dalic_fail(
			    DALIC_EINVAL,
			    "operator '%s' (%s): All dimensions should be non negative. "
			    "Value specified in `ins_ndim` at index %d is negative.",
			    ctx->inst, api, i);
	return dalic_pyfn_init(ctx);
}

static const dalic_kernel_t numba_fn_kernel = {
    .state_size = sizeof(dalic_pyfn_state_t),
    .init = numba_fn_init,
    .setup = dalic_pyfn_setup,
    .run = dalic_pyfn_run,
    .fini = dalic_pyfn_fini,
};

static const dalic_arg_schema_t numba_fn_args[] = {
    {"function_id", DALIC_ARG_INT, NULL,
     "run_fn and setup_fn: the script's front end lends them under this id (DALI's `run_fn` "
     "and `setup_fn`, Python objects)"},
    {"setup_fn", DALIC_ARG_BOOL, "False",
     "Whether a setup function sets the outputs' shapes (dalic: set by the front end when "
     "`setup_fn` is given; without one each output takes its input's shape and type)"},
    {"out_types", DALIC_ARG_DTYPE_LIST, NULL, "Types of outputs."},
    {"in_types", DALIC_ARG_DTYPE_LIST, NULL, "Types of inputs."},
    {"outs_ndim", DALIC_ARG_INT_LIST, NULL,
     "Number of dimensions which outputs shapes should have."},
    {"ins_ndim", DALIC_ARG_INT_LIST, NULL, "Number of dimensions which inputs shapes should have."},
    {"blocks", DALIC_ARG_INT_LIST, "[]",
     "3-item list specifying the number of blocks per grid used to execute a CUDA kernel"},
    {"threads_per_block", DALIC_ARG_INT_LIST, "[]",
     "3-item list specifying the number of threads per block used to execute a CUDA kernel"},
    {"batch_processing", DALIC_ARG_BOOL, "False",
     "Determines whether the function is invoked once per batch or separately for each "
     "sample in the batch."},
    {0},
};

DALIC_OPERATOR(NumbaFunction) = {
    .name = "NumbaFunction",
    .fn = "numba_function",
    .module = "nvidia.dali.plugin.numba.fn",
    .doc = "Invokes a Numba-style function: run_fn writes the outputs into arrays, setup_fn "
           "sets their shapes (dalic runs both in its interpreter, with numba's typing).",
    .min_inputs = 1,
    .max_inputs = 6,
    .num_outputs = 1,
    .outputs_for = numba_fn_outputs,
    .devices = DALIC_DEV_CPU,
    .no_prune = true,
    .not_serializable = true,
    .args = numba_fn_args,
    .cpu = &numba_fn_kernel,
};
