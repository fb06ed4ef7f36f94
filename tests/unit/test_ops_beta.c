/* random.beta: values in [0, 1] with the distribution's mean, both methods (parameters below 1
 * and not), float and double, per-sample alpha, DALI 2.4's values for seed 1234, errors. */
#include "tests/testlib.h"

TestSuite(ops_beta, .timeout = 20);

static dalic_op_t *ops_beta_op(dalic_pipeline_t *p, double alpha, double beta, int64_t n)
{
	dalic_op_t *op = tl_op(p, "random.beta");
	ASSERT_OK(dalic_op_set_name(op, "beta"));
	ASSERT_OK(dalic_op_set_int(op, "seed", 1234));
	if (!isnan(alpha)) /* NaN: given later as an argument input */
		ASSERT_OK(dalic_op_set_float(op, "alpha", alpha));
	ASSERT_OK(dalic_op_set_float(op, "beta", beta));
	ASSERT_OK(dalic_op_set_ints(op, "shape", 1, &n));
	tl_output(p, op);
	return op;
}

/* Mean and variance of Beta(a, b): a / (a + b), ab / ((a + b)^2 (a + b + 1)). */
Test(ops_beta, values_in_unit_interval_with_the_beta_moments)
{
	const double params[4][2] = {{2, 5}, {0.5, 0.5}, {0.2, 0.7}, {1, 1}};
	for (int c = 0; c < 4; c++) {
		double a = params[c][0], b = params[c][1];
		dalic_pipeline_t *p = tl_pipeline(1);
		ops_beta_op(p, a, b, 20000);
		const dalic_batch_t *out = tl_run(p, 0);
		cr_assert_eq(dalic_batch_dtype(out), DALIC_FLOAT);
		double sum = 0, sq = 0;
		for (int k = 0; k < 20000; k++) {
			double v = tl_at(out, 0, k);
			cr_assert(v >= 0 && v <= 1, "Beta(%g, %g): %g", a, b, v);
			sum += v;
			sq += v * v;
		}
		double mean = sum / 20000, var = sq / 20000 - mean * mean;
		double want_var = a * b / ((a + b) * (a + b) * (a + b + 1));
		cr_expect(fabs(mean - a / (a + b)) < 0.01, "Beta(%g, %g) mean %g", a, b, mean);
		cr_expect(fabs(var - want_var) < 0.01, "Beta(%g, %g) variance %g, want %g", a, b,
			  var, want_var);
		dalic_pipeline_destroy(p);
	}
}

Test(ops_beta, per_sample_alpha_from_an_argument_input)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "alphas");
	dalic_op_t *op = ops_beta_op(p, NAN, 1, 5000);
	ASSERT_OK(dalic_op_set_arg_input(op, "alpha", "alphas"));
	const float alphas[2] = {9, 1};
	tl_feed(p, "alphas", DALIC_FLOAT, 0, 2, (int64_t[]){0}, alphas, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	for (int i = 0; i < 2; i++) {
		double sum = 0;
		for (int k = 0; k < 5000; k++)
			sum += tl_at(out, i, k);
		double want = alphas[i] / (alphas[i] + 1);
		cr_expect(fabs(sum / 5000 - want) < 0.02, "sample %d mean %g, want %g", i,
			  sum / 5000, want);
	}
	dalic_pipeline_destroy(p);
}

/* Recorded from DALI 2.4: batch 2, operator seed 1234, first iteration. */
Test(ops_beta, dali_values_for_seed_1234)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	ops_beta_op(p, 0.5, 0.5, 4);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_values(out, 0, 4,
			 (double[]){0x1.3749eap-2, 0x1.589254p-1, 0x1.004986p-4, 0x1.505b04p-4});
	tl_expect_values(out, 1, 4,
			 (double[]){0x1.ca2812p-4, 0x1.7288p-1, 0x1.008f24p-4, 0x1.a82486p-1});
	dalic_pipeline_destroy(p);

	p = tl_pipeline(2);
	dalic_op_t *op = ops_beta_op(p, 2, 5, 3);
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_FLOAT64));
	out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT64);
	tl_expect_values(out, 0, 3,
			 (double[]){0x1.d0f7a5ebdb5d8p-2, 0x1.463131ad60efdp-2, 0x1.82fa06746002bp-2});
	tl_expect_values(out, 1, 3,
			 (double[]){0x1.7d07b38085ec7p-1, 0x1.0fe55ff33f557p-2, 0x1.7061ddbc76c3ap-2});
	dalic_pipeline_destroy(p);
}

Test(ops_beta, argument_errors)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_beta_op(p, -1, 1, 2);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'beta'");
	EXPECT_HAS(msg, "The `alpha` must be a positive float32, got `-1` for sample at index 0.");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_beta_op(p, 1, INFINITY, 2);
	msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "The `beta` must be a positive float32, got `inf` for sample at index 0.");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	dalic_op_t *op = ops_beta_op(p, 1, 1, 2);
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_UINT8));
	msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "Data type uint8 is not supported. Supported types are : float, double");
	dalic_pipeline_destroy(p);
}
