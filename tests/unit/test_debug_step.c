/*
 * Debug mode: stepping. Operators run one at a time in definition order; the position and
 * the iteration tag of every node follow; next finishes an iteration; goto and restart
 * reproduce earlier iterations exactly; outputs equal the full engine's byte for byte; end of
 * data stops the session and more data lets it go on.
 *
 * The pipeline: a = external_source; c = cast(a, FLOAT64); m = c * 2; u = random.uniform()
 * with outputs (m, u), batch 3, seed 42.
 */
#include "tests/testlib.h"

TestSuite(debug_step, .timeout = 60);

static dalic_pipeline_t *debug_step_make_pipeline(void)
{
	dalic_pipeline_t *p = tl_pipeline(3);
	tl_source(p, "a");
	dalic_op_t *c = tl_op(p, "cast");
	tl_input(c, "a");
	ASSERT_OK(dalic_op_set_int(c, "dtype", DALIC_FLOAT64));
	dalic_op_t *m = tl_op(p, "ArithmeticGenericOp");
	tl_input(m, dalic_op_output(c, 0));
	ASSERT_OK(dalic_op_set_string(m, "expression_desc", "mul(&0 $0:float64)"));
	ASSERT_OK(dalic_op_set_floats(m, "real_constants", 1, (const double[]){2}));
	dalic_op_t *u = tl_op(p, "random.uniform");
	ASSERT_OK(dalic_op_set_floats(u, "range", 2, (const double[]){0, 1}));
	tl_output(p, m);
	tl_output(p, u);
	return p;
}

static const float debug_step_feed_data[4][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {-1, -2, -3}};

static dalic_debug_t *debug_step_open_fed(dalic_pipeline_t *p, int batches)
{
	dalic_debug_t *s = tl_debug_open(p);
	for (int k = 0; k < batches; k++)
		tl_debug_feed_floats(s, "a", 3, debug_step_feed_data[k]);
	return s;
}

Test(debug_step, operators_run_one_at_a_time_in_definition_order)
{
	dalic_pipeline_t *p = debug_step_make_pipeline();
	dalic_debug_t *s = debug_step_open_fed(p, 2);
	dalic_debug_status_t st = tl_debug_status(s);
	cr_expect_eq(st.iteration, 0);
	cr_expect_eq(st.next_op, 0);
	cr_expect_eq(st.stop, DALIC_DEBUG_STOP_NONE);
	cr_assert_str_eq(st.next_op_name, "a");
	int n = dalic_debug_num_ops(s);
	cr_assert_geq(n, 6, "4 operators and 2 MakeContiguous for the outputs");
	cr_expect_str_eq(tl_debug_op_name(s, 0), "a");
	cr_expect_str_eq(tl_debug_op_name(s, 1), "__Cast_1");
	cr_expect_str_eq(tl_debug_op_name(s, 2), "___ArithmeticGenericOp_2");
	cr_expect_str_eq(tl_debug_op_name(s, 4), "__Uniform_3",
	                 "the output copy of m runs right after m, before the next definition");
	int64_t it;
	cr_expect_null(dalic_debug_node(s, "a", &it), "nothing produced yet");
	for (int k = 0; k < n; k++) {
		ASSERT_DEBUG_OK(s, dalic_debug_step(s));
		st = tl_debug_status(s);
		cr_expect_eq(st.stop, DALIC_DEBUG_STOP_STEP);
		cr_expect_eq(st.next_op, k + 1);
		cr_expect_eq(st.iteration, 0);
		dalic_debug_op_info_t info;
		ASSERT_OK(dalic_debug_op_info(s, k, &info));
		cr_expect_eq(info.last_iteration, 0, "op %d ran", k);
		cr_expect_eq(info.runs, 1);
		if (k + 1 < n) {
			ASSERT_OK(dalic_debug_op_info(s, k + 1, &info));
			cr_expect_eq(info.last_iteration, -1, "op %d has not run yet", k + 1);
		}
	}
	st = tl_debug_status(s);
	cr_expect_null(st.next_op_name, "iteration complete");
	cr_expect_eq(st.iterations_done, 1);
	const dalic_batch_t *m = dalic_debug_node(s, "___ArithmeticGenericOp_2", &it);
	cr_assert_not_null(m);
	cr_expect_eq(it, 0);
	tl_expect_values(m, 2, 1, (const double[]){6});

	/* the next step enters iteration 1: node a is fresh, the cast still holds iteration 0 */
	ASSERT_DEBUG_OK(s, dalic_debug_step(s));
	st = tl_debug_status(s);
	cr_expect_eq(st.iteration, 1);
	cr_expect_eq(st.next_op, 1);
	cr_expect_not_null(dalic_debug_node(s, "a", &it));
	cr_expect_eq(it, 1);
	cr_expect_not_null(dalic_debug_node(s, "__Cast_1", &it));
	cr_expect_eq(it, 0, "not run yet in iteration 1");
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

Test(debug_step, next_finishes_the_current_iteration_or_runs_a_whole_one)
{
	dalic_pipeline_t *p = debug_step_make_pipeline();
	dalic_debug_t *s = debug_step_open_fed(p, 3);
	ASSERT_DEBUG_OK(s, dalic_debug_step(s));
	ASSERT_DEBUG_OK(s, dalic_debug_step(s));
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	dalic_debug_status_t st = tl_debug_status(s);
	cr_expect_eq(st.iteration, 0);
	cr_expect_eq(st.next_op, st.num_ops);
	cr_expect_eq(st.iterations_done, 1);
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	st = tl_debug_status(s);
	cr_expect_eq(st.iteration, 1);
	cr_expect_eq(st.next_op, st.num_ops);
	cr_expect_eq(st.stop, DALIC_DEBUG_STOP_STEP);
	tl_expect_values(dalic_debug_output(s, 0), 0, 1, (const double[]){8});
	cr_expect_str_eq(dalic_debug_output_name(s, 0), "___ArithmeticGenericOp_2");
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

Test(debug_step, restart_and_goto_reproduce_iterations_exactly)
{
	dalic_pipeline_t *p = debug_step_make_pipeline();
	dalic_debug_t *s = debug_step_open_fed(p, 4);
	tl_snapshot_t m[4], u[4];
	for (int k = 0; k < 4; k++) {
		ASSERT_DEBUG_OK(s, dalic_debug_next(s));
		tl_snap(&m[k], dalic_debug_output(s, 0));
		tl_snap(&u[k], dalic_debug_output(s, 1));
	}
	cr_expect_not(tl_snap_equal(&u[0], dalic_debug_output(s, 1)),
	              "random values change between iterations");
	ASSERT_DEBUG_OK(s, dalic_debug_restart(s));
	dalic_debug_status_t st = tl_debug_status(s);
	cr_expect_eq(st.iteration, 0);
	cr_expect_eq(st.next_op, 0);
	cr_expect_eq(st.iterations_done, 0);
	cr_expect_null(dalic_debug_output(s, 0), "restart drops the batches");
	for (int k = 0; k < 4; k++) {
		ASSERT_DEBUG_OK(s, dalic_debug_next(s));
		cr_expect(tl_snap_equal(&m[k], dalic_debug_output(s, 0)), "m, iteration %d", k);
		cr_expect(tl_snap_equal(&u[k], dalic_debug_output(s, 1)), "u, iteration %d", k);
	}
	/* back to iteration 2 (a restart), then forward to 3 (no restart) */
	ASSERT_DEBUG_OK(s, dalic_debug_goto(s, 2));
	st = tl_debug_status(s);
	cr_expect_eq(st.iteration, 2);
	cr_expect_eq(st.next_op, 0);
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	cr_expect(tl_snap_equal(&u[2], dalic_debug_output(s, 1)), "u after goto 2");
	cr_expect(tl_snap_equal(&m[2], dalic_debug_output(s, 0)), "m after goto 2");
	ASSERT_DEBUG_OK(s, dalic_debug_goto(s, 3));
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	cr_expect(tl_snap_equal(&u[3], dalic_debug_output(s, 1)), "u after goto 3");
	for (int k = 0; k < 4; k++) {
		tl_snap_free(&m[k]);
		tl_snap_free(&u[k]);
	}
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

Test(debug_step, outputs_equal_the_full_engine_byte_for_byte)
{
	dalic_pipeline_t *full = debug_step_make_pipeline();
	dalic_pipeline_t *p = debug_step_make_pipeline();
	dalic_debug_t *s = debug_step_open_fed(p, 4);
	for (int k = 0; k < 4; k++) {
		int64_t shapes[3] = {1, 1, 1};
		tl_feed(full, "a", DALIC_FLOAT, 1, 3, shapes, debug_step_feed_data[k], NULL);
		ASSERT_OK(dalic_pipeline_run(full));
		ASSERT_DEBUG_OK(s, dalic_debug_next(s));
		tl_expect_same_batch(dalic_pipeline_output(full, 0), dalic_debug_output(s, 0), "m");
		tl_expect_same_batch(dalic_pipeline_output(full, 1), dalic_debug_output(s, 1), "u");
	}
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
	dalic_pipeline_destroy(full);
}

Test(debug_step, end_of_data_stops_and_more_data_goes_on)
{
	dalic_pipeline_t *p = debug_step_make_pipeline();
	dalic_debug_t *s = debug_step_open_fed(p, 1);
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	EXPECT_STATUS(dalic_debug_next(s), DALIC_EEND);
	dalic_debug_status_t st = tl_debug_status(s);
	cr_expect_eq(st.stop, DALIC_DEBUG_STOP_END);
	cr_expect_eq(st.iteration, 1);
	EXPECT_STATUS(dalic_debug_step(s), DALIC_EEND, "stays at the end");
	tl_debug_feed_floats(s, "a", 3, debug_step_feed_data[1]);
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	tl_expect_values(dalic_debug_output(s, 0), 0, 1, (const double[]){8});
	cr_expect_eq(tl_debug_status(s).iterations_done, 2);
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

Test(debug_step, continue_runs_to_a_limit_and_measure_compares_with_the_full_engine)
{
	dalic_pipeline_t *p = debug_step_make_pipeline();
	dalic_debug_t *s = debug_step_open_fed(p, 4);
	ASSERT_DEBUG_OK(s, dalic_debug_continue(s, 2));
	dalic_debug_status_t st = tl_debug_status(s);
	cr_expect_eq(st.stop, DALIC_DEBUG_STOP_LIMIT);
	cr_expect_eq(st.iterations_done, 2);
	EXPECT_STATUS(dalic_debug_continue(s, -1), DALIC_EEND);
	cr_expect_eq(tl_debug_status(s).iterations_done, 4);
	dalic_debug_perf_t perf;
	ASSERT_OK(dalic_debug_measure(s, 2, &perf));
	cr_expect_eq(perf.iterations, 2, "warm-up (prefetch depth 1) + 2 of the 4 fed batches");
	cr_expect_gt(perf.debug_seconds, 0);
	cr_expect_gt(perf.full_seconds, 0);
	cr_expect_gt(perf.slowdown, 0);
	cr_expect_eq(tl_debug_status(s).iterations_done, 4, "measuring does not move the session");
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

Test(debug_step, restart_rewinds_a_shuffling_reader)
{
	dalic_pipeline_t *p = tl_pipeline(4);
	dalic_op_t *reader = tl_op(p, "readers.file");
	ASSERT_OK(dalic_op_set_string(reader, "file_root", "samples/images"));
	ASSERT_OK(dalic_op_set_bool(reader, "random_shuffle", true));
	tl_output(p, reader);
	dalic_debug_t *s = tl_debug_open(p);
	tl_snapshot_t it[3];
	for (int k = 0; k < 3; k++) {
		ASSERT_DEBUG_OK(s, dalic_debug_next(s));
		tl_snap(&it[k], dalic_debug_output(s, 0));
	}
	ASSERT_DEBUG_OK(s, dalic_debug_restart(s));
	for (int k = 0; k < 3; k++) {
		ASSERT_DEBUG_OK(s, dalic_debug_next(s));
		cr_expect(tl_snap_equal(&it[k], dalic_debug_output(s, 0)),
		          "iteration %d: same files in the same order after restart", k);
		tl_snap_free(&it[k]);
	}
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}
