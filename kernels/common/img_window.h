/*
 * Crop windows for crop and crop_mirror_normalize (DALI's CropAttr and OutOfBoundsAttr):
 * the window's extents come from `crop` ([H, W] or [D, H, W]) or crop_w / crop_h / crop_d,
 * its anchor from crop_pos_x / _y / _z in [0, 1] as rounding(pos * (in - crop)) with
 * rounding "round" (half away from zero) or "truncate"; no crop arguments means the whole
 * extent. Windows reaching outside the input are an error, are padded with fill_values, or
 * are trimmed to the input, per out_of_bounds_policy.
 *
 * Also the N-d window copy both operators share (slice's, kernels/common/slice_copy.c): per
 * output row, a contiguous copy of the inside part and fill values outside.
 */
#ifndef DALIC_KERNELS_IMG_WINDOW_H
#define DALIC_KERNELS_IMG_WINDOW_H

#include "engine/kernel.h"

typedef enum { IMG_OOB_ERROR, IMG_OOB_PAD, IMG_OOB_TRIM } img_oob_t;

typedef struct img_window {
	int64_t anchor[DALIC_MAX_NDIM]; /* may be negative / past the end when padding */
	int64_t shape[DALIC_MAX_NDIM];
} img_window_t;

/* Reads out_of_bounds_policy; errors name the operator. */
int dalic_img_oob_parse(const dalic_op_ctx_t *ctx, img_oob_t *out);

/* The window of sample i of a batch with `layout` (must contain H and W) and `shape`. */
int dalic_img_window_for_sample(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                const char *layout, int ndim, const int64_t *shape, img_oob_t oob,
                                img_window_t *w);

/* Copies window `w` of `in` (shape in_shape, ndim dims, elements of 1, 2, 4 or 8 bytes) to the
 * contiguous `out`; elements outside the input take fill[channel] (channel = the coordinate
 * along channel_dim, or 0 when channel_dim < 0 or nfill == 1), already in the element type. */
void dalic_img_window_copy(const void *in, const int64_t *in_shape, int ndim, const img_window_t *w,
                           size_t esize, void *out, const uint8_t *fill, int nfill,
                           int channel_dim);

/* The crop window arguments, for schema tables (IMG_CROP_WINDOW_ARGS adds the out-of-bounds
 * policy; resize_crop_mirror has only these). */
#define IMG_CROP_WINDOW_BASE_ARGS                                                             \
	{"crop", DALIC_ARG_FLOAT_LIST, "None", "Window extents [H, W] or [D, H, W].",          \
	 .tensor = true},                                                                       \
	{"crop_w", DALIC_ARG_FLOAT, "0.0", "Window width (with crop_h).", .tensor = true},     \
	{"crop_h", DALIC_ARG_FLOAT, "0.0", "Window height (with crop_w).", .tensor = true},    \
	{"crop_d", DALIC_ARG_FLOAT, "0.0", "Window depth (volumes).", .tensor = true},         \
	{"crop_pos_x", DALIC_ARG_FLOAT, "0.5", "Horizontal anchor, 0 = left, 1 = right.",      \
	 .tensor = true},                                                                       \
	{"crop_pos_y", DALIC_ARG_FLOAT, "0.5", "Vertical anchor, 0 = top, 1 = bottom.",        \
	 .tensor = true},                                                                       \
	{"crop_pos_z", DALIC_ARG_FLOAT, "0.5", "Depth anchor.", .tensor = true},               \
	{"rounding", DALIC_ARG_STRING, "'round'",                                             \
	 "Anchor rounding: 'round' (half away from zero) or 'truncate'."}

/* The crop arguments, for schema tables. */
#define IMG_CROP_WINDOW_ARGS                                                                  \
	IMG_CROP_WINDOW_BASE_ARGS,                                                            \
	{"out_of_bounds_policy", DALIC_ARG_STRING, "'error'",                                 \
	 "Windows past the input: 'error', 'pad' (with fill_values) or 'trim_to_shape'."},     \
	{"fill_values", DALIC_ARG_FLOAT_LIST, "[0.0]",                                        \
	 "Padding values: one, or one per channel."}

#endif
