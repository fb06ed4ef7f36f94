/* CRC-32C (crc32c.h): reflected polynomial 0x82F63B78, initial and final value ~0.
 *
 * Four paths, checked once at run time (cpuid): folding by carry-less multiplication on
 * 32-byte AVX2 lanes (VPCLMULQDQ) or 16-byte lanes (PCLMULQDQ), crc32c_fold.c; three chains
 * of the SSE4.2 crc32 instruction; slicing-by-8 tables. The default is the 32-byte fold, else
 * the chains (crc32c_pick_default). A fifth, the 32-byte
 * fold with crc32 chains beside it, runs only when chosen (DALIC_CRC32C_PATH=mix): on the EPYC
 * measured it is faster than the others on data in cache (28 against 24 GB/s) but slower
 * streaming from memory (12 against 15), which is where a reader's records come from
 * (bench/README.md, readers.sh).
 *
 * The SSE4.2 path runs three independent crc32 chains over three equal blocks (the
 * instruction's latency is three times its throughput, so one chain leaves the unit two
 * thirds idle) and joins them: the register is linear, crc(c, A B C) = c_A x^(16L) + c_B
 * x^(8L) + c_C mod P, where c_B and c_C start from 0. The products by the fixed powers of x
 * are four table lookups each (crc32c_shift). Blocks of 8 KiB, then 256 bytes, then one
 * chain for the tail. */
#include "kernels/common/crc32c.h"
#include "kernels/common/crc32c_fold.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define CRC32C_POLY 0x82F63B78u
#define CRC32C_LONG 8192 /* bytes per block of the three-chain loop */
#define CRC32C_SHORT 256

static uint32_t crc32c_table[8][256];
/* crc32c_mul_tab[s][j][b]: (b << 8j) times x^(8 len) mod P, for the shifts of
 * crc32c_shifts[s] bytes: the long block, twice it, the short block, twice it. */
static uint32_t crc32c_mul_tab[4][4][256];
static const size_t crc32c_shifts[4] = {CRC32C_LONG, 2 * CRC32C_LONG, CRC32C_SHORT,
                                        2 * CRC32C_SHORT};
static pthread_once_t crc32c_once = PTHREAD_ONCE_INIT;
static bool crc32c_has[DALIC_CRC32C_PATHS];
static dalic_crc32c_path_t crc32c_best;
static const char *const crc32c_names[DALIC_CRC32C_PATHS] = {"table", "sse4.2", "pclmul", "vpclmul",
                                                             "mix"};

/* a * b mod P in the reflected representation (bit 31 is x^0). */
static uint32_t crc32c_mulmod(uint32_t a, uint32_t b)
{
	uint32_t p = 0;
	for (uint32_t m = 1u << 31; m; m >>= 1) {
		if (a & m)
			p ^= b;
		b = (b >> 1) ^ (CRC32C_POLY & (0u - (b & 1)));
	}
	return p;
}

uint32_t dalic_crc32c_xpow(uint64_t n)
{
	uint32_t r = 1u << 31, sq = 1u << 30; /* x^0 and x^1 */
	for (; n; n >>= 1) {
		if (n & 1)
			r = crc32c_mulmod(r, sq);
		sq = crc32c_mulmod(sq, sq);
	}
	return r;
}

static dalic_crc32c_path_t crc32c_pick_default(void);

static void crc32c_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (CRC32C_POLY & (0u - (c & 1)));
		crc32c_table[0][i] = c;
	}
	for (int t = 1; t < 8; t++)
		for (int i = 0; i < 256; i++)
			crc32c_table[t][i] = (crc32c_table[t - 1][i] >> 8) ^
			                     crc32c_table[0][crc32c_table[t - 1][i] & 0xff];
	for (int s = 0; s < 4; s++) {
		uint32_t k = dalic_crc32c_xpow(8 * (uint64_t)crc32c_shifts[s]);
		for (int j = 0; j < 4; j++) {
			uint32_t *t = crc32c_mul_tab[s][j];
			t[0] = 0;
			for (int bit = 0; bit < 8; bit++) /* one product per bit, then sums */
				t[1 << bit] = crc32c_mulmod(1u << (8 * j + bit), k);
			for (int b = 1; b < 256; b++)
				t[b] = t[b & (b - 1)] ^ t[b & -b];
		}
	}
	crc32c_has[DALIC_CRC32C_TABLE] = true;
#if defined(DALIC_CRC32C_HAVE_FOLD)
	dalic_crc32c_fold_init();
	__builtin_cpu_init();
	crc32c_has[DALIC_CRC32C_SSE42] = __builtin_cpu_supports("sse4.2");
	crc32c_has[DALIC_CRC32C_PCLMUL] =
	    crc32c_has[DALIC_CRC32C_SSE42] && __builtin_cpu_supports("pclmul");
	/* __builtin_cpu_supports("avx2") includes the OS saving the ymm registers (XCR0) */
	crc32c_has[DALIC_CRC32C_VPCLMUL] = crc32c_has[DALIC_CRC32C_PCLMUL] &&
	                                   __builtin_cpu_supports("avx2") &&
	                                   __builtin_cpu_supports("vpclmulqdq");
	crc32c_has[DALIC_CRC32C_MIX] = crc32c_has[DALIC_CRC32C_VPCLMUL];
#endif
	crc32c_best = crc32c_pick_default();
	/* DALIC_CRC32C_PATH names a path to use where the CPU has it (measurements, tests);
	 * DALIC_CRC32C_SOFTWARE, as before, the table */
	const char *want = getenv("DALIC_CRC32C_PATH");
	for (int k = 0; want && k < DALIC_CRC32C_PATHS; k++)
		if (!strcmp(want, crc32c_names[k]) && crc32c_has[k])
			crc32c_best = (dalic_crc32c_path_t)k;
	if (getenv("DALIC_CRC32C_SOFTWARE"))
		crc32c_best = DALIC_CRC32C_TABLE;
}

/* Register c moved on by crc32c_shifts[s] zero bytes. */
static inline uint32_t crc32c_shift(uint32_t c, int s)
{
	const uint32_t(*t)[256] = crc32c_mul_tab[s];
	return t[0][c & 0xff] ^ t[1][(c >> 8) & 0xff] ^ t[2][(c >> 16) & 0xff] ^ t[3][c >> 24];
}

/* Slicing by 8: eight table lookups per 8 bytes. */
static uint32_t crc32c_sw(uint32_t c, const uint8_t *p, size_t n)
{
	while (n >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		w ^= c;
		c = crc32c_table[7][w & 0xff] ^ crc32c_table[6][(w >> 8) & 0xff] ^
		    crc32c_table[5][(w >> 16) & 0xff] ^ crc32c_table[4][(w >> 24) & 0xff] ^
		    crc32c_table[3][(w >> 32) & 0xff] ^ crc32c_table[2][(w >> 40) & 0xff] ^
		    crc32c_table[1][(w >> 48) & 0xff] ^ crc32c_table[0][w >> 56];
		p += 8;
		n -= 8;
	}
	while (n--)
		c = (c >> 8) ^ crc32c_table[0][(c ^ *p++) & 0xff];
	return c;
}

#if defined(DALIC_CRC32C_HAVE_FOLD)
/* Three chains over blocks of `len` bytes (a multiple of 8) from register c; s indexes the
 * shift tables for len (s) and 2 len (s + 1). */
__attribute__((target("sse4.2"))) static uint32_t crc32c_hw_three(uint32_t c, const uint8_t *p,
                                                                  size_t len, int s)
{
	uint64_t c0 = c, c1 = 0, c2 = 0;
	for (size_t i = 0; i < len; i += 8) {
		uint64_t w0, w1, w2;
		memcpy(&w0, p + i, 8);
		memcpy(&w1, p + len + i, 8);
		memcpy(&w2, p + 2 * len + i, 8);
		c0 = __builtin_ia32_crc32di(c0, w0);
		c1 = __builtin_ia32_crc32di(c1, w1);
		c2 = __builtin_ia32_crc32di(c2, w2);
	}
	return crc32c_shift((uint32_t)c0, s + 1) ^ crc32c_shift((uint32_t)c1, s) ^ (uint32_t)c2;
}

__attribute__((target("sse4.2"))) static uint32_t crc32c_hw_run(uint32_t c, const uint8_t *p,
                                                                size_t n)
{
	for (; n >= 3 * CRC32C_LONG; p += 3 * CRC32C_LONG, n -= 3 * CRC32C_LONG)
		c = crc32c_hw_three(c, p, CRC32C_LONG, 0);
	for (; n >= 3 * CRC32C_SHORT; p += 3 * CRC32C_SHORT, n -= 3 * CRC32C_SHORT)
		c = crc32c_hw_three(c, p, CRC32C_SHORT, 2);
	uint64_t c64 = c;
	while (n >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		c64 = __builtin_ia32_crc32di(c64, w);
		p += 8;
		n -= 8;
	}
	c = (uint32_t)c64;
	while (n--)
		c = __builtin_ia32_crc32qi(c, *p++);
	return c;
}
#endif

/* The default path: the 32-byte fold, else the crc32 chains, else the table. The fold and
 * the chains both do 8 bytes a cycle on the EPYC measured (its VPCLMULQDQ issues every
 * other cycle: 0.69 ns a ymm product), within 10% of each other streaming records from
 * memory, and the fold 10-20% faster on 32-60 KB records in cache; where VPCLMULQDQ issues
 * every cycle (Ice Lake and later, by published instruction tables; not measured here) the
 * fold does twice the bytes. The 16-byte fold has half the width and no lead over the
 * chains; the mixed path is above. */
static dalic_crc32c_path_t crc32c_pick_default(void)
{
	for (int k = DALIC_CRC32C_VPCLMUL; k > 0; k--)
		if (k != DALIC_CRC32C_PCLMUL && crc32c_has[k])
			return (dalic_crc32c_path_t)k;
	return DALIC_CRC32C_TABLE;
}

bool dalic_crc32c_path_available(dalic_crc32c_path_t path)
{
	pthread_once(&crc32c_once, crc32c_init);
	return (unsigned)path < DALIC_CRC32C_PATHS && crc32c_has[path];
}

dalic_crc32c_path_t dalic_crc32c_path(void)
{
	pthread_once(&crc32c_once, crc32c_init);
	return crc32c_best;
}

const char *dalic_crc32c_path_name(dalic_crc32c_path_t path)
{
	return (unsigned)path < DALIC_CRC32C_PATHS ? crc32c_names[path] : "?";
}

uint32_t dalic_crc32c_using(const void *data, size_t n, dalic_crc32c_path_t path)
{
	if (!dalic_crc32c_path_available(path))
		path = DALIC_CRC32C_TABLE;
	switch (path) {
#if defined(DALIC_CRC32C_HAVE_FOLD)
	case DALIC_CRC32C_MIX:
		return ~dalic_crc32c_fold_mix(~0u, data, n);
	case DALIC_CRC32C_VPCLMUL:
		return ~dalic_crc32c_fold_avx(~0u, data, n);
	case DALIC_CRC32C_PCLMUL:
		return ~dalic_crc32c_fold_sse(~0u, data, n);
	case DALIC_CRC32C_SSE42:
		return ~crc32c_hw_run(~0u, data, n);
#endif
	default:
		return ~crc32c_sw(~0u, data, n);
	}
}

uint32_t dalic_crc32c(const void *data, size_t n)
{
	return dalic_crc32c_using(data, n, dalic_crc32c_path());
}
