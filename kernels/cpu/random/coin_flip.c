/*
 * random.coin_flip: per element, 1 with `probability` and 0 otherwise, drawn as DALI's
 * bernoulli_dist (u32 <= uint32(p * 2^32)) from the element's Philox generator, so the same
 * seed gives DALI's values. Output shape: `shape` (per sample), or the shape of the optional
 * `shape_like` input, or a scalar (rng_shape.h). dtype: bool, uint8 or int32 (default).
 * DALI checks no range: p >= 1 always gives 1, p <= 0 almost never does, and negative or NaN
 * probabilities give what DALI's x86 build gives.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "kernels/common/rng_gpu.h"
#include "kernels/common/rng_shape.h"

static const dalic_dtype_t coin_flip_types[] = {DALIC_BOOL, DALIC_UINT8, DALIC_INT32};

static int coin_flip_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	dalic_dtype_t dtype = (dalic_dtype_t)dalic_arg_int(ctx, "dtype");
	DALIC_TRY(dalic_rng_check_dtype(ctx, ws, dtype, coin_flip_types, 3));
	DALIC_TRY(dalic_rng_setup_output(ctx, ws, dtype));
	for (int i = 0; i < ws->batch_size; i++) { /* argument errors before any sample runs */
		float p;
		DALIC_TRY(dalic_rng_arg_scalar(ctx, ws, "probability", i, &p));
	}
	return DALIC_OK;
}

static double coin_flip_element(const void *dist, dalic_philox_t *g)
{
	return dalic_rng_bernoulli(*(const uint32_t *)dist, g);
}

int dalic_random_coin_flip_cu_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
				     dalic_cu_random_sample_t *s, int *kind)
{
	float p;
	DALIC_TRY(dalic_rng_arg_scalar(ctx, ws, "probability", i, &p));
	s->threshold = dalic_rng_bernoulli_threshold(p);
	*kind = DALIC_CU_RANDOM_COIN_FLIP;
	return DALIC_OK;
}

static int coin_flip_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	dalic_cu_random_sample_t s;
	int kind;
	DALIC_TRY(dalic_random_coin_flip_cu_sample(ctx, ws, i, &s, &kind));
	dalic_rng_generate(ctx, ws, i, coin_flip_element, &s.threshold);
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
	{"probability", DALIC_ARG_FLOAT, "0.5", "Probability of value 1.", .tensor = true},
	{"shape", DALIC_ARG_INT_LIST, "None", "Shape of each output sample.", .tensor = true},
	{"dtype", DALIC_ARG_DTYPE, "INT32", "Output data type: bool, uint8 or int32."},
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
