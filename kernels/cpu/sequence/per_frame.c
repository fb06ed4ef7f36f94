/*
 * per_frame (DALI's PerFrame): marks the input as a sequence by giving it a layout that starts
 * with 'F'; the data and shapes pass through untouched (the output borrows the input's
 * samples). A layout that already starts with 'F' is kept; another one is an error unless
 * `replace` is set, which overwrites its first letter; an empty layout becomes "F" followed by
 * '*' for the other dims, as DALI writes it.
 */
#include "engine/kernel.h"

#include <string.h>

static int per_frame_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	if (in->ndim == 0)
		return dalic_op_fail(ctx, ws, -1,
		                     "Cannot mark zero-dimensional input as a sequence.");
	char layout[DALIC_MAX_NDIM + 1];
	if (!in->layout[0]) {
		layout[0] = 'F';
		memset(layout + 1, '*', (size_t)in->ndim - 1);
		layout[in->ndim] = 0;
	} else {
		if (in->layout[0] != 'F' && !dalic_arg_bool(ctx, "replace"))
			return dalic_op_fail(
			    ctx, ws, -1,
			    "Per-frame argument input must be a sequence. The input "
			    "layout should start with 'F', got: %s",
			    in->layout);
		memcpy(layout, in->layout, sizeof layout);
		layout[0] = 'F';
	}
	int rc = dalic_batch_set_meta(out, in->num_samples, in->dtype, in->ndim);
	if (rc)
		return rc;
	dalic_batch_set_layout(out, layout);
	for (int i = 0; i < in->num_samples; i++)
		dalic_batch_share_sample(out, i, in, i); /* shape and source info too */
	return DALIC_OK;
}

/* The output already points at the input's samples (setup); nothing is copied. */
static int per_frame_run(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"replace", DALIC_ARG_BOOL, "False",
     "Replace the first letter of a layout that does not start with 'F' (else an error)."},
    {0},
};

static const dalic_kernel_t kernel = {
    .setup = per_frame_setup,
    .run = per_frame_run,
};

DALIC_OPERATOR(PerFrame) = {
    .name = "PerFrame",
    .fn = "per_frame",
    .doc = "Marks the input as a sequence (layout starting with 'F'); the data is untouched.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .passthrough = true,
    .cpu = &kernel,
};
