/* coord_transform: M·p + T on points computed by hand (a rotation by 90°, a scale by 2, a
 * projection), the fused MT, per-sample argument inputs, integer outputs rounded half away
 * from zero and saturated, empty samples, and DALI's argument errors. */
#include "tests/testlib.h"

TestSuite(ops_coord_transform, .timeout = 20);

static dalic_op_t *ops_coord_transform_op(dalic_pipeline_t *p)
{
	tl_source(p, "pts");
	dalic_op_t *op = tl_op(p, "coord_transform");
	ASSERT_OK(dalic_op_set_name(op, "ct"));
	tl_input(op, "pts");
	tl_output(p, op);
	return op;
}

static const float ops_coord_transform_pts[6] = {1, 2, 3, 4, -5, 6}; /* [3, 2] */

Test(ops_coord_transform, rotation_by_90_and_translation)
{
	/* (x, y) -> (-y, x) + (10, 20) */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_coord_transform_op(p);
	ASSERT_OK(dalic_op_set_floats(op, "M", 4, (double[]){0, -1, 1, 0}));
	ASSERT_OK(dalic_op_set_floats(op, "T", 2, (double[]){10, 20}));
	tl_feed(p, "pts", DALIC_FLOAT, 2, 1, (int64_t[]){3, 2}, ops_coord_transform_pts, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	tl_expect_shape(out, 0, 2, (int64_t[]){3, 2});
	tl_expect_values(out, 0, 6, (double[]){8, 21, 6, 23, 4, 15});
	dalic_pipeline_destroy(p);
}

Test(ops_coord_transform, scalar_matrix_projection_and_fused)
{
	/* M = 2 (diagonal), T = 1 for every component */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_coord_transform_op(p);
	ASSERT_OK(dalic_op_set_floats(op, "M", 1, (double[]){2}));
	ASSERT_OK(dalic_op_set_floats(op, "T", 1, (double[]){1}));
	tl_feed(p, "pts", DALIC_FLOAT, 2, 1, (int64_t[]){3, 2}, ops_coord_transform_pts, NULL);
	tl_expect_values(tl_run(p, 0), 0, 6, (double[]){3, 5, 7, 9, -9, 13});
	dalic_pipeline_destroy(p);

	/* a 1x2 matrix projects onto x + y: one component */
	p = tl_pipeline(1);
	op = ops_coord_transform_op(p);
	ASSERT_OK(dalic_op_set_floats(op, "M", 2, (double[]){1, 1}));
	tl_feed(p, "pts", DALIC_FLOAT, 2, 1, (int64_t[]){3, 2}, ops_coord_transform_pts, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 2, (int64_t[]){3, 1});
	tl_expect_values(out, 0, 3, (double[]){3, 7, 1});
	dalic_pipeline_destroy(p);

	/* MT = [[1, 0, 5], [0, -1, 0]] */
	p = tl_pipeline(1);
	op = ops_coord_transform_op(p);
	ASSERT_OK(dalic_op_set_floats(op, "MT", 6, (double[]){1, 0, 5, 0, -1, 0}));
	tl_feed(p, "pts", DALIC_FLOAT, 2, 1, (int64_t[]){3, 2}, ops_coord_transform_pts, NULL);
	tl_expect_values(tl_run(p, 0), 0, 6, (double[]){6, -2, 8, -4, 0, -6});
	dalic_pipeline_destroy(p);
}

Test(ops_coord_transform, integer_output_rounds_and_saturates)
{
	/* uint8: 0.5 p - 1: 10 -> 4, 3 -> 0.5 -> 1 (half away from zero), 1 -> -0.5 -> 0,
	 * and 2 p + 10: 250 -> 510 -> 255 */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_coord_transform_op(p);
	ASSERT_OK(dalic_op_set_floats(op, "M", 4, (double[]){0.5, 0, 0, 2}));
	ASSERT_OK(dalic_op_set_floats(op, "T", 2, (double[]){-1, 10}));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_UINT8));
	const uint8_t pts[4] = {10, 250, 3, 1};
	tl_feed(p, "pts", DALIC_UINT8, 2, 1, (int64_t[]){2, 2}, pts, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_UINT8);
	tl_expect_values(out, 0, 4, (double[]){4, 255, 1, 12});
	dalic_pipeline_destroy(p);
}

Test(ops_coord_transform, per_sample_matrices_and_empty_samples)
{
	/* sample 0: M = [[2, 0], [0, 3]]; sample 1 (no points) */
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "m");
	dalic_op_t *op = ops_coord_transform_op(p);
	ASSERT_OK(dalic_op_set_arg_input(op, "M", "m"));
	const float m[8] = {2, 0, 0, 3, 1, 0, 0, 1};
	tl_feed(p, "m", DALIC_FLOAT, 2, 2, (int64_t[]){2, 2, 2, 2}, m, NULL);
	tl_feed(p, "pts", DALIC_FLOAT, 2, 2, (int64_t[]){3, 2, 0, 2}, ops_coord_transform_pts,
	        NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_values(out, 0, 6, (double[]){2, 6, 6, 12, -10, 18});
	tl_expect_shape(out, 1, 2, (int64_t[]){0, 2});
	dalic_pipeline_destroy(p);
}

Test(ops_coord_transform, argument_errors)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_coord_transform_op(p);
	ASSERT_OK(dalic_op_set_floats(op, "MT", 1, (double[]){1}));
	ASSERT_OK(dalic_op_set_floats(op, "T", 1, (double[]){1}));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("cannot be used together");
	EXPECT_ERROR_HAS("'ct'");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_coord_transform_op(p);
	ASSERT_OK(dalic_op_set_floats(op, "M", 3, (double[]){1, 2, 3}));
	tl_feed(p, "pts", DALIC_FLOAT, 2, 1, (int64_t[]){3, 2}, ops_coord_transform_pts, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Cannot form a matrix with 3 elements and 2");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_coord_transform_op(p);
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_INT32));
	tl_feed(p, "pts", DALIC_FLOAT, 2, 1, (int64_t[]){3, 2}, ops_coord_transform_pts, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "must be the same as input type");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_coord_transform_op(p);
	tl_feed(p, "pts", DALIC_FLOAT64, 2, 1, (int64_t[]){1, 2}, (double[]){1, 2}, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Unsupported input type: double");
	dalic_pipeline_destroy(p);
}
