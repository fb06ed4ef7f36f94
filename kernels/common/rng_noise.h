/*
 * The rules DALI's noise generators share (RNGBase with IsNoiseGen, rng_base_cpu.h), for
 * noise.gaussian, noise.salt_and_pepper and noise.shot:
 *  - the output has the input's type, shape and layout; the types are uint8..int64 and float;
 *  - element p (a "pixel") draws from its own Philox element generator (the sample's, moved
 *    p * 257 outputs on), whatever thread or order computes it;
 *  - an operator that draws once per pixel for all its channels (salt_and_pepper with
 *    per_channel=False) finds the channels from the layout: 'C' first or last, the last
 *    dimension when there is no layout; then pixel p is element p * p_stride and its channels
 *    are c_stride apart, and p still picks the generator.
 */
#ifndef DALIC_KERNELS_RNG_NOISE_H
#define DALIC_KERNELS_RNG_NOISE_H

#include "engine/kernel.h"

/* Checks the input type (DALI's "Data type X is currently not supported. Supported types are :
 * uint8, int8, uint16, int16, uint32, int32, uint64, int64, float") and gives the output the
 * input's type, shapes and layout. */
int dalic_rng_noise_setup(dalic_op_ctx_t *ctx, const dalic_ws_t *ws);

/* Where a sample's pixels and channels are. */
typedef struct dalic_rng_noise_geom {
	int64_t pixels;   /* elements, or elements / channels */
	int64_t channels; /* 1 when every element draws */
	int64_t p_stride, c_stride;
} dalic_rng_noise_geom_t;

/* The geometry of a sample of `ndim` extents `shape` in `layout` (pure: the CPU operator and
 * the GPU launch share it). Returns 0, -1 for a scalar sample without per_channel, -2 when
 * 'C' is neither first nor last. */
int dalic_rng_noise_geom_of(const char *layout, int ndim, const int64_t *shape,
			    bool per_channel, dalic_rng_noise_geom_t *geo);

/* The geometry of sample i: one draw per element when per_channel, else one per pixel (fails
 * with DALI's message when 'C' is neither first nor last). */
int dalic_rng_noise_geometry(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i, bool per_channel,
			     dalic_rng_noise_geom_t *geo);

#endif
