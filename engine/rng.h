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

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct dalic_philox {
	uint64_t key;
	uint64_t ctr[2];  /* [0]: the low word (ctr_lo), [1]: the high word (ctr_hi, the sequence) */
	int phase;        /* 0..3: which of the counter's four outputs next() returns */
	bool ready;       /* out[] holds the outputs of the current (key, counter) */
	uint32_t out[4];
} dalic_philox_t;

/* DALI's stream strides: sequences between samples, outputs between elements. */
#define DALIC_RNG_SAMPLE_STRIDE 65537
#define DALIC_RNG_ELEMENT_STRIDE 257

void dalic_philox_init(dalic_philox_t *g, uint64_t key, uint64_t ctr_hi, uint64_t ctr_lo,
		       int phase);
/* Ten rounds on the current (key, counter): fills out[]. */
void dalic_philox_compute(dalic_philox_t *g);

/* The stepping is inline: random operators step once per element. */
static inline void dalic_philox_advance_counter(dalic_philox_t *g, uint64_t n)
{
	if (!n)
		return;
	g->ctr[0] += n;
	if (g->ctr[0] < n)
		g->ctr[1]++;
	g->ready = false;
}

static inline uint32_t dalic_philox_next(dalic_philox_t *g)
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
static inline void dalic_philox_skipahead(dalic_philox_t *g, uint64_t n)
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
static inline void dalic_philox_skipahead_sequence(dalic_philox_t *g, uint64_t n)
{
	if (!n)
		return;
	g->ctr[1] += n;
	g->ready = false;
}

/* The state as DALI writes it in checkpoints: "Philox_<key>_<ctr_hi>:<ctr_lo>_<phase>", upper
 * case hex, 59 characters. */
#define DALIC_PHILOX_STRING_LEN 59
void dalic_philox_format(const dalic_philox_t *g, char out[DALIC_PHILOX_STRING_LEN + 1]);
/* Parses that form (hex digits in either case). Fails with DALIC_EINVAL and DALI's reason
 * (length, prefix, separators, digit, phase 0..3), leaving *g untouched. */
int dalic_philox_parse(dalic_philox_t *g, const char *s);

/* Sample i's generator: the master advanced by i * 65537 sequences (DALI's GetSampleRNG). */
static inline dalic_philox_t dalic_rng_for_sample(const dalic_philox_t *master, int64_t sample)
{
	dalic_philox_t g = *master;
	dalic_philox_skipahead_sequence(&g, (uint64_t)sample * DALIC_RNG_SAMPLE_STRIDE);
	return g;
}

/* Element p's generator: the sample's advanced by p * 257 outputs (rng_base_cpu.h). */
static inline dalic_philox_t dalic_rng_for_element(const dalic_philox_t *sample_rng,
						   int64_t element)
{
	dalic_philox_t g = *sample_rng;
	dalic_philox_skipahead(&g, (uint64_t)element * DALIC_RNG_ELEMENT_STRIDE);
	return g;
}

/* ---- DALI's distributions (random_dist.h) ---- */

/* normalized_uniform_dist: float(u32) * 2^-32; double: (lo | hi << 32) * 2^-64. */
static inline float dalic_rng_unit_f32(dalic_philox_t *g)
{
	return (float)dalic_philox_next(g) * 0x1p-32f;
}
double dalic_rng_unit_f64(dalic_philox_t *g);

/* uniform_real_dist on [start, end): fma(float(u), factor, min), at most nextafter(end,
 * start); the bounds are swapped when start > end. The double one draws 64 bits. */
typedef struct dalic_rng_uniform_f32 {
	float min, max, factor;
} dalic_rng_uniform_f32_t;
typedef struct dalic_rng_uniform_f64 {
	double min, max, factor;
} dalic_rng_uniform_f64_t;
void dalic_rng_uniform_f32_init(dalic_rng_uniform_f32_t *d, float start, float end);
static inline float dalic_rng_uniform_f32(const dalic_rng_uniform_f32_t *d, dalic_philox_t *g)
{
	float v = fmaf((float)dalic_philox_next(g), d->factor, d->min);
	return v < d->max ? v : d->max;
}
void dalic_rng_uniform_f64_init(dalic_rng_uniform_f64_t *d, double start, double end);
double dalic_rng_uniform_f64(const dalic_rng_uniform_f64_t *d, dalic_philox_t *g);

/* standard_normal_dist: Box-Muller on two unit draws; x is the first coordinate, y the
 * second (DALI's normal_dist returns x and keeps y for its next call). */
void dalic_rng_box_muller_f32(dalic_philox_t *g, float *x, float *y);
void dalic_rng_box_muller_f64(dalic_philox_t *g, double *x, double *y);
/* normal_dist used once (as random.normal does): fma(x, stddev, mean). */
float dalic_rng_normal_f32(dalic_philox_t *g, float mean, float stddev);
double dalic_rng_normal_f64(dalic_philox_t *g, double mean, double stddev);

/* uniform_int_dist: [start, end) when exclusive, else [start, end]; a range of 2^32 values is
 * allowed (range 0 below). Powers of two mask the draw, other ranges take (u * range) >> 32. */
typedef struct dalic_rng_uniform_int {
	int64_t start;
	uint32_t range; /* number of values, 0 = 2^32 */
} dalic_rng_uniform_int_t;
void dalic_rng_uniform_int_init(dalic_rng_uniform_int_t *d, int64_t start, int64_t end,
				bool exclusive);
int64_t dalic_rng_uniform_int(const dalic_rng_uniform_int_t *d, dalic_philox_t *g);

/* uniform_discrete_dist: the index of one of n values, (u * n) >> 32 (n <= 2^32). */
int64_t dalic_rng_pick(dalic_philox_t *g, int64_t n);

/* bernoulli_dist: true when u <= threshold; threshold = uint32(p * 2^32), saturated at 2^32 - 1,
 * with x86's conversion of out-of-range and NaN products (p < 0 or NaN), as DALI's build. */
uint32_t dalic_rng_bernoulli_threshold(float probability);
static inline bool dalic_rng_bernoulli(uint32_t threshold, dalic_philox_t *g)
{
	return dalic_philox_next(g) <= threshold;
}

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
