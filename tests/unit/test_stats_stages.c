/*
 * Where an iteration's time goes (issue 26): per stage, the wait between the previous stage's
 * end and its start (cpu -> mixed -> gpu), the wait of a ready iteration until the consumer
 * takes it, and the bytes each prefetch queue holds. The waits come from sleeping operators
 * and a sleeping consumer, which take as long on a loaded machine as on an idle one (they
 * may only take longer), so the lower bounds are firm and the upper ones wide.
 */
#include "tests/testlib.h"

TestSuite(stats_stages, .timeout = 60);

/* coin (cpu) -> cpu_sleep (cpu, 1 ms per sample) -> gpu_sleep (gpu, sleep_us per batch on the
 * stage thread); without a GPU the gpu stages are emulated on the CPU. */
static dalic_pipeline_t *stats_stages_pipeline(const tl_mode_t *m, int64_t gpu_us)
{
	dalic_pipeline_params_t prm = tl_mode_params(m, 4, 2);
	prm.device_id = 0;
	prm.seed = 5;
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_create(&prm, &p));
	ASSERT_OK(dalic_op_set_name(tl_stats_op(p, "random.coin_flip", NULL), "coin"));
	dalic_op_t *cpu = tl_stats_op(p, "_test__Sleep", "coin");
	ASSERT_OK(dalic_op_set_name(cpu, "cpu_sleep"));
	ASSERT_OK(dalic_op_set_int(cpu, "sleep_us", 1000));
	dalic_op_t *gpu = NULL;
	ASSERT_OK(dalic_pipeline_add_op(p, "_test__SleepBatch", "gpu", &gpu));
	ASSERT_OK(dalic_op_add_input(gpu, "cpu_sleep", "gpu"));
	ASSERT_OK(dalic_op_set_name(gpu, "gpu_sleep"));
	ASSERT_OK(dalic_op_set_int(gpu, "sleep_us", gpu_us / 4));
	ASSERT_OK(dalic_pipeline_add_output(p, "gpu_sleep", "gpu"));
	return p;
}

Test(stats_stages, synchronous_stages_hand_over_at_once)
{
	dalic_pipeline_t *p = stats_stages_pipeline(&tl_modes[0], 2000);
	dalic_stats_t *s = tl_stats_attach(p, false);
	tl_stats_run(p, 8);
	dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
	const dalic_stats_stage_t *cpu = &snap->stages[DALIC_STAGE_CPU];
	const dalic_stats_stage_t *mixed = &snap->stages[DALIC_STAGE_MIXED];
	const dalic_stats_stage_t *gpu = &snap->stages[DALIC_STAGE_GPU];
	cr_assert(cpu->present && mixed->present && gpu->present);
	cr_expect_eq(cpu->wait_before.count, 0, "the first stage waits for nothing before it");
	cr_expect_eq(mixed->wait_before.count, 8);
	cr_expect_eq(gpu->wait_before.count, 8);
	/* one thread runs cpu, mixed and gpu back to back: the hand-off is the executor's own
	 * bookkeeping (microseconds; 2 ms allows for a preempted test on a loaded machine) */
	cr_expect_lt(mixed->wait_before.p50_ns, 2000000, "%lld",
	             (long long)mixed->wait_before.p50_ns);
	cr_expect_lt(gpu->wait_before.p50_ns, 2000000, "%lld", (long long)gpu->wait_before.p50_ns);
	/* the gpu stage sleeps 2 ms per batch */
	cr_expect_geq(gpu->time.p50_ns, 2000000);
	/* the caller takes each iteration right after running it */
	const dalic_stats_timing_t *ready = &snap->waits[DALIC_STATS_WAIT_READY];
	cr_expect_eq(ready->count, 8);
	cr_expect_lt(ready->p50_ns, 2000000, "%lld", (long long)ready->p50_ns);
	/* stages and hand-offs fit in the iteration (scheduled -> ready) */
	double parts = 0;
	for (int st = 0; st < 3; st++)
		parts += snap->stages[st].time.mean_ns + snap->stages[st].wait_before.mean_ns;
	cr_expect_leq(parts, snap->iteration_time.mean_ns * 1.02 + 1000, "%.0f > %.0f", parts,
	              snap->iteration_time.mean_ns);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
}

/* A consumer that takes an iteration every 15 ms from a pipeline that makes one in ~2 ms:
 * prefetched iterations wait for it. */
Test(stats_stages, slow_consumer_leaves_ready_batches_waiting)
{
	dalic_pipeline_t *p = stats_stages_pipeline(&tl_modes[2], 2000);
	dalic_stats_t *s = tl_stats_attach(p, false);
	for (int i = 0; i < 10; i++) {
		ASSERT_OK(dalic_pipeline_run(p));
		if (i == 1)
			dalic_stats_reset(s); /* judge the steady state */
		tl_sleep_ms(15);
	}
	dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
	const dalic_stats_timing_t *ready = &snap->waits[DALIC_STATS_WAIT_READY];
	cr_expect_geq(ready->count, 6, "%lld", (long long)ready->count);
	/* with the queue full, an iteration is ready at least one consumer period minus one
	 * iteration's work before it is taken: more than 5 ms */
	cr_expect_gt(ready->p50_ns, 5000000, "ready wait p50 %lld ns", (long long)ready->p50_ns);
	cr_expect_lt(ready->p50_ns, 200000000, "%lld", (long long)ready->p50_ns);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
}

/* The gpu stage sleeps 8 ms per batch, the cpu stage ~2 ms: the cpu stage runs ahead as far as
 * its queue lets it, and its batches wait for the gpu stage's thread — a hand-off of several
 * milliseconds before the mixed or the gpu stage. */
Test(stats_stages, slow_gpu_stage_keeps_batches_waiting_before_it)
{
	dalic_pipeline_t *p = stats_stages_pipeline(&tl_modes[2], 8000);
	dalic_stats_t *s = tl_stats_attach(p, false);
	tl_stats_run(p, 12);
	dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
	const dalic_stats_stage_t *mixed = &snap->stages[DALIC_STAGE_MIXED];
	const dalic_stats_stage_t *gpu = &snap->stages[DALIC_STAGE_GPU];
	cr_expect_geq(gpu->time.p50_ns, 8000000);
	int64_t waited = mixed->wait_before.total_ns + gpu->wait_before.total_ns;
	int64_t p99 = mixed->wait_before.p99_ns > gpu->wait_before.p99_ns
	                  ? mixed->wait_before.p99_ns
	                  : gpu->wait_before.p99_ns;
	cr_expect_gt(p99, 2000000, "hand-off p99 mixed %lld, gpu %lld ns",
	             (long long)mixed->wait_before.p99_ns, (long long)gpu->wait_before.p99_ns);
	cr_expect_gt(waited, 12 * 1000000LL, "%lld ns waited between stages", (long long)waited);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
}

Test(stats_stages, queues_hold_their_stages_bytes)
{
	dalic_pipeline_t *p = stats_stages_pipeline(&tl_modes[2], 200);
	dalic_stats_t *s = tl_stats_attach(p, false);
	tl_stats_run(p, 4);
	dalic_stats_snapshot_t *snap = NULL;
	ASSERT_OK(dalic_stats_snapshot(s, &snap));
	const dalic_stats_queue_t *cq = &snap->queues[DALIC_STATS_QUEUE_CPU];
	const dalic_stats_queue_t *gq = &snap->queues[DALIC_STATS_QUEUE_GPU];
	cr_assert(cq->present && gq->present);
	cr_expect_gt(cq->bytes, 0);
	cr_expect_gt(gq->bytes, 0);
	cr_expect_eq(cq->bytes + gq->bytes, snap->bytes_live);
	/* the cpu queue holds what the cpu operators' outputs hold */
	int64_t cpu_bytes = 0;
	for (int i = 0; i < snap->num_operators; i++)
		if (snap->operators[i].stage == DALIC_STAGE_CPU)
			for (int o = 0; o < snap->operators[i].num_outputs; o++)
				cpu_bytes += snap->operators[i].outputs[o].bytes_live;
	cr_expect_eq(cq->bytes, cpu_bytes);
	dalic_stats_snapshot_free(snap);
	dalic_pipeline_destroy(p); /* async: iterations in flight call the hooks until here */
	dalic_stats_pipeline_destroyed(s);
	dalic_stats_destroy(s);
}
