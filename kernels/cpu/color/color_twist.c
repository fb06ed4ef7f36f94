/*
 * color_twist (DALI's ColorTwist): hue, saturation, contrast and brightness of RGB images in
 * one linear transform per sample (kernels/common/color.c): brightness and contrast scale the
 * whole matrix, and the offset (half - half * contrast) * brightness keeps the grey level
 * (0.5 for float inputs, 128 for integers) where contrast pivots. Output type: `dtype`, else
 * the input's.
 */
#include "engine/kernel.h"
#include "kernels/common/color.h"

static int color_twist_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_color_twist_setup(ctx, ws, dalic_color_dtype_arg(ctx));
}

static int color_twist_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	float hue, saturation, contrast, brightness;
	int rc;
	if ((rc = dalic_color_arg(ctx, ws, "hue", i, &hue)) ||
	    (rc = dalic_color_arg(ctx, ws, "saturation", i, &saturation)) ||
	    (rc = dalic_color_arg(ctx, ws, "contrast", i, &contrast)) ||
	    (rc = dalic_color_arg(ctx, ws, "brightness", i, &brightness)))
		return rc;
	return dalic_color_twist_run_sample(ctx, ws, i, hue, saturation, 1, brightness, contrast);
}

static const dalic_arg_schema_t args[] = {
    {"hue", DALIC_ARG_FLOAT, "0.0", "Hue change in degrees.", .tensor = true},
    {"saturation", DALIC_ARG_FLOAT, "1.0", "Saturation factor (0: grey).", .tensor = true},
    {"contrast", DALIC_ARG_FLOAT, "1.0", "Contrast factor (0: uniform grey).", .tensor = true},
    {"brightness", DALIC_ARG_FLOAT, "1.0", "Brightness factor (0: black).", .tensor = true},
    {"image_type", DALIC_ARG_IMAGE_TYPE, "RGB", "Colour space of input and output."},
    {"dtype", DALIC_ARG_DTYPE, "None", "Output type; the input's when not set."},
    {0},
};

static const dalic_kernel_t kernel = {.setup = color_twist_setup,
                                      .run_sample = color_twist_run_sample};

DALIC_OPERATOR(ColorTwist) = {
    .name = "ColorTwist",
    .fn = "color_twist",
    .doc = "Adjusts hue, saturation, contrast and brightness of RGB images.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
