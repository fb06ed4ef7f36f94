/* cast_like: the first input converted to the second input's type (ConvertSat), with the
 * first input's shape and layout; the second input's shape does not matter. Hand-computed. */
#include "tests/testlib.h"

TestSuite(ops_cast_like, .timeout = 20);

static dalic_pipeline_t *ops_cast_like_pipeline(void)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "data");
	tl_source(p, "like");
	dalic_op_t *op = tl_op(p, "cast_like");
	ASSERT_OK(dalic_op_set_name(op, "cl"));
	tl_input(op, "data");
	tl_input(op, "like");
	tl_output(p, op);
	return p;
}

Test(ops_cast_like, float_to_uint8_rounds_and_saturates)
{
	dalic_pipeline_t *p = ops_cast_like_pipeline();
	const float data[] = {-1.5f, 2.5f, 300.0f, 0.49f, 254.5f, NAN};
	const uint8_t like[] = {7, 7, 7, 7, 7};
	tl_feed(p, "data", DALIC_FLOAT, 2, 1, (int64_t[]){2, 3}, data, "HW");
	tl_feed(p, "like", DALIC_UINT8, 1, 1, (int64_t[]){5}, like, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_UINT8);
	cr_expect_str_eq(dalic_batch_layout(out), "HW");
	tl_expect_shape(out, 0, 2, (int64_t[]){2, 3});
	tl_expect_values(out, 0, 6, (double[]){0, 3, 255, 0, 255, 0});
	dalic_pipeline_destroy(p);
}

Test(ops_cast_like, int_to_float16_and_bool)
{
	dalic_pipeline_t *p = ops_cast_like_pipeline();
	const int32_t data[] = {-3, 0, 2048};
	const uint16_t half_one = 0x3c00;
	tl_feed(p, "data", DALIC_INT32, 1, 1, (int64_t[]){3}, data, NULL);
	tl_feed(p, "like", DALIC_FLOAT16, 0, 1, NULL, &half_one, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT16);
	tl_expect_values(out, 0, 3, (double[]){-3, 0, 2048});
	dalic_pipeline_destroy(p);

	p = ops_cast_like_pipeline();
	const uint8_t yes = 1;
	tl_feed(p, "data", DALIC_INT32, 1, 1, (int64_t[]){3}, data, NULL);
	tl_feed(p, "like", DALIC_BOOL, 0, 1, NULL, &yes, NULL);
	out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_BOOL);
	tl_expect_values(out, 0, 3, (double[]){1, 0, 1});
	dalic_pipeline_destroy(p);
}

Test(ops_cast_like, needs_two_inputs)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "data");
	dalic_op_t *op = tl_op(p, "cast_like");
	tl_input(op, "data");
	tl_output(p, op);
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EGRAPH);
	EXPECT_ERROR_HAS("CastLike");
	EXPECT_ERROR_HAS("needs at least 2 inputs");
	dalic_pipeline_destroy(p);
}
