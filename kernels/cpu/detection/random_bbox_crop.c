/*
 * random_bbox_crop (DALI's RandomBBoxCrop): a prospective crop window for 2-D or 3-D boxes,
 * and the boxes that remain in it, remapped to the window. Outputs: anchor and shape of the
 * window (float [ndim]: relative, or absolute with crop_shape), the kept boxes (float [k,
 * 2*ndim], in bbox_layout), their labels when a labels input is given, and their indices when
 * output_bbox_indices is set.
 *
 * The search is DALI 2.4's (bbox_crop.cc), with the draws of its sample generator in order
 * (libstdc++'s distributions on Philox):
 *   until a window is accepted (or total_num_attempts attempts are used):
 *     pick an option: one of `thresholds`, or "no crop" when allow_no_crop (uniform_int);
 *     "no crop": the whole input, every box; done;
 *     num_attempts times: a window (random extents in `scaling` fixed up to an aspect ratio
 *       when its range is a single value, the dimensions shuffled for that; or the fixed
 *       crop_shape), kept when its overlap metric (IoU, or the boxes' fraction inside with
 *       threshold_type "overlap"; the minimum over the boxes, or the maximum when not
 *       all_boxes_above_threshold) beats the best so far or reaches the threshold;
 *       accepted when it reaches the threshold and keeps at least one box (a sample
 *       without boxes accepts its first window);
 *   no window accepted: the best one.
 * Boxes are kept when their centroid is in the window, or with bbox_prune_threshold when
 * the fraction of their area inside is nonzero and at least the threshold.
 *
 * DALI would search forever when no window can be accepted and total_num_attempts is not
 * given; dalic stops after RBC_MAX_ATTEMPTS attempts with an error. Falling back to the best
 * window warns as DALI does (the pipeline's warnings log; `quiet` silences it).
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/graphdef.h"
#include "engine/kernel.h"
#include "kernels/common/rbc_search.h"

#include <stdlib.h>
#include <string.h>

static int random_bbox_crop_outputs_for(const dalic_opdef_t *def)
{
	const dalic_value_t *idx = dalic_graphdef_op_arg(def, "output_bbox_indices");
	bool with_idx = idx && idx->kind != DALIC_V_NONE && dalic_value_get_i(idx, 0);
	return 3 + (def->num_regular_inputs > 1) + with_idx;
}

static int random_bbox_crop_init(dalic_op_ctx_t *ctx)
{
	return dalic_rbc_init(ctx, ctx->state);
}

static void random_bbox_crop_fini(dalic_op_ctx_t *ctx)
{
	dalic_rbc_fini(ctx->state);
}

static int random_bbox_crop_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	rbc_t *r = ctx->state;
	DALIC_TRY(dalic_rbc_search_batch(ctx, ws, r));
	int n = ws->batch_size, nd = r->ndim, out = 0;
	for (int o = 0; o < 2; o++) { /* anchor, shape */
		DALIC_TRY(dalic_batch_set_meta(ws->outputs[out], n, DALIC_FLOAT, 1));
		for (int i = 0; i < n; i++)
			dalic_batch_shape_mut(ws->outputs[out], i)[0] = nd;
		out++;
	}
	DALIC_TRY(dalic_batch_set_meta(ws->outputs[out], n, DALIC_FLOAT, 2));
	for (int i = 0; i < n; i++) {
		dalic_batch_shape_mut(ws->outputs[out], i)[0] = r->results[i].num_kept;
		dalic_batch_shape_mut(ws->outputs[out], i)[1] = 2 * nd;
	}
	out++;
	if (ws->num_inputs > 1) {
		const dalic_batch_t *labels = ws->inputs[1];
		dalic_batch_t *lo = ws->outputs[out++];
		DALIC_TRY(dalic_batch_set_meta(lo, n, DALIC_INT32, labels->ndim));
		dalic_batch_set_layout(lo, labels->layout);
		for (int i = 0; i < n; i++) {
			int64_t *sh = dalic_batch_shape_mut(lo, i);
			memcpy(sh, dalic_batch_shape(labels, i), sizeof *sh * (size_t)labels->ndim);
			sh[0] = r->results[i].num_kept;
		}
	}
	if (dalic_arg_bool(ctx, "output_bbox_indices")) {
		dalic_batch_t *io = ws->outputs[out++];
		DALIC_TRY(dalic_batch_set_meta(io, n, DALIC_INT32, 1));
		for (int i = 0; i < n; i++)
			dalic_batch_shape_mut(io, i)[0] = r->results[i].num_kept;
	}
	return DALIC_OK;
}

static int random_bbox_crop_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
				       int thread)
{
	const rbc_t *r = ctx->state;
	const rbc_result_t *res = &r->results[i];
	int nd = r->ndim, out = 0;
	float *anchor = ws->outputs[out++]->ptrs[i], *shape = ws->outputs[out++]->ptrs[i];
	for (int d = 0; d < nd; d++) {
		anchor[d] = res->crop.lo[d];
		shape[d] = res->crop.hi[d] - res->crop.lo[d];
	}
	dalic_rbc_write_boxes(r, i, ws->inputs[0]->ptrs[i], ws->outputs[out++]->ptrs[i]);
	if (ws->num_inputs > 1) {
		const dalic_batch_t *labels = ws->inputs[1];
		int64_t stride = 1;
		for (int d = 1; d < labels->ndim; d++)
			stride *= dalic_batch_shape(labels, i)[d];
		const int32_t *src = labels->ptrs[i];
		int32_t *dst = ws->outputs[out++]->ptrs[i];
		for (int64_t k = 0; k < res->num_kept; k++)
			memcpy(dst + k * stride, src + (int64_t)r->kept[res->first_kept + k] * stride,
			       sizeof *dst * (size_t)stride);
	}
	if (dalic_arg_bool(ctx, "output_bbox_indices")) {
		int32_t *idx = ws->outputs[out++]->ptrs[i];
		for (int64_t k = 0; k < res->num_kept; k++)
			idx[k] = r->kept[res->first_kept + k];
	}
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"all_boxes_above_threshold", DALIC_ARG_BOOL, "True",
     "All boxes must overlap the window as `thresholds` says (else at least one)."},
    {"allow_no_crop", DALIC_ARG_BOOL, "True",
     "Not cropping is one more possible outcome, as if it were one more threshold."},
    {"aspect_ratio", DALIC_ARG_FLOAT_LIST, "[1.0, 1.0]",
     "Valid aspect ratio range(s) of the windows: [min, max] (x/y), or three ranges for 3-D "
     "(x/y, x/z, y/z)."},
    {"bbox_layout", DALIC_ARG_LAYOUT, "None",
     "Meaning of the box coordinates: a permutation of xyXY / xyWH (xyzXYZ / xyzWHD in 3-D)."},
    {"bbox_prune_threshold", DALIC_ARG_FLOAT, "None",
     "Keep boxes whose area fraction inside the window is at least this (else: centroid "
     "inside)."},
    {"crop_shape", DALIC_ARG_INT_LIST, "None", "Fixed window shape (with input_shape).",
     .tensor = true},
    {"input_shape", DALIC_ARG_INT_LIST, "None", "Shape of the input image (with crop_shape).",
     .tensor = true},
    {"ltrb", DALIC_ARG_BOOL, "True", "Deprecated: boxes as ltrb (True) or ltwh (False)."},
    {"num_attempts", DALIC_ARG_INT, "1", "Attempts per picked threshold."},
    {"output_bbox_indices", DALIC_ARG_BOOL, "False",
     "Add an output with the indices of the kept boxes."},
    {"quiet", DALIC_ARG_BOOL, "False",
     "Suppress the warning when the best window is used."},
    {"scaling", DALIC_ARG_FLOAT_LIST, "[1.0, 1.0]",
     "Range [min, max] of the window's extents relative to the input."},
    {"shape_layout", DALIC_ARG_LAYOUT, "None",
     "Meaning of crop_shape and input_shape: a permutation of WH / WHD."},
    {"threshold_type", DALIC_ARG_STRING, "'iou'", "Meaning of thresholds: 'iou' or 'overlap'."},
    {"thresholds", DALIC_ARG_FLOAT_LIST, "[0.0]", "Minimum overlap metrics to pick from."},
    {"total_num_attempts", DALIC_ARG_INT, "-1",
     "Total attempts before the best window is taken (-1: until one is accepted)."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(rbc_t),
    .init = random_bbox_crop_init,
    .setup = random_bbox_crop_setup,
    .run_sample = random_bbox_crop_run_sample,
    .fini = random_bbox_crop_fini,
};

DALIC_OPERATOR(RandomBBoxCrop) = {
    .name = "RandomBBoxCrop",
    .fn = "random_bbox_crop",
    .doc = "Applies a prospective random crop to an image coordinate space while keeping the "
	   "bounding boxes, and optionally labels, consistent.",
    .min_inputs = 1,
    .max_inputs = 2,
    .num_outputs = 3,
    .outputs_for = random_bbox_crop_outputs_for,
    .devices = DALIC_DEV_CPU,
    .random = true,
    .args = args,
    .cpu = &kernel,
};
