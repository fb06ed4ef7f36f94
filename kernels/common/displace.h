/*
 * DALI's DisplacementFilter for water and sphere: every output pixel (x, y) of an HWC image
 * (uint8 or float) samples the input at a point (px, py) the operator computes from the
 * integer pixel coordinates. NN takes the pixel floor(px), floor(py); LINEAR blends the four
 * pixels around (px - 0.5, py - 0.5) in float. Points outside take `fill_value` (converted to
 * the element type by truncation, as DALI stores it). A sample whose `mask` is 0 is copied.
 * The per-pixel work is kernels/common/displace_px.h's, which the CUDA kernel runs too.
 */
#ifndef DALIC_KERNELS_DISPLACE_H
#define DALIC_KERNELS_DISPLACE_H

#include "engine/kernel.h"
#include "kernels/common/displace_px.h"

/* Sample points of output row y (w of them) into px[], py[]; `params` is the operator's. */
typedef void (*dalic_displace_row_fn)(const void *params, int64_t y, int64_t h, int64_t w,
                                      float *px, float *py);

/* Checks interp_type (NN or LINEAR); for init. */
int dalic_displace_init(dalic_op_ctx_t *ctx);
/* Checks the input (HWC, uint8 or float) and sets the output like it. */
int dalic_displace_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws);
/* Runs sample i: `row` gives the points, `scratch` holds 2 * width floats. */
int dalic_displace_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                              dalic_displace_row_fn row, const void *params, float *scratch);

/* The fill value as the element type (uint8: truncated and saturated), as float. */
float dalic_displace_fill(dalic_dtype_t t, double fill_value);

/* water's arguments, and the shifts of row y (dx) and column x (dy) made from them with the C
 * library's sinf and cosf: the CPU operator's and the GPU launch's. */
typedef struct dalic_displace_water {
	float ax, ay, fx, fy, phx, phy;
} dalic_displace_water_t;
float dalic_displace_water_dx(const dalic_displace_water_t *w, int64_t y);
float dalic_displace_water_dy(const dalic_displace_water_t *w, int64_t x);

/* The schema rows both operators share. */
#define DALIC_DISPLACE_ARGS                                                                        \
	{"fill_value", DALIC_ARG_FLOAT, "0.0", "Value of points outside the image."},              \
	    {"interp_type", DALIC_ARG_INTERP_TYPE, "INTERP_NN", "NN or LINEAR."},                  \
	{                                                                                          \
		"mask", DALIC_ARG_INT, "1", "0 copies the sample unchanged.", .tensor = true       \
	}

#endif
