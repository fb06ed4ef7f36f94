/*
 * Executor contracts in every mode (simple, pipelined, async, separated), on a cpu-only
 * pipeline and on one with cpu, mixed and gpu stages: outputs come in iteration order, the
 * first run fills the queues in DALI's order, buffers stay valid until released, and the
 * observer hooks fire from the right places.
 */
#include <criterion/criterion.h>

#include "engine/executor.h"
#include "engine/pipeline.h"
#include "test_exec_util.h"

#include <string.h>

TestSuite(exec_modes, .timeout = 60);

static const char *const devices[] = {"cpu", "gpu"};

Test(exec_modes, outputs_in_iteration_order)
{
	FOR_EACH_MODE(m)
	for (int d = 0; d < 2; d++) {
		test_source_t src;
		test_source_init(&src, 5);
		dalic_pipeline_params_t params = test_params(m, 5, 3);
		dalic_pipeline_t *p = test_pipe_sleep(&params, devices[d], &src, "max_us", 200, NULL);
		test_log_t log;
		test_log_init(&log, 3);
		dalic_observer_t obs = test_log_observer(&log);
		dalic_pipeline_set_observer(p, &obs);
		for (int k = 0; k < 20; k++) {
			cr_assert_eq(dalic_pipeline_run(p), 0, "%s/%s: %s", m->name, devices[d],
				     dalic_last_error());
			test_expect_source_values(p, k, 5, m->name);
			cr_expect_str_eq(dalic_batch_device(dalic_pipeline_output(p, 0)),
					 devices[d]);
		}
		dalic_pipeline_destroy(p);
		/* every stage ran its iterations in order, and every chunk ran on a pool worker */
		int64_t last[3] = {-1, -1, -1};
		for (int i = 0; i < log.n; i++) {
			int s = log.ev[i].stage;
			if (s < 0)
				continue;
			cr_expect_eq(log.ev[i].iteration, last[s] + 1, "%s/%s stage %d", m->name,
				     devices[d], s);
			last[s] = log.ev[i].iteration;
		}
		cr_expect_gt(log.chunks, 0);
		cr_expect_eq(log.bad_thread, 0, "%s: thread index outside [0, num_threads)",
			     m->name);
		cr_expect_geq(atomic_load(&log.stage_runs[0]), 20);
		if (d == 1) /* the copy to the device and the gpu op ran in their stages */
			cr_expect_geq(atomic_load(&log.stage_runs[2]), 20, "%s", m->name);
	}
}

/* DALI's prefetch: the first run schedules the queue depth (cpu size) of iterations; each
 * later run schedules one. Callbacks run on schedule, so the counts are exact in every mode. */
Test(exec_modes, first_run_fills_the_queue)
{
	FOR_EACH_MODE(m)
	{
		test_source_t src;
		test_source_init(&src, 2);
		dalic_pipeline_params_t params = test_params(m, 2, 2);
		dalic_pipeline_t *p = test_pipe_sleep(&params, "gpu", &src, NULL);
		test_log_t log;
		test_log_init(&log, 2);
		dalic_observer_t obs = test_log_observer(&log);
		dalic_pipeline_set_observer(p, &obs);
		cr_assert_eq(dalic_pipeline_run(p), 0, "%s", dalic_last_error());
		int fill = m->pipelined ? m->cpu : 1;
		cr_expect_eq(atomic_load(&src.calls), fill, "%s", m->name);
		test_expect_source_values(p, 0, 2, m->name);
		/* the queue fills: min(cpu, gpu) full iterations, then cpu-only ones */
		int full = fill < m->gpu ? fill : m->gpu;
		cr_expect_eq(test_wait_stage_runs(&log, 0, fill), fill, "%s", m->name);
		cr_expect_eq(test_wait_stage_runs(&log, 2, full), full, "%s", m->name);
		test_sleep_ms(20);
		cr_expect_eq(atomic_load(&log.stage_runs[0]), fill, "%s: cpu ran ahead", m->name);
		cr_expect_eq(atomic_load(&log.stage_runs[2]), full, "%s: gpu ran ahead", m->name);
		if (!m->async) { /* sync: whole iterations, one after the other */
			pthread_mutex_lock(&log.mu);
			for (int i = 0; i < log.n; i++)
				cr_expect_eq(log.ev[i].iteration, i / 4, "%s event %d", m->name, i);
			pthread_mutex_unlock(&log.mu);
		}
		for (int k = 1; k < 6; k++) {
			cr_assert_eq(dalic_pipeline_run(p), 0, "%s", dalic_last_error());
			test_expect_source_values(p, k, 2, m->name);
			cr_expect_eq(atomic_load(&src.calls), fill + k, "%s", m->name);
		}
		dalic_pipeline_destroy(p);
	}
}

/* Shared outputs stay valid — and unchanged — while the pipeline runs ahead, until released. */
Test(exec_modes, buffers_valid_until_released)
{
	FOR_EACH_MODE(m)
	{
		test_source_t src;
		test_source_init(&src, 4);
		dalic_pipeline_params_t params = test_params(m, 4, 2);
		dalic_pipeline_t *p = test_pipe_sleep(&params, "gpu", &src, NULL);
		cr_assert_eq(dalic_pipeline_schedule_run(p), 0, "%s", dalic_last_error());
		cr_assert_eq(dalic_pipeline_share_outputs(p), 0, "%s", dalic_last_error());
		const dalic_batch_t *b0 = dalic_pipeline_output(p, 0);
		const int64_t *d0[4];
		for (int i = 0; i < 4; i++)
			d0[i] = dalic_batch_data(b0, i);
		test_expect_source_values(p, 0, 4, m->name);
		/* let the pipeline run as far as it can while iteration 0 is held */
		for (int k = 0; k < 3; k++) {
			int rc = dalic_pipeline_schedule_run(p);
			cr_assert(rc == 0 || (rc == DALIC_ESTATE && !m->async), "%s: %s", m->name,
				  dalic_last_error());
		}
		test_sleep_ms(30);
		cr_expect_eq(dalic_pipeline_output(p, 0), b0, "%s", m->name);
		for (int i = 0; i < 4; i++)
			cr_expect_eq(*d0[i], i, "%s: held output overwritten", m->name);
		/* a second share holds two iterations at once; the newest is the one visible */
		if (m->pipelined) {
			cr_assert_eq(dalic_pipeline_share_outputs(p), 0, "%s: %s", m->name,
				     dalic_last_error());
			test_expect_source_values(p, 1, 4, m->name);
			cr_expect_neq(dalic_pipeline_output(p, 0), b0, "%s", m->name);
			cr_expect_eq(*d0[3], 3, "%s", m->name);
			cr_assert_eq(dalic_pipeline_release_outputs(p), 0);
			test_expect_source_values(p, 1, 4, m->name);
		}
		cr_assert_eq(dalic_pipeline_release_outputs(p), 0, "%s", dalic_last_error());
		cr_expect_null(dalic_pipeline_output(p, 0), "%s: nothing shared", m->name);
		dalic_pipeline_destroy(p);
	}
}

Test(exec_modes, schedule_share_release_in_order)
{
	FOR_EACH_MODE(m)
	{
		test_source_t src;
		test_source_init(&src, 3);
		dalic_pipeline_params_t params = test_params(m, 3, 2);
		dalic_pipeline_t *p = test_pipe_sleep(&params, "cpu", &src, "max_us", 100, NULL);
		int64_t next = 0;
		for (int round = 0; round < 10; round++) {
			cr_assert_eq(dalic_pipeline_schedule_run(p), 0, "%s: %s", m->name,
				     dalic_last_error());
			cr_assert_eq(dalic_pipeline_share_outputs(p), 0, "%s: %s", m->name,
				     dalic_last_error());
			test_expect_source_values(p, next++, 3, m->name);
			cr_assert_eq(dalic_pipeline_release_outputs(p), 0);
		}
		/* outputs() = release (if shared) + share */
		cr_assert_eq(dalic_pipeline_schedule_run(p), 0);
		cr_assert_eq(dalic_pipeline_outputs(p), 0);
		test_expect_source_values(p, next++, 3, m->name);
		if (m->pipelined) { /* the prefetched extra iterations are still queued */
			cr_assert_eq(dalic_pipeline_outputs(p), 0, "%s: %s", m->name,
				     dalic_last_error());
			test_expect_source_values(p, next++, 3, m->name);
		}
		cr_assert_eq(dalic_pipeline_release_outputs(p), 0);
		cr_assert_eq(dalic_pipeline_schedule_run(p), 0, "%s: %s", m->name,
			     dalic_last_error());
		cr_assert_eq(dalic_pipeline_outputs(p), 0);
		test_expect_source_values(p, next++, 3, m->name);
		dalic_pipeline_destroy(p);
	}
}

Test(exec_modes, mode_names_and_queue_depths)
{
	const char *names[] = {"simple", "pipelined", "async pipelined",
			       "async separated pipelined"};
	for (int i = 0; i < 4; i++) {
		const exec_mode_t *m = &test_exec_modes[i];
		dalic_pipeline_params_t params = test_params(m, 2, 1);
		dalic_pipeline_t *p = test_pipe_sleep(&params, "gpu", NULL, NULL);
		struct dalic_exec *e = dalic_pipeline_exec(p);
		cr_expect_str_eq(dalic_exec_mode(e), names[i]);
		cr_expect_eq(dalic_exec_queue_depth(e, DALIC_QUEUE_CPU), m->cpu);
		cr_expect_eq(dalic_exec_queue_depth(e, DALIC_QUEUE_GPU), m->gpu);
		cr_expect_eq(dalic_exec_num_threads(e), 1);
		dalic_pipeline_destroy(p);
	}
}
