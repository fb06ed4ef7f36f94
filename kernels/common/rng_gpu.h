/*
 * What the random operators' GPU entries (kernels/common/gpu_random.c) take from the CPU
 * operators (kernels/cpu/random/, kernels/cpu/noise/): each sample's distribution, resolved
 * from the arguments by the operator's own rules, in the kernel's sample descriptor
 * (kernels/cuda/random.cuh), and the launch kind. The CPU operators draw from the same
 * descriptors, so both paths have one source for the argument rules.
 */
#ifndef DALIC_KERNELS_COMMON_RNG_GPU_H
#define DALIC_KERNELS_COMMON_RNG_GPU_H

#include "engine/kernel.h"
#include "kernels/cuda/random.cuh"

/* noise.shot's error for a mean of 2^32 or more, on either path */
#define DALIC_NOISE_SHOT_BAD_MEAN "a Poisson mean DALI never finishes drawing (at most 2^32)"

/* Sample i's distribution fields of s (not in, out, rng, items) and *kind; fails with the
 * operator's error for a bad argument. random.uniform's `values` stay where the operator
 * keeps them (host memory). */
int dalic_random_uniform_cu_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                   dalic_cu_random_sample_t *s, int *kind);
int dalic_random_normal_cu_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                  dalic_cu_random_sample_t *s, int *kind);
int dalic_random_coin_flip_cu_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                     dalic_cu_random_sample_t *s, int *kind);
int dalic_noise_gaussian_cu_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                   dalic_cu_random_sample_t *s, int *kind);
int dalic_noise_salt_and_pepper_cu_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                                          dalic_cu_random_sample_t *s, int *kind);
int dalic_noise_shot_cu_sample(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int i,
                               dalic_cu_random_sample_t *s, int *kind);

#endif
