/*
 * End of data and reset, in every mode: a source that ends stops scheduling while the
 * iterations already in flight still come out, in order; reset starts a new epoch (callback
 * iterations restart at 0) and the first run fills the queues again.
 */

#include "tests/testlib/exec.h"

#include <string.h>

TestSuite(exec_end, .timeout = 60);

/* Runs until end of data; returns how many iterations came out (values checked). */
static int exec_end_drain_with_run(dalic_pipeline_t *p, int batch, const char *mode)
{
	int n = 0;
	int rc;
	while ((rc = dalic_pipeline_run(p)) == 0)
		tl_expect_seq_values(p, n++, batch, mode);
	EXPECT_STATUS(rc, DALIC_EEND, "%s", mode);
	return n;
}

Test(exec_end, end_of_data_with_batches_in_flight)
{
	const char *devices[] = {"cpu", "gpu"};
	TL_FOR_EACH_MODE(m)
	for (int d = 0; d < 2; d++) {
		tl_seq_source_t src;
		tl_seq_source_init(&src, 4);
		src.end_at = 5;
		dalic_pipeline_params_t params = tl_mode_params(m, 4, 2);
		dalic_pipeline_t *p =
		    tl_sleep_pipeline(&params, devices[d], &src, "max_us", 300, NULL);
		cr_expect_eq(exec_end_drain_with_run(p, 4, m->name), 5, "%s/%s", m->name,
		             devices[d]);
		EXPECT_STATUS(dalic_pipeline_run(p), DALIC_EEND, "%s: stays at the end", m->name);
		cr_expect_eq(atomic_load(&src.calls), 6, "%s: no callback after the end",
			     m->name);
		/* a new epoch: same data again, the queues fill again */
		ASSERT_OK(dalic_pipeline_reset(p));
		cr_expect_eq(exec_end_drain_with_run(p, 4, m->name), 5, "%s/%s epoch 2", m->name,
		             devices[d]);
		cr_expect_eq(atomic_load(&src.calls), 12);
		dalic_pipeline_destroy(p);
	}
}

/* The end arrives while the first run is still filling the queue. */
Test(exec_end, end_during_prefetch)
{
	TL_FOR_EACH_MODE(m)
	{
		tl_seq_source_t src;
		tl_seq_source_init(&src, 2);
		src.end_at = 1;
		dalic_pipeline_params_t params = tl_mode_params(m, 2, 2);
		dalic_pipeline_t *p = tl_sleep_pipeline(&params, "gpu", &src, NULL);
		ASSERT_OK(dalic_pipeline_schedule_run(p));
		ASSERT_OK(dalic_pipeline_share_outputs(p));
		tl_expect_seq_values(p, 0, 2, m->name);
		ASSERT_OK(dalic_pipeline_release_outputs(p));
		EXPECT_OK(dalic_pipeline_schedule_run(p), "scheduling after the end is a no-op");
		EXPECT_STATUS(dalic_pipeline_share_outputs(p), DALIC_EEND, "%s", m->name);
		dalic_pipeline_destroy(p);
	}
}

/* Reset while iterations are still in flight: the end came while the first run filled a
 * queue of 3, so iteration 1 is still queued (or running) when reset comes; it is drained
 * and dropped, and the next epoch starts clean. */
Test(exec_end, reset_with_iterations_in_flight)
{
	TL_FOR_EACH_MODE(m)
	{
		tl_seq_source_t src;
		tl_seq_source_init(&src, 3);
		src.end_at = 2;
		tl_mode_t deep = *m;
		deep.cpu = 3;
		deep.gpu = m->separated ? 2 : 3;
		dalic_pipeline_params_t params = tl_mode_params(&deep, 3, 2);
		dalic_pipeline_t *p =
		    tl_sleep_pipeline(&params, "gpu", &src, "sleep_us", 2000, NULL);
		ASSERT_OK(dalic_pipeline_run(p));
		tl_expect_seq_values(p, 0, 3, m->name);
		if (!m->pipelined) { /* no prefetch: reach the end one run at a time */
			ASSERT_OK(dalic_pipeline_run(p));
			ASSERT_STATUS(dalic_pipeline_run(p), DALIC_EEND);
		}
		cr_expect_eq(atomic_load(&src.calls), 3, "%s: the end was seen", m->name);
		ASSERT_OK(dalic_pipeline_reset(p));
		cr_expect_null(dalic_pipeline_output(p, 0), "%s: reset dropped the outputs", m->name);
		cr_expect_eq(exec_end_drain_with_run(p, 3, m->name), 2, "%s", m->name);
		dalic_pipeline_destroy(p);
	}
}

/* Reset while the caller holds every buffer and stages wait for a slot: reset gives the
 * caller's buffers back so the stages can drain; it must not wait for a release. */
Test(exec_end, reset_while_every_buffer_is_held)
{
	TL_FOR_EACH_MODE(m)
	{
		if (!m->async)
			continue; /* sync modes cannot have stages waiting */
		tl_seq_source_t src;
		tl_seq_source_init(&src, 2);
		src.end_at = 5;
		dalic_pipeline_params_t params = tl_mode_params(m, 2, 2);
		dalic_pipeline_t *p = tl_sleep_pipeline(&params, "gpu", &src, "max_us", 300, NULL);
		ASSERT_OK(dalic_pipeline_schedule_run(p));
		for (int k = 0; k < m->gpu; k++) {
			ASSERT_OK(dalic_pipeline_share_outputs(p));
			tl_expect_seq_values(p, k, 2, m->name);
		}
		while (atomic_load(&src.calls) < 6) /* schedule up to the end */
			ASSERT_OK(dalic_pipeline_schedule_run(p));
		ASSERT_OK(dalic_pipeline_reset(p));
		cr_expect_null(dalic_pipeline_output(p, 0));
		int n = 0;
		while (dalic_pipeline_schedule_run(p) == 0 && dalic_pipeline_outputs(p) == 0)
			tl_expect_seq_values(p, n++, 2, m->name);
		cr_expect_eq(n, 5, "%s: the next epoch is whole", m->name);
		dalic_pipeline_destroy(p);
	}
}

Test(exec_end, reset_before_the_end_changes_nothing)
{
	TL_FOR_EACH_MODE(m)
	{
		tl_seq_source_t src;
		tl_seq_source_init(&src, 2);
		dalic_pipeline_params_t params = tl_mode_params(m, 2, 1);
		dalic_pipeline_t *p = tl_sleep_pipeline(&params, "cpu", &src, NULL);
		ASSERT_OK(dalic_pipeline_run(p));
		ASSERT_OK(dalic_pipeline_reset(p));
		ASSERT_OK(dalic_pipeline_run(p));
		tl_expect_seq_values(p, 1, 2, m->name);
		dalic_pipeline_destroy(p);
	}
}

/* Without a callback, the application feeds; the first run uses what fills the queue, and
 * running past what was fed is an error that leaves the pipeline usable once more comes. */
Test(exec_end, feed_input_runs_out)
{
	TL_FOR_EACH_MODE(m)
	{
		dalic_pipeline_params_t params = tl_mode_params(m, 2, 1);
		dalic_pipeline_t *p = tl_sleep_pipeline(&params, "gpu", NULL, NULL);
		int64_t shapes[2] = {0}, v[2];
		int fed = m->pipelined ? m->cpu : 1;
		for (int k = 0; k < fed; k++) {
			v[0] = k * 100, v[1] = k * 100 + 1;
			ASSERT_OK(dalic_pipeline_feed_input(p, "src", DALIC_INT64, 0, 2, shapes, v,
			                                    NULL));
		}
		ASSERT_OK(dalic_pipeline_run(p));
		tl_expect_seq_values(p, 0, 2, m->name);
		EXPECT_STATUS(dalic_pipeline_run(p), DALIC_ESTATE, "%s", m->name);
		EXPECT_ERROR_HAS("no data was fed");
		v[0] = fed * 100, v[1] = fed * 100 + 1;
		ASSERT_OK(dalic_pipeline_feed_input(p, "src", DALIC_INT64, 0, 2, shapes, v, NULL));
		ASSERT_OK(dalic_pipeline_run(p), "%s", m->name);
		tl_expect_seq_values(p, 1, 2, m->name);
		dalic_pipeline_destroy(p);
	}
}
