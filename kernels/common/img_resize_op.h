/*
 * The body of the resizing operators (resize, resize_crop_mirror): DALI's ResizeAttr
 * arguments (resize_x / resize_y, size, resize_shorter / resize_longer, mode, max_size,
 * subpixel_scale, roi_start / roi_end / roi_relative) and ResamplingFilterAttr, planned per
 * sample in setup and resampled per plane in run_sample (img_resample.c). Layouts: the
 * spatial dims H, W adjacent, optional channels before (CHW) or after (HWC), optional
 * leading frames (FHWC, FCHW); no layout means HW / HWC / FHWC by rank.
 */
#ifndef DALIC_KERNELS_IMG_RESIZE_OP_H
#define DALIC_KERNELS_IMG_RESIZE_OP_H

#include "engine/kernel.h"
#include "kernels/common/img_resize_attr.h"

typedef struct img_resize_op {
	img_resize_mode_t mode;
	float max_size[2];
	bool has_max_size, subpixel, roi_relative;
	/* current batch */
	int h_dim; /* H at h_dim, W at h_dim + 1; channels after W if any */
	img_resize_plan_t *plan;
	img_filters_t *filters;
	dalic_dtype_t out_type;
	img_resample_ws_t *threads;
	int num_threads;
} img_resize_op_t;

/* Reads the scalar arguments and allocates the per-sample plans; on failure everything is
 * freed again (the caller's fini is not needed). */
int dalic_img_resize_op_init(dalic_op_ctx_t *ctx, img_resize_op_t *r);
void dalic_img_resize_op_fini(img_resize_op_t *r);

/* Edits sample i's plan after the resize rules made it (resize_crop_mirror's window); `shape`
 * is the input sample's shape. */
typedef int (*dalic_img_resize_adjust_fn)(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                          const img_resize_op_t *r, const int64_t *shape,
                                          img_resize_plan_t *plan);

/* Plans every sample (adjust may be NULL) and sets output 0's type, layout and shapes. */
int dalic_img_resize_op_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, img_resize_op_t *r,
                              dalic_img_resize_adjust_fn adjust);
/* Sample i's resampling job for its first plane (the others follow at the plane's size in
 * both buffers); returns the number of planes, 0 when the sample is empty. The CPU run and
 * the GPU entry (gpu_resize.c) both start from it. */
int64_t dalic_img_resize_op_job(const img_resize_op_t *r, const dalic_batch_t *in,
                                const dalic_batch_t *out, int i, img_resample_job_t *job);
int dalic_img_resize_op_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, img_resize_op_t *r,
                                   int i, int thread);

/* ResizeAttr's arguments, for schema tables. */
#define IMG_RESIZE_ARGS                                                                        \
	{"resize_x", DALIC_ARG_FLOAT, "0.0", "Output width; negative flips.", .tensor = true},  \
	{"resize_y", DALIC_ARG_FLOAT, "0.0", "Output height; negative flips.", .tensor = true}, \
	{"resize_z", DALIC_ARG_FLOAT, "0.0", "Output depth (volumes; unsupported).",            \
	 .tensor = true},                                                                       \
	{"size", DALIC_ARG_FLOAT_LIST, "None", "Output extents [H, W]; 0 = unspecified.",       \
	 .tensor = true},                                                                       \
	{"mode", DALIC_ARG_STRING, "'default'",                                                 \
	 "default, stretch, not_larger or not_smaller (see the docs of DALI's resize)."},       \
	{"resize_shorter", DALIC_ARG_FLOAT, "0.0", "Length of the shorter side; keeps aspect.", \
	 .tensor = true},                                                                       \
	{"resize_longer", DALIC_ARG_FLOAT, "0.0", "Length of the longer side; keeps aspect.",   \
	 .tensor = true},                                                                       \
	{"max_size", DALIC_ARG_FLOAT_LIST, "None",                                              \
	 "Limit of the output extents (per axis or one)."},                                     \
	{"subpixel_scale", DALIC_ARG_BOOL, "True",                                              \
	 "Fractional sizes move the input window so the scale stays exact."},                   \
	{"roi_start", DALIC_ARG_FLOAT_LIST, "None", "Start of the input region [y, x].",        \
	 .tensor = true},                                                                       \
	{"roi_end", DALIC_ARG_FLOAT_LIST, "None", "End of the input region [y, x].",            \
	 .tensor = true},                                                                       \
	{"roi_relative", DALIC_ARG_BOOL, "False", "ROI coordinates are fractions of the extent."}

#endif
