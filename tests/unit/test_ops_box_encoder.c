/* box_encoder: four anchors tiling the unit square and boxes matched by hand (IoU 1, a box's
 * own best anchor, ties, the criteria), both output forms, no boxes, and the errors. */
#include "tests/testlib.h"

TestSuite(ops_box_encoder, .timeout = 20);

/* quadrants: top-left, top-right, bottom-left, bottom-right */
static const double ops_box_encoder_anchors[16] = {0, 0,   0.5, 0.5, 0.5, 0,   1, 0.5,
                                                   0, 0.5, 0.5, 1,   0.5, 0.5, 1, 1};

static dalic_op_t *ops_box_encoder_op(dalic_pipeline_t *p)
{
	tl_source(p, "boxes");
	tl_source(p, "labels");
	dalic_op_t *op = tl_op(p, "box_encoder");
	ASSERT_OK(dalic_op_set_name(op, "enc"));
	ASSERT_OK(dalic_op_set_floats(op, "anchors", 16, ops_box_encoder_anchors));
	tl_input(op, "boxes");
	tl_input(op, "labels");
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, 0), NULL));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, 1), NULL));
	return op;
}

/* B0 = the top-left anchor (IoU 1); B1 = half of the bottom-right one (IoU 0.5, its best) */
static const float ops_box_encoder_boxes[8] = {0, 0, 0.5f, 0.5f, 0.5f, 0.5f, 1, 0.75f};
static const int32_t ops_box_encoder_labels[2] = {5, 9};

static void ops_box_encoder_feed(dalic_pipeline_t *p, int n, const float *boxes,
                                 const int32_t *labels)
{
	tl_feed(p, "boxes", DALIC_FLOAT, 2, 1, (int64_t[]){n, 4}, boxes, NULL);
	tl_feed(p, "labels", DALIC_INT32, 1, 1, (int64_t[]){n}, labels, NULL);
}

Test(ops_box_encoder, centers_and_sizes)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_box_encoder_op(p);
	ops_box_encoder_feed(p, 2, ops_box_encoder_boxes, ops_box_encoder_labels);
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *boxes = dalic_pipeline_output(p, 0);
	const dalic_batch_t *labels = dalic_pipeline_output(p, 1);
	tl_expect_shape(boxes, 0, 2, (int64_t[]){4, 4});
	/* matched anchors get their box's (cx, cy, w, h), the others their own */
	tl_expect_values(boxes, 0, 16,
	                 (double[]){0.25, 0.25, 0.5, 0.5, 0.75, 0.25, 0.5, 0.5, 0.25, 0.75, 0.5,
	                            0.5, 0.75, 0.625, 0.5, 0.25});
	cr_expect_eq(dalic_batch_dtype(labels), DALIC_INT32);
	tl_expect_values(labels, 0, 4, (double[]){5, 0, 0, 9});
	dalic_pipeline_destroy(p);
}

Test(ops_box_encoder, offsets_with_stds)
{
	/* bottom-right: ((0.75 - 0.75)/0.5, (0.625 - 0.75)/0.5) / 0.1, (log 1, log 0.5) / 0.2 */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_box_encoder_op(p);
	ASSERT_OK(dalic_op_set_bool(op, "offset", true));
	ASSERT_OK(dalic_op_set_floats(op, "stds", 4, (double[]){0.1, 0.1, 0.2, 0.2}));
	ops_box_encoder_feed(p, 2, ops_box_encoder_boxes, ops_box_encoder_labels);
	ASSERT_OK(dalic_pipeline_run(p));
	tl_expect_near(dalic_pipeline_output(p, 0), 0, 16,
	               (double[]){0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -2.5, 0, log(0.5) / 0.2},
	               1e-5);
	tl_expect_values(dalic_pipeline_output(p, 1), 0, 4, (double[]){5, 0, 0, 9});
	dalic_pipeline_destroy(p);
}

Test(ops_box_encoder, ties_and_criteria)
{
	/* [0.25, 0, 0.75, 0.5] overlaps both top anchors with IoU 1/3: it claims the last (top
	 * right); the top-left one takes it only when 1/3 > criteria */
	const float box[4] = {0.25f, 0, 0.75f, 0.5f};
	const int32_t label[1] = {3};
	for (int k = 0; k < 2; k++) {
		dalic_pipeline_t *p = tl_pipeline(1);
		dalic_op_t *op = ops_box_encoder_op(p);
		ASSERT_OK(dalic_op_set_float(op, "criteria", k ? 0.3 : 0.5));
		ops_box_encoder_feed(p, 1, box, label);
		ASSERT_OK(dalic_pipeline_run(p));
		tl_expect_values(dalic_pipeline_output(p, 1), 0, 4, (double[]){k ? 3 : 0, 3, 0, 0});
		dalic_pipeline_destroy(p);
	}
}

Test(ops_box_encoder, no_boxes)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_box_encoder_op(p);
	ASSERT_OK(dalic_op_set_bool(op, "offset", true));
	ops_box_encoder_feed(p, 0, ops_box_encoder_boxes, ops_box_encoder_labels);
	ASSERT_OK(dalic_pipeline_run(p));
	double zeros[16] = {0};
	tl_expect_values(dalic_pipeline_output(p, 0), 0, 16, zeros);
	tl_expect_values(dalic_pipeline_output(p, 1), 0, 4, zeros);
	dalic_pipeline_destroy(p);
}

Test(ops_box_encoder, errors)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_box_encoder_op(p);
	ASSERT_OK(dalic_op_set_float(op, "criteria", 1.5));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("Expected criteria <= 1");
	EXPECT_ERROR_HAS("'enc'");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_box_encoder_op(p);
	ASSERT_OK(dalic_op_set_floats(op, "anchors", 6, ops_box_encoder_anchors));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("Anchors size must be divisible by 4");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_box_encoder_op(p);
	ASSERT_OK(dalic_op_set_floats(op, "stds", 4, (double[]){1, 0, 1, 1}));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("stds values must be != 0");
	dalic_pipeline_destroy(p);

	/* one label for two boxes: DALI reads past the labels; dalic refuses */
	p = tl_pipeline(1);
	ops_box_encoder_op(p);
	tl_feed(p, "boxes", DALIC_FLOAT, 2, 1, (int64_t[]){2, 4}, ops_box_encoder_boxes, NULL);
	tl_feed(p, "labels", DALIC_INT32, 1, 1, (int64_t[]){1}, ops_box_encoder_labels, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "2 boxes but 1 labels");
	dalic_pipeline_destroy(p);
}
