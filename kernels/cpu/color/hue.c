/*
 * hue (DALI's Hue): rotates the hue of RGB images by `hue` degrees, DALI's ColorTwist with
 * only the hue set (kernels/common/color.c). Output type: `dtype`, else the input's.
 */
#include "engine/kernel.h"
#include "kernels/common/color.h"

static int hue_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_color_twist_setup(ctx, ws, dalic_color_dtype_arg(ctx));
}

static int hue_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	float hue;
	int rc = dalic_color_arg(ctx, ws, "hue", i, &hue);
	return rc ? rc : dalic_color_twist_run_sample(ctx, ws, i, hue, 1, 1, 1, 1);
}

static const dalic_arg_schema_t args[] = {
    {"hue", DALIC_ARG_FLOAT, "0.0", "Hue change in degrees.", .tensor = true},
    {"image_type", DALIC_ARG_IMAGE_TYPE, "RGB", "Colour space of input and output."},
    {"dtype", DALIC_ARG_DTYPE, "None", "Output type; the input's when not set."},
    {0},
};

static const dalic_kernel_t kernel = {.setup = hue_setup, .run_sample = hue_run_sample};

DALIC_OPERATOR(Hue) = {
    .name = "Hue",
    .fn = "hue",
    .doc = "Changes the hue of RGB images.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
