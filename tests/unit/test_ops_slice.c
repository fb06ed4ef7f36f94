/* slice: windows from named arguments (absolute, relative, per sample) and from anchor/shape
 * inputs, every out_of_bounds_policy, output conversion and fill casting, DALI's errors.
 * Expected values are worked out by hand in the comments. */
#include "tests/testlib.h"

TestSuite(ops_slice, .timeout = 20);

/* A pipeline in -> slice (named "sl") -> output; inputs "anchor" and "shape" when asked. */
static dalic_op_t *ops_slice_pipeline(dalic_pipeline_t *p, bool positional)
{
	tl_source(p, "in");
	if (positional) {
		tl_source(p, "anchor");
		tl_source(p, "shape");
	}
	dalic_op_t *op = tl_op(p, "slice");
	ASSERT_OK(dalic_op_set_name(op, "sl"));
	tl_input(op, "in");
	if (positional) {
		tl_input(op, "anchor");
		tl_input(op, "shape");
	}
	tl_output(p, op);
	return op;
}

/* 4 x 5 int16 matrix, element (r, c) = 10 * r + c. */
static void ops_slice_feed_matrix(dalic_pipeline_t *p, const char *layout)
{
	int16_t m[20];
	for (int k = 0; k < 20; k++)
		m[k] = (int16_t)(10 * (k / 5) + k % 5);
	tl_feed(p, "in", DALIC_INT16, 2, 1, (int64_t[]){4, 5}, m, layout);
}

Test(ops_slice, start_and_shape_by_axes)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_slice_pipeline(p, false);
	ASSERT_OK(dalic_op_set_ints(op, "axes", 2, (int64_t[]){0, 1}));
	ASSERT_OK(dalic_op_set_ints(op, "start", 2, (int64_t[]){1, 2}));
	ASSERT_OK(dalic_op_set_ints(op, "shape", 2, (int64_t[]){2, 3}));
	ops_slice_feed_matrix(p, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_INT16);
	tl_expect_shape(out, 0, 2, (int64_t[]){2, 3});
	tl_expect_values(out, 0, 6, (double[]){12, 13, 14, 22, 23, 24});
	dalic_pipeline_destroy(p);
}

Test(ops_slice, default_axis_names_are_WH)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_slice_pipeline(p, false);
	/* [W, H]: columns 3.., rows 1..2 */
	ASSERT_OK(dalic_op_set_ints(op, "start", 2, (int64_t[]){3, 1}));
	ASSERT_OK(dalic_op_set_ints(op, "end", 2, (int64_t[]){5, 3}));
	ops_slice_feed_matrix(p, "HW");
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_str_eq(dalic_batch_layout(out), "HW");
	tl_expect_shape(out, 0, 2, (int64_t[]){2, 2});
	tl_expect_values(out, 0, 4, (double[]){13, 14, 23, 24});
	dalic_pipeline_destroy(p);
}

Test(ops_slice, relative_coordinates_round_like_dali)
{
	/* 10 elements; rel_start 0.15f * 10 = 1.5000000596 -> 2; (0.15f + 0.3f) * 10 = 4.50000018
	 * -> 5: three elements from 2 */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_slice_pipeline(p, false);
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){-1}));
	ASSERT_OK(dalic_op_set_floats(op, "rel_start", 1, (double[]){0.15}));
	ASSERT_OK(dalic_op_set_floats(op, "rel_shape", 1, (double[]){0.3}));
	const float v[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
	tl_feed(p, "in", DALIC_FLOAT, 1, 1, (int64_t[]){10}, v, NULL);
	tl_expect_values(tl_run(p, 0), 0, 3, (double[]){2, 3, 4});
	dalic_pipeline_destroy(p);

	/* rel_end alone: 0.25 * 10 = 2.5 -> 3 */
	p = tl_pipeline(1);
	op = ops_slice_pipeline(p, false);
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){0}));
	ASSERT_OK(dalic_op_set_floats(op, "rel_end", 1, (double[]){0.25}));
	tl_feed(p, "in", DALIC_FLOAT, 1, 1, (int64_t[]){10}, v, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 1, (int64_t[]){3});
	tl_expect_values(out, 0, 3, (double[]){0, 1, 2});
	dalic_pipeline_destroy(p);
}

Test(ops_slice, positional_inputs)
{
	/* float, normalized: W anchor 0.2 * 5 = 1, end (0.2 + 0.4) * 5 = 3; H anchor 0.25 * 4 =
	 * 1, end (0.25 + 0.5) * 4 = 3 */
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_slice_pipeline(p, true);
	ops_slice_feed_matrix(p, "HW");
	tl_feed(p, "anchor", DALIC_FLOAT, 1, 1, (int64_t[]){2}, (float[]){0.2f, 0.25f}, NULL);
	tl_feed(p, "shape", DALIC_FLOAT, 1, 1, (int64_t[]){2}, (float[]){0.4f, 0.5f}, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 2, (int64_t[]){2, 2});
	tl_expect_values(out, 0, 4, (double[]){11, 12, 21, 22});
	dalic_pipeline_destroy(p);

	/* absolute floats: W anchor round(1.4) = 1, end round(3.6) = 4; H round(1.5) = 2, end
	 * round(4.1) = 4 */
	p = tl_pipeline(1);
	dalic_op_t *op = ops_slice_pipeline(p, true);
	ASSERT_OK(dalic_op_set_bool(op, "normalized_anchor", false));
	ASSERT_OK(dalic_op_set_bool(op, "normalized_shape", false));
	ops_slice_feed_matrix(p, "HW");
	tl_feed(p, "anchor", DALIC_FLOAT, 1, 1, (int64_t[]){2}, (float[]){1.4f, 1.5f}, NULL);
	tl_feed(p, "shape", DALIC_FLOAT, 1, 1, (int64_t[]){2}, (float[]){2.2f, 2.6f}, NULL);
	out = tl_run(p, 0);
	tl_expect_shape(out, 0, 2, (int64_t[]){2, 3});
	tl_expect_values(out, 0, 6, (double[]){21, 22, 23, 31, 32, 33});
	dalic_pipeline_destroy(p);

	/* integers are absolute whatever normalized_* say */
	p = tl_pipeline(1);
	ops_slice_pipeline(p, true);
	ops_slice_feed_matrix(p, "HW");
	tl_feed(p, "anchor", DALIC_INT64, 1, 1, (int64_t[]){2}, (int64_t[]){4, 0}, NULL);
	tl_feed(p, "shape", DALIC_INT64, 1, 1, (int64_t[]){2}, (int64_t[]){1, 2}, NULL);
	tl_expect_values(tl_run(p, 0), 0, 2, (double[]){4, 14});
	dalic_pipeline_destroy(p);
}

Test(ops_slice, per_sample_argument_inputs)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "st");
	dalic_op_t *op = ops_slice_pipeline(p, false);
	ASSERT_OK(dalic_op_set_arg_input(op, "start", "st"));
	ASSERT_OK(dalic_op_set_ints(op, "shape", 1, (int64_t[]){2}));
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){0}));
	const float v[12] = {0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15};
	tl_feed(p, "in", DALIC_FLOAT, 1, 2, (int64_t[]){6, 6}, v, NULL);
	tl_feed(p, "st", DALIC_INT32, 1, 2, (int64_t[]){1, 1}, (int32_t[]){1, 4}, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_values(out, 0, 2, (double[]){1, 2});
	tl_expect_values(out, 1, 2, (double[]){14, 15});
	dalic_pipeline_destroy(p);

	/* DALI reads start as int32: a float argument input is refused */
	p = tl_pipeline(1);
	tl_source(p, "st");
	op = ops_slice_pipeline(p, false);
	ASSERT_OK(dalic_op_set_arg_input(op, "start", "st"));
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){0}));
	tl_feed(p, "in", DALIC_FLOAT, 1, 1, (int64_t[]){6}, v, NULL);
	tl_feed(p, "st", DALIC_FLOAT, 1, 1, (int64_t[]){1}, (float[]){1}, NULL);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'sl'");
	EXPECT_HAS(msg, "argument input \"start\" must be int32, got float");
	dalic_pipeline_destroy(p);
}

/* Slices [0, 1, 2, 3] (uint8) from -3 for 10 elements with `policy`. */
static void ops_slice_expect_border(const char *policy, const double *want)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_slice_pipeline(p, false);
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){0}));
	ASSERT_OK(dalic_op_set_ints(op, "start", 1, (int64_t[]){-3}));
	ASSERT_OK(dalic_op_set_ints(op, "shape", 1, (int64_t[]){10}));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", policy));
	ASSERT_OK(dalic_op_set_floats(op, "fill_values", 1, (double[]){7}));
	tl_feed(p, "in", DALIC_UINT8, 1, 1, (int64_t[]){4}, (uint8_t[]){0, 1, 2, 3}, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 1, (int64_t[]){10});
	tl_expect_values(out, 0, 10, want);
	dalic_pipeline_destroy(p);
}

Test(ops_slice, out_of_bounds_policies)
{
	/* coordinates -3 .. 6 of an extent of 4 */
	ops_slice_expect_border("pad", (double[]){7, 7, 7, 0, 1, 2, 3, 7, 7, 7});
	ops_slice_expect_border("constant", (double[]){7, 7, 7, 0, 1, 2, 3, 7, 7, 7});
	ops_slice_expect_border("edge", (double[]){0, 0, 0, 0, 1, 2, 3, 3, 3, 3});
	ops_slice_expect_border("Clamp", (double[]){0, 0, 0, 0, 1, 2, 3, 3, 3, 3});
	ops_slice_expect_border("reflect", (double[]){2, 1, 0, 0, 1, 2, 3, 3, 2, 1});
	ops_slice_expect_border("reflect_1001", (double[]){2, 1, 0, 0, 1, 2, 3, 3, 2, 1});
	ops_slice_expect_border("reflect_101", (double[]){3, 2, 1, 0, 1, 2, 3, 2, 1, 0});
	ops_slice_expect_border("WRAP", (double[]){1, 2, 3, 0, 1, 2, 3, 0, 1, 2});

	/* trim_to_shape: [-3, 7) cut to [0, 4) */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_slice_pipeline(p, false);
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){0}));
	ASSERT_OK(dalic_op_set_ints(op, "start", 1, (int64_t[]){-3}));
	ASSERT_OK(dalic_op_set_ints(op, "end", 1, (int64_t[]){2}));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "trim_to_shape"));
	tl_feed(p, "in", DALIC_UINT8, 1, 1, (int64_t[]){4}, (uint8_t[]){5, 6, 7, 8}, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 1, (int64_t[]){2});
	tl_expect_values(out, 0, 2, (double[]){5, 6});
	dalic_pipeline_destroy(p);
}

Test(ops_slice, per_channel_fill_in_2d_windows)
{
	/* HWC (2, 2, 2); window rows 1..2, cols 1..2: one inside pixel, the rest padded */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_slice_pipeline(p, false);
	ASSERT_OK(dalic_op_set_ints(op, "start", 2, (int64_t[]){1, 1}));
	ASSERT_OK(dalic_op_set_ints(op, "shape", 2, (int64_t[]){2, 2}));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "pad"));
	ASSERT_OK(dalic_op_set_floats(op, "fill_values", 2, (double[]){100, 200}));
	const uint8_t v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (int64_t[]){2, 2, 2}, v, "HWC");
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 3, (int64_t[]){2, 2, 2});
	tl_expect_values(out, 0, 8, (double[]){7, 8, 100, 200, 100, 200, 100, 200});
	dalic_pipeline_destroy(p);
}

Test(ops_slice, dtype_clamps_and_truncates_fill_is_cast)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_slice_pipeline(p, false);
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){0}));
	ASSERT_OK(dalic_op_set_ints(op, "start", 1, (int64_t[]){0}));
	ASSERT_OK(dalic_op_set_ints(op, "shape", 1, (int64_t[]){6}));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_UINT8));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "pad"));
	ASSERT_OK(dalic_op_set_floats(op, "fill_values", 1, (double[]){300.7}));
	const float v[5] = {0.5f, 1.5f, -2.5f, 254.9f, 1e9f};
	tl_feed(p, "in", DALIC_FLOAT, 1, 1, (int64_t[]){5}, v, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_UINT8);
	/* truncated, clamped; the padding is static_cast<uint8_t>(300.7f) = 300 mod 256 = 44 */
	tl_expect_values(out, 0, 6, (double[]){0, 1, 0, 254, 255, 44});
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_slice_pipeline(p, false);
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){0}));
	ASSERT_OK(dalic_op_set_ints(op, "start", 1, (int64_t[]){3}));
	ASSERT_OK(dalic_op_set_ints(op, "shape", 1, (int64_t[]){2}));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "pad"));
	ASSERT_OK(dalic_op_set_floats(op, "fill_values", 1, (double[]){-1.6}));
	tl_feed(p, "in", DALIC_UINT8, 1, 1, (int64_t[]){4}, (uint8_t[]){1, 2, 3, 4}, NULL);
	/* static_cast<uint8_t>(-1.6f) = -1 mod 256 = 255 */
	tl_expect_values(tl_run(p, 0), 0, 2, (double[]){4, 255});
	dalic_pipeline_destroy(p);
}

/* A 1-D float slice with the arguments `set` gives, expected to fail with `needle` when run. */
static void ops_slice_expect_run_error(void (*set)(dalic_op_t *), dalic_dtype_t t, int ndim,
                                       const int64_t *shape, const char *needle)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	set(ops_slice_pipeline(p, false));
	static const double v[64];
	tl_feed(p, "in", t, ndim, 1, shape, v, NULL);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'sl'");
	EXPECT_HAS(msg, needle);
	dalic_pipeline_destroy(p);
}

static void ops_slice_args_oob(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){0}));
	ASSERT_OK(dalic_op_set_ints(op, "start", 1, (int64_t[]){2}));
	ASSERT_OK(dalic_op_set_ints(op, "shape", 1, (int64_t[]){4}));
}

static void ops_slice_args_count(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){0}));
	ASSERT_OK(dalic_op_set_ints(op, "start", 2, (int64_t[]){1, 2}));
}

static void ops_slice_args_axis(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){1}));
	ASSERT_OK(dalic_op_set_ints(op, "start", 1, (int64_t[]){1}));
}

static void ops_slice_args_dup(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "axes", 2, (int64_t[]){0, -1}));
	ASSERT_OK(dalic_op_set_ints(op, "start", 2, (int64_t[]){1, 1}));
}

static void ops_slice_args_names(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "start", 2, (int64_t[]){1, 1}));
}

static void ops_slice_args_end(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){0}));
	ASSERT_OK(dalic_op_set_floats(op, "rel_start", 1, (double[]){0.5}));
	ASSERT_OK(dalic_op_set_floats(op, "rel_end", 1, (double[]){0.25}));
}

static void ops_slice_args_nan(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){0}));
	ASSERT_OK(dalic_op_set_floats(op, "rel_start", 1, (double[]){NAN}));
}

static void ops_slice_args_huge(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){0}));
	ASSERT_OK(dalic_op_set_floats(op, "rel_end", 1, (double[]){1e30}));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "trim_to_shape"));
}

static void ops_slice_args_wrap(dalic_op_t *op)
{
	ops_slice_args_oob(op);
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "wrap"));
}

static void ops_slice_args_i32(dalic_op_t *op)
{
	ops_slice_args_oob(op);
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_INT32));
}

Test(ops_slice, data_dependent_errors)
{
	ops_slice_expect_run_error(ops_slice_args_oob, DALIC_FLOAT, 1, (int64_t[]){4},
	                           "Slice can't be placed out of bounds with current policy. Got: "
	                           "input_shape={4}, slice_anchor={2}, slice_shape={4}");
	ops_slice_expect_run_error(ops_slice_args_count, DALIC_FLOAT, 1, (int64_t[]){4},
	                           "Argument \"start\" expected shape 1 but got 2 values");
	ops_slice_expect_run_error(ops_slice_args_axis, DALIC_FLOAT, 1, (int64_t[]){4},
	                           "Axis 1 out of range. Expected range is [-1, 0] for a 1D input");
	ops_slice_expect_run_error(ops_slice_args_dup, DALIC_FLOAT, 1, (int64_t[]){4},
	                           "Axis index 0 occurs more than once in ``axes``");
	ops_slice_expect_run_error(ops_slice_args_names, DALIC_FLOAT, 1, (int64_t[]){4},
	                           "Axis 'W' is not present in the input layout");
	ops_slice_expect_run_error(ops_slice_args_end, DALIC_FLOAT, 1, (int64_t[]){4},
	                           "end coordinates can't be before start coordinates. Got: "
	                           "start=2 end=1");
	ops_slice_expect_run_error(ops_slice_args_nan, DALIC_FLOAT, 1, (int64_t[]){4},
	                           "anchor value out of range");
	ops_slice_expect_run_error(ops_slice_args_huge, DALIC_FLOAT, 1, (int64_t[]){4},
	                           "end coordinates out of range");
	ops_slice_expect_run_error(ops_slice_args_wrap, DALIC_FLOAT, 1, (int64_t[]){0},
	                           "needs a non-empty input");
	ops_slice_expect_run_error(ops_slice_args_i32, DALIC_FLOAT, 1, (int64_t[]){8},
	                           "Not supported output type: int32");
	ops_slice_expect_run_error(ops_slice_args_oob, DALIC_BOOL, 1, (int64_t[]){8},
	                           "Not supported input type: bool");
	ops_slice_expect_run_error(ops_slice_args_oob, DALIC_UINT8, 5, (int64_t[]){8, 1, 1, 1, 1},
	                           "Not supported number of dimensions: 5");
}

Test(ops_slice, form_errors)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_slice_pipeline(p, false);
	ASSERT_OK(dalic_op_set_ints(op, "start", 1, (int64_t[]){1}));
	ASSERT_OK(dalic_op_set_floats(op, "rel_start", 1, (double[]){0.5}));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("\"start\" and \"rel_start\" arguments are mutually exclusive");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_slice_pipeline(p, false);
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "mirror"));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("Not supported out_of_bounds_policy: mirror");
	dalic_pipeline_destroy(p);

	/* neither named arguments nor anchor and shape inputs */
	p = tl_pipeline(1);
	ops_slice_pipeline(p, false);
	ops_slice_feed_matrix(p, "HW");
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Expected named slice arguments (e.g. start/end, "
	                                       "start/shape) or positional inputs (start, shape). "
	                                       "Got 1 inputs.");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_slice_pipeline(p, true);
	ASSERT_OK(dalic_op_set_ints(op, "start", 2, (int64_t[]){1, 1}));
	ops_slice_feed_matrix(p, "HW");
	tl_feed(p, "anchor", DALIC_INT32, 1, 1, (int64_t[]){2}, (int32_t[]){0, 0}, NULL);
	tl_feed(p, "shape", DALIC_INT32, 1, 1, (int64_t[]){2}, (int32_t[]){1, 1}, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Named arguments start/end/shape are not compatible "
	                                       "with positional anchor and shape inputs");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_slice_pipeline(p, true);
	ops_slice_feed_matrix(p, "HW");
	tl_feed(p, "anchor", DALIC_UINT8, 1, 1, (int64_t[]){2}, (uint8_t[]){0, 0}, NULL);
	tl_feed(p, "shape", DALIC_UINT8, 1, 1, (int64_t[]){2}, (uint8_t[]){1, 1}, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Unsupported type of anchor and shape arguments: "
	                                       "uint8");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_slice_pipeline(p, true);
	ops_slice_feed_matrix(p, "HW");
	tl_feed(p, "anchor", DALIC_INT32, 1, 1, (int64_t[]){3}, (int32_t[]){0, 0, 0}, NULL);
	tl_feed(p, "shape", DALIC_INT32, 1, 1, (int64_t[]){3}, (int32_t[]){1, 1, 1}, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Expected 2 elements for slice arguments "
	                                       "(start/shape). Got 3");
	dalic_pipeline_destroy(p);
}

Test(ops_slice, hostile_windows_are_refused_not_allocated)
{
	/* a padded window of 2^61 elements: the allocation check refuses it */
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_slice_pipeline(p, false);
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){0}));
	ASSERT_OK(dalic_op_set_ints(op, "start", 1, (int64_t[]){-(INT64_C(1) << 60)}));
	ASSERT_OK(dalic_op_set_ints(op, "end", 1, (int64_t[]){INT64_C(1) << 60}));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "pad"));
	tl_feed(p, "in", DALIC_UINT8, 1, 1, (int64_t[]){4}, (uint8_t[]){1, 2, 3, 4}, NULL);
	const char *msg = tl_run_fails(p, DALIC_ENOMEM);
	EXPECT_HAS(msg, "'sl'");
	dalic_pipeline_destroy(p);

	/* coordinates past +-2^61 could overflow the extent: refused before any arithmetic */
	p = tl_pipeline(1);
	op = ops_slice_pipeline(p, false);
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){0}));
	ASSERT_OK(dalic_op_set_ints(op, "start", 1, (int64_t[]){INT64_MIN}));
	ASSERT_OK(dalic_op_set_ints(op, "end", 1, (int64_t[]){INT64_MAX}));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "pad"));
	tl_feed(p, "in", DALIC_UINT8, 1, 1, (int64_t[]){4}, (uint8_t[]){1, 2, 3, 4}, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "anchor value out of range");
	dalic_pipeline_destroy(p);
}
