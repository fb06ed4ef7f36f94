/*
 * Operators that output shapes (shapes, _shape, peek_image_shape) write them in one of DALI's
 * six shape types: int32, uint32, int64, uint64, float or double.
 */
#ifndef DALIC_KERNELS_SHAPE_OUT_H
#define DALIC_KERNELS_SHAPE_OUT_H

#include "engine/kernel.h"

/* Fails (naming the operator, in DALI's words) unless t is one of the six. */
int dalic_shape_out_check(const dalic_op_ctx_t *ctx, dalic_dtype_t t);

#endif
