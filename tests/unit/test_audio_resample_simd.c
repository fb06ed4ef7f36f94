/* The resampler's AVX2 path (two mono outputs at a time) against its one-output-at-a-time
 * path: bit-identical outputs over rates up and down, window sizes whose tap counts leave a
 * tail after the four-lane loop (quality 0 and 30), signals short enough that every range is
 * clipped at the edges, and a ratio of 1 giving the input back through the vector path. */
#include "kernels/common/audio_resample.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

TestSuite(audio_resample_simd, .timeout = 30);

/* A reproducible noise-plus-tone signal in [-1, 1]. */
static void audio_resample_simd_signal(float *x, int64_t n, uint32_t seed)
{
	for (int64_t i = 0; i < n; i++) {
		seed = seed * 1664525u + 1013904223u;
		x[i] = (float)((double)(seed >> 8) / (double)(1u << 24) * 2 - 1) * 0.5f +
		       0.5f * (float)((i % 37) - 18) / 18;
	}
}

Test(audio_resample_simd, bit_identical_to_scalar)
{
	if (!dalic_audio_resample_has_avx2())
		cr_skip_test("this CPU has no AVX2: only the scalar path runs");
	const double rates[][2] = {{44100, 16000}, {22050, 16000}, {16000, 44100}, {48000, 16000},
	                           {8000, 16000},  {16000, 16000}, {44100, 8000},  {11025, 16000}};
	const double qualities[] = {0, 30, 50, 100};
	const int64_t lengths[] = {1, 5, 9, 40, 777, 6000};
	float *in = malloc(sizeof(float) * 6000), *a = malloc(sizeof(float) * 40000);
	float *b = malloc(sizeof(float) * 40000);
	cr_assert(in && a && b);
	int compared = 0;
	for (size_t q = 0; q < sizeof qualities / sizeof *qualities; q++) {
		int lobes, coeffs;
		dalic_audio_quality_params(qualities[q], &lobes, &coeffs);
		dalic_audio_window_t w;
		cr_assert_eq(dalic_audio_window_init(&w, lobes, coeffs), 0);
		for (size_t r = 0; r < sizeof rates / sizeof *rates; r++)
			for (size_t l = 0; l < sizeof lengths / sizeof *lengths; l++) {
				int64_t n = lengths[l];
				int64_t m = dalic_audio_resampled_length(n, rates[r][0], rates[r][1]);
				cr_assert(m >= 0 && m <= 40000);
				audio_resample_simd_signal(in, n, (uint32_t)(q * 100 + r * 10 + l));
				memset(a, 0xAB, sizeof(float) * (size_t)m);
				memset(b, 0xCD, sizeof(float) * (size_t)m);
				dalic_audio_resample_using(&w, a, m, rates[r][1], in, n, rates[r][0], 1,
				                           false);
				dalic_audio_resample_using(&w, b, m, rates[r][1], in, n, rates[r][0], 1,
				                           true);
				for (int64_t k = 0; k < m; k++)
					cr_assert_eq(memcmp(&a[k], &b[k], sizeof(float)), 0,
					             "quality %g, %g -> %g Hz, %lld samples: output "
					             "%lld is %.9g (scalar) vs %.9g (AVX2)",
					             qualities[q], rates[r][0], rates[r][1], (long long)n,
					             (long long)k, (double)a[k], (double)b[k]);
				compared += (int)m;
			}
		dalic_audio_window_free(&w);
	}
	cr_expect_gt(compared, 100000);
	free(in), free(a), free(b);
}

Test(audio_resample_simd, ratio_one_through_the_vector_path)
{
	if (!dalic_audio_resample_has_avx2())
		cr_skip_test("this CPU has no AVX2: only the scalar path runs");
	/* at equal rates every output sits on an input sample: the sinc's zeros give it back */
	float in[64], out[64];
	for (int i = 0; i < 64; i++)
		in[i] = (float)(i % 5) - 2.0f;
	int lobes, coeffs;
	dalic_audio_quality_params(50, &lobes, &coeffs);
	dalic_audio_window_t w;
	cr_assert_eq(dalic_audio_window_init(&w, lobes, coeffs), 0);
	dalic_audio_resample_using(&w, out, 64, 16000, in, 64, 16000, 1, true);
	for (int i = 0; i < 64; i++)
		cr_expect_float_eq(out[i], in[i], 1e-6, "sample %d: %g, want %g", i, (double)out[i],
		                   (double)in[i]);
	dalic_audio_window_free(&w);
}
