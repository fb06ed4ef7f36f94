/* element_extract: one output per index of element_map, each the frame of every sequence;
 * layouts lose the F; DALI's errors for bad indices and non-sequences. Hand-computed. */
#include "tests/testlib.h"

TestSuite(ops_element_extract, .timeout = 20);

static dalic_op_t *ops_element_extract_pipeline(dalic_pipeline_t *p, int n, const int64_t *map)
{
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "element_extract");
	ASSERT_OK(dalic_op_set_name(op, "ee"));
	ASSERT_OK(dalic_op_set_ints(op, "element_map", n, map));
	tl_input(op, "in");
	for (int k = 0; k < dalic_op_num_outputs(op); k++)
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, k), NULL));
	return op;
}

Test(ops_element_extract, frames_to_outputs)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *op = ops_element_extract_pipeline(p, 3, (int64_t[]){2, 0, 2});
	cr_assert_eq(dalic_op_num_outputs(op), 3);
	/* sample 0: 3 frames of 2 values; sample 1: 4 frames of 1 */
	const int32_t in[] = {0, 1, 10, 11, 20, 21, 5, 6, 7, 8};
	tl_feed(p, "in", DALIC_INT32, 2, 2, (int64_t[]){3, 2, 4, 1}, in, "FC");
	const dalic_batch_t *a = tl_run(p, 0);
	const dalic_batch_t *b = dalic_pipeline_output(p, 1), *c = dalic_pipeline_output(p, 2);
	cr_expect_str_eq(dalic_batch_layout(a), "C");
	tl_expect_shape(a, 0, 1, (int64_t[]){2});
	tl_expect_values(a, 0, 2, (double[]){20, 21});
	tl_expect_values(a, 1, 1, (double[]){7});
	tl_expect_values(b, 0, 2, (double[]){0, 1});
	tl_expect_values(b, 1, 1, (double[]){5});
	tl_expect_values(c, 0, 2, (double[]){20, 21});
	dalic_pipeline_destroy(p);
}

Test(ops_element_extract, errors)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	ops_element_extract_pipeline(p, 1, (int64_t[]){2});
	const int32_t in[] = {0, 1, 2, 3, 4, 5, 6, 7};
	/* sample 1 has 2 frames */
	tl_feed(p, "in", DALIC_INT32, 2, 2, (int64_t[]){3, 2, 2, 1}, in, "FC");
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'ee'");
	EXPECT_HAS(msg, "sample 1");
	EXPECT_HAS(msg, "Index `2` from `element_map` is out of bounds for sample with sequence "
	                "length equal `2`");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_element_extract_pipeline(p, 1, (int64_t[]){0});
	tl_feed(p, "in", DALIC_INT32, 2, 1, (int64_t[]){2, 2}, in, "HW");
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Input layout must describe a sequence");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_element_extract_pipeline(p, 1, (int64_t[]){0});
	tl_feed(p, "in", DALIC_INT32, 1, 1, (int64_t[]){4}, in, "F");
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Input must have at least two dimensions");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_element_extract_pipeline(p, 2, (int64_t[]){0, -1});
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("Negative indices in `element_map` are not allowed, found: -1");
	dalic_pipeline_destroy(p);
}
