/*
 * decoders.image_slice (DALI's decoders__ImageSlice / ImageDecoderSlice): decodes the slice of
 * each image given as slice's are — named start / end / shape arguments, absolute or
 * relative, or anchor and shape inputs — over the oriented image's (H, W), axis_names "WH" by
 * default (kernels/common/slice_attr.c). Only the window is decoded (ROI decoding, as
 * decoders.image_random_crop does); a window that is empty or reaches outside the image is an
 * error, as in DALI.
 */
#include "engine/kernel.h"
#include "kernels/common/img_decoder_op.h"
#include "kernels/common/slice_attr.h"

typedef struct image_slice_decoder {
	img_decoder_op_t dec;
	slice_attr_t attr;
} image_slice_decoder_t;

static void image_slice_fini(dalic_op_ctx_t *ctx);

/* The engine calls fini only after a successful init: a failing init cleans up itself. */
static int image_slice_init(dalic_op_ctx_t *ctx)
{
	image_slice_decoder_t *s = ctx->state;
	int rc = dalic_slice_attr_init(ctx, &s->attr);
	if (rc)
		return rc;
	if ((rc = dalic_img_decoder_op_init(ctx, &s->dec)))
		image_slice_fini(ctx);
	return rc;
}

static int image_slice_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	image_slice_decoder_t *s = ctx->state;
	int rc = dalic_slice_attr_check_inputs(ctx, ws, &s->attr);
	if (rc || (rc = dalic_img_decoder_op_setup(ctx, ws, &s->dec)))
		return rc;
	for (int i = 0; i < ws->batch_size; i++) {
		const img_info_t *info = &s->dec.info[i];
		int64_t shape[2] = {img_oriented_h(info), img_oriented_w(info)};
		img_window_t w;
		if ((rc = dalic_slice_attr_window(ctx, ws, &s->attr, i, "HW", 2, shape, &w)) ||
		    (rc = dalic_img_decoder_op_set_window(ctx, ws, &s->dec, i, w.anchor[0],
		                                          w.anchor[1], w.shape[0], w.shape[1])) ||
		    (rc = dalic_img_decoder_op_set_shape(ctx, ws, &s->dec, i)))
			return rc;
	}
	return DALIC_OK;
}

static int image_slice_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	image_slice_decoder_t *s = ctx->state;
	return dalic_img_decoder_op_run(ctx, ws, &s->dec, i, thread);
}

static void image_slice_fini(dalic_op_ctx_t *ctx)
{
	image_slice_decoder_t *s = ctx->state;
	dalic_img_decoder_op_fini(&s->dec);
}

static const dalic_arg_schema_t args[] = {
    IMG_DECODER_ARGS,
    SLICE_ATTR_ARGS,
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(image_slice_decoder_t),
    .init = image_slice_init,
    .setup = image_slice_setup,
    .run_sample = image_slice_run_sample,
    .fini = image_slice_fini,
};

DALIC_OPERATOR(decoders__ImageSlice) = {
    .name = "decoders__ImageSlice",
    .fn = "decoders.image_slice",
    .aliases = {"ImageDecoderSlice", "experimental__decoders__ImageSlice",
                "experimental.decoders.image_slice"},
    .module = "nvidia.dali.fn.decoders",
    .doc = "Decodes a slice (start/end/shape arguments or anchor and shape inputs) of each "
           "image.",
    .min_inputs = 1,
    .max_inputs = 3,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_MIXED,
    .args = args,
    .cpu = &kernel,
};
