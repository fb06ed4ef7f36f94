/* ArithmeticGenericOp: DALI's type promotion, integer and float semantics, broadcasting,
 * constants, nested expressions, and the errors for bad expressions and bad data. Expected
 * values are computed by hand. */
#include "tests/testlib.h"

TestSuite(ops_arith, .timeout = 20);

static const char *const names[] = {"a", "b", "c"};

/* Pipeline computing `expr` over external sources a, b, ... (one per input). */
static dalic_op_t *ops_arith_arith(dalic_pipeline_t *p, const char *expr, int ninputs)
{
	for (int k = 0; k < ninputs; k++)
		tl_source(p, names[k]);
	dalic_op_t *op = tl_op(p, "arithmetic_generic_op");
	ASSERT_OK(dalic_op_set_name(op, "arith"));
	ASSERT_OK(dalic_op_set_string(op, "expression_desc", expr));
	for (int k = 0; k < ninputs; k++)
		tl_input(op, names[k]);
	tl_output(p, op);
	return op;
}

/* Feeds a one-sample 1-D batch of n elements. */
static void ops_arith_feed1(dalic_pipeline_t *p, const char *name, dalic_dtype_t t, int64_t n,
                            const void *data)
{
	tl_feed(p, name, t, 1, 1, &n, data, NULL);
}

Test(ops_arith, int8_plus_uint8_promotes_to_int16)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_arith_arith(p, "add(&0 &1)", 2);
	const int8_t a[] = {-100, 100, 127, -128};
	const uint8_t b[] = {200, 200, 255, 0};
	ops_arith_feed1(p, "a", DALIC_INT8, 4, a);
	ops_arith_feed1(p, "b", DALIC_UINT8, 4, b);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_INT16);
	tl_expect_values(out, 0, 4, (double[]){100, 300, 382, -128});
	dalic_pipeline_destroy(p);
}

Test(ops_arith, promotion_table)
{
	static const struct {
		dalic_dtype_t a, b, want;
	} cases[] = {
	    {DALIC_UINT16, DALIC_INT8, DALIC_INT32},
	    {DALIC_UINT32, DALIC_INT32, DALIC_INT64},
	    {DALIC_INT32, DALIC_UINT16, DALIC_INT32},
	    {DALIC_UINT64, DALIC_INT64, DALIC_INT64},
	    {DALIC_UINT8, DALIC_UINT32, DALIC_UINT32},
	    {DALIC_BOOL, DALIC_INT8, DALIC_INT8},
	    {DALIC_INT64, DALIC_FLOAT16, DALIC_FLOAT16},
	    {DALIC_FLOAT, DALIC_FLOAT64, DALIC_FLOAT64},
	    {DALIC_UINT8, DALIC_FLOAT, DALIC_FLOAT},
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		dalic_pipeline_t *p = tl_pipeline(1);
		ops_arith_arith(p, "add(&0 &1)", 2);
		const uint64_t zero = 0; /* 8 zero bytes read as any dtype */
		ops_arith_feed1(p, "a", cases[c].a, 1, &zero);
		ops_arith_feed1(p, "b", cases[c].b, 1, &zero);
		const dalic_batch_t *out = tl_run(p, 0);
		cr_expect_eq(dalic_batch_dtype(out), cases[c].want, "%s + %s gave %s",
		             dalic_dtype_name(cases[c].a), dalic_dtype_name(cases[c].b),
		             dalic_dtype_name(dalic_batch_dtype(out)));
		dalic_pipeline_destroy(p);
	}
}

Test(ops_arith, integer_div_and_mod_truncate_toward_zero)
{
	const int32_t a[] = {7, -7, 7, -7}, b[] = {2, 2, -2, -2};
	const char *exprs[] = {"div(&0 &1)", "mod(&0 &1)"};
	const double want[2][4] = {{3, -3, -3, 3}, {1, -1, 1, -1}};
	for (int e = 0; e < 2; e++) {
		dalic_pipeline_t *p = tl_pipeline(1);
		ops_arith_arith(p, exprs[e], 2);
		ops_arith_feed1(p, "a", DALIC_INT32, 4, a);
		ops_arith_feed1(p, "b", DALIC_INT32, 4, b);
		const dalic_batch_t *out = tl_run(p, 0);
		cr_expect_eq(dalic_batch_dtype(out), DALIC_INT32);
		tl_expect_values(out, 0, 4, want[e]);
		dalic_pipeline_destroy(p);
	}
}

Test(ops_arith, fdiv_returns_float32_or_float64)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_arith_arith(p, "fdiv(&0 &1)", 2);
	const int32_t a[] = {7, 1}, b[] = {2, 4};
	ops_arith_feed1(p, "a", DALIC_INT32, 2, a);
	ops_arith_feed1(p, "b", DALIC_INT32, 2, b);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	tl_expect_values(out, 0, 2, (double[]){3.5, 0.25});
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_arith_arith(p, "fdiv(&0 &1)", 2);
	const double d[] = {3, 8};
	ops_arith_feed1(p, "a", DALIC_INT32, 2, a);
	ops_arith_feed1(p, "b", DALIC_FLOAT64, 2, d);
	out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT64);
	tl_expect_values(out, 0, 2, (double[]){7.0 / 3.0, 0.125});
	dalic_pipeline_destroy(p);
}

Test(ops_arith, broadcasting_per_sample)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	ops_arith_arith(p, "add(&0 &1)", 2);
	/* sample 0: (2,3) + (1,3); sample 1: (1,2) + (4,1) -> (4,2) */
	const float a[] = {1, 2, 3, 4, 5, 6, 1, 2};
	const float b[] = {10, 20, 30, 10, 20, 30, 40};
	tl_feed(p, "a", DALIC_FLOAT, 2, 2, (int64_t[]){2, 3, 1, 2}, a, NULL);
	tl_feed(p, "b", DALIC_FLOAT, 2, 2, (int64_t[]){1, 3, 4, 1}, b, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 2, (int64_t[]){2, 3});
	tl_expect_values(out, 0, 6, (double[]){11, 22, 33, 14, 25, 36});
	tl_expect_shape(out, 1, 2, (int64_t[]){4, 2});
	tl_expect_values(out, 1, 8, (double[]){11, 12, 21, 22, 31, 32, 41, 42});
	dalic_pipeline_destroy(p);
}

Test(ops_arith, broadcasting_pads_leading_dims_across_tiles)
{
	/* (50, 70) + (70,): more elements than one evaluation tile */
	enum { H = 50, W = 70 };
	static int32_t a[H * W];
	static int16_t b[W];
	for (int i = 0; i < H * W; i++)
		a[i] = i * 3;
	for (int j = 0; j < W; j++)
		b[j] = (int16_t)(-j);
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_arith_arith(p, "sub(&0 &1)", 2);
	tl_feed(p, "a", DALIC_INT32, 2, 1, (int64_t[]){H, W}, a, NULL);
	tl_feed(p, "b", DALIC_INT16, 1, 1, (int64_t[]){W}, b, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 2, (int64_t[]){H, W});
	const int32_t *o = dalic_batch_data(out, 0);
	for (int i = 0; i < H; i++)
		for (int j = 0; j < W; j++)
			cr_assert_eq(o[i * W + j], (i * W + j) * 3 + j, "at (%d, %d)", i, j);
	dalic_pipeline_destroy(p);
}

Test(ops_arith, incompatible_shapes_fail_naming_the_sample)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	ops_arith_arith(p, "add(&0 &1)", 2);
	const float a[8] = {0}, b[5] = {0};
	tl_feed(p, "a", DALIC_FLOAT, 1, 2, (int64_t[]){3, 5}, a, NULL);
	tl_feed(p, "b", DALIC_FLOAT, 1, 2, (int64_t[]){3, 2}, b, NULL);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'arith'");
	EXPECT_HAS(msg, "sample 1");
	EXPECT_HAS(msg, "broadcast");
	dalic_pipeline_destroy(p);
}

Test(ops_arith, scalar_constants_take_their_declared_type)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_arith_arith(p, "add(&0 $0:int32)", 1);
	ASSERT_OK(dalic_op_set_ints(op, "integer_constants", 1, (int64_t[]){10}));
	const uint8_t a[] = {250, 5};
	ops_arith_feed1(p, "a", DALIC_UINT8, 2, a);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_INT32);
	tl_expect_values(out, 0, 2, (double[]){260, 15});
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_arith_arith(p, "mul(&0 $0:float32)", 1);
	ASSERT_OK(dalic_op_set_floats(op, "real_constants", 1, (double[]){0.5}));
	const int16_t s[] = {3, -4};
	ops_arith_feed1(p, "a", DALIC_INT16, 2, s);
	out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	tl_expect_values(out, 0, 2, (double[]){1.5, -2});
	dalic_pipeline_destroy(p);

	/* $1 is the second integer constant; 300 wraps to 44 as a uint8, like a static_cast */
	p = tl_pipeline(1);
	op = ops_arith_arith(p, "add(&0 $1:uint8)", 1);
	ASSERT_OK(dalic_op_set_ints(op, "integer_constants", 2, (int64_t[]){0, 300}));
	const uint8_t one = 1;
	ops_arith_feed1(p, "a", DALIC_UINT8, 1, &one);
	out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_UINT8);
	tl_expect_values(out, 0, 1, (double[]){45});
	dalic_pipeline_destroy(p);
}

Test(ops_arith, nested_expression)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_arith_arith(p, "add(mul(&0 &1) $0:int32)", 2);
	ASSERT_OK(dalic_op_set_ints(op, "integer_constants", 1, (int64_t[]){1}));
	const int32_t a[] = {2, 3}, b[] = {4, -5};
	ops_arith_feed1(p, "a", DALIC_INT32, 2, a);
	ops_arith_feed1(p, "b", DALIC_INT32, 2, b);
	tl_expect_values(tl_run(p, 0), 0, 2, (double[]){9, -14});
	dalic_pipeline_destroy(p);
}

Test(ops_arith, integer_arithmetic_wraps_in_the_result_type)
{
	const uint8_t a[] = {200, 1}, b[] = {100, 2};
	static const struct {
		const char *expr;
		double want[2];
	} cases[] = {
	    {"add(&0 &1)", {44, 3}},
	    {"sub(&0 &1)", {100, 255}},
	    {"mul(&0 &1)", {32, 2}},
	    {"minus(&0)", {56, 255}},
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		dalic_pipeline_t *p = tl_pipeline(1);
		ops_arith_arith(p, cases[c].expr, strstr(cases[c].expr, "&1") ? 2 : 1);
		ops_arith_feed1(p, "a", DALIC_UINT8, 2, a);
		if (strstr(cases[c].expr, "&1"))
			ops_arith_feed1(p, "b", DALIC_UINT8, 2, b);
		const dalic_batch_t *out = tl_run(p, 0);
		cr_expect_eq(dalic_batch_dtype(out), DALIC_UINT8, "%s", cases[c].expr);
		tl_expect_values(out, 0, 2, cases[c].want);
		dalic_pipeline_destroy(p);
	}
}

Test(ops_arith, comparisons_give_bool_and_are_exact)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_arith_arith(p, "lt(&0 &1)", 2);
	const int32_t a[] = {1, 5, -1};
	const float b[] = {1.5f, 5, -2};
	ops_arith_feed1(p, "a", DALIC_INT32, 3, a);
	ops_arith_feed1(p, "b", DALIC_FLOAT, 3, b);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_BOOL);
	tl_expect_values(out, 0, 3, (double[]){1, 0, 0});
	dalic_pipeline_destroy(p);

	/* -1 is never equal to (or above) a uint64, even UINT64_MAX with the same bits */
	const int64_t s[] = {-1, -1, 5};
	const uint64_t u[] = {UINT64_MAX, 1, 5};
	const char *exprs[] = {"eq(&0 &1)", "lt(&0 &1)", "geq(&1 &0)"};
	const double want[3][3] = {{0, 0, 1}, {1, 1, 0}, {1, 1, 1}};
	for (int e = 0; e < 3; e++) {
		p = tl_pipeline(1);
		ops_arith_arith(p, exprs[e], 2);
		ops_arith_feed1(p, "a", DALIC_INT64, 3, s);
		ops_arith_feed1(p, "b", DALIC_UINT64, 3, u);
		tl_expect_values(tl_run(p, 0), 0, 3, want[e]);
		dalic_pipeline_destroy(p);
	}
}

Test(ops_arith, bitwise_on_integers_and_bools)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_arith_arith(p, "bitand(&0 &1)", 2);
	const uint8_t a[] = {0xF0, 0xFF}, b[] = {0x3C, 0x0F};
	ops_arith_feed1(p, "a", DALIC_UINT8, 2, a);
	ops_arith_feed1(p, "b", DALIC_UINT8, 2, b);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_UINT8);
	tl_expect_values(out, 0, 2, (double[]){0x30, 0x0F});
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_arith_arith(p, "bitxor(&0 &1)", 2);
	const uint8_t x[] = {1, 0, 1}, y[] = {1, 1, 0};
	ops_arith_feed1(p, "a", DALIC_BOOL, 3, x);
	ops_arith_feed1(p, "b", DALIC_BOOL, 3, y);
	out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_BOOL);
	tl_expect_values(out, 0, 3, (double[]){0, 1, 1});
	dalic_pipeline_destroy(p);
}

Test(ops_arith, bitwise_on_float_is_an_error)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_arith_arith(p, "bitand(&0 &1)", 2);
	const float a = 1;
	const int32_t b = 1;
	ops_arith_feed1(p, "a", DALIC_FLOAT, 1, &a);
	ops_arith_feed1(p, "b", DALIC_INT32, 1, &b);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'arith'");
	EXPECT_HAS(msg, "ArithmeticGenericOp");
	EXPECT_HAS(msg, "Inputs to bitwise operator `&` must be of integral type. (FLOAT, INT32)");
	dalic_pipeline_destroy(p);
}

Test(ops_arith, arithmetic_on_booleans_is_an_error_except_mul)
{
	const uint8_t a[] = {1, 1}, b[] = {1, 0};
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_arith_arith(p, "mul(&0 &1)", 2);
	ops_arith_feed1(p, "a", DALIC_BOOL, 2, a);
	ops_arith_feed1(p, "b", DALIC_BOOL, 2, b);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_BOOL);
	tl_expect_values(out, 0, 2, (double[]){1, 0});
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_arith_arith(p, "add(&0 &1)", 2);
	ops_arith_feed1(p, "a", DALIC_BOOL, 2, a);
	ops_arith_feed1(p, "b", DALIC_BOOL, 2, b);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "Inputs to arithmetic operator `+` cannot be booleans.");
	dalic_pipeline_destroy(p);
}

Test(ops_arith, math_functions)
{
	static const struct {
		const char *expr;
		dalic_dtype_t in, out;
		double a[3], b[3], want[3];
	} cases[] = {
	    {"sqrt(&0)", DALIC_INT32, DALIC_FLOAT, {4, 9, 0}, {0}, {2, 3, 0}},
	    {"abs(&0)", DALIC_INT8, DALIC_INT8, {-5, -128, 7}, {0}, {5, -128, 7}},
	    {"floor(&0)", DALIC_FLOAT, DALIC_FLOAT, {-1.5, 2.5, 3}, {0}, {-2, 2, 3}},
	    {"ceil(&0)", DALIC_INT16, DALIC_FLOAT, {-1, 2, 3}, {0}, {-1, 2, 3}},
	    {"pow(&0 &1)", DALIC_INT32, DALIC_INT32, {2, 2, 3}, {10, -1, 0}, {1024, 0, 1}},
	    {"fpow(&0 &1)", DALIC_INT32, DALIC_FLOAT, {2, 4, 9}, {10, -1, 0}, {1024, 0.25, 1}},
	    {"mod(&0 &1)", DALIC_FLOAT, DALIC_FLOAT, {5.5, 7, -7}, {2, 2, 2}, {-0.5, -1, 1}},
	    {"min(&0 &1)", DALIC_INT32, DALIC_INT32, {1, -4, 9}, {2, -8, 9}, {1, -8, 9}},
	    {"max(&0 &1)", DALIC_FLOAT64, DALIC_FLOAT64, {1, -4, 0.5}, {2, -8, 0.25}, {2, -4, 0.5}},
	    {"atan2(&0 &1)", DALIC_INT32, DALIC_FLOAT, {0, 1, 0}, {1, 0, -1}, {0, 0, 0}},
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		bool binary = strstr(cases[c].expr, "&1") != NULL;
		dalic_pipeline_t *p = tl_pipeline(1);
		ops_arith_arith(p, cases[c].expr, binary ? 2 : 1);
		uint8_t a[3 * 8], b[3 * 8];
		for (int k = 0; k < 3; k++) {
			switch (cases[c].in) { /* pack the doubles as the input dtype */
			case DALIC_INT8:
				((int8_t *)a)[k] = (int8_t)cases[c].a[k];
				break;
			case DALIC_INT16:
				((int16_t *)a)[k] = (int16_t)cases[c].a[k];
				break;
			case DALIC_INT32:
				((int32_t *)a)[k] = (int32_t)cases[c].a[k];
				((int32_t *)b)[k] = (int32_t)cases[c].b[k];
				break;
			case DALIC_FLOAT:
				((float *)a)[k] = (float)cases[c].a[k];
				((float *)b)[k] = (float)cases[c].b[k];
				break;
			default:
				((double *)a)[k] = cases[c].a[k];
				((double *)b)[k] = cases[c].b[k];
				break;
			}
		}
		ops_arith_feed1(p, "a", cases[c].in, 3, a);
		if (binary)
			ops_arith_feed1(p, "b", cases[c].in, 3, b);
		const dalic_batch_t *out = tl_run(p, 0);
		cr_expect_eq(dalic_batch_dtype(out), cases[c].out, "%s", cases[c].expr);
		double want[3] = {cases[c].want[0], cases[c].want[1], cases[c].want[2]};
		if (!strcmp(cases[c].expr, "atan2(&0 &1)")) {
			want[1] = (float)(M_PI / 2);
			want[2] = (float)M_PI;
		}
		tl_expect_values(out, 0, 3, want);
		dalic_pipeline_destroy(p);
	}
}

Test(ops_arith, clamp_with_constants)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_arith_arith(p, "clamp(&0 $0:int32 $1:int32)", 1);
	ASSERT_OK(dalic_op_set_ints(op, "integer_constants", 2, (int64_t[]){0, 10}));
	const int16_t a[] = {-5, 5, 50};
	ops_arith_feed1(p, "a", DALIC_INT16, 3, a);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_INT32);
	tl_expect_values(out, 0, 3, (double[]){0, 5, 10});
	dalic_pipeline_destroy(p);
}

Test(ops_arith, float16_results_round_to_half)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_arith_arith(p, "add(&0 &1)", 2);
	const uint16_t h[] = {0x3E00, 0x3C00}; /* 1.5, 1.0 */
	const int32_t i[] = {2, 2048};
	ops_arith_feed1(p, "a", DALIC_FLOAT16, 2, h);
	ops_arith_feed1(p, "b", DALIC_INT32, 2, i);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT16);
	/* 2049 is not representable in half: it rounds to 2050, ties away from zero as DALI's
	 * float16 conversion on the host (not IEEE's ties to even) */
	tl_expect_values(out, 0, 2, (double[]){3.5, 2050});
	dalic_pipeline_destroy(p);
}

Test(ops_arith, integer_division_by_zero_fails_naming_the_sample)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	ops_arith_arith(p, "div(&0 &1)", 2);
	const int32_t a[] = {4, 1}, b[] = {2, 0};
	const int64_t shapes[] = {1, 1};
	tl_feed(p, "a", DALIC_INT32, 1, 2, shapes, a, NULL);
	tl_feed(p, "b", DALIC_INT32, 1, 2, shapes, b, NULL);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'arith'");
	EXPECT_HAS(msg, "sample 1");
	EXPECT_HAS(msg, "division by zero");
	dalic_pipeline_destroy(p);
}

Test(ops_arith, layouts_must_agree_and_survive)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_arith_arith(p, "mul(&0 &1)", 2);
	const float img[6] = {1, 2, 3, 4, 5, 6}, scale[3] = {1, 10, 100};
	tl_feed(p, "a", DALIC_FLOAT, 3, 1, (int64_t[]){1, 2, 3}, img, "HWC");
	tl_feed(p, "b", DALIC_FLOAT, 1, 1, (int64_t[]){3}, scale, "C");
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_str_eq(dalic_batch_layout(out), "HWC");
	tl_expect_values(out, 0, 6, (double[]){1, 20, 300, 4, 50, 600});
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_arith_arith(p, "add(&0 &1)", 2);
	tl_feed(p, "a", DALIC_FLOAT, 3, 1, (int64_t[]){1, 1, 3}, img, "HWC");
	tl_feed(p, "b", DALIC_FLOAT, 3, 1, (int64_t[]){1, 1, 3}, scale, "CHW");
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "layouts");
	EXPECT_HAS(msg, "HWC");
	EXPECT_HAS(msg, "CHW");
	dalic_pipeline_destroy(p);
}

/* A malformed expression fails when the pipeline is built, naming op and argument. */
static void ops_arith_expect_bad_expression(const char *expr, int ninputs, const char *needle)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_arith_arith(p, expr, ninputs);
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EINVAL, "%s", expr);
	EXPECT_ERROR_HAS("'arith'", "%s", expr);
	EXPECT_ERROR_HAS("expression_desc", "%s", expr);
	EXPECT_ERROR_HAS(needle, "%s", expr);
	dalic_pipeline_destroy(p);
}

Test(ops_arith, malformed_expressions_are_rejected)
{
	ops_arith_expect_bad_expression("add(&0", 1, "expected");
	ops_arith_expect_bad_expression("frobnicate(&0)", 1, "unknown operation");
	ops_arith_expect_bad_expression("add(&0)", 1, "takes 2 operands");
	ops_arith_expect_bad_expression("add(&0 $0:int3)", 1, "unknown constant type");
	ops_arith_expect_bad_expression("add(&0 &0) junk", 1, "unexpected text");
}

Test(ops_arith, constant_without_a_value_is_rejected)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_arith_arith(p, "add(&0 $1:int32)", 1);
	ASSERT_OK(dalic_op_set_ints(op, "integer_constants", 1, (int64_t[]){5}));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EINVAL);
	EXPECT_ERROR_HAS("'arith'");
	EXPECT_ERROR_HAS("integer_constants");
	dalic_pipeline_destroy(p);
}

Test(ops_arith, argument_errors_name_operator_and_argument)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "a");
	dalic_op_t *op = tl_op(p, "arithmetic_generic_op");
	ASSERT_OK(dalic_op_set_name(op, "arith"));
	tl_input(op, "a");
	tl_output(p, op);
	EXPECT_STATUS(dalic_op_set_string(op, "expresion_desc", "add(&0 &0)"), DALIC_EUNKNOWN_ARG);
	EXPECT_ERROR_HAS("arith");
	EXPECT_ERROR_HAS("expresion_desc");
	EXPECT_STATUS(dalic_op_set_int(op, "expression_desc", 3), DALIC_EARG_TYPE);
	EXPECT_ERROR_HAS("expression_desc");
	EXPECT_STATUS(dalic_op_set_string(op, "integer_constants", "x"), DALIC_EARG_TYPE);
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EMISSING_ARG);
	EXPECT_ERROR_HAS("arith");
	EXPECT_ERROR_HAS("expression_desc");
	dalic_pipeline_destroy(p);
}

Test(ops_arith, samples_on_worker_threads_use_their_own_scratch)
{
	enum { B = 8, N = 5000 };
	dalic_pipeline_t *p = tl_pipeline(B);
	dalic_op_t *op = ops_arith_arith(p, "mul(sub(&0 $0:int32) &1)", 2);
	ASSERT_OK(dalic_op_set_ints(op, "integer_constants", 1, (int64_t[]){1}));
	static int32_t a[B * N], b[B * N];
	int64_t shapes[B];
	for (int i = 0; i < B; i++) {
		shapes[i] = N;
		for (int k = 0; k < N; k++) {
			a[i * N + k] = k + i;
			b[i * N + k] = i - 3;
		}
	}
	for (int it = 0; it < 3; it++) {
		tl_feed(p, "a", DALIC_INT32, 1, B, shapes, a, NULL);
		tl_feed(p, "b", DALIC_INT32, 1, B, shapes, b, NULL);
		const dalic_batch_t *out = tl_run(p, 0);
		for (int i = 0; i < B; i++) {
			const int32_t *o = dalic_batch_data(out, i);
			for (int k = 0; k < N; k++)
				cr_assert_eq(o[k], (k + i - 1) * (i - 3), "sample %d element %d", i,
				             k);
		}
	}
	dalic_pipeline_destroy(p);
}
