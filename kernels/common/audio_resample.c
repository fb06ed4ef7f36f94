/* DALI's windowed-sinc resampler (see audio_resample.h). */
#include "kernels/common/audio_resample.h"

#include "engine/checked.h"
#include "engine/error.h"

#include <math.h>
#include <stdlib.h>
#if defined(__SSE2__) && defined(__x86_64__)
#define AUDIO_RESAMPLE_SSE2 1
#include <emmintrin.h>
#endif

void dalic_audio_quality_params(double quality, int *lobes, int *coeffs)
{
	*lobes = (int)round(0.007 * quality * quality - 0.09 * quality + 3);
	*coeffs = *lobes * 64 + 1;
}

/* Normalized sinc of a float, as DALI's sinc(float). */
static float audio_resample_sinc(float x)
{
	x = (float)(x * M_PI);
	if (fabsf(x) < 1e-5f)
		return 1.0f - x * x * (1.0f / 6);
	return sinf(x) / x;
}

int dalic_audio_window_init(dalic_audio_window_t *w, int lobes, int coeffs)
{
	w->lookup = calloc((size_t)coeffs + 5, sizeof *w->lookup);
	w->pairs = calloc(2 * ((size_t)coeffs + 5), sizeof *w->pairs);
	if (!w->lookup || !w->pairs) {
		dalic_audio_window_free(w);
		return dalic_fail(DALIC_ENOMEM, "out of memory for the resampling window");
	}
	float scale = 2.0f * (float)lobes / (float)(coeffs - 1);
	float scale_envelope = 2.0f / (float)coeffs;
	int center = (int)((float)(coeffs - 1) * 0.5f);
	for (int i = 0; i < coeffs; i++) {
		float x = (float)(i - center) * scale;
		float y = (float)(i - center) * scale_envelope;
		double hann = 0.5 * (1 + cos((double)y * M_PI));
		w->lookup[i + 1] = (float)(audio_resample_sinc(x) * hann);
	}
	for (int k = 0; k < coeffs + 5; k++) {
		w->pairs[2 * k] = w->lookup[k];
		w->pairs[2 * k + 1] = k + 1 < coeffs + 5 ? w->lookup[k + 1] - w->lookup[k] : 0;
	}
	w->lobes = lobes;
	w->coeffs = coeffs;
	w->center = (float)(center + 1); /* the leading zero */
	w->scale = 1 / scale;
	return DALIC_OK;
}

void dalic_audio_window_free(dalic_audio_window_t *w)
{
	free(w->lookup);
	free(w->pairs);
	w->lookup = w->pairs = NULL;
}

int64_t dalic_audio_resampled_length(int64_t n, double in_rate, double out_rate)
{
	int64_t len;
	if (!dalic_ck_double_to_i64(ceil((double)n * out_rate / in_rate), &len) || len < 0)
		return -1;
	return len;
}

#ifdef AUDIO_RESAMPLE_SSE2
/* The table pairs at the four indices of k: values and deltas as two vectors. */
static inline void audio_resample_pairs4(const float *pairs, __m128i k, __m128 *cur,
                                         __m128 *delta)
{
	int64_t k01 = _mm_cvtsi128_si64(k), k23 = _mm_cvtsi128_si64(_mm_unpackhi_epi64(k, k));
	const __m64 *p0 = (const __m64 *)(pairs + 2 * (int32_t)k01);
	const __m64 *p1 = (const __m64 *)(pairs + 2 * (int32_t)(k01 >> 32));
	const __m64 *p2 = (const __m64 *)(pairs + 2 * (int32_t)k23);
	const __m64 *p3 = (const __m64 *)(pairs + 2 * (int32_t)(k23 >> 32));
	__m128 a = _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), p0), p1);
	__m128 b = _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), p2), p3);
	*cur = _mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
	*delta = _mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1));
}
#endif

/* Taps in groups of four from *ip while four remain before i1: DALI's vector loop, whose lanes
 * sum apart and fold as (l0 + l2) + (l1 + l3). */
static inline float audio_resample_taps4(const dalic_audio_window_t *w, int *ip, float in_pos,
                                         int i1, const float *in)
{
	int i = *ip;
#ifdef AUDIO_RESAMPLE_SSE2
	__m128 f4 = _mm_setzero_ps();
	__m128 x4 = _mm_setr_ps((float)i - in_pos, (float)(i + 1) - in_pos, (float)(i + 2) - in_pos,
	                        (float)(i + 3) - in_pos);
	const __m128 scale = _mm_set1_ps(w->scale), center = _mm_set1_ps(w->center);
	for (; i + 3 < i1; i += 4) {
		__m128 fi = _mm_add_ps(_mm_mul_ps(x4, scale), center);
		__m128i k = _mm_cvttps_epi32(fi);
		__m128 di = _mm_sub_ps(fi, _mm_cvtepi32_ps(k));
		__m128 cur, delta;
		audio_resample_pairs4(w->pairs, k, &cur, &delta);
		__m128 w4 = _mm_add_ps(cur, _mm_mul_ps(di, delta));
		f4 = _mm_add_ps(f4, _mm_mul_ps(_mm_loadu_ps(in + i), w4));
		x4 = _mm_add_ps(x4, _mm_set1_ps(4));
	}
	*ip = i;
	f4 = _mm_add_ps(f4, _mm_shuffle_ps(f4, f4, _MM_SHUFFLE(1, 0, 3, 2)));
	f4 = _mm_add_ps(f4, _mm_shuffle_ps(f4, f4, _MM_SHUFFLE(0, 1, 0, 1)));
	return _mm_cvtss_f32(f4);
#else
	float f[4] = {0, 0, 0, 0}, x[4];
	for (int l = 0; l < 4; l++)
		x[l] = (float)(i + l) - in_pos;
	for (; i + 3 < i1; i += 4)
		for (int l = 0; l < 4; l++) {
			float fi = x[l] * w->scale + w->center;
			int k = (int)fi;
			float di = fi - (float)k;
			float wt = w->pairs[2 * k] + di * w->pairs[2 * k + 1];
			f[l] += in[i + l] * wt;
			x[l] += 4;
		}
	*ip = i;
	return (f[0] + f[2]) + (f[1] + f[3]);
#endif
}

/* One mono output: DALI's four-lane loop, then the remaining taps. */
static inline float audio_resample_mono(const dalic_audio_window_t *w, const float *src,
                                        float in_pos, int i0, int i1)
{
	int i = i0;
	float f = audio_resample_taps4(w, &i, in_pos, i1, src);
	return dalic_audio_resample_tail(w, src, in_pos, i, i1, f);
}

/* Mono outputs [o, end) of one block, two at a time where their tap counts agree (the AVX2
 * loop), one at a time where they do not. */
static void audio_resample_mono_block(const dalic_audio_window_t *w, float *out, int64_t o,
                                      int64_t end, const float *src, float in_pos, float fscale,
                                      int64_t in_block, int64_t n_in, bool simd)
{
	while (o < end) {
		if (simd && (o = dalic_audio_resample_avx2_pairs(w, out, o, end, src, &in_pos, fscale,
		                                                 in_block, n_in)) >= end)
			break;
		int i0, i1;
		dalic_audio_resample_range(w, in_pos, in_block, n_in, &i0, &i1);
		out[o++] = audio_resample_mono(w, src, in_pos, i0, i1);
		in_pos += fscale;
	}
}

void dalic_audio_resample(const dalic_audio_window_t *w, float *out, int64_t n_out,
                          double out_rate, const float *in, int64_t n_in, double in_rate,
                          int channels)
{
	static int has_avx2 = -1; /* the same answer from every thread: a benign race */
	if (has_avx2 < 0)
		has_avx2 = dalic_audio_resample_has_avx2();
	dalic_audio_resample_using(w, out, n_out, out_rate, in, n_in, in_rate, channels,
	                           has_avx2 != 0);
}

void dalic_audio_resample_using(const dalic_audio_window_t *w, float *out, int64_t n_out,
                                double out_rate, const float *in, int64_t n_in, double in_rate,
                                int channels, bool simd)
{
	const int64_t block = 256; /* keeps the float position's fraction precise */
	double scale = in_rate / out_rate;
	float fscale = (float)scale;
	float tmp[64];
	simd = simd && dalic_audio_resample_has_avx2();
	for (int64_t out_block = 0; out_block < n_out; out_block += block) {
		int64_t block_end = out_block + block < n_out ? out_block + block : n_out;
		double in_block_f = (double)out_block * scale;
		int64_t in_block = (int64_t)floor(in_block_f);
		float in_pos = (float)(in_block_f - (double)in_block);
		const float *src = in + in_block * channels;
		if (channels == 1) {
			audio_resample_mono_block(w, out, out_block, block_end, src, in_pos, fscale,
			                          in_block, n_in, simd);
			continue;
		}
		for (int64_t o = out_block; o < block_end; o++, in_pos += fscale) {
			int i0, i1;
			dalic_audio_resample_range(w, in_pos, in_block, n_in, &i0, &i1);
			/* DALI keeps up to 16 channels on the stack, more elsewhere: the sums are the
			 * same; dalic resamples 64 at a time */
			for (int c0 = 0; c0 < channels; c0 += 64) {
				int nc = channels - c0 < 64 ? channels - c0 : 64;
				for (int c = 0; c < nc; c++)
					tmp[c] = 0;
				float x = (float)i0 - in_pos;
				for (int i = i0; i < i1; i++, x++) {
					float wt = dalic_audio_window_at(w, x);
					const float *s = src + (int64_t)i * channels + c0;
					for (int c = 0; c < nc; c++)
						tmp[c] += s[c] * wt;
				}
				for (int c = 0; c < nc; c++)
					out[o * channels + c0 + c] = tmp[c];
			}
		}
	}
}
