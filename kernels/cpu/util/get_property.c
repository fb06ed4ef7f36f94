/*
 * get_property (DALI's GetProperty, behind DataNode.property() and .source_info()): a
 * property of each input sample as a 1-D uint8 tensor of its characters. `key` is
 * "source_info" (the file the sample came from, as the reader names it; empty when it came
 * from nowhere) or "layout" (the batch's layout string). No data is read.
 */
#include "engine/kernel.h"

#include <string.h>

typedef enum { GET_PROPERTY_SOURCE_INFO, GET_PROPERTY_LAYOUT } get_property_key_t;

typedef struct get_property_state {
	get_property_key_t key;
} get_property_state_t;

static int get_property_init(dalic_op_ctx_t *ctx)
{
	get_property_state_t *st = ctx->state;
	const char *key = dalic_arg_string(ctx, "key");
	if (key && !strcmp(key, "source_info"))
		st->key = GET_PROPERTY_SOURCE_INFO;
	else if (key && !strcmp(key, "layout"))
		st->key = GET_PROPERTY_LAYOUT;
	else
		return dalic_op_fail(ctx, NULL, -1, "Unsupported property key: %s", key ? key : "");
	return DALIC_OK;
}

/* The property of sample i (never NULL). */
static const char *get_property_text(const get_property_state_t *st, const dalic_batch_t *in, int i)
{
	if (st->key == GET_PROPERTY_LAYOUT)
		return in->layout;
	return in->sources[i] ? in->sources[i] : "";
}

static int get_property_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	int rc = dalic_batch_set_meta(out, in->num_samples, DALIC_UINT8, 1);
	if (rc)
		return rc;
	dalic_batch_set_layout(out, "");
	for (int i = 0; i < in->num_samples; i++) {
		int64_t n = (int64_t)strlen(get_property_text(ctx->state, in, i));
		dalic_batch_set_shape(out, i, &n);
		out->sources[i] = in->sources[i];
	}
	return DALIC_OK;
}

static int get_property_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const char *text = get_property_text(ctx->state, ws->inputs[0], i);
	size_t n = strlen(text);
	if (n)
		memcpy(ws->outputs[0]->ptrs[i], text, n);
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"key", DALIC_ARG_STRING, NULL, "The property: 'source_info' or 'layout'."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(get_property_state_t),
    .init = get_property_init,
    .setup = get_property_setup,
    .run_sample = get_property_run_sample,
};

DALIC_OPERATOR(GetProperty) = {
    .name = "GetProperty",
    .fn = "get_property",
    .doc = "Returns a property of each input sample ('source_info' or 'layout') as uint8 text.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
