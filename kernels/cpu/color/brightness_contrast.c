/*
 * brightness_contrast (DALI's BrightnessContrast): one multiply-add per value,
 *   out = brightness_shift * range + brightness * (center + contrast * (in - center)),
 * range being 1 for float outputs and the type's maximum for integers (255, 32767, 2^31-1),
 * center `contrast_center` or, when not set, half the input type's positive range (0.5, 128,
 * 16384, 2^30). Any number of channels; uint8, int16, int32 or float in and out (`dtype`, else
 * the input's); integers round half away from zero and saturate (kernels/common/color.c).
 */
#include "engine/kernel.h"
#include "kernels/common/color.h"

static int brightness_contrast_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_color_bc_setup(ctx, ws, dalic_color_dtype_arg(ctx));
}

static int brightness_contrast_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                          int thread)
{
	float brightness, shift, contrast;
	int rc;
	if ((rc = dalic_color_arg(ctx, ws, "brightness", i, &brightness)) ||
	    (rc = dalic_color_arg(ctx, ws, "brightness_shift", i, &shift)) ||
	    (rc = dalic_color_arg(ctx, ws, "contrast", i, &contrast)))
		return rc;
	bool center =
	    dalic_arg_given(ctx, "contrast_center") || dalic_arg_input(ws, "contrast_center");
	return dalic_color_bc_run_sample(ctx, ws, i, brightness, shift, contrast, center);
}

static const dalic_arg_schema_t args[] = {
    {"brightness", DALIC_ARG_FLOAT, "1.0", "Brightness multiplier.", .tensor = true},
    {"brightness_shift", DALIC_ARG_FLOAT, "0.0",
     "Added after scaling, in units of the output type's range.", .tensor = true},
    {"contrast", DALIC_ARG_FLOAT, "1.0", "Contrast multiplier (0: uniform grey).", .tensor = true},
    {"contrast_center", DALIC_ARG_FLOAT, "0.5",
     "The level contrast keeps; half the input type's range when not set.", .tensor = true},
    {"dtype", DALIC_ARG_DTYPE, "None", "Output type; the input's when not set."},
    {0},
};

static const dalic_kernel_t kernel = {.setup = brightness_contrast_setup,
                                      .run_sample = brightness_contrast_run_sample};

DALIC_OPERATOR(BrightnessContrast) = {
    .name = "BrightnessContrast",
    .fn = "brightness_contrast",
    .doc = "Adjusts brightness and contrast: shift * range + b * (c0 + c * (in - c0)).",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
