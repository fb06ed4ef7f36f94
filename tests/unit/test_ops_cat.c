/* cat: joins along an existing axis (index, negative index or layout letter), per sample;
 * empty inputs are left out; DALI's errors. Expected values are written out by hand. */
#include "tests/testlib.h"

TestSuite(ops_cat, .timeout = 20);

/* Sources a and b feed cat; returns the operator. */
static dalic_op_t *ops_cat_pipeline(dalic_pipeline_t *p)
{
	tl_source(p, "a");
	tl_source(p, "b");
	dalic_op_t *op = tl_op(p, "cat");
	ASSERT_OK(dalic_op_set_name(op, "cat"));
	tl_input(op, "a");
	tl_input(op, "b");
	tl_output(p, op);
	return op;
}

static const int16_t ops_cat_a[] = {1, 2, 3, 4, 5, 6};    /* (2, 3) and (0, 3) */
static const int16_t ops_cat_b[] = {7, 8, 9, 10, 11, 12}; /* (1, 3) and (1, 3) */

Test(ops_cat, along_outer_axis)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	ops_cat_pipeline(p);
	tl_feed(p, "a", DALIC_INT16, 2, 2, (int64_t[]){2, 3, 0, 3}, ops_cat_a, "HW");
	tl_feed(p, "b", DALIC_INT16, 2, 2, (int64_t[]){1, 3, 1, 3}, ops_cat_b, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_str_eq(dalic_batch_layout(out), "HW"); /* input 0's */
	tl_expect_shape(out, 0, 2, (int64_t[]){3, 3});
	tl_expect_values(out, 0, 9, (double[]){1, 2, 3, 4, 5, 6, 7, 8, 9});
	tl_expect_shape(out, 1, 2, (int64_t[]){1, 3});
	tl_expect_values(out, 1, 3, (double[]){10, 11, 12});
	dalic_pipeline_destroy(p);
}

Test(ops_cat, along_inner_axis_by_index_and_name)
{
	for (int k = 0; k < 3; k++) {
		dalic_pipeline_t *p = tl_pipeline(1);
		dalic_op_t *op = ops_cat_pipeline(p);
		if (k == 0)
			ASSERT_OK(dalic_op_set_int(op, "axis", 1));
		else if (k == 1)
			ASSERT_OK(dalic_op_set_int(op, "axis", -1));
		else
			ASSERT_OK(dalic_op_set_string(op, "axis_name", "W"));
		/* a: (2, 2) [[1, 2], [3, 4]]; b: (2, 1) [[7], [8]] */
		tl_feed(p, "a", DALIC_INT16, 2, 1, (int64_t[]){2, 2}, ops_cat_a, "HW");
		tl_feed(p, "b", DALIC_INT16, 2, 1, (int64_t[]){2, 1}, ops_cat_b, "HW");
		const dalic_batch_t *out = tl_run(p, 0);
		tl_expect_shape(out, 0, 2, (int64_t[]){2, 3});
		tl_expect_values(out, 0, 6, (double[]){1, 2, 7, 3, 4, 8});
		dalic_pipeline_destroy(p);
	}
}

Test(ops_cat, empty_batches_are_left_out)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_cat_pipeline(p);
	ASSERT_OK(dalic_op_set_int(op, "axis", 1));
	/* b is empty in the whole batch; its other extent (5) does not have to match */
	tl_feed(p, "a", DALIC_INT16, 2, 1, (int64_t[]){2, 2}, ops_cat_a, NULL);
	tl_feed(p, "b", DALIC_INT16, 2, 1, (int64_t[]){0, 5}, ops_cat_b, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 2, (int64_t[]){2, 2});
	tl_expect_values(out, 0, 4, (double[]){1, 2, 3, 4});
	dalic_pipeline_destroy(p);
}

Test(ops_cat, errors)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	ops_cat_pipeline(p);
	/* sample 1: (1, 3) vs (1, 2) */
	tl_feed(p, "a", DALIC_INT16, 2, 2, (int64_t[]){1, 3, 1, 3}, ops_cat_a, NULL);
	tl_feed(p, "b", DALIC_INT16, 2, 2, (int64_t[]){1, 3, 1, 2}, ops_cat_b, NULL);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'cat'");
	EXPECT_HAS(msg, "sample 1");
	EXPECT_HAS(msg, "can differ in size only in the concatenation axis (0)");
	EXPECT_HAS(msg, "Mismatch in axis 1");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_cat_pipeline(p);
	tl_feed(p, "a", DALIC_INT16, 1, 1, (int64_t[]){2}, ops_cat_a, NULL);
	tl_feed(p, "b", DALIC_INT32, 1, 1, (int64_t[]){1}, ops_cat_b, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP),
	           "All inputs must have the same type and number of dimensions");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	dalic_op_t *op = ops_cat_pipeline(p);
	ASSERT_OK(dalic_op_set_int(op, "axis", 2));
	tl_feed(p, "a", DALIC_INT16, 2, 1, (int64_t[]){1, 2}, ops_cat_a, NULL);
	tl_feed(p, "b", DALIC_INT16, 2, 1, (int64_t[]){1, 2}, ops_cat_b, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP),
	           "Invalid axis argument, 2 for 2-D tensors. Accepted range is [ -2, 1]");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_cat_pipeline(p);
	ASSERT_OK(dalic_op_set_string(op, "axis_name", "C"));
	tl_feed(p, "a", DALIC_INT16, 2, 1, (int64_t[]){1, 2}, ops_cat_a, "HW");
	tl_feed(p, "b", DALIC_INT16, 2, 1, (int64_t[]){1, 2}, ops_cat_b, "HW");
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP),
	           "``axis_name`` specifies an undefined axis 'C' for layout \"HW\"");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_cat_pipeline(p);
	ASSERT_OK(dalic_op_set_string(op, "axis_name", "W"));
	ASSERT_OK(dalic_op_set_int(op, "axis", 1));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("Arguments ``axis`` and ``axis_name`` cannot be used together");
	dalic_pipeline_destroy(p);
}
