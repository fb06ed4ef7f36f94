/*
 * The random operators on the GPU (kernels/cuda/random.cuh): random.uniform, random.normal,
 * random.coin_flip, noise.gaussian, noise.salt_and_pepper and noise.shot, one launch a batch.
 * Each sample's distribution comes from the CPU operator's own argument rules
 * (kernels/common/rng_gpu.h) and its generator is the CPU's, dalic_op_rng(ctx, i), from the
 * operator's master state; the executor moves the master on by the batch size after the run on
 * either path, so every iteration draws the CPU operator's values. random.uniform's `values`
 * and noise.shot's flag live in the node's device scratch; `finish` reads the flag and fails
 * as the CPU operator does (without the sample: the flag does not say which).
 */
#include "kernels/common/rng_gpu.h"
#include "kernels/common/rng_noise.h"
#include "kernels/common/gpu_op.h"

#include "engine/dtype.h"
#include "engine/error.h"

#include <string.h>

DALIC_GPU_KERNEL(random);

typedef int (*dalic_gpu_random_fill_fn)(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                        dalic_cu_random_sample_t *s, int *kind);

/* The flag comes first in the device scratch, the values after it, 8-byte aligned. */
#define DALIC_GPU_RANDOM_FLAG_BYTES 8

/* Copies every PICK sample's values into one host table (slot 1), uploads it after the flag
 * and points the samples at the device copy. */
static int dalic_gpu_random_values(dalic_gpu_run_t *r, dalic_cu_random_sample_t *s, int n,
                                   char **dev)
{
	int64_t total = 0;
	for (int i = 0; i < n; i++)
		total += s[i].num_values;
	size_t bytes = DALIC_GPU_RANDOM_FLAG_BYTES + sizeof(float) * (size_t)total;
	char *host = dalic_gpu_scratch(r, 1, bytes);
	if (!host)
		return DALIC_ENOMEM;
	memset(host, 0, DALIC_GPU_RANDOM_FLAG_BYTES);
	float *v = (float *)(host + DALIC_GPU_RANDOM_FLAG_BYTES);
	int64_t at = 0;
	for (int i = 0; i < n; i++) {
		if (s[i].num_values)
			memcpy(v + at, s[i].values, sizeof(float) * (size_t)s[i].num_values);
		at += s[i].num_values;
	}
	if (!(*dev = dalic_gpu_upload(r, host, bytes)))
		return DALIC_EDEVICE;
	at = 0;
	for (int i = 0; i < n; i++) {
		s[i].values = (const float *)(*dev + DALIC_GPU_RANDOM_FLAG_BYTES) + at;
		at += s[i].num_values;
	}
	return DALIC_OK;
}

static int dalic_gpu_random_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                                dalic_gpu_random_fill_fn fill, bool noise)
{
	dalic_batch_t *out = ws->outputs[0];
	int n = ws->batch_size, kind = DALIC_CU_RANDOM_UNIFORM_F32;
	dalic_cu_random_sample_t *s = dalic_gpu_scratch(r, 0, sizeof *s * (size_t)n);
	if (!s)
		return DALIC_ENOMEM;
	memset(s, 0, sizeof *s * (size_t)n);
	for (int i = 0; i < n; i++) {
		DALIC_TRY(fill(ctx, ws, i, &s[i], &kind));
		s[i].out = out->ptrs[i];
		s[i].rng = dalic_op_rng(ctx, i);
		s[i].items = (int64_t)dalic_batch_sample_elems(out, i);
		s[i].channels = s[i].p_stride = s[i].c_stride = 1;
		if (!noise)
			continue;
		s[i].in = ws->inputs[0]->ptrs[i];
		if (kind == DALIC_CU_RANDOM_SALT_AND_PEPPER) {
			dalic_rng_noise_geom_t geo;
			DALIC_TRY(dalic_rng_noise_geometry(
			    ctx, ws, i, dalic_arg_bool(ctx, "per_channel"), &geo));
			s[i].items = geo.pixels;
			s[i].channels = geo.channels;
			s[i].p_stride = geo.p_stride;
			s[i].c_stride = geo.c_stride;
		}
	}
	char *dev = NULL;
	if (kind != DALIC_CU_RANDOM_PICK)
		for (int i = 0; i < n; i++)
			s[i].num_values = 0; /* no table to upload */
	DALIC_TRY(dalic_gpu_random_values(r, s, n, &dev));
	dalic_cu_random_params_t p = {s,
	                              NULL,
	                              n,
	                              0,
	                              kind,
	                              (int)out->dtype,
	                              (int64_t)dalic_dtype_size(out->dtype),
	                              kind == DALIC_CU_RANDOM_SHOT ? (int *)dev : NULL};
	dalic_cu_random_grid(&p, NULL, 0);
	dalic_cu_block_t *b = dalic_gpu_scratch(r, 2, sizeof *b * (size_t)p.nblocks);
	if (!b)
		return DALIC_ENOMEM;
	dalic_cu_launch_t l = dalic_cu_random_grid(&p, b, p.nblocks);
	return dalic_gpu_launch(r, &dalic_gpu_random_kernel, &p, &l);
}

static int dalic_gpu_random_uniform_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx,
                                        const dalic_ws_t *ws)
{
	return dalic_gpu_random_run(r, ctx, ws, dalic_random_uniform_cu_sample, false);
}

static int dalic_gpu_random_normal_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx,
                                       const dalic_ws_t *ws)
{
	return dalic_gpu_random_run(r, ctx, ws, dalic_random_normal_cu_sample, false);
}

static int dalic_gpu_random_coin_flip_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx,
                                          const dalic_ws_t *ws)
{
	return dalic_gpu_random_run(r, ctx, ws, dalic_random_coin_flip_cu_sample, false);
}

static int dalic_gpu_random_gaussian_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx,
                                         const dalic_ws_t *ws)
{
	return dalic_gpu_random_run(r, ctx, ws, dalic_noise_gaussian_cu_sample, true);
}

static int dalic_gpu_random_salt_and_pepper_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx,
                                                const dalic_ws_t *ws)
{
	return dalic_gpu_random_run(r, ctx, ws, dalic_noise_salt_and_pepper_cu_sample, true);
}

static int dalic_gpu_random_shot_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_gpu_random_run(r, ctx, ws, dalic_noise_shot_cu_sample, true);
}

/* noise.shot: the kernels' flag, set where a mean reached 2^32. */
static int dalic_gpu_random_shot_finish(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx,
                                        const dalic_ws_t *ws)
{
	int bad = 0;
	if (r->dev->copy(&bad, r->scratch->dev, sizeof bad))
		return dalic_fail(DALIC_EDEVICE,
		                  "operator '%s': reading the Poisson flag failed (the CUDA "
		                  "error is on stderr)",
		                  ctx->inst);
	if (!bad)
		return DALIC_OK;
	return dalic_op_fail(ctx, ws, -1, "an element's input / factor is too large: %s",
	                     DALIC_NOISE_SHOT_BAD_MEAN);
}

const dalic_gpu_op_t dalic_gpu_op_random_uniform = {"random__Uniform",
                                                    dalic_gpu_random_uniform_run};
const dalic_gpu_op_t dalic_gpu_op_random_normal = {"random__Normal", dalic_gpu_random_normal_run};
const dalic_gpu_op_t dalic_gpu_op_random_coin_flip = {"random__CoinFlip",
                                                      dalic_gpu_random_coin_flip_run};
const dalic_gpu_op_t dalic_gpu_op_noise_gaussian = {"noise__Gaussian",
                                                    dalic_gpu_random_gaussian_run};
const dalic_gpu_op_t dalic_gpu_op_noise_salt_and_pepper = {"noise__SaltAndPepper",
                                                           dalic_gpu_random_salt_and_pepper_run};
const dalic_gpu_op_t dalic_gpu_op_noise_shot = {"noise__Shot", dalic_gpu_random_shot_run,
                                                dalic_gpu_random_shot_finish};
