/*
 * Affine warping of channel-last images (HWC) and volumes (DHWC), as DALI's WarpCPU with its
 * samplers: shared by warp_affine and rotate.
 *
 * The matrix maps output pixel centres to source coordinates, (x, y[, z]) order, pixel centres
 * at i + 0.5. Per row, the source of x = 0 is M·(0.5, y + 0.5[, z + 0.5]); along the row DALI
 * adds the matrix's first column per pixel, and every 256 pixels restarts from the previous
 * tile's start plus 256 times that column, all in float — dalic does the same so that its source coordinates are DALI's bit for bit.
 * NN takes the pixel floor(src); LINEAR interpolates the 2 (or 8) pixels around src − 0.5 as
 * DALI's sampler: s0 = s00·(1 − qx) + s01·qx per row, then s0 + (s1 − s0)·qy (and likewise in
 * z). Outside the source: the nearest edge pixel (clamp), or the fill value converted to the
 * output type and, for LINEAR taps, to the input type (saturating, rounding half away from
 * zero). Integer outputs are rounded half away from zero and saturated.
 *
 * Types: input UINT8, INT16, INT32 or FLOAT; output any numeric type.
 *
 * The per-pixel work (coordinates, sampling, stores) is kernels/common/img_warp_px.h's, which
 * the CUDA kernel (kernels/cuda/warp.cuh) runs too.
 */
#ifndef DALIC_KERNELS_IMG_WARP_H
#define DALIC_KERNELS_IMG_WARP_H

#include "dalic.h"
#include "kernels/common/img_warp_px.h"

#include <stdbool.h>
#include <stdint.h>

/* Whether dalic_img_warp handles input type t. */
bool dalic_img_warp_supports(dalic_dtype_t t);
/* Extents every coordinate of a warp keeps within (below 2**30 each). DALIC_OK, or
 * DALIC_EUNSUPPORTED with a message (callers prepend the operator and sample). */
int dalic_img_warp_fits(const int64_t *size, int ndim, int64_t channels);
/* Sets the fields dalic_img_warp_pixel needs besides the operator's (fill_in); dalic_img_warp
 * calls it, a GPU launch calls it on the host for every job. */
void dalic_img_warp_prepare(img_warp_job_t *job);
void dalic_img_warp(const img_warp_job_t *job);

/* warp_affine's fill: ConvertSat<Out>(fill_value) (float: rounded to float). */
double dalic_img_warp_fill(dalic_dtype_t out, double fill_value);
/* rotate's angle in radians, rounded as DALI's deg2rad (float). */
float dalic_img_warp_radians(double degrees);
/* rotate's destination-to-source matrix (2x3), in float as DALI's RotateParamProvider:
 * T(in/2)·R(angle)·T(−out/2), extents as W, H. */
void dalic_img_warp_rotation(float radians, int64_t in_w, int64_t in_h, int64_t out_w,
                             int64_t out_h, float m[6]);

/* The warp of sample i as warp_affine and rotate run it (defined in kernels/cpu/image/
 * warp_affine.c and rotate.c, after their setup), so their GPU path (gpu_warp.c) launches
 * the same jobs: in and out point at the sample's frame 0; warp_affine's frames follow one
 * another at the byte strides given. */
struct dalic_op_ctx;
struct dalic_ws;
int dalic_warp_affine_job(const struct dalic_op_ctx *ctx, const struct dalic_ws *ws, int i,
                          img_warp_job_t *job, int64_t *frames, int64_t *in_frame_bytes,
                          int64_t *out_frame_bytes);
int dalic_rotate_job(const struct dalic_op_ctx *ctx, const struct dalic_ws *ws, int i,
                     img_warp_job_t *job);

#endif
