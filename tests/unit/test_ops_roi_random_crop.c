/* roi_random_crop: windows where the ROI fixes them (extent equal to the crop, an input or
 * in_shape no bigger than the crop), windows that hold a smaller ROI or lie inside a bigger
 * one for every draw, per-sample ROIs from argument inputs, and DALI's argument errors. The
 * draws themselves are compared with DALI's in tests/dali/cases/roi_random_crop_*.py. */
#include "tests/testlib.h"

TestSuite(ops_roi_random_crop, .timeout = 20);

static dalic_op_t *ops_roi_crop(dalic_pipeline_t *p, int64_t c0, int64_t c1, int64_t s0,
                                int64_t s1)
{
	dalic_op_t *op = tl_op(p, "roi_random_crop");
	ASSERT_OK(dalic_op_set_ints(op, "crop_shape", 2, (int64_t[]){c0, c1}));
	ASSERT_OK(dalic_op_set_ints(op, "roi_start", 2, (int64_t[]){s0, s1}));
	tl_output(p, op);
	return op;
}

static int64_t ops_roi_at(const dalic_batch_t *b, int i, int d)
{
	return ((const int64_t *)dalic_batch_data(b, i))[d];
}

Test(ops_roi_random_crop, windows_the_roi_fixes)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	/* dim 0: ROI extent == crop extent, the window starts at the ROI; dim 1: in_shape as
	 * big as the crop leaves only 0 */
	dalic_op_t *op = ops_roi_crop(p, 6, 20, 3, 4);
	ASSERT_OK(dalic_op_set_ints(op, "roi_shape", 2, (int64_t[]){6, 10}));
	ASSERT_OK(dalic_op_set_ints(op, "in_shape", 2, (int64_t[]){30, 20}));
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_INT64);
	tl_expect_shape(out, 0, 1, (int64_t[]){2});
	tl_expect_values(out, 0, 2, (double[]){3, 0});
	tl_expect_values(out, 1, 2, (double[]){3, 0});
	dalic_pipeline_destroy(p);
	/* an input gives the bounds: a 10x7 sample and a 7-wide crop leave only column 0 */
	p = tl_pipeline(1);
	tl_source(p, "in");
	op = tl_op(p, "roi_random_crop");
	ASSERT_OK(dalic_op_set_ints(op, "crop_shape", 2, (int64_t[]){4, 7}));
	ASSERT_OK(dalic_op_set_ints(op, "roi_start", 2, (int64_t[]){2, 1}));
	ASSERT_OK(dalic_op_set_ints(op, "roi_end", 2, (int64_t[]){6, 3}));
	tl_input(op, "in");
	tl_output(p, op);
	static const uint8_t data[70];
	tl_feed(p, "in", DALIC_UINT8, 2, 1, (int64_t[]){10, 7}, data, NULL);
	tl_expect_values(tl_run(p, 0), 0, 2, (double[]){2, 0});
	dalic_pipeline_destroy(p);
}

Test(ops_roi_random_crop, every_draw_holds_or_lies_inside_the_roi)
{
	dalic_pipeline_t *p = tl_pipeline(8);
	/* dim 0: a 5-long ROI at 40 in a 12-long window: start in [33, 40]; dim 1: a 30-long ROI
	 * at 10 around a 4-long window: start in [10, 36]; unbounded */
	dalic_op_t *op = ops_roi_crop(p, 12, 4, 40, 10);
	ASSERT_OK(dalic_op_set_ints(op, "roi_end", 2, (int64_t[]){45, 40}));
	bool seen_lo = false, seen_other = false;
	for (int it = 0; it < 8; it++) {
		const dalic_batch_t *out = tl_run(p, 0);
		for (int i = 0; i < 8; i++) {
			int64_t a = ops_roi_at(out, i, 0), b = ops_roi_at(out, i, 1);
			cr_expect(a >= 33 && a <= 40, "dim 0 start %lld", (long long)a);
			cr_expect(b >= 10 && b <= 36, "dim 1 start %lld", (long long)b);
			seen_lo |= a == 33;
			seen_other |= a != 33;
		}
	}
	cr_expect(seen_lo && seen_other, "64 draws over 8 values take more than one");
	dalic_pipeline_destroy(p);
	/* bounded by in_shape: the ROI at the edge pulls the window in (start <= 50 - 12) */
	p = tl_pipeline(8);
	op = ops_roi_crop(p, 12, 4, 45, 0);
	ASSERT_OK(dalic_op_set_ints(op, "roi_shape", 2, (int64_t[]){5, 4}));
	ASSERT_OK(dalic_op_set_ints(op, "in_shape", 2, (int64_t[]){50, 9}));
	for (int it = 0; it < 4; it++) {
		const dalic_batch_t *out = tl_run(p, 0);
		for (int i = 0; i < 8; i++) {
			int64_t a = ops_roi_at(out, i, 0);
			cr_expect(a >= 38 && a <= 38, "start %lld: only 38 holds the ROI in bounds",
			          (long long)a);
			cr_expect_eq(ops_roi_at(out, i, 1), 0);
		}
	}
	dalic_pipeline_destroy(p);
}

Test(ops_roi_random_crop, per_sample_rois_from_argument_inputs)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "start");
	dalic_op_t *op = tl_op(p, "roi_random_crop");
	ASSERT_OK(dalic_op_set_ints(op, "crop_shape", 1, (int64_t[]){3}));
	ASSERT_OK(dalic_op_set_arg_input(op, "roi_start", "start"));
	ASSERT_OK(dalic_op_set_ints(op, "roi_shape", 1, (int64_t[]){3}));
	tl_output(p, op);
	tl_feed(p, "start", DALIC_INT32, 1, 2, (int64_t[]){1, 1}, (int32_t[]){7, 11}, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_values(out, 0, 1, (double[]){7});
	tl_expect_values(out, 1, 1, (double[]){11});
	dalic_pipeline_destroy(p);
}

Test(ops_roi_random_crop, argument_errors)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_roi_crop(p, 4, 4, 1, 1);
	ASSERT_OK(dalic_op_set_ints(op, "roi_end", 2, (int64_t[]){3, 3}));
	ASSERT_OK(dalic_op_set_ints(op, "roi_shape", 2, (int64_t[]){2, 2}));
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Either ROI end or ROI shape should be defined");
	dalic_pipeline_destroy(p);
	p = tl_pipeline(1);
	op = ops_roi_crop(p, 40, 4, 1, 1);
	ASSERT_OK(dalic_op_set_ints(op, "roi_end", 2, (int64_t[]){3, 3}));
	ASSERT_OK(dalic_op_set_ints(op, "in_shape", 2, (int64_t[]){30, 30}));
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Cropping shape can't be bigger than the input "
	                                       "shape. Got: crop_shape[40] and sample_shape[30] "
	                                       "for d=0");
	dalic_pipeline_destroy(p);
	p = tl_pipeline(1);
	op = ops_roi_crop(p, 4, 4, 1, 1);
	ASSERT_OK(dalic_op_set_ints(op, "roi_shape", 2, (int64_t[]){2, 50}));
	ASSERT_OK(dalic_op_set_ints(op, "in_shape", 2, (int64_t[]){30, 30}));
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "ROI can't be out of bounds. Got roi_start[1], "
	                                       "roi_end[51], sample_shape[30], for d=1");
	dalic_pipeline_destroy(p);
	p = tl_pipeline(1);
	op = ops_roi_crop(p, 4, 4, 1, 1);
	ASSERT_OK(dalic_op_set_ints(op, "roi_shape", 3, (int64_t[]){2, 2, 2}));
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "`roi_shape` has 3 values; crop_shape has 2");
	dalic_pipeline_destroy(p);
}
