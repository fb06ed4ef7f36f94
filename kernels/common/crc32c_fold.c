/*
 * CRC-32C by carry-less multiplication (crc32c_fold.h), after Intel's "Fast CRC Computation
 * for Generic Polynomials Using PCLMULQDQ Instruction", for the reflected Castagnoli
 * polynomial. The crc32 instruction does 8 bytes a cycle at best; folding does 16 or 32 bytes
 * per multiply pair on independent lanes, so it runs at the speed of the loads.
 *
 * The invariant: a 128-bit accumulator A is congruent (mod P) to the message so far, read as
 * a polynomial (the first byte's bit 0 the highest power). Appending a block B of D bits gives
 * A x^D + B; with A = F x^64 + S (F the first eight bytes, the low quadword) that is
 * F (x^(64+D) mod P) + S (x^D mod P) + B: two 64x32-bit carry-less products and two XORs,
 * below 96 bits. In the reflected layout a product comes out one bit short of the 128-bit
 * register's alignment, so the constants are x^(63+D) and x^(D-1) mod P, placed in the upper
 * half of each quadword. Lanes 16 (SSE) or 32 (AVX2) bytes apart fold over D = the loop's
 * stride; at the end they fold into one at D = 128, and the crc32 instruction over A's 16
 * bytes (register 0) gives A x^32 mod P, the CRC, with no Barrett reduction. The starting
 * register is XORed into the first four bytes, which is what a CRC's initial value means.
 * The tail under 16 bytes goes through the crc32 instruction.
 */
#include "kernels/common/crc32c_fold.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#include <string.h>

#define CRC32C_FOLD_SSE __attribute__((target("sse4.2,pclmul")))
#define CRC32C_FOLD_AVX __attribute__((target("sse4.2,pclmul,avx2,vpclmulqdq")))

/* {x^(63+D), x^(D-1)} mod P, each shifted into the upper half of its quadword, for D = 128,
 * 512 (4 SSE lanes) and 1024 (4 AVX2 lanes of two). */
static uint64_t crc32c_fold_k128[2], crc32c_fold_k512[2], crc32c_fold_k1024[2];

/* The mixed path's blocks: CRC32C_MIX_V bytes folded by the vector unit while four crc32
 * chains take CRC32C_MIX_C bytes each (the two units are separate and, on the machines
 * measured, equally fast: 8 bytes a cycle each). */
#define CRC32C_MIX_TURNS 48
#define CRC32C_MIX_V (CRC32C_MIX_TURNS * 128)
#define CRC32C_MIX_C (CRC32C_MIX_TURNS * 32)
#define CRC32C_MIX_BLOCK (CRC32C_MIX_V + 4 * CRC32C_MIX_C)
/* x^(8k - 33) mod P for a shift by k = 1, 2, 3 and 4 chains and by a whole block
 * (crc32c_fold_shift). */
static uint64_t crc32c_fold_kshift[5];

static void crc32c_fold_pair(uint64_t *k, unsigned d)
{
	k[0] = (uint64_t)dalic_crc32c_xpow(63u + d) << 32;
	k[1] = (uint64_t)dalic_crc32c_xpow(d - 1u) << 32;
}

void dalic_crc32c_fold_init(void)
{
	crc32c_fold_pair(crc32c_fold_k128, 128);
	crc32c_fold_pair(crc32c_fold_k512, 512);
	crc32c_fold_pair(crc32c_fold_k1024, 1024);
	for (int k = 1; k <= 4; k++)
		crc32c_fold_kshift[k - 1] = dalic_crc32c_xpow(8u * k * CRC32C_MIX_C - 33u);
	crc32c_fold_kshift[4] = dalic_crc32c_xpow(8u * CRC32C_MIX_BLOCK - 33u);
}

/* The crc32 instruction over what is left (under 16 bytes after a fold, any length for a
 * buffer too short to fold). */
CRC32C_FOLD_SSE static uint32_t crc32c_fold_tail(uint32_t c, const uint8_t *p, size_t n)
{
	uint64_t c64 = c;
	for (; n >= 8; p += 8, n -= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		c64 = __builtin_ia32_crc32di(c64, w);
	}
	c = (uint32_t)c64;
	while (n--)
		c = __builtin_ia32_crc32qi(c, *p++);
	return c;
}

CRC32C_FOLD_SSE static inline __m128i crc32c_fold_sse_step(__m128i a, __m128i k, __m128i b)
{
	__m128i f = _mm_clmulepi64_si128(a, k, 0x00); /* first quadword, times x^(63+D) */
	__m128i s = _mm_clmulepi64_si128(a, k, 0x11); /* second, times x^(D-1) */
	return _mm_xor_si128(_mm_xor_si128(f, s), b);
}

CRC32C_FOLD_SSE static inline __m128i crc32c_fold_load(const uint8_t *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}

/* One accumulator to the CRC register: A x^32 mod P is the crc32 of A's bytes from 0. */
CRC32C_FOLD_SSE static uint32_t crc32c_fold_finish(__m128i a, const uint8_t *p, size_t n)
{
	__m128i k = _mm_loadu_si128((const __m128i *)crc32c_fold_k128);
	for (; n >= 16; p += 16, n -= 16)
		a = crc32c_fold_sse_step(a, k, crc32c_fold_load(p));
	uint64_t c = __builtin_ia32_crc32di(0, (uint64_t)_mm_cvtsi128_si64(a));
	c = __builtin_ia32_crc32di(c, (uint64_t)_mm_extract_epi64(a, 1));
	return crc32c_fold_tail((uint32_t)c, p, n);
}

CRC32C_FOLD_SSE uint32_t dalic_crc32c_fold_sse(uint32_t c, const uint8_t *p, size_t n)
{
	if (n < 64)
		return crc32c_fold_tail(c, p, n);
	__m128i x0 = _mm_xor_si128(crc32c_fold_load(p), _mm_cvtsi32_si128((int)c));
	__m128i x1 = crc32c_fold_load(p + 16), x2 = crc32c_fold_load(p + 32);
	__m128i x3 = crc32c_fold_load(p + 48);
	p += 64;
	n -= 64;
	__m128i k = _mm_loadu_si128((const __m128i *)crc32c_fold_k512);
	for (; n >= 64; p += 64, n -= 64) {
		x0 = crc32c_fold_sse_step(x0, k, crc32c_fold_load(p));
		x1 = crc32c_fold_sse_step(x1, k, crc32c_fold_load(p + 16));
		x2 = crc32c_fold_sse_step(x2, k, crc32c_fold_load(p + 32));
		x3 = crc32c_fold_sse_step(x3, k, crc32c_fold_load(p + 48));
	}
	k = _mm_loadu_si128((const __m128i *)crc32c_fold_k128);
	x1 = crc32c_fold_sse_step(x0, k, x1);
	x2 = crc32c_fold_sse_step(x1, k, x2);
	x3 = crc32c_fold_sse_step(x2, k, x3);
	return crc32c_fold_finish(x3, p, n);
}

CRC32C_FOLD_AVX static inline __m256i crc32c_fold_avx_step(__m256i a, __m256i k, __m256i b)
{
	__m256i f = _mm256_clmulepi64_epi128(a, k, 0x00);
	__m256i s = _mm256_clmulepi64_epi128(a, k, 0x11);
	return _mm256_xor_si256(_mm256_xor_si256(f, s), b);
}

CRC32C_FOLD_AVX static inline __m256i crc32c_fold_load256(const uint8_t *p)
{
	return _mm256_loadu_si256((const __m256i *)p);
}

/* Four 32-byte lanes, each two 16-byte accumulators, 128 bytes a turn. */
CRC32C_FOLD_AVX uint32_t dalic_crc32c_fold_avx(uint32_t c, const uint8_t *p, size_t n)
{
	if (n < 256)
		return dalic_crc32c_fold_sse(c, p, n);
	__m256i y0 = _mm256_xor_si256(crc32c_fold_load256(p),
	                              _mm256_zextsi128_si256(_mm_cvtsi32_si128((int)c)));
	__m256i y1 = crc32c_fold_load256(p + 32), y2 = crc32c_fold_load256(p + 64);
	__m256i y3 = crc32c_fold_load256(p + 96);
	p += 128;
	n -= 128;
	__m256i k =
	    _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)crc32c_fold_k1024));
	for (; n >= 128; p += 128, n -= 128) {
		y0 = crc32c_fold_avx_step(y0, k, crc32c_fold_load256(p));
		y1 = crc32c_fold_avx_step(y1, k, crc32c_fold_load256(p + 32));
		y2 = crc32c_fold_avx_step(y2, k, crc32c_fold_load256(p + 64));
		y3 = crc32c_fold_avx_step(y3, k, crc32c_fold_load256(p + 96));
	}
	/* the eight 16-byte accumulators in message order, folded into one */
	__m128i v[8] = {_mm256_castsi256_si128(y0), _mm256_extracti128_si256(y0, 1),
	                _mm256_castsi256_si128(y1), _mm256_extracti128_si256(y1, 1),
	                _mm256_castsi256_si128(y2), _mm256_extracti128_si256(y2, 1),
	                _mm256_castsi256_si128(y3), _mm256_extracti128_si256(y3, 1)};
	__m128i k128 = _mm_loadu_si128((const __m128i *)crc32c_fold_k128), a = v[0];
	for (int i = 1; i < 8; i++)
		a = crc32c_fold_sse_step(a, k128, v[i]);
	return crc32c_fold_finish(a, p, n);
}

/* Register r moved on by k bytes, r x^(8k) mod P, given K = x^(8k-33) mod P: the carry-less
 * product of two 32-bit reflected values lands in the low 63 bits of a quadword that the
 * crc32 instruction (from 0) reads as the message R K x, and multiplies by x^32. */
CRC32C_FOLD_SSE static inline uint32_t crc32c_fold_shift(uint32_t r, uint64_t k)
{
	__m128i q =
	    _mm_clmulepi64_si128(_mm_cvtsi32_si128((int)r), _mm_cvtsi64_si128((long long)k), 0x00);
	return (uint32_t)__builtin_ia32_crc32di(0, (uint64_t)_mm_cvtsi128_si64(q));
}

/* One block's CRC from register 0: its first CRC32C_MIX_V bytes folded on four ymm lanes,
 * the four CRC32C_MIX_C-byte pieces after them on crc32 chains in the same loop. */
CRC32C_FOLD_AVX static uint32_t crc32c_fold_mix_block(const uint8_t *p, __m256i k)
{
	const uint8_t *q = p + CRC32C_MIX_V;
	__m256i y0 = crc32c_fold_load256(p), y1 = crc32c_fold_load256(p + 32);
	__m256i y2 = crc32c_fold_load256(p + 64), y3 = crc32c_fold_load256(p + 96);
	uint64_t c0 = 0, c1 = 0, c2 = 0, c3 = 0;
	for (int t = 0;; t++) {
		for (int j = 0; j < 32; j += 8) {
			uint64_t w0, w1, w2, w3;
			memcpy(&w0, q + j, 8);
			memcpy(&w1, q + CRC32C_MIX_C + j, 8);
			memcpy(&w2, q + 2 * CRC32C_MIX_C + j, 8);
			memcpy(&w3, q + 3 * CRC32C_MIX_C + j, 8);
			c0 = __builtin_ia32_crc32di(c0, w0);
			c1 = __builtin_ia32_crc32di(c1, w1);
			c2 = __builtin_ia32_crc32di(c2, w2);
			c3 = __builtin_ia32_crc32di(c3, w3);
		}
		q += 32;
		if (t == CRC32C_MIX_TURNS - 1)
			break;
		p += 128;
		y0 = crc32c_fold_avx_step(y0, k, crc32c_fold_load256(p));
		y1 = crc32c_fold_avx_step(y1, k, crc32c_fold_load256(p + 32));
		y2 = crc32c_fold_avx_step(y2, k, crc32c_fold_load256(p + 64));
		y3 = crc32c_fold_avx_step(y3, k, crc32c_fold_load256(p + 96));
	}
	__m128i v[8] = {_mm256_castsi256_si128(y0), _mm256_extracti128_si256(y0, 1),
	                _mm256_castsi256_si128(y1), _mm256_extracti128_si256(y1, 1),
	                _mm256_castsi256_si128(y2), _mm256_extracti128_si256(y2, 1),
	                _mm256_castsi256_si128(y3), _mm256_extracti128_si256(y3, 1)};
	__m128i k128 = _mm_loadu_si128((const __m128i *)crc32c_fold_k128), a = v[0];
	for (int i = 1; i < 8; i++)
		a = crc32c_fold_sse_step(a, k128, v[i]);
	uint64_t r = __builtin_ia32_crc32di(0, (uint64_t)_mm_cvtsi128_si64(a));
	r = __builtin_ia32_crc32di(r, (uint64_t)_mm_extract_epi64(a, 1));
	return crc32c_fold_shift((uint32_t)r, crc32c_fold_kshift[3]) ^
	       crc32c_fold_shift((uint32_t)c0, crc32c_fold_kshift[2]) ^
	       crc32c_fold_shift((uint32_t)c1, crc32c_fold_kshift[1]) ^
	       crc32c_fold_shift((uint32_t)c2, crc32c_fold_kshift[0]) ^ (uint32_t)c3;
}

/* Whole blocks, each from register 0 so that one block's joins overlap the next block's
 * loop, joined as crc(A B) = crc(A) x^(8|B|) + crc0(B); the rest by the AVX2 fold. */
CRC32C_FOLD_AVX uint32_t dalic_crc32c_fold_mix(uint32_t c, const uint8_t *p, size_t n)
{
	__m256i k =
	    _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)crc32c_fold_k1024));
	for (; n >= CRC32C_MIX_BLOCK; p += CRC32C_MIX_BLOCK, n -= CRC32C_MIX_BLOCK)
		c = crc32c_fold_shift(c, crc32c_fold_kshift[4]) ^ crc32c_fold_mix_block(p, k);
	return dalic_crc32c_fold_avx(c, p, n);
}

#endif
