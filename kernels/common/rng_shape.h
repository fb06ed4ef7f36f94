/* Output shape rule shared by the random.* operators (DALI's RNGAttr): `shape` argument
 * (per sample), else the shape of the optional `shape_like` input, else a scalar. */
#ifndef DALIC_KERNELS_RNG_SHAPE_H
#define DALIC_KERNELS_RNG_SHAPE_H

#include "engine/kernel.h"

int dalic_rng_setup_output(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, dalic_dtype_t dtype);

#endif
