/* cast: DALI's ConvertSat — round half away from zero, saturate, bool is "nonzero", shape and
 * layout pass through. Expected values are computed by hand. */
#include "tests/testlib.h"

TestSuite(ops_cast, .timeout = 20);

/* Casts one 1-D sample of n elements from `from` to `to` and returns the pipeline (run). */
static dalic_pipeline_t *ops_cast_cast1(dalic_dtype_t from, dalic_dtype_t to, int64_t n,
                                        const void *data, const dalic_batch_t **out)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "cast");
	ASSERT_OK(dalic_op_set_int(op, "dtype", to));
	tl_input(op, "in");
	tl_output(p, op);
	tl_feed(p, "in", from, 1, 1, &n, data, NULL);
	*out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(*out), to);
	return p;
}

Test(ops_cast, float_to_int_rounds_half_away_from_zero_and_saturates)
{
	const float f[] = {2.5f, -2.5f, 0.4f, -0.6f, 1e10f, -1e10f, NAN};
	const dalic_batch_t *out;
	dalic_pipeline_t *p = ops_cast_cast1(DALIC_FLOAT, DALIC_INT32, 7, f, &out);
	/* NaN: x86's "integer indefinite", as DALI 2.4 gives it */
	tl_expect_values(out, 0, 7, (double[]){3, -3, 0, -1, INT32_MAX, INT32_MIN, INT32_MIN});
	dalic_pipeline_destroy(p);

	const double d[] = {300.0, -5.0, 254.5, 0.49};
	p = ops_cast_cast1(DALIC_FLOAT64, DALIC_UINT8, 4, d, &out);
	tl_expect_values(out, 0, 4, (double[]){255, 0, 255, 0});
	dalic_pipeline_destroy(p);

	const float big[] = {1e30f, -1e30f, 4.0f};
	p = ops_cast_cast1(DALIC_FLOAT, DALIC_UINT64, 3, big, &out);
	const uint64_t *u = dalic_batch_data(out, 0);
	cr_expect_eq(u[0], UINT64_MAX);
	cr_expect_eq(u[1], 0);
	cr_expect_eq(u[2], 4);
	dalic_pipeline_destroy(p);
}

Test(ops_cast, integer_narrowing_saturates)
{
	const int32_t i[] = {1000, -1000, 5};
	const dalic_batch_t *out;
	dalic_pipeline_t *p = ops_cast_cast1(DALIC_INT32, DALIC_INT8, 3, i, &out);
	tl_expect_values(out, 0, 3, (double[]){127, -128, 5});
	dalic_pipeline_destroy(p);

	const int32_t j[] = {-1, 70000, 3};
	p = ops_cast_cast1(DALIC_INT32, DALIC_UINT16, 3, j, &out);
	tl_expect_values(out, 0, 3, (double[]){0, 65535, 3});
	dalic_pipeline_destroy(p);

	/* 64-bit: exact, no detour through double */
	const uint64_t big[] = {UINT64_MAX, 5, (1ull << 63) + 1};
	p = ops_cast_cast1(DALIC_UINT64, DALIC_INT64, 3, big, &out);
	const int64_t *s = dalic_batch_data(out, 0);
	cr_expect_eq(s[0], INT64_MAX);
	cr_expect_eq(s[1], 5);
	cr_expect_eq(s[2], INT64_MAX);
	dalic_pipeline_destroy(p);

	const int64_t wide[] = {-7, 1ll << 40, 9, INT64_MAX - 1};
	p = ops_cast_cast1(DALIC_INT64, DALIC_UINT32, 4, wide, &out);
	tl_expect_values(out, 0, 4, (double[]){0, UINT32_MAX, 9, UINT32_MAX});
	dalic_pipeline_destroy(p);

	const int64_t exact[] = {INT64_MAX - 1};
	p = ops_cast_cast1(DALIC_INT64, DALIC_UINT64, 1, exact, &out);
	cr_expect_eq(*(const uint64_t *)dalic_batch_data(out, 0), (uint64_t)INT64_MAX - 1);
	dalic_pipeline_destroy(p);
}

Test(ops_cast, to_bool_is_nonzero_after_rounding)
{
	const float f[] = {0.0f, 0.4f, 0.6f, -3.0f};
	const dalic_batch_t *out;
	dalic_pipeline_t *p = ops_cast_cast1(DALIC_FLOAT, DALIC_BOOL, 4, f, &out);
	tl_expect_values(out, 0, 4, (double[]){0, 0, 1, 1});
	dalic_pipeline_destroy(p);

	const int32_t i[] = {0, -2, 256};
	p = ops_cast_cast1(DALIC_INT32, DALIC_BOOL, 3, i, &out);
	tl_expect_values(out, 0, 3, (double[]){0, 1, 1});
	dalic_pipeline_destroy(p);
}

Test(ops_cast, to_and_from_float16)
{
	const int32_t i[] = {1, 2049, 70000, -3};
	const dalic_batch_t *out;
	dalic_pipeline_t *p = ops_cast_cast1(DALIC_INT32, DALIC_FLOAT16, 4, i, &out);
	/* 2049 is a tie: away from zero to 2050, as DALI 2.4 (not IEEE's even 2048); 70000 is
	 * above the largest half (65504) */
	tl_expect_values(out, 0, 4, (double[]){1, 2050, INFINITY, -3});
	dalic_pipeline_destroy(p);

	const uint16_t h[] = {0x3E00, 0xC100, 0x7BFF}; /* 1.5, -2.5, 65504 */
	p = ops_cast_cast1(DALIC_FLOAT16, DALIC_INT16, 3, h, &out);
	tl_expect_values(out, 0, 3, (double[]){2, -3, 32767});
	dalic_pipeline_destroy(p);
}

Test(ops_cast, shape_and_layout_pass_through)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "cast");
	ASSERT_OK(dalic_op_set_string(op, "dtype", "float32"));
	tl_input(op, "in");
	tl_output(p, op);
	const uint8_t data[] = {1, 2, 3, 4, 5, 6, 7, 8};
	tl_feed(p, "in", DALIC_UINT8, 2, 2, (int64_t[]){2, 3, 1, 2}, data, "HW");
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	cr_expect_str_eq(dalic_batch_layout(out), "HW");
	tl_expect_shape(out, 0, 2, (int64_t[]){2, 3});
	tl_expect_shape(out, 1, 2, (int64_t[]){1, 2});
	tl_expect_values(out, 0, 6, (double[]){1, 2, 3, 4, 5, 6});
	tl_expect_values(out, 1, 2, (double[]){7, 8});
	dalic_pipeline_destroy(p);
}

Test(ops_cast, long_samples_and_same_type)
{
	enum { N = 3000 }; /* more than one conversion chunk */
	static int16_t data[N];
	for (int k = 0; k < N; k++)
		data[k] = (int16_t)(k * 37 - 50000 / 2);
	const dalic_batch_t *out;
	dalic_pipeline_t *p = ops_cast_cast1(DALIC_INT16, DALIC_INT8, N, data, &out);
	const int8_t *o = dalic_batch_data(out, 0);
	for (int k = 0; k < N; k++) {
		int want = data[k] < -128 ? -128 : data[k] > 127 ? 127 : data[k];
		cr_assert_eq(o[k], want, "element %d", k);
	}
	dalic_pipeline_destroy(p);

	p = ops_cast_cast1(DALIC_INT16, DALIC_INT16, N, data, &out);
	cr_expect_eq(memcmp(dalic_batch_data(out, 0), data, sizeof data), 0);
	dalic_pipeline_destroy(p);
}

Test(ops_cast, dtype_errors_name_operator_and_argument)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "cast");
	ASSERT_OK(dalic_op_set_name(op, "to_int"));
	tl_input(op, "in");
	tl_output(p, op);
	EXPECT_STATUS(dalic_op_set_string(op, "dtype", "notatype"), DALIC_EARG_TYPE);
	EXPECT_ERROR_HAS("dtype");
	EXPECT_ERROR_HAS("notatype");
	EXPECT_STATUS(dalic_op_set_float(op, "dtype", 2.5), DALIC_EARG_TYPE);
	EXPECT_STATUS(dalic_op_set_int(op, "dtyp", DALIC_INT8), DALIC_EUNKNOWN_ARG);
	EXPECT_ERROR_HAS("to_int");
	EXPECT_ERROR_HAS("dtyp");
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EMISSING_ARG);
	EXPECT_ERROR_HAS("to_int");
	EXPECT_ERROR_HAS("'dtype'");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	tl_source(p, "in");
	op = tl_op(p, "cast");
	ASSERT_OK(dalic_op_set_name(op, "to_string"));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_STRING));
	tl_input(op, "in");
	tl_output(p, op);
	const int64_t n = 1;
	const float f = 1;
	tl_feed(p, "in", DALIC_FLOAT, 1, 1, &n, &f, NULL);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "to_string");
	EXPECT_HAS(msg, "dtype");
	EXPECT_HAS(msg, "STRING");
	dalic_pipeline_destroy(p);
}
