/*
 * DALI's resize attributes, shared by resize and random_resized_crop:
 *  - ResizeAttr: the output-size rules (modes default / stretch / not_larger / not_smaller,
 *    max_size, negative sizes flipping, rounding to at least 1 pixel, and subpixel_scale
 *    moving the source window so the scale factor is the requested one), transcribed from
 *    resize_attr_base.cc;
 *  - ResamplingFilterAttr: interp_type / min_filter / mag_filter / antialias per sample.
 * Spatial extents are outer-first ([H, W]) as in DALI's `size` argument.
 */
#ifndef DALIC_KERNELS_IMG_RESIZE_ATTR_H
#define DALIC_KERNELS_IMG_RESIZE_ATTR_H

#include "engine/kernel.h"
#include "kernels/common/img_resample.h"

typedef enum {
	IMG_RESIZE_DEFAULT,
	IMG_RESIZE_STRETCH,
	IMG_RESIZE_NOT_LARGER,
	IMG_RESIZE_NOT_SMALLER,
} img_resize_mode_t;

/* "default", "stretch", "not_larger", "not_smaller" -> mode, or -1. */
int dalic_img_resize_mode_parse(const char *s);

#define IMG_MAX_SPATIAL 3

typedef struct img_resize_plan {
	int out[IMG_MAX_SPATIAL];               /* output extents */
	double lo[IMG_MAX_SPATIAL], hi[IMG_MAX_SPATIAL]; /* source window (hi < lo flips) */
} img_resize_plan_t;

/* DALI's CalculateSampleParams. requested[d]: 0 = unspecified, < 0 flips; in_lo/in_hi: the
 * input region (whole extent without roi); max_size: per axis, NULL = none. Returns 0, or -1
 * with a message ("Cannot produce non-empty output from empty input"). */
int dalic_img_resize_calc(int ndim, const float *requested, const float *in_lo, const float *in_hi,
                          img_resize_mode_t mode, const float *max_size, bool subpixel_scale,
                          bool empty_input, img_resize_plan_t *plan, char *err, size_t errn);

/* Filters of sample i from interp_type, min_filter, mag_filter and antialias (scalar or
 * per-sample arguments), as DALI's PrepareFilterParams. */
int dalic_img_filters_for_sample(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                 img_filters_t *out);

/* True if argument `name` was given, as a value or as an argument input. */
bool dalic_img_arg_present(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name);

/* Output dtype from the `dtype` argument: input type when absent; must be it or FLOAT. */
int dalic_img_resample_dtype(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, dalic_dtype_t in,
                             dalic_dtype_t *out);

/* ResamplingFilterAttr's arguments, for schema tables (FastResizeCropMirror's antialias
 * defaults to False: IMG_RESAMPLING_ARGS_AA("False")). */
#define IMG_RESAMPLING_ARGS IMG_RESAMPLING_ARGS_AA("True")
#define IMG_RESAMPLING_ARGS_AA(antialias_default)                                             \
	IMG_RESAMPLING_FILTER_ARGS(antialias_default),                                         \
	{"dtype", DALIC_ARG_DTYPE, "None", "Output type: the input type (default) or FLOAT."},  \
	IMG_RESAMPLING_BUFFER_ARGS
/* ... in parts, for operators that have their own `dtype` (readers.video_resize): */
#define IMG_RESAMPLING_FILTER_ARGS(antialias_default)                                         \
	{"interp_type", DALIC_ARG_INTERP_TYPE, "INTERP_LINEAR",                                \
	 "Interpolation for both directions unless min_filter / mag_filter are given.",        \
	 .tensor = true},                                                                       \
	{"min_filter", DALIC_ARG_INTERP_TYPE, "INTERP_LINEAR", "Filter used when scaling down.", \
	 .tensor = true},                                                                       \
	{"mag_filter", DALIC_ARG_INTERP_TYPE, "INTERP_LINEAR", "Filter used when scaling up.",   \
	 .tensor = true},                                                                       \
	{"antialias", DALIC_ARG_BOOL, antialias_default,                                      \
	 "Widen the filter when scaling down (not NN)."}
#define IMG_RESAMPLING_BUFFER_ARGS                                                            \
	{"temp_buffer_hint", DALIC_ARG_INT, "0", "Accepted; ignored by the CPU variant."},      \
	{"minibatch_size", DALIC_ARG_INT, "32", "Accepted; samples are processed one by one."}

#endif
