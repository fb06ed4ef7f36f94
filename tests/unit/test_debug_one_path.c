/*
 * Debug mode runs nodes through the engine's own node path (engine/exec_node.c), so rules
 * the eager copy used to miss hold in both executors: an operator whose inputs are all
 * empty is skipped (its outputs become empty batches typed after its input), and a failing
 * sample is named with its operator and iteration the same way.
 */
#include "tests/testlib.h"

TestSuite(debug_one_path, .timeout = 30);

/* external_source "a" -> cast(FLOAT) -> output */
static dalic_pipeline_t *op_cast_pipeline(void)
{
	dalic_pipeline_t *p = tl_pipeline(4);
	tl_source(p, "a");
	dalic_op_t *cast = tl_op(p, "cast");
	cr_assert_eq(dalic_op_set_int(cast, "dtype", DALIC_FLOAT), DALIC_OK, "%s",
	             dalic_last_error());
	tl_input(cast, "a");
	tl_output(p, cast);
	return p;
}

Test(debug_one_path, empty_inputs_skip_the_operator_in_both)
{
	dalic_pipeline_t *p = op_cast_pipeline();
	dalic_debug_t *s = tl_debug_open(p);
	const int32_t none[1] = {0};
	int64_t shapes[1] = {1};
	/* iteration 0: no sample (a conditional branch none took looks like this) */
	tl_feed(p, "a", DALIC_INT32, 1, 0, shapes, none, NULL);
	ASSERT_DEBUG_OK(s, dalic_debug_feed_input(s, "a", DALIC_INT32, 1, 0, shapes, none, NULL));
	const dalic_batch_t *full = tl_run(p, 0);
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	const dalic_batch_t *eager = dalic_debug_output(s, 0);
	cr_assert_not_null(eager, "%s", dalic_last_error());
	/* skipped: cast never ran, so its output takes the input's type, not FLOAT */
	cr_expect_eq(dalic_batch_num_samples(full), 0);
	cr_expect_eq(dalic_batch_dtype(full), DALIC_INT32);
	tl_expect_same_batch(full, eager, "skipped cast");
	dalic_debug_op_info_t info;
	ASSERT_DEBUG_OK(s, dalic_debug_op_info(s, dalic_debug_find_op(s, "__Cast_1"), &info));
	cr_expect_eq(info.last_iteration, 0, "a skipped operator still produced iteration 0");

	/* iteration 1: two samples, cast runs in both */
	const int32_t two[2] = {-3, 7};
	int64_t shapes2[2] = {1, 1};
	tl_feed(p, "a", DALIC_INT32, 1, 2, shapes2, two, NULL);
	ASSERT_DEBUG_OK(s, dalic_debug_feed_input(s, "a", DALIC_INT32, 1, 2, shapes2, two, NULL));
	full = tl_run(p, 0);
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	eager = dalic_debug_output(s, 0);
	cr_expect_eq(dalic_batch_dtype(full), DALIC_FLOAT);
	tl_expect_values(full, 1, 1, (double[]){7});
	tl_expect_same_batch(full, eager, "cast");
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

/* A failing sample: the same message, naming operator, iteration and sample, from both. */
Test(debug_one_path, failures_are_attributed_alike)
{
	dalic_pipeline_t *p = tl_pipeline(3);
	tl_source(p, "a");
	dalic_op_t *rs = tl_op(p, "reshape");
	cr_assert_eq(dalic_op_set_ints(rs, "shape", 1, (const int64_t[]){2}), DALIC_OK, "%s",
	             dalic_last_error());
	tl_input(rs, "a");
	tl_output(p, rs);
	dalic_debug_t *s = tl_debug_open(p);
	const float v[5] = {1, 2, 3, 4, 5};
	int64_t shapes[3] = {2, 1, 2}; /* sample 1 has one element: cannot be [2] */
	tl_feed(p, "a", DALIC_FLOAT, 1, 3, shapes, v, NULL);
	ASSERT_DEBUG_OK(s, dalic_debug_feed_input(s, "a", DALIC_FLOAT, 1, 3, shapes, v, NULL));
	char full_msg[1024];
	snprintf(full_msg, sizeof full_msg, "%s", tl_run_fails(p, DALIC_EOP));
	cr_expect_neq(dalic_debug_next(s), DALIC_OK);
	dalic_debug_status_t st = tl_debug_status(s);
	cr_expect_eq(st.stop, DALIC_DEBUG_STOP_ERROR);
	cr_expect_eq(st.stop_sample, 1, "%s", dalic_debug_last_error(s));
	cr_expect(strstr(full_msg, "__Reshape_1"), "%s", full_msg);
	cr_expect(strstr(full_msg, "sample 1"), "%s", full_msg);
	cr_expect(strstr(dalic_debug_last_error(s), "__Reshape_1"), "%s",
	          dalic_debug_last_error(s));
	cr_expect(strstr(dalic_debug_last_error(s), "sample 1"), "%s", dalic_debug_last_error(s));
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}
