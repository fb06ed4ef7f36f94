/*
 * decoders.audio (DALI's decoders__Audio / AudioDecoder): encoded audio (1-D uint8, e.g. from
 * readers.file) to samples through libsndfile — WAV, FLAC, OGG Vorbis/Opus — and a second
 * output with each sample's rate in Hz (float scalar). Output [frames, channels] with the
 * channels interleaved, or [frames] when `downmix` averages them (DALI gives no layout).
 * `sample_rate` resamples with DALI's windowed sinc of `quality` (audio_resample.h); the
 * rate output is then the requested one. int16 / int32 / float output as DALI: read straight
 * through libsndfile when nothing is mixed or resampled, else read as float, processed, and
 * converted with DALI's normalizing rounding.
 * Headers are read in setup (output shapes); each sample decodes on its worker thread. A file
 * that libsndfile cannot open, or that ends early, fails naming the sample and the file.
 */
#include "engine/checked.h"
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/kernel.h"
#include "kernels/common/audio_decode.h"
#include "kernels/common/thread_scratch.h"

#include <stdlib.h>
#include <string.h>

typedef struct audio_decoder {
	dalic_dtype_t dtype;
	bool downmix, resample;
	dalic_audio_window_t window;
	dalic_thread_scratch_t scratch;
	dalic_audio_file_t **files; /* per sample, opened by setup, closed by run */
	dalic_audio_info_t *info;
	float *target;              /* per sample: the requested rate */
} audio_decoder_t;

static void audio_decoder_close_all(audio_decoder_t *d, int n)
{
	for (int i = 0; d->files && i < n; i++) {
		dalic_audio_close(d->files[i]);
		d->files[i] = NULL;
	}
}

static void audio_decoder_fini(dalic_op_ctx_t *ctx)
{
	audio_decoder_t *d = ctx->state;
	audio_decoder_close_all(d, ctx->max_batch_size);
	free(d->files);
	free(d->info);
	free(d->target);
	dalic_audio_window_free(&d->window);
	dalic_thread_scratch_free(&d->scratch);
}

static int audio_decoder_init_state(dalic_op_ctx_t *ctx, audio_decoder_t *d)
{
	d->dtype = (dalic_dtype_t)dalic_arg_int(ctx, "dtype");
	if (d->dtype != DALIC_INT16 && d->dtype != DALIC_INT32 && d->dtype != DALIC_FLOAT)
		return dalic_op_fail(ctx, NULL, -1,
		                     "Unsupported output type: %s; supported types: int16, int32, "
		                     "float",
		                     dalic_dtype_cname(d->dtype));
	d->downmix = dalic_arg_bool(ctx, "downmix");
	d->resample = dalic_arg_given(ctx, "sample_rate");
	if (d->resample) {
		double q = dalic_arg_float(ctx, "quality");
		if (!(q >= 0 && q <= 100))
			return dalic_op_fail(ctx, NULL, -1,
			                     "Resampling quality must be in [0..100] range, got %g", q);
		int lobes, coeffs;
		dalic_audio_quality_params(q, &lobes, &coeffs);
		DALIC_TRY(dalic_audio_window_init(&d->window, lobes, coeffs));
	}
	size_t n = (size_t)ctx->max_batch_size;
	d->files = calloc(n, sizeof *d->files);
	d->info = calloc(n, sizeof *d->info);
	d->target = calloc(n, sizeof *d->target);
	if (!d->files || !d->info || !d->target)
		return dalic_op_fail(ctx, NULL, -1, "out of memory for decoder state");
	return dalic_thread_scratch_init(ctx, &d->scratch);
}

/* The engine calls fini only after a successful init: a failing init cleans up itself. */
static int audio_decoder_init(dalic_op_ctx_t *ctx)
{
	int rc = audio_decoder_init_state(ctx, ctx->state);
	if (rc)
		audio_decoder_fini(ctx);
	return rc;
}

static bool audio_decoder_resamples(const audio_decoder_t *d, int i)
{
	return d->resample && d->target[i] > 0 && d->target[i] != (float)d->info[i].sample_rate;
}

/* Opens sample i and sets its output shapes. */
static int audio_decoder_probe(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, audio_decoder_t *d,
                               int i)
{
	const dalic_batch_t *in = ws->inputs[0];
	char err[256];
	d->files[i] = dalic_audio_open(in->ptrs[i], (size_t)dalic_batch_sample_elems(in, i),
	                               &d->info[i], err, sizeof err);
	if (!d->files[i])
		return dalic_op_fail(ctx, ws, i, "Failed to open encoded data: %s", err);
	const dalic_audio_info_t *m = &d->info[i];
	int64_t len = m->frames;
	if (audio_decoder_resamples(d, i) &&
	    (len = dalic_audio_resampled_length(m->frames, m->sample_rate, d->target[i])) < 0)
		return dalic_op_fail(ctx, ws, i,
		                     "resampling %lld frames from %d Hz to %g Hz gives too many",
		                     (long long)m->frames, m->sample_rate, (double)d->target[i]);
	int64_t *shape = dalic_batch_shape_mut(ws->outputs[0], i);
	shape[0] = len;
	if (!d->downmix)
		shape[1] = m->channels;
	/* the float scratch (decoded frames, then the mixed channel) must be representable */
	int64_t elems;
	if (!dalic_ck_mul_i64(m->frames, (int64_t)m->channels + 1, &elems) ||
	    !dalic_ck_mul_i64(elems, (int64_t)sizeof(float), &elems))
		return dalic_op_fail(ctx, ws, i, "%lld frames of %d channels are too many",
		                     (long long)m->frames, m->channels);
	return DALIC_OK;
}

static int audio_decoder_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	audio_decoder_t *d = ctx->state;
	const dalic_batch_t *in = ws->inputs[0];
	audio_decoder_close_all(d, ctx->max_batch_size);
	if (in->dtype != DALIC_UINT8)
		return dalic_op_fail(ctx, ws, -1, "Raw files must be stored as uint8 data, got %s",
		                     dalic_dtype_cname(in->dtype));
	if (in->ndim != 1)
		return dalic_op_fail(ctx, ws, -1,
		                     "Raw input must be 1D encoded byte data, got %d dims", in->ndim);
	if (ws->batch_size > ctx->max_batch_size)
		return dalic_op_fail(ctx, ws, -1, "batch of %d exceeds max batch size %d",
		                     ws->batch_size, ctx->max_batch_size);
	DALIC_TRY(dalic_batch_set_meta(ws->outputs[0], ws->batch_size, d->dtype, d->downmix ? 1 : 2));
	dalic_batch_set_layout(ws->outputs[0], "");
	DALIC_TRY(dalic_batch_set_meta(ws->outputs[1], ws->batch_size, DALIC_FLOAT, 0));
	for (int i = 0; i < ws->batch_size; i++) {
		ws->outputs[0]->sources[i] = ws->outputs[1]->sources[i] = in->sources[i];
		if (d->resample) {
			double v;
			DALIC_TRY(dalic_arg_float_at(ctx, ws, "sample_rate", i, &v));
			d->target[i] = (float)v;
		}
		DALIC_TRY(audio_decoder_probe(ctx, ws, d, i));
	}
	return DALIC_OK;
}

static int audio_decoder_decode(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, audio_decoder_t *d,
                                int i, int thread)
{
	const dalic_audio_info_t *m = &d->info[i];
	dalic_audio_job_t job = {
	    .info = m,
	    .frames = m->frames,
	    .dtype = d->dtype,
	    .downmix = d->downmix,
	    .window = audio_decoder_resamples(d, i) ? &d->window : NULL,
	    .target = d->target[i],
	    .out_len = dalic_batch_shape(ws->outputs[0], i)[0],
	};
	int64_t floats = dalic_audio_job_scratch(&job);
	if (floats < 0)
		return dalic_op_fail(ctx, ws, i, "decoder scratch memory is too large");
	int rc = DALIC_OK;
	float *buf = NULL;
	if (floats > 0 && !(buf = dalic_thread_scratch_get(ctx, ws, i, &d->scratch, thread,
	                                                   (size_t)floats * sizeof(float), &rc)))
		return rc;
	char err[512];
	if (dalic_audio_job_run(d->files[i], &job, ws->outputs[0]->ptrs[i], buf, err, sizeof err))
		return dalic_op_fail(ctx, ws, i, "%s", err);
	return DALIC_OK;
}

static int audio_decoder_run_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, int thread)
{
	audio_decoder_t *d = ctx->state;
	int rc = audio_decoder_decode(ctx, ws, d, i, thread);
	*(float *)ws->outputs[1]->ptrs[i] = d->resample ? d->target[i] : (float)d->info[i].sample_rate;
	dalic_audio_close(d->files[i]);
	d->files[i] = NULL;
	return rc;
}

static const dalic_arg_schema_t args[] = {
	{"downmix", DALIC_ARG_BOOL, "False",
	 "Average all channels into one: the output is 1-D instead of [frames, channels]."},
	{"dtype", DALIC_ARG_DTYPE, "FLOAT", "Output data type: INT16, INT32 or FLOAT."},
	{"sample_rate", DALIC_ARG_FLOAT, "0.0",
	 "If given, the rate in Hz to resample the audio to.", .tensor = true},
	{"quality", DALIC_ARG_FLOAT, "50.0",
	 "Resampling quality, 0..100: 3 sinc lobes at 0, 16 at 50, 64 at 100."},
	{0},
};

static const dalic_kernel_t kernel = {
	.state_size = sizeof(audio_decoder_t),
	.init = audio_decoder_init,
	.setup = audio_decoder_setup,
	.run_sample = audio_decoder_run_sample,
	.fini = audio_decoder_fini,
};

DALIC_OPERATOR(decoders__Audio) = {
	.name = "decoders__Audio",
	.fn = "decoders.audio",
	.aliases = {"AudioDecoder"},
	.module = "nvidia.dali.fn.decoders",
	.doc = "Decodes WAV, FLAC and OGG audio; outputs the samples and the sampling rate.",
	.min_inputs = 1,
	.max_inputs = 1,
	.num_outputs = 2,
	.devices = DALIC_DEV_CPU,
	.args = args,
	.cpu = &kernel,
};
