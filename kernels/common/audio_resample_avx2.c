/*
 * The mono resampler eight output positions at a time (AVX2, chosen at run time): lane j of
 * every vector is output o + j, and each lane repeats the one-output loop of audio_resample.c
 * operation for operation (four tap lanes with positions stepped by 4, folded as
 * (l0 + l2) + (l1 + l3), then the remaining taps one by one), so every output is bit-identical
 * to the scalar path. The target is "avx2" alone: without "fma" the compiler cannot contract a
 * multiply and an add into one rounding, which would change the sums.
 */
#include "kernels/common/audio_resample.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

bool dalic_audio_resample_has_avx2(void)
{
	return __builtin_cpu_supports("avx2");
}

__attribute__((target("avx2"))) void
dalic_audio_resample_avx2_8(const dalic_audio_window_t *w, const float *src, const float *pos,
                            const int *i0, int n, float *out)
{
	const __m256 scale = _mm256_set1_ps(w->scale), center = _mm256_set1_ps(w->center);
	const __m256 in_pos = _mm256_loadu_ps(pos);
	const __m256i base = _mm256_loadu_si256((const __m256i *)i0);
	const float *lut = w->lookup;
	__m256 f[4], x[4];
	for (int l = 0; l < 4; l++) {
		f[l] = _mm256_setzero_ps();
		x[l] = _mm256_sub_ps(_mm256_cvtepi32_ps(_mm256_add_epi32(base, _mm256_set1_epi32(l))),
		                     in_pos);
	}
	int t = 0;
	for (; t + 3 < n; t += 4)
		for (int l = 0; l < 4; l++) {
			__m256 fi = _mm256_add_ps(_mm256_mul_ps(x[l], scale), center);
			__m256i k = _mm256_cvttps_epi32(fi);
			__m256 di = _mm256_sub_ps(fi, _mm256_cvtepi32_ps(k));
			__m256 cur = _mm256_i32gather_ps(lut, k, 4);
			__m256 next = _mm256_i32gather_ps(lut + 1, k, 4);
			__m256 wt = _mm256_add_ps(cur, _mm256_mul_ps(di, _mm256_sub_ps(next, cur)));
			__m256 v = _mm256_i32gather_ps(
			    src, _mm256_add_epi32(base, _mm256_set1_epi32(t + l)), 4);
			f[l] = _mm256_add_ps(f[l], _mm256_mul_ps(v, wt));
			x[l] = _mm256_add_ps(x[l], _mm256_set1_ps(4));
		}
	__m256 acc = _mm256_add_ps(_mm256_add_ps(f[0], f[2]), _mm256_add_ps(f[1], f[3]));
	__m256 xt = _mm256_sub_ps(_mm256_cvtepi32_ps(_mm256_add_epi32(base, _mm256_set1_epi32(t))),
	                          in_pos);
	for (; t < n; t++) {
		__m256 fi = _mm256_add_ps(_mm256_mul_ps(xt, scale), center);
		__m256 fl = _mm256_floor_ps(fi);
		__m256 di = _mm256_sub_ps(fi, fl);
		__m256i k = _mm256_cvttps_epi32(fl);
		__m256 cur = _mm256_i32gather_ps(lut, k, 4);
		__m256 next = _mm256_i32gather_ps(lut + 1, k, 4);
		__m256 wt = _mm256_add_ps(cur, _mm256_mul_ps(di, _mm256_sub_ps(next, cur)));
		__m256 v = _mm256_i32gather_ps(src, _mm256_add_epi32(base, _mm256_set1_epi32(t)), 4);
		acc = _mm256_add_ps(acc, _mm256_mul_ps(v, wt));
		xt = _mm256_add_ps(xt, _mm256_set1_ps(1));
	}
	_mm256_storeu_ps(out, acc);
}
#else
bool dalic_audio_resample_has_avx2(void)
{
	return false;
}

void dalic_audio_resample_avx2_8(const dalic_audio_window_t *w, const float *src, const float *pos,
                                 const int *i0, int n, float *out)
{
	(void)w, (void)src, (void)pos, (void)i0, (void)n, (void)out; /* never called: no AVX2 */
}
#endif
