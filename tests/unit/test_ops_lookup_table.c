/* lookup_table: keys to values (last duplicate wins), default for the rest and for negative
 * inputs, ConvertSat to the output type, integer inputs only, DALI's argument errors. */
#include "tests/testlib.h"

TestSuite(ops_lookup_table, .timeout = 20);

static dalic_op_t *ops_lookup_table_pipeline(dalic_pipeline_t *p)
{
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "lookup_table");
	ASSERT_OK(dalic_op_set_name(op, "lut"));
	tl_input(op, "in");
	tl_output(p, op);
	return op;
}

Test(ops_lookup_table, maps_keys_with_default)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_lookup_table_pipeline(p);
	ASSERT_OK(dalic_op_set_ints(op, "keys", 6, (int64_t[]){0, 2, 3, 4, 5, 3}));
	ASSERT_OK(dalic_op_set_floats(op, "values", 6, (double[]){0.25, 0.5, 0.75, 1, 2, 8}));
	ASSERT_OK(dalic_op_set_float(op, "default_value", -4));
	tl_feed(p, "in", DALIC_INT32, 2, 1, (int64_t[]){2, 4}, (int32_t[]){0, 1, 2, 3, 4, 5, 6, -1},
	        "AB");
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	cr_expect_str_eq(dalic_batch_layout(out), "AB");
	tl_expect_shape(out, 0, 2, (int64_t[]){2, 4});
	tl_expect_values(out, 0, 8, (double[]){0.25, -4, 0.5, 8, 1, 2, -4, -4});
	dalic_pipeline_destroy(p);
}

Test(ops_lookup_table, converts_with_rounding_and_saturation)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_lookup_table_pipeline(p);
	ASSERT_OK(dalic_op_set_ints(op, "keys", 2, (int64_t[]){0, 65535}));
	ASSERT_OK(dalic_op_set_floats(op, "values", 2, (double[]){300.7, -1.5}));
	ASSERT_OK(dalic_op_set_float(op, "default_value", 2.5));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_UINT8));
	tl_feed(p, "in", DALIC_UINT64, 1, 1, (int64_t[]){4}, (uint64_t[]){0, 65535, 1, UINT64_MAX},
	        NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_UINT8);
	tl_expect_values(out, 0, 4, (double[]){255, 0, 3, 3});
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_lookup_table_pipeline(p);
	ASSERT_OK(dalic_op_set_ints(op, "keys", 1, (int64_t[]){1}));
	ASSERT_OK(dalic_op_set_floats(op, "values", 1, (double[]){-2.5}));
	ASSERT_OK(dalic_op_set_int(op, "output_dtype", DALIC_INT16));
	tl_feed(p, "in", DALIC_INT8, 1, 1, (int64_t[]){2}, (int8_t[]){1, 0}, NULL);
	out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_INT16);
	tl_expect_values(out, 0, 2, (double[]){-3, 0});
	dalic_pipeline_destroy(p);
}

Test(ops_lookup_table, errors)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_lookup_table_pipeline(p);
	ASSERT_OK(dalic_op_set_ints(op, "keys", 2, (int64_t[]){1, 70000}));
	ASSERT_OK(dalic_op_set_floats(op, "values", 2, (double[]){1, 2}));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("'lut'");
	EXPECT_ERROR_HAS("`keys` should be in the range [0, 65535]");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_lookup_table_pipeline(p);
	ASSERT_OK(dalic_op_set_ints(op, "keys", 2, (int64_t[]){1, 2}));
	ASSERT_OK(dalic_op_set_floats(op, "values", 1, (double[]){1}));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("`keys` size should match `values` size");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_lookup_table_pipeline(p);
	tl_feed(p, "in", DALIC_FLOAT, 1, 1, (int64_t[]){1}, (float[]){1}, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Unsupported input type: float");
	dalic_pipeline_destroy(p);
}
