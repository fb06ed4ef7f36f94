/*
 * subscript_dim_check: a pass-through that checks every sample has at least `num_subscripts`
 * dims. Indexing a DataNode with only full-range subscripts (`x[:, :]`) lowers to it, so a
 * subscript list longer than the data's rank fails as it would with real slicing. The output
 * borrows the input samples; nothing is copied. Error text follows DALI's
 * dali/operators/generic/slice/subscript.cc.
 */
#include "engine/error.h"
#include "engine/kernel.h"

static int dim_check_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int64_t nsub = dalic_arg_int(ctx, "num_subscripts");
	if (nsub > in->ndim)
		return dalic_op_fail(ctx, ws, -1, "Too many indices (%lld) for a %dD tensor.",
		                     (long long)nsub, in->ndim);
	int rc = dalic_batch_set_meta(out, in->num_samples, in->dtype, in->ndim);
	if (rc)
		return rc;
	for (int i = 0; i < in->num_samples; i++)
		dalic_batch_share_sample(out, i, in, i);
	dalic_batch_set_layout(out, in->layout);
	return DALIC_OK;
}

/* The output already points at the input's samples (setup); nothing is copied. */
static int dim_check_run(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"num_subscripts", DALIC_ARG_INT, NULL,
     "Number of subscripts applied; the input must have at least that many dims."},
    {0},
};

static const dalic_kernel_t kernel = {.setup = dim_check_setup, .run = dim_check_run};

DALIC_OPERATOR(SubscriptDimCheck) = {
    .name = "_SubscriptDimCheck", /* DALI 2.4's schema and fn names */
    .fn = "_subscript_dim_check",
    .aliases = {"SubscriptDimCheck", "subscript_dim_check"},
    .doc = "Checks that the input has at least `num_subscripts` dims and passes it through.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .passthrough = true,
    .cpu = &kernel,
};
