/*
 * Audio test data made by the tests: files written with libsndfile (WAV, FLAC, OGG Vorbis) and
 * WAV bytes built in memory, from signals the tests compute (tones, bursts, silence).
 */
#ifndef DALIC_TESTS_TESTLIB_AUDIO_H
#define DALIC_TESTS_TESTLIB_AUDIO_H

#include "tests/testlib.h"

#include <sndfile.h>

/* Writes `frames` frames of `channels` interleaved floats in [-1, 1] to `path` in libsndfile's
 * `format` (SF_FORMAT_WAV | SF_FORMAT_PCM_16, ...). Asserts it worked. */
void tl_audio_write(const char *path, int format, int rate, int channels, int64_t frames,
                    const float *data);
/* The same written to a temporary file named `name`; returns its bytes (free()). */
void *tl_audio_bytes(const char *name, int format, int rate, int channels, int64_t frames,
                     const float *data, size_t *n);
/* A 16-bit PCM WAV file in memory (44-byte header and the samples): new buffer (free()). */
void *tl_audio_wav16(const int16_t *samples, int64_t frames, int channels, int rate, size_t *n);
/* amplitude * sin(2 pi freq t) at `rate`, n samples into out. */
void tl_audio_tone(float *out, int64_t n, double freq, double rate, double amplitude);

#endif
