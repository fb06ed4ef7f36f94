/* CRC-32C: RFC 3720's check values (B.4) and "123456789" through dalic_crc32c and every path
 * the CPU has; the table path equal to a bit-at-a-time CRC written here; every other path
 * (three crc32 chains, the PCLMULQDQ and VPCLMULQDQ folds, the mixed fold) equal to the table
 * over every length 0..1024 at every alignment 0..15 and over large buffers around each
 * path's block edges; and the dispatch: the best path the CPU has, or the one the
 * environment names. */
#include "kernels/common/crc32c.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

TestSuite(crc32c, .timeout = 60);

/* What the CPU offers, asked here independently of crc32c.c. */
static bool crc32c_test_cpu_has(dalic_crc32c_path_t path)
{
#if defined(__x86_64__)
	__builtin_cpu_init();
	bool sse = __builtin_cpu_supports("sse4.2"),
	     clmul = sse && __builtin_cpu_supports("pclmul");
	bool avx = clmul && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("vpclmulqdq");
	switch (path) {
	case DALIC_CRC32C_TABLE:
		return true;
	case DALIC_CRC32C_SSE42:
		return sse;
	case DALIC_CRC32C_PCLMUL:
		return clmul;
	default:
		return avx;
	}
#else
	return path == DALIC_CRC32C_TABLE;
#endif
}

static uint32_t crc32c_test_bitwise(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1)));
	}
	return ~c;
}

static uint8_t *crc32c_test_random(size_t n, uint32_t seed)
{
	uint8_t *buf = malloc(n);
	cr_assert(buf);
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1664525u + 1013904223u;
		buf[i] = (uint8_t)(seed >> 24);
	}
	return buf;
}

Test(crc32c, rfc3720_check_values)
{
	uint8_t zeros[32] = {0}, ones[32], inc[32], dec[32];
	memset(ones, 0xff, sizeof ones);
	for (int i = 0; i < 32; i++) {
		inc[i] = (uint8_t)i;
		dec[i] = (uint8_t)(31 - i);
	}
	const struct {
		const void *data;
		size_t n;
		uint32_t want;
	} cases[] = {{zeros, 32, 0x8A9136AAu},      {ones, 32, 0x62A8AB43u},
	             {inc, 32, 0x46DD794Eu},        {dec, 32, 0x113FDB5Cu},
	             {"123456789", 9, 0xE3069283u}, {"", 0, 0}};
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		cr_expect_eq(dalic_crc32c(cases[k].data, cases[k].n), cases[k].want,
		             "case %zu: %08x", k, dalic_crc32c(cases[k].data, cases[k].n));
		for (int p = 0; p < DALIC_CRC32C_PATHS; p++)
			if (dalic_crc32c_path_available(p))
				cr_expect_eq(dalic_crc32c_using(cases[k].data, cases[k].n, p),
				             cases[k].want, "case %zu (%s)", k,
				             dalic_crc32c_path_name(p));
	}
}

/* Beyond the RFC's 32-byte vectors: the table against a bit-at-a-time CRC on random data,
 * and every path against it on 4 KiB of 0xff. */
Test(crc32c, table_equals_the_bitwise_crc)
{
	uint8_t *buf = crc32c_test_random(70000, 7);
	size_t lens[] = {0, 1, 7, 8, 9, 63, 64, 65, 4095, 70000};
	for (size_t k = 0; k < sizeof lens / sizeof *lens; k++)
		cr_expect_eq(dalic_crc32c_using(buf, lens[k], DALIC_CRC32C_TABLE),
		             crc32c_test_bitwise(buf, lens[k]), "%zu bytes", lens[k]);
	memset(buf, 0xff, 4096);
	for (int p = 0; p < DALIC_CRC32C_PATHS; p++)
		if (dalic_crc32c_path_available(p))
			cr_expect_eq(dalic_crc32c_using(buf, 4096, p),
			             crc32c_test_bitwise(buf, 4096), "4096 x 0xff (%s)",
			             dalic_crc32c_path_name(p));
	free(buf);
}

static int crc32c_test_compare(dalic_crc32c_path_t p, const uint8_t *buf, size_t n, size_t start)
{
	uint32_t a = dalic_crc32c_using(buf + start, n, DALIC_CRC32C_TABLE);
	uint32_t b = dalic_crc32c_using(buf + start, n, p);
	cr_assert_eq(a, b, "%zu bytes from byte %zu: table %08x, %s %08x", n, start, a,
	             dalic_crc32c_path_name(p), b);
	return 1;
}

/* Every length 0..1024 at every alignment 0..15: the folds' lane set-up, their 16-byte
 * steps and their tails all fall in this range. */
Test(crc32c, every_path_equals_the_table_on_short_buffers)
{
	uint8_t *buf = crc32c_test_random(1024 + 16, 12345);
	int paths = 0;
	for (int p = 1; p < DALIC_CRC32C_PATHS; p++) {
		cr_expect_eq(dalic_crc32c_path_available(p), crc32c_test_cpu_has(p), "%s",
		             dalic_crc32c_path_name(p));
		if (!dalic_crc32c_path_available(p))
			continue;
		paths++;
		int compared = 0;
		for (size_t n = 0; n <= 1024; n++)
			for (size_t start = 0; start < 16; start++)
				compared += crc32c_test_compare(p, buf, n, start);
		cr_expect_eq(compared, 1025 * 16);
	}
	free(buf);
	if (!paths)
		cr_skip_test("this CPU has only the table path");
}

/* Large buffers: every length within 300 bytes of the three-chain blocks (3 x 256, 3 x 8192
 * and their multiples) and of the mixed path's 12 KiB blocks, and a few MiB-sized ones. */
Test(crc32c, every_path_equals_the_table_on_large_buffers)
{
	size_t cap = (3u << 20) + 4096;
	uint8_t *buf = crc32c_test_random(cap, 99);
	size_t edges[] = {768, 3 * 8192, 6 * 8192, 9 * 8192, 12288, 2 * 12288, 5 * 12288};
	int paths = 0;
	for (int p = 1; p < DALIC_CRC32C_PATHS; p++) {
		if (!dalic_crc32c_path_available(p))
			continue;
		paths++;
		for (size_t e = 0; e < sizeof edges / sizeof *edges; e++)
			for (size_t n = edges[e] - 300; n <= edges[e] + 300; n++)
				crc32c_test_compare(p, buf, n, n % 16);
		size_t big[] = {1u << 20, (1u << 20) + 77, 3u << 20};
		for (size_t k = 0; k < sizeof big / sizeof *big; k++)
			for (size_t start = 0; start < 16; start += 5)
				crc32c_test_compare(p, buf, big[k], start);
	}
	free(buf);
	if (!paths)
		cr_skip_test("this CPU has only the table path");
}

/* The default: the 32-byte fold, else the crc32 chains, else the table; never the 16-byte
 * fold or the mixed path. */
Test(crc32c, dispatch_picks_the_best_path_the_cpu_has)
{
	unsetenv("DALIC_CRC32C_PATH");
	unsetenv("DALIC_CRC32C_SOFTWARE");
	dalic_crc32c_path_t want = crc32c_test_cpu_has(DALIC_CRC32C_VPCLMUL) ? DALIC_CRC32C_VPCLMUL
	                           : crc32c_test_cpu_has(DALIC_CRC32C_SSE42) ? DALIC_CRC32C_SSE42
	                                                                     : DALIC_CRC32C_TABLE;
	cr_expect_eq(dalic_crc32c_path(), want, "%s, want %s",
	             dalic_crc32c_path_name(dalic_crc32c_path()), dalic_crc32c_path_name(want));
	cr_expect_eq(dalic_crc32c("123456789", 9), 0xE3069283u);
}

/* Each test runs in its own process, so the choice made once at the first CRC sees the
 * environment set here. */
#define CRC32C_TEST_CHOICE(NAME, PATH)                                                             \
	Test(crc32c, environment_chooses_##NAME)                                                   \
	{                                                                                          \
		unsetenv("DALIC_CRC32C_SOFTWARE");                                                 \
		setenv("DALIC_CRC32C_PATH", dalic_crc32c_path_name(PATH), 1);                      \
		if (!crc32c_test_cpu_has(PATH))                                                    \
			cr_skip_test("this CPU lacks %s", dalic_crc32c_path_name(PATH));           \
		cr_expect_eq(dalic_crc32c_path(), PATH, "%s",                                      \
		             dalic_crc32c_path_name(dalic_crc32c_path()));                         \
		cr_expect_eq(dalic_crc32c("123456789", 9), 0xE3069283u);                           \
	}
CRC32C_TEST_CHOICE(table, DALIC_CRC32C_TABLE)
CRC32C_TEST_CHOICE(sse42, DALIC_CRC32C_SSE42)
CRC32C_TEST_CHOICE(pclmul, DALIC_CRC32C_PCLMUL)
CRC32C_TEST_CHOICE(vpclmul, DALIC_CRC32C_VPCLMUL)
CRC32C_TEST_CHOICE(mix, DALIC_CRC32C_MIX)

Test(crc32c, software_switch_forces_the_table)
{
	setenv("DALIC_CRC32C_PATH", "vpclmul", 1);
	setenv("DALIC_CRC32C_SOFTWARE", "1", 1);
	cr_expect_eq(dalic_crc32c_path(), DALIC_CRC32C_TABLE);
	cr_expect_eq(dalic_crc32c("123456789", 9), 0xE3069283u);
}
