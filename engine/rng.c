/* Random numbers: Philox4x32-10, DALI's streams and distributions, std::seed_seq (see rng.h). */
#include "engine/rng.h"

#include "engine/error.h"
#include "kernels/common/rng_poisson.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void dalic_philox_format(const dalic_philox_t *g, char out[DALIC_PHILOX_STRING_LEN + 1])
{
	snprintf(out, DALIC_PHILOX_STRING_LEN + 1, "Philox_%016llX_%016llX:%016llX_%X",
		 (unsigned long long)g->key, (unsigned long long)g->ctr[1],
		 (unsigned long long)g->ctr[0], (unsigned)g->phase);
}

static int philox_parse_hex(const char *s, int len, uint64_t *out)
{
	uint64_t v = 0;
	for (int i = 0; i < len; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9'   ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10
					       : -1;
		if (d < 0)
			return dalic_fail(DALIC_EINVAL,
					  "Philox state: '%c' is not a hexadecimal digit", c);
		v = v << 4 | (uint64_t)d;
	}
	*out = v;
	return DALIC_OK;
}

int dalic_philox_parse(dalic_philox_t *g, const char *s)
{
	size_t n = strlen(s);
	if (n != DALIC_PHILOX_STRING_LEN)
		return dalic_fail(DALIC_EINVAL, "Invalid Philox state string length: %zu", n);
	if (strncmp(s, "Philox_", 7))
		return dalic_fail(DALIC_EINVAL, "Missing Philox_ prefix in: %s", s);
	if (s[23] != '_' || s[40] != ':' || s[57] != '_')
		return dalic_fail(DALIC_EINVAL,
				  "Malformed Philox state string: %s; should be in format "
				  "Philox_0123456789ABCDEF_0123456789ABCDEF:0123456789ABCDEF_0",
				  s);
	uint64_t key = 0, hi = 0, lo = 0, phase = 0;
	DALIC_TRY(philox_parse_hex(s + 7, 16, &key));
	DALIC_TRY(philox_parse_hex(s + 24, 16, &hi));
	DALIC_TRY(philox_parse_hex(s + 41, 16, &lo));
	DALIC_TRY(philox_parse_hex(s + 58, 1, &phase));
	if (phase > 3)
		return dalic_fail(DALIC_EINVAL,
				  "Invalid Philox state string phase: %d expected: 0..3", (int)phase);
	dalic_philox_init(g, key, hi, lo, (int)phase);
	return DALIC_OK;
}

/* ---- DALI's distributions (the rest are in kernels/common/philox.h) ---- */

void dalic_rng_uniform_int_init(dalic_rng_uniform_int_t *d, int64_t start, int64_t end,
				bool exclusive)
{
	d->start = start;
	d->range = (uint32_t)end - (uint32_t)start + (exclusive ? 0u : 1u);
}

int64_t dalic_rng_uniform_int(const dalic_rng_uniform_int_t *d, dalic_philox_t *g)
{
	uint32_t u = dalic_philox_next(g);
	if ((d->range & (d->range - 1)) == 0) /* a power of two, or 2^32 (range 0) */
		return d->start + (int64_t)(u & (d->range - 1));
	return d->start + (int64_t)(((uint64_t)u * d->range) >> 32);
}

int32_t dalic_rng_cvt_i32(float v)
{
	if (!(v > -2147483904.0f && v < 2147483648.0f)) /* NaN too */
		return INT32_MIN;
	return (int32_t)v;
}

int64_t dalic_rng_cvt_i64(float v)
{
	if (!(v > -9223373136366403584.0f && v < 9223372036854775808.0f))
		return INT64_MIN;
	return (int64_t)v;
}

uint32_t dalic_rng_bernoulli_threshold(float probability)
{
	float th = probability * 0x1p32f;
	if (th >= 0x1p32f)
		return 0xffffffffu;
	/* static_cast<uint32_t>(float) is a 64-bit truncation keeping the low 32 bits */
	return (uint32_t)(uint64_t)dalic_rng_cvt_i64(th);
}

/* ---- libstdc++'s distributions over Philox (range 2^32: min 0, max 2^32 - 1) ---- */

float dalic_rng_std_canonical_f32(dalic_philox_t *g)
{
	float r = (float)dalic_philox_next(g) / 0x1p32f;
	return r >= 1.0f ? nextafterf(1.0f, 0.0f) : r;
}

double dalic_rng_std_canonical_f64(dalic_philox_t *g)
{
	return dalic_rng_poisson_canonical(g);
}

float dalic_rng_std_uniform_real_f32(dalic_philox_t *g, float a, float b)
{
	float c = dalic_rng_std_canonical_f32(g);
	float span = b - a;
	float scaled = c * span; /* two roundings, as the library's code (no fused multiply-add) */
	return scaled + a;
}

double dalic_rng_std_uniform_real_f64(dalic_philox_t *g, double a, double b)
{
	double c = dalic_rng_std_canonical_f64(g);
	double span = b - a;
	double scaled = c * span;
	return scaled + a;
}

uint32_t dalic_rng_std_lemire(uint32_t range, uint32_t (*next)(void *gen), void *gen)
{
	uint64_t product = (uint64_t)next(gen) * range;
	uint32_t low = (uint32_t)product;
	if (low < range) {
		uint32_t threshold = (uint32_t)(-range) % range;
		while (low < threshold) {
			product = (uint64_t)next(gen) * range;
			low = (uint32_t)product;
		}
	}
	return (uint32_t)(product >> 32);
}

static uint32_t rng_philox_next_fn(void *g)
{
	return dalic_philox_next(g);
}

int64_t dalic_rng_std_uniform_int(dalic_philox_t *g, int64_t a, int64_t b)
{
	uint32_t urange = (uint32_t)b - (uint32_t)a;
	if (urange == 0xffffffffu)
		return a + (int64_t)dalic_philox_next(g);
	return a + (int64_t)dalic_rng_std_lemire(urange + 1, rng_philox_next_fn, g);
}

/* ---- std::seed_seq ---- */

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
