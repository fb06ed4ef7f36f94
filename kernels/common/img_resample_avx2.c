/*
 * AVX2 forms of img_resample.c's vertical pass (8 floats per register instead of 4) and of its
 * horizontal pass for 3-4 channels (two output pixels per register instead of one), chosen at
 * run time when the CPU has AVX2 (img_resample_simd.h). Bit-identical to the SSE2 and scalar
 * forms: each output element is the same multiply then add per tap, in the same tap order, in
 * single precision; the functions are compiled for AVX2 without FMA, so no multiply-add is
 * ever fused.
 */
#include "kernels/common/img_resample_simd.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define RESAMPLE_AVX2 __attribute__((target("avx2")))

bool dalic_img_resample_avx2_available(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2");
}

RESAMPLE_AVX2 static inline __m256 resample_avx2_load_u8(const uint8_t *p)
{
	return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p)));
}

RESAMPLE_AVX2 static inline __m256 resample_avx2_load_f32(const float *p)
{
	return _mm256_loadu_ps(p);
}

/* acc[0..n) = sum_k w[k] * rows[k][0..n), 16 then 8 columns at a time; TAPS > 0 fixes the
 * tap count so the weights stay in registers. */
#define DEFINE_VSUM_AVX2(name, T, load, TAPS)                                                \
	RESAMPLE_AVX2 static void name(float *restrict acc, const void *const *rows,           \
				       const float *w, int taps, int n)                        \
	{                                                                                      \
		if (TAPS > 0)                                                                  \
			taps = TAPS;                                                           \
		int j = 0;                                                                     \
		for (; j + 16 <= n; j += 16) {                                                 \
			__m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps();             \
			_Pragma("GCC unroll 4") for (int k = 0; k < taps; k++)                 \
			{                                                                      \
				const __m256 wk = _mm256_set1_ps(w[k]);                        \
				const T *r = (const T *)rows[k] + j;                           \
				s0 = _mm256_add_ps(s0, _mm256_mul_ps(wk, load(r)));            \
				s1 = _mm256_add_ps(s1, _mm256_mul_ps(wk, load(r + 8)));        \
			}                                                                      \
			_mm256_storeu_ps(acc + j, s0);                                         \
			_mm256_storeu_ps(acc + j + 8, s1);                                     \
		}                                                                              \
		for (; j + 8 <= n; j += 8) {                                                   \
			__m256 s = _mm256_setzero_ps();                                        \
			for (int k = 0; k < taps; k++)                                         \
				s = _mm256_add_ps(s, _mm256_mul_ps(_mm256_set1_ps(w[k]),       \
								   load((const T *)rows[k] + j))); \
			_mm256_storeu_ps(acc + j, s);                                          \
		}                                                                              \
		IMG_RESAMPLE_VSUM_TAIL(T)                                                      \
	}
#define DEFINE_VSUM_AVX2_ALL(name, T, load)                                                  \
	DEFINE_VSUM_AVX2(name##_1, T, load, 1)                                                 \
	DEFINE_VSUM_AVX2(name##_2, T, load, 2)                                                 \
	DEFINE_VSUM_AVX2(name##_3, T, load, 3)                                                 \
	DEFINE_VSUM_AVX2(name##_4, T, load, 4)                                                 \
	DEFINE_VSUM_AVX2(name##_n, T, load, 0)                                                 \
	void name(float *restrict acc, const void *const *rows, const float *w, int taps, int n) \
	{                                                                                      \
		IMG_RESAMPLE_VSUM_SWITCH(name)                                                 \
	}
DEFINE_VSUM_AVX2_ALL(dalic_img_resample_vsum_u8_avx2, uint8_t, resample_avx2_load_u8)
DEFINE_VSUM_AVX2_ALL(dalic_img_resample_vsum_f32_avx2, float, resample_avx2_load_f32)

/* The horizontal pass, 3-4 channels: a pair of output pixels (x, x + 1) per vector, pixel x in
 * the low half. The low half is stored first, so with 3 channels its spill into pixel x + 1 is
 * overwritten; an odd last pixel takes the 4-lane form. TAPS > 0 fixes the tap count. */
#define DEFINE_HSUM4_AVX2(name, TAPS)                                                        \
	RESAMPLE_AVX2 static void name(const float *restrict in, int C, int n, int taps,       \
				       const int32_t *idx, const float *w4, float *restrict out) \
	{                                                                                      \
		if (TAPS > 0)                                                                  \
			taps = TAPS;                                                           \
		int x = 0;                                                                     \
		for (; x + 2 <= n; x += 2, idx += 2 * taps, w4 += 8 * taps) {                  \
			const int32_t *i1 = idx + taps;                                        \
			__m256 s = _mm256_setzero_ps();                                        \
			_Pragma("GCC unroll 4") for (int k = 0; k < taps; k++)                 \
			{                                                                      \
				__m256 p = _mm256_insertf128_ps(                               \
				    _mm256_castps128_ps256(_mm_loadu_ps(in + idx[k])),         \
				    _mm_loadu_ps(in + i1[k]), 1);                              \
				s = _mm256_add_ps(s, _mm256_mul_ps(_mm256_loadu_ps(w4 + 8 * k), p)); \
			}                                                                      \
			_mm_storeu_ps(out + C * x, _mm256_castps256_ps128(s));                 \
			_mm_storeu_ps(out + C * (x + 1), _mm256_extractf128_ps(s, 1));         \
		}                                                                              \
		if (x < n) {                                                                   \
			__m128 s = _mm_setzero_ps();                                           \
			for (int k = 0; k < taps; k++)                                         \
				s = _mm_add_ps(s, _mm_mul_ps(_mm_loadu_ps(w4 + 8 * k),         \
							     _mm_loadu_ps(in + idx[k])));      \
			_mm_storeu_ps(out + C * x, s);                                         \
		}                                                                              \
	}
DEFINE_HSUM4_AVX2(resample_hsum4_avx2_1, 1)
DEFINE_HSUM4_AVX2(resample_hsum4_avx2_2, 2)
DEFINE_HSUM4_AVX2(resample_hsum4_avx2_3, 3)
DEFINE_HSUM4_AVX2(resample_hsum4_avx2_4, 4)
DEFINE_HSUM4_AVX2(resample_hsum4_avx2_5, 5)
DEFINE_HSUM4_AVX2(resample_hsum4_avx2_n, 0)

void dalic_img_resample_hsum4_avx2(const float *restrict in, int C, int n, int taps,
				   const int32_t *idx, const float *w4, float *restrict out)
{
	switch (taps) {
	case 1: resample_hsum4_avx2_1(in, C, n, taps, idx, w4, out); break;
	case 2: resample_hsum4_avx2_2(in, C, n, taps, idx, w4, out); break;
	case 3: resample_hsum4_avx2_3(in, C, n, taps, idx, w4, out); break;
	case 4: resample_hsum4_avx2_4(in, C, n, taps, idx, w4, out); break;
	case 5: resample_hsum4_avx2_5(in, C, n, taps, idx, w4, out); break;
	default: resample_hsum4_avx2_n(in, C, n, taps, idx, w4, out); break;
	}
}

#else
bool dalic_img_resample_avx2_available(void)
{
	return false;
}

void dalic_img_resample_vsum_u8_avx2(float *restrict acc, const void *const *rows,
				     const float *w, int taps, int n)
{
	(void)acc, (void)rows, (void)w, (void)taps, (void)n;
}

void dalic_img_resample_vsum_f32_avx2(float *restrict acc, const void *const *rows,
				      const float *w, int taps, int n)
{
	(void)acc, (void)rows, (void)w, (void)taps, (void)n;
}

void dalic_img_resample_hsum4_avx2(const float *restrict in, int C, int n, int taps,
				   const int32_t *idx, const float *w4, float *restrict out)
{
	(void)in, (void)C, (void)n, (void)taps, (void)idx, (void)w4, (void)out;
}
#endif
