/*
 * experimental.inputs.video (DALI's experimental__inputs__Video): an input operator fed one
 * encoded video at a time (feed_input, or `--feed NAME=PATH`) that streams it out as
 * batches of FHWC uint8 RGB sequences over several iterations, as DALI's VideoInput does.
 * One video of N frames gives N / (sequence_length * max_batch_size) full batches of full
 * sequences, then, if frames remain, one partial batch: its full sequences and a last,
 * shorter one — cut short with last_sequence_policy 'partial', filled with zero frames to
 * sequence_length with 'pad'. The next iteration starts the next fed video.
 *
 * The split happens when the video is fed (engine/feed.h, the schema's feed_split): the
 * video is opened and indexed then, so the executor knows how many iterations — and which
 * batch sizes — it holds before scheduling them, and a feed that is not a video fails at
 * once with DALI's words. Each queued iteration is an INT64 descriptor per sequence
 * (the video's serial, first frame, frames decoded, frames output, last-of-video); the kernel
 * keeps one decoder open on the video across its iterations and decodes forward. In DALI the
 * operator is "mixed" (the GPU decoder) and also CPU; dalic runs the CPU code for both.
 */
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/feed.h"
#include "engine/graphdef.h"
#include "engine/kernel.h"
#include "kernels/common/video_decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { INPUT_VIDEO_DESC = 5 }; /* serial, first frame, decoded, output, last of the video */

typedef struct input_video {
	bool pad;
	video_dec_t dec;
	video_index_t ix;
	bool open;
	uint64_t serial;    /* the video dec reads */
	const char *source; /* its name when fed with one (the queue keeps it) */
} input_video_t;

/* "partial" -> false, "pad" -> true; -1 otherwise. */
static int input_video_policy(const char *s)
{
	if (s && !strcmp(s, "partial"))
		return 0;
	if (s && !strcmp(s, "pad"))
		return 1;
	return -1;
}

static void input_video_close(input_video_t *v)
{
	if (v->open) {
		dalic_video_close(&v->dec);
		dalic_video_index_free(&v->ix);
		v->open = false;
	}
}

static int input_video_init(dalic_op_ctx_t *ctx)
{
	input_video_t *v = ctx->state;
	const char *policy = dalic_arg_string(ctx, "last_sequence_policy");
	int pad = input_video_policy(policy);
	if (pad < 0)
		return dalic_op_fail(ctx, NULL, -1,
		                     "Provided `last_sequence_policy` is not supported: %s",
		                     policy ? policy : "None");
	if (dalic_arg_int(ctx, "sequence_length") <= 0)
		return dalic_op_fail(ctx, NULL, -1, "sequence_length must be positive, got %lld",
		                     (long long)dalic_arg_int(ctx, "sequence_length"));
	v->pad = pad;
	return DALIC_OK;
}

static void input_video_fini(dalic_op_ctx_t *ctx)
{
	input_video_close(ctx->state);
}

/* Opens `data` and indexes its frames; errors in DALI's words, libav's reason appended. */
static int input_video_open(video_dec_t *d, video_index_t *ix, const uint8_t *data, size_t n,
                            char *err, size_t errn)
{
	char why[768];
	if (dalic_video_open(d, NULL, data, n, "fed video", why, sizeof why)) {
		snprintf(err, errn, "Failed to create video decoder for provided video data (%s)",
		         why);
		return -1;
	}
	if (dalic_video_build_index(d, ix, why, sizeof why)) {
		dalic_video_close(d);
		snprintf(err, errn, "Failed to create video decoder for provided video data (%s)",
		         why);
		return -1;
	}
	return 0;
}

/* DALI's DetermineBatchOutline: full batches of full sequences, then one batch with the
 * remaining full sequences and the last (partial or padded) one. Queues a descriptor batch
 * per iteration. */
static int input_video_split(dalic_feed_queue_t *q, const dalic_opdef_t *def, int max_batch,
                             uint64_t serial, const uint8_t *data, size_t n, int *iterations)
{
	*iterations = 0;
	const dalic_value_t *len_v = dalic_graphdef_op_arg(def, "sequence_length");
	const dalic_value_t *pol_v = dalic_graphdef_op_arg(def, "last_sequence_policy");
	int64_t seq = len_v && len_v->kind != DALIC_V_NONE ? dalic_value_get_i(len_v, 0) : 0;
	bool pad = pol_v && pol_v->kind == DALIC_V_STRING && pol_v->n > 0 &&
	           input_video_policy(pol_v->s[0]) == 1;
	if (seq <= 0 || max_batch <= 0)
		return dalic_fail(DALIC_EINVAL,
		                  "experimental.inputs.video '%s': sequence_length "
		                  "must be positive",
		                  q->name);
	video_dec_t d;
	video_index_t ix;
	char err[1024];
	if (input_video_open(&d, &ix, data, n, err, sizeof err))
		return dalic_fail(DALIC_EOP, "experimental.inputs.video '%s': %s", q->name, err);
	int64_t frames = ix.n;
	dalic_video_index_free(&ix);
	dalic_video_close(&d);
	int64_t per_batch = seq * max_batch;
	int64_t full = frames / per_batch, rest = frames % per_batch;
	int64_t last_seqs = rest / seq, last_frames = rest % seq;
	int64_t batches = full + (rest > 0);
	int64_t desc[INPUT_VIDEO_DESC * 1024], shapes[1024];
	if (max_batch > 1024)
		return dalic_fail(DALIC_EINVAL,
		                  "experimental.inputs.video '%s': batch size %d: at "
		                  "most 1024",
		                  q->name, max_batch);
	int64_t first = 0;
	for (int64_t b = 0; b < batches; b++) {
		int count = b < full ? max_batch : (int)(last_seqs + (last_frames > 0));
		for (int s = 0; s < count; s++) {
			int64_t decoded = b == full && s == last_seqs ? last_frames : seq;
			int64_t *e = desc + (size_t)s * INPUT_VIDEO_DESC;
			e[0] = (int64_t)serial;
			e[1] = first;
			e[2] = decoded;
			e[3] = pad ? seq : decoded;
			e[4] = b == batches - 1;
			shapes[s] = INPUT_VIDEO_DESC;
			first += decoded;
		}
		int rc = dalic_feed_queue_push_plain(q, DALIC_INT64, 1, count, shapes, desc, NULL,
		                                     NULL);
		if (rc)
			return rc;
		++*iterations;
	}
	return DALIC_OK;
}

static int input_video_front(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const dalic_batch_t **in)
{
	dalic_feed_queue_t *q = ctx->engine;
	int rc = dalic_feed_queue_front(q, ws->iteration, false, in);
	if (rc == DALIC_ESTATE) /* DALI's words for an empty queue */
		return dalic_op_fail(ctx, ws, -1,
		                     "No data was provided to the InputOperator. Make "
		                     "sure to feed it properly.");
	if (!rc && ((*in)->dtype != DALIC_INT64 || (*in)->ndim != 1))
		return dalic_op_fail(ctx, ws, -1, "the queue holds no video descriptor");
	return rc;
}

static int input_video_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	input_video_t *v = ctx->state;
	const dalic_batch_t *in;
	DALIC_TRY(input_video_front(ctx, ws, &in));
	const int64_t *e0 = in->ptrs[0];
	if (!v->open || v->serial != (uint64_t)e0[0]) {
		input_video_close(v);
		const uint8_t *data;
		size_t n;
		char err[1024];
		DALIC_TRY(dalic_feed_queue_blob(ctx->engine, (uint64_t)e0[0], &data, &n,
		                                &v->source));
		if (input_video_open(&v->dec, &v->ix, data, n, err, sizeof err))
			return dalic_op_fail(ctx, ws, -1, "%s", err);
		v->open = true;
		v->serial = (uint64_t)e0[0];
	}
	dalic_batch_t *out = ws->outputs[0];
	DALIC_TRY(dalic_batch_set_meta(out, in->num_samples, DALIC_UINT8, 4));
	dalic_batch_set_layout(out, "FHWC");
	for (int i = 0; i < in->num_samples; i++) {
		int64_t *shape = dalic_batch_shape_mut(out, i);
		shape[0] = ((const int64_t *)in->ptrs[i])[3];
		shape[1] = v->ix.height;
		shape[2] = v->ix.width;
		shape[3] = 3;
		out->sources[i] = v->source;
	}
	return DALIC_OK;
}

/* Sequences in order from one decoder: frames are read forward, never sought back. */
static int input_video_run(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	input_video_t *v = ctx->state;
	const dalic_batch_t *in;
	DALIC_TRY(input_video_front(ctx, ws, &in));
	dalic_batch_t *out = ws->outputs[0];
	size_t frame_bytes = (size_t)v->ix.width * (size_t)v->ix.height * 3;
	bool last = false;
	for (int i = 0; i < in->num_samples; i++) {
		const int64_t *e = in->ptrs[i];
		uint8_t *dst = out->ptrs[i];
		char err[1024];
		for (int64_t f = 0; f < e[2]; f++)
			if (dalic_video_read(&v->dec, (int)(e[1] + f), DALIC_VIDEO_RGB,
			                     dst + (size_t)f * frame_bytes, err, sizeof err))
				return dalic_op_fail(ctx, ws, i, "%s", err);
		if (e[3] > e[2]) /* 'pad': zero frames */
			memset(dst + (size_t)e[2] * frame_bytes, 0,
			       (size_t)(e[3] - e[2]) * frame_bytes);
		last = e[4] != 0;
	}
	if (last) /* the video's last iteration: its bytes go with the pop */
		input_video_close(v);
	dalic_feed_queue_pop(ctx->engine);
	return DALIC_OK;
}

static const dalic_arg_schema_t args[] = {
    {"sequence_length", DALIC_ARG_INT, NULL, "Number of frames in each sequence."},
    {"last_sequence_policy", DALIC_ARG_STRING, "'partial'",
     "The video's last sequence when its frames run out: 'partial' (fewer frames) or 'pad' "
     "(zero frames up to sequence_length)."},
    {"affine", DALIC_ARG_BOOL, "True", "Accepted (mixed backend thread affinity)."},
    {"blocking", DALIC_ARG_BOOL, "False", "Wait for data instead of failing when none is fed."},
    {"no_copy", DALIC_ARG_BOOL, "False", "Use the caller's buffers without copying."},
    {0},
};

static const dalic_kernel_t kernel = {
    .state_size = sizeof(input_video_t),
    .init = input_video_init,
    .setup = input_video_setup,
    .run = input_video_run,
    .fini = input_video_fini,
};

DALIC_OPERATOR(experimental__inputs__Video) = {
    .name = "experimental__inputs__Video",
    .fn = "experimental.inputs.video",
    .module = "nvidia.dali.fn.experimental.inputs",
    .doc = "Streams one fed encoded video (feed_input / --feed) as batches of FHWC uint8 "
           "sequences over several iterations; the last batch of a video is partial.",
    .min_inputs = 0,
    .max_inputs = 0,
    .num_outputs = 1,
    .devices = DALIC_DEV_CPU | DALIC_DEV_MIXED,
    .is_input = true,
    .feed_split = input_video_split,
    .args = args,
    .cpu = &kernel,
};
