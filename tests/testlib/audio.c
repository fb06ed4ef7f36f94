/* Audio test data (see audio.h). */
#include "tests/testlib/audio.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void tl_audio_write(const char *path, int format, int rate, int channels, int64_t frames,
                    const float *data)
{
	SF_INFO info = {.samplerate = rate, .channels = channels, .format = format};
	SNDFILE *f = sf_open(path, SFM_WRITE, &info);
	cr_assert_not_null(f, "%s: %s", path, sf_strerror(NULL));
	cr_assert_eq(sf_writef_float(f, data, frames), frames, "%s: short write", path);
	cr_assert_eq(sf_close(f), 0);
}

void *tl_audio_bytes(const char *name, int format, int rate, int channels, int64_t frames,
                     const float *data, size_t *n)
{
	const char *path = tl_tmp_path(name);
	tl_audio_write(path, format, rate, channels, frames, data);
	return tl_read_file(path, n);
}

static void tl_audio_put32(uint8_t *p, uint32_t v)
{
	for (int k = 0; k < 4; k++)
		p[k] = (uint8_t)(v >> (8 * k));
}

void *tl_audio_wav16(const int16_t *samples, int64_t frames, int channels, int rate, size_t *n)
{
	size_t data = (size_t)frames * (size_t)channels * 2;
	uint8_t *w = calloc(1, 44 + data);
	cr_assert_not_null(w);
	memcpy(w, "RIFF", 4);
	tl_audio_put32(w + 4, (uint32_t)(36 + data));
	memcpy(w + 8, "WAVEfmt ", 8);
	tl_audio_put32(w + 16, 16);
	w[20] = 1; /* PCM */
	w[22] = (uint8_t)channels;
	tl_audio_put32(w + 24, (uint32_t)rate);
	tl_audio_put32(w + 28, (uint32_t)(rate * channels * 2));
	w[32] = (uint8_t)(channels * 2);
	w[34] = 16;
	memcpy(w + 36, "data", 4);
	tl_audio_put32(w + 40, (uint32_t)data);
	for (size_t k = 0; k < (size_t)frames * (size_t)channels; k++) {
		uint16_t v = (uint16_t)samples[k];
		w[44 + 2 * k] = (uint8_t)v;
		w[45 + 2 * k] = (uint8_t)(v >> 8);
	}
	*n = 44 + data;
	return w;
}

void tl_audio_tone(float *out, int64_t n, double freq, double rate, double amplitude)
{
	for (int64_t k = 0; k < n; k++)
		out[k] = (float)(amplitude * sin(2 * M_PI * freq * (double)k / rate));
}
