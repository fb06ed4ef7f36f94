/* stack: joins along a new axis (outer, interleaved, negative), names it in the layout;
 * shapes must be equal. Expected values are written out by hand. */
#include "tests/testlib.h"

TestSuite(ops_stack, .timeout = 20);

static dalic_op_t *ops_stack_pipeline(dalic_pipeline_t *p)
{
	tl_source(p, "a");
	tl_source(p, "b");
	dalic_op_t *op = tl_op(p, "stack");
	ASSERT_OK(dalic_op_set_name(op, "st"));
	tl_input(op, "a");
	tl_input(op, "b");
	tl_output(p, op);
	return op;
}

static const float ops_stack_a[] = {1, 2, 3, 4, 5, 6};
static const float ops_stack_b[] = {10, 20, 30, 40, 50, 60};

/* Stacks a and b, both (2, 3) with layout HW, at `axis` with `name` (may be NULL). */
static void ops_stack_expect(int axis, const char *name, const char *layout, const int64_t *shape,
                             const double *want)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_stack_pipeline(p);
	ASSERT_OK(dalic_op_set_int(op, "axis", axis));
	if (name)
		ASSERT_OK(dalic_op_set_string(op, "axis_name", name));
	tl_feed(p, "a", DALIC_FLOAT, 2, 1, (int64_t[]){2, 3}, ops_stack_a, "HW");
	tl_feed(p, "b", DALIC_FLOAT, 2, 1, (int64_t[]){2, 3}, ops_stack_b, "HW");
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_str_eq(dalic_batch_layout(out), layout, "axis %d", axis);
	tl_expect_shape(out, 0, 3, shape);
	tl_expect_values(out, 0, 12, want);
	dalic_pipeline_destroy(p);
}

Test(ops_stack, axes)
{
	ops_stack_expect(0, "F", "FHW", (int64_t[]){2, 2, 3},
	                 (double[]){1, 2, 3, 4, 5, 6, 10, 20, 30, 40, 50, 60});
	ops_stack_expect(1, NULL, "", (int64_t[]){2, 2, 3},
	                 (double[]){1, 2, 3, 10, 20, 30, 4, 5, 6, 40, 50, 60});
	ops_stack_expect(-1, "C", "HWC", (int64_t[]){2, 3, 2},
	                 (double[]){1, 10, 2, 20, 3, 30, 4, 40, 5, 50, 6, 60});
	ops_stack_expect(-2, "C", "HCW", (int64_t[]){2, 2, 3},
	                 (double[]){1, 2, 3, 10, 20, 30, 4, 5, 6, 40, 50, 60});
}

Test(ops_stack, scalars_become_vectors)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_stack_pipeline(p);
	ASSERT_OK(dalic_op_set_string(op, "axis_name", "X"));
	tl_feed(p, "a", DALIC_FLOAT, 0, 1, NULL, ops_stack_a, NULL);
	tl_feed(p, "b", DALIC_FLOAT, 0, 1, NULL, ops_stack_b, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_str_eq(dalic_batch_layout(out), "X");
	tl_expect_shape(out, 0, 1, (int64_t[]){2});
	tl_expect_values(out, 0, 2, (double[]){1, 10});
	dalic_pipeline_destroy(p);
}

Test(ops_stack, errors)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_stack_pipeline(p);
	tl_feed(p, "a", DALIC_FLOAT, 2, 1, (int64_t[]){2, 3}, ops_stack_a, NULL);
	tl_feed(p, "b", DALIC_FLOAT, 2, 1, (int64_t[]){3, 2}, ops_stack_b, NULL);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'st'");
	EXPECT_HAS(msg, "sample 0");
	EXPECT_HAS(msg,
	           "Tensor stacking requires that all tensors being stacked are of equal shape");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	dalic_op_t *op = ops_stack_pipeline(p);
	ASSERT_OK(dalic_op_set_int(op, "axis", 3));
	tl_feed(p, "a", DALIC_FLOAT, 2, 1, (int64_t[]){2, 3}, ops_stack_a, NULL);
	tl_feed(p, "b", DALIC_FLOAT, 2, 1, (int64_t[]){2, 3}, ops_stack_b, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Accepted range is [ -2, 2]");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_stack_pipeline(p);
	ASSERT_OK(dalic_op_set_string(op, "axis_name", "C"));
	tl_feed(p, "a", DALIC_FLOAT, 2, 1, (int64_t[]){2, 3}, ops_stack_a, NULL);
	tl_feed(p, "b", DALIC_FLOAT, 2, 1, (int64_t[]){2, 3}, ops_stack_b, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "requires a non-empty input layout");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_stack_pipeline(p);
	ASSERT_OK(dalic_op_set_string(op, "axis_name", "CD"));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("``axis_name`` must be a single character; got CD");
	dalic_pipeline_destroy(p);
}
