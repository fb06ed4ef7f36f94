/*
 * DALI's DisplacementFilter for water and sphere: every output pixel (x, y) of an HWC image
 * (uint8 or float) samples the input at a point (px, py) the operator computes from the
 * integer pixel coordinates. NN takes the pixel floor(px), floor(py); LINEAR blends the four
 * pixels around (px - 0.5, py - 0.5) in float. Points outside take `fill_value` (converted to
 * the element type by truncation, as DALI stores it). A sample whose `mask` is 0 is copied.
 */
#ifndef DALIC_KERNELS_DISPLACE_H
#define DALIC_KERNELS_DISPLACE_H

#include "engine/kernel.h"

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

/* The schema rows both operators share. */
#define DALIC_DISPLACE_ARGS                                                                        \
	{"fill_value", DALIC_ARG_FLOAT, "0.0", "Value of points outside the image."},              \
	    {"interp_type", DALIC_ARG_INTERP_TYPE, "INTERP_NN", "NN or LINEAR."},                  \
	{                                                                                          \
		"mask", DALIC_ARG_INT, "1", "0 copies the sample unchanged.", .tensor = true       \
	}

#endif
