/* squeeze: extent-1 dims removed by index or layout letter, layouts follow, data untouched;
 * DALI's errors: both or neither argument, repeated dims, unknown letters, a removed dim
 * whose extent is not 1 (naming the sample). */
#include "tests/testlib.h"

TestSuite(ops_squeeze, .timeout = 20);

static const float ops_squeeze_data[6] = {1, 2, 3, 4, 5, 6};

static dalic_op_t *ops_squeeze_pipeline(dalic_pipeline_t *p)
{
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "squeeze");
	ASSERT_OK(dalic_op_set_name(op, "sq"));
	tl_input(op, "in");
	tl_output(p, op);
	return op;
}

Test(ops_squeeze, by_axes)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *op = ops_squeeze_pipeline(p);
	/* 9 is beyond every input's dims: it names nothing, as in DALI 2.4 */
	ASSERT_OK(dalic_op_set_ints(op, "axes", 3, (int64_t[]){3, 0, 9}));
	/* (1, 2, 1, 1) and (1, 4, 1, 1) */
	tl_feed(p, "in", DALIC_FLOAT, 4, 2, (int64_t[]){1, 2, 1, 1, 1, 4, 1, 1}, ops_squeeze_data,
	        "FHWC");
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_str_eq(dalic_batch_layout(out), "HW");
	tl_expect_shape(out, 0, 2, (int64_t[]){2, 1});
	tl_expect_values(out, 0, 2, (double[]){1, 2});
	tl_expect_shape(out, 1, 2, (int64_t[]){4, 1});
	tl_expect_values(out, 1, 4, (double[]){3, 4, 5, 6});
	dalic_pipeline_destroy(p);
}

Test(ops_squeeze, by_names_and_without_layout)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_squeeze_pipeline(p);
	ASSERT_OK(dalic_op_set_string(op, "axis_names", "CF"));
	tl_feed(p, "in", DALIC_FLOAT, 3, 1, (int64_t[]){1, 6, 1}, ops_squeeze_data, "FWC");
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_str_eq(dalic_batch_layout(out), "W");
	tl_expect_shape(out, 0, 1, (int64_t[]){6});
	tl_expect_values(out, 0, 6, (double[]){1, 2, 3, 4, 5, 6});
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_squeeze_pipeline(p);
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){2}));
	tl_feed(p, "in", DALIC_FLOAT, 3, 1, (int64_t[]){2, 3, 1}, ops_squeeze_data, NULL);
	out = tl_run(p, 0);
	cr_expect_str_eq(dalic_batch_layout(out), "");
	tl_expect_shape(out, 0, 2, (int64_t[]){2, 3});
	dalic_pipeline_destroy(p);
}

Test(ops_squeeze, argument_errors_at_build)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_squeeze_pipeline(p);
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("'sq'");
	EXPECT_ERROR_HAS("Missing argument ``axes`` or ``axis_names``");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	dalic_op_t *op = ops_squeeze_pipeline(p);
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){0}));
	ASSERT_OK(dalic_op_set_string(op, "axis_names", "F"));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("Provided both ``axes`` and ``axis_names``");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_squeeze_pipeline(p);
	ASSERT_OK(dalic_op_set_ints(op, "axes", 3, (int64_t[]){2, 0, 2}));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("Specified at least twice same dimension to remove");
	dalic_pipeline_destroy(p);
}

Test(ops_squeeze, data_errors_name_the_sample)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *op = ops_squeeze_pipeline(p);
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){0}));
	/* sample 1 is (2, 2): its first extent is not 1 */
	tl_feed(p, "in", DALIC_FLOAT, 2, 2, (int64_t[]){1, 2, 2, 2}, ops_squeeze_data, NULL);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'sq'");
	EXPECT_HAS(msg, "sample 1");
	EXPECT_HAS(msg, "Requested a shape with 2 elements but the original shape has 4 elements");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_squeeze_pipeline(p);
	ASSERT_OK(dalic_op_set_string(op, "axis_names", "D"));
	tl_feed(p, "in", DALIC_FLOAT, 2, 1, (int64_t[]){1, 2}, ops_squeeze_data, "FW");
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Axis 'D' is not present in the input layout");
	dalic_pipeline_destroy(p);
}
