/*
 * Random crop windows, drawn as DALI 2.4's RandomCropGenerator draws them
 * (random_crop_generator_util.cc, random_crop_attr.h), so decoders.image_random_crop and
 * random_resized_crop choose DALI's windows for the same seed:
 *  - sample i draws from its own Philox generator: the operator's sample generator
 *    (dalic_op_rng) with the key xor-ed with 0x012345678ABCDEFE, fresh every iteration;
 *  - up to `num_attempts` times: an area fraction (std::uniform_real_distribution<float> over
 *    random_area) and an aspect ratio w/h (exp of a uniform draw over the logs of
 *    random_aspect_ratio); the first window that fits and whose rounded ratio stays in range
 *    wins. Images too wide or too tall for any window get the widest (tallest) allowed one;
 *    after failed attempts the fallback is the whole image clamped to the ratio range and to
 *    the largest area, scaled down;
 *  - the anchor: std::uniform_int_distribution<int> over the rows, then the columns.
 * The float arithmetic and float-to-int conversions are DALI's, step by step.
 */
#ifndef DALIC_KERNELS_IMG_CROP_WINDOW_H
#define DALIC_KERNELS_IMG_CROP_WINDOW_H

#include "engine/kernel.h"
#include "kernels/common/img_codec.h"

typedef struct img_crop_params {
	float area_min, area_max;   /* random_area */
	float ratio_min, ratio_max; /* random_aspect_ratio (width / height) */
	int num_attempts;           /* <= 0: straight to the fallback, as DALI */
} img_crop_params_t;

/* Reads random_area, random_aspect_ratio (one value or two, min <= max) and num_attempts with
 * DALI's rules and messages; errors name the operator. */
int dalic_img_crop_params_parse(const dalic_op_ctx_t *ctx, img_crop_params_t *p);

/* The window DALI draws for an H x W image with sample generator `sample_rng` (the operator's,
 * dalic_op_rng; the key modifier is applied here): win = {anchor y, anchor x, h, w}, unchecked. */
void dalic_img_crop_window_draw(const dalic_philox_t *sample_rng, int H, int W,
				const img_crop_params_t *p, int64_t win[4]);

/* The window for an H x W image (H, W > 0) drawn with sample generator `sample_rng`. Fails
 * (DALI's "The cropping window ... is not valid" error, naming the operator and sample) when
 * degenerate arguments (random_area above 1) give a window outside the image. */
int dalic_img_random_crop_window(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int sample,
				 int H, int W, const img_crop_params_t *p, img_rect_t *out);

/* The random-crop arguments, for schemas: {0}-free rows to copy into an args table. */
#define IMG_CROP_ARGS                                                                        \
	{"random_area", DALIC_ARG_FLOAT_LIST, "[0.08, 1.0]",                                  \
	 "Range of the window's area as a fraction of the image area."},                      \
	{"random_aspect_ratio", DALIC_ARG_FLOAT_LIST, "[0.75, 1.3333333333333333]",          \
	 "Range of the window's aspect ratio (width / height)."},                              \
	{"num_attempts", DALIC_ARG_INT, "10", "Draws tried before the fallback window."}

#endif
