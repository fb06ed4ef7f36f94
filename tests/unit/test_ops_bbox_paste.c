/* bbox_paste: boxes moved by hand onto a canvas 2 and 4 times larger, the [0, 1] clamp of the
 * offset, per-sample ratios, and the errors. */
#include "tests/testlib.h"

TestSuite(ops_bbox_paste, .timeout = 20);

static dalic_op_t *ops_bbox_paste_op(dalic_pipeline_t *p)
{
	tl_source(p, "boxes");
	dalic_op_t *op = tl_op(p, "bbox_paste");
	ASSERT_OK(dalic_op_set_name(op, "paste"));
	tl_input(op, "boxes");
	tl_output(p, op);
	return op;
}

static const float ops_bbox_paste_boxes[8] = {0, 0, 1, 1, 0.25f, 0.5f, 0.5f, 0.25f};

Test(ops_bbox_paste, centered_on_twice_the_canvas)
{
	/* ratio 2, paste at 0.5: x' = x / 2 + 0.25; xywh extents halve */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_bbox_paste_op(p);
	ASSERT_OK(dalic_op_set_float(op, "ratio", 2));
	tl_feed(p, "boxes", DALIC_FLOAT, 2, 1, (int64_t[]){2, 4}, ops_bbox_paste_boxes, NULL);
	tl_expect_values(tl_run(p, 0), 0, 8,
	                 (double[]){0.25, 0.25, 0.5, 0.5, 0.375, 0.5, 0.25, 0.125});
	dalic_pipeline_destroy(p);
}

Test(ops_bbox_paste, corners_ltrb)
{
	/* ratio 4 at (0, 1): x' = x / 4, y' = y / 4 + 0.75 */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_bbox_paste_op(p);
	ASSERT_OK(dalic_op_set_float(op, "ratio", 4));
	ASSERT_OK(dalic_op_set_float(op, "paste_x", 0));
	ASSERT_OK(dalic_op_set_float(op, "paste_y", 1));
	ASSERT_OK(dalic_op_set_bool(op, "ltrb", true));
	tl_feed(p, "boxes", DALIC_FLOAT, 2, 1, (int64_t[]){2, 4}, ops_bbox_paste_boxes, NULL);
	tl_expect_values(tl_run(p, 0), 0, 8,
	                 (double[]){0, 0.75, 0.25, 1, 0.0625, 0.875, 0.125, 0.8125});
	dalic_pipeline_destroy(p);
}

Test(ops_bbox_paste, offset_clamped_inside_the_canvas)
{
	/* paste_x 3 would put the image past the right edge: the offset becomes 1 - 1/2 */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_bbox_paste_op(p);
	ASSERT_OK(dalic_op_set_float(op, "ratio", 2));
	ASSERT_OK(dalic_op_set_float(op, "paste_x", 3));
	ASSERT_OK(dalic_op_set_bool(op, "ltrb", true));
	tl_feed(p, "boxes", DALIC_FLOAT, 1, 1, (int64_t[]){4}, ops_bbox_paste_boxes, NULL);
	tl_expect_values(tl_run(p, 0), 0, 4, (double[]){0.5, 0.25, 1, 0.75});
	dalic_pipeline_destroy(p);
}

Test(ops_bbox_paste, per_sample_ratio)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "ratio");
	dalic_op_t *op = ops_bbox_paste_op(p);
	ASSERT_OK(dalic_op_set_arg_input(op, "ratio", "ratio"));
	ASSERT_OK(dalic_op_set_float(op, "paste_x", 0));
	ASSERT_OK(dalic_op_set_float(op, "paste_y", 0));
	tl_feed(p, "ratio", DALIC_FLOAT, 0, 2, (int64_t[]){0}, (float[]){1, 2}, NULL);
	tl_feed(p, "boxes", DALIC_FLOAT, 1, 2, (int64_t[]){4, 4}, ops_bbox_paste_boxes, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_values(out, 0, 4, (double[]){0, 0, 1, 1});
	tl_expect_values(out, 1, 4, (double[]){0.125, 0.25, 0.25, 0.125});
	dalic_pipeline_destroy(p);
}

Test(ops_bbox_paste, errors)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_bbox_paste_op(p);
	ASSERT_OK(dalic_op_set_float(op, "ratio", 0));
	tl_feed(p, "boxes", DALIC_FLOAT, 1, 1, (int64_t[]){4}, ops_bbox_paste_boxes, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "ratio must be a positive number");
	EXPECT_ERROR_HAS("'paste'");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_bbox_paste_op(p);
	ASSERT_OK(dalic_op_set_float(op, "ratio", 2));
	ASSERT_OK(dalic_op_set_float(op, "paste_y", NAN));
	tl_feed(p, "boxes", DALIC_FLOAT, 1, 1, (int64_t[]){4}, ops_bbox_paste_boxes, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "positions finite");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_bbox_paste_op(p);
	ASSERT_OK(dalic_op_set_float(op, "ratio", 2));
	tl_feed(p, "boxes", DALIC_FLOAT, 1, 1, (int64_t[]){6}, ops_bbox_paste_boxes, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "multiple of 4.Got: 6");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_bbox_paste_op(p);
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EMISSING_ARG);
	EXPECT_ERROR_HAS("ratio");
	dalic_pipeline_destroy(p);
}
