/* audio_resample: output lengths of the three ways to give the factor, a ratio of 1 giving the
 * input back (the sinc's zeros fall on the samples), DALI's normalizing type changes, a tone
 * kept through 2x resampling, and DALI's argument errors. */
#include "tests/testlib/audio.h"
#include "tests/testlib/oneop.h"

#include <math.h>

TestSuite(ops_audio_resample, .timeout = 20);

static tl_oneop_t audio_resample_op(void)
{
	return tl_oneop("audio_resample", 1, 1, NULL);
}

Test(ops_audio_resample, lengths)
{
	float x[441];
	tl_audio_tone(x, 441, 100, 44100, 0.5);
	struct {
		const char *arg;
		double v;
		int64_t len;
	} cases[] = {{"scale", 0.5, 221}, {"out_length", 100, 100}, {"in_rate", 44100, 160}};
	for (int c = 0; c < 3; c++) {
		tl_oneop_t t = audio_resample_op();
		ASSERT_OK(dalic_op_set_float(t.op, cases[c].arg, cases[c].v));
		if (c == 2)
			ASSERT_OK(dalic_op_set_float(t.op, "out_rate", 16000));
		tl_oneop_feed_f32(&t, "in", 1, 1, (int64_t[]){441}, x, "t");
		const dalic_batch_t *out = tl_run(t.p, 0);
		tl_expect_shape(out, 0, 1, (int64_t[]){cases[c].len}); /* ceil(441 * out / in) */
		cr_expect_str_eq(dalic_batch_layout(out), "t");
		dalic_pipeline_destroy(t.p);
	}
}

Test(ops_audio_resample, ratio_one_is_the_input)
{
	const float x[8] = {0.5f, -0.25f, 0.125f, 1, -1, 0, 0.75f, 0.3f};
	tl_oneop_t t = audio_resample_op();
	ASSERT_OK(dalic_op_set_int(t.op, "out_length", 8));
	tl_oneop_feed_f32(&t, "in", 1, 1, (int64_t[]){8}, x, NULL);
	const dalic_batch_t *out = tl_run(t.p, 0);
	double want[8];
	for (int k = 0; k < 8; k++)
		want[k] = x[k];
	tl_expect_near(out, 0, 8, want, 1e-6);
	dalic_pipeline_destroy(t.p);
}

Test(ops_audio_resample, type_changes_as_dali)
{
	/* DALI's table: uint8 -> int16 maps 0 -> -32767, 127 -> -128, 128 -> 128, 255 -> 32767 */
	tl_oneop_t t = audio_resample_op();
	ASSERT_OK(dalic_op_set_int(t.op, "out_length", 4));
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_INT16));
	tl_oneop_feed_u8(&t, "in", 1, 1, (int64_t[]){4}, (uint8_t[]){0, 127, 128, 255}, NULL);
	const dalic_batch_t *out = tl_run(t.p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_INT16);
	tl_expect_values(out, 0, 4, (double[]){-32767, -128, 128, 32767});
	dalic_pipeline_destroy(t.p);

	/* int16 -> float: value / 32767 */
	t = audio_resample_op();
	ASSERT_OK(dalic_op_set_int(t.op, "out_length", 3));
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_FLOAT));
	tl_feed(t.p, "in", DALIC_INT16, 1, 1, (int64_t[]){3}, (int16_t[]){0, 32767, -16384}, NULL);
	out = tl_run(t.p, 0);
	tl_expect_near(out, 0, 3, (double[]){0, 1, -16384 / 32767.0}, 1e-6);
	dalic_pipeline_destroy(t.p);
}

Test(ops_audio_resample, tone_upsampled_and_channels_apart)
{
	enum { N = 400 };
	float x[2 * N], mono[N];
	tl_audio_tone(mono, N, 50, 4000, 0.8);
	for (int k = 0; k < N; k++) { /* channel 1 is channel 0 negated */
		x[2 * k] = mono[k];
		x[2 * k + 1] = -mono[k];
	}
	tl_oneop_t t = audio_resample_op();
	ASSERT_OK(dalic_op_set_float(t.op, "scale", 2));
	tl_oneop_feed_f32(&t, "in", 1, 2, (int64_t[]){N, 2}, x, NULL);
	const dalic_batch_t *out = tl_run(t.p, 0);
	tl_expect_shape(out, 0, 2, (int64_t[]){2 * N, 2});
	const float *y = dalic_batch_data(out, 0);
	for (int k = 100; k < 2 * N - 100; k++) {
		cr_assert_float_eq(y[2 * k], 0.8 * sin(2 * M_PI * 50 * k / 8000.0), 2e-3, "at %d", k);
		cr_assert_eq(y[2 * k + 1], -y[2 * k], "channel 1 at %d", k);
	}
	dalic_pipeline_destroy(t.p);
}

Test(ops_audio_resample, argument_errors)
{
	struct {
		const char *a, *b;
		double va, vb;
		const char *msg;
	} cases[] = {
	    {NULL, NULL, 0, 0, "No resampling factor specified!"},
	    {"in_rate", NULL, 8000, 0, "``in_rate`` and ``out_rate`` must be specified together"},
	    {"scale", "out_length", 2, 10, "cannot be used together"},
	    {"scale", "quality", 2, 101, "``quality`` out of range: 101"},
	};
	for (int c = 0; c < 4; c++) {
		tl_oneop_t t = audio_resample_op();
		if (cases[c].a)
			ASSERT_OK(dalic_op_set_float(t.op, cases[c].a, cases[c].va));
		if (cases[c].b)
			ASSERT_OK(dalic_op_set_float(t.op, cases[c].b, cases[c].vb));
		EXPECT_STATUS(dalic_pipeline_build(t.p), DALIC_EOP, "case %d", c);
		EXPECT_ERROR_HAS(cases[c].msg);
		dalic_pipeline_destroy(t.p);
	}
	tl_oneop_t t = audio_resample_op();
	ASSERT_OK(dalic_op_set_float(t.op, "scale", -1));
	tl_oneop_feed_f32(&t, "in", 1, 1, (int64_t[]){4}, (float[]){1, 2, 3, 4}, NULL);
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "The scaling factor must be non-negative. Got scale == -1");
	dalic_pipeline_destroy(t.p);

	t = audio_resample_op();
	ASSERT_OK(dalic_op_set_float(t.op, "scale", 2));
	tl_oneop_feed_f32(&t, "in", 1, 3, (int64_t[]){1, 1, 1}, (float[]){1}, NULL);
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "supports only time series data");
	dalic_pipeline_destroy(t.p);

	t = audio_resample_op();
	ASSERT_OK(dalic_op_set_int(t.op, "out_length", 5));
	tl_oneop_feed_f32(&t, "in", 1, 1, (int64_t[]){0}, (float[]){0}, NULL);
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "Cannot produce a non-empty signal from an empty input");
	dalic_pipeline_destroy(t.p);
}
