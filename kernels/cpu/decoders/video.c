/*
 * decoders.video (DALI's decoders__Video; experimental.decoders.video is its deprecated
 * alias): encoded videos in memory (1-D uint8, e.g. readers.file's output) to frames
 * (F, H, W, 3) "FHWC" uint8 RGB, as DALI's VideoDecoderBase: every frame, or `frames`, or
 * `start_frame` / `stride` with `sequence_length` or `end_frame` (per sample), positions past
 * the video padded per pad_mode (default 'constant' with fill_value; 'none' shortens the
 * sequence instead). "mixed" runs this CPU code through the emulated device. The videos are
 * opened and indexed in setup (the frame count decides the shape) and decoded per sample in
 * parallel; a file that is not a video, or a damaged one, fails naming the sample's source.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "kernels/common/arg_check.h"
#include "kernels/common/img_resize_attr.h"
#include "kernels/common/video_frames.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct video_decoder_sample {
	video_dec_t dec;
	video_index_t ix;
	bool open;
	char name[64]; /* "sample N" when the input has no source */
	int32_t *src;  /* frame per position */
	int n, cap;
} video_decoder_sample_t;

typedef struct video_decoder_thread {
	img_scratch_t order, frame;
} video_decoder_thread_t;

typedef struct video_decoder {
	video_pad_t pad;
	uint8_t fill[16];
	int nfill;
	video_decoder_sample_t *s;
	video_decoder_thread_t *t;
	int num_threads, max_batch;
} video_decoder_t;

static void video_decoder_close(video_decoder_sample_t *s)
{
	if (s->open) {
		dalic_video_close(&s->dec);
		dalic_video_index_free(&s->ix);
		s->open = false;
	}
}

static void video_decoder_fini(dalic_op_ctx_t *ctx)
{
	video_decoder_t *v = ctx->state;
	for (int i = 0; v->s && i < v->max_batch; i++) {
		video_decoder_close(&v->s[i]);
		free(v->s[i].src);
	}
	for (int t = 0; v->t && t < v->num_threads; t++) {
		dalic_img_scratch_free(&v->t[t].order);
		dalic_img_scratch_free(&v->t[t].frame);
	}
	free(v->s);
	free(v->t);
}

static int video_decoder_init_state(dalic_op_ctx_t *ctx, video_decoder_t *v)
{
	const char *pad = dalic_arg_string(ctx, "pad_mode");
	if (dalic_video_pad_parse(pad, &v->pad))
		return dalic_op_fail(ctx, NULL, -1,
		                     "Invalid pad_mode: %s. Valid options are: none, constant, edge, "
		                     "reflect_1001, reflect_101",
		                     pad ? pad : "None");
	const dalic_value_t *fill = dalic_arg(ctx, "fill_value");
	v->nfill = fill->kind == DALIC_V_NONE ? 0 : fill->n;
	if (v->nfill > (int)sizeof v->fill)
		return dalic_op_fail(ctx, NULL, -1, "fill_value has %d values; at most %d", v->nfill,
		                     (int)sizeof v->fill);
	for (int i = 0; i < v->nfill; i++) {
		if (v->pad == VIDEO_PAD_CONSTANT && (fill->i[i] < 0 || fill->i[i] > 255))
			return dalic_op_fail(ctx, NULL, -1, "fill_value must be in range [0, 255]");
		v->fill[i] = (uint8_t)fill->i[i];
	}
	if (dalic_arg_given(ctx, "frames") &&
	    (dalic_arg_given(ctx, "start_frame") || dalic_arg_given(ctx, "stride") ||
	     dalic_arg_given(ctx, "sequence_length") || dalic_arg_given(ctx, "end_frame")))
		return dalic_op_fail(ctx, NULL, -1,
		                     "Cannot specify both `frames` and any of `start_frame`, "
		                     "`sequence_length`, `stride`, `end_frame` arguments");
	if (dalic_arg_given(ctx, "sequence_length") && dalic_arg_given(ctx, "end_frame"))
		return dalic_op_fail(ctx, NULL, -1,
		                     "Cannot specify both `sequence_length` and `end_frame` arguments");
	v->max_batch = ctx->max_batch_size;
	v->num_threads = ctx->num_threads > 0 ? ctx->num_threads : 1;
	v->s = calloc((size_t)v->max_batch, sizeof *v->s);
	v->t = calloc((size_t)v->num_threads, sizeof *v->t);
	if (!v->s || !v->t)
		return dalic_op_fail(ctx, NULL, -1, "out of memory");
	return DALIC_OK;
}

/* The engine calls fini only after a successful init: a failing init cleans up itself. */
static int video_decoder_init(dalic_op_ctx_t *ctx)
{
	int rc = video_decoder_init_state(ctx, ctx->state);
	if (rc)
		video_decoder_fini(ctx);
	return rc;
}

/* Integer argument `name` of sample i (scalar or per sample), or `def` when absent. */
static int video_decoder_int(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, const char *name,
                             int64_t def, int64_t lo, int64_t *out)
{
	*out = def;
	if (!dalic_img_arg_present(ctx, ws, name))
		return DALIC_OK;
	double v;
	DALIC_TRY(dalic_arg_float_at(ctx, ws, name, i, &v));
	DALIC_TRY(dalic_argck_range(ctx, ws, i, name, v, (double)lo, INT32_MAX));
	return dalic_argck_to_i64(ctx, ws, i, name, v, out);
}

static int video_decoder_reserve(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                 video_decoder_sample_t *s, int64_t n)
{
	if (n > (1 << 24))
		return dalic_op_fail(ctx, ws, i, "%lld frames in one sample: at most %d", (long long)n,
		                     1 << 24);
	if (n > s->cap) {
		int32_t *p = realloc(s->src, sizeof(int32_t) * (size_t)(n ? n : 1));
		if (!p)
			return dalic_op_fail(ctx, ws, i, "out of memory");
		s->src = p;
		s->cap = (int)n;
	}
	s->n = (int)n;
	return DALIC_OK;
}

/* Positions of `frames`, given as a list or per sample. */
static int video_decoder_frames_list(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                     video_decoder_sample_t *s)
{
	const dalic_batch_t *in = dalic_arg_input(ws, "frames");
	const dalic_value_t *list = dalic_arg(ctx, "frames");
	int64_t n = in ? dalic_batch_sample_elems(in, i) : list->n;
	DALIC_TRY(video_decoder_reserve(ctx, ws, i, s, n));
	for (int64_t k = 0; k < n; k++) {
		double f = in ? dalic_dtype_load_f64(in->dtype, in->ptrs[i], k) : (double)list->i[k];
		int64_t fi;
		DALIC_TRY(dalic_argck_range(ctx, ws, i, "frames", f, INT32_MIN, INT32_MAX));
		DALIC_TRY(dalic_argck_to_i64(ctx, ws, i, "frames", f, &fi));
		s->src[k] = (int32_t)fi;
	}
	return DALIC_OK;
}

/* Sample i's positions (DALI's GetSequenceLength), mapped by the pad mode. */
static int video_decoder_plan(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, video_decoder_t *v,
                              int i)
{
	video_decoder_sample_t *s = &v->s[i];
	int total = s->ix.n;
	if (dalic_img_arg_present(ctx, ws, "frames")) {
		DALIC_TRY(video_decoder_frames_list(ctx, ws, i, s));
	} else {
		int64_t start, stride, len, end;
		DALIC_TRY(video_decoder_int(ctx, ws, i, "start_frame", 0, INT32_MIN, &start));
		DALIC_TRY(video_decoder_int(ctx, ws, i, "stride", 1, 1, &stride));
		if (start >= total)
			return dalic_op_fail(ctx, ws, i,
			                     "Start frame %lld is out of bounds for sample #%d, expected "
			                     "range [0, %d)",
			                     (long long)start, i, total);
		int64_t avail = total - start > 0 ? total - start : 0;
		avail = (avail + stride - 1) / stride;
		if (dalic_img_arg_present(ctx, ws, "sequence_length")) {
			DALIC_TRY(video_decoder_int(ctx, ws, i, "sequence_length", 0, 1, &len));
			if (v->pad == VIDEO_PAD_NONE && len > avail)
				len = avail;
		} else if (dalic_img_arg_present(ctx, ws, "end_frame")) {
			DALIC_TRY(video_decoder_int(ctx, ws, i, "end_frame", 0, INT32_MIN, &end));
			if (v->pad == VIDEO_PAD_NONE && end > total)
				end = total;
			if (end <= start)
				return dalic_op_fail(ctx, ws, i,
				                     "end_frame (%lld) must be greater than start_frame "
				                     "(%lld), for sample #%d",
				                     (long long)end, (long long)start, i);
			len = (end - start + stride - 1) / stride;
		} else {
			len = avail;
		}
		DALIC_TRY(video_decoder_reserve(ctx, ws, i, s, len));
		for (int64_t k = 0; k < len; k++)
			s->src[k] = (int32_t)(start + k * stride);
	}
	for (int k = 0; k < s->n; k++) {
		int f = dalic_video_boundary(v->pad, s->src[k], 0, total);
		if (f == -2)
			return dalic_op_fail(ctx, ws, i,
			                     "Unexpected out-of-bounds frame index %d for pad_mode = 'none' "
			                     "and a sample containing a ROI with %d frames. Range of valid "
			                     "frame indices for this sample is [0, %d). Change `pad_mode` "
			                     "to other than 'none' for out-of-bounds sampling.",
			                     s->src[k], total, total);
		s->src[k] = f;
	}
	return DALIC_OK;
}

static int video_decoder_open(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, video_decoder_sample_t *s,
                              int i)
{
	const dalic_batch_t *in = ws->inputs[0];
	int64_t bytes = dalic_batch_sample_elems(in, i);
	if (bytes <= 0)
		return dalic_op_fail(ctx, ws, i,
		                     "Incorrect sample at position: %d. Video decoder does not support "
		                     "empty input samples.",
		                     i);
	const char *source = dalic_batch_source(in, i);
	if (source && *source)
		snprintf(s->name, sizeof s->name, "%s", source);
	else
		snprintf(s->name, sizeof s->name, "sample %d", i);
	char err[1024];
	if (dalic_video_open(&s->dec, NULL, in->ptrs[i], (size_t)bytes, s->name, err, sizeof err))
		return dalic_op_fail(ctx, ws, i, "Failed to create video decoder for \"%s\": %s",
		                     s->name, err);
	if (dalic_video_build_index(&s->dec, &s->ix, err, sizeof err)) {
		dalic_video_close(&s->dec);
		return dalic_op_fail(ctx, ws, i, "Failed to create video decoder for \"%s\": %s",
		                     s->name, err);
	}
	s->open = true;
	return DALIC_OK;
}

static int video_decoder_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	video_decoder_t *v = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	if (dalic_arg_input(ws, "pad_mode"))
		return dalic_op_fail(ctx, ws, -1, "pad_mode per sample is not supported: give one "
		                     "string");
	if (in->dtype != DALIC_UINT8)
		return dalic_op_fail(ctx, ws, -1, "Type of the input buffer must be uint8.");
	if (in->ndim != 1)
		return dalic_op_fail(ctx, ws, -1, "Input buffer must be 1-dimensional.");
	if (v->pad == VIDEO_PAD_CONSTANT && v->nfill != 1 && v->nfill != 3)
		return dalic_op_fail(ctx, ws, -1,
		                     "Fill value size must be 1 or equal to the number of channels. Got "
		                     "%d with num_channels=3",
		                     v->nfill);
	dalic_batch_t *out = ws->outputs[0];
	DALIC_TRY(dalic_batch_set_meta(out, ws->batch_size, DALIC_UINT8, 4));
	dalic_batch_set_layout(out, "FHWC");
	for (int i = 0; i < ws->batch_size; i++) {
		video_decoder_sample_t *s = &v->s[i];
		video_decoder_close(s);
		DALIC_TRY(video_decoder_open(ctx, ws, s, i));
		DALIC_TRY(video_decoder_plan(ctx, ws, v, i));
		int64_t *shape = dalic_batch_shape_mut(out, i);
		shape[0] = s->n;
		shape[1] = s->ix.height;
		shape[2] = s->ix.width;
		shape[3] = 3;
	}
	return DALIC_OK;
}

static int video_decoder_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	video_decoder_t *v = ctx->state;
	video_decoder_sample_t *s = &v->s[i];
	if (thread < 0 || thread >= v->num_threads)
		return dalic_op_fail(ctx, ws, i, "worker %d outside the %d the decoder was built for",
		                     thread, v->num_threads);
	bool constant = v->pad == VIDEO_PAD_CONSTANT;
	video_frames_job_t job = {
	    .src = s->src,
	    .n = s->n,
	    .pixels = (size_t)s->ix.width * (size_t)s->ix.height,
	    .image_type = DALIC_VIDEO_RGB,
	    .fill = constant ? v->fill : NULL,
	    .nfill = constant ? v->nfill : 0,
	};
	char err[1024];
	int rc = dalic_video_decode_frames(&s->dec, &job, ws->outputs[0]->ptrs[i], &v->t[thread].order,
	                                   &v->t[thread].frame, err, sizeof err);
	video_decoder_close(s);
	return rc ? dalic_op_fail(ctx, ws, i, "%s", err) : DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
	{"start_frame", DALIC_ARG_INT, "None", "First frame (default 0).", .tensor = true},
	{"stride", DALIC_ARG_INT, "None", "Distance between frames (default 1).", .tensor = true},
	{"sequence_length", DALIC_ARG_INT, "None",
	 "Frames per sample; positions past the video are padded (or dropped with 'none').",
	 .tensor = true},
	{"end_frame", DALIC_ARG_INT, "None", "End of the range [start_frame, end_frame).",
	 .tensor = true},
	{"frames", DALIC_ARG_INT_LIST, "None", "Exact frames to decode, in this order.",
	 .tensor = true},
	{"pad_mode", DALIC_ARG_STRING, "'constant'",
	 "Positions past the video: constant (fill_value), edge / repeat, reflect_1001 / "
	 "symmetric, reflect_101 / reflect, or none (a shorter sequence).",
	 .tensor = true},
	{"fill_value", DALIC_ARG_INT_LIST, "[0]", "Value(s) of constant padding frames, [0, 255]."},
	{"build_index", DALIC_ARG_BOOL, "True",
	 "Accepted; dalic always indexes the frames (exact frame counts and seeking)."},
	{"affine", DALIC_ARG_BOOL, "True", "Accepted (mixed backend thread affinity)."},
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(video_decoder_t),
	.init = video_decoder_init,
	.setup = video_decoder_setup,
	.run_sample = video_decoder_run_sample,
	.fini = video_decoder_fini,
};

DALIC_OPERATOR(decoders__Video) = {
	.name = "decoders__Video",
	.fn = "decoders.video",
	.aliases = {"experimental__decoders__Video", "experimental.decoders.video"},
	.module = "nvidia.dali.fn.decoders",
	.doc = "Decodes videos in memory (1-D uint8) into frames (FHWC uint8 RGB) with "
	       "libavcodec: all, a range with stride, a sequence length or a list of frames.",
	.min_inputs = 1,
	.max_inputs = 1,
	.num_outputs = 1,
	.devices = DALIC_DEV_CPU | DALIC_DEV_MIXED,
	.args = args,
	.cpu = &kernel,
};
