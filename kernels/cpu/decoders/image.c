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

static void fini(dalic_op_ctx_t *ctx);

static int init_state(dalic_op_ctx_t *ctx)
{
	return img_decoder_op_init(ctx, ctx->state);
}

/* The engine calls fini only after a successful init: a failing init cleans up itself. */
static int init(dalic_op_ctx_t *ctx)
{
	int rc = init_state(ctx);
	if (rc)
		fini(ctx);
	return rc;
}

static int setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	img_decoder_op_t *op = ctx->state;
	int rc = img_decoder_op_setup(ctx, ws, op);
	for (int i = 0; !rc && i < ws->batch_size; i++)
		rc = img_decoder_op_set_shape(ctx, ws, op, i);
	return rc;
}

static int run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	return img_decoder_op_run(ctx, ws, ctx->state, i, thread);
}

static void fini(dalic_op_ctx_t *ctx)
{
	img_decoder_op_fini(ctx->state);
}

static const dalic_arg_schema_t args[] = {
	IMG_DECODER_ARGS,
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(img_decoder_op_t),
	.init = init,
	.setup = setup,
	.run_sample = run_sample,
	.fini = fini,
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
