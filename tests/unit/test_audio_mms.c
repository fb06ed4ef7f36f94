/* nonsilent_region's float moving mean square (audio_mms.h): every lane count (segments run
 * together) gives bit for bit what one running sum per segment gives, written here the plain
 * way (DALI 2.4's loop), over signals with several reset segments, a last short one, no
 * reset (reset = n), a reset of 0, windows longer than a segment and the warm-up at the
 * signal's start. */
#include "kernels/common/audio_mms.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

TestSuite(audio_mms, .timeout = 30);

static void audio_mms_test_reference(const float *x, int64_t n, int64_t window, int64_t reset,
                                     float mean, float *out)
{
	for (int64_t p = 0; p < n; p++) {
		int64_t wb = p - window + 1;
		float sum = 0;
		for (int64_t q = wb > 0 ? wb : 0; q <= p; q++)
			sum += x[q] * x[q];
		out[p] = sum * mean;
		int64_t end = p + reset < n ? p + reset : n;
		while (p < end && p + 1 < n) {
			p++;
			wb++;
			if (wb > 0)
				sum -= x[wb - 1] * x[wb - 1];
			sum += x[p] * x[p];
			out[p] = sum * mean;
		}
	}
}

Test(audio_mms, lanes_equal_one_segment_at_a_time)
{
	const int64_t cap = 40000;
	float *x = malloc(sizeof(float) * cap), *want = malloc(sizeof(float) * cap);
	float *got = malloc(sizeof(float) * cap);
	cr_assert(x && want && got);
	uint32_t seed = 7;
	for (int64_t i = 0; i < cap; i++) {
		seed = seed * 1664525u + 1013904223u;
		float amp = (i / 3000) % 3 == 1 ? 0.001f : 0.8f; /* loud and quiet stretches */
		x[i] = amp * ((float)(seed >> 8) / (float)(1u << 24) * 2 - 1);
	}
	const struct {
		int64_t n, window, reset;
	} cases[] = {{40000, 2048, 8192}, {39999, 256, 1024}, {5000, 512, 5000},
	             {30001, 100, 300},   {9, 4, 8},          {1000, 1000, 2000},
	             {777, 7, 0},         {20000, 64, 64},    {12345, 2048, 40000}};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		int64_t n = cases[c].n, window = cases[c].window, reset = cases[c].reset;
		float mean = 1.f / (float)window;
		audio_mms_test_reference(x, n, window, reset, mean, want);
		for (int lanes = 1; lanes <= DALIC_AUDIO_MMS_LANES; lanes++) {
			memset(got, 0xAB, sizeof(float) * (size_t)n);
			dalic_audio_mms_f32(x, n, window, reset, mean, got, lanes);
			for (int64_t k = 0; k < n; k++)
				cr_assert_eq(
				    memcmp(&got[k], &want[k], sizeof(float)), 0,
				    "n %lld, window %lld, reset %lld, %d lanes: position %lld is "
				    "%.9g, one segment at a time gives %.9g",
				    (long long)n, (long long)window, (long long)reset, lanes,
				    (long long)k, (double)got[k], (double)want[k]);
		}
	}
	free(x);
	free(want);
	free(got);
}
