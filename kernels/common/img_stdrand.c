/* libstdc++-compatible mt19937, minstd_rand0, uniform_int_distribution and shuffle (see
 * img_stdrand.h). The algorithms follow the C++ standard and GCC's bits/random.tcc,
 * bits/uniform_int_dist.h and bits/stl_algo.h; the tests pin the sequences C++ produces. */
#include "kernels/common/img_stdrand.h"

#include "engine/rng.h"
#include "engine/rng_std.h"

void dalic_img_mt19937_seed(img_mt19937_t *g, uint32_t seed)
{
	g->mt[0] = seed;
	for (int i = 1; i < 624; i++)
		g->mt[i] = 1812433253u * (g->mt[i - 1] ^ (g->mt[i - 1] >> 30)) + (uint32_t)i;
	g->index = 624;
}

static void stdrand_mt_twist(img_mt19937_t *g)
{
	for (int i = 0; i < 624; i++) {
		uint32_t y = (g->mt[i] & 0x80000000u) | (g->mt[(i + 1) % 624] & 0x7fffffffu);
		uint32_t v = g->mt[(i + 397) % 624] ^ (y >> 1);
		if (y & 1)
			v ^= 0x9908b0dfu;
		g->mt[i] = v;
	}
	g->index = 0;
}

uint32_t dalic_img_mt19937_next(img_mt19937_t *g)
{
	if (g->index >= 624)
		stdrand_mt_twist(g);
	uint32_t y = g->mt[g->index++];
	y ^= y >> 11;
	y ^= (y << 7) & 0x9d2c5680u;
	y ^= (y << 15) & 0xefc60000u;
	y ^= y >> 18;
	return y;
}

/* linear_congruential_engine::seed(seed_seq&): k = 1 word, taken from the 4th of 4 values. */
void dalic_img_minstd_seed_seq(img_minstd_t *g, int64_t seed)
{
	uint32_t arr[4];
	dalic_seed_seq_generate(seed, arr, 4);
	uint64_t s = arr[3] % 2147483647u;
	g->x = s == 0 ? 1 : s;
}

uint32_t dalic_img_minstd_next(img_minstd_t *g)
{
	g->x = (g->x * 16807u) % 2147483647u;
	return (uint32_t)g->x;
}

int64_t dalic_img_minstd_uniform(img_minstd_t *g, int64_t a, int64_t b)
{
	/* The generator's range (2^31 - 3) is not 2^32 - 1, so libstdc++ downscales by division
	 * with rejection of the incomplete last bucket. */
	const uint64_t urngmin = 1, urngrange = 2147483646u - 1;
	uint64_t urange = (uint64_t)(b - a);
	if (urange == urngrange)
		return a + (int64_t)(dalic_img_minstd_next(g) - urngmin);
	uint64_t uerange = urange + 1;
	uint64_t scaling = urngrange / uerange, past = uerange * scaling, r;
	do
		r = dalic_img_minstd_next(g) - urngmin;
	while (r >= past);
	return a + (int64_t)(r / scaling);
}

static uint32_t stdrand_mt_next_fn(void *g)
{
	return dalic_img_mt19937_next(g);
}

void dalic_img_mt19937_shuffle(img_mt19937_t *g, int32_t *perm, size_t n)
{
	dalic_rng_std_shuffle(perm, n, stdrand_mt_next_fn, g);
}
