/* constant: data from fdata/idata, inferred dtype, shape and broadcasting of a single value,
 * saturating conversion, layout, and argument errors. */
#include "helpers.h"

TestSuite(ops_constant, .timeout = 20);

static dalic_op_t *constant(dalic_pipeline_t *p)
{
	dalic_op_t *op = th_op(p, "constant");
	dalic_op_set_name(op, "k");
	th_output(p, op);
	return op;
}

Test(ops_constant, idata_with_shape_is_int32_in_every_sample)
{
	dalic_pipeline_t *p = th_pipeline(3);
	dalic_op_t *op = constant(p);
	cr_assert_eq(dalic_op_set_ints(op, "idata", 4, (int64_t[]){1, -2, 3, 4}), DALIC_OK);
	cr_assert_eq(dalic_op_set_ints(op, "shape", 2, (int64_t[]){2, 2}), DALIC_OK);
	cr_assert_eq(dalic_op_set_string(op, "layout", "HW"), DALIC_OK);
	for (int it = 0; it < 2; it++) {
		const dalic_batch_t *out = th_run(p, 0);
		cr_expect_eq(dalic_batch_dtype(out), DALIC_INT32);
		cr_expect_eq(dalic_batch_num_samples(out), 3);
		cr_expect_str_eq(dalic_batch_layout(out), "HW");
		for (int i = 0; i < 3; i++) {
			th_expect_shape(out, i, 2, (int64_t[]){2, 2});
			th_expect_values(out, i, 4, (double[]){1, -2, 3, 4});
		}
	}
	dalic_pipeline_destroy(p);
}

Test(ops_constant, fdata_defaults_to_float_and_1d)
{
	dalic_pipeline_t *p = th_pipeline(1);
	dalic_op_t *op = constant(p);
	dalic_op_set_floats(op, "fdata", 3, (double[]){0.5, -1.25, 3});
	const dalic_batch_t *out = th_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	th_expect_shape(out, 0, 1, (int64_t[]){3});
	th_expect_values(out, 0, 3, (double[]){0.5, -1.25, 3});
	dalic_pipeline_destroy(p);
}

Test(ops_constant, single_value_fills_the_shape_and_converts_saturating)
{
	dalic_pipeline_t *p = th_pipeline(2);
	dalic_op_t *op = constant(p);
	dalic_op_set_floats(op, "fdata", 1, (double[]){300.7});
	dalic_op_set_ints(op, "shape", 3, (int64_t[]){2, 1, 3});
	dalic_op_set_int(op, "dtype", DALIC_UINT8);
	const dalic_batch_t *out = th_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_UINT8);
	th_expect_shape(out, 1, 3, (int64_t[]){2, 1, 3});
	th_expect_values(out, 1, 6, (double[]){255, 255, 255, 255, 255, 255});
	dalic_pipeline_destroy(p);

	/* an empty shape is a scalar; idata rounds nothing and clamps into INT8 */
	p = th_pipeline(1);
	op = constant(p);
	dalic_op_set_ints(op, "idata", 1, (int64_t[]){-1000});
	dalic_op_set_ints(op, "shape", 0, NULL);
	dalic_op_set_string(op, "dtype", "int8");
	out = th_run(p, 0);
	cr_expect_eq(dalic_batch_ndim(out), 0);
	th_expect_values(out, 0, 1, (double[]){-128});
	dalic_pipeline_destroy(p);

	/* fdata is float32 in DALI: 0.1 as FLOAT64 is the float32 nearest to 0.1 */
	p = th_pipeline(1);
	op = constant(p);
	dalic_op_set_floats(op, "fdata", 2, (double[]){0.1, 2.5});
	dalic_op_set_int(op, "dtype", DALIC_FLOAT64);
	out = th_run(p, 0);
	th_expect_values(out, 0, 2, (double[]){(double)0.1f, 2.5});
	dalic_pipeline_destroy(p);
}

/* Builds a constant configured by `set` and expects the build to fail naming `needle`. */
static void expect_build_error(void (*set)(dalic_op_t *), int code, const char *needle)
{
	dalic_pipeline_t *p = th_pipeline(1);
	set(constant(p));
	cr_expect_eq(dalic_pipeline_build(p), code, "%s", dalic_last_error());
	const char *msg = dalic_last_error();
	cr_expect(strstr(msg, "'k'") && strstr(msg, needle), "%s", msg);
	dalic_pipeline_destroy(p);
}

static void both_data(dalic_op_t *op)
{
	dalic_op_set_ints(op, "idata", 1, (int64_t[]){1});
	dalic_op_set_floats(op, "fdata", 1, (double[]){1});
}

static void no_data(dalic_op_t *op)
{
	dalic_op_set_ints(op, "shape", 1, (int64_t[]){3});
}

static void wrong_count(dalic_op_t *op)
{
	dalic_op_set_ints(op, "idata", 2, (int64_t[]){1, 2});
	dalic_op_set_ints(op, "shape", 1, (int64_t[]){3});
}

static void wrong_layout(dalic_op_t *op)
{
	dalic_op_set_ints(op, "idata", 2, (int64_t[]){1, 2});
	dalic_op_set_string(op, "layout", "HW");
}

Test(ops_constant, argument_errors_name_operator_and_argument)
{
	expect_build_error(both_data, DALIC_EINVAL, "mutually exclusive");
	expect_build_error(no_data, DALIC_EINVAL, "fdata");
	expect_build_error(wrong_count, DALIC_EINVAL, "'idata'");
	expect_build_error(wrong_layout, DALIC_EINVAL, "'layout'");

	dalic_pipeline_t *p = th_pipeline(1);
	dalic_op_t *op = constant(p);
	cr_expect_eq(dalic_op_set_ints(op, "data", 1, (int64_t[]){1}), DALIC_EUNKNOWN_ARG);
	cr_expect(strstr(dalic_last_error(), "'k'") && strstr(dalic_last_error(), "'data'"), "%s",
	          dalic_last_error());
	cr_expect_eq(dalic_op_set_string(op, "shape", "(2, 2)"), DALIC_EARG_TYPE);
	cr_expect(strstr(dalic_last_error(), "'shape'"), "%s", dalic_last_error());
	cr_expect_eq(dalic_op_set_floats(op, "idata", 1, (double[]){1.5}), DALIC_EARG_TYPE);
	cr_expect(strstr(dalic_last_error(), "'idata'"), "%s", dalic_last_error());
	dalic_pipeline_destroy(p);
}
