/*
 * The per-element work of dalic's noise operators as DALIC_HD functions, called by the CPU
 * operators (kernels/cpu/noise/) and by the CUDA random kernel (kernels/cuda/random.cuh), so
 * the two compute every element alike. The draws themselves are kernels/common/philox.h's.
 */
#ifndef DALIC_KERNELS_COMMON_RNG_ELEM_H
#define DALIC_KERNELS_COMMON_RNG_ELEM_H

#include "engine/dtype.h"
#include "kernels/common/philox.h"
#include "kernels/common/rng_poisson.h"
#include "kernels/cuda/cu_defs.h"

/* Element k of an array of type t as a double (exact for every type but 64-bit integers,
 * which round as C converts them). */
DALIC_HD double dalic_rng_load_f64(int t, const void *base, int64_t k)
{
	switch (t) {
#define DALIC_RNG_LOAD(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                              \
	case DALIC_##ID:                                                                           \
		return (double)DALIC_DTYPE_VALUE(CLASS, ((const CT *)base)[k]);
		DALIC_DTYPES_NUMERIC(DALIC_RNG_LOAD)
#undef DALIC_RNG_LOAD
	default:
		return 0;
	}
}

/* Element k as a float, converted from its type as C++ converts it (int64 straight to float,
 * not through double). */
DALIC_HD float dalic_rng_load_f32(int t, const void *base, int64_t k)
{
	switch (t) {
#define DALIC_RNG_LOAD(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                              \
	case DALIC_##ID:                                                                           \
		return (float)DALIC_DTYPE_VALUE(CLASS, ((const CT *)base)[k]);
		DALIC_DTYPES_NUMERIC(DALIC_RNG_LOAD)
#undef DALIC_RNG_LOAD
	default:
		return 0;
	}
}

/* noise.gaussian computes in double for 32- and 64-bit integers, in float otherwise. */
DALIC_HD bool dalic_rng_gaussian_wide(int t)
{
	return t == DALIC_INT32 || t == DALIC_UINT32 || t == DALIC_INT64 || t == DALIC_UINT64;
}

/* noise.gaussian's element before the store: x + n, n ~ Normal(mean, stddev) from the
 * element's generator; x is the input element (as dalic_rng_load_f64 reads it). */
DALIC_HD double dalic_rng_gaussian_value(double x, bool wide, float mean, float stddev,
                                         dalic_philox_t *e)
{
	if (wide)
		return x + dalic_rng_normal_f64(e, mean, stddev);
	return (double)((float)x + dalic_rng_normal_f32(e, mean, stddev)); /* x exact as float */
}

/* noise.salt_and_pepper's default salt (the type's maximum) or pepper (its minimum); 1 and -1
 * for floating types. */
DALIC_HD double dalic_rng_salt_and_pepper_default(int t, bool salt)
{
	switch (t) {
#define DALIC_RNG_SP_DEFAULT(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                        \
	case DALIC_##ID:                                                                           \
		return DALIC_DTYPE_IS(FLOAT, CLASS) ? (salt ? 1.0 : -1.0)                          \
		                                    : salt ? (double)(HI) : (double)(LO);
		DALIC_DTYPES_NUMERIC(DALIC_RNG_SP_DEFAULT)
#undef DALIC_RNG_SP_DEFAULT
	default:
		return 0;
	}
}

/* noise.salt_and_pepper's draw of one pixel: 0 keeps the input, 1 is salt, 2 pepper. */
DALIC_HD int dalic_rng_salt_and_pepper_draw(float prob, float salt_prob, dalic_philox_t *e)
{
	float u = dalic_rng_unit_f32(e);
	if (!(u < prob))
		return 0;
	return u < salt_prob ? 1 : 2;
}

/* noise.shot's element before the store: Poisson(max(0, x * inv_factor)) * factor in float
 * (0 when factor is 0). A mean of 2^32 or more, which DALI never finishes drawing, sets *bad
 * and gives 0. */
DALIC_HD double dalic_rng_shot_value(float x, float factor, float inv_factor, dalic_philox_t *e,
                                     bool *bad)
{
	if (factor == 0.0f)
		return 0;
	float scaled = x * inv_factor;
	float mean = scaled > 0.0f ? scaled : 0.0f;
	if (mean >= 0x1p32f) {
		*bad = true;
		return 0;
	}
	return (double)((float)dalic_rng_poisson_draw(mean, e) * factor);
}

#endif
