/*
 * Executor contracts in every mode (simple, pipelined, async, separated), on a cpu-only
 * pipeline and on one with cpu, mixed and gpu stages: outputs come in iteration order, the
 * first run fills the queues in DALI's order, buffers stay valid until released, and the
 * observer hooks fire from the right places.
 */

#include "engine/executor.h"
#include "engine/pipeline.h"
#include "tests/testlib/exec.h"

#include <string.h>

TestSuite(exec_modes, .timeout = 60);

static const char *const devices[] = {"cpu", "gpu"};

Test(exec_modes, outputs_in_iteration_order)
{
	TL_FOR_EACH_MODE(m)
	for (int d = 0; d < 2; d++) {
		tl_seq_source_t src;
		tl_seq_source_init(&src, 5);
		dalic_pipeline_params_t params = tl_mode_params(m, 5, 3);
		dalic_pipeline_t *p =
		    tl_sleep_pipeline(&params, devices[d], &src, "max_us", 200, NULL);
		tl_log_t log;
		tl_log_init(&log, 3);
		dalic_observer_t obs = tl_log_observer(&log);
		dalic_pipeline_set_observer(p, &obs);
		for (int k = 0; k < 20; k++) {
			ASSERT_OK(dalic_pipeline_run(p), "%s/%s", m->name, devices[d]);
			tl_expect_seq_values(p, k, 5, m->name);
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
	TL_FOR_EACH_MODE(m)
	{
		tl_seq_source_t src;
		tl_seq_source_init(&src, 2);
		dalic_pipeline_params_t params = tl_mode_params(m, 2, 2);
		dalic_pipeline_t *p = tl_sleep_pipeline(&params, "gpu", &src, NULL);
		tl_log_t log;
		tl_log_init(&log, 2);
		dalic_observer_t obs = tl_log_observer(&log);
		dalic_pipeline_set_observer(p, &obs);
		ASSERT_OK(dalic_pipeline_run(p));
		int fill = m->pipelined ? m->cpu : 1;
		cr_expect_eq(atomic_load(&src.calls), fill, "%s", m->name);
		tl_expect_seq_values(p, 0, 2, m->name);
		/* the queue fills: min(cpu, gpu) full iterations, then cpu-only ones */
		int full = fill < m->gpu ? fill : m->gpu;
		cr_expect_eq(tl_wait_stage_runs(&log, 0, fill), fill, "%s", m->name);
		cr_expect_eq(tl_wait_stage_runs(&log, 2, full), full, "%s", m->name);
		tl_sleep_ms(20);
		cr_expect_eq(atomic_load(&log.stage_runs[0]), fill, "%s: cpu ran ahead", m->name);
		cr_expect_eq(atomic_load(&log.stage_runs[2]), full, "%s: gpu ran ahead", m->name);
		if (!m->async) { /* sync: whole iterations, one after the other */
			pthread_mutex_lock(&log.mu);
			for (int i = 0; i < log.n; i++)
				cr_expect_eq(log.ev[i].iteration, i / 4, "%s event %d", m->name, i);
			pthread_mutex_unlock(&log.mu);
		}
		for (int k = 1; k < 6; k++) {
			ASSERT_OK(dalic_pipeline_run(p));
			tl_expect_seq_values(p, k, 2, m->name);
			cr_expect_eq(atomic_load(&src.calls), fill + k, "%s", m->name);
		}
		dalic_pipeline_destroy(p);
	}
}

/* Shared outputs stay valid — and unchanged — while the pipeline runs ahead, until released. */
static void exec_modes_buffers_held(const char *device)
{
	TL_FOR_EACH_MODE(m)
	{
		tl_seq_source_t src;
		tl_seq_source_init(&src, 4);
		dalic_pipeline_params_t params = tl_mode_params(m, 4, 2);
		dalic_pipeline_t *p = tl_sleep_pipeline(&params, device, &src, NULL);
		ASSERT_OK(dalic_pipeline_schedule_run(p));
		ASSERT_OK(dalic_pipeline_share_outputs(p));
		const dalic_batch_t *b0 = dalic_pipeline_output(p, 0);
		const int64_t *d0[4];
		for (int i = 0; i < 4; i++)
			d0[i] = dalic_batch_data(b0, i);
		tl_expect_seq_values(p, 0, 4, m->name);
		/* let the pipeline run as far as it can while iteration 0 is held */
		for (int k = 0; k < 3; k++) {
			int rc = dalic_pipeline_schedule_run(p);
			if (rc != DALIC_ESTATE || m->async)
				ASSERT_OK(rc, "schedule_run in mode %s", m->name);
		}
		tl_sleep_ms(30);
		cr_expect_eq(dalic_pipeline_output(p, 0), b0, "%s", m->name);
		for (int i = 0; i < 4; i++)
			cr_expect_eq(*d0[i], i, "%s: held output overwritten", m->name);
		/* a second share holds two iterations at once; the newest is the one visible */
		if (m->pipelined) {
			ASSERT_OK(dalic_pipeline_share_outputs(p), "%s", m->name);
			tl_expect_seq_values(p, 1, 4, m->name);
			cr_expect_neq(dalic_pipeline_output(p, 0), b0, "%s", m->name);
			cr_expect_eq(*d0[3], 3, "%s", m->name);
			ASSERT_OK(dalic_pipeline_release_outputs(p));
			tl_expect_seq_values(p, 1, 4, m->name);
		}
		ASSERT_OK(dalic_pipeline_release_outputs(p));
		cr_expect_null(dalic_pipeline_output(p, 0), "%s: nothing shared", m->name);
		dalic_pipeline_destroy(p);
	}
}

Test(exec_modes, buffers_valid_until_released)
{
	exec_modes_buffers_held("gpu");
}

/* On the cpu the output's MakeContiguous passes the operator's batch through: the operator
 * keeps one buffer per output slot, so a held output is not overwritten either. */
Test(exec_modes, passed_through_cpu_buffers_valid_until_released)
{
	exec_modes_buffers_held("cpu");
}

Test(exec_modes, schedule_share_release_in_order)
{
	TL_FOR_EACH_MODE(m)
	{
		tl_seq_source_t src;
		tl_seq_source_init(&src, 3);
		dalic_pipeline_params_t params = tl_mode_params(m, 3, 2);
		dalic_pipeline_t *p = tl_sleep_pipeline(&params, "cpu", &src, "max_us", 100, NULL);
		int64_t next = 0;
		for (int round = 0; round < 10; round++) {
			ASSERT_OK(dalic_pipeline_schedule_run(p), "%s", m->name);
			ASSERT_OK(dalic_pipeline_share_outputs(p), "%s", m->name);
			tl_expect_seq_values(p, next++, 3, m->name);
			ASSERT_OK(dalic_pipeline_release_outputs(p));
		}
		/* outputs() = release (if shared) + share */
		ASSERT_OK(dalic_pipeline_schedule_run(p));
		ASSERT_OK(dalic_pipeline_outputs(p));
		tl_expect_seq_values(p, next++, 3, m->name);
		if (m->pipelined) { /* the prefetched extra iterations are still queued */
			ASSERT_OK(dalic_pipeline_outputs(p), "%s", m->name);
			tl_expect_seq_values(p, next++, 3, m->name);
		}
		ASSERT_OK(dalic_pipeline_release_outputs(p));
		ASSERT_OK(dalic_pipeline_schedule_run(p), "%s", m->name);
		ASSERT_OK(dalic_pipeline_outputs(p));
		tl_expect_seq_values(p, next++, 3, m->name);
		dalic_pipeline_destroy(p);
	}
}

Test(exec_modes, mode_names_and_queue_depths)
{
	const char *names[] = {"simple", "pipelined", "async pipelined",
			       "async separated pipelined"};
	for (int i = 0; i < 4; i++) {
		const tl_mode_t *m = &tl_modes[i];
		dalic_pipeline_params_t params = tl_mode_params(m, 2, 1);
		dalic_pipeline_t *p = tl_sleep_pipeline(&params, "gpu", NULL, NULL);
		struct dalic_exec *e = dalic_pipeline_exec(p);
		cr_expect_str_eq(dalic_exec_mode(e), names[i]);
		cr_expect_eq(dalic_exec_queue_depth(e, DALIC_QUEUE_CPU), m->cpu);
		cr_expect_eq(dalic_exec_queue_depth(e, DALIC_QUEUE_GPU), m->gpu);
		cr_expect_eq(dalic_exec_num_threads(e), 1);
		dalic_pipeline_destroy(p);
	}
}
