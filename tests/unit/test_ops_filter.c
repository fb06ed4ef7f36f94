/* filter: correlation with a 2D float filter (OpenCV's filter2D), values worked out by hand.
 * The 3x3 image 1..9 with the cross filter (centre and its 4 neighbours) under reflect_101
 * (row -1 is row 1): (0,0) = 1 + 4 + 4 + 2 + 2 = 13, (1,1) = 5 + 2 + 8 + 4 + 6 = 25, ... */
#include "tests/testlib/oneop.h"

TestSuite(ops_filter, .timeout = 20);

static const uint8_t ops_filter_img[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
static const float ops_filter_cross[9] = {0, 1, 0, 1, 1, 1, 0, 1, 0};

/* Feeding builds the pipeline: arguments are set before. */
static void ops_filter_feed(tl_oneop_t *t, const uint8_t *img, const int64_t *ishape,
                            const float *k, const int64_t *kshape)
{
	tl_oneop_feed_u8(t, "in", 1, 2, ishape, img, "HW");
	tl_oneop_feed_f32(t, "in1", 1, 2, kshape, k, "");
}

Test(ops_filter, cross_with_reflect_101)
{
	tl_oneop_t t = tl_oneop("filter", 1, 2, NULL);
	ops_filter_feed(&t, ops_filter_img, (const int64_t[]){3, 3}, ops_filter_cross,
	                (const int64_t[]){3, 3});
	const dalic_batch_t *out = tl_run(t.p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_UINT8);
	cr_expect_str_eq(dalic_batch_layout(out), "HW");
	tl_expect_values(out, 0, 9, (const double[]){13, 16, 19, 22, 25, 28, 31, 34, 37});
	dalic_pipeline_destroy(t.p);
}

Test(ops_filter, constant_border_is_zero_by_default)
{
	tl_oneop_t t = tl_oneop("filter", 1, 2, NULL);
	ASSERT_OK(dalic_op_set_string(t.op, "border", "constant"));
	/* (0,0) = 1 + 0 (above) + 4 + 0 (left) + 2; (1,1) has no border: 25 */
	ops_filter_feed(&t, ops_filter_img, (const int64_t[]){3, 3}, ops_filter_cross,
	                (const int64_t[]){3, 3});
	tl_expect_values(tl_run(t.p, 0), 0, 9, (const double[]){7, 11, 11, 17, 25, 23, 19, 29, 23});
	dalic_pipeline_destroy(t.p);
}

Test(ops_filter, valid_mode_crops_and_float_output)
{
	tl_oneop_t t = tl_oneop("filter", 1, 2, NULL);
	ASSERT_OK(dalic_op_set_string(t.op, "mode", "valid"));
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_FLOAT));
	ops_filter_feed(&t, ops_filter_img, (const int64_t[]){3, 3}, (const float[]){1, 2, 3, 4},
	                (const int64_t[]){2, 2});
	const dalic_batch_t *out = tl_run(t.p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	cr_expect_eq(dalic_batch_shape(out, 0)[0], 2);
	cr_expect_eq(dalic_batch_shape(out, 0)[1], 2);
	/* (0,0) = 1*1 + 2*2 + 3*4 + 4*5 = 37 */
	tl_expect_values(out, 0, 4, (const double[]){37, 47, 67, 77});
	dalic_pipeline_destroy(t.p);
}

Test(ops_filter, border_modes_on_a_row)
{
	/* the row 1 2 3 with the filter (1, 10, 100) centred: position -1 and 3 per border */
	static const struct {
		const char *border;
		double want[3];
	} cases[] = {
	    {"reflect_101", {2 + 10 + 200, 1 + 20 + 300, 2 + 30 + 200}},
	    {"reflect_1001", {1 + 10 + 200, 1 + 20 + 300, 2 + 30 + 300}},
	    {"clamp", {1 + 10 + 200, 1 + 20 + 300, 2 + 30 + 300}},
	    {"wrap", {3 + 10 + 200, 1 + 20 + 300, 2 + 30 + 100}},
	    {"constant", {0 + 10 + 200, 1 + 20 + 300, 2 + 30 + 0}},
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		tl_oneop_t t = tl_oneop("filter", 1, 2, NULL);
		ASSERT_OK(dalic_op_set_string(t.op, "border", cases[c].border));
		ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_FLOAT));
		ops_filter_feed(&t, (const uint8_t[]){1, 2, 3}, (const int64_t[]){1, 3},
		                (const float[]){1, 10, 100}, (const int64_t[]){1, 3});
		tl_expect_values(tl_run(t.p, 0), 0, 3, cases[c].want);
		dalic_pipeline_destroy(t.p);
	}
}

Test(ops_filter, anchor_and_rounding)
{
	/* anchor (0, 0): out(x) = in(x) + 10 in(x + 1), reflect_101 past the end */
	tl_oneop_t t = tl_oneop("filter", 1, 2, NULL);
	ASSERT_OK(dalic_op_set_ints(t.op, "anchor", 2, (const int64_t[]){0, 0}));
	ops_filter_feed(&t, (const uint8_t[]){1, 2, 3}, (const int64_t[]){1, 3},
	                (const float[]){1, 10}, (const int64_t[]){1, 2});
	tl_expect_values(tl_run(t.p, 0), 0, 3, (const double[]){21, 32, 23});
	dalic_pipeline_destroy(t.p);
	/* halves round to even (cvRound): 0.5, 1.5, 2.5 -> 0, 2, 2; 600 saturates to 255 */
	t = tl_oneop("experimental.filter", 1, 2, NULL);
	ops_filter_feed(&t, (const uint8_t[]){1, 3, 5, 240}, (const int64_t[]){1, 4},
	                (const float[]){0.5f}, (const int64_t[]){1, 1});
	tl_expect_values(tl_run(t.p, 0), 0, 4, (const double[]){0, 2, 2, 120});
	dalic_pipeline_destroy(t.p);
	t = tl_oneop("filter", 1, 2, NULL);
	ops_filter_feed(&t, (const uint8_t[]){1, 3, 5, 240}, (const int64_t[]){1, 4},
	                (const float[]){2.5f}, (const int64_t[]){1, 1});
	tl_expect_values(tl_run(t.p, 0), 0, 4, (const double[]){2, 8, 12, 255});
	dalic_pipeline_destroy(t.p);
}

Test(ops_filter, errors_name_the_problem)
{
	tl_oneop_t t = tl_oneop("filter", 1, 2, NULL);
	ASSERT_OK(dalic_op_set_ints(t.op, "anchor", 2, (const int64_t[]){3, 0}));
	ops_filter_feed(&t, ops_filter_img, (const int64_t[]){3, 3}, ops_filter_cross,
	                (const int64_t[]){3, 3});
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "Anchor must lie within the filter");
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("filter", 1, 2, NULL);
	ASSERT_OK(dalic_op_set_string(t.op, "border", "mirror"));
	/* refused when the operator is made */
	ASSERT_STATUS(dalic_pipeline_build(t.p), DALIC_EOP);
	EXPECT_ERROR_HAS("Unknown border mode: `mirror`");
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("filter", 1, 2, NULL);
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_INT32));
	ops_filter_feed(&t, ops_filter_img, (const int64_t[]){3, 3}, ops_filter_cross,
	                (const int64_t[]){3, 3});
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "same as the input type or float");
	dalic_pipeline_destroy(t.p);
}
