/*
 * brightness (DALI's Brightness): out = brightness_shift * range + brightness * in, range
 * being 1 for float outputs and the type's maximum for integers; DALI's BrightnessContrast
 * with contrast 1 (kernels/common/color.c). uint8, int16, int32 or float in and out.
 */
#include "engine/kernel.h"
#include "kernels/common/color.h"

static int brightness_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_color_bc_setup(ctx, ws, dalic_color_dtype_arg(ctx));
}

static int brightness_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	float brightness, shift;
	int rc;
	if ((rc = dalic_color_arg(ctx, ws, "brightness", i, &brightness)) ||
	    (rc = dalic_color_arg(ctx, ws, "brightness_shift", i, &shift)))
		return rc;
	return dalic_color_bc_run_sample(ctx, ws, i, brightness, shift, 1, false);
}

static const dalic_arg_schema_t args[] = {
    {"brightness", DALIC_ARG_FLOAT, "1.0", "Brightness multiplier.", .tensor = true},
    {"brightness_shift", DALIC_ARG_FLOAT, "0.0",
     "Added after scaling, in units of the output type's range.", .tensor = true},
    {"dtype", DALIC_ARG_DTYPE, "None", "Output type; the input's when not set."},
    {0},
};

static const dalic_kernel_t kernel = {.setup = brightness_setup,
                                      .run_sample = brightness_run_sample};

DALIC_OPERATOR(Brightness) = {
    .name = "Brightness",
    .fn = "brightness",
    .doc = "Adjusts brightness: brightness_shift * range + brightness * in.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
