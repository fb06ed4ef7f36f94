/*
 * Reductions as DALI's CPU kernels compute them (dali/kernels/reduce/reduce_cpu.h), for
 * reductions.* and normalize: the same accumulator types, the same order of additions, so
 * float results are bit-identical.
 *
 * Adjacent reduced axes are merged first; every output element starts from the reduction's
 * neutral value and walks the reduced axes outermost first, splitting a range in halves while
 * it covers more than 32 elements (pairwise summation) and summing runs of at most 32 elements
 * left to right into a fresh accumulator. Accumulators have the output type (a uint8 mean
 * wraps around as DALI's does); the preprocessing (square, (x - mean)^2) follows C's promotion
 * rules, which C++ shares.
 */
#ifndef DALIC_KERNELS_REDUCE_H
#define DALIC_KERNELS_REDUCE_H

#include "engine/kernel.h"

typedef enum {
	DALIC_REDUCE_SUM,      /* x */
	DALIC_REDUCE_SQUARE,   /* x * x (int32 and uint32 widened to 64 bits first) */
	DALIC_REDUCE_VARIANCE, /* (x - mean)^2 in float, mean per output element */
	DALIC_REDUCE_MIN,
	DALIC_REDUCE_MAX,
} dalic_reduce_kind_t;

/* The reduced axes of a sample with `layout` (may be "") and `ndim` dims as a bit mask, from
 * the `axes` / `axis_names` arguments (none: every axis). Negative axes count from the end.
 * Errors name the operator and use DALI's words. */
int dalic_reduce_axes(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *layout, int ndim,
                      uint64_t *mask);

/* The output shape: reduced dims dropped, or kept as 1 with keep_dims. Returns its ndim. */
int dalic_reduce_out_shape(const int64_t *shape, int ndim, uint64_t mask, bool keep_dims,
                           int64_t *out);

/* Number of input elements behind each output element (the product of the reduced extents). */
int64_t dalic_reduce_volume(const int64_t *shape, int ndim, uint64_t mask);

/* Whether DALI has a kernel for (kind, input type, output/accumulator type). */
bool dalic_reduce_supported(dalic_reduce_kind_t kind, dalic_dtype_t in, dalic_dtype_t out);

/* Reduces `in` (type `it`, `shape`) over `mask` into `out` (type `ot`, one element per output
 * position in order), without the final scaling. VARIANCE reads mean[k] for output k. With an
 * empty mask every element is only preprocessed and converted, as DALI does. The combination
 * must be supported. */
void dalic_reduce_run(dalic_reduce_kind_t kind, dalic_dtype_t it, const void *in,
                      const int64_t *shape, int ndim, uint64_t mask, dalic_dtype_t ot, void *out,
                      const float *mean);

/* out[k] = x * norm (then its square root with `root`) for n elements of type `ot`, where x is
 * the element as a float; integer outputs truncate, as C++'s conversion does. */
void dalic_reduce_scale(dalic_dtype_t ot, void *out, int64_t n, float norm, bool root);

#endif
