/* random_bbox_crop's warning when it falls back to the best window (DALI's words, one per
 * sample and iteration, in the pipeline's warnings log), silenced by `quiet`, and absent when
 * a window is accepted. */
#include "tests/testlib.h"

TestSuite(ops_rbc_warning, .timeout = 30);

/* Three boxes, xyXY: areas 0.09, 0.2 and 0.14. */
static const float ops_rbc_warning_boxes[2][12] = {
    {0.1f, 0.2f, 0.4f, 0.5f, 0.5f, 0.1f, 0.9f, 0.6f, 0.3f, 0.6f, 0.7f, 0.95f},
    {0.1f, 0.2f, 0.4f, 0.5f, 0.5f, 0.1f, 0.9f, 0.6f, 0.3f, 0.6f, 0.7f, 0.95f}};

/* Batch of 2; thresholds [threshold], allow_no_crop False, 4 attempts in all. */
static dalic_pipeline_t *ops_rbc_warning_run(double threshold, bool quiet)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "boxes");
	dalic_op_t *op = tl_op(p, "random_bbox_crop");
	ASSERT_OK(dalic_op_set_name(op, "rbc"));
	ASSERT_OK(dalic_op_set_int(op, "seed", 1234));
	tl_input(op, "boxes");
	ASSERT_OK(dalic_op_set_floats(op, "thresholds", 1, (double[]){threshold}));
	ASSERT_OK(dalic_op_set_bool(op, "allow_no_crop", false));
	ASSERT_OK(dalic_op_set_int(op, "total_num_attempts", 4));
	ASSERT_OK(dalic_op_set_bool(op, "quiet", quiet));
	tl_output(p, op);
	tl_feed(p, "boxes", DALIC_FLOAT, 2, 2, (int64_t[]){3, 4, 3, 4}, ops_rbc_warning_boxes,
	        NULL);
	tl_run(p, 0);
	return p;
}

Test(ops_rbc_warning, best_window_warns_per_sample)
{
	/* IoU 1 is never reached; the windows are the whole image (the default scaling and
	 * aspect ratios give it here, see test_ops_random_bbox_crop.c), whose smallest IoU
	 * is the first box's area, 0.09 */
	dalic_pipeline_t *p = ops_rbc_warning_run(1.0, false);
	cr_assert_eq(dalic_pipeline_num_warnings(p), 2);
	for (int k = 0; k < 2; k++) {
		dalic_warning_t w;
		ASSERT_OK(dalic_pipeline_warning(p, k, &w));
		cr_expect_str_eq(w.op, "rbc");
		cr_expect_eq(w.sample, k);
		cr_expect_eq(w.iteration, 0);
		cr_expect_str_eq(w.message,
		                 "Could not find a valid cropping window to satisfy the specified "
		                 "requirements (attempted 4 times). Using the best cropping window "
		                 "so far (best_metric=0.09)");
	}
	dalic_pipeline_destroy(p);
}

Test(ops_rbc_warning, quiet_or_accepted_window_is_silent)
{
	dalic_pipeline_t *p = ops_rbc_warning_run(1.0, true);
	cr_expect_eq(dalic_pipeline_num_warnings(p), 0);
	dalic_pipeline_destroy(p);
	p = ops_rbc_warning_run(0.05, false); /* the whole image's 0.09 is enough */
	cr_expect_eq(dalic_pipeline_num_warnings(p), 0);
	dalic_pipeline_destroy(p);
}
