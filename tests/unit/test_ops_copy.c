/* copy: a deep copy with the input's dtype, shape, layout and values; the output does not
 * alias the input. Expected values are written out by hand. */
#include "tests/testlib.h"

TestSuite(ops_copy, .timeout = 20);

Test(ops_copy, copies_every_sample)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "copy");
	tl_input(op, "in");
	tl_output(p, op);
	ASSERT_OK(dalic_pipeline_add_output(p, "in", NULL));
	const int16_t in[] = {1, -2, 3, -4, 5, 6, 7, 8};
	/* sample 0: (2, 3); sample 1: (1, 2) */
	tl_feed(p, "in", DALIC_INT16, 2, 2, (int64_t[]){2, 3, 1, 2}, in, "AB");
	const dalic_batch_t *out = tl_run(p, 0), *src = dalic_pipeline_output(p, 1);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_INT16);
	cr_expect_str_eq(dalic_batch_layout(out), "AB");
	tl_expect_shape(out, 0, 2, (int64_t[]){2, 3});
	tl_expect_values(out, 0, 6, (double[]){1, -2, 3, -4, 5, 6});
	tl_expect_shape(out, 1, 2, (int64_t[]){1, 2});
	tl_expect_values(out, 1, 2, (double[]){7, 8});
	cr_expect_neq(dalic_batch_data(out, 0), dalic_batch_data(src, 0), "the copy aliases");
	dalic_pipeline_destroy(p);
}

Test(ops_copy, empty_and_scalar_samples)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "copy");
	tl_input(op, "in");
	tl_output(p, op);
	const float in[] = {2.5f};
	tl_feed(p, "in", DALIC_FLOAT, 1, 2, (int64_t[]){0, 1}, in, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 1, (int64_t[]){0});
	tl_expect_shape(out, 1, 1, (int64_t[]){1});
	tl_expect_values(out, 1, 1, (double[]){2.5});
	dalic_pipeline_destroy(p);
}
