/*
 * bb_flip (DALI's BbFlip): mirrors boxes in relative coordinates ([0, 1]) horizontally and/or
 * vertically, per sample. A flipped axis maps [lo, hi] to [1 − hi, 1 − lo]. As DALI, xywh
 * boxes are read as corners (hi = lo + extent) and written back (extent = hi − lo) on every
 * axis, flipped or not, in float. Coordinates are not range-checked (DALI does not either).
 */
#include "engine/kernel.h"
#include "kernels/common/bbox.h"

static int bb_flip_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	(void)thread;
	double h, v;
	int rc = dalic_arg_float_at(ctx, ws, "horizontal", i, &h);
	if (!rc)
		rc = dalic_arg_float_at(ctx, ws, "vertical", i, &v);
	if (rc)
		return rc;
	const bool flip[2] = {h != 0, v != 0}, ltrb = dalic_arg_bool(ctx, "ltrb");
	const float *src = ws->inputs[0]->ptrs[i];
	float *dst = ws->outputs[0]->ptrs[i];
	int64_t n = dalic_batch_sample_elems(ws->inputs[0], i);
	for (int64_t b = 0; b + 4 <= n; b += 4)
		for (int d = 0; d < 2; d++) {
			float lo = src[b + d], hi = src[b + 2 + d];
			if (!ltrb)
				hi += lo;
			if (flip[d]) {
				float t = 1.0f - hi;
				hi = 1.0f - lo;
				lo = t;
			}
			dst[b + d] = lo;
			dst[b + 2 + d] = ltrb ? hi : hi - lo;
		}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"ltrb", DALIC_ARG_BOOL, "False", "True for [l, t, r, b] boxes, False for [x, y, w, h]."},
    {"horizontal", DALIC_ARG_INT, "1", "Flip horizontally.", .tensor = true},
    {"vertical", DALIC_ARG_INT, "0", "Flip vertically.", .tensor = true},
    {0},
};

static const dalic_kernel_t kernel = {
    .setup = dalic_bbox_setup_like_input,
    .run_sample = bb_flip_run_sample,
};

DALIC_OPERATOR(BbFlip) = {
    .name = "BbFlip",
    .fn = "bb_flip",
    .doc = "Flips bounding boxes (relative coordinates) horizontally or vertically.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
