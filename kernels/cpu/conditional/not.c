/*
 * _conditional.not_: Python's `not` on a DataNode in a conditional pipeline, evaluated
 * eagerly: each 0-d bool sample becomes `!x`. DALI 2.4 declares its output with the input's
 * type and writes bools, so its executor refuses any other input type after the operator
 * ran; dalic refuses the same inputs, in setup, with DALI's words. The GPU variant only
 * reports DALI's error (conditions live on the CPU).
 */
#include "engine/dtype.h"
#include "engine/kernel.h"
#include "kernels/common/cond_common.h"

static int not_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	if (ctx->device != DALIC_DEV_CPU)
		return dalic_cond_gpu_error(ctx, ws, "not", "", false);
	const dalic_batch_t *in = ws->inputs[0];
	int rc = dalic_cond_check_input(ctx, ws, in, "not", "", false);
	if (rc)
		return rc;
	if (!dalic_dtype_is_numeric(in->dtype))
		return dalic_op_fail(ctx, ws, -1, "Can't evaluate %s as boolean value.",
		                     dalic_cond_type_name(in->dtype));
	if (in->dtype != DALIC_BOOL)
		return dalic_op_fail(ctx, ws, -1,
		                     "Unexpected data type of output 0. Got bool, expected %s "
		                     "(`not` takes bool predicates only, as in DALI 2.4: compare "
		                     "or cast the value to bool first)",
		                     dalic_cond_type_name(in->dtype));
	return dalic_batch_set_meta(ws->outputs[0], in->num_samples, DALIC_BOOL, 0);
}

static int not_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	bool t;
	int rc = dalic_cond_predicate(ctx, ws, ws->inputs[0], i, &t);
	if (!rc)
		*(bool *)ws->outputs[0]->ptrs[i] = !t;
	return rc;
}

static const dalic_kernel_t kernel = {.setup = not_setup, .run_sample = not_run_sample};

DALIC_OPERATOR(_conditional__Not_) = {
    .name = "_conditional__Not_",
    .fn = "_conditional.not_",
    .module = "nvidia.dali.fn._conditional",
    .doc = "Compute the logical operation ``not``.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .cpu = &kernel,
};
