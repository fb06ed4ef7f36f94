/*
 * The C++ standard-library random machinery that DALI's file reader relies on, reproduced bit
 * for bit as GCC's libstdc++ implements it, so dalic's shuffled file orders match DALI's:
 *  - std::mt19937 (the whole-list shuffle, seeded with 524287 [+ epoch]),
 *  - std::default_random_engine = std::minstd_rand0 seeded from std::seed_seq{seed} (the pick
 *    from the shuffle buffer),
 *  - std::uniform_int_distribution (libstdc++'s downscaling: Lemire's method for 32-bit
 *    generators, division with rejection otherwise),
 *  - std::shuffle (libstdc++'s variant that draws two swap positions per call when the range
 *    is small).
 * Everything here is deterministic and allocation-free.
 */
#ifndef DALIC_KERNELS_IMG_STDRAND_H
#define DALIC_KERNELS_IMG_STDRAND_H

#include <stddef.h>
#include <stdint.h>

typedef struct img_mt19937 {
	uint32_t mt[624];
	int index;
} img_mt19937_t;

void dalic_img_mt19937_seed(img_mt19937_t *g, uint32_t seed);
uint32_t dalic_img_mt19937_next(img_mt19937_t *g);

/* std::minstd_rand0 (multiplier 16807, modulus 2^31 - 1): std::default_random_engine. */
typedef struct img_minstd {
	uint64_t x;
} img_minstd_t;

/* default_random_engine(std::seed_seq{seed}), as DALI's Loader constructs it. */
void dalic_img_minstd_seed_seq(img_minstd_t *g, int64_t seed);
uint32_t dalic_img_minstd_next(img_minstd_t *g);

/* uniform_int_distribution<int>(a, b)(g) with a minstd_rand0 generator. */
int64_t dalic_img_minstd_uniform(img_minstd_t *g, int64_t a, int64_t b);

/* std::shuffle(perm, perm + n, mt19937) on an array of indices. */
void dalic_img_mt19937_shuffle(img_mt19937_t *g, int32_t *perm, size_t n);

#endif
