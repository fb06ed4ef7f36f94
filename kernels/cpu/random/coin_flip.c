/*
 * random.coin_flip: per sample, values that are 1 with `probability` and 0 otherwise.
 * Output shape: `shape` (per sample), or the shape of the optional `shape_like` input, or a
 * scalar. Default dtype INT32 (DALI's 4-byte output). Each sample slot has its own generator,
 * so values depend on (seed, iteration, sample) only.
 */
#include "engine/dtype.h"
#include "engine/kernel.h"
#include "kernels/common/rng_shape.h"

static int coin_flip_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_rng_setup_output(ctx, ws, (dalic_dtype_t)dalic_arg_int(ctx, "dtype"));
}

static int coin_flip_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	double p;
	int rc = dalic_arg_float_at(ctx, ws, "probability", i, &p);
	if (rc)
		return rc;
	if (!(p >= 0 && p <= 1)) /* NaN too */
		return dalic_op_fail(ctx, ws, i, "probability %g is outside [0, 1]", p);
	dalic_batch_t *out = ws->outputs[0];
	int64_t n = dalic_batch_sample_elems(out, i);
	for (int64_t k = 0; k < n; k++)
		dalic_dtype_store_sat(out->dtype, out->ptrs[i], k, dalic_rng_uniform(&ctx->rng[i]) < p);
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
	{"probability", DALIC_ARG_FLOAT, "0.5", "Probability of value 1.", .tensor = true},
	{"shape", DALIC_ARG_INT_LIST, "None", "Shape of each output sample.", .tensor = true},
	{"dtype", DALIC_ARG_DTYPE, "INT32", "Output data type."},
	{0},
};

static const dalic_kernel_t kernel = {.setup = coin_flip_setup, .run_sample = coin_flip_run_sample};

DALIC_OPERATOR(random__CoinFlip) = {
	.name = "random__CoinFlip",
	.fn = "random.coin_flip",
	.aliases = {"CoinFlip"},
	.module = "nvidia.dali.fn.random",
	.doc = "Generates random boolean values following a Bernoulli distribution.",
	.min_inputs = 0,
	.max_inputs = 1,
	.num_outputs = 1,
	.devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
	.random = true,
	.args = args,
	.cpu = &kernel,
};
