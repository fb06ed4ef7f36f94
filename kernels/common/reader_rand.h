/*
 * std::mt19937_64 and std::shuffle over it, bit for bit as GCC's libstdc++ computes them: the
 * per-epoch reshuffles of DALI 2.4's readers (shuffle_after_epoch) seed
 * mt19937_64(shuffle_after_epoch_seed + (epoch << 32)). The 32-bit generators of the readers
 * (mt19937, minstd_rand0) are in img_stdrand.h.
 */
#ifndef DALIC_KERNELS_READER_RAND_H
#define DALIC_KERNELS_READER_RAND_H

#include <stddef.h>
#include <stdint.h>

typedef struct rdrand_mt64 {
	uint64_t mt[312];
	int index;
} rdrand_mt64_t;

void dalic_rdrand_mt64_seed(rdrand_mt64_t *g, uint64_t seed);
uint64_t dalic_rdrand_mt64_next(rdrand_mt64_t *g);
/* std::shuffle(perm, perm + n, mt19937_64). */
void dalic_rdrand_mt64_shuffle(rdrand_mt64_t *g, int32_t *perm, size_t n);

#endif
