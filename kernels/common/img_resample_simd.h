/*
 * Run-time choice of img_resample.c's SIMD forms: AVX2 vertical and horizontal passes
 * (img_resample_avx2.c) where the CPU has AVX2, else the SSE2 / generic-vector ones. All give
 * the same bits; tests switch between them to prove it.
 */
#ifndef DALIC_KERNELS_IMG_RESAMPLE_SIMD_H
#define DALIC_KERNELS_IMG_RESAMPLE_SIMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The scalar tail of a vertical pass (columns j..n), the same in every form. */
#define IMG_RESAMPLE_VSUM_TAIL(T)                                                            \
	for (; j < n; j++) {                                                                 \
		float s = 0;                                                                 \
		for (int k = 0; k < taps; k++)                                               \
			s += w[k] * (float)((const T *)rows[k])[j];                          \
		acc[j] = s;                                                                  \
	}

/* A vertical pass dispatching to forms compiled for 1-4 taps (name##_1 ..) or any (_n). */
#define IMG_RESAMPLE_VSUM_SWITCH(name)                                                       \
	switch (taps) {                                                                      \
	case 1: name##_1(acc, rows, w, taps, n); break;                                      \
	case 2: name##_2(acc, rows, w, taps, n); break;                                      \
	case 3: name##_3(acc, rows, w, taps, n); break;                                      \
	case 4: name##_4(acc, rows, w, taps, n); break;                                      \
	default: name##_n(acc, rows, w, taps, n); break;                                     \
	}

/* The horizontal pass' weight table for 3-4 channels: each weight 4 times (one vector per
 * pixel), outputs in pairs (x even, x + 1) with their weights side by side per tap, so AVX2 reads
 * both of a pair's as one 8-float vector and SSE2 one half. The weights of output x, tap k start
 * at HSUM_W4_AT(x, k, taps); the table holds HSUM_W4_FLOATS(out, taps) floats. */
#define HSUM_W4_AT(x, k, taps) ((((size_t)(x) / 2) * (size_t)(taps) + (size_t)(k)) * 8 + \
				((size_t)(x) % 2) * 4)
#define HSUM_W4_FLOATS(out, taps) (((size_t)(out) + 1) / 2 * (size_t)(taps) * 8)

bool dalic_img_resample_avx2_available(void);
/* acc[0..n) = sum_k w[k] * rows[k][0..n) over uint8 / float rows (never called without
 * AVX2). */
void dalic_img_resample_vsum_u8_avx2(float *restrict acc, const void *const *rows,
				     const float *w, int taps, int n);
void dalic_img_resample_vsum_f32_avx2(float *restrict acc, const void *const *rows,
				      const float *w, int taps, int n);
/* out[C * x ..] = sum_k w4(x, k) * in[idx[x * taps + k] ..] for x in [0, n), 4 lanes per
 * pixel (3 or 4 channels; with 3 each pixel's fourth lane spills into the next pixel, written
 * after it, and past the row's end into the caller's slack), two pixels per AVX2 vector. */
void dalic_img_resample_hsum4_avx2(const float *restrict in, int C, int n, int taps,
				   const int32_t *idx, const float *w4, float *restrict out);
/* Whether dalic_img_resample uses AVX2 (the default where available). Asking for it where it
 * is not available leaves it off; returns the setting in force. For tests and benchmarks. */
bool dalic_img_resample_use_avx2(bool on);

#endif
