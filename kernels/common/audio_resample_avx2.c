/*
 * The mono resampler two output positions at a time (AVX2, chosen at run time): each 128-bit
 * half of the vectors is one output and repeats the scalar path's SSE loop operation for
 * operation (four tap lanes, positions stepped by 4, table pairs interpolated, folded as
 * (l0 + l2) + (l1 + l3)), then the remaining taps one by one, so every output is
 * bit-identical to the one-at-a-time path. No gathers: they are slower than loads on the
 * EPYC this was measured on. The target is "avx2" alone: without "fma" the compiler cannot
 * contract a multiply and an add into one rounding, which would change the sums.
 */
#include "kernels/common/audio_resample.h"

#if defined(__x86_64__)
#include <immintrin.h>

bool dalic_audio_resample_has_avx2(void)
{
	return __builtin_cpu_supports("avx2");
}

/* The table pairs at the indices of k (lanes 0-3: p0, lanes 4-7: p1) as values and deltas.
 * The indices are >= 0 (the window's range starts at the table's leading zero), so their
 * byte offsets (k * 8, one pair) come out of each 64-bit half by a zero-extending move and a
 * shift: fewer integer operations than sign-extending eight 32-bit indices. */
__attribute__((target("avx2"))) static inline void
audio_resample_avx2_pairs(const float *pairs, __m256i k, __m256 *cur, __m256 *delta)
{
	const char *base = (const char *)pairs;
	__m256i off = _mm256_slli_epi32(k, 3);
	__m128i olo = _mm256_castsi256_si128(off), ohi = _mm256_extracti128_si256(off, 1);
	uint64_t o01 = (uint64_t)_mm_cvtsi128_si64(olo), o23 = (uint64_t)_mm_extract_epi64(olo, 1);
	uint64_t o45 = (uint64_t)_mm_cvtsi128_si64(ohi), o67 = (uint64_t)_mm_extract_epi64(ohi, 1);
	const __m128 z = _mm_setzero_ps();
#define AUDIO_RESAMPLE_LO(O) ((const __m64 *)(base + (uint32_t)(O)))
#define AUDIO_RESAMPLE_HI(O) ((const __m64 *)(base + ((O) >> 32)))
	__m128 a0 = _mm_loadh_pi(_mm_loadl_pi(z, AUDIO_RESAMPLE_LO(o01)), AUDIO_RESAMPLE_HI(o01));
	__m128 b0 = _mm_loadh_pi(_mm_loadl_pi(z, AUDIO_RESAMPLE_LO(o23)), AUDIO_RESAMPLE_HI(o23));
	__m128 a1 = _mm_loadh_pi(_mm_loadl_pi(z, AUDIO_RESAMPLE_LO(o45)), AUDIO_RESAMPLE_HI(o45));
	__m128 b1 = _mm_loadh_pi(_mm_loadl_pi(z, AUDIO_RESAMPLE_LO(o67)), AUDIO_RESAMPLE_HI(o67));
#undef AUDIO_RESAMPLE_LO
#undef AUDIO_RESAMPLE_HI
	__m256 a = _mm256_set_m128(a1, a0), b = _mm256_set_m128(b1, b0);
	*cur = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
	*delta = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1));
}

__attribute__((target("avx2"), always_inline)) static inline void
audio_resample_avx2_two(const dalic_audio_window_t *w, const float *src, const float *pos,
                        const int *i0, int n, float *out)
{
	const __m256 scale = _mm256_set1_ps(w->scale), center = _mm256_set1_ps(w->center);
	const float *s0 = src + i0[0], *s1 = src + i0[1];
	__m256 x = _mm256_setr_ps((float)i0[0] - pos[0], (float)(i0[0] + 1) - pos[0],
	                          (float)(i0[0] + 2) - pos[0], (float)(i0[0] + 3) - pos[0],
	                          (float)i0[1] - pos[1], (float)(i0[1] + 1) - pos[1],
	                          (float)(i0[1] + 2) - pos[1], (float)(i0[1] + 3) - pos[1]);
	__m256 f = _mm256_setzero_ps();
	int t = 0;
	for (; t + 3 < n; t += 4) {
		__m256 fi = _mm256_add_ps(_mm256_mul_ps(x, scale), center);
		__m256i k = _mm256_cvttps_epi32(fi);
		__m256 di = _mm256_sub_ps(fi, _mm256_cvtepi32_ps(k));
		__m256 cur, delta;
		audio_resample_avx2_pairs(w->pairs, k, &cur, &delta);
		__m256 wt = _mm256_add_ps(cur, _mm256_mul_ps(di, delta));
		__m256 v = _mm256_set_m128(_mm_loadu_ps(s1 + t), _mm_loadu_ps(s0 + t));
		f = _mm256_add_ps(f, _mm256_mul_ps(v, wt));
		x = _mm256_add_ps(x, _mm256_set1_ps(4));
	}
	f = _mm256_add_ps(f, _mm256_shuffle_ps(f, f, _MM_SHUFFLE(1, 0, 3, 2)));
	f = _mm256_add_ps(f, _mm256_shuffle_ps(f, f, _MM_SHUFFLE(0, 1, 0, 1)));
	float sum[8];
	_mm256_storeu_ps(sum, f);
	out[0] = dalic_audio_resample_tail(w, src, pos[0], i0[0] + t, i0[0] + n, sum[0]);
	out[1] = dalic_audio_resample_tail(w, src, pos[1], i0[1] + t, i0[1] + n, sum[4]);
}
/* The block's loop (see audio_resample.h), in this file so that the range's ceilf is one
 * instruction and the pair kernel is inlined: once per two outputs, these were a quarter of
 * the resampler's instructions. Positions step exactly as in the one-at-a-time loop. */
__attribute__((target("avx2"))) int64_t
dalic_audio_resample_avx2_pairs(const dalic_audio_window_t *w, float *out, int64_t o, int64_t end,
                                const float *src, float *in_pos, float fscale, int64_t in_block,
                                int64_t n_in)
{
	float pos = *in_pos;
	while (end - o >= 2) {
		float p[2] = {pos, pos + fscale};
		int i0[2], i1[2];
		dalic_audio_resample_range(w, p[0], in_block, n_in, &i0[0], &i1[0]);
		dalic_audio_resample_range(w, p[1], in_block, n_in, &i0[1], &i1[1]);
		if (i1[1] - i0[1] != i1[0] - i0[0])
			break;
		audio_resample_avx2_two(w, src, p, i0, i1[0] - i0[0], out + o);
		o += 2;
		pos = p[1] + fscale;
	}
	*in_pos = pos;
	return o;
}
#else
bool dalic_audio_resample_has_avx2(void)
{
	return false;
}

int64_t dalic_audio_resample_avx2_pairs(const dalic_audio_window_t *w, float *out, int64_t o,
                                        int64_t end, const float *src, float *in_pos, float fscale,
                                        int64_t in_block, int64_t n_in)
{
	(void)w, (void)out, (void)end, (void)src, (void)in_pos, (void)fscale, (void)in_block,
	    (void)n_in; /* never called: no AVX2 */
	return o;
}
#endif
