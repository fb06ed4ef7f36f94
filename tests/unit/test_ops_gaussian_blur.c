/* gaussian_blur: window_size 3 alone gives sigma (1 - 1) * 0.3 + 0.8 = 0.8 and the window
 * exp(-1 / 1.28) = 0.457833 around 1, normalized: (0.238994, 0.522012, 0.238994). Borders
 * reflect without repeating the edge. Values worked out by hand from these. */
#include "tests/testlib/oneop.h"

TestSuite(ops_gaussian_blur, .timeout = 20);

static const dalic_batch_t *ops_gb_run(tl_oneop_t *t, int ndim, const int64_t *shape,
                                       const uint8_t *data, const char *layout)
{
	*t = tl_oneop("gaussian_blur", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_ints(t->op, "window_size", 1, (const int64_t[]){3}));
	tl_oneop_feed_u8(t, "in", 1, ndim, shape, data, layout);
	return tl_run(t->p, 0);
}

Test(ops_gaussian_blur, one_axis_impulse_and_borders)
{
	tl_oneop_t t;
	const dalic_batch_t *out =
	    ops_gb_run(&t, 1, (const int64_t[]){5}, (const uint8_t[]){0, 0, 100, 0, 0}, NULL);
	tl_expect_values(out, 0, 5, (double[]){0, 24, 52, 24, 0}); /* 23.90, 52.20 */
	dalic_pipeline_destroy(t.p);
	/* at the edge the reflection reads x = 1 for x = -1: 0.522 * 100, then 0.239 * 100 */
	out = ops_gb_run(&t, 1, (const int64_t[]){3}, (const uint8_t[]){100, 0, 0}, NULL);
	tl_expect_values(out, 0, 3, (double[]){52, 24, 0});
	dalic_pipeline_destroy(t.p);
}

Test(ops_gaussian_blur, two_axes_are_separable_and_channels_apart)
{
	/* 3x3 HWC with 2 channels: an impulse of 100 in channel 0 at the centre, 50 everywhere in
	 * channel 1 (a constant stays constant) */
	uint8_t d[18];
	for (int k = 0; k < 9; k++) {
		d[2 * k] = k == 4 ? 100 : 0;
		d[2 * k + 1] = 50;
	}
	tl_oneop_t t;
	const dalic_batch_t *out = ops_gb_run(&t, 3, (const int64_t[]){3, 3, 2}, d, "HWC");
	/* centre 100 * 0.522^2 = 27.25; at a border the reflection reads the centre row or column
	 * twice (weights 0.239 + 0.239): edges 100 * 0.478 * 0.522 = 24.95, corners 100 * 0.478^2
	 * = 22.84 */
	const double want[18] = {23, 50, 25, 50, 23, 50, 25, 50, 27,
	                         50, 25, 50, 23, 50, 25, 50, 23, 50};
	tl_expect_values(out, 0, 18, want);
	dalic_pipeline_destroy(t.p);
}

Test(ops_gaussian_blur, sigma_gives_the_window_and_float_output_keeps_the_sum)
{
	/* sigma 1: a window of 2 * ceil(3) + 1 = 7; an impulse spreads to 7 values summing to 1 */
	float d[9] = {0, 0, 0, 0, 1, 0, 0, 0, 0};
	tl_oneop_t t = tl_oneop("gaussian_blur", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_floats(t.op, "sigma", 1, (const double[]){1.0}));
	tl_oneop_feed_f32(&t, "in", 1, 1, (const int64_t[]){9}, d, NULL);
	const dalic_batch_t *out = tl_run(t.p, 0);
	double sum = 0;
	for (int k = 0; k < 9; k++)
		sum += tl_at(out, 0, k);
	cr_expect_float_eq(sum, 1.0, 1e-6);
	cr_expect_eq(tl_at(out, 0, 0), 0); /* 4 away: outside the 7-wide window */
	/* the window sums 1 + 2 (e^-0.5 + e^-2 + e^-4.5) = 2.505970 before normalizing */
	cr_expect_float_eq(tl_at(out, 0, 1), 0.004433, 1e-5); /* e^-4.5 / 2.505970 */
	cr_expect_float_eq(tl_at(out, 0, 4), 0.399047, 1e-5); /* 1 / 2.505970 */
	dalic_pipeline_destroy(t.p);
}

Test(ops_gaussian_blur, refuses_what_dali_refuses)
{
	const char *msgs[] = {
	    "`sigma` and `window_size` shouldn't be 0 at the same time for sample: 0, axis: 0.",
	    "`sigma` must have non-negative values, got -1 for sample: 0, axis: 0.",
	    "Kernel window should have odd length, got: 4.",
	    "Argument \"sigma\" expects either a single value or a list of 2 elements. 3 given.",
	    "Output data type must be same as input, FLOAT or skipped",
	    "Only channel-first or channel-last layouts are supported, got: HCW.",
	};
	for (int k = 0; k < 6; k++) {
		tl_oneop_t t = tl_oneop("gaussian_blur", 1, 1, NULL);
		if (k == 1)
			ASSERT_OK(dalic_op_set_floats(t.op, "sigma", 1, (const double[]){-1}));
		if (k == 2)
			ASSERT_OK(dalic_op_set_ints(t.op, "window_size", 1, (const int64_t[]){4}));
		if (k == 3)
			ASSERT_OK(dalic_op_set_floats(t.op, "sigma", 3, (const double[]){1, 2, 3}));
		if (k == 4) {
			ASSERT_OK(dalic_op_set_floats(t.op, "sigma", 1, (const double[]){1}));
			ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_INT16));
		}
		if (k == 5)
			ASSERT_OK(dalic_op_set_floats(t.op, "sigma", 1, (const double[]){1}));
		uint8_t d[12] = {0};
		tl_oneop_feed_u8(&t, "in", 1, 3, (const int64_t[]){2, 2, 3}, d,
		                 k == 5 ? "HCW" : "HWC");
		EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), msgs[k], "case %d", k);
		EXPECT_ERROR_HAS("(GaussianBlur)");
		dalic_pipeline_destroy(t.p);
	}
}
