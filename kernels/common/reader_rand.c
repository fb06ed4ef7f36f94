/* libstdc++-compatible mt19937_64 and std::shuffle with a 64-bit generator (reader_rand.h).
 * The distribution is uniform_int_distribution<unsigned long> over a generator whose range is
 * exactly 64 bits: Lemire's method with a 128-bit product (GCC 11+ bits/uniform_int_dist.h). */
#include "kernels/common/reader_rand.h"

#define RDRAND_N 312
#define RDRAND_M 156

void dalic_rdrand_mt64_seed(rdrand_mt64_t *g, uint64_t seed)
{
	g->mt[0] = seed;
	for (int i = 1; i < RDRAND_N; i++)
		g->mt[i] = 6364136223846793005ull * (g->mt[i - 1] ^ (g->mt[i - 1] >> 62)) +
		           (uint64_t)i;
	g->index = RDRAND_N;
}

static void rdrand_twist(rdrand_mt64_t *g)
{
	for (int i = 0; i < RDRAND_N; i++) {
		uint64_t y = (g->mt[i] & 0xFFFFFFFF80000000ull) |
		             (g->mt[(i + 1) % RDRAND_N] & 0x7FFFFFFFull);
		uint64_t v = g->mt[(i + RDRAND_M) % RDRAND_N] ^ (y >> 1);
		if (y & 1)
			v ^= 0xB5026F5AA96619E9ull;
		g->mt[i] = v;
	}
	g->index = 0;
}

uint64_t dalic_rdrand_mt64_next(rdrand_mt64_t *g)
{
	if (g->index >= RDRAND_N)
		rdrand_twist(g);
	uint64_t y = g->mt[g->index++];
	y ^= (y >> 29) & 0x5555555555555555ull;
	y ^= (y << 17) & 0x71D67FFFEDA60000ull;
	y ^= (y << 37) & 0xFFF7EEE000000000ull;
	y ^= y >> 43;
	return y;
}

/* A value in [0, range): Lemire's nearly divisionless reduction. */
static uint64_t rdrand_below(rdrand_mt64_t *g, uint64_t range)
{
	unsigned __int128 product = (unsigned __int128)dalic_rdrand_mt64_next(g) * range;
	uint64_t low = (uint64_t)product;
	if (low < range) {
		uint64_t threshold = (0 - range) % range;
		while (low < threshold) {
			product = (unsigned __int128)dalic_rdrand_mt64_next(g) * range;
			low = (uint64_t)product;
		}
	}
	return (uint64_t)(product >> 64);
}

static void rdrand_swap(int32_t *p, size_t i, size_t j)
{
	int32_t t = p[i];
	p[i] = p[j];
	p[j] = t;
}

void dalic_rdrand_mt64_shuffle(rdrand_mt64_t *g, int32_t *perm, size_t n)
{
	if (n == 0)
		return;
	size_t i = 1;
	/* (2^64 - 1) / n >= n: libstdc++ draws two swap positions per call */
	if (UINT64_MAX / n >= n) {
		if (n % 2 == 0)
			rdrand_swap(perm, i++, (size_t)rdrand_below(g, 2));
		while (i != n) {
			uint64_t b0 = i + 1, b1 = b0 + 1;
			uint64_t x = rdrand_below(g, b0 * b1);
			rdrand_swap(perm, i, (size_t)(x / b1));
			i++;
			rdrand_swap(perm, i, (size_t)(x % b1));
			i++;
		}
		return;
	}
	for (; i != n; i++)
		rdrand_swap(perm, i, (size_t)rdrand_below(g, i + 1));
}
