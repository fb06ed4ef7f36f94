/*
 * peek_image_shape (DALI's PeekImageShape): the shape [H, W, C] an encoded image would have
 * once decoded, read from its header alone: H and W after the EXIF orientation (unless
 * adjust_orientation is off), C for image_type as decoders.image gives it (GRAY 1, ANY_DATA
 * the file's channels, else 3). The input is the encoded file (1-D uint8), normally
 * readers.file's first output; dtype is one of DALI's six shape types.
 */
#include "engine/dtype.h"
#include "engine/kernel.h"
#include "kernels/common/img_codec.h"
#include "kernels/common/shape_out.h"

#include <stdlib.h>

typedef struct peek_image_shape_state {
	img_decoder_t *probe;
	int64_t (*shape)[3]; /* per sample */
} peek_image_shape_state_t;

static void peek_image_shape_fini(dalic_op_ctx_t *ctx);

static int peek_image_shape_init(dalic_op_ctx_t *ctx)
{
	peek_image_shape_state_t *st = ctx->state;
	int rc = dalic_shape_out_check(ctx, (dalic_dtype_t)dalic_arg_int(ctx, "dtype"));
	if (rc)
		return rc;
	int64_t t = dalic_arg_int(ctx, "image_type");
	if (t < DALIC_RGB || t > DALIC_ANY_DATA)
		return dalic_op_fail(ctx, NULL, -1, "unknown image_type %lld", (long long)t);
	st->probe = dalic_img_decoder_new();
	st->shape = calloc((size_t)ctx->max_batch_size, sizeof *st->shape);
	if (st->probe && st->shape)
		return DALIC_OK;
	peek_image_shape_fini(ctx);
	return dalic_op_fail(ctx, NULL, -1, "out of memory");
}

static void peek_image_shape_fini(dalic_op_ctx_t *ctx)
{
	peek_image_shape_state_t *st = ctx->state;
	dalic_img_decoder_free(st->probe);
	free(st->shape);
}

/* Reads the headers (one thread: the probe holds codec state) and sizes the output. */
static int peek_image_shape_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	peek_image_shape_state_t *st = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	if (in->dtype != DALIC_UINT8 || in->ndim != 1)
		return dalic_op_fail(
		    ctx, ws, -1,
		    "The input must be a raw, undecoded file stored as a flat uint8 "
		    "array.");
	int rc = dalic_batch_set_meta(out, ws->batch_size,
	                              (dalic_dtype_t)dalic_arg_int(ctx, "dtype"), 1);
	if (rc)
		return rc;
	dalic_batch_set_layout(out, "");
	int64_t three = 3;
	dalic_batch_set_uniform_shape(out, &three);
	bool orient = dalic_arg_bool(ctx, "adjust_orientation");
	int type = (int)dalic_arg_int(ctx, "image_type");
	for (int i = 0; i < ws->batch_size; i++) {
		img_info_t info;
		char err[512];
		out->sources[i] = in->sources[i];
		if (dalic_img_probe(st->probe, in->ptrs[i], (size_t)dalic_batch_sample_elems(in, i),
		                    orient, &info, err, sizeof err))
			return dalic_op_fail(ctx, ws, i, "cannot read the image header: %s", err);
		st->shape[i][0] = img_oriented_h(&info);
		st->shape[i][1] = img_oriented_w(&info);
		st->shape[i][2] = dalic_img_output_channels(&info, type);
	}
	return DALIC_OK;
}

static int peek_image_shape_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	const peek_image_shape_state_t *st = ctx->state;
	dalic_batch_t *out = ws->outputs[0];
	for (int d = 0; d < 3; d++)
		dalic_dtype_store_i64_sat(out->dtype, out->ptrs[i], d, st->shape[i][d]);
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"dtype", DALIC_ARG_DTYPE, "INT64", "Data type of the extents."},
    {"image_type", DALIC_ARG_IMAGE_TYPE, "RGB",
     "The colour space the channel count is for (as decoders.image's output_type)."},
    {"adjust_orientation", DALIC_ARG_BOOL, "True", "Apply the EXIF orientation."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(peek_image_shape_state_t),
    .init = peek_image_shape_init,
    .setup = peek_image_shape_setup,
    .run_sample = peek_image_shape_run_sample,
    .fini = peek_image_shape_fini,
};

DALIC_OPERATOR(PeekImageShape) = {
    .name = "PeekImageShape",
    .fn = "peek_image_shape",
    .aliases = {"experimental__PeekImageShape", "experimental.peek_image_shape"},
    .doc = "Returns the shape [H, W, C] each encoded image would have once decoded, from its "
           "header.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU,
    .args = args,
    .cpu = &kernel,
};
