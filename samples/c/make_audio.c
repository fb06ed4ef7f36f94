/*
 * Writes speech-like audio clips for the sample speech pipeline (samples/scripts/speech.py)
 * and the oracle suite: silence, voiced bursts (a falling pitch with harmonics under a
 * syllable envelope, plus a little noise), silence again. The clips differ in length,
 * sampling rate (16, 22.05 and 44.1 kHz), channels and format (WAV, FLAC, OGG Vorbis), and are
 * the same bytes on every run for WAV and FLAC.
 *
 *     make_audio DIR [COUNT]      COUNT clips (default 12) as DIR/clip_NN.{wav,flac,ogg}
 *
 * `make audio-samples` writes them to build/audio/speech/ (one label for readers.file).
 */
#include <math.h>
#include <sndfile.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct make_audio_clip {
	int rate, channels, format;
	const char *ext;
	double seconds;
} make_audio_clip_t;

static uint32_t make_audio_seed = 12345;

static double make_audio_noise(void)
{
	make_audio_seed = make_audio_seed * 1664525u + 1013904223u;
	return (double)(make_audio_seed >> 8) / (double)(1u << 24) * 2 - 1;
}

/* Voiced bursts between 0.25 s of silence at each end; `k` varies pitch and syllables. */
static void make_audio_signal(float *out, const make_audio_clip_t *c, int k)
{
	int64_t n = (int64_t)(c->seconds * c->rate);
	double lead = 0.25, tail = 0.25, voiced = c->seconds - lead - tail;
	int syllables = 2 + k % 4;
	double phase = 0;
	for (int64_t i = 0; i < n; i++) {
		double t = (double)i / c->rate, v = 0;
		if (t >= lead && t < lead + voiced) {
			double u = (t - lead) / voiced;                 /* 0..1 over the voiced part */
			double env = pow(sin(M_PI * u * syllables), 2); /* syllable envelope */
			double f0 = (140 + 30 * (k % 5)) * (1.2 - 0.4 * u);
			phase += 2 * M_PI * f0 / c->rate;
			for (int h = 1; h <= 6; h++)
				v += sin(h * phase) / h;
			v = 0.3 * env * v + 0.01 * make_audio_noise();
		}
		for (int ch = 0; ch < c->channels; ch++)
			out[i * c->channels + ch] = (float)(v * (ch ? 0.6 : 1.0));
	}
}

static int make_audio_write(const char *path, const make_audio_clip_t *c, const float *data)
{
	SF_INFO info = {.samplerate = c->rate, .channels = c->channels, .format = c->format};
	SNDFILE *f = sf_open(path, SFM_WRITE, &info);
	if (!f) {
		fprintf(stderr, "make_audio: %s: %s\n", path, sf_strerror(NULL));
		return 1;
	}
	sf_count_t frames = (sf_count_t)(c->seconds * c->rate);
	sf_count_t put = sf_writef_float(f, data, frames);
	sf_close(f);
	if (put != frames) {
		fprintf(stderr, "make_audio: %s: short write\n", path);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: make_audio DIR [COUNT]\n");
		return 2;
	}
	int count = argc == 3 ? atoi(argv[2]) : 12;
	if (count < 1 || count > 99) {
		fprintf(stderr, "make_audio: COUNT must be 1..99\n");
		return 2;
	}
	mkdir(argv[1], 0777);
	static const make_audio_clip_t kinds[] = {
	    {16000, 1, SF_FORMAT_WAV | SF_FORMAT_PCM_16, "wav", 1.6},
	    {22050, 1, SF_FORMAT_FLAC | SF_FORMAT_PCM_16, "flac", 2.1},
	    {44100, 2, SF_FORMAT_WAV | SF_FORMAT_PCM_16, "wav", 1.3},
	    {16000, 1, SF_FORMAT_OGG | SF_FORMAT_VORBIS, "ogg", 1.9},
	};
	for (int k = 0; k < count; k++) {
		make_audio_clip_t c = kinds[k % 4];
		c.seconds += 0.15 * (k / 4);
		float *data = malloc(sizeof *data * (size_t)(c.seconds * c.rate + 1) * (size_t)c.channels);
		if (!data)
			return 1;
		make_audio_signal(data, &c, k);
		char path[4096];
		snprintf(path, sizeof path, "%s/clip_%02d.%s", argv[1], k, c.ext);
		int rc = make_audio_write(path, &c, data);
		free(data);
		if (rc)
			return 1;
	}
	return 0;
}
