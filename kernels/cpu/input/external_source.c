/*
 * ExternalSource: data fed from outside the pipeline (dalic_pipeline_feed_input or a source
 * callback). The pipeline hands the instance its input queue through ctx->engine; each
 * iteration takes the oldest batch. Declared dtype / ndim / layout are checked against what
 * was fed, with DALI's argument names.
 */
#include "engine/dtype.h"
#include "engine/feed.h"
#include "engine/kernel.h"

#include <string.h>

static int external_source_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	dalic_feed_queue_t *q = ctx->engine;
	const dalic_batch_t *in;
	int rc = dalic_feed_queue_front(q, ws->iteration, false, &in);
	if (rc)
		return rc;
	int64_t dtype = dalic_arg_int(ctx, "dtype");
	if (dalic_arg_given(ctx, "dtype") && dtype != in->dtype)
		return dalic_op_fail(ctx, ws, -1, "fed data of type %s, declared dtype is %s",
				     dalic_dtype_name(in->dtype), dalic_dtype_name((int)dtype));
	if (dalic_arg_given(ctx, "ndim") && dalic_arg_int(ctx, "ndim") != in->ndim)
		return dalic_op_fail(ctx, ws, -1, "fed data has %d dims, declared ndim is %lld",
				     in->ndim, (long long)dalic_arg_int(ctx, "ndim"));
	const char *layout = dalic_arg_string(ctx, "layout");
	if (layout && *in->layout && strcmp(layout, in->layout))
		return dalic_op_fail(ctx, ws, -1, "fed data has layout '%s', declared '%s'",
				     in->layout, layout);
	dalic_batch_t *out = ws->outputs[0];
	rc = dalic_batch_copy_meta(out, in);
	if (!rc && !*in->layout && layout)
		dalic_batch_set_layout(out, layout);
	return rc;
}

static int external_source_run(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	dalic_feed_queue_t *q = ctx->engine;
	const dalic_batch_t *in;
	int rc = dalic_feed_queue_front(q, ws->iteration, false, &in);
	if (!rc)
		rc = dalic_batch_copy(ws->outputs[0], in);
	if (!rc)
		dalic_feed_queue_pop(q);
	return rc;
}

static const dalic_arg_schema_t args[] = {
	{"blocking", DALIC_ARG_BOOL, "True", "Wait for data instead of failing when none is fed."},
	{"no_copy", DALIC_ARG_BOOL, "False", "Use the caller's buffers without copying."},
	{"dtype", DALIC_ARG_DTYPE, "None", "Declared type of the data."},
	{"ndim", DALIC_ARG_INT, "None", "Declared number of dimensions."},
	{"layout", DALIC_ARG_LAYOUT, "None", "Declared layout."},
	{"repeat_last", DALIC_ARG_BOOL, "False", "Re-use the last batch when nothing new was fed."},
	{0},
};

static const dalic_kernel_t kernel = {.setup = external_source_setup, .run = external_source_run};

DALIC_OPERATOR(ExternalSource) = {
	.name = "ExternalSource",
	.fn = "external_source",
	.aliases = {"_ExternalSource"},
	.doc = "Data fed from outside the pipeline, one batch per iteration.",
	.min_inputs = 0,
	.max_inputs = 0,
	.num_outputs = 1,
	.devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
	.is_input = true,
	.args = args,
	.cpu = &kernel,
};
