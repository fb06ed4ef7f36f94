/*
 * Time and queue numbers checked for consistency, in every executor mode: every operator ran
 * at least once per ready iteration, its spans fit inside its stage's, the stage shares sum
 * to 100% and the operator shares to 100% minus the executor's overhead, percentiles are
 * ordered, the bottleneck is the operator made slow on purpose, queue occupancy never
 * exceeds the depth; and the input-bound verdict goes the right way when the pipeline or the
 * consumer is made the slow side.
 */
#include "tests/testlib.h"

#include <time.h>

TestSuite(stats_timing, .timeout = 60);

/* coin -> slow (busy 300 us per sample) -> output on the gpu (emulated without one), so the
 * cpu, mixed and gpu stages all have work. */
static dalic_pipeline_t *stats_timing_slow_pipeline(const tl_mode_t *m, int64_t sleep_us)
{
	dalic_pipeline_params_t prm = tl_mode_params(m, 4, 2);
	prm.device_id = 0; /* gpu stages: emulated on the cpu when there is no GPU */
	prm.seed = 7;
	prm.enable_memory_stats = true;
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_create(&prm, &p));
	dalic_op_t *coin = tl_stats_op(p, "random.coin_flip", NULL);
	ASSERT_OK(dalic_op_set_name(coin, "coin"));
	dalic_op_t *slow = tl_stats_op(p, "_test__Sleep", "coin");
	ASSERT_OK(dalic_op_set_name(slow, "slow"));
	ASSERT_OK(dalic_op_set_string(slow, "output", "copy"));
	ASSERT_OK(dalic_op_set_int(slow, "sleep_us", sleep_us));
	ASSERT_OK(dalic_op_set_bool(slow, "busy", true));
	/* a gpu operator after the transfer: a transfer's result is contiguous, so without one
	 * the output would need no MakeContiguous and the gpu stage would be empty (DALI) */
	dalic_op_t *on_gpu = NULL;
	ASSERT_OK(dalic_pipeline_add_op(p, "_test__Sleep", "gpu", &on_gpu));
	ASSERT_OK(dalic_op_add_input(on_gpu, "slow", "gpu"));
	ASSERT_OK(dalic_op_set_name(on_gpu, "on_gpu"));
	ASSERT_OK(dalic_op_set_string(on_gpu, "output", "copy"));
	ASSERT_OK(dalic_pipeline_add_output(p, "on_gpu", "gpu"));
	return p;
}

static void stats_timing_expect_ordered(const dalic_stats_timing_t *t, const char *what)
{
	cr_expect_leq(t->min_ns, t->p50_ns, "%s", what);
	cr_expect_leq(t->p50_ns, t->p90_ns, "%s", what);
	cr_expect_leq(t->p90_ns, t->p99_ns, "%s", what);
	cr_expect_leq(t->p99_ns, t->max_ns, "%s", what);
	cr_expect_leq((double)t->min_ns, t->mean_ns, "%s", what);
	cr_expect_geq((double)t->max_ns, t->mean_ns, "%s", what);
	cr_expect_float_eq((double)t->total_ns, t->mean_ns * (double)t->count,
	                   1e-6 * (double)t->total_ns + 1, "%s", what);
}

Test(stats_timing, shares_bottleneck_and_queues_are_consistent_in_every_mode)
{
	for (int m = 0; m < TL_NUM_MODES; m++) {
		const char *mode = tl_modes[m].name;
		dalic_pipeline_t *p = stats_timing_slow_pipeline(&tl_modes[m], 300);
		dalic_stats_t *s = tl_stats_attach(p, false);
		tl_stats_run(p, 12);
		/* let the prefetched iterations finish, so no stage is cut short at shutdown */
		tl_stats_wait_idle(s, &tl_modes[m], 12);
		dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);

		cr_expect_geq(snap->iterations, 12, "%s", mode);
		cr_expect_eq(snap->samples, 4 * snap->iterations, "%s: %lld samples in %lld its",
		             mode, (long long)snap->samples, (long long)snap->iterations);
		int present = 0;
		double stage_shares = 0, op_shares = 0;
		for (int st = 0; st < 3; st++) {
			const dalic_stats_stage_t *stage = &snap->stages[st];
			present += stage->present;
			stage_shares += stage->share;
			if (!stage->present)
				continue;
			stats_timing_expect_ordered(&stage->time, stage->name);
			int64_t ops_total = 0;
			for (int i = 0; i < snap->num_operators; i++)
				if (snap->operators[i].stage == st)
					ops_total += snap->operators[i].time.total_ns;
			cr_expect_leq(ops_total, stage->time.total_ns,
			              "%s: operators of stage %s took longer than the stage", mode,
			              stage->name);
		}
		cr_expect_eq(present, 3, "%s: expected cpu, mixed and gpu stages", mode);
		cr_expect_float_eq(stage_shares, 1.0, 1e-9, "%s: stage shares sum to %f", mode,
		                   stage_shares);
		for (int i = 0; i < snap->num_operators; i++) {
			const dalic_stats_operator_t *op = &snap->operators[i];
			cr_expect_geq(op->time.count, snap->iterations, "%s: %s ran %lld times",
			              mode, op->name, (long long)op->time.count);
			stats_timing_expect_ordered(&op->time, op->name);
			op_shares += op->share;
		}
		cr_expect_leq(op_shares, 1.0 + 1e-9, "%s", mode);
		cr_expect_float_eq(op_shares + snap->overhead_share, 1.0, 1e-9, "%s", mode);
		/* 4 samples x 300 us on 2 workers: at least 600 us per run of "slow" */
		const dalic_stats_operator_t *slow = tl_stats_find(snap, "slow");
		cr_expect_geq(slow->time.p50_ns, 550000, "%s: slow p50 %lld ns", mode,
		              (long long)slow->time.p50_ns);
		cr_assert_geq(snap->bottleneck_operator, 0);
		cr_expect_str_eq(snap->operators[snap->bottleneck_operator].name, "slow", "%s",
		                 mode);
		/* 1.2 ms of sleep against microseconds of work: well over a third of the time
		 * even under a sanitizer on a loaded machine */
		cr_expect_gt(slow->share, 0.4, "%s: slow share %.3f", mode, slow->share);
		cr_expect_eq(snap->bottleneck_stage, 0, "%s", mode);
		/* queues */
		int queues = 0;
		for (int q = 0; q < DALIC_STATS_QUEUES; q++) {
			const dalic_stats_queue_t *d = &snap->queues[q];
			if (!d->present)
				continue;
			queues++;
			int want = q == DALIC_STATS_QUEUE_CPU ? tl_modes[m].cpu : tl_modes[m].gpu;
			cr_expect_eq(d->depth, want, "%s: %s depth", mode, d->name);
			cr_expect_leq(d->max_occupancy, d->depth, "%s: %s", mode, d->name);
			cr_expect_leq(d->occupancy, d->depth, "%s: %s", mode, d->name);
			cr_expect_leq(d->mean_occupancy, d->max_occupancy + 1e-9, "%s", mode);
			cr_expect_gt(d->num_samples, 0);
			for (int i = 0; i < d->num_samples; i++) {
				cr_expect_geq(d->samples[i].occupancy, 0);
				cr_expect_leq(d->samples[i].occupancy, d->depth, "%s: %s sample %d",
				              mode, d->name, i);
			}
		}
		cr_expect_gt(queues, 0, "%s: no queue reported", mode);
		cr_expect_eq(snap->unknown_events, 0);
		dalic_stats_snapshot_free(snap);
		dalic_stats_destroy(s);
	}
}

Test(stats_timing, synchronous_consumer_is_input_bound)
{
	dalic_pipeline_t *p = stats_timing_slow_pipeline(&tl_modes[0], 200);
	dalic_stats_t *s = tl_stats_attach(p, false);
	tl_stats_run(p, 8);
	dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
	cr_expect_eq(snap->verdict, DALIC_STATS_VERDICT_INPUT_BOUND, "%s: %s", snap->verdict_name,
	             snap->verdict_reason);
	cr_expect(!snap->consumer_wait_measured);
	cr_expect_gt(snap->consumer_wait_share, 0.5);
	EXPECT_HAS(snap->verdict_reason, "slow");
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
}

Test(stats_timing, async_slow_pipeline_is_input_bound)
{
	dalic_pipeline_t *p = stats_timing_slow_pipeline(&tl_modes[2], 1000);
	dalic_stats_t *s = tl_stats_attach(p, false);
	tl_stats_run(p, 10);
	dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
	cr_expect(snap->consumer_wait_measured);
	cr_expect_eq(snap->verdict, DALIC_STATS_VERDICT_INPUT_BOUND, "%s: %s", snap->verdict_name,
	             snap->verdict_reason);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
}

Test(stats_timing, async_slow_consumer_is_consumer_bound)
{
	dalic_pipeline_t *p = stats_timing_slow_pipeline(&tl_modes[2], 10);
	dalic_stats_t *s = tl_stats_attach(p, false);
	for (int i = 0; i < 12; i++) {
		ASSERT_OK(dalic_pipeline_run(p));
		if (i == 1) /* the first batch is always waited for: judge the steady state */
			dalic_stats_reset(s);
		tl_sleep_ms(8); /* the "training step": much longer than an iteration */
	}
	dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
	cr_expect_eq(snap->verdict, DALIC_STATS_VERDICT_CONSUMER_BOUND, "%s: %s",
	             snap->verdict_name, snap->verdict_reason);
	cr_expect_lt(snap->pipeline_utilization, 0.5, "%.3f", snap->pipeline_utilization);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
}

Test(stats_timing, reset_forgets_and_counts_again)
{
	dalic_pipeline_t *p = stats_timing_slow_pipeline(&tl_modes[0], 10);
	dalic_stats_t *s = tl_stats_attach(p, false);
	tl_stats_run(p, 5);
	dalic_stats_reset(s);
	tl_stats_run(p, 3);
	dalic_stats_snapshot_t *snap = NULL;
	ASSERT_OK(dalic_stats_snapshot(s, &snap));
	cr_expect_eq(snap->iterations, 3);
	cr_expect_eq(tl_stats_find(snap, "slow")->time.count, 3);
	/* fixed shapes: everything was allocated before the reset */
	cr_expect_eq(snap->allocations, 0);
	cr_expect_eq(snap->last_allocation_iteration, -1);
	/* memory maxima are measured again from the first run after the reset */
	cr_expect_eq(tl_stats_find(snap, "coin")->outputs[0].real_memory_size, 16);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
	dalic_pipeline_destroy(p);
}

Test(stats_timing, snapshot_before_build_is_empty_and_valid)
{
	dalic_pipeline_t *p = stats_timing_slow_pipeline(&tl_modes[1], 10);
	dalic_stats_t *s = tl_stats_attach(p, false);
	dalic_stats_snapshot_t *snap = NULL;
	ASSERT_OK(dalic_stats_snapshot(s, &snap));
	cr_expect(!snap->built);
	cr_expect_eq(snap->num_operators, 0);
	cr_expect_eq(snap->iterations, 0);
	cr_expect_eq(snap->verdict, DALIC_STATS_VERDICT_UNKNOWN);
	cr_expect_eq(snap->bottleneck_operator, -1);
	cr_expect_str_eq(snap->executor_mode, "pipelined");
	dalic_stats_snapshot_free(snap);
	/* the layout appears with the build, hooks installed before it still count */
	tl_stats_run(p, 2);
	ASSERT_OK(dalic_stats_snapshot(s, &snap));
	cr_expect(snap->built);
	/* coin, slow, the copy to the gpu, on_gpu, the output's MakeContiguous */
	cr_expect_eq(snap->num_operators, 5);
	cr_expect_geq(snap->iterations, 2);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
	dalic_pipeline_destroy(p);
}
