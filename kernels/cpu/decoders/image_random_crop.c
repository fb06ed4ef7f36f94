/*
 * decoders.image_random_crop (DALI's decoders__ImageRandomCrop / ImageDecoderRandomCrop):
 * decodes a random window of each image, chosen like DALI's RandomCropGenerator (random area
 * and aspect ratio, see img_crop_window.h) on the oriented image. Only the window is decoded:
 * libjpeg-turbo skips the IDCT and colour conversion left and right of it and stops after its
 * last row, which is what makes a ResNet-style pipeline faster than decoding whole images,
 * and the pixels are those of decode-then-crop.
 * Windows are drawn in setup, from DALI's per-sample generators (img_crop_window.h): the same
 * seed gives DALI's windows.
 */
#include "engine/kernel.h"
#include "kernels/common/img_crop_window.h"
#include "kernels/common/img_decoder_op.h"

typedef struct random_crop_decoder {
	img_decoder_op_t dec;
	img_crop_params_t crop;
} random_crop_decoder_t;

static void image_random_crop_fini(dalic_op_ctx_t *ctx);

static int image_random_crop_init_state(dalic_op_ctx_t *ctx)
{
	random_crop_decoder_t *s = ctx->state;
	int rc = dalic_img_crop_params_parse(ctx, &s->crop);
	return rc ? rc : dalic_img_decoder_op_init(ctx, &s->dec);
}

/* The engine calls fini only after a successful init: a failing init cleans up itself. */
static int image_random_crop_init(dalic_op_ctx_t *ctx)
{
	int rc = image_random_crop_init_state(ctx);
	if (rc)
		image_random_crop_fini(ctx);
	return rc;
}

static int image_random_crop_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	random_crop_decoder_t *s = ctx->state;
	int rc = dalic_img_decoder_op_setup(ctx, ws, &s->dec);
	for (int i = 0; !rc && i < ws->batch_size; i++) {
		const img_info_t *info = &s->dec.info[i];
		rc = dalic_img_random_crop_window(ctx, ws, i, img_oriented_h(info),
						  img_oriented_w(info), &s->crop, &s->dec.window[i]);
		if (!rc)
			rc = dalic_img_decoder_op_set_shape(ctx, ws, &s->dec, i);
	}
	return rc;
}

static int image_random_crop_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                        int thread)
{
	random_crop_decoder_t *s = ctx->state;
	return dalic_img_decoder_op_run(ctx, ws, &s->dec, i, thread);
}

static void image_random_crop_fini(dalic_op_ctx_t *ctx)
{
	random_crop_decoder_t *s = ctx->state;
	dalic_img_decoder_op_fini(&s->dec);
}

static const dalic_arg_schema_t args[] = {
	IMG_DECODER_ARGS,
	IMG_CROP_ARGS,
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(random_crop_decoder_t),
	.init = image_random_crop_init,
	.setup = image_random_crop_setup,
	.run_sample = image_random_crop_run_sample,
	.fini = image_random_crop_fini,
};

DALIC_OPERATOR(decoders__ImageRandomCrop) = {
	.name = "decoders__ImageRandomCrop",
	.fn = "decoders.image_random_crop",
	.aliases = {"ImageDecoderRandomCrop", "experimental__decoders__ImageRandomCrop"},
	.module = "nvidia.dali.fn.decoders",
	.doc = "Decodes a random window (random area and aspect ratio) of each image.",
	.min_inputs = 1,
	.max_inputs = 1,
	.num_outputs = 1,
	.devices = DALIC_DEV_CPU | DALIC_DEV_MIXED,
	.random = true,
	.args = args,
	.cpu = &kernel,
};
