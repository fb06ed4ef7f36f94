/*
 * What normalize's GPU entry (kernels/common/gpu_normalize.c) takes from the CPU operator
 * (kernels/cpu/math/normalize.c): the arguments as the operator's setup resolved them (the
 * reduced axes, which statistics are computed, given as scalars or as per-sample tensors), so
 * both paths follow one set of rules.
 */
#ifndef DALIC_KERNELS_COMMON_NORMALIZE_OP_H
#define DALIC_KERNELS_COMMON_NORMALIZE_OP_H

#include "engine/kernel.h"
#include "kernels/cuda/normalize.cuh"

/* The kernel's view of the arguments of this run (after the operator's setup). */
void dalic_normalize_op_args(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                             dalic_cu_normalize_args_t *a);

#endif
