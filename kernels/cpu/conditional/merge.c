/*
 * _conditional.merge: the inverse of split (docs/dali-behaviour.md §5). Output sample i comes from input 0
 * when predicate i is true, else from input 1, consuming each input's samples in order, so
 * the original sample order comes back. Zero-copy: samples are borrowed in setup. Non-empty
 * inputs must agree on type, dimensionality and layout (DALI's "Divergent data" errors).
 */
#include "engine/dtype.h"
#include "engine/kernel.h"
#include "kernels/common/cond_common.h"

#include <string.h>

#define DIVERGENT                                                                                  \
	"Divergent data found in different branches of conditional operation. All paths in "       \
	"conditional operation are merged into one batch which must have consistent type, "        \
	"number of dimensions, layout and other metadata. "

static int merge_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in[2] = {ws->inputs[0], ws->inputs[1]};
	const dalic_batch_t *pred = dalic_arg_input(ws, "predicate");
	if (!pred)
		return dalic_op_fail(ctx, ws, -1,
		                     "The 'predicate' argument is required to be "
		                     "present as argument input.");
	const dalic_batch_t *base = in[0]->num_samples > 0 ? in[0] : in[1];
	if (in[0]->num_samples > 0 && in[1]->num_samples > 0) {
		if (in[0]->dtype != in[1]->dtype)
			return dalic_op_fail(
			    ctx, ws, -1, DIVERGENT "Found distinct types: %s and %s.",
			    dalic_cond_type_name(in[0]->dtype), dalic_cond_type_name(in[1]->dtype));
		if (in[0]->ndim != in[1]->ndim)
			return dalic_op_fail(
			    ctx, ws, -1, DIVERGENT "Found distinct sample dimensions: %d and %d.",
			    in[0]->ndim, in[1]->ndim);
		if (strcmp(in[0]->layout, in[1]->layout))
			return dalic_op_fail(ctx, ws, -1,
			                     DIVERGENT "Found distinct layouts: \"%s\" and \"%s\".",
			                     in[0]->layout, in[1]->layout);
	}
	int total = in[0]->num_samples + in[1]->num_samples;
	if (total != pred->num_samples)
		return dalic_op_fail(
		    ctx, ws, -1,
		    "Merge description must cover whole input, got %d input samples "
		    "and %d elements denoting the merge.",
		    total, pred->num_samples);
	if (pred->ndim != 0)
		return dalic_op_fail(ctx, ws, -1, "Only scalar indexing is supported.");
	dalic_batch_t *out = ws->outputs[0];
	int rc = dalic_batch_set_meta(out, total, base->dtype, base->ndim);
	if (rc)
		return rc;
	dalic_batch_set_layout(out, base->layout);
	int next[2] = {0, 0};
	for (int i = 0; i < total; i++) {
		bool t;
		if ((rc = dalic_cond_predicate(ctx, ws, pred, i, &t)))
			return rc;
		int g = t ? 0 : 1;
		if (next[g] >= in[g]->num_samples)
			return dalic_op_fail(
			    ctx, ws, i,
			    "the predicate asks for more samples from the %s branch "
			    "than it has (%d)",
			    g ? "false" : "true", in[g]->num_samples);
		dalic_batch_share_sample(out, i, in[g], next[g]++);
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"predicate", DALIC_ARG_BOOL, NULL,
     "Boolean categorization of the output batch. Must be an argument input of scalar "
     "values. Each boolean denotes if the corresponding output sample comes from the true or "
     "false branch.",
     .tensor = true},
    {0},
};

static const dalic_kernel_t kernel = {.setup = merge_setup};

DALIC_OPERATOR(_conditional__Merge) = {
    .name = "_conditional__Merge",
    .fn = "_conditional.merge",
    .module = "nvidia.dali.fn._conditional",
    .doc = "Merge batch based on a predicate.",
    .min_inputs = 2,
    .max_inputs = 2,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .passthrough = true,
    .cpu = &kernel,
};
