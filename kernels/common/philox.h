/*
 * Philox4x32-10 and the distributions DALI's random operators draw with (random_dist.h), as
 * DALIC_HD functions: the CPU operators (through engine/rng.h) and the CUDA random kernels
 * (kernels/cuda/random.cuh) run this one source, so the streams and the per-element arithmetic
 * cannot drift apart.
 *
 *  - State: DALI's {key, ctr[2], phase}; the counter words are x = ctr[0] low, y = ctr[0]
 *    high, z = ctr[1] low, w = ctr[1] high, the key words key low and high. next() returns
 *    out[phase] and moves on; after the fourth output the 128-bit counter is incremented.
 *  - In cuRAND's terms (checked against libcurand's host generator, tests/unit/
 *    test_curand_philox.c): curand_init(seed = key, subsequence = ctr[1], offset = 4 * ctr[0]
 *    + phase) starts at the same output.
 *  - Streams: sample i draws from the operator's master moved i * 65537 sequences on
 *    (ctr[1] += ...), element p of a sample from the sample's generator moved p * 257 outputs
 *    on, whatever thread computes it.
 *
 * Written in the C/C++ common subset (kernels/cuda/cu_defs.h). The transcendental functions of
 * the normal distribution are the platform's (glibc on the host, CUDA's libdevice on a GPU);
 * everything else is integer arithmetic and correctly rounded float operations (fmaf, *, the
 * conversions), the same bits on both.
 */
#ifndef DALIC_KERNELS_COMMON_PHILOX_H
#define DALIC_KERNELS_COMMON_PHILOX_H

#include "kernels/cuda/cu_defs.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct dalic_philox {
	uint64_t key;
	uint64_t ctr[2]; /* [0]: the low word (ctr_lo), [1]: the high word (ctr_hi, the sequence) */
	int phase;       /* 0..3: which of the counter's four outputs next() returns */
	bool ready;      /* out[] holds the outputs of the current (key, counter) */
	uint32_t out[4];
} dalic_philox_t;

/* DALI's stream strides: sequences between samples, outputs between elements. */
#define DALIC_RNG_SAMPLE_STRIDE 65537
#define DALIC_RNG_ELEMENT_STRIDE 257

#define DALIC_PHILOX_W0 0x9E3779B9u
#define DALIC_PHILOX_W1 0xBB67AE85u
#define DALIC_PHILOX_M0 0xD2511F53u
#define DALIC_PHILOX_M1 0xCD9E8D57u

DALIC_HD void dalic_philox_init(dalic_philox_t *g, uint64_t key, uint64_t ctr_hi, uint64_t ctr_lo,
                                int phase)
{
	g->key = key;
	g->ctr[0] = ctr_lo;
	g->ctr[1] = ctr_hi;
	g->phase = phase & 3;
	g->ready = false;
	for (int k = 0; k < 4; k++) /* defined bytes when a state is copied or uploaded */
		g->out[k] = 0;
}

/* One round on the counter words (x, y, z, w) with the key words (k0, k1), then the key
 * bump for the next round. */
DALIC_HD void dalic_philox_round(uint32_t *x, uint32_t *y, uint32_t *z, uint32_t *w, uint32_t *k0,
                                 uint32_t *k1)
{
	uint64_t m0 = (uint64_t)DALIC_PHILOX_M0 * *x, m1 = (uint64_t)DALIC_PHILOX_M1 * *z;
	uint32_t nx = (uint32_t)(m1 >> 32) ^ *y ^ *k0, nz = (uint32_t)(m0 >> 32) ^ *w ^ *k1;
	*y = (uint32_t)m1;
	*w = (uint32_t)m0;
	*x = nx;
	*z = nz;
	*k0 += DALIC_PHILOX_W0;
	*k1 += DALIC_PHILOX_W1;
}

/* Ten rounds on the current (key, counter): fills out[]. Written out: random operators compute
 * one block per element, and the unrolled rounds keep everything in registers. */
DALIC_HD void dalic_philox_compute(dalic_philox_t *g)
{
	uint32_t x = (uint32_t)g->ctr[0], y = (uint32_t)(g->ctr[0] >> 32);
	uint32_t z = (uint32_t)g->ctr[1], w = (uint32_t)(g->ctr[1] >> 32);
	uint32_t k0 = (uint32_t)g->key, k1 = (uint32_t)(g->key >> 32);
	dalic_philox_round(&x, &y, &z, &w, &k0, &k1); /* 1 */
	dalic_philox_round(&x, &y, &z, &w, &k0, &k1);
	dalic_philox_round(&x, &y, &z, &w, &k0, &k1);
	dalic_philox_round(&x, &y, &z, &w, &k0, &k1);
	dalic_philox_round(&x, &y, &z, &w, &k0, &k1); /* 5 */
	dalic_philox_round(&x, &y, &z, &w, &k0, &k1);
	dalic_philox_round(&x, &y, &z, &w, &k0, &k1);
	dalic_philox_round(&x, &y, &z, &w, &k0, &k1);
	dalic_philox_round(&x, &y, &z, &w, &k0, &k1);
	dalic_philox_round(&x, &y, &z, &w, &k0, &k1); /* 10 (its key bump is unused) */
	g->out[0] = x;
	g->out[1] = y;
	g->out[2] = z;
	g->out[3] = w;
	g->ready = true;
}

/* The 128-bit counter moved n on. */
DALIC_HD void dalic_philox_advance_counter(dalic_philox_t *g, uint64_t n)
{
	if (!n)
		return;
	g->ctr[0] += n;
	if (g->ctr[0] < n)
		g->ctr[1]++;
	g->ready = false;
}

DALIC_HD uint32_t dalic_philox_next(dalic_philox_t *g)
{
	if (!g->ready)
		dalic_philox_compute(g);
	uint32_t r = g->out[g->phase++];
	if (g->phase >= 4) {
		g->phase = 0;
		dalic_philox_advance_counter(g, 1);
	}
	return r;
}

/* Moves (counter, phase) n outputs on. */
DALIC_HD void dalic_philox_skipahead(dalic_philox_t *g, uint64_t n)
{
	g->phase += (int)(n & 3);
	n >>= 2;
	if (g->phase > 3) {
		n++;
		g->phase -= 4;
	}
	dalic_philox_advance_counter(g, n);
}

/* ctr_hi += n. */
DALIC_HD void dalic_philox_skipahead_sequence(dalic_philox_t *g, uint64_t n)
{
	if (!n)
		return;
	g->ctr[1] += n;
	g->ready = false;
}

/* Sample i's generator: the master advanced by i * 65537 sequences (DALI's GetSampleRNG). */
DALIC_HD dalic_philox_t dalic_rng_for_sample(const dalic_philox_t *master, int64_t sample)
{
	dalic_philox_t g = *master;
	dalic_philox_skipahead_sequence(&g, (uint64_t)sample * DALIC_RNG_SAMPLE_STRIDE);
	return g;
}

/* Element p's generator: the sample's advanced by p * 257 outputs (rng_base_cpu.h). */
DALIC_HD dalic_philox_t dalic_rng_for_element(const dalic_philox_t *sample_rng, int64_t element)
{
	dalic_philox_t g = *sample_rng;
	dalic_philox_skipahead(&g, (uint64_t)element * DALIC_RNG_ELEMENT_STRIDE);
	return g;
}

/* ---- DALI's distributions (random_dist.h) ---- */

/* Two draws as one 64-bit value, the first one low. */
DALIC_HD uint64_t dalic_rng_next_u64(dalic_philox_t *g)
{
	uint64_t lo = dalic_philox_next(g);
	uint64_t hi = dalic_philox_next(g);
	return lo | hi << 32;
}

/* normalized_uniform_dist: float(u32) * 2^-32; double: u64 * 2^-64. */
DALIC_HD float dalic_rng_unit_f32(dalic_philox_t *g)
{
	return (float)dalic_philox_next(g) * 0x1p-32f;
}

DALIC_HD double dalic_rng_unit_f64(dalic_philox_t *g)
{
	return (double)dalic_rng_next_u64(g) * 0x1p-64;
}

/* uniform_real_dist on [start, end): fma(float(u), factor, min), at most nextafter(end,
 * start); the bounds are swapped when start > end. The double one draws 64 bits. */
typedef struct dalic_rng_uniform_f32 {
	float min, max, factor;
} dalic_rng_uniform_f32_t;
typedef struct dalic_rng_uniform_f64 {
	double min, max, factor;
} dalic_rng_uniform_f64_t;

DALIC_HD void dalic_rng_uniform_f32_init(dalic_rng_uniform_f32_t *d, float start, float end)
{
	d->min = start;
	d->max = nextafterf(end, start);
	if (d->min > d->max) {
		float t = d->min;
		d->min = d->max;
		d->max = t;
	}
	d->factor = (d->max - d->min) * 0x1p-32f;
}

DALIC_HD void dalic_rng_uniform_f64_init(dalic_rng_uniform_f64_t *d, double start, double end)
{
	d->min = start;
	d->max = nextafter(end, start);
	if (d->min > d->max) {
		double t = d->min;
		d->min = d->max;
		d->max = t;
	}
	d->factor = (d->max - d->min) * 0x1p-64;
}

DALIC_HD float dalic_rng_uniform_f32(const dalic_rng_uniform_f32_t *d, dalic_philox_t *g)
{
	float v = fmaf((float)dalic_philox_next(g), d->factor, d->min);
	return v < d->max ? v : d->max;
}

DALIC_HD double dalic_rng_uniform_f64(const dalic_rng_uniform_f64_t *d, dalic_philox_t *g)
{
	double v = fma((double)dalic_rng_next_u64(g), d->factor, d->min);
	return v < d->max ? v : d->max;
}

/* Box-Muller's two unit draws. A zero first draw would make log() infinite: DALI swaps the
 * two draws instead of drawing again (keeping generators in step), and uses 1e-30 when both
 * are zero. */
DALIC_HD void dalic_rng_box_muller_draws_f32(dalic_philox_t *g, float *u1, float *u2)
{
	*u1 = dalic_rng_unit_f32(g);
	*u2 = dalic_rng_unit_f32(g);
	if (*u1 == 0) {
		*u1 = *u2 == 0 ? 1e-30f : *u2;
		*u2 = 0;
	}
}

DALIC_HD void dalic_rng_box_muller_draws_f64(dalic_philox_t *g, double *u1, double *u2)
{
	*u1 = dalic_rng_unit_f64(g);
	*u2 = dalic_rng_unit_f64(g);
	if (*u1 == 0) {
		*u1 = *u2 == 0 ? (double)1e-30f : *u2;
		*u2 = 0;
	}
}

/* 2 pi, the double nearest to it (M_PI * 2), without relying on M_PI being defined. */
#define DALIC_RNG_TWO_PI 6.283185307179586

/* standard_normal_dist: Box-Muller on two unit draws; x is the first coordinate, y the
 * second (DALI's normal_dist returns x and keeps y for its next call). */
DALIC_HD void dalic_rng_box_muller_f32(dalic_philox_t *g, float *x, float *y)
{
	float u1, u2;
	dalic_rng_box_muller_draws_f32(g, &u1, &u2);
	float r = sqrtf(-2 * logf(u1));
	float theta = (float)DALIC_RNG_TWO_PI * u2;
	*x = r * cosf(theta);
	*y = r * sinf(theta);
}

DALIC_HD void dalic_rng_box_muller_f64(dalic_philox_t *g, double *x, double *y)
{
	double u1, u2;
	dalic_rng_box_muller_draws_f64(g, &u1, &u2);
	double r = sqrt(-2 * log(u1));
	double theta = DALIC_RNG_TWO_PI * u2;
	*x = r * cos(theta);
	*y = r * sin(theta);
}

/* normal_dist used once (as random.normal and noise.gaussian do): fma(x, stddev, mean). Only
 * x: DALI computes y too and drops it, which changes nothing. */
DALIC_HD float dalic_rng_normal_f32(dalic_philox_t *g, float mean, float stddev)
{
	float u1, u2;
	dalic_rng_box_muller_draws_f32(g, &u1, &u2);
	float x = sqrtf(-2 * logf(u1)) * cosf((float)DALIC_RNG_TWO_PI * u2);
	return fmaf(x, stddev, mean);
}

DALIC_HD double dalic_rng_normal_f64(dalic_philox_t *g, double mean, double stddev)
{
	double u1, u2;
	dalic_rng_box_muller_draws_f64(g, &u1, &u2);
	double x = sqrt(-2 * log(u1)) * cos(DALIC_RNG_TWO_PI * u2);
	return fma(x, stddev, mean);
}

/* uniform_discrete_dist: the index of one of n values, (u * n) >> 32 (n <= 2^32). */
DALIC_HD int64_t dalic_rng_pick(dalic_philox_t *g, int64_t n)
{
	uint64_t u = dalic_philox_next(g);
	return (int64_t)(uint32_t)((u * (uint64_t)n) >> 32);
}

/* bernoulli_dist: true when u <= threshold (dalic_rng_bernoulli_threshold, engine/rng.h,
 * computes it on the host from the probability). */
DALIC_HD bool dalic_rng_bernoulli(uint32_t threshold, dalic_philox_t *g)
{
	return dalic_philox_next(g) <= threshold;
}

#endif
