/*
 * random.choice: samples drawn from the input `a` (DALI 2.4's choice.h):
 *  - a scalar n (an integer) draws values in [0, n);
 *  - a 1-D input draws its elements;
 *  - a higher-dimensional input draws slices along its first dimension (each output element is
 *    a whole a[k], so the output shape is the drawn shape followed by a.shape[1:]).
 * Each draw is uniform, or follows `p` (one probability per candidate, each in [0, 1], summing
 * to 1 within 1e-4). The drawn shape is `shape`, or the shape of the optional `shape_like`
 * input, or a scalar. The output has the input's type.
 *
 * The draws are DALI's: libstdc++'s uniform_int_distribution / discrete_distribution on
 * Philox, one element generator per output element for scalar and 1-D inputs (RNGBase), the
 * sample generator in sequence for the slices (ElementCopy).
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "engine/rng_std.h"
#include "kernels/common/rng_shape.h"

#include <stdlib.h>
#include <string.h>

typedef struct choice_state {
	double *cp;      /* per thread: max candidates with probabilities (cumulative) */
	int64_t cp_cap;  /* entries per thread */
	int num_threads;
} choice_state_t;

/* The candidates of sample i: the scalar's value, or the first extent. */
static int choice_count(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int64_t *n)
{
	const dalic_batch_t *a = ws->inputs[0];
	*n = a->ndim == 0 ? dalic_dtype_load_i64(a->dtype, a->ptrs[i], 0)
			  : dalic_batch_shape(a, i)[0];
	if (*n <= 0)
		return dalic_op_fail(ctx, ws, i,
				     "Expected positive number of elements for sampling, got: %lld "
				     "for sample: %d.",
				     (long long)*n, i);
	return DALIC_OK;
}

/* Sample i's probabilities (NULL when `p` is not given); *broadcast: one value for all. */
static int choice_probs(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int64_t n,
			const float **p, float *one, bool *broadcast)
{
	*p = NULL;
	*broadcast = false;
	int64_t count;
	DALIC_TRY(dalic_rng_arg_input_floats(ctx, ws, "p", i, p, &count));
	if (*p) {
		if (dalic_arg_input(ws, "p")->ndim == 0) {
			*one = (*p)[0];
			*p = one;
			*broadcast = true;
		} else if (count != n) {
			return dalic_op_fail(ctx, ws, i,
					     "Unexpected shape for argument \"p\". Expected {%lld}, "
					     "but got {%lld}",
					     (long long)n, (long long)count);
		}
		return DALIC_OK;
	}
	const dalic_value_t *list = dalic_arg(ctx, "p");
	if (list->kind == DALIC_V_NONE)
		return DALIC_OK;
	if (list->n == 1) {
		*one = (float)dalic_value_get_f(list, 0);
		*p = one;
		*broadcast = true;
	} else if (list->n != n) {
		return dalic_op_fail(ctx, ws, i,
				     "Argument \"p\" expected shape %lld but got %d values, which "
				     "can't be interpreted as the expected shape.",
				     (long long)n, list->n);
	}
	return DALIC_OK;
}

/* Candidate k's probability as float32 (DALI reads `p` as float32). */
static float choice_prob(dalic_op_ctx_t *ctx, const float *p, bool broadcast, int64_t k)
{
	if (broadcast)
		return p[0];
	return p ? p[k] : (float)dalic_value_get_f(dalic_arg(ctx, "p"), (int)k);
}

static int choice_check_probs(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int64_t n)
{
	const float *p;
	float one;
	bool broadcast;
	DALIC_TRY(choice_probs(ctx, ws, i, n, &p, &one, &broadcast));
	if (!p && dalic_arg(ctx, "p")->kind == DALIC_V_NONE)
		return DALIC_OK;
	double sum = 0.0;
	for (int64_t k = 0; k < n; k++) {
		float v = choice_prob(ctx, p, broadcast, k);
		if (!(v >= 0.0 && v <= 1.0))
			return dalic_op_fail(ctx, ws, i,
					     "Probabilities must be in range [0, 1], but got: %g for "
					     "sample: %d at index %lld.",
					     v, i, (long long)k);
		sum += v;
	}
	if (!(fabs(sum - 1.0) < 1e-4))
		return dalic_op_fail(ctx, ws, i,
				     "Sum of probabilities must be 1.0, but got %g for sample: %d.", sum,
				     i);
	return DALIC_OK;
}

static int choice_check_type(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *a = ws->inputs[0];
	if (a->ndim != 0)
		return DALIC_OK;
	if (a->dtype == DALIC_BOOL || !dalic_dtype_is_integral(a->dtype))
		return dalic_op_fail(ctx, ws, -1,
				     "Data type %s is not supported for 0D inputs. Supported types "
				     "are: uint8, uint16, uint32, uint64, int8, int16, int32, int64.",
				     dalic_dtype_cname(a->dtype));
	return DALIC_OK;
}

static int choice_init(dalic_op_ctx_t *ctx)
{
	choice_state_t *s = ctx->state;
	s->num_threads = ctx->num_threads > 0 ? ctx->num_threads : 1;
	return DALIC_OK;
}

static void choice_fini(dalic_op_ctx_t *ctx)
{
	choice_state_t *s = ctx->state;
	free(s->cp);
}

static int choice_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	choice_state_t *s = ctx->state;
	const dalic_batch_t *a = ws->inputs[0];
	DALIC_TRY(choice_check_type(ctx, ws));
	int64_t max_n = 0;
	for (int i = 0; i < ws->batch_size; i++) {
		int64_t n;
		DALIC_TRY(choice_count(ctx, ws, i, &n));
		DALIC_TRY(choice_check_probs(ctx, ws, i, n));
		max_n = n > max_n ? n : max_n;
	}
	const dalic_batch_t *like = ws->num_inputs > 1 ? ws->inputs[1] : NULL;
	DALIC_TRY(dalic_rng_setup_output_like(ctx, ws, a->dtype, like));
	dalic_batch_t *out = ws->outputs[0];
	int edim = a->ndim > 0 ? a->ndim - 1 : 0, base = out->ndim;
	if (base + edim > DALIC_MAX_NDIM)
		return dalic_op_fail(ctx, ws, -1, "output of %d dimensions, at most %d supported",
				     base + edim, DALIC_MAX_NDIM);
	out->ndim = base + edim; /* shapes keep their stride: append the slice's extents */
	for (int i = 0; i < ws->batch_size; i++)
		for (int d = 0; d < edim; d++)
			dalic_batch_shape_mut(out, i)[base + d] = dalic_batch_shape(a, i)[1 + d];
	if (!a->layout[0])
		dalic_batch_set_layout(out, "");
	else if (out->ndim == a->ndim)
		dalic_batch_set_layout(out, a->layout);
	else if (a->ndim > 0 && out->ndim == a->ndim - 1)
		dalic_batch_set_layout(out, a->layout + 1);
	if (dalic_arg_given(ctx, "p") && max_n > s->cp_cap) { /* cumulative sums, per thread */
		double *cp = realloc(s->cp, sizeof *cp * (size_t)max_n * (size_t)s->num_threads);
		if (!cp)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		s->cp = cp;
		s->cp_cap = max_n;
	}
	return DALIC_OK;
}

/* One draw in [0, n): discrete over cp[0..ncp) when probabilities are given, else uniform. */
static int64_t choice_draw(const double *cp, int64_t ncp, bool probs, int64_t n,
			   dalic_philox_t *g)
{
	if (probs)
		return dalic_rng_std_discrete(cp, ncp, g);
	return (int64_t)dalic_rng_std_below_incl((uint64_t)(n - 1), dalic_rng_philox_next_fn, g);
}

/* Stores the integer v (0 <= v < n, so it fits the type) at element k. */
static void choice_store_index(void *out, size_t size, int64_t k, int64_t v)
{
	uint64_t u = (uint64_t)v;
	uint8_t bytes[8];
	for (size_t b = 0; b < 8; b++)
		bytes[b] = (uint8_t)(u >> (8 * b));
	memcpy((uint8_t *)out + (size_t)k * size, bytes, size);
}

static int choice_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	choice_state_t *s = ctx->state;
	const dalic_batch_t *a = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int64_t n;
	DALIC_TRY(choice_count(ctx, ws, i, &n));
	const float *p;
	float one;
	bool broadcast;
	DALIC_TRY(choice_probs(ctx, ws, i, n, &p, &one, &broadcast));
	bool probs = p || dalic_arg(ctx, "p")->kind != DALIC_V_NONE;
	double *cp = probs ? s->cp + (size_t)thread * (size_t)s->cp_cap : NULL;
	int64_t ncp = 0;
	if (probs) { /* the weights as float32, widened as libstdc++ stores them */
		for (int64_t k = 0; k < n; k++)
			cp[k] = choice_prob(ctx, p, broadcast, k);
		ncp = dalic_rng_std_discrete_init(cp, cp, n);
	}
	size_t esize = dalic_dtype_size(a->dtype);
	dalic_philox_t g = dalic_op_rng(ctx, i);
	if (a->ndim <= 1) {
		int64_t count = dalic_batch_sample_elems(out, i);
		for (int64_t k = 0; k < count; k++) {
			dalic_philox_t e = dalic_rng_for_element(&g, k);
			int64_t idx = choice_draw(cp, ncp, probs, n, &e);
			if (a->ndim == 0)
				choice_store_index(out->ptrs[i], esize, k, idx);
			else
				memcpy((uint8_t *)out->ptrs[i] + (size_t)k * esize,
				       (const uint8_t *)a->ptrs[i] + (size_t)idx * esize, esize);
		}
		return DALIC_OK;
	}
	size_t slice = esize;
	for (int d = 1; d < a->ndim; d++)
		slice *= (size_t)dalic_batch_shape(a, i)[d];
	int64_t count = 1;
	for (int d = 0; d < out->ndim - (a->ndim - 1); d++)
		count *= dalic_batch_shape(out, i)[d];
	for (int64_t k = 0; k < count; k++) {
		int64_t idx = choice_draw(cp, ncp, probs, n, &g);
		memcpy((uint8_t *)out->ptrs[i] + (size_t)k * slice,
		       (const uint8_t *)a->ptrs[i] + (size_t)idx * slice, slice);
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"p", DALIC_ARG_FLOAT_LIST, "None",
     "Probability of each candidate (as many as the candidates, summing to 1); uniform when "
     "not given.",
     .tensor = true},
    {"shape", DALIC_ARG_INT_LIST, "None", "Shape of each output sample.", .tensor = true},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(choice_state_t),
    .init = choice_init,
    .setup = choice_setup,
    .run_sample = choice_run_sample,
    .fini = choice_fini,
};

DALIC_OPERATOR(random__Choice) = {
    .name = "random__Choice",
    .fn = "random.choice",
    .module = "nvidia.dali.fn.random",
    .doc = "Generates a random sample from a given 1D array (or the range [0, a) for a scalar "
	   "a, or slices along the first dimension of a higher-dimensional a).",
    .min_inputs = 1,
    .max_inputs = 2,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU,
    .random = true,
    .args = args,
    .cpu = &kernel,
};
