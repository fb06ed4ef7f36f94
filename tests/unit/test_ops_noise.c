/* noise.gaussian, noise.salt_and_pepper and noise.shot: what each does to known images (hand
 * checked: saturation, probabilities 0 and 1, one draw per pixel, factor 0), the statistics of
 * the noise, DALI 2.4's values for seed 1234, and argument errors. */
#include "tests/testlib.h"

TestSuite(ops_noise, .timeout = 30);

static const uint8_t ops_noise_img[12] = {10, 200, 30, 40, 50, 60, 0, 255, 128, 7, 8, 9};

/* A batch of two [2, 3] uint8 samples (layout "HC") through `name` (seed 1234). */
static dalic_op_t *ops_noise_pipe(dalic_pipeline_t **p, const char *name)
{
	*p = tl_pipeline(2);
	tl_source(*p, "img");
	dalic_op_t *op = tl_op(*p, name);
	ASSERT_OK(dalic_op_set_name(op, "noise"));
	ASSERT_OK(dalic_op_set_int(op, "seed", 1234));
	tl_input(op, "img");
	tl_output(*p, op);
	return op;
}

static void ops_noise_feed_img(dalic_pipeline_t *p)
{
	tl_feed(p, "img", DALIC_UINT8, 2, 2, (int64_t[]){2, 3, 2, 3}, ops_noise_img, "HC");
}

/* Recorded from DALI 2.4: batch 2, operator seed 1234. */
Test(ops_noise, dali_values_for_seed_1234)
{
	static const struct {
		const char *op, *arg;
		double value, want[2][6];
	} cases[] = {
	    {"noise.gaussian", "stddev", 20, {{35, 204, 8, 26, 44, 57}, {16, 255, 151, 25, 15, 0}}},
	    {"noise.salt_and_pepper",
	     "prob",
	     0.5,
	     {{255, 255, 255, 40, 50, 60}, {0, 255, 128, 0, 0, 0}}},
	    {"noise.shot", "factor", 4, {{8, 204, 44, 36, 32, 48}, {0, 255, 120, 12, 12, 8}}},
	};
	for (int c = 0; c < 3; c++) {
		dalic_pipeline_t *p;
		dalic_op_t *op = ops_noise_pipe(&p, cases[c].op);
		ASSERT_OK(dalic_op_set_float(op, cases[c].arg, cases[c].value));
		ops_noise_feed_img(p);
		const dalic_batch_t *out = tl_run(p, 0);
		cr_expect_eq(dalic_batch_dtype(out), DALIC_UINT8, "%s", cases[c].op);
		cr_expect_str_eq(dalic_batch_layout(out), "HC", "%s keeps the layout", cases[c].op);
		tl_expect_values(out, 0, 6, cases[c].want[0]);
		tl_expect_values(out, 1, 6, cases[c].want[1]);
		dalic_pipeline_destroy(p);
	}
}

Test(ops_noise, gaussian_without_spread_adds_the_mean_and_saturates)
{
	dalic_pipeline_t *p;
	dalic_op_t *op = ops_noise_pipe(&p, "noise.gaussian");
	ASSERT_OK(dalic_op_set_float(op, "mean", 10.4));
	ASSERT_OK(dalic_op_set_float(op, "stddev", 0));
	ops_noise_feed_img(p);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_values(out, 0, 6, (double[]){20, 210, 40, 50, 60, 70});
	tl_expect_values(out, 1, 6, (double[]){10, 255, 138, 17, 18, 19});
	dalic_pipeline_destroy(p);
}

Test(ops_noise, gaussian_noise_has_the_asked_moments)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "x");
	dalic_op_t *op = tl_op(p, "noise.gaussian");
	ASSERT_OK(dalic_op_set_float(op, "mean", 2));
	ASSERT_OK(dalic_op_set_float(op, "stddev", 3));
	tl_input(op, "x");
	tl_output(p, op);
	static float zeros[20000];
	tl_feed(p, "x", DALIC_FLOAT, 1, 1, (int64_t[]){20000}, zeros, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	double sum = 0, sq = 0;
	for (int k = 0; k < 20000; k++) {
		double v = tl_at(out, 0, k);
		sum += v;
		sq += v * v;
	}
	double mean = sum / 20000, sd = sqrt(sq / 20000 - mean * mean);
	cr_expect(fabs(mean - 2) < 0.1 && fabs(sd - 3) < 0.1, "mean %g, stddev %g", mean, sd);
	dalic_pipeline_destroy(p);
}

Test(ops_noise, salt_and_pepper_probabilities_zero_and_one)
{
	dalic_pipeline_t *p;
	dalic_op_t *op = ops_noise_pipe(&p, "noise.salt_and_pepper");
	ASSERT_OK(dalic_op_set_float(op, "prob", 0));
	ops_noise_feed_img(p);
	const dalic_batch_t *out = tl_run(p, 0);
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 6; k++)
			cr_expect_eq(tl_at(out, i, k), ops_noise_img[6 * i + k]);
	dalic_pipeline_destroy(p);

	op = ops_noise_pipe(&p, "noise.salt_and_pepper");
	ASSERT_OK(dalic_op_set_float(op, "prob", 1));
	ASSERT_OK(dalic_op_set_float(op, "salt_vs_pepper", 0));
	ASSERT_OK(dalic_op_set_float(op, "pepper_val", 300)); /* a C++ cast: 300 as uint8 is 44 */
	ops_noise_feed_img(p);
	out = tl_run(p, 0);
	for (int k = 0; k < 6; k++)
		cr_expect_eq(tl_at(out, 1, k), 44);
	dalic_pipeline_destroy(p);
}

/* per_channel=False: a pixel's channels are all salt, all pepper or all untouched. */
Test(ops_noise, salt_and_pepper_one_draw_per_pixel)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "x");
	dalic_op_t *op = tl_op(p, "noise.salt_and_pepper");
	ASSERT_OK(dalic_op_set_float(op, "prob", 0.4));
	tl_input(op, "x");
	tl_output(p, op);
	static uint8_t grey[1000 * 3];
	memset(grey, 100, sizeof grey);
	tl_feed(p, "x", DALIC_UINT8, 2, 1, (int64_t[]){1000, 3}, grey, "WC");
	const dalic_batch_t *out = tl_run(p, 0);
	int noisy = 0, salt = 0;
	for (int px = 0; px < 1000; px++) {
		double c0 = tl_at(out, 0, 3 * px);
		cr_assert(c0 == 100 || c0 == 255 || c0 == 0, "pixel %d: %g", px, c0);
		for (int c = 1; c < 3; c++)
			cr_assert_eq(tl_at(out, 0, 3 * px + c), c0, "pixel %d channel %d", px, c);
		noisy += c0 != 100;
		salt += c0 == 255;
	}
	cr_expect(noisy > 340 && noisy < 460, "%d of 1000 pixels corrupted (prob 0.4)", noisy);
	cr_expect(salt > noisy / 2 - 50 && salt < noisy / 2 + 50, "%d salt of %d", salt, noisy);
	dalic_pipeline_destroy(p);
}

Test(ops_noise, shot_factor_zero_gives_zeros_and_outputs_are_multiples)
{
	dalic_pipeline_t *p;
	dalic_op_t *op = ops_noise_pipe(&p, "noise.shot");
	ASSERT_OK(dalic_op_set_float(op, "factor", 0));
	ops_noise_feed_img(p);
	const dalic_batch_t *out = tl_run(p, 0);
	for (int i = 0; i < 2; i++)
		tl_expect_values(out, i, 6, (double[]){0, 0, 0, 0, 0, 0});
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	tl_source(p, "x");
	op = tl_op(p, "noise.shot");
	ASSERT_OK(dalic_op_set_float(op, "factor", 2));
	tl_input(op, "x");
	tl_output(p, op);
	static float fifty[10000];
	for (int k = 0; k < 10000; k++)
		fifty[k] = 50;
	tl_feed(p, "x", DALIC_FLOAT, 1, 1, (int64_t[]){10000}, fifty, NULL);
	out = tl_run(p, 0);
	double sum = 0, sq = 0;
	for (int k = 0; k < 10000; k++) {
		double v = tl_at(out, 0, k);
		cr_assert_eq(fmod(v, 2), 0, "%g is not a multiple of the factor", v);
		sum += v;
		sq += v * v;
	}
	/* 2 * Poisson(25): mean 50, variance 4 * 25 */
	double mean = sum / 10000, var = sq / 10000 - mean * mean;
	cr_expect(fabs(mean - 50) < 0.5 && fabs(var - 100) < 8, "mean %g, variance %g", mean, var);
	dalic_pipeline_destroy(p);
}

Test(ops_noise, argument_errors)
{
	dalic_pipeline_t *p;
	dalic_op_t *op = ops_noise_pipe(&p, "noise.salt_and_pepper");
	ASSERT_OK(dalic_op_set_float(op, "salt_vs_pepper", -0.5));
	ops_noise_feed_img(p);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'noise'");
	EXPECT_HAS(msg, "Salt-vs-pepper probability should be a value within [0.0, 1.0]. Got: -0.5");
	dalic_pipeline_destroy(p);

	ops_noise_pipe(&p, "noise.gaussian");
	const uint16_t half[2] = {0, 0};
	tl_feed(p, "img", DALIC_FLOAT16, 0, 2, (int64_t[]){0}, half, NULL);
	msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "Data type float16 is currently not supported. Supported types are : uint8, "
			"int8, uint16, int16, uint32, int32, uint64, int64, float");
	dalic_pipeline_destroy(p);

	op = ops_noise_pipe(&p, "noise.shot");
	ASSERT_OK(dalic_op_set_float(op, "factor", 1e-30));
	ops_noise_feed_img(p);
	msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "a Poisson mean DALI never finishes drawing");
	dalic_pipeline_destroy(p);
}
