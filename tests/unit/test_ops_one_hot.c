/* one_hot: the legacy scalar form, a class axis at the end, in front and in the middle,
 * on/off values cast to the output type, float labels truncated, layouts, DALI's errors. */
#include "tests/testlib.h"

TestSuite(ops_one_hot, .timeout = 20);

static dalic_op_t *ops_one_hot_pipeline(dalic_pipeline_t *p, int classes)
{
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "one_hot");
	ASSERT_OK(dalic_op_set_name(op, "oh"));
	ASSERT_OK(dalic_op_set_int(op, "num_classes", classes));
	tl_input(op, "in");
	tl_output(p, op);
	return op;
}

Test(ops_one_hot, scalar_like_samples)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	ops_one_hot_pipeline(p, 4);
	/* [1]-shaped labels 2 and 7 (outside: all off) */
	tl_feed(p, "in", DALIC_INT32, 1, 2, (int64_t[]){1, 1}, (int32_t[]){2, 7}, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	tl_expect_shape(out, 0, 1, (int64_t[]){4});
	tl_expect_values(out, 0, 4, (double[]){0, 0, 1, 0});
	tl_expect_values(out, 1, 4, (double[]){0, 0, 0, 0});
	dalic_pipeline_destroy(p);
}

Test(ops_one_hot, class_axis_positions)
{
	/* labels [[2, 0], [1, 1]] with 3 classes */
	const int32_t labels[4] = {2, 0, 1, 1};
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_one_hot_pipeline(p, 3);
	tl_feed(p, "in", DALIC_INT32, 2, 1, (int64_t[]){2, 2}, labels, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 3, (int64_t[]){2, 2, 3});
	tl_expect_values(out, 0, 12, (double[]){0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 1, 0});
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	dalic_op_t *op = ops_one_hot_pipeline(p, 3);
	ASSERT_OK(dalic_op_set_int(op, "axis", 1));
	ASSERT_OK(dalic_op_set_string(op, "axis_name", "K"));
	tl_feed(p, "in", DALIC_INT32, 2, 1, (int64_t[]){2, 2}, labels, "HW");
	out = tl_run(p, 0);
	cr_expect_str_eq(dalic_batch_layout(out), "HKW");
	tl_expect_shape(out, 0, 3, (int64_t[]){2, 3, 2});
	/* out[h][c][w] = labels[h][w] == c */
	tl_expect_values(out, 0, 12, (double[]){0, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0});
	dalic_pipeline_destroy(p);
}

Test(ops_one_hot, values_cast_and_float_labels)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_one_hot_pipeline(p, 3);
	ASSERT_OK(dalic_op_set_float(op, "on_value", 300.6));
	ASSERT_OK(dalic_op_set_float(op, "off_value", -1.5));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_UINT8));
	ASSERT_OK(dalic_op_set_int(op, "axis", 0));
	/* 1.7 -> class 1; -0.5 -> 0; 2.5 -> 2 */
	tl_feed(p, "in", DALIC_FLOAT, 1, 1, (int64_t[]){3}, (float[]){1.7f, -0.5f, 2.5f}, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_UINT8);
	tl_expect_shape(out, 0, 2, (int64_t[]){3, 3});
	/* on: (uint8)300 = 44; off: (uint8)-1 = 255; out[c][k] */
	tl_expect_values(out, 0, 9, (double[]){255, 44, 255, 44, 255, 255, 255, 255, 44});
	dalic_pipeline_destroy(p);
}

Test(ops_one_hot, errors)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_one_hot_pipeline(p, 3);
	ASSERT_OK(dalic_op_set_int(op, "axis", 2));
	tl_feed(p, "in", DALIC_INT32, 1, 1, (int64_t[]){2}, (int32_t[]){0, 1}, NULL);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'oh'");
	EXPECT_HAS(msg, "Provided axis is outside of allowed range, got: 2, expected to be in "
	                "range: [-1, 1].");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_one_hot_pipeline(p, 3);
	ASSERT_OK(dalic_op_set_string(op, "axis_name", "K"));
	tl_feed(p, "in", DALIC_INT32, 1, 1, (int64_t[]){2}, (int32_t[]){0, 1}, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Input layout mismatch - expected input layout to "
	                                       "be of size 1 but instead got \"\"");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_one_hot_pipeline(p, 3);
	ASSERT_OK(dalic_op_set_string(op, "axis_name", "KL"));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("It must be a single character, got \"KL\" instead.");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_one_hot_pipeline(p, 3);
	tl_feed(p, "in", DALIC_BOOL, 1, 1, (int64_t[]){1}, (uint8_t[]){1}, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Unsupported input type: bool");
	dalic_pipeline_destroy(p);
}
