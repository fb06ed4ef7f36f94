/* normalize: (in - mean) * scale / stddev + shift, statistics given or computed per sample or
 * over the batch (hand-computed; computed deviations go through DALI's refined reciprocal
 * square root estimate, good to ~1e-6 relative). */
#include "tests/testlib/oneop.h"

TestSuite(ops_normalize, .timeout = 20);

static const float ops_norm_1234[4] = {1, 2, 3, 4};

static void ops_norm_expect_near(const dalic_batch_t *out, int i, int n, const double *want)
{
	for (int k = 0; k < n; k++)
		cr_expect_float_eq(tl_at(out, i, k), want[k], 1e-5, "sample %d element %d", i, k);
}

Test(ops_normalize, computed_over_everything)
{
	/* mean 2.5, variance (2.25 + 0.25 + 0.25 + 2.25) / 4 = 1.25, deviation 1.1180340 */
	tl_oneop_t t = tl_oneop("normalize", 1, 1, NULL);
	tl_oneop_feed_f32(&t, "in", 1, 1, (const int64_t[]){4}, ops_norm_1234, NULL);
	const dalic_batch_t *out = tl_run(t.p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	ops_norm_expect_near(out, 0, 4, (double[]){-1.3416408, -0.4472136, 0.4472136, 1.3416408});
	dalic_pipeline_destroy(t.p);
}

Test(ops_normalize, given_statistics_scale_and_shift)
{
	tl_oneop_t t = tl_oneop("normalize", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t.op, "mean", 1));
	ASSERT_OK(dalic_op_set_float(t.op, "stddev", 2));
	ASSERT_OK(dalic_op_set_float(t.op, "scale", 2));
	ASSERT_OK(dalic_op_set_float(t.op, "shift", 10));
	tl_oneop_feed_f32(&t, "in", 1, 1, (const int64_t[]){4}, ops_norm_1234, NULL);
	tl_expect_values(tl_run(t.p, 0), 0, 4, (double[]){10, 11, 12, 13});
	dalic_pipeline_destroy(t.p);
}

Test(ops_normalize, integer_outputs_round_half_away_and_saturate)
{
	tl_oneop_t t = tl_oneop("normalize", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t.op, "mean", 2.5));
	ASSERT_OK(dalic_op_set_float(t.op, "stddev", 1));
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_INT16));
	tl_oneop_feed_f32(&t, "in", 1, 1, (const int64_t[]){4}, ops_norm_1234, NULL);
	tl_expect_values(tl_run(t.p, 0), 0, 4, (double[]){-2, -1, 1, 2});
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("normalize", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t.op, "mean", 2.5));
	ASSERT_OK(dalic_op_set_float(t.op, "stddev", 0.01));
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_UINT8));
	tl_oneop_feed_f32(&t, "in", 1, 1, (const int64_t[]){4}, ops_norm_1234, NULL);
	tl_expect_values(tl_run(t.p, 0), 0, 4, (double[]){0, 0, 50, 150});
	dalic_pipeline_destroy(t.p);
}

Test(ops_normalize, a_constant_sample_maps_to_shift)
{
	tl_oneop_t t = tl_oneop("normalize", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t.op, "shift", 7));
	tl_oneop_feed_u8(&t, "in", 1, 1, (const int64_t[]){3}, (const uint8_t[]){9, 9, 9}, NULL);
	tl_expect_values(tl_run(t.p, 0), 0, 3, (double[]){7, 7, 7});
	dalic_pipeline_destroy(t.p);
}

Test(ops_normalize, per_column_statistics)
{
	/* [[1, 10], [3, 30]] over axis 0: means 2, 20; deviations 1, 10 */
	tl_oneop_t t = tl_oneop("normalize", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_ints(t.op, "axes", 1, (const int64_t[]){0}));
	tl_oneop_feed_f32(&t, "in", 1, 2, (const int64_t[]){2, 2}, (const float[]){1, 10, 3, 30},
	                  NULL);
	ops_norm_expect_near(tl_run(t.p, 0), 0, 4, (double[]){-1, -1, 1, 1});
	dalic_pipeline_destroy(t.p);

	/* the same with per-sample tensors of shape [1, 2]: axis 0 follows from the shape */
	t = tl_oneop("normalize", 1, 1, (const char *[]){"mean", "stddev", NULL});
	tl_oneop_feed_f32(&t, "in", 1, 2, (const int64_t[]){2, 2}, (const float[]){1, 10, 3, 30},
	                  NULL);
	tl_oneop_feed_f32(&t, "mean", 1, 2, (const int64_t[]){1, 2}, (const float[]){2, 20}, NULL);
	tl_oneop_feed_f32(&t, "stddev", 1, 2, (const int64_t[]){1, 2}, (const float[]){1, 10},
	                  NULL);
	tl_expect_values(tl_run(t.p, 0), 0, 4, (double[]){-1, -1, 1, 1});
	dalic_pipeline_destroy(t.p);
}

Test(ops_normalize, batch_statistics)
{
	/* [1, 3] and [5, 7]: mean 4, variance (9 + 1 + 1 + 9) / 4 = 5, deviation 2.2360680 */
	tl_oneop_t t = tl_oneop("normalize", 2, 1, NULL);
	ASSERT_OK(dalic_op_set_bool(t.op, "batch", true));
	tl_oneop_feed_f32(&t, "in", 2, 1, (const int64_t[]){2}, (const float[]){1, 3, 5, 7}, NULL);
	const dalic_batch_t *out = tl_run(t.p, 0);
	ops_norm_expect_near(out, 0, 2, (double[]){-1.3416408, -0.4472136});
	ops_norm_expect_near(out, 1, 2, (double[]){0.4472136, 1.3416408});
	dalic_pipeline_destroy(t.p);
}

Test(ops_normalize, refuses_what_dali_refuses)
{
	const char *msgs[] = {
	    "Normalize `axes` argument must specify at least one reduction axis.",
	    "Normalize: axis index 1 is out of valid range 0..0",
	    "Axes must not be specified when both mean and standard deviation are scalars",
	    "Normalize: unsupported output type: double",
	    "Normalize: At sample 0: parameter shape: {3} does not match the reduced input sample "
	    "shape which is : {4}",
	};
	for (int k = 0; k < 5; k++) {
		tl_oneop_t t =
		    tl_oneop("normalize", 1, 1, k == 4 ? (const char *[]){"mean", NULL} : NULL);
		if (k == 0)
			ASSERT_OK(dalic_op_set_ints(t.op, "axes", 0, NULL));
		if (k == 1 || k == 2)
			ASSERT_OK(
			    dalic_op_set_ints(t.op, "axes", 1, (const int64_t[]){k - 1 ? 0 : 1}));
		if (k == 2) {
			ASSERT_OK(dalic_op_set_float(t.op, "mean", 1));
			ASSERT_OK(dalic_op_set_float(t.op, "stddev", 1));
		}
		if (k == 3)
			ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_FLOAT64));
		if (k == 4)
			tl_oneop_feed_f32(&t, "mean", 1, 1, (const int64_t[]){3},
			                  (const float[]){1, 2, 3}, NULL);
		tl_oneop_feed_f32(&t, "in", 1, 1, (const int64_t[]){4}, ops_norm_1234, NULL);
		EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), msgs[k], "case %d", k);
		EXPECT_ERROR_HAS("(Normalize)");
		dalic_pipeline_destroy(t.p);
	}
	tl_oneop_t t = tl_oneop("normalize", 1, 1, (const char *[]){"stddev", NULL});
	ASSERT_OK(dalic_op_set_bool(t.op, "batch", true));
	tl_oneop_feed_f32(&t, "in", 1, 1, (const int64_t[]){4}, ops_norm_1234, NULL);
	tl_oneop_feed_f32(&t, "stddev", 1, 1, (const int64_t[]){1}, (const float[]){1}, NULL);
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "Batch normalization cannot be used with "
	                                         "parameters specified as TensorList inputs");
	dalic_pipeline_destroy(t.p);
}
