/* CRC-32C (crc32c.h): reflected polynomial 0x82F63B78, initial and final value ~0. */
#include "kernels/common/crc32c.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static uint32_t crc32c_table[8][256];
static pthread_once_t crc32c_once = PTHREAD_ONCE_INIT;
static int crc32c_hw;

static void crc32c_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1)));
		crc32c_table[0][i] = c;
	}
	for (int t = 1; t < 8; t++)
		for (int i = 0; i < 256; i++)
			crc32c_table[t][i] = (crc32c_table[t - 1][i] >> 8) ^
			                     crc32c_table[0][crc32c_table[t - 1][i] & 0xff];
#if defined(__x86_64__)
	__builtin_cpu_init();
	crc32c_hw = __builtin_cpu_supports("sse4.2");
#endif
	/* the tests check the table path on machines that have the instruction */
	if (getenv("DALIC_CRC32C_SOFTWARE"))
		crc32c_hw = 0;
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

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t crc32c_hw_run(uint32_t c, const uint8_t *p,
                                                                 size_t n)
{
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

uint32_t dalic_crc32c(const void *data, size_t n)
{
	pthread_once(&crc32c_once, crc32c_init);
#if defined(__x86_64__)
	if (crc32c_hw)
		return ~crc32c_hw_run(~0u, data, n);
#endif
	return ~crc32c_sw(~0u, data, n);
}
