/* roi_random_crop: a window smaller than the ROI lies within it, a larger one contains it and
 * stays within the input; DALI 2.4's values for seed 1234; argument errors. */
#include "tests/testlib.h"

TestSuite(ops_roi_random_crop, .timeout = 20);

static dalic_op_t *ops_roi_random_crop_op(dalic_pipeline_t *p, const int64_t *crop,
					  const int64_t *start, const int64_t *shape, int nd)
{
	dalic_op_t *op = tl_op(p, "roi_random_crop");
	ASSERT_OK(dalic_op_set_name(op, "roi"));
	ASSERT_OK(dalic_op_set_int(op, "seed", 1234));
	ASSERT_OK(dalic_op_set_ints(op, "crop_shape", nd, crop));
	ASSERT_OK(dalic_op_set_ints(op, "roi_start", nd, start));
	ASSERT_OK(dalic_op_set_ints(op, "roi_shape", nd, shape));
	tl_output(p, op);
	return op;
}

Test(ops_roi_random_crop, windows_inside_a_large_roi_and_around_a_small_one)
{
	dalic_pipeline_t *p = tl_pipeline(8);
	/* y: window 10 in ROI [30, 80); x: window 100 around ROI [40, 60), input width 150 */
	dalic_op_t *op = ops_roi_random_crop_op(p, (int64_t[]){10, 100}, (int64_t[]){30, 40},
						(int64_t[]){50, 20}, 2);
	ASSERT_OK(dalic_op_set_ints(op, "in_shape", 2, (int64_t[]){200, 150}));
	bool seen_lo = false, seen_hi = false;
	for (int it = 0; it < 20; it++) {
		const dalic_batch_t *out = tl_run(p, 0);
		cr_assert_eq(dalic_batch_dtype(out), DALIC_INT64);
		for (int i = 0; i < 8; i++) {
			double y = tl_at(out, i, 0), x = tl_at(out, i, 1);
			cr_assert(y >= 30 && y + 10 <= 80, "window y [%g, %g) leaves the ROI", y, y + 10);
			/* contains [40, 60) and fits [0, 150): x in [0, 40] */
			cr_assert(x >= 0 && x <= 40, "window x [%g, %g)", x, x + 100);
			seen_lo |= y == 30;
			seen_hi |= y == 70;
		}
	}
	cr_expect(seen_lo && seen_hi, "both ends of the ROI reached");
	dalic_pipeline_destroy(p);
}

/* Recorded from DALI 2.4: batch 4, operator seed 1234, iterations 0 and 1. */
Test(ops_roi_random_crop, dali_values_for_seed_1234)
{
	dalic_pipeline_t *p = tl_pipeline(4);
	ops_roi_random_crop_op(p, (int64_t[]){10, 20, 3}, (int64_t[]){30, 40, 0},
			       (int64_t[]){50, 60, 3}, 3);
	static const double want[2][4][3] = {
	    {{35, 74, 0}, {59, 41, 0}, {55, 69, 0}, {59, 51, 0}},
	    {{41, 65, 0}, {60, 48, 0}, {58, 60, 0}, {47, 60, 0}},
	};
	for (int it = 0; it < 2; it++) {
		const dalic_batch_t *out = tl_run(p, 0);
		for (int i = 0; i < 4; i++)
			tl_expect_values(out, i, 3, want[it][i]);
	}
	dalic_pipeline_destroy(p);
}

Test(ops_roi_random_crop, argument_errors)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_roi_random_crop_op(p, (int64_t[]){4, 4}, (int64_t[]){0, 10},
						(int64_t[]){5, 110}, 2);
	ASSERT_OK(dalic_op_set_ints(op, "in_shape", 2, (int64_t[]){100, 100}));
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'roi'");
	EXPECT_HAS(msg, "ROI can't be out of bounds. Got roi_start[10], roi_end[120], "
			"sample_shape[100], for d=1");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_roi_random_crop_op(p, (int64_t[]){4, 4}, (int64_t[]){0, 0}, (int64_t[]){5, 5}, 2);
	ASSERT_OK(dalic_op_set_ints(op, "roi_end", 2, (int64_t[]){5, 5}));
	int rc = dalic_pipeline_build(p);
	if (rc == DALIC_OK)
		rc = dalic_pipeline_run(p);
	cr_expect_neq(rc, DALIC_OK);
	EXPECT_ERROR_HAS("Either ROI end or ROI shape should be defined, but not both");
	dalic_pipeline_destroy(p);
}
