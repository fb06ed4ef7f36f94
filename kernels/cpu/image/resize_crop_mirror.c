/*
 * resize_crop_mirror (DALI's ResizeCropMirror) and its legacy name FastResizeCropMirror (a
 * schema of its own, antialias off by default): resize, then crop, then flip, done as one
 * resampling. The resize rules plan the resized extents and the source window
 * (img_resize_op.c); the crop window (crop or crop_w / crop_h, crop_pos_*, rounding) is taken
 * on the resized extents and projected back onto the source window in double, as DALI does:
 * src = window · (src_extent / resized) + src_lo, stored as float; `mirror` bits swap the
 * window's ends. The bit of spatial dim d is 1 << (1 − (first spatial dim + d)), as DALI
 * computes it: in HWC 1 flips W and 2 flips H, but with dims before H (CHW, FHWC) 1 flips H
 * and W cannot be flipped (measured on DALI 2.4). A window past the resized image samples
 * the replicated edge.
 */
#include "engine/kernel.h"
#include "kernels/common/img_resize_op.h"
#include "kernels/common/img_window.h"

#include <string.h>

static int rcm_init(dalic_op_ctx_t *ctx)
{
	const char *r = dalic_arg_string(ctx, "rounding");
	if (!r || (strcmp(r, "round") && strcmp(r, "truncate")))
		return dalic_op_fail(ctx, NULL, -1,
		                     "``rounding`` value %s is not supported. Supported values are "
		                     "\"round\", or \"truncate\".",
		                     r ? r : "None");
	return dalic_img_resize_op_init(ctx, ctx->state);
}

/* The layout the crop window reads, named by rank when the input has none. */
static const char *rcm_layout(const dalic_batch_t *in)
{
	static const char *const by_rank[5] = {"", "", "HW", "HWC", "FHWC"};
	return *in->layout ? in->layout : by_rank[in->ndim < 5 ? in->ndim : 0];
}

/* The crop window on the resized extents, projected back onto the source window. */
static int rcm_adjust(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, const img_resize_op_t *r,
                      const int64_t *shape, img_resize_plan_t *plan)
{
	const dalic_batch_t *in = ws->inputs[0];
	int64_t resized[DALIC_MAX_NDIM];
	memcpy(resized, shape, sizeof(int64_t) * (size_t)in->ndim);
	resized[r->h_dim] = plan->out[0];
	resized[r->h_dim + 1] = plan->out[1];
	img_window_t w;
	int rc = dalic_img_window_for_sample(ctx, ws, i, rcm_layout(in), in->ndim, resized,
	                                     IMG_OOB_PAD, &w);
	double m;
	if (!rc)
		rc = dalic_arg_float_at(ctx, ws, "mirror", i, &m);
	if (rc)
		return rc;
	const int mirror = (int)m;
	for (int d = 0; d < 2; d++) {
		const int ds = r->h_dim + d, bit = 1 - ds;
		const double lo = (float)plan->lo[d], hi = (float)plan->hi[d];
		const double ratio = (hi - lo) / plan->out[d];
		const double crop_lo = (double)w.anchor[ds],
		             crop_hi = crop_lo + (double)w.shape[ds];
		plan->lo[d] = (float)(crop_lo * ratio + lo);
		plan->hi[d] = (float)(crop_hi * ratio + lo);
		if (bit >= 0 && (mirror >> bit) & 1) {
			double t = plan->lo[d];
			plan->lo[d] = plan->hi[d];
			plan->hi[d] = t;
		}
		if (w.shape[ds] > INT32_MAX)
			return dalic_op_fail(ctx, ws, i, "crop extent %lld is too large",
			                     (long long)w.shape[ds]);
		plan->out[d] = (int)w.shape[ds];
	}
	return DALIC_OK;
}

static int rcm_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_img_resize_op_setup(ctx, ws, ctx->state, rcm_adjust);
}

static int rcm_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	return dalic_img_resize_op_run_sample(ctx, ws, ctx->state, i, thread);
}

static void rcm_fini(dalic_op_ctx_t *ctx)
{
	dalic_img_resize_op_fini(ctx->state);
}

/* The arguments both schemas share, all but antialias. */
#define RCM_ARGS                                                                                   \
	IMG_RESIZE_ARGS, IMG_CROP_WINDOW_BASE_ARGS,                                                \
	{                                                                                          \
		"mirror", DALIC_ARG_INT, "0", "Flip mask: 1 horizontal, 2 vertical (see the top).",  \
		    .tensor = true                                                                 \
	}

static const dalic_arg_schema_t rcm_args[] = {
    RCM_ARGS,
    IMG_RESAMPLING_ARGS,
    {0},
};

static const dalic_arg_schema_t fast_rcm_args[] = {
    RCM_ARGS,
    IMG_RESAMPLING_ARGS_AA("False"),
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(img_resize_op_t),
    .init = rcm_init,
    .setup = rcm_setup,
    .run_sample = rcm_run_sample,
    .fini = rcm_fini,
};

DALIC_OPERATOR(ResizeCropMirror) = {
    .name = "ResizeCropMirror",
    .fn = "resize_crop_mirror",
    .doc = "Resizes, crops and flips images in one resampling (as resize, crop, flip).",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = rcm_args,
    .cpu = &kernel,
};

DALIC_OPERATOR(FastResizeCropMirror) = {
    .name = "FastResizeCropMirror",
    .fn = "fast_resize_crop_mirror",
    .doc = "Legacy alias of resize_crop_mirror with antialiasing off by default.",
    .min_inputs = 1,
    .max_inputs = 1,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
    .args = fast_rcm_args,
    .cpu = &kernel,
};
