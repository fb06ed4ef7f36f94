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
 *
 * Speed without changing a bit: the table is read as (value, delta) pairs, one 8-byte load per
 * tap (the delta is the same float subtraction DALI does per tap), and with AVX2 two mono
 * outputs share each vector (audio_resample_avx2.c). On the 2-core EPYC here, 1 s of 44.1 kHz
 * to 16 kHz: 0.70 ms before, 0.51 ms with pairs, 0.45 ms with AVX2 (an eight-output AVX2
 * version with gathers was slower than the scalar loop: gathers are slow on this CPU), 0.42
 * ms with the table offsets taken from 64-bit halves, 0.36 ms with the block's loop in the
 * AVX2 file (a per-output store of the offsets instead was slower: 0.46-0.60 ms).
 */
#ifndef DALIC_KERNELS_AUDIO_RESAMPLE_H
#define DALIC_KERNELS_AUDIO_RESAMPLE_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct dalic_audio_window {
	float scale, center; /* table index = x * scale + center */
	int lobes, coeffs;
	float *lookup; /* coeffs + 5 entries: a zero, the samples, zeros */
	/* pairs[2k] = lookup[k], pairs[2k + 1] = lookup[k + 1] - lookup[k] (the same float
	 * subtraction the interpolation does): one 8-byte load per tap */
	float *pairs;
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
void dalic_audio_resample(const dalic_audio_window_t *w, float *out, int64_t n_out, double out_rate,
                          const float *in, int64_t n_in, double in_rate, int channels);
/* The same with the implementation chosen: simd = true takes mono signals two output
 * positions at a time where the CPU has AVX2 (bit-identical to simd = false, which keeps to
 * one output at a time; dalic_audio_resample picks the vector path when it can). */
void dalic_audio_resample_using(const dalic_audio_window_t *w, float *out, int64_t n_out,
                                double out_rate, const float *in, int64_t n_in, double in_rate,
                                int channels, bool simd);

/* The window at x, interpolated between two table entries (DALI's arithmetic). */
static inline float dalic_audio_window_at(const dalic_audio_window_t *w, float x)
{
	float fi = x * w->scale + w->center;
	float floori = floorf(fi);
	float di = fi - floori;
	const float *p = w->pairs + 2 * (int)floori;
	return p[0] + di * p[1];
}

/* A mono output's taps [i, i1) one by one after the four-lane loop, added to f. */
static inline float dalic_audio_resample_tail(const dalic_audio_window_t *w, const float *src,
                                              float in_pos, int i, int i1, float f)
{
	float x = (float)i - in_pos;
	for (; i < i1; i++, x++)
		f += src[i] * dalic_audio_window_at(w, x);
	return f;
}

/* One output position's input range [i0, i1), relative to the block's first input. */
static inline void dalic_audio_resample_range(const dalic_audio_window_t *w, float in_pos,
                                              int64_t in_block, int64_t n_in, int *i0, int *i1)
{
	int xc = (int)ceilf(in_pos);
	*i0 = xc - w->lobes;
	*i1 = xc + w->lobes;
	if (*i0 + in_block < 0)
		*i0 = (int)-in_block;
	if (*i1 + in_block > n_in)
		*i1 = (int)(n_in - in_block);
}

/* audio_resample_avx2.c: whether this CPU has AVX2, and mono outputs [o, end) of a block two
 * at a time from position *in_pos (relative to src, stepping by fscale) while a pair's tap
 * counts agree; returns the first output not written (end, or one for the one-at-a-time
 * path) and leaves *in_pos at its position. */
bool dalic_audio_resample_has_avx2(void);
int64_t dalic_audio_resample_avx2_pairs(const dalic_audio_window_t *w, float *out, int64_t o,
                                        int64_t end, const float *src, float *in_pos, float fscale,
                                        int64_t in_block, int64_t n_in);

#endif
