/*
 * Random crop windows with DALI's RandomCropGenerator algorithm (random_crop_generator_util.cc):
 * up to `num_attempts` draws of an area fraction (uniform in random_area) and an aspect ratio
 * w/h (log-uniform in random_aspect_ratio); the first window that fits and whose rounded
 * ratio stays in range wins. Images too wide or too tall for any window get the widest
 * (tallest) allowed one; after failed attempts the fallback is the whole image clamped to the
 * ratio range and to the largest area, scaled down. The anchor is uniform over the positions
 * that keep the window inside. DALI draws from Philox; dalic from the operator's per-sample
 * generators, so windows follow the same distribution but not the same sequence.
 */
#ifndef DALIC_KERNELS_IMG_CROP_WINDOW_H
#define DALIC_KERNELS_IMG_CROP_WINDOW_H

#include "engine/kernel.h"
#include "kernels/common/img_codec.h"

typedef struct img_crop_params {
	float area_min, area_max;   /* random_area */
	float ratio_min, ratio_max; /* random_aspect_ratio (width / height) */
	int num_attempts;
} img_crop_params_t;

/* Reads random_area, random_aspect_ratio and num_attempts (DALI's RandomCropAttr), checking
 * their ranges; errors name the operator. */
int dalic_img_crop_params_parse(const dalic_op_ctx_t *ctx, img_crop_params_t *p);

/* A window inside an H x W image (H, W > 0). */
img_rect_t dalic_img_random_crop_window(dalic_rng_t *rng, int H, int W, const img_crop_params_t *p);

/* The random-crop arguments, for schemas: {0}-free rows to copy into an args table. */
#define IMG_CROP_ARGS                                                                        \
	{"random_area", DALIC_ARG_FLOAT_LIST, "[0.08, 1.0]",                                  \
	 "Range of the window's area as a fraction of the image area."},                      \
	{"random_aspect_ratio", DALIC_ARG_FLOAT_LIST, "[0.75, 1.3333333333333333]",                      \
	 "Range of the window's aspect ratio (width / height)."},                              \
	{"num_attempts", DALIC_ARG_INT, "10", "Draws tried before the fallback window."}

#endif
