/*
 * crop_mirror_normalize's RGB row with AVX2 (img_cmn_simd.h): 8 pixels (24 bytes) per step.
 * Byte shuffles split the interleaved pixels into their R, G and B bytes, already reversed for
 * a mirrored row, so the float work is one widening, one multiply and one add per 8 values of a
 * plane. The arithmetic is the scalar loop's (exact uint8 to float, multiply, then add, each
 * rounded once: compiled without FMA), so the output bits are the same.
 */
#include "kernels/common/img_cmn_simd.h"

#include <stdatomic.h>

/* -1: not decided yet; else the IMG_CMN_* form in force */
static atomic_int img_cmn_level = -1;

static int img_cmn_best(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2"))
		return IMG_CMN_AVX2;
#endif
#ifdef __SSE2__
	return IMG_CMN_SSE2;
#else
	return IMG_CMN_SCALAR;
#endif
}

int dalic_img_cmn_simd(void)
{
	int v = atomic_load_explicit(&img_cmn_level, memory_order_relaxed);
	if (v < 0) {
		v = img_cmn_best();
		atomic_store(&img_cmn_level, v);
	}
	return v;
}

int dalic_img_cmn_simd_limit(int level)
{
	int best = img_cmn_best(), v = level < best ? level : best;
	atomic_store(&img_cmn_level, v < 0 ? 0 : v);
	return v < 0 ? 0 : v;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define IMG_CMN_TARGET_AVX2 __attribute__((target("avx2")))

/* pshufb tables, [mirror][part * 3 + plane]: the byte of the 16-byte head (bytes 0-15 of the 8
 * pixels; part 0) or of the 8-byte tail (bytes 16-23; part 1) that output lane i takes, -1
 * where the other part supplies it. Plane c, lane i reads pixel q = i (7 - i mirrored), byte
 * 3q + c; lanes 8-15 are zero. */
static const int8_t img_cmn_shuf[2][6][16] = {
    {
        /* in order */
        {0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},   /* head, R */
        {1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},  /* head, G */
        {2, 5, 8, 11, 14, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},  /* head, B */
        {-1, -1, -1, -1, -1, -1, 2, 5, -1, -1, -1, -1, -1, -1, -1, -1}, /* tail, R */
        {-1, -1, -1, -1, -1, 0, 3, 6, -1, -1, -1, -1, -1, -1, -1, -1},  /* tail, G */
        {-1, -1, -1, -1, -1, 1, 4, 7, -1, -1, -1, -1, -1, -1, -1, -1},  /* tail, B */
    },
    {
        /* mirrored */
        {-1, -1, 15, 12, 9, 6, 3, 0, -1, -1, -1, -1, -1, -1, -1, -1},   /* head, R */
        {-1, -1, -1, 13, 10, 7, 4, 1, -1, -1, -1, -1, -1, -1, -1, -1},  /* head, G */
        {-1, -1, -1, 14, 11, 8, 5, 2, -1, -1, -1, -1, -1, -1, -1, -1},  /* head, B */
        {5, 2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}, /* tail, R */
        {6, 3, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},  /* tail, G */
        {7, 4, 1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},  /* tail, B */
    },
};

IMG_CMN_TARGET_AVX2 int64_t dalic_img_cmn_rgb_row_avx2(const uint8_t *row, int64_t ow, bool mirror,
                                                       const float *mul, const float *add,
                                                       float *o0, float *o1, float *o2)
{
	const int8_t(*sh)[16] = img_cmn_shuf[mirror];
	const __m128i head_of[3] = {_mm_loadu_si128((const __m128i *)sh[0]),
	                            _mm_loadu_si128((const __m128i *)sh[1]),
	                            _mm_loadu_si128((const __m128i *)sh[2])};
	const __m128i tail_of[3] = {_mm_loadu_si128((const __m128i *)sh[3]),
	                            _mm_loadu_si128((const __m128i *)sh[4]),
	                            _mm_loadu_si128((const __m128i *)sh[5])};
	const __m256 m[3] = {_mm256_set1_ps(mul[0]), _mm256_set1_ps(mul[1]),
	                     _mm256_set1_ps(mul[2])};
	const __m256 a[3] = {_mm256_set1_ps(add[0]), _mm256_set1_ps(add[1]),
	                     _mm256_set1_ps(add[2])};
	float *const o[3] = {o0, o1, o2};
	int64_t x = 0;
	for (; x + 8 <= ow; x += 8) {
		/* the eight source pixels, left to right: a mirrored row reads them from the end */
		const uint8_t *p = row + (mirror ? ow - 8 - x : x) * 3;
		const __m128i head = _mm_loadu_si128((const __m128i *)p);
		const __m128i tail = _mm_loadl_epi64((const __m128i *)(p + 16)); /* 24 bytes */
		_Pragma("GCC unroll 3") for (int c = 0; c < 3; c++)
		{
			__m128i b = _mm_or_si128(_mm_shuffle_epi8(head, head_of[c]),
			                         _mm_shuffle_epi8(tail, tail_of[c]));
			__m256 v = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(b));
			_mm256_storeu_ps(o[c] + x, _mm256_add_ps(_mm256_mul_ps(v, m[c]), a[c]));
		}
	}
	return x;
}
#else
int64_t dalic_img_cmn_rgb_row_avx2(const uint8_t *row, int64_t ow, bool mirror, const float *mul,
                                   const float *add, float *o0, float *o1, float *o2)
{
	(void)row, (void)ow, (void)mirror, (void)mul, (void)add, (void)o0, (void)o1, (void)o2;
	return 0;
}
#endif
