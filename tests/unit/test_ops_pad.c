/* pad: to the batch's largest extents, to a requested shape, aligned, on chosen axes, with
 * per-sample fill values cast as C++ casts a float; DALI's errors. Hand-computed values. */
#include "tests/testlib.h"

TestSuite(ops_pad, .timeout = 20);

static dalic_op_t *ops_pad_pipeline(dalic_pipeline_t *p)
{
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "pad");
	ASSERT_OK(dalic_op_set_name(op, "pad"));
	tl_input(op, "in");
	tl_output(p, op);
	return op;
}

/* sample 0: 2 x 3 [[1, 2, 3], [4, 5, 6]]; sample 1: 1 x 2 [[7, 8]] */
static void ops_pad_feed(dalic_pipeline_t *p, dalic_dtype_t t)
{
	const double v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	uint8_t bytes[64];
	for (int k = 0; k < 8; k++) {
		if (t == DALIC_UINT8)
			bytes[k] = (uint8_t)v[k];
		else
			((int32_t *)bytes)[k] = (int32_t)v[k];
	}
	tl_feed(p, "in", t, 2, 2, (int64_t[]){2, 3, 1, 2}, bytes, "HW");
}

Test(ops_pad, to_largest_on_all_axes)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *op = ops_pad_pipeline(p);
	ASSERT_OK(dalic_op_set_float(op, "fill_value", -1)); /* uint8: 255 */
	ops_pad_feed(p, DALIC_UINT8);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_str_eq(dalic_batch_layout(out), "HW");
	tl_expect_shape(out, 0, 2, (int64_t[]){2, 3});
	tl_expect_values(out, 0, 6, (double[]){1, 2, 3, 4, 5, 6});
	tl_expect_shape(out, 1, 2, (int64_t[]){2, 3});
	tl_expect_values(out, 1, 6, (double[]){7, 8, 255, 255, 255, 255});
	dalic_pipeline_destroy(p);
}

Test(ops_pad, chosen_axes_by_index_and_name)
{
	for (int k = 0; k < 2; k++) {
		dalic_pipeline_t *p = tl_pipeline(2);
		dalic_op_t *op = ops_pad_pipeline(p);
		if (k)
			ASSERT_OK(dalic_op_set_string(op, "axis_names", "W"));
		else
			ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){-1}));
		ASSERT_OK(dalic_op_set_float(op, "fill_value", 300.7)); /* uint8: 44 */
		ops_pad_feed(p, DALIC_UINT8);
		const dalic_batch_t *out = tl_run(p, 0);
		tl_expect_shape(out, 1, 2, (int64_t[]){1, 3});
		tl_expect_values(out, 1, 3, (double[]){7, 8, 44});
		dalic_pipeline_destroy(p);
	}
}

Test(ops_pad, shape_and_align)
{
	/* H to at least 3 (sample 0 stays 3 wide), W to the largest (3), then H and W up to
	 * multiples of 2: 4 x 4 for both */
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *op = ops_pad_pipeline(p);
	ASSERT_OK(dalic_op_set_ints(op, "shape", 2, (int64_t[]){3, -1}));
	ASSERT_OK(dalic_op_set_ints(op, "align", 1, (int64_t[]){2}));
	ops_pad_feed(p, DALIC_INT32);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 2, (int64_t[]){4, 4});
	tl_expect_values(out, 0, 16, (double[]){1, 2, 3, 0, 4, 5, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0});
	tl_expect_shape(out, 1, 2, (int64_t[]){4, 4});
	dalic_pipeline_destroy(p);

	/* a requested extent below the sample's never crops */
	p = tl_pipeline(2);
	op = ops_pad_pipeline(p);
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){1}));
	ASSERT_OK(dalic_op_set_ints(op, "shape", 1, (int64_t[]){1}));
	ops_pad_feed(p, DALIC_INT32);
	out = tl_run(p, 0);
	tl_expect_shape(out, 0, 2, (int64_t[]){2, 3});
	tl_expect_shape(out, 1, 2, (int64_t[]){1, 2});
	dalic_pipeline_destroy(p);
}

Test(ops_pad, per_sample_fill_and_axes)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "fill");
	tl_source(p, "axes");
	dalic_op_t *op = ops_pad_pipeline(p);
	ASSERT_OK(dalic_op_set_arg_input(op, "fill_value", "fill"));
	ASSERT_OK(dalic_op_set_arg_input(op, "axes", "axes"));
	ops_pad_feed(p, DALIC_INT32);
	tl_feed(p, "fill", DALIC_FLOAT, 0, 2, NULL, (float[]){-2.5f, 9}, NULL);
	tl_feed(p, "axes", DALIC_INT32, 1, 2, (int64_t[]){1, 1}, (int32_t[]){0, 1}, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	/* sample 1 padded along W only, with 9 */
	tl_expect_shape(out, 1, 2, (int64_t[]){1, 3});
	tl_expect_values(out, 1, 3, (double[]){7, 8, 9});
	dalic_pipeline_destroy(p);
}

Test(ops_pad, errors)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *op = ops_pad_pipeline(p);
	ASSERT_OK(dalic_op_set_ints(op, "align", 2, (int64_t[]){0, 4}));
	ops_pad_feed(p, DALIC_UINT8);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'pad'");
	EXPECT_HAS(msg, "Values of `align` argument must be positive.");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(2);
	op = ops_pad_pipeline(p);
	ASSERT_OK(dalic_op_set_ints(op, "shape", 3, (int64_t[]){4, 4, 4}));
	ops_pad_feed(p, DALIC_UINT8);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Argument \"shape\" expected shape 2 but got 3");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_pad_pipeline(p);
	tl_feed(p, "in", DALIC_FLOAT64, 1, 1, (int64_t[]){1}, (double[]){1}, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Unsupported data type: double");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_pad_pipeline(p);
	tl_feed(p, "in", DALIC_UINT8, 0, 1, NULL, (uint8_t[]){1}, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Unsupported number of dimensions 0");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_pad_pipeline(p);
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){0}));
	ASSERT_OK(dalic_op_set_string(op, "axis_names", "H"));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("\"axes\" and \"axis_names\" are mutually exclusive");
	dalic_pipeline_destroy(p);
}

Test(ops_pad, hostile_extents)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *op = ops_pad_pipeline(p);
	ASSERT_OK(dalic_op_set_ints(op, "shape", 1, (int64_t[]){INT64_C(1) << 62}));
	ops_pad_feed(p, DALIC_UINT8);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "argument 'shape': 4.61169e+18 is out of range");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(2);
	op = ops_pad_pipeline(p);
	ASSERT_OK(
	    dalic_op_set_ints(op, "shape", 2, (int64_t[]){INT64_C(1) << 40, INT64_C(1) << 40}));
	ops_pad_feed(p, DALIC_UINT8);
	const char *msg = tl_run_fails(p, DALIC_EINVAL);
	EXPECT_HAS(msg, "'pad'");
	EXPECT_HAS(msg, "its size in bytes overflows");
	dalic_pipeline_destroy(p);
}
