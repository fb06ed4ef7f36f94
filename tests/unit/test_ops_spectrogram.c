/* spectrogram: a pure tone's power in its bin (N/2 squared) and nowhere else, amplitude with
 * power=1, the window centred in a larger FFT, centred windows over a reflected signal, the
 * default Hann window on a constant, both layouts, and DALI's argument errors. */
#include "tests/testlib/audio.h"
#include "tests/testlib/oneop.h"

#include <math.h>

TestSuite(ops_spectrogram, .timeout = 20);

/* cos(2 pi 4 t / 32): 4 cycles in 32 samples, all of its power in bin 4 */
static void spectrogram_tone(float *x, int n)
{
	for (int t = 0; t < n; t++)
		x[t] = (float)cos(2 * M_PI * 4 * t / 32);
}

static tl_oneop_t spectrogram_op(int window, int nfft, bool center)
{
	tl_oneop_t t = tl_oneop("spectrogram", 1, 1, NULL);
	double ones[64];
	for (int k = 0; k < 64; k++)
		ones[k] = 1;
	ASSERT_OK(dalic_op_set_int(t.op, "window_length", window));
	ASSERT_OK(dalic_op_set_int(t.op, "nfft", nfft));
	ASSERT_OK(dalic_op_set_floats(t.op, "window_fn", window, ones));
	ASSERT_OK(dalic_op_set_bool(t.op, "center_windows", center));
	return t;
}

Test(ops_spectrogram, tone_peak_bin)
{
	float x[32];
	spectrogram_tone(x, 32);
	for (int power = 1; power <= 2; power++) {
		tl_oneop_t t = spectrogram_op(32, 32, false);
		ASSERT_OK(dalic_op_set_int(t.op, "power", power));
		ASSERT_OK(dalic_op_set_string(t.op, "layout", "tf"));
		tl_oneop_feed_f32(&t, "in", 1, 1, (int64_t[]){32}, x, NULL);
		const dalic_batch_t *out = tl_run(t.p, 0);
		cr_expect_str_eq(dalic_batch_layout(out), "tf");
		tl_expect_shape(out, 0, 2, (int64_t[]){1, 17});
		double want[17] = {0};
		want[4] = power == 2 ? 256 : 16; /* |X[4]| = N / 2 */
		tl_expect_near(out, 0, 17, want, 1e-3);
		dalic_pipeline_destroy(t.p);
	}
}

Test(ops_spectrogram, window_centred_in_a_larger_fft)
{
	/* 32 samples mid-buffer of a 64-point FFT: 4 cycles per 32 samples is bin 8 of 64, and
	 * the zero padding leaves its magnitude at 16 */
	float x[32];
	spectrogram_tone(x, 32);
	tl_oneop_t t = spectrogram_op(32, 64, false);
	tl_oneop_feed_f32(&t, "in", 1, 1, (int64_t[]){32}, x, NULL);
	const dalic_batch_t *out = tl_run(t.p, 0);
	cr_expect_str_eq(dalic_batch_layout(out), "ft");
	tl_expect_shape(out, 0, 2, (int64_t[]){33, 1});
	cr_expect_float_eq(tl_at(out, 0, 8), 256, 1e-3);
	cr_expect_float_eq(tl_at(out, 0, 0), 0, 1e-3);
	dalic_pipeline_destroy(t.p);
}

Test(ops_spectrogram, centred_windows_over_a_reflected_signal)
{
	/* 64 samples, step 8: 64 / 8 + 1 = 9 windows centred on 0, 8, ..., 64; window 2 covers
	 * samples 0..31 exactly (bin 4: 256); window 0 covers the reflection x[16..1], x[0..15],
	 * which for a cosine is the cosine again: also 256 */
	float x[64];
	spectrogram_tone(x, 64);
	tl_oneop_t t = spectrogram_op(32, 32, true);
	ASSERT_OK(dalic_op_set_int(t.op, "window_step", 8));
	tl_oneop_feed_f32(&t, "in", 1, 1, (int64_t[]){64}, x, NULL);
	const dalic_batch_t *out = tl_run(t.p, 0);
	tl_expect_shape(out, 0, 2, (int64_t[]){17, 9}); /* ft: [bins, windows] */
	cr_expect_float_eq(tl_at(out, 0, 4 * 9 + 2), 256, 1e-3);
	cr_expect_float_eq(tl_at(out, 0, 4 * 9 + 0), 256, 1e-3);
	cr_expect_float_eq(tl_at(out, 0, 3 * 9 + 2), 0, 1e-3);
	dalic_pipeline_destroy(t.p);

	/* zero padding instead: window 0 sees 16 zeros, then x[0..15] */
	t = spectrogram_op(32, 32, true);
	ASSERT_OK(dalic_op_set_int(t.op, "window_step", 8));
	ASSERT_OK(dalic_op_set_bool(t.op, "reflect_padding", false));
	tl_oneop_feed_f32(&t, "in", 1, 1, (int64_t[]){64}, x, NULL);
	out = tl_run(t.p, 0);
	cr_expect_float_eq(tl_at(out, 0, 4 * 9 + 0), 64, 1e-3); /* |X[4]| = 16 / 2 */
	dalic_pipeline_destroy(t.p);
}

Test(ops_spectrogram, default_hann_window)
{
	/* Hann of 4: 0.5 (1 - cos(2 pi (t + 0.5) / 4)) = a, b, b, a with a = 0.14645, b = 0.85355;
	 * on ones: X0 = 2 (power 4), X1 = (a - b)(1 + i) (power 2 (a - b)^2 = 1), X2 = 0 */
	tl_oneop_t t = tl_oneop("spectrogram", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_int(t.op, "window_length", 4));
	ASSERT_OK(dalic_op_set_bool(t.op, "center_windows", false));
	tl_oneop_feed_f32(&t, "in", 1, 1, (int64_t[]){4}, (float[]){1, 1, 1, 1}, NULL);
	tl_expect_near(tl_run(t.p, 0), 0, 3, (double[]){4, 1, 0}, 1e-5);
	dalic_pipeline_destroy(t.p);
}

Test(ops_spectrogram, argument_errors)
{
	struct {
		const char *arg;
		int64_t v;
		const char *msg;
	} cases[] = {
	    {"power", 3, "`power` can be only 1 (energy) or 2 (power), received 3"},
	    {"nfft", 16, "Window length (32) can't be bigger than the FFT size (16)"},
	    {"window_step", 0, "Invalid window step: 0"},
	};
	for (int c = 0; c < 3; c++) {
		tl_oneop_t t = spectrogram_op(32, 32, true);
		ASSERT_OK(dalic_op_set_int(t.op, cases[c].arg, cases[c].v));
		EXPECT_STATUS(dalic_pipeline_build(t.p), DALIC_EOP, "%s", cases[c].arg);
		EXPECT_ERROR_HAS(cases[c].msg);
		dalic_pipeline_destroy(t.p);
	}
	tl_oneop_t t = spectrogram_op(32, 32, true);
	ASSERT_OK(dalic_op_set_floats(t.op, "window_fn", 2, (double[]){1, 1}));
	EXPECT_STATUS(dalic_pipeline_build(t.p), DALIC_EOP);
	EXPECT_ERROR_HAS("Window function should match the specified `window_length`");
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("spectrogram", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_string(t.op, "layout", "xy"));
	EXPECT_STATUS(dalic_pipeline_build(t.p), DALIC_EOP);
	EXPECT_ERROR_HAS("Unexpected layout: xy");
	dalic_pipeline_destroy(t.p);

	/* unpadded windows: (10 - 32) / 8 + 1 < 1 */
	t = spectrogram_op(32, 32, false);
	ASSERT_OK(dalic_op_set_int(t.op, "window_step", 8));
	float x[10] = {0};
	tl_oneop_feed_f32(&t, "in", 1, 1, (int64_t[]){10}, x, NULL);
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "Signal is too short (10) for sample 0");
	dalic_pipeline_destroy(t.p);

	t = spectrogram_op(32, 32, true);
	tl_oneop_feed_f32(&t, "in", 1, 2, (int64_t[]){2, 5}, x, NULL);
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "all but one dimensions must be degenerate");
	dalic_pipeline_destroy(t.p);
}
