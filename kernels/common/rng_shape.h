/*
 * The rules DALI's random generators share (rng_base.h, RNGBase::SetupImpl, ArgValue), for
 * dalic's random operators:
 *  - the output shape: the `shape` argument (a list, or a per-sample int32 tensor: 1-D of the
 *    extents, or a scalar meaning a 1-D shape), else the shape of the optional `shape_like`
 *    input, else a scalar; giving both is an error;
 *  - the output dtype: one of the operator's supported types, else DALI's error;
 *  - per-sample float arguments: an argument input must be float32, a scalar per sample for
 *    scalar arguments, a 1-D list (or a scalar, repeated) for list arguments.
 * Then dalic_rng_generate() fills every element p of every sample from the element's own
 * generator (dalic_rng_for_element), as DALI's CPU generators do.
 */
#ifndef DALIC_KERNELS_RNG_SHAPE_H
#define DALIC_KERNELS_RNG_SHAPE_H

#include "engine/kernel.h"

/* Fails with DALI's "Data type X is currently not supported. Supported types are : ..." unless
 * dtype is one of the n in `supported`. */
int dalic_rng_check_dtype(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, dalic_dtype_t dtype,
			  const dalic_dtype_t *supported, int n);

/* Sets ws->outputs[0]'s dtype and per-sample shapes by the rule above. */
int dalic_rng_setup_output(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, dalic_dtype_t dtype);
/* The same with the shape-like input `like` (NULL: none), for operators whose shape-like input
 * is not their first. */
int dalic_rng_setup_output_like(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, dalic_dtype_t dtype,
				const dalic_batch_t *like);

/* A scalar float argument for `sample`: the argument input's value (float32, 0-D), else the
 * constant. */
int dalic_rng_arg_scalar(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name,
			 int sample, float *out);

/* A float32 argument input's values for `sample` (a 0-D sample is one value). *data is NULL
 * when the argument is not an argument input. */
int dalic_rng_arg_input_floats(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
			       const char *name, int sample, const float **data, int64_t *count);

/* Element generator: value of element p of the sample whose generator is `g` (already moved to
 * the element). Writes the element's value as a double (exact for float results). */
typedef double (*dalic_rng_element_fn)(const void *dist, dalic_philox_t *g);

/* Stores k values at elements first.. of an array of type t with DALI's ConvertSat (floats as
 * they are; integers rounded half away from zero and saturated, NaN as x86 converts it). */
void dalic_rng_store(dalic_dtype_t t, void *base, int64_t first, const double *v, int64_t k);

/* T(v) for a float v, as DALI's x86-64 build converts it (static_cast, no saturation:
 * out-of-range values wrap as cvttss2si leaves them), widened exactly to a double. */
double dalic_rng_cvt_to(dalic_dtype_t t, float v);

/* Fills sample `sample` of ws->outputs[0]: element p gets fn(dist, element generator p),
 * converted with DALI's ConvertSat (rounding half away from zero, saturating). */
void dalic_rng_generate(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int sample,
			dalic_rng_element_fn fn, const void *dist);

#endif
