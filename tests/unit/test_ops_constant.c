/* constant: data from fdata/idata, inferred dtype, shape and broadcasting of a single value,
 * saturating conversion, layout, and argument errors. */
#include "tests/testlib.h"

TestSuite(ops_constant, .timeout = 20);

static dalic_op_t *ops_constant_constant(dalic_pipeline_t *p)
{
	dalic_op_t *op = tl_op(p, "constant");
	ASSERT_OK(dalic_op_set_name(op, "k"));
	tl_output(p, op);
	return op;
}

Test(ops_constant, idata_with_shape_is_int32_in_every_sample)
{
	dalic_pipeline_t *p = tl_pipeline(3);
	dalic_op_t *op = ops_constant_constant(p);
	ASSERT_OK(dalic_op_set_ints(op, "idata", 4, (int64_t[]){1, -2, 3, 4}));
	ASSERT_OK(dalic_op_set_ints(op, "shape", 2, (int64_t[]){2, 2}));
	ASSERT_OK(dalic_op_set_string(op, "layout", "HW"));
	for (int it = 0; it < 2; it++) {
		const dalic_batch_t *out = tl_run(p, 0);
		cr_expect_eq(dalic_batch_dtype(out), DALIC_INT32);
		cr_expect_eq(dalic_batch_num_samples(out), 3);
		cr_expect_str_eq(dalic_batch_layout(out), "HW");
		for (int i = 0; i < 3; i++) {
			tl_expect_shape(out, i, 2, (int64_t[]){2, 2});
			tl_expect_values(out, i, 4, (double[]){1, -2, 3, 4});
		}
	}
	dalic_pipeline_destroy(p);
}

Test(ops_constant, fdata_defaults_to_float_and_1d)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_constant_constant(p);
	ASSERT_OK(dalic_op_set_floats(op, "fdata", 3, (double[]){0.5, -1.25, 3}));
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	tl_expect_shape(out, 0, 1, (int64_t[]){3});
	tl_expect_values(out, 0, 3, (double[]){0.5, -1.25, 3});
	dalic_pipeline_destroy(p);
}

Test(ops_constant, single_value_fills_the_shape_and_converts_saturating)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *op = ops_constant_constant(p);
	ASSERT_OK(dalic_op_set_floats(op, "fdata", 1, (double[]){300.7}));
	ASSERT_OK(dalic_op_set_ints(op, "shape", 3, (int64_t[]){2, 1, 3}));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_UINT8));
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_UINT8);
	tl_expect_shape(out, 1, 3, (int64_t[]){2, 1, 3});
	tl_expect_values(out, 1, 6, (double[]){255, 255, 255, 255, 255, 255});
	dalic_pipeline_destroy(p);

	/* an empty shape is a scalar; idata rounds nothing and clamps into INT8 */
	p = tl_pipeline(1);
	op = ops_constant_constant(p);
	ASSERT_OK(dalic_op_set_ints(op, "idata", 1, (int64_t[]){-1000}));
	ASSERT_OK(dalic_op_set_ints(op, "shape", 0, NULL));
	ASSERT_OK(dalic_op_set_string(op, "dtype", "int8"));
	out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_ndim(out), 0);
	tl_expect_values(out, 0, 1, (double[]){-128});
	dalic_pipeline_destroy(p);

	/* fdata is float32 in DALI: 0.1 as FLOAT64 is the float32 nearest to 0.1 */
	p = tl_pipeline(1);
	op = ops_constant_constant(p);
	ASSERT_OK(dalic_op_set_floats(op, "fdata", 2, (double[]){0.1, 2.5}));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_FLOAT64));
	out = tl_run(p, 0);
	tl_expect_values(out, 0, 2, (double[]){(double)0.1f, 2.5});
	dalic_pipeline_destroy(p);
}

/* Builds a constant configured by `set` and expects the build to fail naming `needle`. */
static void ops_constant_expect_build_error(void (*set)(dalic_op_t *), int code, const char *needle)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	set(ops_constant_constant(p));
	EXPECT_STATUS(dalic_pipeline_build(p), code);
	EXPECT_ERROR_HAS("'k'");
	EXPECT_ERROR_HAS(needle);
	dalic_pipeline_destroy(p);
}

static void ops_constant_both_data(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "idata", 1, (int64_t[]){1}));
	ASSERT_OK(dalic_op_set_floats(op, "fdata", 1, (double[]){1}));
}

static void ops_constant_no_data(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "shape", 1, (int64_t[]){3}));
}

static void ops_constant_wrong_count(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "idata", 2, (int64_t[]){1, 2}));
	ASSERT_OK(dalic_op_set_ints(op, "shape", 1, (int64_t[]){3}));
}

static void ops_constant_wrong_layout(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "idata", 2, (int64_t[]){1, 2}));
	ASSERT_OK(dalic_op_set_string(op, "layout", "HW"));
}

Test(ops_constant, argument_errors_name_operator_and_argument)
{
	ops_constant_expect_build_error(ops_constant_both_data, DALIC_EINVAL, "mutually exclusive");
	ops_constant_expect_build_error(ops_constant_no_data, DALIC_EINVAL, "fdata");
	ops_constant_expect_build_error(ops_constant_wrong_count, DALIC_EINVAL, "'idata'");
	ops_constant_expect_build_error(ops_constant_wrong_layout, DALIC_EINVAL, "'layout'");

	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_constant_constant(p);
	EXPECT_STATUS(dalic_op_set_ints(op, "data", 1, (int64_t[]){1}), DALIC_EUNKNOWN_ARG);
	EXPECT_ERROR_HAS("'k'");
	EXPECT_ERROR_HAS("'data'");
	EXPECT_STATUS(dalic_op_set_string(op, "shape", "(2, 2)"), DALIC_EARG_TYPE);
	EXPECT_ERROR_HAS("'shape'");
	EXPECT_STATUS(dalic_op_set_floats(op, "idata", 1, (double[]){1.5}), DALIC_EARG_TYPE);
	EXPECT_ERROR_HAS("'idata'");
	dalic_pipeline_destroy(p);
}
