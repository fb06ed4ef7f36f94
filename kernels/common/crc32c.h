/*
 * CRC-32C (Castagnoli), as TFRecord files store it: masked_crc = ((crc >> 15) | (crc << 17))
 * + 0xa282ead8 over the 8 length bytes and over the payload. The CPU is checked once at run
 * time (cpuid) and a path chosen (crc32c.c): carry-less multiplication folding 32-byte lanes
 * (VPCLMULQDQ with AVX2), else three chains of the SSE4.2 crc32 instruction, else a table. Two more
 * run only when chosen: folding 16-byte lanes (PCLMULQDQ), and the 32-byte fold with crc32 chains
 * beside it. The environment can choose: DALIC_CRC32C_PATH=table, sse4.2, pclmul, vpclmul or mix
 * (where the CPU has it); DALIC_CRC32C_SOFTWARE=1 the table.
 */
#ifndef DALIC_KERNELS_CRC32C_H
#define DALIC_KERNELS_CRC32C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum dalic_crc32c_path {
	DALIC_CRC32C_TABLE,   /* slicing by 8, any CPU */
	DALIC_CRC32C_SSE42,   /* three crc32 chains */
	DALIC_CRC32C_PCLMUL,  /* folding 16-byte lanes */
	DALIC_CRC32C_VPCLMUL, /* folding 32-byte lanes (AVX2) */
	DALIC_CRC32C_MIX,     /* the 32-byte fold and four crc32 chains side by side */
	DALIC_CRC32C_PATHS
} dalic_crc32c_path_t;

uint32_t dalic_crc32c(const void *data, size_t n);
/* The path dalic_crc32c uses; whether the CPU has a path; its name ("table", "sse4.2",
 * "pclmul", "vpclmul", "mix"); a CRC through a given path (the table where the CPU lacks it). */
dalic_crc32c_path_t dalic_crc32c_path(void);
bool dalic_crc32c_path_available(dalic_crc32c_path_t path);
const char *dalic_crc32c_path_name(dalic_crc32c_path_t path);
uint32_t dalic_crc32c_using(const void *data, size_t n, dalic_crc32c_path_t path);
static inline uint32_t dalic_crc32c_masked(const void *data, size_t n)
{
	uint32_t c = dalic_crc32c(data, n);
	return ((c >> 15) | (c << 17)) + 0xa282ead8u;
}

#endif
