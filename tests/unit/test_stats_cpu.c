/*
 * CPU accounting (issue 26): per worker busy/idle and CPU time, per operator CPU next to wall
 * time, the process's getrusage, and the sentence on the workers. The pipelines use
 * _test__Sleep, whose samples either sleep (wall time, ~0 CPU) or spin (CPU): sleep vs spin is
 * the deterministic check, since a sleeping thread uses no CPU however loaded the machine is,
 * while a spinning one's CPU share depends on the load, so spin bounds are wide.
 */
#include "tests/testlib.h"

TestSuite(stats_cpu, .timeout = 60);

/* coin -> sleeper (sleeps 2 ms per sample) -> spinner (spins 2 ms per sample) */
static dalic_pipeline_t *stats_cpu_sleep_spin(const tl_mode_t *m, int threads)
{
	dalic_pipeline_params_t prm = tl_mode_params(m, 4, threads);
	prm.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	prm.seed = 3;
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_create(&prm, &p));
	ASSERT_OK(dalic_op_set_name(tl_stats_op(p, "random.coin_flip", NULL), "coin"));
	const char *names[2] = {"sleeper", "spinner"}, *inputs[2] = {"coin", "sleeper"};
	for (int i = 0; i < 2; i++) {
		dalic_op_t *op = tl_stats_op(p, "_test__Sleep", inputs[i]);
		ASSERT_OK(dalic_op_set_name(op, names[i]));
		ASSERT_OK(dalic_op_set_int(op, "sleep_us", 2000));
		ASSERT_OK(dalic_op_set_bool(op, "busy", i == 1));
	}
	ASSERT_OK(dalic_pipeline_add_output(p, "spinner", "cpu"));
	return p;
}

Test(stats_cpu, sleeping_samples_take_wall_time_but_no_cpu)
{
	dalic_pipeline_t *p = stats_cpu_sleep_spin(&tl_modes[0], 2);
	dalic_stats_t *s = tl_stats_attach(p, false);
	tl_stats_run(p, 10);
	dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
	const dalic_stats_operator_t *sleeper = tl_stats_find(snap, "sleeper");
	const dalic_stats_operator_t *spinner = tl_stats_find(snap, "spinner");
	/* 10 iterations x 4 samples x 2 ms in chunks: at least 80 ms each; the sleeper's
	 * oversleeping on a loaded machine stays well under 3x */
	const int64_t ms = 1000000;
	cr_expect_geq(sleeper->work_ns, 80 * ms, "%lld", (long long)sleeper->work_ns);
	cr_expect_lt(sleeper->work_ns, 240 * ms, "%lld", (long long)sleeper->work_ns);
	cr_expect_geq(spinner->work_ns, 80 * ms, "%lld", (long long)spinner->work_ns);
	/* a sleeping sample costs a few microseconds of CPU: under 10% of its 2 ms */
	cr_expect_lt(sleeper->cpu_ns, sleeper->work_ns / 10, "sleeper cpu %lld of %lld ns",
	             (long long)sleeper->cpu_ns, (long long)sleeper->work_ns);
	/* spinning is all CPU, less what other processes took from it */
	cr_expect_gt(spinner->cpu_ns, 5 * sleeper->cpu_ns, "spinner cpu %lld, sleeper %lld",
	             (long long)spinner->cpu_ns, (long long)sleeper->cpu_ns);
	cr_expect_leq(spinner->cpu_ns, spinner->work_ns + spinner->time.total_ns);
	/* the workers account for every chunk */
	cr_assert_eq(snap->num_workers, 2);
	int64_t busy = 0, cpu = 0, samples = 0;
	for (int w = 0; w < snap->num_workers; w++) {
		const dalic_stats_worker_t *wk = &snap->workers[w];
		busy += wk->busy_ns;
		cpu += wk->cpu_ns;
		samples += wk->samples;
		cr_expect_float_eq(wk->busy_share + wk->idle_share, 1.0, 1e-9);
		cr_expect_leq(wk->cpu_ns, wk->busy_ns + ms, "worker %d", w);
		if (wk->chunks > 0) {
			cr_assert_geq(wk->top_operator, 0);
			const char *top = snap->operators[wk->top_operator].name;
			cr_expect(!strcmp(top, "sleeper") || !strcmp(top, "spinner"), "%s", top);
			cr_expect_gt(wk->top_operator_share, 0.3);
		}
	}
	int64_t work = 0;
	for (int i = 0; i < snap->num_operators; i++)
		work += snap->operators[i].work_ns;
	cr_expect_eq(busy, work);
	/* the output's MakeContiguous copies per sample on the workers too, as DALI's does */
	const dalic_stats_operator_t *copy =
	    tl_stats_find(snap, "__MakeContiguous_CpuToCpu_spinner");
	cr_expect_eq(samples, 4 * 4 * 10, "coin, sleeper, spinner and the copy run per sample");
	cr_expect_leq(cpu, spinner->cpu_ns + sleeper->cpu_ns + tl_stats_find(snap, "coin")->cpu_ns +
	                       copy->cpu_ns);
	/* half the chunk time sleeps: the pool's CPU share is about half or less */
	cr_expect_lt(snap->workers_cpu_share, 0.7, "%.3f", snap->workers_cpu_share);
	/* the process spun at least part of the spinner's time */
	cr_expect_gt(snap->process_user_s + snap->process_sys_s, 0);
	cr_expect_geq(snap->process_elapsed_s, 0.08, "%.3f", snap->process_elapsed_s);
	cr_expect_gt(snap->online_cpus, 0);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
}

Test(stats_cpu, sleeping_workers_are_busy_but_off_the_cpu)
{
	dalic_pipeline_params_t prm = tl_mode_params(&tl_modes[0], 4, 2);
	prm.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_create(&prm, &p));
	dalic_op_t *op = tl_stats_op(p, "_test__Sleep", NULL);
	ASSERT_OK(dalic_op_set_name(op, "sleeper"));
	ASSERT_OK(dalic_op_set_string(op, "output", "value"));
	ASSERT_OK(dalic_op_set_int(op, "sleep_us", 3000));
	ASSERT_OK(dalic_pipeline_add_output(p, "sleeper", "cpu"));
	dalic_stats_t *s = tl_stats_attach(p, false);
	tl_stats_run(p, 10);
	dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
	/* 4 samples x 3 ms on 2 worker indices per iteration, nothing else: both are busy most
	 * of the wall time (the rest is the executor between iterations) */
	cr_expect_gt(snap->workers_busy_share, 0.6, "%.3f", snap->workers_busy_share);
	cr_expect_lt(snap->workers_cpu_share, 0.1, "%.3f", snap->workers_cpu_share);
	if (snap->workers_busy_share >= 0.85)
		EXPECT_HAS(snap->cpu_verdict, "but on a CPU only");
	else
		EXPECT_HAS(snap->cpu_verdict, "workers busy");
	cr_expect(!strstr(snap->cpu_verdict, "CPU-bound"), "%s", snap->cpu_verdict);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
}

/* The batch sleeps 4 ms on the stage thread: the pool's workers have almost nothing to do, and
 * the sentence says so and names the operator that holds the pipeline back. */
Test(stats_cpu, idle_workers_name_the_operator_outside_the_pool)
{
	dalic_pipeline_params_t prm = tl_mode_params(&tl_modes[0], 4, 2);
	prm.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_create(&prm, &p));
	dalic_op_t *batch = tl_stats_op(p, "_test__SleepBatch", NULL);
	ASSERT_OK(dalic_op_set_name(batch, "slow_batch"));
	ASSERT_OK(dalic_op_set_string(batch, "output", "value"));
	ASSERT_OK(dalic_op_set_int(batch, "sleep_us", 1000));
	dalic_op_t *quick = tl_stats_op(p, "_test__Sleep", "slow_batch");
	ASSERT_OK(dalic_op_set_name(quick, "quick"));
	ASSERT_OK(dalic_pipeline_add_output(p, "quick", "cpu"));
	dalic_stats_t *s = tl_stats_attach(p, false);
	tl_stats_run(p, 10);
	dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
	cr_expect_lt(snap->workers_busy_share, 0.3, "%.3f", snap->workers_busy_share);
	EXPECT_HAS(snap->cpu_verdict, "more threads will not help");
	EXPECT_HAS(snap->cpu_verdict, "slow_batch (_test__SleepBatch, outside the worker pool)");
	/* the synchronous executor is input-bound by definition: its reason quotes the sentence */
	cr_expect_eq(snap->verdict, DALIC_STATS_VERDICT_INPUT_BOUND, "%s", snap->verdict_reason);
	EXPECT_HAS(snap->verdict_reason, "workers idle");
	/* a batch operator's CPU is its stage thread's: sleeping, near zero */
	const dalic_stats_operator_t *b = tl_stats_find(snap, "slow_batch");
	cr_expect_geq(b->time.total_ns, 10 * 4 * 1000000LL);
	cr_expect_eq(b->work_ns, 0);
	cr_expect_lt(b->cpu_ns, b->time.total_ns / 10, "%lld of %lld", (long long)b->cpu_ns,
	             (long long)b->time.total_ns);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
}

/* One worker spinning: its CPU share is whatever the machine lets it have, so the sentence is
 * "CPU-bound" when it got the cores and "off the CPU" when other processes took them. */
Test(stats_cpu, spinning_worker_is_cpu_bound_or_starved)
{
	dalic_pipeline_params_t prm = tl_mode_params(&tl_modes[0], 4, 1);
	prm.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_create(&prm, &p));
	dalic_op_t *op = tl_stats_op(p, "_test__Sleep", NULL);
	ASSERT_OK(dalic_op_set_name(op, "spin"));
	ASSERT_OK(dalic_op_set_string(op, "output", "value"));
	ASSERT_OK(dalic_op_set_int(op, "sleep_us", 1000));
	ASSERT_OK(dalic_op_set_bool(op, "busy", true));
	ASSERT_OK(dalic_pipeline_add_output(p, "spin", "cpu"));
	dalic_stats_t *s = tl_stats_attach(p, false);
	tl_stats_run(p, 10);
	dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
	cr_assert_eq(snap->num_workers, 1);
	const dalic_stats_worker_t *w = &snap->workers[0];
	cr_expect_eq(w->samples, 80); /* spin's and its output copy's (MakeContiguous) */
	cr_expect_geq(w->busy_ns, 40 * 1000000LL);
	cr_expect_gt(w->cpu_share, 0.0);
	if (snap->workers_busy_share >= 0.85 && snap->workers_cpu_share >= 0.5)
		EXPECT_HAS(snap->cpu_verdict, "CPU-bound: 1 of 1 workers busy");
	else if (snap->workers_busy_share >= 0.85)
		EXPECT_HAS(snap->cpu_verdict, "but on a CPU only");
	else
		cr_expect(!strstr(snap->cpu_verdict, "CPU-bound"), "%s", snap->cpu_verdict);
	/* the process's own CPU covers the spinning the worker's clock saw */
	cr_expect_geq(snap->process_user_s + snap->process_sys_s + 0.01, w->cpu_ns * 1e-9,
	              "process %.3f s, worker %.3f s", snap->process_user_s + snap->process_sys_s,
	              w->cpu_ns * 1e-9);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
}

Test(stats_cpu, reset_clears_the_workers)
{
	dalic_pipeline_t *p = stats_cpu_sleep_spin(&tl_modes[0], 2);
	dalic_stats_t *s = tl_stats_attach(p, false);
	tl_stats_run(p, 3);
	dalic_stats_reset(s);
	dalic_stats_snapshot_t *snap = NULL;
	ASSERT_OK(dalic_stats_snapshot(s, &snap));
	for (int w = 0; w < snap->num_workers; w++) {
		cr_expect_eq(snap->workers[w].busy_ns, 0);
		cr_expect_eq(snap->workers[w].chunks, 0);
	}
	cr_expect_eq(tl_stats_find(snap, "spinner")->cpu_ns, 0);
	cr_expect_str_eq(snap->cpu_verdict, "");
	dalic_stats_snapshot_free(snap);
	tl_stats_run(p, 2);
	ASSERT_OK(dalic_stats_snapshot(s, &snap));
	int64_t samples = 0;
	for (int w = 0; w < snap->num_workers; w++)
		samples += snap->workers[w].samples;
	cr_expect_eq(samples, 4 * 4 * 2); /* with the output's MakeContiguous */
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
	dalic_pipeline_destroy(p);
}
