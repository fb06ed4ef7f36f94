/*
 * DALI's audio resampler (kernels/signal/resampling*.h in DALI): a sinc filter under a Hann
 * envelope, tabulated once and read with linear interpolation, `lobes` zero crossings either
 * side. decoders.audio and audio_resample share it.
 *
 * Not libsoxr or libsamplerate: both are better filters, but neither reproduces DALI's
 * samples (their kernels, phases and block handling differ), and the oracle suite compares
 * with DALI. The arithmetic here repeats DALI's in float, operation for operation: positions
 * step by a float increment within blocks of 256 outputs, mono signals sum four lanes of taps
 * then the rest, so the output equals DALI's CPU kernel on x86-64.
 */
#ifndef DALIC_KERNELS_AUDIO_RESAMPLE_H
#define DALIC_KERNELS_AUDIO_RESAMPLE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct dalic_audio_window {
	float scale, center; /* table index = x * scale + center */
	int lobes, coeffs;
	float *lookup; /* coeffs + 5 entries: a zero, the samples, zeros */
} dalic_audio_window_t;

/* DALI's ResamplingParams::FromQuality: lobes = round(0.007 q^2 - 0.09 q + 3), 64 table
 * entries per lobe plus one. q in [0, 100] (the caller checks). */
void dalic_audio_quality_params(double quality, int *lobes, int *coeffs);
/* The tabulated window (DALI's windowed_sinc). Fails only when out of memory. */
int dalic_audio_window_init(dalic_audio_window_t *w, int lobes, int coeffs);
void dalic_audio_window_free(dalic_audio_window_t *w);

/* ceil(n * out_rate / in_rate), or -1 when that is not a representable length. */
int64_t dalic_audio_resampled_length(int64_t n, double in_rate, double out_rate);

/* Resamples `n_in` frames of `channels` interleaved float channels at `in_rate` into
 * `n_out` frames at `out_rate` (rates > 0). */
void dalic_audio_resample(const dalic_audio_window_t *w, float *out, int64_t n_out,
                          double out_rate, const float *in, int64_t n_in, double in_rate,
                          int channels);
/* The same with the implementation chosen: simd = true takes mono signals eight output
 * positions at a time where the CPU has AVX2 (bit-identical to simd = false, which keeps to
 * one output at a time; dalic_audio_resample picks the vector path when it can). */
void dalic_audio_resample_using(const dalic_audio_window_t *w, float *out, int64_t n_out,
                                double out_rate, const float *in, int64_t n_in, double in_rate,
                                int channels, bool simd);

/* audio_resample_avx2.c: whether this CPU has AVX2, and eight mono outputs whose positions
 * (relative to src) are pos[j], whose taps start at src[i0[j]], n taps each. */
bool dalic_audio_resample_has_avx2(void);
void dalic_audio_resample_avx2_8(const dalic_audio_window_t *w, const float *src, const float *pos,
                                 const int *i0, int n, float *out);

#endif
