/*
 * readers.video_resize (DALI's readers__VideoResize / VideoReaderResize): readers.video
 * (the legacy reader, kernels/common/video_reader_op.c) with every sequence resized as
 * fn.resize resizes an FHWC sample: resize_x / resize_y, size, resize_shorter /
 * resize_longer, mode, max_size, roi_*, subpixel_scale, and the interp_type / min_filter /
 * mag_filter / antialias filters (kernels/common/img_resize_op.c). As in DALI the output
 * keeps the decoded type (`dtype`: UINT8, or FLOAT with `normalized`), layout FHWC; the
 * label, frame number and timestamp outputs are the reader's. DALI registers it for the GPU
 * only (NVDEC and its GPU resize); dalic decodes and resizes on the CPU (emulated device).
 * The decoded sequences live in a batch of this operator's own between decoding and
 * resizing, sample by sample on the worker threads.
 */
#include "engine/kernel.h"
#include "kernels/common/img_resize_op.h"
#include "kernels/common/video_reader_op.h"

typedef struct video_resize {
	video_reader_t reader;
	img_resize_op_t resize;
	dalic_batch_t frames; /* the decoded sequences */
	const dalic_batch_t *frames_in[1];
	bool resize_ready;
} video_resize_t;

static int video_resize_outputs_for(const dalic_opdef_t *def)
{
	return dalic_video_reader_outputs(def, true);
}

static int video_resize_init(dalic_op_ctx_t *ctx)
{
	video_resize_t *v = ctx->state;
	dalic_batch_init(&v->frames, DALIC_MEM_HOST, false, NULL);
	v->frames_in[0] = &v->frames;
	DALIC_TRY(dalic_video_reader_init(ctx, &v->reader, true));
	int rc = dalic_img_resize_op_init(ctx, &v->resize);
	if (rc) {
		dalic_video_reader_fini(&v->reader);
		dalic_batch_free(&v->frames);
		return rc;
	}
	v->resize_ready = true;
	return DALIC_OK;
}

/* The workspace the resize sees: the decoded sequences in, the operator's output 0 out. */
static dalic_ws_t video_resize_ws(video_resize_t *v, const dalic_ws_t *ws)
{
	dalic_ws_t sub = *ws;
	sub.num_inputs = 1;
	sub.inputs = v->frames_in;
	return sub;
}

static int video_resize_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	video_resize_t *v = ctx->state;
	DALIC_TRY(dalic_video_reader_setup(ctx, ws, &v->reader, &v->frames));
	int rc = dalic_batch_alloc(&v->frames);
	if (rc)
		return dalic_op_fail(ctx, ws, -1, "decoded sequences: %s", dalic_last_error());
	dalic_ws_t sub = video_resize_ws(v, ws);
	return dalic_img_resize_op_setup(ctx, &sub, &v->resize, NULL);
}

static int video_resize_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	video_resize_t *v = ctx->state;
	DALIC_TRY(dalic_video_reader_run_sample(ctx, ws, &v->reader, &v->frames, i, thread));
	dalic_ws_t sub = video_resize_ws(v, ws);
	return dalic_img_resize_op_run_sample(ctx, &sub, &v->resize, i, thread);
}

static int video_resize_meta(dalic_op_ctx_t *ctx, dalic_reader_meta_t *out)
{
	video_resize_t *v = ctx->state;
	return dalic_video_reader_meta(ctx, &v->reader, out);
}

static int video_resize_reset(dalic_op_ctx_t *ctx)
{
	video_resize_t *v = ctx->state;
	return dalic_video_reader_reset(&v->reader);
}

static void video_resize_fini(dalic_op_ctx_t *ctx)
{
	video_resize_t *v = ctx->state;
	dalic_video_reader_fini(&v->reader);
	if (v->resize_ready)
		dalic_img_resize_op_fini(&v->resize);
	dalic_batch_free(&v->frames);
}

static const dalic_arg_schema_t args[] = {
    VIDEO_READER_LEGACY_ARGS,           VIDEO_READER_LOADER_ARGS,   IMG_RESIZE_ARGS,
    IMG_RESAMPLING_FILTER_ARGS("True"), IMG_RESAMPLING_BUFFER_ARGS, {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(video_resize_t),
    .init = video_resize_init,
    .setup = video_resize_setup,
    .run_sample = video_resize_run_sample,
    .fini = video_resize_fini,
    .reader_meta = video_resize_meta,
    .reset = video_resize_reset,
};

DALIC_OPERATOR(readers__VideoResize) = {
    .name = "readers__VideoResize",
    .fn = "readers.video_resize",
    .aliases = {"VideoReaderResize"},
    .module = "nvidia.dali.fn.readers",
    .doc = "readers.video with every sequence resized as fn.resize does (sizes, modes, "
           "filters). A GPU operator in DALI, decoded and resized on the CPU here.",
    .min_inputs = 0,
    .max_inputs = 0,
    .num_outputs = 1,
    .outputs_for = video_resize_outputs_for,
    .devices = DALIC_DEV_GPU,
    .random = true,
    .is_reader = true,
    .args = args,
    .cpu = &kernel,
};
