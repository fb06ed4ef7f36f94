/*
 * Random numbers. Each random operator owns one generator per sample slot, seeded from the
 * operator's seed and the slot index, so results depend only on (seed, iteration, sample) —
 * never on the number of threads or the order samples are processed.
 * Seeds for operators are derived from the pipeline seed exactly as DALI does:
 * std::seed_seq{seed}.generate() over 1024 values, assigned in operator order.
 */
#ifndef DALIC_ENGINE_RNG_H
#define DALIC_ENGINE_RNG_H

#include <stdint.h>

typedef struct dalic_rng {
	uint64_t s[4]; /* xoshiro256** state */
	double spare;  /* cached second normal deviate */
	int has_spare;
} dalic_rng_t;

void dalic_rng_seed(dalic_rng_t *r, uint64_t seed, uint64_t stream);
uint64_t dalic_rng_u64(dalic_rng_t *r);
/* Uniform in [0, 1). */
double dalic_rng_uniform(dalic_rng_t *r);
/* Uniform integer in [0, n). */
uint64_t dalic_rng_below(dalic_rng_t *r, uint64_t n);
/* Standard normal deviate. */
double dalic_rng_normal(dalic_rng_t *r);

/* std::seed_seq{seed}.generate(out, out + n): the C++ standard's algorithm, bit for bit. */
void dalic_seed_seq_generate(int64_t seed, uint32_t *out, int n);

#endif
