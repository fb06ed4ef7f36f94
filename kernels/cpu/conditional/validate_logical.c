/*
 * _conditional.validate_logical: checks an operand of `and` / `or` in a conditional pipeline
 * — scalar (0-d) bool samples on the CPU — and passes it through without copying. It exists
 * so such pipelines fail with a message about the logical expression rather than about the
 * split that implements it. The GPU variant only reports DALI's error.
 */
#include "engine/dtype.h"
#include "engine/kernel.h"
#include "kernels/common/cond_common.h"

static int validate_logical_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const char *name = dalic_arg_string(ctx, "expression_name");
	const char *side = dalic_arg_string(ctx, "expression_side");
	if (!name || !side)
		return dalic_op_fail(ctx, ws, -1,
		                     "expression_name and expression_side are required");
	if (ctx->device != DALIC_DEV_CPU)
		return dalic_cond_gpu_error(ctx, ws, name, side, true);
	const dalic_batch_t *in = ws->inputs[0];
	int rc = dalic_cond_check_input(ctx, ws, in, name, side, true);
	if (rc)
		return rc;
	dalic_batch_t *out = ws->outputs[0];
	if ((rc = dalic_batch_set_meta(out, in->num_samples, DALIC_BOOL, 0)))
		return rc;
	dalic_batch_set_layout(out, in->layout);
	for (int i = 0; i < in->num_samples; i++)
		dalic_batch_share_sample(out, i, in, i);
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"expression_name", DALIC_ARG_STRING, NULL,
     "Expression that we are using the validation for: ``and`` or ``or``"},
    {"expression_side", DALIC_ARG_STRING, NULL,
     "Which side of the logical expression we are validating: left or right."},
    {0},
};

static const dalic_kernel_t kernel = {.setup = validate_logical_setup};

DALIC_OPERATOR(_conditional__ValidateLogical) = {
    .name = "_conditional__ValidateLogical",
    .fn = "_conditional.validate_logical",
    .module = "nvidia.dali.fn._conditional",
    .doc = "Validate the inputs to logical operation ``and`` or ``or``.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .passthrough = true,
    .cpu = &kernel,
};
