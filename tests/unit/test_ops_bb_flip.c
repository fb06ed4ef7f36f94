/* bb_flip: boxes flipped by hand (ltrb and xywh, horizontal and vertical), per-sample flags,
 * any tensor shape, and the errors. */
#include "tests/testlib.h"

TestSuite(ops_bb_flip, .timeout = 20);

static dalic_op_t *ops_bb_flip_op(dalic_pipeline_t *p)
{
	tl_source(p, "boxes");
	dalic_op_t *op = tl_op(p, "bb_flip");
	ASSERT_OK(dalic_op_set_name(op, "flip"));
	tl_input(op, "boxes");
	tl_output(p, op);
	return op;
}

/* Values exact in float so sums and differences are exact too. */
static const float ops_bb_flip_boxes[8] = {0.125f, 0.25f, 0.5f, 0.75f, 0, 0, 1, 1};

Test(ops_bb_flip, ltrb_horizontal_and_vertical)
{
	/* [l, t, r, b] -> [1 - r, t, 1 - l, b]; vertically [l, 1 - b, r, 1 - t] */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_bb_flip_op(p);
	ASSERT_OK(dalic_op_set_bool(op, "ltrb", true));
	ASSERT_OK(dalic_op_set_int(op, "vertical", 1));
	tl_feed(p, "boxes", DALIC_FLOAT, 2, 1, (int64_t[]){2, 4}, ops_bb_flip_boxes, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 2, (int64_t[]){2, 4});
	tl_expect_values(out, 0, 8, (double[]){0.5, 0.25, 0.875, 0.75, 0, 0, 1, 1});
	dalic_pipeline_destroy(p);
}

Test(ops_bb_flip, xywh_keeps_extents)
{
	/* [x, y, w, h] -> [1 - x - w, y, w, h] */
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_bb_flip_op(p);
	tl_feed(p, "boxes", DALIC_FLOAT, 1, 1, (int64_t[]){4}, ops_bb_flip_boxes, NULL);
	tl_expect_values(tl_run(p, 0), 0, 4, (double[]){0.375, 0.25, 0.5, 0.75});
	dalic_pipeline_destroy(p);
}

Test(ops_bb_flip, per_sample_flags)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "h");
	dalic_op_t *op = ops_bb_flip_op(p);
	ASSERT_OK(dalic_op_set_arg_input(op, "horizontal", "h"));
	ASSERT_OK(dalic_op_set_bool(op, "ltrb", true));
	tl_feed(p, "h", DALIC_INT32, 0, 2, (int64_t[]){0}, (int32_t[]){0, 1}, NULL);
	tl_feed(p, "boxes", DALIC_FLOAT, 3, 2, (int64_t[]){1, 1, 4, 1, 1, 4}, ops_bb_flip_boxes,
	        NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 1, 3, (int64_t[]){1, 1, 4});
	tl_expect_values(out, 0, 4, (double[]){0.125, 0.25, 0.5, 0.75});
	tl_expect_values(out, 1, 4, (double[]){0, 0, 1, 1});
	dalic_pipeline_destroy(p);
}

Test(ops_bb_flip, errors)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_bb_flip_op(p);
	tl_feed(p, "boxes", DALIC_FLOAT64, 1, 1, (int64_t[]){4}, (double[]){0, 0, 1, 1}, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Bounding box in wrong format");
	EXPECT_ERROR_HAS("'flip'");
	dalic_pipeline_destroy(p);

	/* DALI reads past a partial box; dalic refuses it */
	p = tl_pipeline(1);
	ops_bb_flip_op(p);
	tl_feed(p, "boxes", DALIC_FLOAT, 1, 1, (int64_t[]){5}, (float[]){0, 0, 1, 1, 0}, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "multiple of 4");
	EXPECT_ERROR_HAS("sample 0");
	dalic_pipeline_destroy(p);
}
