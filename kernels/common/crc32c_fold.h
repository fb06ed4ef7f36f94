/*
 * CRC-32C's folding paths (crc32c_fold.c), for crc32c.c's dispatch: PCLMULQDQ on 16-byte
 * lanes, and VPCLMULQDQ on 32-byte AVX2 lanes. Each takes and returns the raw register (no
 * initial or final inversion) and handles any length; the caller has checked the CPU (the
 * SSE form needs SSE4.2 and PCLMUL, the AVX2 form also AVX2 and VPCLMULQDQ).
 */
#ifndef DALIC_KERNELS_CRC32C_FOLD_H
#define DALIC_KERNELS_CRC32C_FOLD_H

#include <stddef.h>
#include <stdint.h>

/* x^bits mod P, reflected (bit 31 is x^0); crc32c.c. */
uint32_t dalic_crc32c_xpow(uint64_t bits);

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define DALIC_CRC32C_HAVE_FOLD 1
/* The folding constants; crc32c.c calls it once, before either path runs. */
void dalic_crc32c_fold_init(void);
uint32_t dalic_crc32c_fold_sse(uint32_t c, const uint8_t *p, size_t n);
uint32_t dalic_crc32c_fold_avx(uint32_t c, const uint8_t *p, size_t n);
/* The AVX2 fold and four crc32 chains side by side, on blocks of 12 KiB. */
uint32_t dalic_crc32c_fold_mix(uint32_t c, const uint8_t *p, size_t n);
#endif

#endif
