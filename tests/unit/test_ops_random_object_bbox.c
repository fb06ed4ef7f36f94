/*
 * segmentation.random_object_bbox on a 4x5 label map whose answers do not depend on the draws:
 * one blob per chosen class (in every format, with the class output), the k largest when one
 * box is largest (ties go to the blob met first in raster order), thresholds nobody meets and
 * foreground_prob 0 (the whole map, the background class), classes including 0 (the background
 * moves to -1 and the zeros form one blob), ignore_class's blobs, bool, int16 and 3-D maps,
 * and the argument and type errors.
 */
#include "tests/testlib.h"

TestSuite(ops_random_object_bbox, .timeout = 30);

/* Blobs: the 1s at (0,1) (0,2) (1,1); the 2s at (1,4) (2,3) (2,4); one 3 at (3,0). */
static const uint8_t ops_robb_map[20] = {0, 1, 1, 0, 0, /**/ 0, 1, 0, 0, 2, /**/
                                         0, 0, 0, 2, 2, /**/ 3, 0, 0, 0, 0};

/* The operator on one sample (`type`, `ndim`, `shape`, data) with every output a pipeline
 * output; `setup` sets its arguments. Returns the pipeline after one run. */
static dalic_pipeline_t *ops_robb_run(void (*setup)(dalic_op_t *), dalic_dtype_t type, int ndim,
                                      const int64_t *shape, const void *data)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "segmentation.random_object_bbox");
	ASSERT_OK(dalic_op_set_int(op, "seed", 5));
	tl_input(op, "in");
	setup(op);
	for (int k = 0; k < dalic_op_num_outputs(op); k++)
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, k), NULL));
	tl_feed(p, "in", type, ndim, 1, shape, data, NULL);
	tl_run(p, 0);
	return p;
}

static dalic_pipeline_t *ops_robb_map_run(void (*setup)(dalic_op_t *))
{
	return ops_robb_run(setup, DALIC_UINT8, 2, (const int64_t[]){4, 5}, ops_robb_map);
}

static void ops_robb_expect(dalic_pipeline_t *p, int k, int n, const double *want)
{
	const dalic_batch_t *b = dalic_pipeline_output(p, k);
	cr_assert_not_null(b);
	cr_expect_eq(dalic_batch_dtype(b), DALIC_INT32);
	tl_expect_values(b, 0, n, want);
}

static void ops_robb_class_2(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "classes", 1, (const int64_t[]){2}));
	ASSERT_OK(dalic_op_set_bool(op, "output_class", true));
}

static void ops_robb_class_2_start_end(dalic_op_t *op)
{
	ops_robb_class_2(op);
	ASSERT_OK(dalic_op_set_string(op, "format", "start_end"));
}

static void ops_robb_class_2_box(dalic_op_t *op)
{
	ops_robb_class_2(op);
	ASSERT_OK(dalic_op_set_string(op, "format", "box"));
}

Test(ops_random_object_bbox, one_blob_in_every_format)
{
	dalic_pipeline_t *p = ops_robb_map_run(ops_robb_class_2);
	ops_robb_expect(p, 0, 2, (const double[]){1, 3}); /* anchor */
	ops_robb_expect(p, 1, 2, (const double[]){2, 2}); /* shape */
	ops_robb_expect(p, 2, 1, (const double[]){2});    /* class */
	tl_expect_shape(dalic_pipeline_output(p, 2), 0, 0, NULL);
	dalic_pipeline_destroy(p);
	p = ops_robb_map_run(ops_robb_class_2_start_end);
	ops_robb_expect(p, 0, 2, (const double[]){1, 3});
	ops_robb_expect(p, 1, 2, (const double[]){3, 5});
	dalic_pipeline_destroy(p);
	p = ops_robb_map_run(ops_robb_class_2_box);
	cr_expect_eq(dalic_pipeline_num_outputs(p), 2);
	ops_robb_expect(p, 0, 4, (const double[]){1, 3, 3, 5});
	ops_robb_expect(p, 1, 1, (const double[]){2});
	dalic_pipeline_destroy(p);
}

static void ops_robb_largest(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_bool(op, "ignore_class", true));
	ASSERT_OK(dalic_op_set_int(op, "k_largest", 1));
	ASSERT_OK(dalic_op_set_string(op, "format", "box"));
}

Test(ops_random_object_bbox, k_largest_ties_go_to_the_first_blob)
{
	/* the 1s and the 2s both have 2x2 boxes; the 1s start first (element 1, the 2s at 9) */
	dalic_pipeline_t *p = ops_robb_map_run(ops_robb_largest);
	ops_robb_expect(p, 0, 4, (const double[]){0, 1, 2, 3});
	dalic_pipeline_destroy(p);
}

static void ops_robb_threshold(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "threshold", 2, (const int64_t[]){3, 1}));
	ASSERT_OK(dalic_op_set_bool(op, "output_class", true));
}

static void ops_robb_background_only(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "foreground_prob", 0));
	ASSERT_OK(dalic_op_set_bool(op, "output_class", true));
	ASSERT_OK(dalic_op_set_int(op, "background", 7));
}

Test(ops_random_object_bbox, no_box_gives_the_whole_map)
{
	/* no blob is 3 rows high: every class is tried and dropped */
	dalic_pipeline_t *p = ops_robb_map_run(ops_robb_threshold);
	ops_robb_expect(p, 0, 2, (const double[]){0, 0});
	ops_robb_expect(p, 1, 2, (const double[]){4, 5});
	ops_robb_expect(p, 2, 1, (const double[]){0});
	dalic_pipeline_destroy(p);
	p = ops_robb_map_run(ops_robb_background_only);
	ops_robb_expect(p, 0, 2, (const double[]){0, 0});
	ops_robb_expect(p, 1, 2, (const double[]){4, 5});
	ops_robb_expect(p, 2, 1, (const double[]){7});
	dalic_pipeline_destroy(p);
}

static void ops_robb_zero_class(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "classes", 1, (const int64_t[]){0}));
	ASSERT_OK(dalic_op_set_bool(op, "output_class", true));
	ASSERT_OK(dalic_op_set_string(op, "format", "box"));
}

Test(ops_random_object_bbox, class_zero_moves_the_background)
{
	/* the zeros are one blob (they touch along rows and columns) spanning the map */
	dalic_pipeline_t *p = ops_robb_map_run(ops_robb_zero_class);
	ops_robb_expect(p, 0, 4, (const double[]){0, 0, 4, 5});
	ops_robb_expect(p, 1, 1, (const double[]){0});
	dalic_pipeline_destroy(p);
}

static void ops_robb_box(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_string(op, "format", "box"));
}

Test(ops_random_object_bbox, bool_int16_and_3d_maps)
{
	/* one diagonal pair of trues: not neighbours along an axis, so two 1x1 blobs; with
	 * k_largest unset either may come, both are 1x1 */
	const bool diag[4] = {true, false, false, true};
	dalic_pipeline_t *p = ops_robb_run(ops_robb_box, DALIC_BOOL, 2, (const int64_t[]){2, 2},
	                                   diag);
	const dalic_batch_t *b = dalic_pipeline_output(p, 0);
	double y = tl_at(b, 0, 0), x = tl_at(b, 0, 1);
	cr_expect(y == x && (y == 0 || y == 1), "box at (%g, %g)", y, x);
	cr_expect_eq(tl_at(b, 0, 2), y + 1);
	cr_expect_eq(tl_at(b, 0, 3), x + 1);
	dalic_pipeline_destroy(p);
	/* int16: a negative label is an object like any other */
	const int16_t row[6] = {0, -4, -4, -4, 0, 0};
	p = ops_robb_run(ops_robb_box, DALIC_INT16, 1, (const int64_t[]){6}, row);
	ops_robb_expect(p, 0, 2, (const double[]){1, 4});
	dalic_pipeline_destroy(p);
	/* 2x2x3: the 5s join across the outer axis */
	const uint8_t vol[12] = {0, 5, 0, 0, 0, 0, /**/ 0, 5, 5, 0, 0, 0};
	p = ops_robb_run(ops_robb_box, DALIC_UINT8, 3, (const int64_t[]){2, 2, 3}, vol);
	ops_robb_expect(p, 0, 6, (const double[]){0, 0, 1, 2, 1, 3});
	dalic_pipeline_destroy(p);
}

Test(ops_random_object_bbox, errors)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "segmentation.random_object_bbox");
	tl_input(op, "in");
	ASSERT_OK(dalic_op_set_ints(op, "classes", 2, (const int64_t[]){1, 2}));
	ASSERT_OK(dalic_op_set_int(op, "background", 2));
	for (int k = 0; k < dalic_op_num_outputs(op); k++)
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, k), NULL));
	tl_feed(p, "in", DALIC_UINT8, 2, 1, (const int64_t[]){4, 5}, ops_robb_map, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Class label 2 coincides with background label");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	tl_source(p, "in");
	op = tl_op(p, "segmentation.random_object_bbox");
	tl_input(op, "in");
	for (int k = 0; k < dalic_op_num_outputs(op); k++)
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, k), NULL));
	const float f[4] = {0, 1, 1, 0};
	tl_feed(p, "in", DALIC_FLOAT, 2, 1, (const int64_t[]){2, 2}, f, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Unsupported input type");
	dalic_pipeline_destroy(p);
}
