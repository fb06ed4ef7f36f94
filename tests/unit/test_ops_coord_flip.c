/* coord_flip: reflections about centers computed by hand, layouts, per-sample flips and
 * centers, and DALI's errors. */
#include "tests/testlib.h"

TestSuite(ops_coord_flip, .timeout = 20);

static dalic_op_t *ops_coord_flip_op(dalic_pipeline_t *p)
{
	tl_source(p, "pts");
	dalic_op_t *op = tl_op(p, "coord_flip");
	ASSERT_OK(dalic_op_set_name(op, "cf"));
	tl_input(op, "pts");
	tl_output(p, op);
	return op;
}

static const float ops_coord_flip_pts[6] = {0.25f, 0.5f, 2, 0.75f, 0, -1}; /* [2, 3] */

Test(ops_coord_flip, default_flips_x_about_half)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_coord_flip_op(p);
	tl_feed(p, "pts", DALIC_FLOAT, 2, 1, (int64_t[]){2, 3}, ops_coord_flip_pts, NULL);
	tl_expect_values(tl_run(p, 0), 0, 6, (double[]){0.75, 0.5, 2, 0.25, 0, -1});
	dalic_pipeline_destroy(p);
}

Test(ops_coord_flip, axes_centers_and_layout)
{
	/* y about 1 (2 - v) and z about -0.5 (-1 - v); x kept */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_coord_flip_op(p);
	ASSERT_OK(dalic_op_set_int(op, "flip_x", 0));
	ASSERT_OK(dalic_op_set_int(op, "flip_y", 1));
	ASSERT_OK(dalic_op_set_int(op, "flip_z", 1));
	ASSERT_OK(dalic_op_set_float(op, "center_y", 1));
	ASSERT_OK(dalic_op_set_float(op, "center_z", -0.5));
	tl_feed(p, "pts", DALIC_FLOAT, 2, 1, (int64_t[]){2, 3}, ops_coord_flip_pts, NULL);
	tl_expect_values(tl_run(p, 0), 0, 6, (double[]){0.25, 1.5, -3, 0.75, 2, 0});
	dalic_pipeline_destroy(p);

	/* layout "zyx": x is the last column */
	p = tl_pipeline(1);
	op = ops_coord_flip_op(p);
	ASSERT_OK(dalic_op_set_string(op, "layout", "zyx"));
	tl_feed(p, "pts", DALIC_FLOAT, 2, 1, (int64_t[]){2, 3}, ops_coord_flip_pts, NULL);
	tl_expect_values(tl_run(p, 0), 0, 6, (double[]){0.25, 0.5, -1, 0.75, 0, 2});
	dalic_pipeline_destroy(p);
}

Test(ops_coord_flip, per_sample_flip_and_center)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "flip");
	tl_source(p, "cx");
	dalic_op_t *op = ops_coord_flip_op(p);
	ASSERT_OK(dalic_op_set_arg_input(op, "flip_x", "flip"));
	ASSERT_OK(dalic_op_set_arg_input(op, "center_x", "cx"));
	tl_feed(p, "flip", DALIC_INT32, 0, 2, (int64_t[]){0}, (int32_t[]){0, 1}, NULL);
	tl_feed(p, "cx", DALIC_FLOAT, 0, 2, (int64_t[]){0}, (float[]){7, 2}, NULL);
	const float pts[4] = {1, 2, 3, 4}; /* two samples of [1, 2] */
	tl_feed(p, "pts", DALIC_FLOAT, 2, 2, (int64_t[]){1, 2, 1, 2}, pts, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_values(out, 0, 2, (double[]){1, 2});
	tl_expect_values(out, 1, 2, (double[]){1, 4});
	dalic_pipeline_destroy(p);
}

Test(ops_coord_flip, errors)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_coord_flip_op(p);
	ASSERT_OK(dalic_op_set_string(op, "layout", "xy"));
	tl_feed(p, "pts", DALIC_FLOAT, 2, 1, (int64_t[]){2, 3}, ops_coord_flip_pts, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Dimension \"z\" not found in the layout");
	EXPECT_ERROR_HAS("'cf'");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_coord_flip_op(p);
	tl_feed(p, "pts", DALIC_UINT8, 2, 1, (int64_t[]){1, 2}, (uint8_t[]){1, 2}, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Input is expected to be float");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_coord_flip_op(p);
	tl_feed(p, "pts", DALIC_FLOAT, 2, 1, (int64_t[]){1, 4}, (float[]){1, 2, 3, 4}, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Unexpected number of dimensions 4");
	dalic_pipeline_destroy(p);
}
