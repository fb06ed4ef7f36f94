/*
 * Separated queues (prefetch_queue_depth given as cpu/gpu sizes): the cpu stage runs up to
 * cpu_size iterations ahead of the gpu stages, which are held to gpu_size by the consumer;
 * uniform queues hold every stage to the one depth. Counted with the observer's stage runs.
 */

#include "engine/pipeline.h"
#include "tests/testlib/exec.h"

TestSuite(exec_separated, .timeout = 60);

/* Waits until the stages stop moving, then returns the runs of stage s. */
static int exec_separated_settled(tl_log_t *l, int s, int expect)
{
	tl_wait_stage_runs(l, s, expect);
	tl_sleep_ms(30); /* and nothing more happens */
	return atomic_load(&l->stage_runs[s]);
}

static dalic_pipeline_t *exec_separated_pipe(int cpu, int gpu, tl_seq_source_t *src, tl_log_t *log,
                                             bool separated)
{
	tl_mode_t m = {"separated", true, true, separated, cpu, gpu};
	dalic_pipeline_params_t params = tl_mode_params(&m, 2, 2);
	dalic_pipeline_t *p = tl_sleep_pipeline(&params, "gpu", src, NULL);
	tl_log_init(log, 2);
	dalic_observer_t obs = tl_log_observer(log);
	dalic_pipeline_set_observer(p, &obs);
	return p;
}

Test(exec_separated, cpu_runs_ahead_by_cpu_size)
{
	const int sizes[][2] = {{3, 1}, {4, 2}, {2, 3}};
	for (int t = 0; t < 3; t++) {
		int C = sizes[t][0], G = sizes[t][1];
		tl_seq_source_t src;
		tl_seq_source_init(&src, 2);
		tl_log_t log;
		dalic_pipeline_t *p = exec_separated_pipe(C, G, &src, &log, true);
		/* prefetch: C iterations scheduled; min(C, G) go all the way */
		ASSERT_OK(dalic_pipeline_schedule_run(p));
		int full = C < G ? C : G;
		cr_expect_eq(exec_separated_settled(&log, DALIC_STAGE_CPU, C), C, "cpu %d gpu %d",
		             C, G);
		cr_expect_eq(exec_separated_settled(&log, DALIC_STAGE_GPU, full), full,
		             "cpu %d gpu %d", C, G);
		/* more scheduled, nothing consumed: the cpu stage fills its own C slots while the
		 * gpu stages hold their G */
		for (int k = 0; k < C + 2; k++)
			ASSERT_OK(dalic_pipeline_schedule_run(p));
		cr_expect_eq(exec_separated_settled(&log, DALIC_STAGE_CPU, G + C), G + C,
		             "cpu %d gpu %d", C, G);
		cr_expect_eq(atomic_load(&log.stage_runs[DALIC_STAGE_GPU]), G);
		cr_expect_eq(atomic_load(&log.max_cpu_level), C);
		/* consuming one frees a gpu slot: one more iteration moves through each stage */
		ASSERT_OK(dalic_pipeline_share_outputs(p));
		tl_expect_seq_values(p, 0, 2, "separated");
		ASSERT_OK(dalic_pipeline_release_outputs(p));
		cr_expect_eq(exec_separated_settled(&log, DALIC_STAGE_GPU, G + 1), G + 1);
		cr_expect_eq(exec_separated_settled(&log, DALIC_STAGE_CPU, G + C + 1), G + C + 1);
		/* the mixed stage waited for a free gpu slot (reported when the wait ended) */
		cr_expect_geq(atomic_load(&log.waits[DALIC_WAIT_FREE_SLOT]), 1);
		for (int k = 1; k < 2 * C + 2; k++) {
			ASSERT_OK(dalic_pipeline_outputs(p));
			tl_expect_seq_values(p, k, 2, "separated");
		}
		dalic_pipeline_destroy(p);
	}
}

Test(exec_separated, uniform_queue_holds_every_stage_to_the_depth)
{
	tl_seq_source_t src;
	tl_seq_source_init(&src, 2);
	tl_log_t log;
	dalic_pipeline_t *p = exec_separated_pipe(2, 2, &src, &log, false);
	ASSERT_OK(dalic_pipeline_schedule_run(p));
	for (int k = 0; k < 4; k++)
		ASSERT_OK(dalic_pipeline_schedule_run(p));
	cr_expect_eq(exec_separated_settled(&log, DALIC_STAGE_CPU, 2), 2);
	cr_expect_eq(atomic_load(&log.stage_runs[DALIC_STAGE_GPU]), 2);
	for (int k = 0; k < 6; k++) {
		ASSERT_OK(dalic_pipeline_outputs(p));
		tl_expect_seq_values(p, k, 2, "uniform");
	}
	dalic_pipeline_destroy(p);
}

/* A cpu-only pipeline with separated sizes: its outputs live in cpu slots, released by the
 * consumer, so the cpu stage is held to cpu_size. */
Test(exec_separated, cpu_only_pipeline)
{
	tl_seq_source_t src;
	tl_seq_source_init(&src, 3);
	tl_mode_t m = {"separated", true, true, true, 3, 1};
	dalic_pipeline_params_t params = tl_mode_params(&m, 3, 2);
	dalic_pipeline_t *p = tl_sleep_pipeline(&params, "cpu", &src, NULL);
	tl_log_t log;
	tl_log_init(&log, 2);
	dalic_observer_t obs = tl_log_observer(&log);
	dalic_pipeline_set_observer(p, &obs);
	ASSERT_OK(dalic_pipeline_schedule_run(p));
	for (int k = 0; k < 3; k++)
		ASSERT_OK(dalic_pipeline_schedule_run(p));
	cr_expect_eq(exec_separated_settled(&log, DALIC_STAGE_CPU, 3), 3);
	for (int k = 0; k < 6; k++) {
		ASSERT_OK(dalic_pipeline_outputs(p));
		tl_expect_seq_values(p, k, 3, "separated cpu-only");
		if (k == 5)
			break;
		ASSERT_OK(dalic_pipeline_schedule_run(p));
	}
	dalic_pipeline_destroy(p);
}
