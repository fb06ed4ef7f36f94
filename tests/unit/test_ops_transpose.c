/* transpose: permuted shapes, values and layouts, default permutation, argument errors.
 * Expected values are computed by hand. */
#include "tests/testlib.h"

TestSuite(ops_transpose, .timeout = 20);

static dalic_op_t *ops_transpose_transpose(dalic_pipeline_t *p, int nperm, const int64_t *perm)
{
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "transpose");
	ASSERT_OK(dalic_op_set_name(op, "tr"));
	if (nperm)
		ASSERT_OK(dalic_op_set_ints(op, "perm", nperm, perm));
	tl_input(op, "in");
	tl_output(p, op);
	return op;
}

Test(ops_transpose, hwc_to_chw)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_transpose_transpose(p, 3, (int64_t[]){2, 0, 1});
	/* HWC (2, 3, 2): value = 100*h + 10*w + c */
	int32_t in[12];
	for (int h = 0; h < 2; h++)
		for (int w = 0; w < 3; w++)
			for (int c = 0; c < 2; c++)
				in[(h * 3 + w) * 2 + c] = 100 * h + 10 * w + c;
	tl_feed(p, "in", DALIC_INT32, 3, 1, (int64_t[]){2, 3, 2}, in, "HWC");
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 3, (int64_t[]){2, 2, 3});
	cr_expect_str_eq(dalic_batch_layout(out), "CHW");
	tl_expect_values(out, 0, 12,
	                 (double[]){0, 10, 20, 100, 110, 120, 1, 11, 21, 101, 111, 121});
	dalic_pipeline_destroy(p);
}

Test(ops_transpose, default_permutation_reverses_dims)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	ops_transpose_transpose(p, 0, NULL);
	const double in[] = {1, 2, 3, 4, 5, 6, 7, 8};
	/* sample 0: (2, 3); sample 1: (1, 2) */
	tl_feed(p, "in", DALIC_FLOAT64, 2, 2, (int64_t[]){2, 3, 1, 2}, in, "HW");
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_str_eq(dalic_batch_layout(out), "WH");
	tl_expect_shape(out, 0, 2, (int64_t[]){3, 2});
	tl_expect_values(out, 0, 6, (double[]){1, 4, 2, 5, 3, 6});
	tl_expect_shape(out, 1, 2, (int64_t[]){2, 1});
	tl_expect_values(out, 1, 2, (double[]){7, 8});
	dalic_pipeline_destroy(p);
}

Test(ops_transpose, four_dims_with_unit_extents)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_transpose_transpose(p, 4, (int64_t[]){3, 1, 0, 2});
	/* (2, 1, 3, 2) -> (2, 1, 2, 3); out[a][0][b][c] = in[b][0][c][a] */
	uint16_t in[12];
	for (int k = 0; k < 12; k++)
		in[k] = (uint16_t)k;
	tl_feed(p, "in", DALIC_UINT16, 4, 1, (int64_t[]){2, 1, 3, 2}, in, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 4, (int64_t[]){2, 1, 2, 3});
	cr_expect_str_eq(dalic_batch_layout(out), "");
	double want[12];
	for (int a = 0; a < 2; a++)
		for (int b = 0; b < 2; b++)
			for (int c = 0; c < 3; c++)
				want[(a * 2 + b) * 3 + c] = (b * 3 + c) * 2 + a;
	tl_expect_values(out, 0, 12, want);
	dalic_pipeline_destroy(p);
}

Test(ops_transpose, layout_options)
{
	const uint8_t in[6] = {1, 2, 3, 4, 5, 6};
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_transpose_transpose(p, 2, (int64_t[]){1, 0});
	ASSERT_OK(dalic_op_set_bool(op, "transpose_layout", false));
	tl_feed(p, "in", DALIC_UINT8, 2, 1, (int64_t[]){2, 3}, in, "HW");
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_str_eq(dalic_batch_layout(out), "HW");
	tl_expect_values(out, 0, 6, (double[]){1, 4, 2, 5, 3, 6});
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_transpose_transpose(p, 2, (int64_t[]){1, 0});
	ASSERT_OK(dalic_op_set_string(op, "output_layout", "XY"));
	tl_feed(p, "in", DALIC_UINT8, 2, 1, (int64_t[]){2, 3}, in, "HW");
	cr_expect_str_eq(dalic_batch_layout(tl_run(p, 0)), "XY");
	dalic_pipeline_destroy(p);
}

Test(ops_transpose, invalid_permutations_fail)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_transpose_transpose(p, 3, (int64_t[]){0, 0, 1});
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EINVAL);
	EXPECT_ERROR_HAS("'tr'");
	EXPECT_ERROR_HAS("perm");
	EXPECT_ERROR_HAS("permutation");
	dalic_pipeline_destroy(p);

	/* a valid permutation of the wrong length fails when the data arrives */
	p = tl_pipeline(1);
	ops_transpose_transpose(p, 3, (int64_t[]){2, 0, 1});
	const float in[4] = {0};
	tl_feed(p, "in", DALIC_FLOAT, 2, 1, (int64_t[]){2, 2}, in, NULL);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'tr'");
	EXPECT_HAS(msg, "dimensionality");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	dalic_op_t *op = ops_transpose_transpose(p, 0, NULL);
	EXPECT_STATUS(dalic_op_set_floats(op, "perm", 2, (double[]){1.5, 0}), DALIC_EARG_TYPE);
	EXPECT_ERROR_HAS("perm");
	dalic_pipeline_destroy(p);
}
