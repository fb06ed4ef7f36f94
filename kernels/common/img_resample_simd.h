/*
 * Run-time choice of img_resample.c's SIMD forms: AVX2 vertical passes
 * (img_resample_avx2.c) where the CPU has AVX2, else the SSE2 / generic-vector ones. All give
 * the same bits; tests switch between them to prove it.
 */
#ifndef DALIC_KERNELS_IMG_RESAMPLE_SIMD_H
#define DALIC_KERNELS_IMG_RESAMPLE_SIMD_H

#include <stdbool.h>
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

bool dalic_img_resample_avx2_available(void);
/* acc[0..n) = sum_k w[k] * rows[k][0..n) over uint8 / float rows (never called without
 * AVX2). */
void dalic_img_resample_vsum_u8_avx2(float *restrict acc, const void *const *rows,
				     const float *w, int taps, int n);
void dalic_img_resample_vsum_f32_avx2(float *restrict acc, const void *const *rows,
				      const float *w, int taps, int n);
/* Whether dalic_img_resample uses AVX2 (the default where available). Asking for it where it
 * is not available leaves it off; returns the setting in force. For tests and benchmarks. */
bool dalic_img_resample_use_avx2(bool on);

#endif
