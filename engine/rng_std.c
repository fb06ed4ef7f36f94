/* libstdc++'s distributions on a 32-bit generator (see rng_std.h). The code follows GCC's
 * bits/random.tcc, bits/uniform_int_dist.h and bits/stl_algo.h operation by operation; the
 * golden values in tests/data/rng/ pin what DALI's build computes with them. */
#include "engine/rng_std.h"

#include <math.h>

uint32_t dalic_rng_philox_next_fn(void *philox)
{
	return dalic_philox_next(philox);
}

uint64_t dalic_rng_std_below_incl(uint64_t urange, dalic_rng_next_fn next, void *gen)
{
	if (urange < 0xffffffffu)
		return dalic_rng_std_lemire((uint32_t)(urange + 1), next, gen);
	if (urange == 0xffffffffu)
		return next(gen);
	/* upscaling: (2^32 * high + low), high drawn by the same method, until it fits */
	uint64_t ret, tmp;
	do {
		tmp = (uint64_t)0x100000000u * dalic_rng_std_below_incl(urange >> 32, next, gen);
		ret = tmp + next(gen);
	} while (ret > urange || ret < tmp);
	return ret;
}

static void rng_std_swap(int32_t *v, size_t i, size_t j)
{
	int32_t t = v[i];
	v[i] = v[j];
	v[j] = t;
}

void dalic_rng_std_shuffle(int32_t *v, size_t n, dalic_rng_next_fn next, void *gen)
{
	if (n == 0)
		return;
	const uint64_t urngrange = 0xffffffffu, urange = n;
	size_t i = 1;
	if (urngrange / urange >= urange) {
		/* two positions per draw: x in [0, b0 * b1) gives (x / b1, x % b1) */
		if (urange % 2 == 0)
			rng_std_swap(v, i++, (size_t)dalic_rng_std_below_incl(1, next, gen));
		while (i != n) {
			uint64_t b0 = i + 1, b1 = b0 + 1;
			uint64_t x = dalic_rng_std_below_incl(b0 * b1 - 1, next, gen);
			rng_std_swap(v, i, (size_t)(x / b1));
			i++;
			rng_std_swap(v, i, (size_t)(x % b1));
			i++;
		}
		return;
	}
	for (; i != n; i++)
		rng_std_swap(v, i, (size_t)dalic_rng_std_below_incl(i, next, gen));
}

/* ---- normal: the polar method ---- */

float dalic_rng_std_normal_f32(dalic_rng_std_normal_f32_t *d, dalic_philox_t *g, float mean,
			       float stddev)
{
	float ret;
	if (d->saved_available) {
		d->saved_available = false;
		ret = d->saved;
	} else {
		float x, y, r2;
		do {
			/* float * float, then minus a double literal, stored as float */
			x = (float)((double)(2.0f * dalic_rng_std_canonical_f32(g)) - 1.0);
			y = (float)((double)(2.0f * dalic_rng_std_canonical_f32(g)) - 1.0);
			r2 = x * x + y * y;
		} while (r2 > 1.0 || r2 == 0.0);
		const float mult = sqrtf(-2 * logf(r2) / r2);
		d->saved = x * mult;
		d->saved_available = true;
		ret = y * mult;
	}
	ret = ret * stddev;
	return ret + mean;
}

double dalic_rng_std_normal_f64(dalic_rng_std_normal_f64_t *d, dalic_philox_t *g, double mean,
				double stddev)
{
	return dalic_rng_poisson_normal(d, g, mean, stddev);
}

/* ---- gamma: Marsaglia and Tsang ---- */

void dalic_rng_std_gamma_f32_init(dalic_rng_std_gamma_f32_t *d, float alpha, float beta)
{
	d->alpha = alpha;
	d->beta = beta;
	d->malpha = alpha < 1.0f ? alpha + 1.0f : alpha;
	const float a1 = d->malpha - 1.0f / 3.0f;
	d->a2 = 1.0f / sqrtf(9.0f * a1);
	d->nd = (dalic_rng_std_normal_f32_t){0};
}

void dalic_rng_std_gamma_f64_init(dalic_rng_std_gamma_f64_t *d, double alpha, double beta)
{
	d->alpha = alpha;
	d->beta = beta;
	d->malpha = alpha < 1.0 ? alpha + 1.0 : alpha;
	const double a1 = d->malpha - 1.0 / 3.0;
	d->a2 = 1.0 / sqrt(9.0 * a1);
	d->nd = (dalic_rng_std_normal_f64_t){0};
}

float dalic_rng_std_gamma_f32(dalic_rng_std_gamma_f32_t *d, dalic_philox_t *g)
{
	float u, v, n;
	const float a1 = d->malpha - 1.0f / 3.0f;
	do {
		do {
			n = dalic_rng_std_normal_f32(&d->nd, g, 0.0f, 1.0f);
			v = 1.0f + d->a2 * n;
		} while (v <= 0.0f);
		v = v * v * v;
		u = dalic_rng_std_canonical_f32(g);
		/* the literals 0.0331, 0.5 and 1.0 make these tests double, as in C++ */
	} while ((double)u > (double)1.0f - 0.0331 * n * n * n * n &&
		 (double)logf(u) > 0.5 * n * n + a1 * (1.0 - v + (double)logf(v)));
	if (d->alpha == d->malpha)
		return a1 * v * d->beta;
	do
		u = dalic_rng_std_canonical_f32(g);
	while (u == 0.0f);
	return powf(u, 1.0f / d->alpha) * a1 * v * d->beta;
}

double dalic_rng_std_gamma_f64(dalic_rng_std_gamma_f64_t *d, dalic_philox_t *g)
{
	double u, v, n;
	const double a1 = d->malpha - 1.0 / 3.0;
	do {
		do {
			n = dalic_rng_std_normal_f64(&d->nd, g, 0.0, 1.0);
			v = 1.0 + d->a2 * n;
		} while (v <= 0.0);
		v = v * v * v;
		u = dalic_rng_std_canonical_f64(g);
	} while (u > 1.0 - 0.0331 * n * n * n * n &&
		 log(u) > 0.5 * n * n + a1 * (1.0 - v + log(v)));
	if (d->alpha == d->malpha)
		return a1 * v * d->beta;
	do
		u = dalic_rng_std_canonical_f64(g);
	while (u == 0.0);
	return pow(u, 1.0 / d->alpha) * a1 * v * d->beta;
}

/* ---- exponential ---- */

float dalic_rng_std_exponential_f32(dalic_philox_t *g, float lambda)
{
	return -logf(1.0f - dalic_rng_std_canonical_f32(g)) / lambda;
}

double dalic_rng_std_exponential_f64(dalic_philox_t *g, double lambda)
{
	return -log(1.0 - dalic_rng_std_canonical_f64(g)) / lambda;
}

/* ---- discrete ---- */

int64_t dalic_rng_std_discrete_init(double *cp, const double *w, int64_t n)
{
	if (n < 2)
		return 0;
	double sum = 0.0;
	for (int64_t k = 0; k < n; k++)
		sum += w[k];
	double acc = 0.0;
	for (int64_t k = 0; k < n; k++) {
		acc = k ? acc + w[k] / sum : w[k] / sum;
		cp[k] = acc;
	}
	cp[n - 1] = 1.0;
	return n;
}

int64_t dalic_rng_std_discrete(const double *cp, int64_t n, dalic_philox_t *g)
{
	if (n == 0)
		return 0;
	const double p = dalic_rng_std_canonical_f64(g);
	int64_t lo = 0, hi = n; /* lower_bound: the first cp[k] >= p */
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;
		if (cp[mid] < p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* ---- poisson ---- */

uint32_t dalic_rng_std_poisson(double mean, dalic_philox_t *g)
{
	return dalic_rng_poisson_draw(mean, g);
}
