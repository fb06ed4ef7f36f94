/*
 * The SIMD rows of crop_mirror_normalize's ResNet case (uint8 RGB in, planar float out), chosen
 * at run time: AVX2 (img_cmn_avx2.c) where the CPU has it, else SSE2 (in the operator), else
 * scalar. Every form computes each value as the same float multiply then add, so all give the
 * same bits; tests switch between them to prove it.
 */
#ifndef DALIC_KERNELS_IMG_CMN_SIMD_H
#define DALIC_KERNELS_IMG_CMN_SIMD_H

#include <stdbool.h>
#include <stdint.h>

enum { IMG_CMN_SCALAR, IMG_CMN_SSE2, IMG_CMN_AVX2 };

/* The form in force: the best the CPU has unless dalic_img_cmn_simd_limit lowered it. */
int dalic_img_cmn_simd(void);
/* Caps the form at `level` (IMG_CMN_*; for tests and benchmarks); returns the form now in
 * force, which is lower where the CPU (or the build, for SSE2) lacks the one asked for. */
int dalic_img_cmn_simd_limit(int level);

/* One row of 3-channel pixels `row` (ow pixels, in image order) normalised as v * mul[c] +
 * add[c] into the planes o0, o1, o2, mirrored when `mirror`, 8 pixels at a time; reads only the
 * row's 3 * ow bytes. Returns how many output pixels it wrote (a multiple of 8): the caller
 * finishes the row from there. Never called without AVX2. */
int64_t dalic_img_cmn_rgb_row_avx2(const uint8_t *row, int64_t ow, bool mirror, const float *mul,
                                   const float *add, float *o0, float *o1, float *o2);

#endif
