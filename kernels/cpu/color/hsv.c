/*
 * hsv (DALI's Hsv): shifts hue (degrees, additive) and scales saturation and value of RGB
 * images, as DALI approximates it: one linear transform in RGB space per sample (the colour is
 * moved to YIQ, rotated around Y by the hue, its I and Q scaled by the saturation, everything
 * by the value, and moved back; kernels/common/color.c). `dtype` defaults to UINT8 as in DALI,
 * whatever the input type. Inputs HWC, FHWC or DHWC with 3 channels; uint8, int16, int32,
 * float or float16, and the same types out.
 */
#include "engine/kernel.h"
#include "kernels/common/color.h"

static int hsv_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_color_twist_setup(ctx, ws, (dalic_dtype_t)dalic_arg_int(ctx, "dtype"));
}

static int hsv_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	float hue, saturation, value;
	int rc;
	if ((rc = dalic_color_arg(ctx, ws, "hue", i, &hue)) ||
	    (rc = dalic_color_arg(ctx, ws, "saturation", i, &saturation)) ||
	    (rc = dalic_color_arg(ctx, ws, "value", i, &value)))
		return rc;
	return dalic_color_twist_run_sample(ctx, ws, i, hue, saturation, value, 1, 1);
}

static const dalic_arg_schema_t args[] = {
    {"hue", DALIC_ARG_FLOAT, "0.0", "Hue delta in degrees.", .tensor = true},
    {"saturation", DALIC_ARG_FLOAT, "1.0", "Saturation multiplier.", .tensor = true},
    {"value", DALIC_ARG_FLOAT, "1.0", "Value multiplier.", .tensor = true},
    {"dtype", DALIC_ARG_DTYPE, "UINT8", "Output type (UINT8 unless given)."},
    {0},
};

static const dalic_kernel_t kernel = {.setup = hsv_setup, .run_sample = hsv_run_sample};

DALIC_OPERATOR(Hsv) = {
    .name = "Hsv",
    .fn = "hsv",
    .doc = "Adjusts hue, saturation and value of RGB images (a linear transform in RGB).",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
