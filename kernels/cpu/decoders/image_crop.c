/*
 * decoders.image_crop (DALI's decoders__ImageCrop / ImageDecoderCrop): decodes a fixed-size
 * window of each image, placed by crop_pos_x / crop_pos_y, as crop places it (DALI's CropAttr,
 * kernels/common/img_window.c) on the oriented image. Only the window is decoded (ROI
 * decoding, as decoders.image_random_crop does); a window reaching outside the image is an
 * error, as in DALI.
 */
#include "engine/kernel.h"
#include "kernels/common/img_decoder_op.h"
#include "kernels/common/img_window.h"

#include <string.h>

typedef struct image_crop_decoder {
	img_decoder_op_t dec;
} image_crop_decoder_t;

static int image_crop_init(dalic_op_ctx_t *ctx)
{
	image_crop_decoder_t *s = ctx->state;
	const char *r = dalic_arg_string(ctx, "rounding");
	if (!r || (strcmp(r, "round") && strcmp(r, "truncate")))
		return dalic_op_fail(ctx, NULL, -1,
		                     "Unsupported rounding '%s'; use 'round' or "
		                     "'truncate'",
		                     r ? r : "None");
	int rc = dalic_img_decoder_op_init(ctx, &s->dec);
	if (rc) /* the engine calls fini only after a successful init */
		dalic_img_decoder_op_fini(&s->dec);
	return rc;
}

static int image_crop_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	image_crop_decoder_t *s = ctx->state;
	int rc = dalic_img_decoder_op_setup(ctx, ws, &s->dec);
	for (int i = 0; !rc && i < ws->batch_size; i++) {
		const img_info_t *info = &s->dec.info[i];
		int64_t shape[2] = {img_oriented_h(info), img_oriented_w(info)};
		img_window_t w;
		/* pad: the window as placed; the decoder's own check below words DALI's error */
		if ((rc = dalic_img_window_for_sample(ctx, ws, i, "HW", 2, shape, IMG_OOB_PAD,
		                                      &w)) ||
		    (rc = dalic_img_decoder_op_set_window(ctx, ws, &s->dec, i, w.anchor[0],
		                                          w.anchor[1], w.shape[0], w.shape[1])))
			return rc;
		rc = dalic_img_decoder_op_set_shape(ctx, ws, &s->dec, i);
	}
	return rc;
}

static int image_crop_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	image_crop_decoder_t *s = ctx->state;
	return dalic_img_decoder_op_run(ctx, ws, &s->dec, i, thread);
}

static void image_crop_fini(dalic_op_ctx_t *ctx)
{
	image_crop_decoder_t *s = ctx->state;
	dalic_img_decoder_op_fini(&s->dec);
}

static const dalic_arg_schema_t args[] = {
    IMG_DECODER_ARGS,
    {"crop", DALIC_ARG_FLOAT_LIST, "None", "Window extents [H, W] or [D, H, W].", .tensor = true},
    {"crop_w", DALIC_ARG_FLOAT, "0.0", "Window width (with crop_h).", .tensor = true},
    {"crop_h", DALIC_ARG_FLOAT, "0.0", "Window height (with crop_w).", .tensor = true},
    {"crop_d", DALIC_ARG_FLOAT, "0.0", "Window depth (volumes; unused for images).",
     .tensor = true},
    {"crop_pos_x", DALIC_ARG_FLOAT, "0.5", "Horizontal anchor, 0 = left, 1 = right.",
     .tensor = true},
    {"crop_pos_y", DALIC_ARG_FLOAT, "0.5", "Vertical anchor, 0 = top, 1 = bottom.", .tensor = true},
    {"crop_pos_z", DALIC_ARG_FLOAT, "0.5", "Depth anchor (unused for images).", .tensor = true},
    {"rounding", DALIC_ARG_STRING, "'round'",
     "Anchor rounding: 'round' (half away from zero) or 'truncate'."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(image_crop_decoder_t),
    .init = image_crop_init,
    .setup = image_crop_setup,
    .run_sample = image_crop_run_sample,
    .fini = image_crop_fini,
};

DALIC_OPERATOR(decoders__ImageCrop) = {
    .name = "decoders__ImageCrop",
    .fn = "decoders.image_crop",
    .aliases = {"ImageDecoderCrop", "experimental__decoders__ImageCrop",
                "experimental.decoders.image_crop"},
    .module = "nvidia.dali.fn.decoders",
    .doc = "Decodes a fixed-size window (crop, crop_pos_x / crop_pos_y) of each image.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_MIXED,
    .args = args,
    .cpu = &kernel,
};
