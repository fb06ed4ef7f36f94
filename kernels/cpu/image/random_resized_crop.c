/*
 * random_resized_crop (DALI's RandomResizedCrop): takes a random window of each HWC image
 * (area and aspect ratio drawn like DALI's RandomCropGenerator, img_crop_window.c) and
 * resamples it to `size` [H, W] with DALI's filters (img_resample.c). The window is the
 * resampling's source region, so nothing is copied. Windows are drawn in setup from DALI's
 * per-sample generators: the same seed gives DALI's windows.
 */
#include "engine/kernel.h"
#include "kernels/common/img_crop_window.h"
#include "kernels/common/img_resize_attr.h"

#include <stdlib.h>
#include <string.h>

typedef struct rrc {
	img_crop_params_t crop;
	int out_h, out_w;
	img_rect_t *win;
	img_filters_t *filters;
	img_resample_ws_t *threads;
	int num_threads;
} rrc_t;

static void rrc_fini(dalic_op_ctx_t *ctx);

static int rrc_init_state(dalic_op_ctx_t *ctx)
{
	rrc_t *r = ctx->state;
	int rc = dalic_img_crop_params_parse(ctx, &r->crop);
	if (rc)
		return rc;
	const dalic_value_t *size = dalic_arg(ctx, "size");
	if (size->n != 2 && size->n != 1)
		return dalic_op_fail(ctx, NULL, -1,
				     "Argument \"size\" expects either a single value or a list of 2 "
				     "elements. %d given.",
				     size->n);
	int64_t ext[2] = {dalic_value_get_i(size, 0), dalic_value_get_i(size, size->n - 1)};
	/* 0 gives empty samples, as in DALI; DALI's buffers refuse negative sizes */
	if (ext[0] < 0 || ext[1] < 0)
		return dalic_op_fail(ctx, NULL, -1,
				     "Input size less than zero not supported: `size` is [%lld, %lld]",
				     (long long)ext[0], (long long)ext[1]);
	if (ext[0] > INT32_MAX || ext[1] > INT32_MAX)
		return dalic_op_fail(ctx, NULL, -1, "`size` must be extents below 2**31, "
				     "got [%lld, %lld]", (long long)ext[0], (long long)ext[1]);
	r->out_h = (int)ext[0];
	r->out_w = (int)ext[1];
	r->win = calloc((size_t)ctx->max_batch_size, sizeof *r->win);
	r->filters = calloc((size_t)ctx->max_batch_size, sizeof *r->filters);
	r->num_threads = ctx->num_threads + 1;
	r->threads = calloc((size_t)r->num_threads, sizeof *r->threads);
	return r->win && r->filters && r->threads ? DALIC_OK
						  : dalic_op_fail(ctx, NULL, -1, "out of memory");
}

/* The engine calls fini only after a successful init: a failing init cleans up itself. */
static int rrc_init(dalic_op_ctx_t *ctx)
{
	int rc = rrc_init_state(ctx);
	if (rc)
		rrc_fini(ctx);
	return rc;
}

static int rrc_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	rrc_t *r = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	if (in->ndim != 3 || (in->layout[0] && strcmp(in->layout, "HWC")))
		return dalic_op_fail(ctx, ws, -1, "expects HWC images, got %d-D '%s'", in->ndim,
				     in->layout);
	dalic_dtype_t ot;
	int rc = dalic_img_resample_dtype(ctx, ws, in->dtype, &ot);
	if (!rc)
		rc = dalic_batch_set_meta(out, ws->batch_size, ot, 3);
	if (rc)
		return rc;
	dalic_batch_set_layout(out, "HWC");
	for (int i = 0; i < ws->batch_size; i++) {
		const int64_t *shape = dalic_batch_shape(in, i);
		if (shape[0] < 1 || shape[1] < 1)
			return dalic_op_fail(ctx, ws, i, "cannot crop an empty %lldx%lld image",
					     (long long)shape[0], (long long)shape[1]);
		if (r->out_h && r->out_w &&
		    dalic_img_resample_fits(shape[0], shape[1], shape[2], r->out_h, r->out_w))
			return dalic_op_fail(ctx, ws, i, "%s", dalic_last_error());
		rc = dalic_img_random_crop_window(ctx, ws, i, (int)shape[0], (int)shape[1], &r->crop,
						  &r->win[i]);
		if (rc || (rc = dalic_img_filters_for_sample(ctx, ws, i, &r->filters[i])))
			return rc;
		dalic_batch_set_shape(out, i, (const int64_t[]){r->out_h, r->out_w, shape[2]});
		out->sources[i] = in->sources[i];
	}
	return DALIC_OK;
}

static int rrc_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	rrc_t *r = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	dalic_batch_t *out = ws->outputs[0];
	if (thread < 0 || thread >= r->num_threads)
		return dalic_op_fail(ctx, ws, i, "worker thread %d outside the %d expected", thread,
				     r->num_threads);
	if (!r->out_h || !r->out_w)
		return DALIC_OK; /* an empty sample */
	const int64_t *shape = dalic_batch_shape(in, i);
	const img_rect_t *w = &r->win[i];
	img_resample_job_t job = {
		.in = in->ptrs[i],
		.in_type = in->dtype,
		.in_h = (int)shape[0],
		.in_w = (int)shape[1],
		.channels = (int)shape[2],
		.out = out->ptrs[i],
		.out_type = out->dtype,
		.out_h = r->out_h,
		.out_w = r->out_w,
		.y0 = w->y,
		.y1 = w->y + w->h,
		.x0 = w->x,
		.x1 = w->x + w->w,
		.filters = r->filters[i],
	};
	if (dalic_img_resample(&r->threads[thread], &job))
		return dalic_op_fail(ctx, ws, i, "resampling a %dx%d window: %s", w->h, w->w,
				     dalic_last_error());
	return DALIC_OK;
}

static void rrc_fini(dalic_op_ctx_t *ctx)
{
	rrc_t *r = ctx->state;
	for (int t = 0; r->threads && t < r->num_threads; t++)
		dalic_img_resample_ws_free(&r->threads[t]);
	free(r->threads);
	free(r->win);
	free(r->filters);
}

static const dalic_arg_schema_t args[] = {
	{"size", DALIC_ARG_INT_LIST, NULL, "Output extents [H, W] (one value: square)."},
	IMG_CROP_ARGS,
	IMG_RESAMPLING_ARGS,
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(rrc_t),
	.init = rrc_init,
	.setup = rrc_setup,
	.run_sample = rrc_run_sample,
	.fini = rrc_fini,
};

DALIC_OPERATOR(RandomResizedCrop) = {
	.name = "RandomResizedCrop",
	.fn = "random_resized_crop",
	.doc = "Crops a random window (area, aspect ratio) and resizes it to a fixed size.",
	.min_inputs = 1,
	.max_inputs = 1,
	.num_outputs = 1,
	.devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
	.random = true,
	.args = args,
	.cpu = &kernel,
};
