/* CRC-32C: RFC 3720's check values (B.4) and "123456789", through dalic_crc32c and both paths;
 * and the SSE4.2 path (three chains joined by shift tables) equal to the table path over every
 * length from 0 to 3 blocks of each size and beyond, at unaligned starts. */
#include "kernels/common/crc32c.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

TestSuite(crc32c, .timeout = 30);

static bool crc32c_test_cpu_has_sse42(void)
{
#if defined(__x86_64__)
	__builtin_cpu_init();
	return __builtin_cpu_supports("sse4.2");
#else
	return false;
#endif
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
	bool hw = crc32c_test_cpu_has_sse42();
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		cr_expect_eq(dalic_crc32c(cases[k].data, cases[k].n), cases[k].want,
		             "case %zu: %08x", k, dalic_crc32c(cases[k].data, cases[k].n));
		cr_expect_eq(dalic_crc32c_using(cases[k].data, cases[k].n, false), cases[k].want,
		             "case %zu (table)", k);
		if (hw)
			cr_expect_eq(dalic_crc32c_using(cases[k].data, cases[k].n, true),
			             cases[k].want, "case %zu (SSE4.2)", k);
	}
}

Test(crc32c, three_chains_equal_the_table)
{
	if (!crc32c_test_cpu_has_sse42())
		cr_skip_test("this CPU has no SSE4.2: only the table path runs");
	size_t cap = 3 * 8192 * 3 + 1000;
	uint8_t *buf = malloc(cap + 8);
	cr_assert(buf);
	uint32_t seed = 12345;
	for (size_t i = 0; i < cap + 8; i++) {
		seed = seed * 1664525u + 1013904223u;
		buf[i] = (uint8_t)(seed >> 24);
	}
	/* every length around the block edges: 0..3 short blocks + 40, and near 1, 2, 3 long
	 * blocks of three */
	size_t edges[] = {0, 3 * 8192, 6 * 8192, 9 * 8192};
	int compared = 0;
	for (size_t e = 0; e < sizeof edges / sizeof *edges; e++)
		for (size_t n = edges[e] ? edges[e] - 800 : 0; n <= edges[e] + 800 && n <= cap; n++)
			for (int start = 0; start < 8; start += 3) {
				uint32_t a = dalic_crc32c_using(buf + start, n, false);
				uint32_t b = dalic_crc32c_using(buf + start, n, true);
				cr_assert_eq(a, b,
				             "%zu bytes from byte %d: table %08x, SSE4.2 %08x", n,
				             start, a, b);
				compared++;
			}
	cr_expect_gt(compared, 10000);
	free(buf);
}
