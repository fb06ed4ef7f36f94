/* The resampler's AVX2 path against its one-output-at-a-time path on decoded clips: speech-like
 * signals (voiced harmonic bursts with noise between silences, as samples/c/make_audio writes
 * for the speech bench) written as 16-bit WAV at 44.1 kHz, FLAC at 22.05 kHz and OGG Vorbis
 * at 48 kHz, decoded through libsndfile as decoders.audio reads them, resampled to 16 kHz
 * (and 8 and 44.1 kHz) at qualities 50 and 100: every output bit-identical. */
#include "kernels/common/audio_resample.h"
#include "kernels/common/audio_sndfile.h"
#include "tests/testlib/audio.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

TestSuite(audio_resample_clips, .timeout = 60, .fini = tl_tmpdir_remove);

/* Syllables of a falling pitch with six harmonics, 0.2 s of silence at each end. */
static void audio_resample_clips_speech(float *out, int64_t n, int rate, int k)
{
	uint32_t seed = 99u + (uint32_t)k;
	double phase = 0, lead = 0.2 * rate, voiced = (double)n - 2 * lead;
	for (int64_t i = 0; i < n; i++) {
		double v = 0;
		if (i >= lead && i < lead + voiced) {
			double u = (i - lead) / voiced, env = pow(sin(M_PI * u * (2 + k)), 2);
			phase += 2 * M_PI * (150 + 20 * k) * (1.2 - 0.4 * u) / rate;
			for (int h = 1; h <= 6; h++)
				v += sin(h * phase) / h;
			seed = seed * 1664525u + 1013904223u;
			v = 0.3 * env * v +
			    0.01 * ((double)(seed >> 8) / (double)(1u << 24) * 2 - 1);
		}
		out[i] = (float)v;
	}
}

Test(audio_resample_clips, avx2_equals_scalar_on_decoded_clips)
{
	if (!dalic_audio_resample_has_avx2())
		cr_skip_test("this CPU has no AVX2: only the scalar path runs");
	const struct {
		const char *name;
		int format, rate;
	} clips[] = {{"speech.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 44100},
	             {"speech.flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16, 22050},
	             {"speech.ogg", SF_FORMAT_OGG | SF_FORMAT_VORBIS, 48000}};
	const double targets[] = {16000, 8000, 44100}, qualities[] = {50, 100};
	long compared = 0;
	for (size_t c = 0; c < sizeof clips / sizeof *clips; c++) {
		int64_t frames = (int64_t)(1.5 * clips[c].rate);
		float *sig = malloc(sizeof(float) * (size_t)frames);
		cr_assert(sig);
		audio_resample_clips_speech(sig, frames, clips[c].rate, (int)c);
		size_t nbytes;
		void *bytes = tl_audio_bytes(clips[c].name, clips[c].format, clips[c].rate, 1,
		                             frames, sig, &nbytes);
		dalic_audio_info_t info;
		char err[256];
		dalic_audio_file_t *f = dalic_audio_open(bytes, nbytes, &info, err, sizeof err);
		cr_assert(f, "%s: %s", clips[c].name, err);
		cr_assert_eq(info.channels, 1);
		float *in = malloc(sizeof(float) * (size_t)info.frames);
		cr_assert(in);
		cr_assert_eq(dalic_audio_read(f, DALIC_FLOAT, in, info.frames), info.frames);
		dalic_audio_close(f);
		for (size_t q = 0; q < sizeof qualities / sizeof *qualities; q++) {
			int lobes, coeffs;
			dalic_audio_quality_params(qualities[q], &lobes, &coeffs);
			dalic_audio_window_t w;
			cr_assert_eq(dalic_audio_window_init(&w, lobes, coeffs), 0);
			for (size_t t = 0; t < sizeof targets / sizeof *targets; t++) {
				int64_t m = dalic_audio_resampled_length(
				    info.frames, info.sample_rate, targets[t]);
				float *a = malloc(sizeof(float) * (size_t)m);
				float *b = malloc(sizeof(float) * (size_t)m);
				cr_assert(m > 0 && a && b);
				dalic_audio_resample_using(&w, a, m, targets[t], in, info.frames,
				                           info.sample_rate, 1, false);
				dalic_audio_resample_using(&w, b, m, targets[t], in, info.frames,
				                           info.sample_rate, 1, true);
				for (int64_t k = 0; k < m; k++)
					cr_assert_eq(
					    memcmp(&a[k], &b[k], sizeof(float)), 0,
					    "%s, quality %g, to %g Hz: output %lld is %.9g "
					    "(scalar) vs %.9g (AVX2)",
					    clips[c].name, qualities[q], targets[t], (long long)k,
					    (double)a[k], (double)b[k]);
				compared += (long)m;
				free(a);
				free(b);
			}
			dalic_audio_window_free(&w);
		}
		free(in);
		free(bytes);
		free(sig);
	}
	cr_expect_gt(compared, 200000);
}
