/*
 * Separable image resampling (DALI's resampling kernels, CPU variant) shared by resize,
 * random_resized_crop and anything else that scales HWC images.
 *
 * Geometry: output pixel x covers source coordinate lo + (x + 0.5) * (hi - lo) / out, with
 * pixel centres at i + 0.5; a source window [lo, hi) with hi < lo flips the axis. Source
 * indices are clamped at the borders (edge replication).
 *
 * Filters, as DALI builds them: NN picks floor(coordinate); LINEAR is a triangle of radius 1;
 * TRIANGULAR, GAUSSIAN, CUBIC (Keys, a = -0.5) and LANCZOS3 widen by in/out when scaling down
 * with antialias (LINEAR becomes TRIANGULAR then). The filter of an axis is min_filter when the
 * output is smaller than the source window, mag_filter otherwise. Weights are normalised to
 * sum 1 per output pixel and computed once per axis (not per pixel): resampling is one
 * weighted sum per tap along each axis, in the order that costs fewer multiplications.
 * Integer outputs are rounded like DALI (add 0.5, clamp, truncate).
 *
 * Types: input UINT8, INT16, UINT16 or FLOAT; output the input type or FLOAT.
 */
#ifndef DALIC_KERNELS_IMG_RESAMPLE_H
#define DALIC_KERNELS_IMG_RESAMPLE_H

#include "dalic.h"
#include "kernels/common/img_scratch.h"

#include <stdbool.h>

typedef enum {
	IMG_FILTER_NN,
	IMG_FILTER_LINEAR,
	IMG_FILTER_TRIANGULAR,
	IMG_FILTER_GAUSSIAN,
	IMG_FILTER_CUBIC,
	IMG_FILTER_LANCZOS3,
} img_filter_t;

/* The filter for a DALIInterpType (DALIC_INTERP_*), or -1 if it is not one. */
int dalic_img_filter_from_interp(int64_t interp);

typedef struct img_filters {
	img_filter_t min, mag; /* downscaling / upscaling */
	bool antialias;        /* widen min_filter by the downscaling factor */
} img_filters_t;

typedef struct img_resample_job {
	const void *in;
	dalic_dtype_t in_type;
	int in_h, in_w, channels; /* contiguous HWC */
	void *out;
	dalic_dtype_t out_type;
	int out_h, out_w;
	double y0, y1, x0, x1; /* source window in pixels; y1 < y0 (x1 < x0) flips */
	img_filters_t filters;
} img_resample_job_t;

/* One thread's buffers: filter tables, the intermediate image, a row. */
typedef struct img_resample_ws {
	img_scratch_t taps, tmp, row;
} img_resample_ws_t;

void dalic_img_resample_ws_free(img_resample_ws_t *ws);

bool dalic_img_resample_supports(dalic_dtype_t in, dalic_dtype_t out);
/* Whether extents fit the int arithmetic of dalic_img_resample: every extent and every row of
 * values (width x channels) at most INT_MAX. DALIC_OK, or DALIC_EUNSUPPORTED with a message
 * (callers prepend the operator and sample). */
int dalic_img_resample_fits(int64_t in_h, int64_t in_w, int64_t channels, int64_t out_h,
                            int64_t out_w);
/* Returns 0, or -1 with dalic_last_error() set: out of memory or over the memory budget, or a
 * source window too far outside the image (beyond +-2**30) for its filter tables. */
int dalic_img_resample(img_resample_ws_t *ws, const img_resample_job_t *job);

/* One axis of a plan: `taps` source indices and weights per output position, the indices
 * relative to lo (the first source index the axis reads; hi is one past the last) and, on the
 * horizontal axis, premultiplied by the channel count. */
typedef struct img_resample_table {
	int out, taps, lo, hi;
	const int32_t *idx; /* out * taps */
	const float *w;     /* out * taps */
} img_resample_table_t;

/* What dalic_img_resample computes before its passes, for the CUDA kernel
 * (kernels/cuda/resize.cuh), which runs the same passes in the same order. */
typedef struct img_resample_plan {
	img_resample_table_t y, x;
	/* vertical pass first (into an intermediate of out_h x (x.hi - x.lo) x channels
	 * floats), else horizontal first ((y.hi - y.lo) x out_w x channels) */
	bool vert_first;
} img_resample_plan_t;

/* The tables (in ws, valid until its next use) and pass order of job; 0, or -1 with
 * dalic_last_error() set as dalic_img_resample. */
int dalic_img_resample_plan(img_resample_ws_t *ws, const img_resample_job_t *job,
                            img_resample_plan_t *plan);

#endif
