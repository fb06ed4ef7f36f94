/*
 * contrast (DALI's Contrast): out = center + contrast * (in - center), center being
 * `contrast_center` or, when not set, half the input type's positive range (0.5 for floats,
 * 128 for uint8); DALI's BrightnessContrast with brightness 1 (kernels/common/color.c).
 * uint8, int16, int32 or float in and out.
 */
#include "engine/kernel.h"
#include "kernels/common/color.h"

static int contrast_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_color_bc_setup(ctx, ws, dalic_color_dtype_arg(ctx));
}

static int contrast_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	float contrast;
	int rc = dalic_color_arg(ctx, ws, "contrast", i, &contrast);
	if (rc)
		return rc;
	bool center =
	    dalic_arg_given(ctx, "contrast_center") || dalic_arg_input(ws, "contrast_center");
	return dalic_color_bc_run_sample(ctx, ws, i, 1, 0, contrast, center);
}

static const dalic_arg_schema_t args[] = {
    {"contrast", DALIC_ARG_FLOAT, "1.0", "Contrast multiplier (0: uniform grey).", .tensor = true},
    {"contrast_center", DALIC_ARG_FLOAT, "0.5",
     "The level contrast keeps; half the input type's range when not set.", .tensor = true},
    {"dtype", DALIC_ARG_DTYPE, "None", "Output type; the input's when not set."},
    {0},
};

static const dalic_kernel_t kernel = {.setup = contrast_setup, .run_sample = contrast_run_sample};

DALIC_OPERATOR(Contrast) = {
    .name = "Contrast",
    .fn = "contrast",
    .doc = "Adjusts contrast around a center: center + contrast * (in - center).",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
