/* reductions.mean: float sums over the reduced axes times 1/n (hand-computed), or the input's
 * type, the sum then wrapping around as DALI's does. */
#include "tests/testlib/oneop.h"

TestSuite(ops_reductions_mean, .timeout = 20);

static const int64_t ops_rmean_shape[2] = {2, 3};
static const uint8_t ops_rmean_data[6] = {3, 1, 2, 5, 4, 7};

static tl_oneop_t ops_rmean_make(void)
{
	return tl_oneop("reductions.mean", 1, 1, NULL);
}

Test(ops_reductions_mean, axes_keep_dims_and_names)
{
	tl_oneop_t t = ops_rmean_make();
	ASSERT_OK(dalic_op_set_ints(t.op, "axes", 1, (const int64_t[]){0}));
	tl_oneop_feed_u8(&t, "in", 1, 2, ops_rmean_shape, ops_rmean_data, "HW");
	const dalic_batch_t *out = tl_run(t.p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	tl_expect_shape(out, 0, 1, (const int64_t[]){3});
	cr_expect_str_eq(dalic_batch_layout(out), "W");
	tl_expect_values(out, 0, 3, (double[]){4, 2.5, 4.5});
	dalic_pipeline_destroy(t.p);

	t = ops_rmean_make(); /* all axes, kept */
	ASSERT_OK(dalic_op_set_bool(t.op, "keep_dims", true));
	tl_oneop_feed_u8(&t, "in", 1, 2, ops_rmean_shape, ops_rmean_data, "HW");
	out = tl_run(t.p, 0);
	tl_expect_shape(out, 0, 2, (const int64_t[]){1, 1});
	cr_expect_float_eq(tl_at(out, 0, 0), 22.0 / 6, 1e-6);
	dalic_pipeline_destroy(t.p);

	t = ops_rmean_make(); /* by name, and a negative axis, reduce W */
	ASSERT_OK(dalic_op_set_string(t.op, "axis_names", "W"));
	tl_oneop_feed_u8(&t, "in", 1, 2, ops_rmean_shape, ops_rmean_data, "HW");
	tl_expect_values(tl_run(t.p, 0), 0, 2, (double[]){2, 16.0f / 3});
	dalic_pipeline_destroy(t.p);

	t = ops_rmean_make();
	ASSERT_OK(dalic_op_set_ints(t.op, "axes", 1, (const int64_t[]){-1}));
	tl_oneop_feed_u8(&t, "in", 1, 2, ops_rmean_shape, ops_rmean_data, "HW");
	tl_expect_values(tl_run(t.p, 0), 0, 2, (double[]){2, 16.0f / 3});
	dalic_pipeline_destroy(t.p);
}

Test(ops_reductions_mean, input_type_accumulates_and_wraps)
{
	/* columns sum to 450, 350, 4: in uint8 194, 94, 4; halves 97, 47, 2 */
	const uint8_t d[6] = {200, 100, 3, 250, 250, 1};
	tl_oneop_t t = ops_rmean_make();
	ASSERT_OK(dalic_op_set_ints(t.op, "axes", 1, (const int64_t[]){0}));
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_UINT8));
	tl_oneop_feed_u8(&t, "in", 1, 2, ops_rmean_shape, d, "HW");
	const dalic_batch_t *out = tl_run(t.p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_UINT8);
	tl_expect_values(out, 0, 3, (double[]){97, 47, 2});
	dalic_pipeline_destroy(t.p);
}

Test(ops_reductions_mean, empty_axes_reduce_nothing)
{
	tl_oneop_t t = ops_rmean_make();
	ASSERT_OK(dalic_op_set_ints(t.op, "axes", 0, NULL));
	tl_oneop_feed_u8(&t, "in", 1, 2, ops_rmean_shape, ops_rmean_data, "HW");
	const dalic_batch_t *out = tl_run(t.p, 0);
	tl_expect_shape(out, 0, 2, ops_rmean_shape);
	tl_expect_values(out, 0, 6, (double[]){3, 1, 2, 5, 4, 7});
	dalic_pipeline_destroy(t.p);
}

Test(ops_reductions_mean, refuses_what_dali_refuses)
{
	struct {
		const char *what, *msg;
	} cases[] = {
	    {"axis 2", "Axis index out of range: 2 not in range [-2,1]"},
	    {"dup", "Duplicate axis index 0"},
	    {"both", "Arguments `axes` and `axis_names` are mutually exclusive"},
	    {"name", "Axis 'C' is not present in the input layout"},
	    {"dtype", "Unsupported types: uint8, int32"},
	};
	for (int k = 0; k < 5; k++) {
		tl_oneop_t t = ops_rmean_make();
		if (k == 0)
			ASSERT_OK(dalic_op_set_ints(t.op, "axes", 1, (const int64_t[]){2}));
		if (k == 1)
			ASSERT_OK(dalic_op_set_ints(t.op, "axes", 2, (const int64_t[]){0, -2}));
		if (k == 2) {
			ASSERT_OK(dalic_op_set_ints(t.op, "axes", 1, (const int64_t[]){0}));
			ASSERT_OK(dalic_op_set_string(t.op, "axis_names", "H"));
		}
		if (k == 3)
			ASSERT_OK(dalic_op_set_string(t.op, "axis_names", "C"));
		if (k == 4)
			ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_INT32));
		tl_oneop_feed_u8(&t, "in", 1, 2, ops_rmean_shape, ops_rmean_data, "HW");
		EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), cases[k].msg, "%s", cases[k].what);
		EXPECT_ERROR_HAS("(reductions__Mean)");
		dalic_pipeline_destroy(t.p);
	}
	tl_oneop_t t = ops_rmean_make();
	tl_feed(t.p, "in", DALIC_BOOL, 1, 1, (const int64_t[]){2}, (const uint8_t[]){1, 0}, NULL);
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "Unsupported input type: bool");
	dalic_pipeline_destroy(t.p);
}
