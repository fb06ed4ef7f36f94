/*
 * noise.salt_and_pepper: with probability `prob` an element becomes salt (probability
 * prob * salt_vs_pepper) or pepper, else keeps its value; DALI 2.4's draws (salt_and_pepper_
 * noise.h): u = u32 * 2^-32 from the element's Philox generator, salt when u < prob *
 * salt_vs_pepper, pepper when u < prob. With per_channel=False one draw per pixel decides for
 * all its channels (rng_noise.h). Salt and pepper default to the type's maximum and minimum (1
 * and -1 for float); given values convert to the type as a plain C++ cast does. All arguments
 * are float32 per sample; prob and salt_vs_pepper must lie in [0, 1].
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "kernels/common/rng_elem.h"
#include "kernels/common/rng_gpu.h"
#include "kernels/common/rng_noise.h"
#include "kernels/common/rng_shape.h"

#include <string.h>

typedef struct salt_and_pepper_params {
	float prob, salt_prob;
	double salt, pepper; /* the values of the type, exactly */
} salt_and_pepper_params_t;

static int salt_and_pepper_params(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
				  salt_and_pepper_params_t *sp)
{
	dalic_dtype_t t = ws->inputs[0]->dtype;
	float prob, svp, v;
	DALIC_TRY(dalic_rng_arg_scalar(ctx, ws, "prob", i, &prob));
	DALIC_TRY(dalic_rng_arg_scalar(ctx, ws, "salt_vs_pepper", i, &svp));
	sp->salt = dalic_rng_salt_and_pepper_default(t, true);
	sp->pepper = dalic_rng_salt_and_pepper_default(t, false);
	if (dalic_arg_given(ctx, "salt_val")) {
		DALIC_TRY(dalic_rng_arg_scalar(ctx, ws, "salt_val", i, &v));
		sp->salt = dalic_rng_cvt_to(t, v);
	}
	if (dalic_arg_given(ctx, "pepper_val")) {
		DALIC_TRY(dalic_rng_arg_scalar(ctx, ws, "pepper_val", i, &v));
		sp->pepper = dalic_rng_cvt_to(t, v);
	}
	if (!(prob >= 0.0f && prob <= 1.0f))
		return dalic_op_fail(ctx, ws, i,
				     "Noise probability should be a value within [0.0, 1.0]. Got: %g",
				     prob);
	if (!(svp >= 0.0f && svp <= 1.0f))
		return dalic_op_fail(ctx, ws, i,
				     "Salt-vs-pepper probability should be a value within [0.0, 1.0]. "
				     "Got: %g",
				     svp);
	sp->prob = prob;
	sp->salt_prob = prob * svp;
	return DALIC_OK;
}

int dalic_noise_salt_and_pepper_cu_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
					  dalic_cu_random_sample_t *s, int *kind)
{
	salt_and_pepper_params_t sp;
	DALIC_TRY(salt_and_pepper_params(ctx, ws, i, &sp));
	s->prob = sp.prob;
	s->salt_prob = sp.salt_prob;
	s->salt = sp.salt;
	s->pepper = sp.pepper;
	*kind = DALIC_CU_RANDOM_SALT_AND_PEPPER;
	return DALIC_OK;
}

static int salt_and_pepper_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	DALIC_TRY(dalic_rng_noise_setup(ctx, ws));
	for (int i = 0; i < ws->batch_size; i++) { /* DALI checks every sample's values first */
		salt_and_pepper_params_t sp;
		DALIC_TRY(salt_and_pepper_params(ctx, ws, i, &sp));
	}
	for (int i = 0; i < ws->batch_size; i++) {
		dalic_rng_noise_geom_t geo;
		DALIC_TRY(dalic_rng_noise_geometry(ctx, ws, i, dalic_arg_bool(ctx, "per_channel"),
						   &geo));
	}
	return DALIC_OK;
}

static int salt_and_pepper_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
				      int thread)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	salt_and_pepper_params_t sp;
	dalic_rng_noise_geom_t geo;
	DALIC_TRY(salt_and_pepper_params(ctx, ws, i, &sp));
	DALIC_TRY(dalic_rng_noise_geometry(ctx, ws, i, dalic_arg_bool(ctx, "per_channel"), &geo));
	size_t bytes = (size_t)dalic_batch_sample_elems(in, i) * dalic_dtype_size(in->dtype);
	if (bytes)
		memcpy(out->ptrs[i], in->ptrs[i], bytes); /* untouched elements keep their value */
	dalic_philox_t g = dalic_op_rng(ctx, i);
	for (int64_t p = 0; p < geo.pixels; p++) {
		dalic_philox_t e = dalic_rng_for_element(&g, p);
		int draw = dalic_rng_salt_and_pepper_draw(sp.prob, sp.salt_prob, &e);
		if (!draw)
			continue;
		const double *v = draw == 1 ? &sp.salt : &sp.pepper;
		for (int64_t c = 0; c < geo.channels; c++)
			dalic_rng_store(in->dtype, out->ptrs[i], p * geo.p_stride + c * geo.c_stride, v,
					1);
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"prob", DALIC_ARG_FLOAT, "0.05", "Probability of an output value taking a salt or pepper "
				      "value.",
     .tensor = true},
    {"salt_vs_pepper", DALIC_ARG_FLOAT, "0.5", "Probability of a corrupted value being salt.",
     .tensor = true},
    {"salt_val", DALIC_ARG_FLOAT, "None",
     "Value of salt (default: the type's maximum, 1.0 for float).", .tensor = true},
    {"pepper_val", DALIC_ARG_FLOAT, "None",
     "Value of pepper (default: the type's minimum, -1.0 for float).", .tensor = true},
    {"per_channel", DALIC_ARG_BOOL, "False",
     "Channels are corrupted independently; otherwise one draw per pixel decides for all its "
     "channels."},
    {0},
};

static const dalic_kernel_t kernel = {.setup = salt_and_pepper_setup,
				      .run_sample = salt_and_pepper_run_sample};

DALIC_OPERATOR(noise__SaltAndPepper) = {
    .name = "noise__SaltAndPepper",
    .fn = "noise.salt_and_pepper",
    .module = "nvidia.dali.fn.noise",
    .doc = "Applies salt-and-pepper noise to the input. The shape and data type of the output "
	   "will match the input.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .random = true,
    .args = args,
    .cpu = &kernel,
};
