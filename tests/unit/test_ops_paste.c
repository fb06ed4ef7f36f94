/* paste: canvas size from ratio (float32, truncated) and min_canvas_size, position from
 * paste_x / paste_y (per sample too), fill colours cast to uint8, the fill pattern when
 * n_channels differs from the image's, DALI's errors. Expected values by hand. */
#include "tests/testlib.h"

TestSuite(ops_paste, .timeout = 20);

static dalic_op_t *ops_paste_pipeline(dalic_pipeline_t *p, double ratio, int nfill,
                                      const int64_t *fill)
{
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "paste");
	ASSERT_OK(dalic_op_set_name(op, "paste"));
	ASSERT_OK(dalic_op_set_float(op, "ratio", ratio));
	ASSERT_OK(dalic_op_set_ints(op, "fill_value", nfill, fill));
	tl_input(op, "in");
	tl_output(p, op);
	return op;
}

/* HWC (1, 2, 1) [[5], [6]] */
static void ops_paste_feed_gray(dalic_pipeline_t *p)
{
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (int64_t[]){1, 2, 1}, (uint8_t[]){5, 6}, "HWC");
}

Test(ops_paste, centred_on_a_larger_canvas)
{
	/* ratio 2.6: H 1 -> 2.6 -> 2, W 2 -> 5.2 -> 5; y = 0.5 * 1 -> 0, x = 0.5 * 3 = 1.5 -> 1 */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_paste_pipeline(p, 2.6, 1, (int64_t[]){300});
	ASSERT_OK(dalic_op_set_int(op, "n_channels", 1));
	ops_paste_feed_gray(p);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_str_eq(dalic_batch_layout(out), "HWC");
	tl_expect_shape(out, 0, 3, (int64_t[]){2, 5, 1});
	/* 300 as uint8 is 44 */
	tl_expect_values(out, 0, 10, (double[]){44, 5, 6, 44, 44, 44, 44, 44, 44, 44});
	dalic_pipeline_destroy(p);
}

Test(ops_paste, corner_and_min_canvas)
{
	/* ratio 1, min_canvas_size 3.9 -> 3: canvas 3 x 3; x = 1 * 1, y = 1 * 2 */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_paste_pipeline(p, 1, 1, (int64_t[]){-1});
	ASSERT_OK(dalic_op_set_int(op, "n_channels", 1));
	ASSERT_OK(dalic_op_set_float(op, "min_canvas_size", 3.9));
	ASSERT_OK(dalic_op_set_float(op, "paste_x", 1));
	ASSERT_OK(dalic_op_set_float(op, "paste_y", 1));
	ops_paste_feed_gray(p);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 3, (int64_t[]){3, 3, 1});
	tl_expect_values(out, 0, 9, (double[]){255, 255, 255, 255, 255, 255, 255, 5, 6});
	dalic_pipeline_destroy(p);
}

Test(ops_paste, colour_fill_and_per_sample_position)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "x");
	dalic_op_t *op = ops_paste_pipeline(p, 2, 3, (int64_t[]){1, 2, 3});
	ASSERT_OK(dalic_op_set_arg_input(op, "paste_x", "x"));
	ASSERT_OK(dalic_op_set_float(op, "paste_y", 0));
	/* two 1 x 1 RGB images; canvas 2 x 2; x = 0 and 1 */
	tl_feed(p, "in", DALIC_UINT8, 3, 2, (int64_t[]){1, 1, 3, 1, 1, 3},
	        (uint8_t[]){9, 9, 9, 8, 8, 8}, "HWC");
	tl_feed(p, "x", DALIC_FLOAT, 0, 2, NULL, (float[]){0, 1}, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_values(out, 0, 12, (double[]){9, 9, 9, 1, 2, 3, 1, 2, 3, 1, 2, 3});
	tl_expect_values(out, 1, 12, (double[]){1, 2, 3, 8, 8, 8, 1, 2, 3, 1, 2, 3});
	dalic_pipeline_destroy(p);
}

Test(ops_paste, fill_pattern_with_more_fill_channels)
{
	/* 4 fill values over a 1-channel canvas: the run of 4 repeats across pixels */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_paste_pipeline(p, 3, 4, (int64_t[]){1, 2, 3, 4});
	ASSERT_OK(dalic_op_set_int(op, "n_channels", 4));
	ASSERT_OK(dalic_op_set_float(op, "paste_y", 0));
	ASSERT_OK(dalic_op_set_float(op, "paste_x", 0));
	ops_paste_feed_gray(p);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 3, (int64_t[]){3, 6, 1});
	/* row 0: image, then a 4-pixel run; rows 1 and 2: 6-pixel runs */
	tl_expect_values(out, 0, 18,
	                 (double[]){5, 6, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 1, 2, 3, 4, 1, 2});
	dalic_pipeline_destroy(p);
}

Test(ops_paste, errors)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_paste_pipeline(p, 0.5, 1, (int64_t[]){0});
	ops_paste_feed_gray(p);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'paste'");
	EXPECT_HAS(msg, "ratio of less than 1 is not supported");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	dalic_op_t *op = ops_paste_pipeline(p, 2, 1, (int64_t[]){0});
	ASSERT_OK(dalic_op_set_float(op, "paste_x", 1.5));
	ops_paste_feed_gray(p);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "paste_x must be in range [0, 1]");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_paste_pipeline(p, 2, 2, (int64_t[]){0, 1});
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("expects either a single value or a list of 3 elements. 2 given.");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_paste_pipeline(p, 2, 1, (int64_t[]){0});
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (int64_t[]){1, 2, 1}, (uint8_t[]){5, 6}, "CHW");
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "The layout \"CHW\" does not match");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_paste_pipeline(p, 2, 1, (int64_t[]){0});
	tl_feed(p, "in", DALIC_FLOAT, 3, 1, (int64_t[]){1, 1, 1}, (float[]){5}, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "only uint8 images are supported, got float");
	dalic_pipeline_destroy(p);
}

Test(ops_paste, hostile_sizes)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_paste_pipeline(p, 1e30, 1, (int64_t[]){0});
	ops_paste_feed_gray(p);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "ratio * H");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	dalic_op_t *op = ops_paste_pipeline(p, 2, 1, (int64_t[]){0});
	ASSERT_OK(dalic_op_set_float(op, "paste_x", NAN));
	ops_paste_feed_gray(p);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "paste_x must be in range [0, 1]");
	dalic_pipeline_destroy(p);
}
