/*
 * readers.video (DALI's readers__Video / VideoReader): sequences of `sequence_length` frames
 * from video files, decoded with libavcodec. DALI decodes with NVDEC and registers the
 * operator for the GPU only; dalic runs it on the CPU (emulated, as every gpu operator here),
 * with the legacy reader's rules: sequences whose last frame exists, pad_sequences tails,
 * labels from `labels`, `file_root` or `file_list`, frame numbers and timestamps only with
 * `file_list` or labelled `filenames`, the variable-frame-rate check, UINT8 or FLOAT output.
 * The body is kernels/common/video_reader_op.c.
 */
#include "engine/kernel.h"
#include "kernels/common/video_reader_op.h"

static int video_outputs_for(const dalic_opdef_t *def)
{
	return dalic_video_reader_outputs(def, true);
}

static int video_init(dalic_op_ctx_t *ctx)
{
	return dalic_video_reader_init(ctx, ctx->state, true);
}

static int video_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_video_reader_setup(ctx, ws, ctx->state, ws->outputs[0]);
}

static int video_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	return dalic_video_reader_run_sample(ctx, ws, ctx->state, ws->outputs[0], i, thread);
}

static int video_meta(dalic_op_ctx_t *ctx, dalic_reader_meta_t *out)
{
	return dalic_video_reader_meta(ctx, ctx->state, out);
}

static int video_reset(dalic_op_ctx_t *ctx)
{
	return dalic_video_reader_reset(ctx->state);
}

static void video_fini(dalic_op_ctx_t *ctx)
{
	dalic_video_reader_fini(ctx->state);
}

static const dalic_arg_schema_t args[] = {
	VIDEO_READER_LEGACY_ARGS,
	VIDEO_READER_LOADER_ARGS,
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(video_reader_t),
	.init = video_init,
	.setup = video_setup,
	.run_sample = video_run_sample,
	.fini = video_fini,
	.reader_meta = video_meta,
	.reset = video_reset,
};

DALIC_OPERATOR(readers__Video) = {
	.name = "readers__Video",
	.fn = "readers.video",
	.aliases = {"VideoReader"},
	.module = "nvidia.dali.fn.readers",
	.doc = "Reads sequences of frames (FHWC) from video files, with labels, frame numbers and "
	       "timestamps. A GPU operator in DALI (NVDEC), decoded on the CPU here.",
	.min_inputs = 0,
	.max_inputs = 0,
	.num_outputs = 1,
	.outputs_for = video_outputs_for,
	.devices = DALIC_DEV_GPU,
	.random = true,
	.is_reader = true,
	.args = args,
	.cpu = &kernel,
};
