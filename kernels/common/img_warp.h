/*
 * Affine warping of channel-last images (HWC) and volumes (DHWC), as DALI's WarpCPU with its
 * samplers: shared by warp_affine and rotate.
 *
 * The matrix maps output pixel centres to source coordinates, (x, y[, z]) order, pixel centres
 * at i + 0.5. Per row, the source of x = 0 is M·(0.5, y + 0.5[, z + 0.5]); along the row DALI
 * adds the matrix's first column per pixel, restarting from M·(x + 0.5, ...) every 256 pixels,
 * all in float — dalic does the same so that its source coordinates are DALI's bit for bit.
 * NN takes the pixel floor(src); LINEAR interpolates the 2 (or 8) pixels around src − 0.5 as
 * DALI's sampler: s0 = s00·(1 − qx) + s01·qx per row, then s0 + (s1 − s0)·qy (and likewise in
 * z). Outside the source: the nearest edge pixel (clamp), or the fill value converted to the
 * output type and, for LINEAR taps, to the input type (saturating, rounding half away from
 * zero). Integer outputs are rounded half away from zero and saturated.
 *
 * Types: input UINT8, INT16, INT32 or FLOAT; output any numeric type.
 */
#ifndef DALIC_KERNELS_IMG_WARP_H
#define DALIC_KERNELS_IMG_WARP_H

#include "dalic.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct img_warp_job {
	int ndim; /* spatial: 2 (HWC) or 3 (DHWC) */
	const void *in;
	dalic_dtype_t in_type;
	int64_t in_size[3]; /* x, y, z extents: W, H, D */
	int channels;
	void *out;
	dalic_dtype_t out_type;
	int64_t out_size[3];
	float m[12]; /* ndim x (ndim + 1), row-major */
	bool linear;
	bool clamp; /* border: replicate the edge; else `fill` */
	double fill;
} img_warp_job_t;

/* Whether dalic_img_warp handles input type t. */
bool dalic_img_warp_supports(dalic_dtype_t t);
/* Extents every coordinate of a warp keeps within (below 2**30 each). DALIC_OK, or
 * DALIC_EUNSUPPORTED with a message (callers prepend the operator and sample). */
int dalic_img_warp_fits(const int64_t *size, int ndim, int64_t channels);
void dalic_img_warp(const img_warp_job_t *job);

#endif
