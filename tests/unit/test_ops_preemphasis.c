/* preemphasis_filter: y[t] = x[t] - c x[t-1] on a known sequence with each border, per-sample
 * coefficients, integer output rounded and saturated, and the unknown-border error. */
#include "tests/testlib/oneop.h"

TestSuite(ops_preemphasis, .timeout = 20);

Test(ops_preemphasis, borders)
{
	const float x[4] = {1, 2, 4, 8};
	/* y = [x0 - 0.5 border, 2 - 0.5, 4 - 1, 8 - 2] */
	struct {
		const char *border;
		double y0;
	} cases[] = {{"clamp", 0.5}, {"zero", 1}, {"reflect", 0}};
	for (int c = 0; c < 3; c++) {
		tl_oneop_t t = tl_oneop("preemphasis_filter", 1, 1, NULL);
		ASSERT_OK(dalic_op_set_float(t.op, "preemph_coeff", 0.5));
		ASSERT_OK(dalic_op_set_string(t.op, "border", cases[c].border));
		tl_oneop_feed_f32(&t, "in", 1, 1, (int64_t[]){4}, x, "t");
		const dalic_batch_t *out = tl_run(t.p, 0);
		tl_expect_values(out, 0, 4, (double[]){cases[c].y0, 1.5, 3, 6});
		cr_expect_str_eq(dalic_batch_layout(out), "t");
		dalic_pipeline_destroy(t.p);
	}
}

Test(ops_preemphasis, per_sample_coefficients_and_int16_output)
{
	tl_oneop_t t = tl_oneop("preemphasis_filter", 2, 1, (const char *[]){"preemph_coeff", NULL});
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_INT16));
	tl_feed(t.p, "in", DALIC_INT16, 1, 2, (int64_t[]){3, 3},
	        (int16_t[]){100, 50, -32768, 100, 3000, 30000}, NULL);
	tl_oneop_feed_scalars(&t, "preemph_coeff", 2, (float[]){0.97f, -1});
	const dalic_batch_t *out = tl_run(t.p, 0);
	/* 100 - 97 = 3, 50 - 97 = -47, -32768 - 48.5 saturates */
	tl_expect_values(out, 0, 3, (double[]){3, -47, -32768});
	/* coefficient -1: 100 + 100, 3000 + 100, 30000 + 3000 saturates */
	tl_expect_values(out, 1, 3, (double[]){200, 3100, 32767});
	dalic_pipeline_destroy(t.p);
}

Test(ops_preemphasis, unknown_border)
{
	tl_oneop_t t = tl_oneop("preemphasis_filter", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_string(t.op, "border", "wrap"));
	EXPECT_STATUS(dalic_pipeline_build(t.p), DALIC_EOP);
	EXPECT_ERROR_HAS("``border`` mode \"wrap\" is not supported.");
	dalic_pipeline_destroy(t.p);
}
