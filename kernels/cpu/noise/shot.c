/*
 * noise.shot: out = ConvertSat<T>(Poisson(max(0, in / factor)) * factor), DALI 2.4's draws
 * (shot_noise.h): libstdc++'s poisson_distribution<uint32_t>, a fresh one per element, on the
 * element's Philox generator; in / factor is computed as in * (1 / factor) in float, the
 * product in float. What DALI does, not what its documentation says:
 *  - without an explicit `factor` DALI uses its implementation's default, 12, not the schema's
 *    20;
 *  - factor 0 gives zeros (the input value times 0), not the input.
 * A mean of 2^32 or more never finishes in DALI (every draw is rejected): dalic reports it.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "kernels/common/rng_elem.h"
#include "kernels/common/rng_gpu.h"
#include "kernels/common/rng_noise.h"
#include "kernels/common/rng_shape.h"

#define SHOT_BLOCK 256
#define SHOT_IMPL_DEFAULT 12.0f /* ShotNoiseImpl's default factor */

static int shot_factor(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, float *factor)
{
	if (!dalic_arg_given(ctx, "factor")) {
		*factor = SHOT_IMPL_DEFAULT;
		return DALIC_OK;
	}
	return dalic_rng_arg_scalar(ctx, ws, "factor", i, factor);
}

int dalic_noise_shot_cu_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
			       dalic_cu_random_sample_t *s, int *kind)
{
	DALIC_TRY(shot_factor(ctx, ws, i, &s->factor));
	s->inv_factor = 1.0f / s->factor;
	*kind = DALIC_CU_RANDOM_SHOT;
	return DALIC_OK;
}

static int shot_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	DALIC_TRY(dalic_rng_noise_setup(ctx, ws));
	for (int i = 0; i < ws->batch_size; i++) {
		float factor;
		DALIC_TRY(shot_factor(ctx, ws, i, &factor));
	}
	return DALIC_OK;
}

static int shot_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	dalic_cu_random_sample_t s;
	int kind;
	DALIC_TRY(dalic_noise_shot_cu_sample(ctx, ws, i, &s, &kind));
	const float factor = s.factor, inv_factor = s.inv_factor;
	int64_t n = dalic_batch_sample_elems(in, i);
	dalic_philox_t g = dalic_op_rng(ctx, i);
	double v[SHOT_BLOCK];
	for (int64_t p0 = 0; p0 < n; p0 += SHOT_BLOCK) {
		int64_t k = n - p0 < SHOT_BLOCK ? n - p0 : SHOT_BLOCK;
		for (int64_t j = 0; j < k; j++) {
			float x = dalic_rng_load_f32(in->dtype, in->ptrs[i], p0 + j);
			dalic_philox_t e = dalic_rng_for_element(&g, p0 + j);
			bool bad = false;
			v[j] = dalic_rng_shot_value(x, factor, inv_factor, &e, &bad);
			if (bad)
				return dalic_op_fail(ctx, ws, i,
						     "element %lld: input / factor = %g, "
						     DALIC_NOISE_SHOT_BAD_MEAN,
						     (long long)(p0 + j), x * inv_factor);
		}
		dalic_rng_store(in->dtype, out->ptrs[i], p0, v, k);
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"factor", DALIC_ARG_FLOAT, "20.0",
     "Factor parameter: out = poisson(max(0, in / factor)) * factor.", .tensor = true},
    {0},
};

static const dalic_kernel_t kernel = {.setup = shot_setup, .run_sample = shot_run_sample};

DALIC_OPERATOR(noise__Shot) = {
    .name = "noise__Shot",
    .fn = "noise.shot",
    .module = "nvidia.dali.fn.noise",
    .doc = "Applies shot noise to the input: output = poisson(max(0, input / factor)) * factor.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .random = true,
    .args = args,
    .cpu = &kernel,
};
