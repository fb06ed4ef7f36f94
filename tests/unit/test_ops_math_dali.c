/* nvidia.dali.math as DALI 2.4's CPU computes it: rsqrt in float is the processor's estimate
 * with one Newton step (0 gives NaN, not inf), in double 1 / sqrt; integer inputs of the
 * float functions give float32; DALI's words for boolean inputs. */
#include "tests/testlib.h"

#include <math.h>

TestSuite(ops_math_dali, .timeout = 20);

/* `expr` over external source "a": one sample of n elements of type t. */
static const dalic_batch_t *ops_math_dali_run(dalic_pipeline_t *p, const char *expr,
					      dalic_dtype_t t, int64_t n, const void *data)
{
	tl_source(p, "a");
	dalic_op_t *op = tl_op(p, "arithmetic_generic_op");
	ASSERT_OK(dalic_op_set_name(op, "math"));
	ASSERT_OK(dalic_op_set_string(op, "expression_desc", expr));
	tl_input(op, "a");
	tl_output(p, op);
	tl_feed(p, "a", t, 1, 1, &n, data, NULL);
	return tl_run(p, 0);
}

Test(ops_math_dali, rsqrt_float_is_an_estimate_refined_once)
{
	const float x[] = {0.0f, 4.0f, 0.25f, 2.0f, 1e6f, -1.0f};
	dalic_pipeline_t *p = tl_pipeline(1);
	const dalic_batch_t *out = ops_math_dali_run(p, "rsqrt(&0)", DALIC_FLOAT, 6, x);
	cr_assert_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	cr_expect(isnan(tl_at(out, 0, 0)), "rsqrt(0): y * (1.5 - 0 * inf) is NaN, got %g",
		  tl_at(out, 0, 0));
	/* one Newton step from a 12-bit estimate (rel. error <= 1.5 * 2^-12): within ~4e-7 of
	 * 1 / sqrt(x) plus rounding; 1e-6 leaves room for other processors' estimates */
	for (int k = 1; k < 5; k++) {
		double want = 1 / sqrt((double)x[k]);
		cr_expect(fabs(tl_at(out, 0, k) - want) <= 1e-6 * want, "rsqrt(%g) = %.9g, 1/sqrt %.9g",
			  (double)x[k], tl_at(out, 0, k), want);
	}
	cr_expect(isnan(tl_at(out, 0, 5)), "rsqrt(-1) is NaN");
	dalic_pipeline_destroy(p);
}

Test(ops_math_dali, rsqrt_double_and_integers)
{
	const double d[] = {0.0, 2.0};
	dalic_pipeline_t *p = tl_pipeline(1);
	const dalic_batch_t *out = ops_math_dali_run(p, "rsqrt(&0)", DALIC_FLOAT64, 2, d);
	cr_assert_eq(dalic_batch_dtype(out), DALIC_FLOAT64);
	tl_expect_values(out, 0, 2, (double[]){INFINITY, 1 / sqrt(2.0)});
	dalic_pipeline_destroy(p);
	/* an integer input is converted to float: 0 gives NaN there too */
	const int16_t i[] = {0, 16};
	p = tl_pipeline(1);
	out = ops_math_dali_run(p, "rsqrt(&0)", DALIC_INT16, 2, i);
	cr_assert_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	cr_expect(isnan(tl_at(out, 0, 0)));
	cr_expect_float_eq(tl_at(out, 0, 1), 0.25, 1e-6);
	dalic_pipeline_destroy(p);
}

Test(ops_math_dali, boolean_inputs_in_dalis_words)
{
	static const struct {
		const char *expr, *msg;
	} cases[] = {
	    {"sqrt(&0)", "Input to arithmetic operator `sqrt` cannot be a boolean. Consider using "
			 "bitwise operator `~` or an numeric type."},
	    {"minus(&0)", "Input to arithmetic operator `-` cannot be a boolean."},
	    {"div(&0 &0)", "Inputs to arithmetic operator `//` cannot be booleans."},
	    {"clamp(&0 &0 &0)", "Inputs to arithmetic operator `clamp` cannot be booleans. Consider "
				"using bitwise operators `|`, `&`, `^` or anumeric type"},
	};
	const uint8_t b[] = {1, 0};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		dalic_pipeline_t *p = tl_pipeline(1);
		tl_source(p, "a");
		dalic_op_t *op = tl_op(p, "arithmetic_generic_op");
		ASSERT_OK(dalic_op_set_string(op, "expression_desc", cases[c].expr));
		tl_input(op, "a");
		tl_output(p, op);
		tl_feed(p, "a", DALIC_BOOL, 1, 1, (int64_t[]){2}, b, NULL);
		const char *msg = tl_run_fails(p, DALIC_EOP);
		EXPECT_HAS(msg, cases[c].msg, "%s", cases[c].expr);
		dalic_pipeline_destroy(p);
	}
}
