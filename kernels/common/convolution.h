/*
 * Separable convolution as DALI's CPU kernels compute it (dali/kernels/imgproc/convolution),
 * for gaussian_blur and laplacian.
 *
 * A sample is `nseq` independent blocks (frames, channel-first channels) of 1 to 3 spatial
 * axes, each position holding `lanes` interleaved values (channel-last channels). Axes are
 * convolved innermost first; borders reflect without repeating the edge (reflect 101, also
 * for windows wider than the axis). Every output is a float sum over the window taken left to
 * right from 0; passes before the last store floats, the last one converts with DALI's
 * ConvertSat after the transform (scale, or a buffer plus the scaled value). float64 inputs
 * follow DALI's mixed arithmetic: products and sums in double, each sum rounded to float.
 */
#ifndef DALIC_KERNELS_CONVOLUTION_H
#define DALIC_KERNELS_CONVOLUTION_H

#include "engine/kernel.h"

typedef struct dalic_conv_geom {
	int64_t nseq;   /* independent blocks */
	int axes;       /* spatial axes, 1..3 */
	int64_t ext[3]; /* their extents, outermost first */
	int64_t lanes;  /* values per position */
} dalic_conv_geom_t;

/* Where the last pass goes: out[i] = ConvertSat(v * scale), or with `add` (a float buffer
 * of the sample's volume, may be `out` itself when out is float) ConvertSat(add[i] + v * scale).
 */
typedef struct dalic_conv_sink {
	dalic_dtype_t type;
	void *data;
	const float *add;
	float scale;
	bool half; /* a float sink holding a float16 intermediate: values rounded to half */
} dalic_conv_sink_t;

/* The geometry of a sample from its layout (DALI's rules: leading F and/or C are blocks, a
 * trailing C is lanes, at most 3 spatial axes; no layout: all dims spatial). Errors use DALI's
 * words. */
int dalic_conv_geom(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *layout, int ndim,
                    const int64_t *shape, dalic_conv_geom_t *g);
/* Spatial axes a layout gives (for argument counts), or an error. */
int dalic_conv_axes(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *layout, int ndim,
                    int *axes);

/* The filters' setup: input type numeric (not bool; float64 only with `allow_f64`), output the
 * input's type or `dtype` FLOAT, a layout dalic_conv_axes accepts; output 0 shaped as input 0. */
int dalic_conv_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, bool allow_f64);

/* Floats of scratch dalic_conv_separable needs (one or two sample volumes and lines). */
int64_t dalic_conv_scratch_floats(const dalic_conv_geom_t *g);
/* Bytes of that scratch plus `extra` floats, or 0 when the size does not fit (checked). */
size_t dalic_conv_scratch_bytes(const dalic_conv_geom_t *g, int64_t extra);

/* Convolves `in` (type `it`) with win[a] (wsize[a] values, odd) along each spatial axis and
 * hands the result to `sink`. `tmp` holds dalic_conv_scratch_floats(g) floats. */
void dalic_conv_separable(const dalic_conv_geom_t *g, dalic_dtype_t it, const void *in,
                          const float *const *win, const int *wsize, const dalic_conv_sink_t *sink,
                          float *tmp);

/* DALI's (OpenCV's) Laplacian windows, built in float as DALI builds them: the smoothing
 * window of odd `size` is a row of Pascal's triangle (1, 2, 1 for 3), the derivative window is
 * the smoothing window of size - 2 differenced twice (1, -2, 1 for 3). */
void dalic_conv_smoothing_window(int size, float *w);
void dalic_conv_derivative_window(int size, float *w);

/* DALI's Gaussian window of `size` values for `sigma` (normalized to sum 1, symmetric). */
void dalic_conv_gaussian_window(float sigma, int size, float *w);

/* Reads a per-axis argument (`name`: a list of 1 or `axes` values, or a per-sample 1-D tensor
 * of 1 or `axes` values) for sample i into out[axes]. */
int dalic_conv_axis_arg(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name, int i,
                        int axes, double *out);

#endif
