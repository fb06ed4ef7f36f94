/* segmentation.select_masks: DALI's two documented examples, vertices of any type and width,
 * a mask with two polygons (the last stands), and the input errors in DALI's words. */
#include "tests/testlib.h"

TestSuite(ops_select_masks, .timeout = 20);

/* select_masks(ids, polygons, vertices) with both outputs. */
static dalic_op_t *ops_select_masks_op(dalic_pipeline_t *p)
{
	static const char *const srcs[] = {"ids", "polygons", "vertices"};
	for (int k = 0; k < 3; k++)
		tl_source(p, srcs[k]);
	dalic_op_t *op = tl_op(p, "segmentation.select_masks");
	ASSERT_OK(dalic_op_set_name(op, "select"));
	for (int k = 0; k < 3; k++)
		tl_input(op, srcs[k]);
	for (int k = 0; k < 2; k++)
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, k), NULL));
	return op;
}

/* The documented polygons [[0, 0, 3], [1, 3, 7], [2, 7, 10]]; vertex k is (k, 10 k). */
static void ops_select_masks_feed(dalic_pipeline_t *p, const int32_t *ids, int64_t m)
{
	static const int32_t poly[9] = {0, 0, 3, 1, 3, 7, 2, 7, 10};
	float vert[20];
	for (int k = 0; k < 10; k++) {
		vert[2 * k] = (float)k;
		vert[2 * k + 1] = 10.0f * (float)k;
	}
	tl_feed(p, "ids", DALIC_INT32, 1, 1, &m, ids, NULL);
	tl_feed(p, "polygons", DALIC_INT32, 2, 1, (int64_t[]){3, 3}, poly, NULL);
	tl_feed(p, "vertices", DALIC_FLOAT, 2, 1, (int64_t[]){10, 2}, vert, NULL);
}

Test(ops_select_masks, documented_example_one_mask)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_select_masks_op(p);
	ops_select_masks_feed(p, (int32_t[]){1}, 1);
	const dalic_batch_t *poly = tl_run(p, 0), *vert = dalic_pipeline_output(p, 1);
	tl_expect_shape(poly, 0, 2, (int64_t[]){1, 3});
	tl_expect_values(poly, 0, 3, (double[]){1, 0, 4});
	cr_assert_eq(dalic_batch_dtype(vert), DALIC_FLOAT);
	tl_expect_shape(vert, 0, 2, (int64_t[]){4, 2});
	tl_expect_values(vert, 0, 8, (double[]){3, 30, 4, 40, 5, 50, 6, 60});
	dalic_pipeline_destroy(p);
}

Test(ops_select_masks, documented_example_reindexed)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_select_masks_op(p);
	ASSERT_OK(dalic_op_set_bool(op, "reindex_masks", true));
	ops_select_masks_feed(p, (int32_t[]){2, 0}, 2);
	const dalic_batch_t *poly = tl_run(p, 0), *vert = dalic_pipeline_output(p, 1);
	tl_expect_values(poly, 0, 6, (double[]){0, 0, 3, 1, 3, 6});
	tl_expect_values(vert, 0, 12, (double[]){7, 70, 8, 80, 9, 90, 0, 0, 1, 10, 2, 20});
	dalic_pipeline_destroy(p);
}

Test(ops_select_masks, int16_vertices_and_a_mask_with_two_polygons)
{
	/* mask 4 has polygons [0, 2) and [5, 6): the second stands; mask 9 is empty */
	static const int32_t poly[12] = {4, 0, 2, 7, 2, 5, 4, 5, 6, 9, 6, 6};
	int16_t vert[18];
	for (int k = 0; k < 18; k++)
		vert[k] = (int16_t)(k - 4);
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_select_masks_op(p);
	tl_feed(p, "ids", DALIC_INT32, 1, 1, (int64_t[]){3}, (int32_t[]){9, 4, 7}, NULL);
	tl_feed(p, "polygons", DALIC_INT32, 2, 1, (int64_t[]){4, 3}, poly, NULL);
	tl_feed(p, "vertices", DALIC_INT16, 2, 1, (int64_t[]){6, 3}, vert, NULL);
	const dalic_batch_t *po = tl_run(p, 0), *vo = dalic_pipeline_output(p, 1);
	tl_expect_values(po, 0, 9, (double[]){9, 0, 0, 4, 0, 1, 7, 1, 4});
	cr_assert_eq(dalic_batch_dtype(vo), DALIC_INT16);
	tl_expect_shape(vo, 0, 2, (int64_t[]){4, 3});
	tl_expect_values(vo, 0, 12, (double[]){11, 12, 13, 2, 3, 4, 5, 6, 7, 8, 9, 10});
	dalic_pipeline_destroy(p);
}

Test(ops_select_masks, errors)
{
	static const struct {
		int32_t ids[3];
		int64_t m;
		int32_t poly[6];
		const char *msg;
	} cases[] = {
	    {{0, 1, 1}, 3, {0, 0, 3, 1, 3, 6}, "mask_ids should not have duplicated values. Got 1 "
					       "repeated."},
	    {{1}, 1, {0, 0, 3, 1, 3, 9}, "Vertex index range for mask id 1 [3, 9) is out of "
					 "bounds. Expected to be within the range of available "
					 "vertices [0, 6)."},
	    {{1}, 1, {0, 0, 3, 1, 5, 3}, "Vertex start index can't be after end index. Got [5, 3)"},
	    {{0, 4}, 2, {0, 0, 3, 1, 3, 6}, "Selected mask_id 4 is not present in the input."},
	};
	float vert[12] = {0};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		dalic_pipeline_t *p = tl_pipeline(1);
		ops_select_masks_op(p);
		tl_feed(p, "ids", DALIC_INT32, 1, 1, &cases[c].m, cases[c].ids, NULL);
		tl_feed(p, "polygons", DALIC_INT32, 2, 1, (int64_t[]){2, 3}, cases[c].poly, NULL);
		tl_feed(p, "vertices", DALIC_FLOAT, 2, 1, (int64_t[]){6, 2}, vert, NULL);
		const char *msg = tl_run_fails(p, DALIC_EOP);
		EXPECT_HAS(msg, "'select'");
		EXPECT_HAS(msg, cases[c].msg);
		dalic_pipeline_destroy(p);
	}
	/* polygons of 2 columns; mask ids of int64 */
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_select_masks_op(p);
	tl_feed(p, "ids", DALIC_INT32, 1, 1, (int64_t[]){1}, (int32_t[]){0}, NULL);
	tl_feed(p, "polygons", DALIC_INT32, 2, 1, (int64_t[]){2, 2}, (int32_t[]){0, 3, 1, 6}, NULL);
	tl_feed(p, "vertices", DALIC_FLOAT, 2, 1, (int64_t[]){6, 2}, vert, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "with 3 columns: ``mask_id, start_idx, end_idx``. "
					       "Got 2 columns.");
	dalic_pipeline_destroy(p);
	p = tl_pipeline(1);
	ops_select_masks_op(p);
	tl_feed(p, "ids", DALIC_INT64, 1, 1, (int64_t[]){1}, (int64_t[]){0}, NULL);
	tl_feed(p, "polygons", DALIC_INT32, 2, 1, (int64_t[]){1, 3}, (int32_t[]){0, 0, 3}, NULL);
	tl_feed(p, "vertices", DALIC_FLOAT, 2, 1, (int64_t[]){6, 2}, vert, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "``mask_ids`` input is expected to be int32");
	dalic_pipeline_destroy(p);
}
