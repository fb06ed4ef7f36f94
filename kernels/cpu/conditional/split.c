/*
 * _conditional.split: sends the samples whose predicate is true to output 0 and the others
 * to output 1, each in their original order (docs/dali-behaviour.md §5). Zero-copy: the outputs borrow
 * the input's samples in setup, so the executor allocates nothing; both outputs keep the
 * input's type, dimensionality and layout even when empty. The predicate is an argument
 * input with one scalar per sample; inserted by an `if` (`_if_stmt`), it is held to DALI's
 * condition rules.
 */
#include "engine/dtype.h"
#include "engine/kernel.h"
#include "kernels/common/cond_common.h"

static int split_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	const dalic_batch_t *pred = dalic_arg_input(ws, "predicate");
	if (!pred)
		return dalic_op_fail(ctx, ws, -1,
		                     "The 'predicate' argument is required to be "
		                     "present as argument input.");
	if (in->num_samples != pred->num_samples)
		return dalic_op_fail(
		    ctx, ws, -1,
		    "Split description must cover whole input, got %d input samples "
		    "and %d elements denoting the split.",
		    in->num_samples, pred->num_samples);
	int rc;
	if (dalic_arg_bool(ctx, "_if_stmt")) {
		if ((rc = dalic_cond_check_input(ctx, ws, pred, "if", "if-stmt", false)))
			return rc;
	} else if (pred->ndim != 0) {
		return dalic_op_fail(ctx, ws, -1, "Only scalar indexing is supported.");
	}
	int count[2] = {0, 0};
	for (int i = 0; i < pred->num_samples; i++) {
		bool t;
		if ((rc = dalic_cond_predicate(ctx, ws, pred, i, &t)))
			return rc;
		count[t ? 0 : 1]++;
	}
	for (int g = 0; g < 2; g++) {
		dalic_batch_t *out = ws->outputs[g];
		if ((rc = dalic_batch_set_meta(out, count[g], in->dtype, in->ndim)))
			return rc;
		dalic_batch_set_layout(out, in->layout);
	}
	int next[2] = {0, 0};
	for (int i = 0; i < in->num_samples; i++) {
		bool t;
		dalic_cond_predicate(ctx, ws, pred, i, &t);
		int g = t ? 0 : 1;
		dalic_batch_share_sample(ws->outputs[g], next[g]++, in, i);
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"predicate", DALIC_ARG_BOOL, NULL,
     "Boolean categorization of the input batch. Must be an argument input of scalar values. "
     "Each boolean denotes if the corresponding input sample goes into the true or false "
     "branch.",
     .tensor = true},
    {"_if_stmt", DALIC_ARG_BOOL, "False",
     "Set when inserted by an `if` statement: the predicate follows the rules of conditions."},
    {0},
};

static const dalic_kernel_t kernel = {.setup = split_setup};

DALIC_OPERATOR(_conditional__Split) = {
    .name = "_conditional__Split",
    .fn = "_conditional.split",
    .module = "nvidia.dali.fn._conditional",
    .doc = "Split batch based on a predicate.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 2,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .passthrough = true,
    .cpu = &kernel,
};
