/*
 * decoders.image (DALI's decoders__Image / ImageDecoder): encoded images (1-D uint8, e.g. from
 * readers.file) to HWC uint8 in the requested colour space, EXIF orientation applied.
 * "mixed" runs this same CPU code through the emulated device. JPEG via libturbojpeg
 * (bit-exact with djpeg), PNG via libpng; other formats and damaged files fail with the
 * sample's file named. Headers are read in setup (output shapes); pixels are decoded per
 * sample in parallel, each worker thread with its own decoder.
 */
#include "engine/kernel.h"
#include "kernels/common/img_decoder_op.h"

static void image_decoder_fini(dalic_op_ctx_t *ctx);

static int image_decoder_init_state(dalic_op_ctx_t *ctx)
{
	return dalic_img_decoder_op_init(ctx, ctx->state);
}

/* The engine calls fini only after a successful init: a failing init cleans up itself. */
static int image_decoder_init(dalic_op_ctx_t *ctx)
{
	int rc = image_decoder_init_state(ctx);
	if (rc)
		image_decoder_fini(ctx);
	return rc;
}

static int image_decoder_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	img_decoder_op_t *op = ctx->state;
	int rc = dalic_img_decoder_op_setup(ctx, ws, op);
	for (int i = 0; !rc && i < ws->batch_size; i++)
		rc = dalic_img_decoder_op_set_shape(ctx, ws, op, i);
	return rc;
}

static int image_decoder_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	return dalic_img_decoder_op_run(ctx, ws, ctx->state, i, thread);
}

static void image_decoder_fini(dalic_op_ctx_t *ctx)
{
	dalic_img_decoder_op_fini(ctx->state);
}

static const dalic_arg_schema_t args[] = {
	IMG_DECODER_ARGS,
	IMG_DECODER_CACHE_ARGS,
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(img_decoder_op_t),
	.init = image_decoder_init,
	.setup = image_decoder_setup,
	.run_sample = image_decoder_run_sample,
	.fini = image_decoder_fini,
};

DALIC_OPERATOR(decoders__Image) = {
	.name = "decoders__Image",
	.fn = "decoders.image",
	.aliases = {"ImageDecoder", "experimental__decoders__Image"},
	.module = "nvidia.dali.fn.decoders",
	.doc = "Decodes JPEG and PNG images to HWC uint8 (RGB, BGR, GRAY, YCbCr or ANY_DATA).",
	.min_inputs = 1,
	.max_inputs = 1,
	.num_outputs = 1,
	.devices = DALIC_DEV_CPU | DALIC_DEV_MIXED,
	.args = args,
	.cpu = &kernel,
};
