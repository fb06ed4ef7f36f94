/* erase: regions over default, named and indexed axes, several regions, normalized and
 * centered coordinates truncated in float32, clipping, per-channel and per-sample fill,
 * DALI's errors. Expected values are worked out by hand. */
#include "tests/testlib.h"

TestSuite(ops_erase, .timeout = 20);

static dalic_op_t *ops_erase_pipeline(dalic_pipeline_t *p)
{
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "erase");
	ASSERT_OK(dalic_op_set_name(op, "er"));
	tl_input(op, "in");
	tl_output(p, op);
	return op;
}

/* HWC (3, 4, 2), value 1 + index */
static void ops_erase_feed_hwc(dalic_pipeline_t *p, const char *layout)
{
	uint8_t v[24];
	for (int k = 0; k < 24; k++)
		v[k] = (uint8_t)(k + 1);
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (int64_t[]){3, 4, 2}, v, layout);
}

/* The 24 values of the fed sample with pixels (h, w) in `erased` (0-terminated list of
 * h * 4 + w + 1) set to fill[c]. */
static void ops_erase_expect(const dalic_batch_t *out, const int *erased, const double *fill)
{
	double want[24];
	for (int k = 0; k < 24; k++)
		want[k] = k + 1;
	for (const int *e = erased; *e; e++)
		for (int c = 0; c < 2; c++)
			want[(*e - 1) * 2 + c] = fill[c];
	tl_expect_shape(out, 0, 3, (int64_t[]){3, 4, 2});
	tl_expect_values(out, 0, 24, want);
}

Test(ops_erase, every_dim_but_channels_by_default)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_erase_pipeline(p);
	ASSERT_OK(dalic_op_set_floats(op, "anchor", 2, (double[]){1, 1}));
	ASSERT_OK(dalic_op_set_floats(op, "shape", 2, (double[]){2, 2}));
	ops_erase_feed_hwc(p, "HWC");
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_str_eq(dalic_batch_layout(out), "HWC");
	/* rows 1..2, cols 1..2 */
	ops_erase_expect(out, (int[]){6, 7, 10, 11, 0}, (double[]){0, 0});
	dalic_pipeline_destroy(p);
}

Test(ops_erase, two_regions_by_name_with_channel_fill)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_erase_pipeline(p);
	ASSERT_OK(dalic_op_set_string(op, "axis_names", "W"));
	ASSERT_OK(dalic_op_set_floats(op, "anchor", 2, (double[]){0, 3}));
	ASSERT_OK(dalic_op_set_floats(op, "shape", 2, (double[]){1, 5}));
	ASSERT_OK(dalic_op_set_floats(op, "fill_value", 2, (double[]){100, 300.7}));
	ops_erase_feed_hwc(p, "HWC");
	/* columns 0 and 3 (the second region clipped at 4); 300.7 in uint8 is 44 */
	ops_erase_expect(tl_run(p, 0), (int[]){1, 4, 5, 8, 9, 12, 0}, (double[]){100, 44});
	dalic_pipeline_destroy(p);
}

Test(ops_erase, normalized_centered_truncated)
{
	/* H: 0.5 * 3 = 1.5, shape 0.34 * 3 = 1.02, centered 1.5 - 0.51 = 0.99 -> row 0, end
	 * trunc(2.01) = 2: rows 0..1; W (axis -2 by index): anchor 0.5 * 4 = 2, shape 0.5 * 4 = 2,
	 * centered 1 -> cols 1..2 */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_erase_pipeline(p);
	ASSERT_OK(dalic_op_set_ints(op, "axes", 2, (int64_t[]){0, -2}));
	ASSERT_OK(dalic_op_set_floats(op, "anchor", 2, (double[]){0.5, 0.5}));
	ASSERT_OK(dalic_op_set_floats(op, "shape", 2, (double[]){0.34, 0.5}));
	ASSERT_OK(dalic_op_set_bool(op, "normalized", true));
	ASSERT_OK(dalic_op_set_bool(op, "centered_anchor", true));
	ops_erase_feed_hwc(p, NULL);
	ops_erase_expect(tl_run(p, 0), (int[]){2, 3, 6, 7, 0}, (double[]){0, 0});
	dalic_pipeline_destroy(p);
}

Test(ops_erase, per_sample_anchor_and_fill)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "anchor");
	tl_source(p, "fill");
	dalic_op_t *op = ops_erase_pipeline(p);
	ASSERT_OK(dalic_op_set_arg_input(op, "anchor", "anchor"));
	ASSERT_OK(dalic_op_set_arg_input(op, "fill_value", "fill"));
	ASSERT_OK(dalic_op_set_floats(op, "shape", 1, (double[]){2}));
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){0}));
	const int16_t v[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
	tl_feed(p, "in", DALIC_INT16, 1, 2, (int64_t[]){5, 5}, v, NULL);
	tl_feed(p, "anchor", DALIC_FLOAT, 1, 2, (int64_t[]){1, 1}, (float[]){0, 3.9f}, NULL);
	tl_feed(p, "fill", DALIC_FLOAT, 1, 2, (int64_t[]){1, 1}, (float[]){-1.5f, 9}, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	/* sample 0: [0, 2) with trunc(-1.5) = -1; sample 1: [3, trunc(5.9) = 5) with 9 */
	tl_expect_values(out, 0, 5, (double[]){-1, -1, 3, 4, 5});
	tl_expect_values(out, 1, 5, (double[]){6, 7, 8, 9, 9});
	dalic_pipeline_destroy(p);
}

Test(ops_erase, errors)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_erase_pipeline(p);
	ASSERT_OK(dalic_op_set_floats(op, "anchor", 2, (double[]){1, 1}));
	ASSERT_OK(dalic_op_set_floats(op, "shape", 2, (double[]){1, 1}));
	ASSERT_OK(dalic_op_set_floats(op, "fill_value", 3, (double[]){1, 2, 3}));
	ops_erase_feed_hwc(p, "HWC");
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'er'");
	EXPECT_HAS(msg, "Multi-channel fill value does not match the number of channels");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_erase_pipeline(p);
	ASSERT_OK(dalic_op_set_floats(op, "fill_value", 2, (double[]){1, 2}));
	ops_erase_feed_hwc(p, "HWX");
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "the input layout must have a 'C' dimension");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_erase_pipeline(p);
	ASSERT_OK(dalic_op_set_floats(op, "anchor", 3, (double[]){1, 1, 1}));
	ASSERT_OK(dalic_op_set_floats(op, "shape", 3, (double[]){1, 1, 1}));
	ops_erase_feed_hwc(p, "HWC");
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "not a multiple of the 2 axes");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_erase_pipeline(p);
	tl_feed(p, "in", DALIC_FLOAT64, 1, 1, (int64_t[]){1}, (double[]){1}, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Unsupported data type: double");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_erase_pipeline(p);
	ASSERT_OK(dalic_op_set_bool(op, "normalized", true));
	ASSERT_OK(dalic_op_set_bool(op, "normalized_anchor", false));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("`normalized` argument is incompatible");
	dalic_pipeline_destroy(p);
}

Test(ops_erase, hostile_coordinates)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_erase_pipeline(p);
	ASSERT_OK(dalic_op_set_floats(op, "anchor", 2, (double[]){1e30, NAN}));
	ASSERT_OK(dalic_op_set_floats(op, "shape", 2, (double[]){1, 1}));
	ops_erase_feed_hwc(p, "HWC");
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "region 0: coordinates out of range");
	dalic_pipeline_destroy(p);
}
