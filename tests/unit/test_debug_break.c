/*
 * Debug mode: breakpoints and conditions. Operator breakpoints (instance, schema or fn name)
 * stop before the operator, iteration breakpoints before the iteration's first operator,
 * conditions after the operator whose output holds them; resuming never re-triggers the same
 * stop; step ignores operator breakpoints; delete removes them; malformed conditions and
 * unknown operators are refused when set; an interrupt stops a continue.
 *
 * The pipeline: a = external_source (float, shape [n]); m = a * 2; outputs m. Batch 2.
 */
#include "tests/testlib.h"

TestSuite(debug_break, .timeout = 60);

static dalic_pipeline_t *debug_break_make_pipeline(void)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "a");
	dalic_op_t *m = tl_op(p, "ArithmeticGenericOp");
	tl_input(m, "a");
	ASSERT_OK(dalic_op_set_string(m, "expression_desc", "mul(&0 $0:float32)"));
	ASSERT_OK(dalic_op_set_floats(m, "real_constants", 1, (const double[]){2}));
	tl_output(p, m);
	return p;
}

/* Feeds `iterations` batches of two samples [k, k + 0.5] of length 1. */
static dalic_debug_t *debug_break_open_fed(dalic_pipeline_t *p, int iterations)
{
	dalic_debug_t *s = tl_debug_open(p);
	for (int k = 0; k < iterations; k++)
		tl_debug_feed_floats(s, "a", 2, (const float[]){(float)k, (float)k + 0.5f});
	return s;
}

Test(debug_break, operator_breakpoints_stop_before_the_operator_once_per_visit)
{
	dalic_pipeline_t *p = debug_break_make_pipeline();
	dalic_debug_t *s = debug_break_open_fed(p, 3);
	int id;
	ASSERT_DEBUG_OK(s, dalic_debug_break_op(s, "___ArithmeticGenericOp_1", &id));
	cr_expect_gt(id, 0);
	ASSERT_DEBUG_OK(s, dalic_debug_continue(s, -1));
	dalic_debug_status_t st = tl_debug_status(s);
	cr_expect_eq(st.stop, DALIC_DEBUG_STOP_BREAK_OP);
	cr_expect_eq(st.break_id, id);
	cr_expect_str_eq(st.stop_op, "___ArithmeticGenericOp_1");
	cr_expect_str_eq(st.next_op_name, "___ArithmeticGenericOp_1");
	cr_expect_eq(st.iteration, 0);
	cr_expect_null(dalic_debug_node(s, "___ArithmeticGenericOp_1", NULL), "not run yet");
	ASSERT_DEBUG_OK(s, dalic_debug_continue(s, -1));
	st = tl_debug_status(s);
	cr_expect_eq(st.stop, DALIC_DEBUG_STOP_BREAK_OP, "the same stop is not repeated");
	cr_expect_eq(st.iteration, 1);
	/* iteration 0's value until it runs again */
	tl_expect_values(dalic_debug_node(s, "___ArithmeticGenericOp_1", NULL), 1, 1,
	                 (const double[]){1});
	/* step runs the operator despite the breakpoint */
	ASSERT_DEBUG_OK(s, dalic_debug_step(s));
	cr_expect_eq(tl_debug_status(s).stop, DALIC_DEBUG_STOP_STEP);
	ASSERT_DEBUG_OK(s, dalic_debug_delete(s, id));
	cr_expect_eq(dalic_debug_num_breaks(s), 0);
	EXPECT_STATUS(dalic_debug_continue(s, -1), DALIC_EEND, "no breakpoint left: end of data");
	cr_expect_eq(tl_debug_status(s).iterations_done, 3);
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

Test(debug_break, operators_are_matched_by_schema_and_fn_names_and_checked)
{
	dalic_pipeline_t *p = debug_break_make_pipeline();
	dalic_debug_t *s = debug_break_open_fed(p, 2);
	EXPECT_STATUS(dalic_debug_break_op(s, "Rotate", NULL), DALIC_EINVAL);
	EXPECT_DEBUG_ERROR_HAS(s, "Rotate");
	EXPECT_STATUS(dalic_debug_break_op(s, "__Nope_3", NULL), DALIC_EINVAL);
	cr_expect_eq(dalic_debug_num_breaks(s), 0);
	ASSERT_DEBUG_OK(s, dalic_debug_break_op(s, "external_source", NULL));
	ASSERT_DEBUG_OK(s, dalic_debug_continue(s, -1));
	cr_expect_str_eq(tl_debug_status(s).stop_op, "a", "fn name");
	ASSERT_DEBUG_OK(s, dalic_debug_delete(s, 0));
	ASSERT_DEBUG_OK(s, dalic_debug_break_op(s, "ArithmeticGenericOp", NULL));
	ASSERT_DEBUG_OK(s, dalic_debug_continue(s, -1));
	cr_expect_str_eq(tl_debug_status(s).stop_op, "___ArithmeticGenericOp_1", "schema name");
	dalic_debug_break_t b;
	ASSERT_OK(dalic_debug_break_get(s, 0, &b));
	cr_expect_eq(b.kind, DALIC_DEBUG_BREAK_OP);
	cr_expect_str_eq(b.text, "ArithmeticGenericOp");
	cr_expect_eq(b.hits, 1);
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

Test(debug_break, iteration_breakpoints_stop_before_the_iteration_starts)
{
	dalic_pipeline_t *p = debug_break_make_pipeline();
	dalic_debug_t *s = debug_break_open_fed(p, 4);
	ASSERT_DEBUG_OK(s, dalic_debug_break_iter(s, 2, NULL));
	ASSERT_DEBUG_OK(s, dalic_debug_continue(s, -1));
	dalic_debug_status_t st = tl_debug_status(s);
	cr_expect_eq(st.stop, DALIC_DEBUG_STOP_BREAK_ITER);
	cr_expect_eq(st.iteration, 2);
	cr_expect_eq(st.next_op, 0);
	cr_expect_eq(st.iterations_done, 2);
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	st = tl_debug_status(s);
	cr_expect_eq(st.stop, DALIC_DEBUG_STOP_STEP);
	cr_expect_eq(st.iteration, 2);
	tl_expect_values(dalic_debug_output(s, 0), 0, 1, (const double[]){4});
	EXPECT_STATUS(dalic_debug_break_iter(s, -1, NULL), DALIC_EINVAL);
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

Test(debug_break, conditions_stop_after_the_operator_on_the_first_matching_sample)
{
	dalic_pipeline_t *p = debug_break_make_pipeline();
	dalic_debug_t *s = tl_debug_open(p);
	tl_debug_feed_floats(s, "a", 2, (const float[]){1, 2});
	tl_debug_feed_floats(s, "a", 2, (const float[]){3, NAN});
	tl_debug_feed_floats(s, "a", 2, (const float[]){6, 7});
	int nan_id, max_id;
	ASSERT_DEBUG_OK(s, dalic_debug_break_cond(s, "any NaN", &nan_id));
	ASSERT_DEBUG_OK(s, dalic_debug_break_cond(s, "___ArithmeticGenericOp_1: max > 13", &max_id));
	ASSERT_DEBUG_OK(s, dalic_debug_continue(s, -1));
	dalic_debug_status_t st = tl_debug_status(s);
	cr_expect_eq(st.stop, DALIC_DEBUG_STOP_COND);
	cr_expect_eq(st.break_id, nan_id);
	cr_expect_eq(st.iteration, 1);
	cr_expect_str_eq(st.stop_node, "a", "the first output holding it");
	cr_expect_str_eq(st.stop_op, "a");
	cr_expect_eq(st.stop_sample, 1);
	cr_expect_eq(st.next_op, 1, "stops right after the operator ran");
	ASSERT_DEBUG_OK(s, dalic_debug_continue(s, -1));
	st = tl_debug_status(s);
	cr_expect_eq(st.break_id, nan_id, "NaN * 2 is NaN too");
	cr_expect_str_eq(st.stop_node, "___ArithmeticGenericOp_1");
	ASSERT_DEBUG_OK(s, dalic_debug_continue(s, -1));
	st = tl_debug_status(s);
	cr_expect_eq(st.break_id, max_id, "7 * 2 = 14 > 13; a's max of 7 is not checked");
	cr_expect_eq(st.iteration, 2);
	cr_expect_eq(st.stop_sample, 1);
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

Test(debug_break, shape_conditions_and_combinations)
{
	dalic_pipeline_t *p = debug_break_make_pipeline();
	dalic_debug_t *s = tl_debug_open(p);
	float data[8] = {0};
	for (int k = 1; k <= 3; k++) {
		int64_t shapes[2] = {1, k};
		ASSERT_OK(dalic_debug_feed_input(s, "a", DALIC_FLOAT, 1, 2, shapes, data, NULL));
	}
	ASSERT_DEBUG_OK(s, dalic_debug_break_cond(s, "a: shape[0] > 2 or shape[1] > 0", NULL));
	ASSERT_DEBUG_OK(s,
	                dalic_debug_break_cond(s, "ndim == 1 and numel >= 2 and mean == 0", NULL));
	ASSERT_DEBUG_OK(s, dalic_debug_continue(s, -1));
	dalic_debug_status_t st = tl_debug_status(s);
	cr_expect_eq(st.break_id, 2, "sample 1 of iteration 1 has 2 zeros");
	cr_expect_eq(st.iteration, 1);
	cr_expect_eq(st.stop_sample, 1);
	ASSERT_DEBUG_OK(s, dalic_debug_delete(s, 2));
	ASSERT_DEBUG_OK(s, dalic_debug_continue(s, -1));
	st = tl_debug_status(s);
	cr_expect_eq(st.break_id, 1);
	cr_expect_eq(st.iteration, 2);
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

Test(debug_break, malformed_conditions_are_refused)
{
	dalic_pipeline_t *p = debug_break_make_pipeline();
	dalic_debug_t *s = debug_break_open_fed(p, 1);
	const char *bad[] = {"",        "max >",         "foo > 1", "shape[x] > 1",
	                     "any dog", "max > 1 maybe", "max 1",   "nope: max > 1"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		EXPECT_STATUS(dalic_debug_break_cond(s, bad[i], NULL), DALIC_EINVAL, "'%s'",
		              bad[i]);
		cr_expect(strlen(dalic_debug_last_error(s)) > 0);
	}
	cr_expect_eq(dalic_debug_num_breaks(s), 0);
	EXPECT_DEBUG_ERROR_HAS(s, "nope");
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

typedef struct debug_break_endless {
	dalic_debug_t *s;
	int64_t stop_at;
} debug_break_endless_t;

static int debug_break_endless_source(void *user, int64_t iteration, dalic_feed_t *feed)
{
	debug_break_endless_t *e = user;
	if (iteration == e->stop_at)
		dalic_debug_interrupt(e->s);
	float v[2] = {(float)iteration, 0};
	int64_t shapes[2] = {1, 1};
	return dalic_feed_batch(feed, DALIC_FLOAT, 1, 2, shapes, v, NULL);
}

Test(debug_break, an_interrupt_stops_continue)
{
	dalic_pipeline_t *p = debug_break_make_pipeline();
	dalic_debug_t *s = tl_debug_open(p);
	debug_break_endless_t e = {s, 5};
	ASSERT_DEBUG_OK(s, dalic_debug_set_source(s, "a", debug_break_endless_source, &e));
	ASSERT_DEBUG_OK(s, dalic_debug_continue(s, -1));
	dalic_debug_status_t st = tl_debug_status(s);
	cr_expect_eq(st.stop, DALIC_DEBUG_STOP_INTERRUPT);
	cr_expect_eq(st.iteration, 5);
	cr_expect_eq(st.next_op, 1, "after the operator that was running");
	ASSERT_DEBUG_OK(s, dalic_debug_continue(s, 3));
	cr_expect_eq(tl_debug_status(s).stop, DALIC_DEBUG_STOP_LIMIT);
	cr_expect_eq(tl_debug_status(s).iterations_done, 8);
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}
