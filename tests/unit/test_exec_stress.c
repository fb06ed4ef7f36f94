/*
 * Stress, meant to run under TSan too (make SANITIZE=thread test, filtered to the exec
 * suites): thousands of iterations with random small delays in the source callback and in
 * operators of every stage, driven through both run APIs with random share/release
 * patterns; failures at random iterations; and destroy at random moments — with iterations
 * running, with stages waiting for a free slot, with nothing fed.
 */

#include "tests/testlib/exec.h"

#include <stdlib.h>

TestSuite(exec_stress, .timeout = 120);

static dalic_pipeline_t *exec_stress_pipe(const tl_mode_t *m, const char *device, int batch,
                                          tl_seq_source_t *src, int fail_iteration)
{
	dalic_pipeline_params_t params = tl_mode_params(m, batch, 3);
	return tl_sleep_pipeline(&params, device, src, "max_us", 40, "fail_iteration",
	                         fail_iteration, "fail_sample", batch - 1, NULL);
}

Test(exec_stress, thousands_of_iterations_with_random_delays)
{
	unsigned seed = 7;
	int total = 0;
	TL_FOR_EACH_MODE(m)
	for (int d = 0; d < 2; d++) {
		tl_seq_source_t src;
		tl_seq_source_init(&src, 3);
		src.max_sleep_us = 40;
		dalic_pipeline_t *p = exec_stress_pipe(m, d ? "gpu" : "cpu", 3, &src, -1);
		int64_t next = 0;
		if (d == 0) { /* run() */
			for (; next < 500; next++) {
				ASSERT_OK(dalic_pipeline_run(p), "%s", m->name);
				tl_expect_seq_values(p, next, 3, m->name);
			}
		} else { /* schedule_run / share / release with random holding */
			int held = 0;
			int64_t scheduled = 0;
			while (next < 500) {
				int r = rand_r(&seed) % 3;
				if (r == 0 || scheduled == next) {
					int rc = dalic_pipeline_schedule_run(p);
					if (rc == DALIC_ESTATE) /* sync, every slot held */
						r = 2;
					else
						ASSERT_OK(rc, "%s", m->name);
					if (!rc) /* the first call fills the queue */
						scheduled += scheduled == 0 && m->pipelined ? m->cpu : 1;
				}
				if (r == 1 && next < scheduled) {
					int rc = dalic_pipeline_share_outputs(p);
					if (rc == DALIC_ESTATE) { /* every buffer held */
						r = 2;
					} else {
						ASSERT_OK(rc, "%s", m->name);
						tl_expect_seq_values(p, next++, 3, m->name);
						held++;
					}
				}
				if (r == 2 && held > 0) {
					ASSERT_OK(dalic_pipeline_release_outputs(p));
					held--;
				}
			}
		}
		total += (int)next;
		dalic_pipeline_destroy(p);
	}
	cr_expect_eq(total, 4000);
}

/* A failure at a random iteration comes out exactly at that iteration, in every mode. */
Test(exec_stress, failures_at_random_iterations)
{
	unsigned seed = 11;
	for (int round = 0; round < 6; round++)
		TL_FOR_EACH_MODE(m)
		{
			int fail = rand_r(&seed) % 12;
			tl_seq_source_t src;
			tl_seq_source_init(&src, 2);
			src.max_sleep_us = 30;
			dalic_pipeline_t *p =
			    exec_stress_pipe(m, round % 2 ? "gpu" : "cpu", 2, &src, fail);
			for (int k = 0; k < fail; k++) {
				ASSERT_OK(dalic_pipeline_run(p), "%s", m->name);
				tl_expect_seq_values(p, k, 2, m->name);
			}
			EXPECT_STATUS(dalic_pipeline_run(p), DALIC_EOP, "%s fail at %d", m->name,
			              fail);
			EXPECT_STATUS(dalic_pipeline_run(p), DALIC_EBROKEN);
			dalic_pipeline_destroy(p);
		}
}

/* Destroy must never hang: with iterations running, with every slot held and stages waiting
 * for one, right after the first schedule, with nothing fed. */
Test(exec_stress, destroy_at_any_moment)
{
	unsigned seed = 3;
	for (int round = 0; round < 40; round++) {
		const tl_mode_t *m = &tl_modes[round % 4];
		tl_seq_source_t src;
		tl_seq_source_init(&src, 4);
		src.max_sleep_us = 20;
		dalic_pipeline_params_t params = tl_mode_params(m, 4, 2);
		dalic_pipeline_t *p = tl_sleep_pipeline(&params, round % 3 ? "gpu" : "cpu", &src,
		                                        "max_us", 500, NULL);
		int steps = rand_r(&seed) % 6;
		for (int k = 0; k < steps; k++) {
			int rc = dalic_pipeline_schedule_run(p);
			if (rc != DALIC_ESTATE)
				ASSERT_OK(rc, "schedule_run in mode %s", m->name);
			if (rand_r(&seed) % 2 && dalic_pipeline_share_outputs(p) == 0 &&
			    rand_r(&seed) % 2)
				ASSERT_OK(dalic_pipeline_release_outputs(p));
		}
		if (rand_r(&seed) % 2)
			tl_sleep_ms(rand_r(&seed) % 3);
		dalic_pipeline_destroy(p);
	}
	/* nothing fed, no source: the schedule fails, destroy is immediate */
	dalic_pipeline_params_t params = tl_mode_params(&tl_modes[2], 2, 2);
	dalic_pipeline_t *p = tl_sleep_pipeline(&params, "cpu", NULL, NULL);
	EXPECT_STATUS(dalic_pipeline_schedule_run(p), DALIC_ESTATE);
	dalic_pipeline_destroy(p);
}
