/* Random numbers: xoshiro256** generators and std::seed_seq (see rng.h). */
#include "engine/rng.h"

#include <math.h>
#include <string.h>

static uint64_t rng_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void dalic_rng_seed(dalic_rng_t *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1342543de82ef95ull + 0x632be59bd9b4e019ull);
	for (int i = 0; i < 4; i++)
		r->s[i] = rng_splitmix64(&x);
	r->has_spare = 0;
	r->spare = 0;
}

static uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t dalic_rng_u64(dalic_rng_t *r)
{
	uint64_t *s = r->s;
	uint64_t result = rng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

double dalic_rng_uniform(dalic_rng_t *r)
{
	return (double)(dalic_rng_u64(r) >> 11) * 0x1.0p-53;
}

uint64_t dalic_rng_below(dalic_rng_t *r, uint64_t n)
{
	if (n <= 1)
		return 0;
	/* rejection sampling: unbiased */
	uint64_t limit = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;
	do
		x = dalic_rng_u64(r);
	while (x >= limit);
	return x % n;
}

double dalic_rng_normal(dalic_rng_t *r)
{
	if (r->has_spare) {
		r->has_spare = 0;
		return r->spare;
	}
	double u, v, s;
	do { /* Marsaglia polar method */
		u = dalic_rng_uniform(r) * 2 - 1;
		v = dalic_rng_uniform(r) * 2 - 1;
		s = u * u + v * v;
	} while (s >= 1 || s == 0);
	double m = sqrt(-2 * log(s) / s);
	r->spare = v * m;
	r->has_spare = 1;
	return u * m;
}

/* [rand.util.seedseq]: with one input value v (as uint32) and n outputs. */
void dalic_seed_seq_generate(int64_t seed, uint32_t *out, int n)
{
	if (n <= 0)
		return;
	const uint32_t v[1] = {(uint32_t)seed};
	const size_t s = 1;
	memset(out, 0x8b, sizeof(uint32_t) * (size_t)n);
	size_t un = (size_t)n;
	size_t t = un >= 623 ? 11 : un >= 68 ? 7 : un >= 39 ? 5 : un >= 7 ? 3 : (un - 1) / 2;
	size_t p = (un - t) / 2, q = p + t;
	size_t m = (s + 1 > un) ? s + 1 : un;
#define T(x) ((x) ^ ((x) >> 27))
	for (size_t k = 0; k < m; k++) {
		uint32_t r1 = 1664525u * T(out[k % un] ^ out[(k + p) % un] ^ out[(k - 1 + un) % un]);
		uint32_t r2 = r1 + (k == 0 ? (uint32_t)s : k <= s ? (uint32_t)(k % un) + v[k - 1]
								    : (uint32_t)(k % un));
		out[(k + p) % un] += r1;
		out[(k + q) % un] += r2;
		out[k % un] = r2;
	}
	for (size_t k = m; k < m + un; k++) {
		uint32_t r3 = 1566083941u *
			      T(out[k % un] + out[(k + p) % un] + out[(k - 1 + un) % un]);
		uint32_t r4 = r3 - (uint32_t)(k % un);
		out[(k + p) % un] ^= r3;
		out[(k + q) % un] ^= r4;
		out[k % un] = r4;
	}
#undef T
}
