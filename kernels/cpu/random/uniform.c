/*
 * random.uniform: values drawn uniformly from [range[0], range[1]) — default [-1, 1) — or,
 * when `values` is given, picked with equal probability from that discrete list (the two
 * are mutually exclusive). Both may be given per sample. Output shape follows the random
 * operators' rule (rng_shape.h); dtype defaults to FLOAT, and integer outputs are rounded and
 * saturated, so they can fall outside the range (as in DALI).
 *
 * Each sample slot has its own generator (ctx->rng[i]), so values depend on (seed,
 * iteration, sample) only. Continuous draws stay strictly below range[1] even after rounding
 * to float.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "kernels/common/rng_shape.h"

#include <math.h>

static int uniform_init(dalic_op_ctx_t *ctx)
{
	if (dalic_arg_given(ctx, "range") && dalic_arg_given(ctx, "values"))
		return dalic_fail(DALIC_EINVAL,
		                  "operator '%s' (%s): argument 'values': `range` and `values` are "
		                  "mutually exclusive",
		                  ctx->inst, ctx->schema->name);
	const dalic_value_t *values = dalic_arg(ctx, "values");
	if (values->kind != DALIC_V_NONE && values->n == 0)
		return dalic_fail(DALIC_EINVAL,
		                  "operator '%s' (%s): argument 'values': the list is empty",
		                  ctx->inst, ctx->schema->name);
	return DALIC_OK;
}

static int uniform_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	dalic_dtype_t dtype = (dalic_dtype_t)dalic_arg_int(ctx, "dtype");
	if (dtype == DALIC_BOOL)
		return dalic_op_fail(ctx, ws, -1, "argument 'dtype': BOOL is not supported");
	return dalic_rng_setup_output(ctx, ws, dtype);
}

/* `values` mode: DALI keeps the list as float32, hence the (float) on every value. */
static int uniform_run_discrete(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i)
{
	dalic_batch_t *out = ws->outputs[0];
	const dalic_batch_t *vin = dalic_arg_input(ws, "values");
	const dalic_value_t *list = dalic_arg(ctx, "values");
	if (vin && (!dalic_dtype_is_numeric(vin->dtype) || i >= vin->num_samples))
		return dalic_op_fail(ctx, ws, i,
		                     "argument input 'values' has no numeric values "
		                     "for this sample");
	int64_t count = vin ? dalic_batch_sample_elems(vin, i) : list->n;
	if (count < 1)
		return dalic_op_fail(ctx, ws, i, "argument 'values' is empty");
	int64_t n = dalic_batch_sample_elems(out, i);
	for (int64_t k = 0; k < n; k++) {
		int64_t pick = (int64_t)dalic_rng_below(&ctx->rng[i], (uint64_t)count);
		double v = vin ? dalic_dtype_load_f64(vin->dtype, vin->ptrs[i], pick)
		               : dalic_value_get_f(list, (int)pick);
		dalic_dtype_store_sat(out->dtype, out->ptrs[i], k, (float)v);
	}
	return DALIC_OK;
}

static int uniform_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	if (dalic_arg_given(ctx, "values"))
		return uniform_run_discrete(ctx, ws, i);
	double range[2];
	int n;
	int rc = dalic_arg_floats_at(ctx, ws, "range", i, range, 2, &n);
	if (rc)
		return rc;
	if (n != 2)
		return dalic_op_fail(ctx, ws, i, "argument 'range' needs 2 values, got %d", n);
	double lo = range[0], hi = range[1];
	if (!(lo <= hi))
		return dalic_op_fail(ctx, ws, i, "argument 'range': [%g, %g) is empty", lo, hi);
	dalic_batch_t *out = ws->outputs[0];
	int64_t count = dalic_batch_sample_elems(out, i);
	bool single = out->dtype == DALIC_FLOAT || out->dtype == DALIC_FLOAT16;
	for (int64_t k = 0; k < count; k++) {
		double v = lo + (hi - lo) * dalic_rng_uniform(&ctx->rng[i]);
		if (single && lo < hi && (float)v >= (float)hi)
			v = nextafterf((float)hi, (float)lo);
		dalic_dtype_store_sat(out->dtype, out->ptrs[i], k, v);
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"range", DALIC_ARG_FLOAT_LIST, "[-1.0, 1.0]", "Range [min, max) of the values.",
     .tensor = true},
    {"values", DALIC_ARG_FLOAT_LIST, "None",
     "Discrete values to pick from with equal probability (instead of `range`).", .tensor = true},
    {"shape", DALIC_ARG_INT_LIST, "None", "Shape of each output sample.", .tensor = true},
    {"dtype", DALIC_ARG_DTYPE, "FLOAT", "Output data type."},
    {0},
};

static const dalic_kernel_t kernel = {
    .init = uniform_init, .setup = uniform_setup, .run_sample = uniform_run_sample};

DALIC_OPERATOR(random__Uniform) = {
    .name = "random__Uniform",
    .fn = "random.uniform",
    .aliases = {"Uniform"},
    .module = "nvidia.dali.fn.random",
    .doc = "Generates random numbers following a uniform distribution.",
    .min_inputs = 0,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .random = true,
    .args = args,
    .cpu = &kernel,
};
