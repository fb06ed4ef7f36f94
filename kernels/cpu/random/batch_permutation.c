/*
 * batch_permutation: one int32 scalar per sample, together a random permutation of 0..N-1 (N =
 * the batch size), as DALI 2.4 draws it: libstdc++'s algorithms on the operator's Philox
 * generator for sample 0 (dali/core/random.h):
 *  - permutation: std::shuffle of 0..N-1;
 *  - no_fixed_points: for each i < N-1, swap out[i] with out[uniform_int(i+1, N-1)];
 *  - allow_repetitions: uniform_int(0, N-1) per sample;
 *  - both: uniform_int(0, N-2) per sample i, moved up by one at or above i.
 * no_fixed_points is ignored for a batch of one.
 */
#include "engine/error.h"
#include "engine/kernel.h"
#include "engine/rng_std.h"

#include <stdlib.h>

typedef struct batch_permutation {
	int32_t *perm; /* max_batch_size values */
} batch_permutation_t;

static int batch_permutation_init(dalic_op_ctx_t *ctx)
{
	batch_permutation_t *s = ctx->state;
	s->perm = calloc((size_t)(ctx->max_batch_size > 0 ? ctx->max_batch_size : 1),
			 sizeof *s->perm);
	if (!s->perm)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	return DALIC_OK;
}

static void batch_permutation_fini(dalic_op_ctx_t *ctx)
{
	batch_permutation_t *s = ctx->state;
	free(s->perm);
}

static int batch_permutation_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	if (ws->batch_size > ctx->max_batch_size)
		return dalic_op_fail(ctx, ws, -1, "batch of %d samples, more than max_batch_size %d",
				     ws->batch_size, ctx->max_batch_size);
	return dalic_batch_set_meta(ws->outputs[0], ws->batch_size, DALIC_INT32, 0);
}

/* uniform_int_distribution<int>(a, b) on the generator. */
static int32_t batch_permutation_uniform(dalic_philox_t *g, int32_t a, int32_t b)
{
	return (int32_t)dalic_rng_std_uniform_int(g, a, b);
}

static int batch_permutation_run(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	batch_permutation_t *s = ctx->state;
	int32_t n = ws->batch_size, *out = s->perm;
	if (n < 1)
		return DALIC_OK;
	bool rep = dalic_arg_bool(ctx, "allow_repetitions");
	bool no_fixed = dalic_arg_bool(ctx, "no_fixed_points") && n > 1;
	dalic_philox_t g = dalic_op_rng(ctx, 0);
	if (rep && no_fixed) {
		for (int32_t i = 0; i < n; i++) {
			int32_t x = batch_permutation_uniform(&g, 0, n - 2);
			out[i] = x + (x >= i);
		}
	} else if (rep) {
		for (int32_t i = 0; i < n; i++)
			out[i] = batch_permutation_uniform(&g, 0, n - 1);
	} else {
		for (int32_t i = 0; i < n; i++)
			out[i] = i;
		if (no_fixed) {
			for (int32_t i = 0; i < n - 1; i++) {
				int32_t j = batch_permutation_uniform(&g, i + 1, n - 1), t = out[i];
				out[i] = out[j];
				out[j] = t;
			}
		} else {
			dalic_rng_std_shuffle(out, (size_t)n, dalic_rng_philox_next_fn, &g);
		}
	}
	for (int i = 0; i < n; i++)
		*(int32_t *)ws->outputs[0]->ptrs[i] = out[i];
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"allow_repetitions", DALIC_ARG_BOOL, "False",
     "If true, the output can contain repetitions and omissions."},
    {"no_fixed_points", DALIC_ARG_BOOL, "False",
     "If true, the output permutation cannot contain fixed points (out[i] != i); ignored for a "
     "batch of one."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(batch_permutation_t),
    .init = batch_permutation_init,
    .setup = batch_permutation_setup,
    .run = batch_permutation_run,
    .fini = batch_permutation_fini,
};

DALIC_OPERATOR(BatchPermutation) = {
    .name = "BatchPermutation",
    .fn = "batch_permutation",
    .doc = "Produces a batch of random integers which can be used as indices for indexing "
	   "samples in the batch.",
    .min_inputs = 0,
    .max_inputs = 0,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU,
    .random = true,
    .args = args,
    .cpu = &kernel,
};
