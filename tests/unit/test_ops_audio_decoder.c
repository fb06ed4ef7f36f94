/* decoders.audio: 16-bit WAV samples read as int16 / int32 / float as libsndfile converts them,
 * channels kept or averaged (downmix), FLAC equal to WAV, OGG Vorbis close to the tone it
 * encodes, resampling lengths and the rate output, DALI's argument errors, and damaged files
 * named in the error. */
#include "tests/testlib/audio.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

TestSuite(ops_audio_decoder, .timeout = 30);

/* external_source "in" (encoded bytes) -> decoders.audio; outputs: audio, rate. */
static dalic_op_t *audio_decoder_pipeline(dalic_pipeline_t *p)
{
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "decoders.audio");
	tl_input(op, "in");
	tl_output(p, op);
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, 1), NULL));
	return op;
}

static void audio_decoder_feed(dalic_pipeline_t *p, const void *bytes, size_t n)
{
	tl_feed(p, "in", DALIC_UINT8, 1, 1, (int64_t[]){(int64_t)n}, bytes, NULL);
}

static const int16_t audio_decoder_pcm[6] = {0, 16384, -16384, 32767, -32768, 100};

Test(ops_audio_decoder, wav16_as_int16_int32_float)
{
	size_t n;
	void *wav = tl_audio_wav16(audio_decoder_pcm, 6, 1, 8000, &n);
	const dalic_dtype_t types[3] = {DALIC_INT16, DALIC_INT32, DALIC_FLOAT};
	/* libsndfile: int32 is the sample shifted into the high bits, float is sample / 32768 */
	const double want[3][6] = {
	    {0, 16384, -16384, 32767, -32768, 100},
	    {0, 16384.0 * 65536, -16384.0 * 65536, 32767.0 * 65536, -32768.0 * 65536, 100.0 * 65536},
	    {0, 0.5, -0.5, 32767 / 32768.0, -1, 100 / 32768.0},
	};
	for (int t = 0; t < 3; t++) {
		dalic_pipeline_t *p = tl_pipeline(1);
		dalic_op_t *op = audio_decoder_pipeline(p);
		ASSERT_OK(dalic_op_set_int(op, "dtype", types[t]));
		audio_decoder_feed(p, wav, n);
		const dalic_batch_t *out = tl_run(p, 0);
		cr_expect_eq(dalic_batch_dtype(out), types[t]);
		tl_expect_shape(out, 0, 2, (int64_t[]){6, 1}); /* channels kept: [frames, 1] */
		tl_expect_values(out, 0, 6, want[t]);
		const dalic_batch_t *rate = dalic_pipeline_output(p, 1);
		cr_expect_eq(dalic_batch_dtype(rate), DALIC_FLOAT);
		cr_expect_eq(dalic_batch_ndim(rate), 0);
		tl_expect_values(rate, 0, 1, (double[]){8000});
		dalic_pipeline_destroy(p);
	}
	free(wav);
}

Test(ops_audio_decoder, stereo_kept_and_downmixed)
{
	const int16_t pcm[6] = {16384, 0, -16384, -16384, 32767, 32767};
	size_t n;
	void *wav = tl_audio_wav16(pcm, 3, 2, 16000, &n);
	dalic_pipeline_t *p = tl_pipeline(1);
	audio_decoder_pipeline(p);
	audio_decoder_feed(p, wav, n);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 2, (int64_t[]){3, 2});
	tl_expect_values(out, 0, 6, (double[]){0.5, 0, -0.5, -0.5, 32767 / 32768.0, 32767 / 32768.0});
	dalic_pipeline_destroy(p);

	/* the mean of the channels; as int16 it is round(mean * 32767): 8191.75 -> 8192,
	 * -16383.5 -> -16384 (half away from zero), 32766.0000305 -> 32766 */
	p = tl_pipeline(1);
	dalic_op_t *op = audio_decoder_pipeline(p);
	ASSERT_OK(dalic_op_set_bool(op, "downmix", true));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_INT16));
	audio_decoder_feed(p, wav, n);
	out = tl_run(p, 0);
	tl_expect_shape(out, 0, 1, (int64_t[]){3});
	tl_expect_values(out, 0, 3, (double[]){8192, -16384, 32766});
	dalic_pipeline_destroy(p);
	free(wav);
}

Test(ops_audio_decoder, flac_equals_wav_and_ogg_keeps_the_tone)
{
	enum { N = 4000 };
	float *tone = malloc(N * sizeof *tone);
	tl_audio_tone(tone, N, 500, 16000, 0.5);
	size_t nw, nf, no;
	void *wav = tl_audio_bytes("t.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 16000, 1, N, tone, &nw);
	void *flac = tl_audio_bytes("t.flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16, 16000, 1, N, tone, &nf);
	void *ogg = tl_audio_bytes("t.ogg", SF_FORMAT_OGG | SF_FORMAT_VORBIS, 16000, 1, N, tone, &no);
	dalic_pipeline_t *p = tl_pipeline(3);
	dalic_op_t *op = audio_decoder_pipeline(p);
	ASSERT_OK(dalic_op_set_bool(op, "downmix", true));
	char *all = malloc(nw + nf + no);
	memcpy(all, wav, nw);
	memcpy(all + nw, flac, nf);
	memcpy(all + nw + nf, ogg, no);
	tl_feed(p, "in", DALIC_UINT8, 1, 3, (int64_t[]){(int64_t)nw, (int64_t)nf, (int64_t)no}, all,
	        NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	for (int i = 0; i < 3; i++)
		tl_expect_shape(out, i, 1, (int64_t[]){N});
	const float *w = dalic_batch_data(out, 0), *f = dalic_batch_data(out, 1);
	const float *o = dalic_batch_data(out, 2);
	cr_expect_eq(memcmp(w, f, N * sizeof *w), 0, "FLAC is lossless: same samples as the WAV");
	double err = 0;
	for (int k = 0; k < N; k++) {
		cr_assert_float_eq(w[k], roundf(tone[k] * 32767.0f) / 32768.0f, 2e-5, "sample %d", k);
		err = fmax(err, fabs(o[k] - tone[k]));
	}
	cr_expect_lt(err, 0.05, "Vorbis is lossy but keeps a 500 Hz tone: worst error %g", err);
	dalic_pipeline_destroy(p);
	free(all), free(wav), free(flac), free(ogg), free(tone);
}

Test(ops_audio_decoder, resampled_length_and_rate)
{
	enum { N = 800 };
	float tone[N];
	tl_audio_tone(tone, N, 100, 8000, 0.5);
	size_t n;
	void *wav = tl_audio_bytes("r.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 8000, 1, N, tone, &n);
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = audio_decoder_pipeline(p);
	ASSERT_OK(dalic_op_set_float(op, "sample_rate", 12000));
	ASSERT_OK(dalic_op_set_bool(op, "downmix", true));
	audio_decoder_feed(p, wav, n);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 1, (int64_t[]){1200}); /* ceil(800 * 12000 / 8000) */
	tl_expect_values(dalic_pipeline_output(p, 1), 0, 1, (double[]){12000});
	/* away from the ends, the resampled tone is the tone at the new rate */
	const float *y = dalic_batch_data(out, 0);
	for (int k = 100; k < 1100; k++)
		cr_assert_float_eq(y[k], 0.5 * sin(2 * M_PI * 100 * k / 12000.0), 2e-3, "at %d", k);
	dalic_pipeline_destroy(p);
	free(wav);
}

Test(ops_audio_decoder, argument_and_input_errors)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = audio_decoder_pipeline(p);
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_UINT8));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("Unsupported output type: uint8");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = audio_decoder_pipeline(p);
	ASSERT_OK(dalic_op_set_float(op, "sample_rate", 16000));
	ASSERT_OK(dalic_op_set_float(op, "quality", 101));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("Resampling quality must be in [0..100] range");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	audio_decoder_pipeline(p);
	tl_feed(p, "in", DALIC_FLOAT, 1, 1, (int64_t[]){2}, (float[]){1, 2}, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Raw files must be stored as uint8 data");
	dalic_pipeline_destroy(p);
}

/* readers.file -> decoders.audio over `path`: the run's error. */
static char *audio_decoder_file_error(const char *path)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *rd = tl_op(p, "readers.file");
	ASSERT_OK(dalic_op_set_strings(rd, "files", 1, (const char *[]){path}));
	ASSERT_OK(dalic_op_set_name(rd, "rd"));
	dalic_op_t *op = tl_op(p, "decoders.audio");
	ASSERT_OK(dalic_op_add_input(op, dalic_op_output(rd, 0), NULL));
	tl_output(p, op);
	char *msg = strdup(tl_run_fails(p, DALIC_EOP));
	dalic_pipeline_destroy(p);
	return msg;
}

Test(ops_audio_decoder, damaged_files_are_named)
{
	const char *junk = tl_tmp_path("junk.wav");
	tl_write_text(junk, "RIFF but nothing a decoder could read");
	char *msg = audio_decoder_file_error(junk);
	EXPECT_HAS(msg, "Failed to open encoded data");
	EXPECT_HAS(msg, junk);
	EXPECT_HAS(msg, "sample 0");
	free(msg);

	/* a FLAC stream cut in the middle of its frames: the header promises more */
	enum { N = 16000 };
	float *tone = malloc(N * sizeof *tone);
	tl_audio_tone(tone, N, 300, 16000, 0.5);
	size_t n;
	char *flac = tl_audio_bytes("cut.flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16, 16000, 1, N, tone, &n);
	const char *cut = tl_tmp_path("cut.flac");
	tl_write_file(cut, flac, n / 2);
	msg = audio_decoder_file_error(cut);
	EXPECT_HAS(msg, "requested 16000 samples but got");
	EXPECT_HAS(msg, cut);
	free(msg);
	free(flac);
	free(tone);
}
