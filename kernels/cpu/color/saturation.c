/*
 * saturation (DALI's Saturation): scales the saturation of RGB images (0 makes them grey),
 * DALI's ColorTwist with only the saturation set (kernels/common/color.c). Output type:
 * `dtype`, else the input's.
 */
#include "engine/kernel.h"
#include "kernels/common/color.h"

static int saturation_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_color_twist_setup(ctx, ws, dalic_color_dtype_arg(ctx));
}

static int saturation_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	float s;
	int rc = dalic_color_arg(ctx, ws, "saturation", i, &s);
	return rc ? rc : dalic_color_twist_run_sample(ctx, ws, i, 0, s, 1, 1, 1);
}

static const dalic_arg_schema_t args[] = {
    {"saturation", DALIC_ARG_FLOAT, "1.0", "Saturation factor (0: grey, 1: unchanged).",
     .tensor = true},
    {"image_type", DALIC_ARG_IMAGE_TYPE, "RGB", "Colour space of input and output."},
    {"dtype", DALIC_ARG_DTYPE, "None", "Output type; the input's when not set."},
    {0},
};

static const dalic_kernel_t kernel = {.setup = saturation_setup,
                                      .run_sample = saturation_run_sample};

DALIC_OPERATOR(Saturation) = {
    .name = "Saturation",
    .fn = "saturation",
    .doc = "Changes the saturation of RGB images.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
