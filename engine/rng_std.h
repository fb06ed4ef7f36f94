/*
 * libstdc++'s random distributions and std::shuffle applied to a 32-bit generator, bit for bit as
 * GCC's bits/random.tcc, bits/uniform_int_dist.h and bits/stl_algo.h compute them. DALI's CPU
 * operators apply them to Philox (random.choice, random.beta, noise.shot, batch_permutation,
 * random_bbox_crop, the segmentation operators); the readers apply them to mt19937.
 *
 * The arithmetic types are the library's: a float distribution mixes float and double exactly
 * where the C++ code does (the literals in gamma's test are double), because that decides the
 * rounding. Stateful distributions (normal keeps the second value of each pair, gamma owns a
 * normal) are structs the caller keeps for as long as DALI keeps the C++ object.
 */
#ifndef DALIC_ENGINE_RNG_STD_H
#define DALIC_ENGINE_RNG_STD_H

#include "engine/rng.h"
#include "kernels/common/rng_poisson.h"

#include <stddef.h>

/* Any generator of exactly 32 bits (min 0, max 2^32 - 1). */
typedef uint32_t (*dalic_rng_next_fn)(void *gen);

/* dalic_philox_next as a dalic_rng_next_fn. */
uint32_t dalic_rng_philox_next_fn(void *philox);

/* uniform_int_distribution over [0, urange] for any 64-bit urange: Lemire's downscaling below
 * 2^32 - 1, the whole draw at 2^32 - 1, libstdc++'s upscaling (with rejection) above. */
uint64_t dalic_rng_std_below_incl(uint64_t urange, dalic_rng_next_fn next, void *gen);

/* std::shuffle(v, v + n, gen): libstdc++ draws two swap positions per call while the
 * generator's range covers n * n. */
void dalic_rng_std_shuffle(int32_t *v, size_t n, dalic_rng_next_fn next, void *gen);

/* normal_distribution<float / double>: Marsaglia's polar method, keeping the second value of
 * each pair for the next call. Zero-initialize the state. */
typedef struct dalic_rng_std_normal_f32 {
	bool saved_available;
	float saved;
} dalic_rng_std_normal_f32_t;
/* dalic_rng_std_normal_f64_t: kernels/common/rng_poisson.h (the double one is DALIC_HD). */
float dalic_rng_std_normal_f32(dalic_rng_std_normal_f32_t *d, dalic_philox_t *g, float mean,
			       float stddev);
double dalic_rng_std_normal_f64(dalic_rng_std_normal_f64_t *d, dalic_philox_t *g, double mean,
				double stddev);

/* gamma_distribution<float / double>(alpha, beta): Marsaglia and Tsang, with its own normal. */
typedef struct dalic_rng_std_gamma_f32 {
	float alpha, beta, malpha, a2;
	dalic_rng_std_normal_f32_t nd;
} dalic_rng_std_gamma_f32_t;
typedef struct dalic_rng_std_gamma_f64 {
	double alpha, beta, malpha, a2;
	dalic_rng_std_normal_f64_t nd;
} dalic_rng_std_gamma_f64_t;
void dalic_rng_std_gamma_f32_init(dalic_rng_std_gamma_f32_t *d, float alpha, float beta);
void dalic_rng_std_gamma_f64_init(dalic_rng_std_gamma_f64_t *d, double alpha, double beta);
float dalic_rng_std_gamma_f32(dalic_rng_std_gamma_f32_t *d, dalic_philox_t *g);
double dalic_rng_std_gamma_f64(dalic_rng_std_gamma_f64_t *d, dalic_philox_t *g);

/* exponential_distribution<float / double>(lambda): -log(1 - canonical) / lambda. */
float dalic_rng_std_exponential_f32(dalic_philox_t *g, float lambda);
double dalic_rng_std_exponential_f64(dalic_philox_t *g, double lambda);

/* discrete_distribution<int>(w, w + n) (weights as doubles, cp may be w): cp[] gets the
 * normalized partial sums, the last one set to 1. Returns the number of cumulative values: 0
 * when n < 2 (then every draw is 0 and takes nothing from the generator, as in libstdc++). */
int64_t dalic_rng_std_discrete_init(double *cp, const double *w, int64_t n);
int64_t dalic_rng_std_discrete(const double *cp, int64_t n, dalic_philox_t *g);

/* poisson_distribution<uint32_t>(mean), a fresh distribution per draw (as DALI's shot noise
 * constructs one per element): the product of uniforms below a mean of 12, Devroye's rejection
 * method (with its own normal) from 12 on: dalic_rng_poisson_draw (kernels/common/
 * rng_poisson.h). */
uint32_t dalic_rng_std_poisson(double mean, dalic_philox_t *g);

#endif
