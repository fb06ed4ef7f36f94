/*
 * The per-sample plans of slice, crop and crop_mirror_normalize as their CPU operators run
 * them (defined in kernels/cpu/generic/slice.c, kernels/cpu/image/crop.c and
 * crop_mirror_normalize.c, valid after the operator's setup for the batch), so their GPU path
 * (kernels/common/gpu_slice.c, gpu_cmn.c) launches the kernels with the very windows, fill
 * values, conversions and coefficients the CPU path uses.
 */
#ifndef DALIC_KERNELS_COMMON_WINDOW_PLANS_H
#define DALIC_KERNELS_COMMON_WINDOW_PLANS_H

#include "kernels/common/cmn_px.h"
#include "kernels/common/slice_elem.h"

#include <stddef.h>

struct dalic_op_ctx;
struct dalic_ws;

/* The window copy of sample i (in and out pointers not set). *fill and *fill_bytes: the
 * operator's fill values (pl->nfill of pl->fill_type, host memory), the same for every sample
 * of the batch. Slice converts by truncation with fill values in the output type, crop with
 * ConvertSat and fill values in the input type. */
int dalic_slice_sample_plan(const struct dalic_op_ctx *ctx, const struct dalic_ws *ws, int i,
                            dalic_slice_elem_plan_t *pl, const void **fill, size_t *fill_bytes);
int dalic_crop_sample_plan(const struct dalic_op_ctx *ctx, const struct dalic_ws *ws, int i,
                           dalic_slice_elem_plan_t *pl, const void **fill, size_t *fill_bytes);

/* crop_mirror_normalize's plan of sample i (the window, the mirror, the layouts) with its
 * coefficients per input channel and fill values per output channel (DALIC_CMN_MAX_CH each);
 * reads the per-sample arguments (mirror, mean, std), so errors name the sample. */
int dalic_cmn_sample_plan(const struct dalic_op_ctx *ctx, const struct dalic_ws *ws, int i,
                          dalic_cmn_px_plan_t *pl, float *mul, float *add, float *fill);

#endif
