/* reductions.std_dev and reductions.variance: sum((x - mean)^2) / (n - ddof) with the mean as
 * input 1 (hand-computed: rows (1, 2, 3, 4) and (10, 10, 10, 10), means 2.5 and 10). */
#include "tests/testlib/oneop.h"

TestSuite(ops_reductions_std_dev, .timeout = 20);

static const int64_t ops_rstd_shape[2] = {2, 4};
static const float ops_rstd_data[8] = {1, 2, 3, 4, 10, 10, 10, 10};

static tl_oneop_t ops_rstd_make(const char *op, int ddof, const float *mean, int64_t nmean)
{
	tl_oneop_t t = tl_oneop(op, 1, 2, NULL);
	ASSERT_OK(dalic_op_set_ints(t.op, "axes", 1, (const int64_t[]){1}));
	ASSERT_OK(dalic_op_set_int(t.op, "ddof", ddof));
	tl_oneop_feed_f32(&t, "in", 1, 2, ops_rstd_shape, ops_rstd_data, NULL);
	tl_oneop_feed_f32(&t, "in1", 1, 1, &nmean, mean, NULL);
	return t;
}

static const float ops_rstd_mean[2] = {2.5f, 10.0f};

Test(ops_reductions_std_dev, variance_and_ddof)
{
	/* (2.25 + 0.25 + 0.25 + 2.25) = 5: / 4 = 1.25, / 3 = 1.6667 */
	tl_oneop_t t = ops_rstd_make("reductions.variance", 0, ops_rstd_mean, 2);
	tl_expect_values(tl_run(t.p, 0), 0, 2, (double[]){1.25, 0});
	dalic_pipeline_destroy(t.p);
	t = ops_rstd_make("reductions.variance", 1, ops_rstd_mean, 2);
	const dalic_batch_t *out = tl_run(t.p, 0);
	cr_expect_float_eq(tl_at(out, 0, 0), 5.0 / 3, 1e-6);
	dalic_pipeline_destroy(t.p);
	/* ddof = n: 1 / 0 is infinite in DALI's float factor */
	t = ops_rstd_make("reductions.variance", 4, ops_rstd_mean, 2);
	cr_expect(isinf(tl_at(tl_run(t.p, 0), 0, 0)));
	dalic_pipeline_destroy(t.p);
}

Test(ops_reductions_std_dev, standard_deviation)
{
	tl_oneop_t t = ops_rstd_make("reductions.std_dev", 0, ops_rstd_mean, 2);
	const dalic_batch_t *out = tl_run(t.p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	cr_expect_float_eq(tl_at(out, 0, 0), 1.1180340, 1e-6);
	cr_expect_eq(tl_at(out, 0, 1), 0);
	dalic_pipeline_destroy(t.p);
}

Test(ops_reductions_std_dev, the_mean_must_fit_the_output)
{
	tl_oneop_t t = ops_rstd_make("reductions.std_dev", 0, ops_rstd_mean, 1);
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "the mean (input 1) has 1 values; the reduced "
	                                         "output has 2");
	EXPECT_ERROR_HAS("sample 0");
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("reductions.std_dev", 1, 2, NULL);
	tl_oneop_feed_f32(&t, "in", 1, 2, ops_rstd_shape, ops_rstd_data, NULL);
	tl_feed(t.p, "in1", DALIC_INT32, 0, 1, NULL, (const int32_t[]){3}, NULL);
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "the mean (input 1) must be float, not int32");
	dalic_pipeline_destroy(t.p);
}

Test(ops_reductions_std_dev, empty_axes_give_zeros)
{
	tl_oneop_t t = tl_oneop("reductions.std_dev", 1, 2, NULL);
	ASSERT_OK(dalic_op_set_ints(t.op, "axes", 0, NULL));
	tl_oneop_feed_f32(&t, "in", 1, 2, ops_rstd_shape, ops_rstd_data, NULL);
	tl_oneop_feed_f32(&t, "in1", 1, 1, (const int64_t[]){1}, ops_rstd_mean, NULL);
	const dalic_batch_t *out = tl_run(t.p, 0);
	tl_expect_shape(out, 0, 2, ops_rstd_shape);
	tl_expect_values(out, 0, 8, (double[]){0, 0, 0, 0, 0, 0, 0, 0});
	dalic_pipeline_destroy(t.p);
}
