/*
 * Random numbers, drawn exactly as DALI 2.4 draws them on the CPU (docs/dali-behaviour.md §12).
 * Every DALI-visible random value in dalic comes from here; the recipe for operators is in
 * docs/writing-an-operator.md ("Random operators").
 *
 *  - The generator is Philox4x32-10 with DALI's state {key, ctr[2], phase} and stepping.
 *  - Each random operator owns a master generator (dalic_op_ctx_t.rng): key = the operator's
 *    seed, counter 0. After every run the engine moves it `batch size` sequences on, so
 *    iteration t starts where the samples of iterations 0..t-1 left off.
 *  - Sample i of a run draws from the master advanced by i * 65537 sequences
 *    (dalic_rng_for_sample; kernels call dalic_op_rng); element p of a sample from the
 *    sample's generator advanced by p * 257 outputs (dalic_rng_for_element).
 *  - The distributions are DALI's (random_dist.h), plus libstdc++'s generate_canonical,
 *    uniform_real_distribution and uniform_int_distribution for the code of DALI's that
 *    applies std:: distributions to Philox (RandomCropGenerator and others).
 *  - Operator seeds come from the pipeline seed through std::seed_seq (engine/graph_seeds.c).
 */
#ifndef DALIC_ENGINE_RNG_H
#define DALIC_ENGINE_RNG_H

#include "kernels/common/philox.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/* The generator, the streams (dalic_rng_for_sample, dalic_rng_for_element) and DALI's
 * uniform, normal, discrete and Bernoulli draws are DALIC_HD functions in
 * kernels/common/philox.h, shared with the CUDA random kernels. */

/* The state as DALI writes it in checkpoints: "Philox_<key>_<ctr_hi>:<ctr_lo>_<phase>", upper
 * case hex, 59 characters. */
#define DALIC_PHILOX_STRING_LEN 59
void dalic_philox_format(const dalic_philox_t *g, char out[DALIC_PHILOX_STRING_LEN + 1]);
/* Parses that form (hex digits in either case). Fails with DALIC_EINVAL and DALI's reason
 * (length, prefix, separators, digit, phase 0..3), leaving *g untouched. */
int dalic_philox_parse(dalic_philox_t *g, const char *s);

/* ---- DALI's distributions (random_dist.h; the others are in kernels/common/philox.h) ---- */

/* uniform_int_dist: [start, end) when exclusive, else [start, end]; a range of 2^32 values is
 * allowed (range 0 below). Powers of two mask the draw, other ranges take (u * range) >> 32. */
typedef struct dalic_rng_uniform_int {
	int64_t start;
	uint32_t range; /* number of values, 0 = 2^32 */
} dalic_rng_uniform_int_t;
void dalic_rng_uniform_int_init(dalic_rng_uniform_int_t *d, int64_t start, int64_t end,
				bool exclusive);
int64_t dalic_rng_uniform_int(const dalic_rng_uniform_int_t *d, dalic_philox_t *g);

/* bernoulli_dist's threshold: uint32(p * 2^32), saturated at 2^32 - 1, with x86's conversion
 * of out-of-range and NaN products (p < 0 or NaN), as DALI's build. */
uint32_t dalic_rng_bernoulli_threshold(float probability);

/* ---- libstdc++'s distributions applied to a Philox generator ---- */

/* generate_canonical<float, 24> / <double, 53> (one / two 32-bit draws). */
float dalic_rng_std_canonical_f32(dalic_philox_t *g);
double dalic_rng_std_canonical_f64(dalic_philox_t *g);
/* uniform_real_distribution<float>(a, b): canonical * (b - a) + a. */
float dalic_rng_std_uniform_real_f32(dalic_philox_t *g, float a, float b);
double dalic_rng_std_uniform_real_f64(dalic_philox_t *g, double a, double b);
/* uniform_int_distribution<int>(a, b), b - a < 2^32: Lemire's method, as libstdc++ for a
 * 32-bit generator. */
int64_t dalic_rng_std_uniform_int(dalic_philox_t *g, int64_t a, int64_t b);
/* libstdc++'s downscaling of any generator of exactly 32 bits to [0, range), range 1..2^32-1
 * (Lemire's nearly divisionless method, with its rejections). */
uint32_t dalic_rng_std_lemire(uint32_t range, uint32_t (*next)(void *gen), void *gen);

/* ---- conversions as DALI's x86-64 build performs them ---- */

/* static_cast<int32_t>(float) and <int64_t>(float): truncation; NaN and out-of-range values give
 * the minimum (cvttss2si). */
int32_t dalic_rng_cvt_i32(float v);
int64_t dalic_rng_cvt_i64(float v);

/* std::seed_seq{seed}.generate(out, out + n): the C++ standard's algorithm, bit for bit. */
void dalic_seed_seq_generate(int64_t seed, uint32_t *out, int n);

#endif
