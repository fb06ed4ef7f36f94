/*
 * CRC-32C (Castagnoli), as TFRecord files store it: masked_crc = ((crc >> 15) | (crc << 17))
 * + 0xa282ead8 over the 8 length bytes and over the payload. The SSE4.2 instruction does the
 * work where the CPU has it (checked once at run time; three chains at a time, crc32c.c), a
 * table otherwise (or when the environment sets DALIC_CRC32C_SOFTWARE).
 */
#ifndef DALIC_KERNELS_CRC32C_H
#define DALIC_KERNELS_CRC32C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

uint32_t dalic_crc32c(const void *data, size_t n);
/* For the tests: whether the SSE4.2 path is the one used, and either path on demand (hw true
 * only where the CPU has SSE4.2). */
bool dalic_crc32c_has_hw(void);
uint32_t dalic_crc32c_using(const void *data, size_t n, bool hw);
static inline uint32_t dalic_crc32c_masked(const void *data, size_t n)
{
	uint32_t c = dalic_crc32c(data, n);
	return ((c >> 15) | (c << 17)) + 0xa282ead8u;
}

#endif
