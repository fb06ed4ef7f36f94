/*
 * to_decibels (DALI's ToDecibels): multiplier * log10(max(min_ratio, x / reference)) per
 * element of a float tensor, with min_ratio = 10^(cutoff_db / multiplier) and the reference
 * the sample's maximum (1 when that is 0) unless `reference` is given. Computed as DALI does,
 * in float through log2: (multiplier * log10(2)) * log2(ratio).
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"

#include <math.h>

typedef struct to_db_op {
	float multiplier, reference, min_ratio;
	bool reference_max;
} to_db_op_t;

static int to_db_init(dalic_op_ctx_t *ctx)
{
	to_db_op_t *d = ctx->state;
	d->multiplier = (float)dalic_arg_float(ctx, "multiplier");
	d->reference_max = !dalic_arg_given(ctx, "reference");
	d->reference = d->reference_max ? 1.0f : (float)dalic_arg_float(ctx, "reference");
	if (d->reference == 0)
		return dalic_op_fail(ctx, NULL, -1, "`reference` argument can't be zero");
	d->min_ratio = powf(10.0f, (float)dalic_arg_float(ctx, "cutoff_db") / d->multiplier);
	if (d->min_ratio == 0)
		d->min_ratio = nextafterf(0.0f, 1.0f);
	return DALIC_OK;
}

static int to_db_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	if (in->dtype != DALIC_FLOAT)
		return dalic_op_fail(ctx, ws, -1, "Unsupported data type: %s",
		                     dalic_dtype_cname(in->dtype));
	dalic_batch_t *out = ws->outputs[0];
	DALIC_TRY(dalic_batch_set_meta(out, ws->batch_size, DALIC_FLOAT, in->ndim));
	dalic_batch_set_layout(out, in->layout);
	for (int i = 0; i < ws->batch_size; i++) {
		dalic_batch_set_shape(out, i, dalic_batch_shape(in, i));
		out->sources[i] = in->sources[i];
	}
	return DALIC_OK;
}

static int to_db_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const to_db_op_t *d = ctx->state;
	const float *x = ws->inputs[0]->ptrs[i];
	float *y = ws->outputs[0]->ptrs[i];
	int64_t n = dalic_batch_sample_elems(ws->inputs[0], i);
	float ref = d->reference;
	if (d->reference_max) {
		ref = 0;
		for (int64_t k = 0; k < n; k++)
			ref = x[k] > ref ? x[k] : ref;
		ref = ref == 0 ? 1 : ref;
	}
	const float mul_log2 = d->multiplier * 0.3010299956639812f, inv = ref == 1 ? 1 : 1 / ref;
	const float lo = d->min_ratio;
	for (int64_t k = 0; k < n; k++) {
		float r = x[k] * inv;
		y[k] = mul_log2 * log2f(r > lo ? r : lo);
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
	{"multiplier", DALIC_ARG_FLOAT, "10.0", "Factor of the logarithm (10 for power, 20 for amplitude)."},
	{"reference", DALIC_ARG_FLOAT, "0.0", "Reference magnitude; the sample's maximum if not given."},
	{"cutoff_db", DALIC_ARG_FLOAT, "-200.0", "Minimum ratio in dB; smaller values saturate."},
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(to_db_op_t),
	.init = to_db_init,
	.setup = to_db_setup,
	.run_sample = to_db_run_sample,
};

DALIC_OPERATOR(ToDecibels) = {
	.name = "ToDecibels",
	.fn = "to_decibels",
	.doc = "Converts a magnitude (real, positive) to the decibel scale.",
	.min_inputs = 1,
	.max_inputs = 1,
	.num_outputs = 1,
	.devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
	.args = args,
	.cpu = &kernel,
};
