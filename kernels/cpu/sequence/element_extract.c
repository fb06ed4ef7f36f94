/*
 * element_extract (DALI's ElementExtract): picks frames out of sequences. Output k holds frame
 * element_map[k] of every input sample, the slice of the outermost dimension, with the
 * input's layout minus its leading 'F'. The input layout must start with 'F' (an empty one is
 * taken as a sequence too, as DALI does) and have at least one dimension besides frames.
 * The outputs borrow their frames from the input's samples: nothing is copied.
 */
#include "engine/graphdef.h"
#include "engine/kernel.h"

#include <string.h>

static int element_extract_outputs_for(const dalic_opdef_t *def)
{
	const dalic_value_t *map = dalic_graphdef_op_arg(def, "element_map");
	return map && map->kind != DALIC_V_NONE && map->n > 1 ? map->n : 1;
}

static int element_extract_init(dalic_op_ctx_t *ctx)
{
	const dalic_value_t *map = dalic_arg(ctx, "element_map");
	if (map->n < 1)
		return dalic_op_fail(ctx, NULL, -1, "argument 'element_map' must not be empty");
	for (int k = 0; k < map->n; k++)
		if (dalic_value_get_i(map, k) < 0)
			return dalic_op_fail(ctx, NULL, -1,
			                     "Negative indices in `element_map` are not allowed, "
			                     "found: %lld.",
			                     (long long)dalic_value_get_i(map, k));
	return DALIC_OK;
}

static int element_extract_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	const dalic_value_t *map = dalic_arg(ctx, "element_map");
	if (in->layout[0] && in->layout[0] != 'F')
		return dalic_op_fail(ctx, ws, -1,
		                     "Input layout must describe a sequence - it must start with "
		                     "'F', got '%s' instead.",
		                     in->layout);
	if (in->ndim < 2)
		return dalic_op_fail(ctx, ws, -1,
		                     "Input must have at least two dimensions - outermost for "
		                     "sequence and at least one for data elements.");
	for (int k = 0; k < map->n && k < ws->num_outputs; k++) {
		dalic_batch_t *out = ws->outputs[k];
		int64_t frame = dalic_value_get_i(map, k);
		int rc = dalic_batch_set_meta(out, in->num_samples, in->dtype, in->ndim - 1);
		if (rc)
			return rc;
		dalic_batch_set_layout(out, in->layout[0] ? in->layout + 1 : "");
		for (int i = 0; i < in->num_samples; i++) {
			const int64_t *shape = dalic_batch_shape(in, i);
			if (frame >= shape[0])
				return dalic_op_fail(
				    ctx, ws, i,
				    "Index `%lld` from `element_map` is out of bounds "
				    "for sample with sequence length equal `%lld`.",
				    (long long)frame, (long long)shape[0]);
			/* the input's bytes are representable, so this offset is too */
			size_t frame_bytes = dalic_batch_sample_bytes(in, i) / (size_t)shape[0];
			dalic_batch_share_sample(out, i, in, i);
			out->ptrs[i] = (char *)in->ptrs[i] + (size_t)frame * frame_bytes;
			dalic_batch_set_shape(out, i, shape + 1);
		}
	}
	return DALIC_OK;
}

/* The outputs already point into the input's samples (setup); nothing is copied. */
static int element_extract_run(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"element_map", DALIC_ARG_INT_LIST, NULL, "Indices of the frames to extract, one per output."},
    {0},
};

static const dalic_kernel_t kernel = {
    .init = element_extract_init,
    .setup = element_extract_setup,
    .run = element_extract_run,
};

DALIC_OPERATOR(ElementExtract) = {
    .name = "ElementExtract",
    .fn = "element_extract",
    .doc = "Extracts frames of sequences: one output per index of `element_map`.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .outputs_for = element_extract_outputs_for,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .passthrough = true,
    .cpu = &kernel,
};
