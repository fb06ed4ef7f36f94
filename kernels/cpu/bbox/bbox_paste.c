/*
 * bbox_paste (DALI's BBoxPaste): moves boxes in relative coordinates along with their image
 * when it is pasted on a canvas `ratio` times larger at (paste_x, paste_y) (0: left / top,
 * 1: right / bottom): corners x' = x / ratio + paste_x·(ratio − 1)/ratio, extents (xywh) w' =
 * w / ratio. As DALI, the offset is lowered (float steps) until offset + 1/ratio <= 1, so boxes
 * in [0, 1] stay there. DALI computes NaN and infinite boxes from a ratio <= 0 or NaN
 * arguments; dalic refuses them.
 */
#include "engine/kernel.h"
#include "kernels/common/bbox.h"

#include <math.h>

/* DALI's offset: px·(ratio − 1)/ratio, kept so that scale + offset <= 1. */
static float bbox_paste_offset(float p, float ratio, float scale)
{
	float ofs = p * ((ratio - 1) / ratio);
	if (scale + ofs > 1) {
		ofs = 1 - scale;
		while (scale + ofs > 1)
			ofs = nextafterf(ofs, -1.0f);
	}
	return ofs;
}

static int bbox_paste_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	(void)thread;
	double r, px, py;
	int rc = dalic_arg_float_at(ctx, ws, "ratio", i, &r);
	if (!rc)
		rc = dalic_arg_float_at(ctx, ws, "paste_x", i, &px);
	if (!rc)
		rc = dalic_arg_float_at(ctx, ws, "paste_y", i, &py);
	if (rc)
		return rc;
	if (!(r > 0) || !isfinite(r) || !isfinite(px) || !isfinite(py))
		return dalic_op_fail(
		    ctx, ws, i,
		    "ratio %g, paste_x %g, paste_y %g: the ratio must be a positive "
		    "number (at least 1) and the positions finite",
		    r, px, py);
	const float ratio = (float)r, scale = 1 / ratio;
	const float ofs[2] = {bbox_paste_offset((float)px, ratio, scale),
	                      bbox_paste_offset((float)py, ratio, scale)};
	const bool ltrb = dalic_arg_bool(ctx, "ltrb");
	const float *src = ws->inputs[0]->ptrs[i];
	float *dst = ws->outputs[0]->ptrs[i];
	int64_t n = dalic_batch_sample_elems(ws->inputs[0], i);
	for (int64_t b = 0; b + 4 <= n; b += 4)
		for (int d = 0; d < 2; d++) {
			dst[b + d] = src[b + d] * scale + ofs[d];
			dst[b + 2 + d] =
			    ltrb ? src[b + 2 + d] * scale + ofs[d] : src[b + 2 + d] * scale;
		}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"ratio", DALIC_ARG_FLOAT, NULL, "Ratio of the canvas size to the input size (>= 1).",
     .tensor = true},
    {"ltrb", DALIC_ARG_BOOL, "False", "True for [l, t, r, b] boxes, False for [x, y, w, h]."},
    {"paste_x", DALIC_ARG_FLOAT, "0.5", "Horizontal position of the paste (0.0 - 1.0).",
     .tensor = true},
    {"paste_y", DALIC_ARG_FLOAT, "0.5", "Vertical position of the paste (0.0 - 1.0).",
     .tensor = true},
    {0},
};

static const dalic_kernel_t kernel = {
    .setup = dalic_bbox_setup_like_input,
    .run_sample = bbox_paste_run_sample,
};

DALIC_OPERATOR(BBoxPaste) = {
    .name = "BBoxPaste",
    .fn = "bbox_paste",
    .doc = "Transforms bounding boxes so they stay on their image when it is pasted on a "
           "larger canvas.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU,
    .args = args,
    .cpu = &kernel,
};
