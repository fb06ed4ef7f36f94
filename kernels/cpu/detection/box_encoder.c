/*
 * box_encoder (DALI's BoxEncoder): SSD's matching of ground-truth boxes [N, 4] (ltrb) and
 * labels [N] (int32) to a fixed set of anchors (ltrb, the `anchors` list). Each box first
 * claims the anchor it overlaps most (IoU; the last of equal maxima); then every anchor takes
 * the box it overlaps most (a claimed anchor counts as IoU 2), if that IoU is above `criteria`.
 * Output 0: per anchor [cx, cy, w, h] of its box, or of the anchor itself when unmatched; with
 * `offset`, SSD's normalized offsets ((c_box − c_anchor)/w_anchor − mean)/std and
 * (log(w_box/w_anchor) − mean)/std after scaling both by `scale`, and zeros when unmatched.
 * Output 1: per anchor the box's label, 0 when unmatched. Arithmetic in float as DALI.
 */
#include "engine/checked.h"
#include "engine/kernel.h"
#include "kernels/common/bbox.h"
#include "kernels/common/img_scratch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct box_encoder {
	float *anchors; /* ltrb */
	int num_anchors;
	float criteria, scale, means[4], stds[4];
	bool offset;
	img_scratch_t *scratch; /* per worker thread: each box's best anchor */
	int num_threads;
} box_encoder_t;

static void box_encoder_fini(dalic_op_ctx_t *ctx);

/* Exactly 4 finite or not values of a list argument into v. */
static int box_encoder_four(dalic_op_ctx_t *ctx, const char *name, float v[4])
{
	const dalic_value_t *a = dalic_arg(ctx, name);
	if (a->n != 4)
		return dalic_op_fail(ctx, NULL, -1, "%s size must be a list of 4 values.", name);
	for (int k = 0; k < 4; k++)
		v[k] = (float)dalic_value_get_f(a, k);
	return DALIC_OK;
}

static int box_encoder_init_state(dalic_op_ctx_t *ctx)
{
	box_encoder_t *e = ctx->state;
	e->criteria = (float)dalic_arg_float(ctx, "criteria");
	if (!(e->criteria >= 0))
		return dalic_op_fail(ctx, NULL, -1, "Expected criteria >= 0, actual value = %f",
		                     (double)e->criteria);
	if (!(e->criteria <= 1))
		return dalic_op_fail(ctx, NULL, -1, "Expected criteria <= 1, actual value = %f",
		                     (double)e->criteria);
	e->offset = dalic_arg_bool(ctx, "offset");
	e->scale = (float)dalic_arg_float(ctx, "scale");
	const dalic_value_t *a = dalic_arg(ctx, "anchors");
	if (a->n % 4)
		return dalic_op_fail(
		    ctx, NULL, -1, "Anchors size must be divisible by 4, actual value = %d", a->n);
	e->num_anchors = a->n / 4;
	e->anchors = malloc(sizeof(float) * (size_t)(a->n ? a->n : 1));
	if (!e->anchors)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	for (int k = 0; k < a->n; k++)
		e->anchors[k] = (float)dalic_value_get_f(a, k);
	int rc = box_encoder_four(ctx, "means", e->means);
	if (!rc)
		rc = box_encoder_four(ctx, "stds", e->stds);
	if (rc)
		return rc;
	for (int k = 0; k < 4; k++)
		if (e->stds[k] == 0)
			return dalic_op_fail(ctx, NULL, -1, "stds values must be != 0.");
	e->num_threads = ctx->num_threads + 1;
	e->scratch = calloc((size_t)e->num_threads, sizeof *e->scratch);
	return e->scratch ? DALIC_OK : dalic_op_fail(ctx, NULL, -1, "out of memory");
}

/* The engine calls fini only after a successful init: a failing init cleans up itself. */
static int box_encoder_init(dalic_op_ctx_t *ctx)
{
	int rc = box_encoder_init_state(ctx);
	if (rc)
		box_encoder_fini(ctx);
	return rc;
}

static int box_encoder_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const box_encoder_t *e = ctx->state;
	const dalic_batch_t *boxes = ws->inputs[0], *labels = ws->inputs[1];
	int rc = dalic_bbox_check(ctx, ws, boxes);
	if (rc)
		return rc;
	if (labels->dtype != DALIC_INT32)
		return dalic_op_fail(ctx, ws, -1, "labels must be int32, got %s",
		                     dalic_dtype_name(labels->dtype));
	for (int i = 0; i < ws->batch_size; i++) {
		const int64_t *s = dalic_batch_shape(boxes, i);
		if (boxes->ndim != 2 || s[1] != 4)
			return dalic_op_fail(
			    ctx, ws, i,
			    "boxes must be a [N, 4] tensor (N boxes as l, t, r, b), got "
			    "%d-D",
			    boxes->ndim);
		if (dalic_batch_sample_elems(labels, i) != s[0])
			return dalic_op_fail(ctx, ws, i, "%lld boxes but %lld labels",
			                     (long long)s[0],
			                     (long long)dalic_batch_sample_elems(labels, i));
	}
	dalic_batch_t *ob = ws->outputs[0], *ol = ws->outputs[1];
	if ((rc = dalic_batch_set_meta(ob, ws->batch_size, DALIC_FLOAT, 2)) ||
	    (rc = dalic_batch_set_meta(ol, ws->batch_size, DALIC_INT32, 1)))
		return rc;
	dalic_batch_set_layout(ob, "");
	dalic_batch_set_layout(ol, "");
	for (int i = 0; i < ws->batch_size; i++) {
		dalic_batch_set_shape(ob, i, (int64_t[]){e->num_anchors, 4});
		dalic_batch_set_shape(ol, i, (int64_t[]){e->num_anchors});
		ob->sources[i] = ol->sources[i] = boxes->sources[i];
	}
	return DALIC_OK;
}

/* std::max / std::min, NaN included */
static float box_encoder_max(float a, float b)
{
	return a < b ? b : a;
}

static float box_encoder_min(float a, float b)
{
	return b < a ? b : a;
}

/* DALI's intersection_over_union of two ltrb boxes, in float. */
static float box_encoder_iou(const float *a, const float *b)
{
	float l = box_encoder_max(a[0], b[0]), t = box_encoder_max(a[1], b[1]);
	float r = box_encoder_min(a[2], b[2]), btm = box_encoder_min(a[3], b[3]);
	if (!(r > l && btm > t))
		return 0;
	float inter = (r - l) * (btm - t);
	if (inter == 0)
		return 0;
	float va = (a[2] - a[0]) * (a[3] - a[1]), vb = (b[2] - b[0]) * (b[3] - b[1]);
	return inter / (va + vb - inter);
}

/* Centre and extent of an ltrb box: 0.5·(hi + lo), hi − lo. */
static void box_encoder_cwh(const float *b, float out[4])
{
	out[0] = 0.5f * (b[2] + b[0]);
	out[1] = 0.5f * (b[3] + b[1]);
	out[2] = b[2] - b[0];
	out[3] = b[3] - b[1];
}

static void box_encoder_write(const box_encoder_t *e, const float *box, const float *anchor,
                              float *out)
{
	float b[4], a[4];
	box_encoder_cwh(box, b);
	if (!e->offset) {
		memcpy(out, b, sizeof b);
		return;
	}
	box_encoder_cwh(anchor, a);
	for (int k = 0; k < 4; k++) {
		b[k] *= e->scale;
		a[k] *= e->scale;
	}
	for (int d = 0; d < 2; d++) {
		out[d] = ((b[d] - a[d]) / a[2 + d] - e->means[d]) / e->stds[d];
		out[2 + d] = (logf(b[2 + d] / a[2 + d]) - e->means[2 + d]) / e->stds[2 + d];
	}
}

static int box_encoder_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	box_encoder_t *e = ctx->state;
	const float *boxes = ws->inputs[0]->ptrs[i];
	const int32_t *labels = ws->inputs[1]->ptrs[i];
	float *out = ws->outputs[0]->ptrs[i];
	int32_t *out_labels = ws->outputs[1]->ptrs[i];
	const int64_t nb = dalic_batch_shape(ws->inputs[0], i)[0];
	const int na = e->num_anchors;
	for (int a = 0; a < na; a++) {
		out_labels[a] = 0;
		if (e->offset)
			memset(out + 4 * a, 0, 4 * sizeof *out);
		else
			box_encoder_cwh(e->anchors + 4 * a, out + 4 * a);
	}
	if (nb == 0 || na == 0)
		return DALIC_OK;
	if (thread < 0 || thread >= e->num_threads)
		return dalic_op_fail(ctx, ws, i, "worker thread %d outside the %d expected", thread,
		                     e->num_threads);
	size_t bytes;
	if (!dalic_ck_mul_size((size_t)nb, sizeof(int), &bytes))
		return dalic_op_fail(ctx, ws, i, "%lld boxes: too many", (long long)nb);
	int *claimed = dalic_img_scratch_get(&e->scratch[thread], bytes);
	if (!claimed)
		return dalic_op_fail(ctx, ws, i, "%s", dalic_last_error());
	/* each box claims its best anchor (the last of equal maxima) */
	for (int64_t b = 0; b < nb; b++) {
		float best = box_encoder_iou(boxes + 4 * b, e->anchors);
		claimed[b] = 0;
		for (int a = 1; a < na; a++) {
			float v = box_encoder_iou(boxes + 4 * b, e->anchors + 4 * a);
			if (v >= best) {
				best = v;
				claimed[b] = a;
			}
		}
	}
	/* each anchor takes its best box, a claim counting as IoU 2 */
	for (int a = 0; a < na; a++) {
		const float *anchor = e->anchors + 4 * a;
		int64_t best_box = 0;
		float best = claimed[0] == a ? 2.0f : box_encoder_iou(boxes, anchor);
		for (int64_t b = 1; b < nb; b++) {
			float v = claimed[b] == a ? 2.0f : box_encoder_iou(boxes + 4 * b, anchor);
			if (v >= best) {
				best = v;
				best_box = b;
			}
		}
		if (best > e->criteria) {
			box_encoder_write(e, boxes + 4 * best_box, anchor, out + 4 * a);
			out_labels[a] = labels[best_box];
		}
	}
	return DALIC_OK;
}

static void box_encoder_fini(dalic_op_ctx_t *ctx)
{
	box_encoder_t *e = ctx->state;
	for (int t = 0; e->scratch && t < e->num_threads; t++)
		dalic_img_scratch_free(&e->scratch[t]);
	free(e->scratch);
	free(e->anchors);
}

static const dalic_arg_schema_t args[] = {
    {"anchors", DALIC_ARG_FLOAT_LIST, NULL, "Anchors as a flat list of ltrb boxes."},
    {"criteria", DALIC_ARG_FLOAT, "0.5", "IoU threshold for matching boxes with anchors."},
    {"offset", DALIC_ARG_BOOL, "False", "Output normalized offsets instead of boxes."},
    {"scale", DALIC_ARG_FLOAT, "1.0", "Scale of boxes and anchors before offsets."},
    {"means", DALIC_ARG_FLOAT_LIST, "[0.0, 0.0, 0.0, 0.0]", "[x y w h] means of offsets."},
    {"stds", DALIC_ARG_FLOAT_LIST, "[1.0, 1.0, 1.0, 1.0]", "[x y w h] stds of offsets."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(box_encoder_t),
    .init = box_encoder_init,
    .setup = box_encoder_setup,
    .run_sample = box_encoder_run_sample,
    .fini = box_encoder_fini,
};

DALIC_OPERATOR(BoxEncoder) = {
    .name = "BoxEncoder",
    .fn = "box_encoder",
    .doc = "Encodes boxes and labels against a set of anchors (SSD): per anchor its matched "
           "box (center, size or offsets) and label.",
    .min_inputs = 2,
    .max_inputs = 2,
    .num_outputs = 2,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = args,
    .cpu = &kernel,
};
