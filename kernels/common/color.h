/*
 * Shared code of the colour operators (DALI's ColorTwist family: hsv, hue, saturation,
 * color_twist; and the BrightnessContrast family: brightness, contrast, brightness_contrast).
 *
 * Inputs are channel-last images: layout HWC, FHWC or DHWC, or no layout with 3 or 4 dims (the
 * leading dims of a 4-D sample are frames or depth and are treated as more rows). Outputs
 * keep the input's shape and layout.
 *
 * The twist family applies one 3x3 matrix and an offset per sample: DALI composes
 * brightness * contrast * Yiq2Rgb * hue(deg) * saturation * value * Rgb2Yiq in float, left to
 * right, with hue rotating and saturation scaling the I and Q axes of YIQ; the offset is
 * (half - half * contrast) * brightness, half being 0.5 for float inputs and 128 otherwise.
 * The brightness-contrast family is one multiply-add per value:
 *   out = brightness_shift * range(out) + brightness * (center + contrast * (in - center)).
 * Both convert to the output with ConvertSat (kernels/common/sat_cast.h).
 */
#ifndef DALIC_KERNELS_COLOR_H
#define DALIC_KERNELS_COLOR_H

#include "engine/kernel.h"

/* Validates input 0 (layout, dims, `nch` channels unless nch is 0, its dtype among `types`)
 * and `out_type` (among `types`), then sets output 0: same shapes and layout, `out_type`.
 * Errors use DALI's words ("Unsupported input type: int8"). */
int dalic_color_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, dalic_dtype_t out_type,
                      const dalic_dtype_t *types, int ntypes, int nch);

/* The matrix (row-major) and offset of DALI's ColorTwist for one sample. */
void dalic_color_twist_matrix(float hue, float saturation, float value, float brightness,
                              float contrast, float half_range, float m[3][3], float *offset);

/* The matrix and offset of one sample of input type `it`: the offset's grey level is 0.5 for
 * floating-point inputs and 128 for every integer type. Shared with the CUDA kernel's callers
 * (kernels/cuda/color.cuh). */
void dalic_color_twist_sample(dalic_dtype_t it, float hue, float saturation, float value,
                              float brightness, float contrast, float m[3][3], float *offset);

/* out = ConvertSat(m * in + offset) for n RGB pixels (in/out types: uint8, int16, int32,
 * float, float16). */
void dalic_color_twist_apply(const float m[3][3], float offset, dalic_dtype_t it, const void *in,
                             dalic_dtype_t ot, void *out, int64_t npix);

/* out = ConvertSat(in * mul + add) for n values (types: uint8, int16, int32, float). */
void dalic_color_muladd_apply(float mul, float add, dalic_dtype_t it, const void *in,
                              dalic_dtype_t ot, void *out, int64_t n);

/* The twist family's setup: types uint8, int16, int32, float, float16 in and out; 3 channels.
 * `out_type` DALIC_NO_TYPE means the input's type. */
int dalic_color_twist_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, dalic_dtype_t out_type);
/* Sample i of the twist family with these factors (hue in degrees). */
int dalic_color_twist_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, float hue,
                                 float saturation, float value, float brightness, float contrast);

/* The brightness-contrast family's setup: types uint8, int16, int32, float in and out; any
 * channel count. `out_type` DALIC_NO_TYPE means the input's type. */
int dalic_color_bc_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, dalic_dtype_t out_type);
/* Sample i of the brightness-contrast family. The contrast center is the `contrast_center`
 * argument when `has_center` (the schema has it and it is given or fed), else the input
 * type's half range. */
int dalic_color_bc_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, float brightness,
                              float brightness_shift, float contrast, bool has_center);

/* DALI's RGB -> YCbCr coefficients (ITU-R BT.601, studio range), used by
 * color_space_conversion and the decoders' YCbCr output: JPEG's full-range coefficients scaled
 * by 219/255 (Y) and 224/255 (Cb, Cr) in double, stored as float. Y adds 16, Cb and Cr 128;
 * the sums are c0 * R + c1 * G + c2 * B in float, rounded half away from zero. */
void dalic_color_ycbcr_coeffs(float y[3], float cb[3], float cr[3]);

/* DALI's HalfRange<T> (the default contrast center) and FullRange<T> (brightness_shift's
 * unit): 128 / 255 for uint8, 16384 / 32767 for int16, 2^30 / 2^31-1 for int32, 0.5 / 1 for
 * floats. */
float dalic_color_half_range(dalic_dtype_t t);
float dalic_color_full_range(dalic_dtype_t t);

/* `dtype` when given, else DALIC_NO_TYPE (the input's type). */
dalic_dtype_t dalic_color_dtype_arg(const dalic_op_ctx_t *ctx);

/* Per-sample value of a scalar tensor argument (fed per sample or given) as a float; a fed
 * sample must hold exactly one value. */
int dalic_color_arg(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name, int i,
                    float *out);

#endif
