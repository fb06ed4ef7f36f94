/*
 * random.uniform: values drawn uniformly from [range[0], range[1]) — default [-1, 1) — or,
 * when `values` is given, picked with equal probability from that list (then `range` is
 * ignored, as in DALI). Both may be given per sample. Every element draws from its own Philox
 * generator with DALI's distributions (random_dist.h), so the same seed gives DALI's values:
 *  - continuous: DALI converts the range to the output type first (so an integer output draws
 *    between the truncated bounds), then draws in float (outputs up to 16-bit integers, float)
 *    or double (32/64-bit integers, double), and rounds and saturates integer outputs;
 *  - discrete: the values are float32, the index is (u32 * count) >> 32.
 * Output shape: rng_shape.h.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "kernels/common/rng_gpu.h"
#include "kernels/common/rng_shape.h"

#include <stdlib.h>

static const dalic_dtype_t uniform_types[] = {
    DALIC_UINT8, DALIC_INT8,  DALIC_UINT16, DALIC_INT16, DALIC_UINT32,
    DALIC_INT32, DALIC_UINT64, DALIC_INT64, DALIC_FLOAT, DALIC_FLOAT64,
};

typedef struct uniform_state {
	float *values; /* the constant `values` list as float32 */
	int64_t num_values;
} uniform_state_t;

typedef struct uniform_discrete {
	const float *values;
	int64_t count;
} uniform_discrete_t;

static int uniform_init(dalic_op_ctx_t *ctx)
{
	uniform_state_t *s = ctx->state;
	const dalic_value_t *values = dalic_arg(ctx, "values");
	if (values->kind == DALIC_V_NONE)
		return DALIC_OK;
	if (values->n == 0) /* DALI crashes on it */
		return dalic_fail(DALIC_EINVAL,
		                  "operator '%s' (%s): argument 'values': the list is empty",
		                  ctx->inst, ctx->schema->name);
	s->values = calloc((size_t)values->n, sizeof *s->values);
	if (!s->values)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int k = 0; k < values->n; k++)
		s->values[k] = (float)dalic_value_get_f(values, k);
	s->num_values = values->n;
	return DALIC_OK;
}

static void uniform_fini(dalic_op_ctx_t *ctx)
{
	uniform_state_t *s = ctx->state;
	free(s->values);
}

/* The sample's `values` (argument input or the constant list). */
static int uniform_values(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
			  uniform_discrete_t *d)
{
	const uniform_state_t *s = ctx->state;
	DALIC_TRY(dalic_rng_arg_input_floats(ctx, ws, "values", i, &d->values, &d->count));
	if (!d->values) {
		d->values = s->values;
		d->count = s->num_values;
	}
	if (d->count < 1 || d->count > UINT32_MAX)
		return dalic_op_fail(ctx, ws, i, "argument 'values': %lld values, expected 1 to 2^32",
				     (long long)d->count);
	return DALIC_OK;
}

/* The sample's [lo, hi) as float32, checked as DALI does (hi > lo). */
static int uniform_range(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, float r[2])
{
	const float *in;
	int64_t n;
	DALIC_TRY(dalic_rng_arg_input_floats(ctx, ws, "range", i, &in, &n));
	const dalic_value_t *list = dalic_arg(ctx, "range");
	if (!in)
		n = list->n;
	if (n != 1 && n != 2)
		return dalic_op_fail(ctx, ws, i,
				     "Argument \"range\" expected shape {2} but got %lld values, "
				     "which can't be interpreted as the expected shape.",
				     (long long)n);
	for (int k = 0; k < 2; k++) /* a single value is repeated, as DALI broadcasts it */
		r[k] = in ? in[n == 2 ? k : 0] : (float)dalic_value_get_f(list, n == 2 ? k : 0);
	if (!(r[1] > r[0]))
		return dalic_op_fail(ctx, ws, i, "Invalid range [%g, %g).", r[0], r[1]);
	return DALIC_OK;
}

static int uniform_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	dalic_dtype_t dtype = (dalic_dtype_t)dalic_arg_int(ctx, "dtype");
	DALIC_TRY(dalic_rng_check_dtype(ctx, ws, dtype, uniform_types, 10));
	DALIC_TRY(dalic_rng_setup_output(ctx, ws, dtype));
	bool discrete = dalic_arg_given(ctx, "values");
	for (int i = 0; i < ws->batch_size; i++) {
		uniform_discrete_t d;
		float r[2];
		DALIC_TRY(discrete ? uniform_values(ctx, ws, i, &d) : uniform_range(ctx, ws, i, r));
	}
	return DALIC_OK;
}

static double uniform_element_f32(const void *dist, dalic_philox_t *g)
{
	return dalic_rng_uniform_f32(dist, g);
}

static double uniform_element_f64(const void *dist, dalic_philox_t *g)
{
	return dalic_rng_uniform_f64(dist, g);
}

static double uniform_element_pick(const void *dist, dalic_philox_t *g)
{
	const uniform_discrete_t *d = dist;
	return d->values[dalic_rng_pick(g, d->count)];
}

int dalic_random_uniform_cu_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
				   dalic_cu_random_sample_t *s, int *kind)
{
	dalic_dtype_t t = ws->outputs[0]->dtype;
	if (dalic_arg_given(ctx, "values")) {
		uniform_discrete_t d;
		DALIC_TRY(uniform_values(ctx, ws, i, &d));
		s->values = d.values;
		s->num_values = d.count;
		*kind = DALIC_CU_RANDOM_PICK;
		return DALIC_OK;
	}
	float r[2];
	DALIC_TRY(uniform_range(ctx, ws, i, r));
	double lo = dalic_rng_cvt_to(t, r[0]), hi = dalic_rng_cvt_to(t, r[1]);
	if (t == DALIC_INT32 || t == DALIC_UINT32 || t == DALIC_INT64 || t == DALIC_UINT64 ||
	    t == DALIC_FLOAT64) {
		dalic_rng_uniform_f64_init(&s->uniform_f64, lo, hi);
		*kind = DALIC_CU_RANDOM_UNIFORM_F64;
	} else {
		dalic_rng_uniform_f32_init(&s->uniform_f32, (float)lo, (float)hi);
		*kind = DALIC_CU_RANDOM_UNIFORM_F32;
	}
	return DALIC_OK;
}

static int uniform_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	dalic_cu_random_sample_t s;
	int kind;
	DALIC_TRY(dalic_random_uniform_cu_sample(ctx, ws, i, &s, &kind));
	if (kind == DALIC_CU_RANDOM_PICK) {
		uniform_discrete_t d = {s.values, s.num_values};
		dalic_rng_generate(ctx, ws, i, uniform_element_pick, &d);
	} else if (kind == DALIC_CU_RANDOM_UNIFORM_F64) {
		dalic_rng_generate(ctx, ws, i, uniform_element_f64, &s.uniform_f64);
	} else {
		dalic_rng_generate(ctx, ws, i, uniform_element_f32, &s.uniform_f32);
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
    .state_size = sizeof(uniform_state_t),
    .init = uniform_init,
    .setup = uniform_setup,
    .run_sample = uniform_run_sample,
    .fini = uniform_fini,
};

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
