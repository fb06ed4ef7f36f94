/* mel_filter_bank: one HTK band over a 5-bin spectrum (nfft 8 at 8 kHz) computed by hand, the
 * same through the frequency-major ("ft") and frequency-last paths, unit-area normalization,
 * and DALI's errors. */
#include "tests/testlib/oneop.h"

TestSuite(ops_mel_filter_bank, .timeout = 20);

/* HTK: mel(4000) = 1127 ln(1 + 4000 / 700) = 2146.0757; one band peaks at
 * mel 1073.0378 = 1113.8356 Hz. Bins at 0, 1000, ..., 4000 Hz weigh 0, 1000 / 1113.8356,
 * (4000 - 2000) / 2886.1644, (4000 - 3000) / 2886.1644 and 0: 1.9372404 in all. */
#define MEL_FILTER_BANK_SUM 1.9372404

static tl_oneop_t mel_filter_bank_op(bool normalize)
{
	tl_oneop_t t = tl_oneop("mel_filter_bank", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_int(t.op, "nfilter", 1));
	ASSERT_OK(dalic_op_set_float(t.op, "sample_rate", 8000));
	ASSERT_OK(dalic_op_set_string(t.op, "mel_formula", "htk"));
	ASSERT_OK(dalic_op_set_bool(t.op, "normalize", normalize));
	return t;
}

Test(ops_mel_filter_bank, one_htk_band)
{
	const float ones[10] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
	tl_oneop_t t = mel_filter_bank_op(false);
	tl_oneop_feed_f32(&t, "in", 1, 1, (int64_t[]){5}, ones, NULL);
	const dalic_batch_t *out = tl_run(t.p, 0);
	tl_expect_shape(out, 0, 1, (int64_t[]){1});
	tl_expect_near(out, 0, 1, (double[]){MEL_FILTER_BANK_SUM}, 1e-5);
	dalic_pipeline_destroy(t.p);

	/* "ft" [5 bins, 2 windows]: the bins accumulate into the band column by column */
	t = mel_filter_bank_op(false);
	tl_oneop_feed_f32(&t, "in", 1, 2, (int64_t[]){5, 2}, ones, "ft");
	out = tl_run(t.p, 0);
	cr_expect_str_eq(dalic_batch_layout(out), "ft");
	tl_expect_shape(out, 0, 2, (int64_t[]){1, 2});
	tl_expect_near(out, 0, 2, (double[]){MEL_FILTER_BANK_SUM, MEL_FILTER_BANK_SUM}, 1e-5);
	dalic_pipeline_destroy(t.p);

	/* unit area: the band spans 0..4000 Hz, scaled by 2 / 4000 */
	t = mel_filter_bank_op(true);
	tl_oneop_feed_f32(&t, "in", 1, 2, (int64_t[]){2, 5}, ones, "tf");
	out = tl_run(t.p, 0);
	tl_expect_shape(out, 0, 2, (int64_t[]){2, 1});
	tl_expect_near(out, 0, 2, (double[]){MEL_FILTER_BANK_SUM / 2000, MEL_FILTER_BANK_SUM / 2000},
	               1e-8);
	dalic_pipeline_destroy(t.p);
}

Test(ops_mel_filter_bank, errors)
{
	tl_oneop_t t = tl_oneop("mel_filter_bank", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_int(t.op, "nfilter", 0));
	EXPECT_STATUS(dalic_pipeline_build(t.p), DALIC_EOP);
	EXPECT_ERROR_HAS("number of filters should be > 0");
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("mel_filter_bank", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t.op, "freq_high", 50000));
	EXPECT_STATUS(dalic_pipeline_build(t.p), DALIC_EOP);
	EXPECT_ERROR_HAS("freq_high should be within the range (freq_low, sample_rate/2]");
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("mel_filter_bank", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_string(t.op, "mel_formula", "bark"));
	EXPECT_STATUS(dalic_pipeline_build(t.p), DALIC_EOP);
	EXPECT_ERROR_HAS("Unsupported mel_formula value \"bark\"");
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("mel_filter_bank", 1, 1, NULL);
	tl_oneop_feed_f32(&t, "in", 1, 2, (int64_t[]){4, 2}, (float[8]){0}, "tc");
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "'f' axis not present in the layout. Got: `tc`");
	dalic_pipeline_destroy(t.p);
}
