/*
 * libstdc++'s poisson_distribution<uint32_t> on a Philox generator, with the two pieces of the
 * library it uses (generate_canonical<double, 53> and normal_distribution<double>'s polar
 * method), as DALIC_HD functions: noise.shot's CPU operator (through engine/rng_std.h) and the
 * CUDA random kernel (kernels/cuda/random.cuh) draw with this one source. The code follows
 * GCC's bits/random.tcc operation by operation; tests/data/rng/ pins what DALI's build
 * computes with it.
 *
 * The arithmetic is double throughout. exp, log, sqrt and lgamma are the platform's: glibc
 * (lgamma_r, without the global sign) on the host, CUDA's on a GPU, where a value one ulp
 * apart can flip an acceptance test of the rejection loop (docs/gpu.md says what is checked).
 */
#ifndef DALIC_KERNELS_COMMON_RNG_POISSON_H
#define DALIC_KERNELS_COMMON_RNG_POISSON_H

#include "kernels/common/philox.h"
#include "kernels/cuda/cu_defs.h"

#include <math.h>

/* generate_canonical<double, 53> on a 32-bit generator: two draws, the first one low. */
DALIC_HD double dalic_rng_poisson_canonical(dalic_philox_t *g)
{
	double sum = (double)dalic_philox_next(g);
	sum += (double)dalic_philox_next(g) * 0x1p32;
	double r = sum / 0x1p64;
	return r >= 1.0 ? nextafter(1.0, 0.0) : r;
}

/* normal_distribution<double>: Marsaglia's polar method, keeping the second value of each
 * pair for the next call. Zero-initialize the state. */
typedef struct dalic_rng_std_normal_f64 {
	bool saved_available;
	double saved;
} dalic_rng_std_normal_f64_t;

DALIC_HD double dalic_rng_poisson_normal(dalic_rng_std_normal_f64_t *d, dalic_philox_t *g,
                                         double mean, double stddev)
{
	double ret;
	if (d->saved_available) {
		d->saved_available = false;
		ret = d->saved;
	} else {
		double x, y, r2;
		do {
			x = 2.0 * dalic_rng_poisson_canonical(g) - 1.0;
			y = 2.0 * dalic_rng_poisson_canonical(g) - 1.0;
			r2 = x * x + y * y;
		} while (r2 > 1.0 || r2 == 0.0);
		const double mult = sqrt(-2 * log(r2) / r2);
		d->saved = x * mult;
		d->saved_available = true;
		ret = y * mult;
	}
	ret = ret * stddev;
	return ret + mean;
}

/* log(Gamma(x)), without glibc's global sign variable on the host. */
DALIC_HD double dalic_rng_poisson_lgamma(double x)
{
#ifdef __CUDA_ARCH__
	return lgamma(x);
#else
	int sign;
	return lgamma_r(x, &sign);
#endif
}

/* poisson_distribution<uint32_t>(mean), a fresh distribution per draw (as DALI's shot noise
 * constructs one per element): the product of uniforms below a mean of 12, Devroye's rejection
 * method (with its own normal) from 12 on. A mean of 2^32 or more never finishes (every draw
 * is rejected): callers must not pass one. */
DALIC_HD uint32_t dalic_rng_poisson_draw(double mean, dalic_philox_t *g)
{
	if (!(mean >= 12)) {
		const double lm_thr = exp(-mean);
		uint32_t x = 0;
		double prod = 1.0;
		do {
			prod *= dalic_rng_poisson_canonical(g);
			x += 1;
		} while (prod > lm_thr);
		return x - 1;
	}
	/* the parameters (param_type::_M_initialize) */
	const double m = floor(mean);
	const double lm_thr = log(mean);
	const double lfm = dalic_rng_poisson_lgamma(m + 1);
	const double sm = sqrt(m);
	const double pi_4 = 0.7853981633974483096156608458198757;
	const double dx = sqrt(2 * m * log(32 * m / pi_4));
	const double dd = round(fmax(6.0, fmin(m, dx)));
	const double cx = 2 * m + dd;
	const double scx = sqrt(cx / 2);
	const double r1cx = 1 / cx;
	const double c2b = sqrt(pi_4 * cx) * exp(r1cx);
	const double cb = 2 * cx * exp(-dd * r1cx * (1 + dd / 2)) / dd;
	/* the draw */
	const double naf = (1 - 0x1p-52) / 2;
	const double thr = 4294967295.0 + naf;
	const double spi_2 = 1.2533141373155002512078826424055226;
	const double c1 = sm * spi_2;
	const double c2 = c2b + c1;
	const double c3 = c2 + 1;
	const double c4 = c3 + 1;
	const double r178 = 0.0128205128205128205128205128205128;
	const double e178 = 1.0129030479320018583185514777512983;
	const double c5 = c4 + e178;
	const double c = cb + c5;
	const double twocx = 2 * (2 * m + dd);
	dalic_rng_std_normal_f64_t nd;
	nd.saved_available = false;
	nd.saved = 0;
	double x = 0;
	bool reject = true;
	do {
		const double u = c * dalic_rng_poisson_canonical(g);
		const double e = -log(1.0 - dalic_rng_poisson_canonical(g));
		double w = 0.0;
		if (u <= c1) {
			const double n = dalic_rng_poisson_normal(&nd, g, 0.0, 1.0);
			const double y = -fabs(n) * sm - 1;
			x = floor(y);
			w = -n * n / 2;
			if (x < -m)
				continue;
		} else if (u <= c2) {
			const double n = dalic_rng_poisson_normal(&nd, g, 0.0, 1.0);
			const double y = 1 + fabs(n) * scx;
			x = ceil(y);
			w = y * (2 - y) * r1cx;
			if (x > dd)
				continue;
		} else if (u <= c3) {
			x = -1;
		} else if (u <= c4) {
			x = 0;
		} else if (u <= c5) {
			x = 1;
			w = r178;
		} else {
			const double v = -log(1.0 - dalic_rng_poisson_canonical(g));
			const double y = dd + v * twocx / dd;
			x = ceil(y);
			w = -dd * r1cx * (1 + y / 2);
		}
		reject = (w - e - x * lm_thr > lfm - dalic_rng_poisson_lgamma(x + m + 1));
		reject |= x + m >= thr;
	} while (reject);
	return (uint32_t)(x + m + naf);
}

#endif
