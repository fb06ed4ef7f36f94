/*
 * experimental.readers.video (DALI's experimental__readers__Video, VideoReaderDecoder): video
 * files decoded with libavcodec into sequences of `sequence_length` frames, as DALI's CPU
 * variant: a sequence where start + stride * sequence_length fits, a padded tail per video
 * when pad_mode is not 'none' (constant fill_value frames, edge, reflect_1001, reflect_101),
 * uniform_sample (one sample per video, frames spread evenly), file_list ranges in frames or
 * seconds with DALI 2.4's rounding, outputs video [, labels][, frame_num][, timestamps].
 * Where DALI's wheel lacks a decoder (H.264, MPEG-4 on the CPU) and skips the file, dalic
 * decodes it; a file that cannot be opened or decoded is an error naming it, not a skip.
 * YCbCr output works (DALI 2.4's CPU variant fails converting it).
 */
#include "engine/kernel.h"
#include "kernels/common/video_reader_op.h"

static int video_experimental_outputs_for(const dalic_opdef_t *def)
{
	return dalic_video_reader_outputs(def, false);
}

static int video_experimental_init(dalic_op_ctx_t *ctx)
{
	return dalic_video_reader_init(ctx, ctx->state, false);
}

static int video_experimental_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	return dalic_video_reader_setup(ctx, ws, ctx->state, ws->outputs[0]);
}

static int video_experimental_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                         int thread)
{
	return dalic_video_reader_run_sample(ctx, ws, ctx->state, ws->outputs[0], i, thread);
}

static int video_experimental_meta(dalic_op_ctx_t *ctx, dalic_reader_meta_t *out)
{
	return dalic_video_reader_meta(ctx, ctx->state, out);
}

static int video_experimental_reset(dalic_op_ctx_t *ctx)
{
	return dalic_video_reader_reset(ctx->state);
}

static void video_experimental_fini(dalic_op_ctx_t *ctx)
{
	dalic_video_reader_fini(ctx->state);
}

static const dalic_arg_schema_t args[] = {
	{"filenames", DALIC_ARG_STRING_LIST, "[]", "Video files to read."},
	{"file_root", DALIC_ARG_STRING, "''",
	 "Directory with one subdirectory of videos per class (label = its sorted position)."},
	{"file_list", DALIC_ARG_STRING, "''", "Text file of 'path label [start [end]]' lines."},
	{"file_list_format", DALIC_ARG_STRING, "'timestamps'",
	 "file_list start/end in 'timestamps' (seconds) or 'frames'."},
	{"file_list_rounding", DALIC_ARG_STRING, "'start_down_end_up'",
	 "start_down_end_up, start_up_end_down, all_up or all_down."},
	{"file_list_include_end", DALIC_ARG_BOOL, "True",
	 "Clamp a file_list end past the video to its last frame."},
	{"labels", DALIC_ARG_INT_LIST, "None", "Labels of `filenames` (then a label output)."},
	{"sequence_length", DALIC_ARG_INT, NULL, "Frames per sequence."},
	{"stride", DALIC_ARG_INT, "1", "Distance between the frames of a sequence."},
	{"step", DALIC_ARG_INT, "-1",
	 "Frames between the starts of consecutive sequences (< 0: sequence_length * stride)."},
	{"uniform_sample", DALIC_ARG_BOOL, "False",
	 "One sample per video: sequence_length frames spread evenly over it."},
	{"pad_mode", DALIC_ARG_STRING, "'none'",
	 "Padding of a video's last, shorter sequence: none (dropped), constant, edge, "
	 "reflect_1001, reflect_101.",
	 .tensor = true},
	{"fill_value", DALIC_ARG_INT_LIST, "[0]", "Value(s) of constant padding frames, [0, 255]."},
	{"enable_frame_num", DALIC_ARG_STRING, "'none'",
	 "'scalar' (or True): the first frame's number; 'sequence': every frame's (-1 padding)."},
	{"enable_timestamps", DALIC_ARG_BOOL, "False", "Also output each frame's time (s)."},
	{"image_type", DALIC_ARG_IMAGE_TYPE, "RGB", "Colour space of the frames: RGB or YCbCr."},
	VIDEO_READER_LOADER_ARGS,
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(video_reader_t),
	.init = video_experimental_init,
	.setup = video_experimental_setup,
	.run_sample = video_experimental_run_sample,
	.fini = video_experimental_fini,
	.reader_meta = video_experimental_meta,
	.reset = video_experimental_reset,
};

DALIC_OPERATOR(experimental__readers__Video) = {
	.name = "experimental__readers__Video",
	.fn = "experimental.readers.video",
	.module = "nvidia.dali.fn.experimental.readers",
	.doc = "Reads sequences of frames (FHWC uint8) from video files with libavcodec, with "
	       "labels, frame numbers and timestamps.",
	.min_inputs = 0,
	.max_inputs = 0,
	.num_outputs = 1,
	.outputs_for = video_experimental_outputs_for,
	.devices = DALIC_DEV_CPU | DALIC_DEV_GPU,
	.random = true,
	.is_reader = true,
	.args = args,
	.cpu = &kernel,
};
