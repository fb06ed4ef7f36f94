/*
 * Stress, meant to run under TSan too (make SANITIZE=thread test, filtered to the exec
 * suites): thousands of iterations with random small delays in the source callback and in
 * operators of every stage, driven through both run APIs with random share/release
 * patterns; failures at random iterations; and destroy at random moments — with iterations
 * running, with stages waiting for a free slot, with nothing fed.
 */
#include <criterion/criterion.h>

#include "test_exec_util.h"

#include <stdlib.h>

TestSuite(exec_stress, .timeout = 120);

static dalic_pipeline_t *stress_pipe(const exec_mode_t *m, const char *device, int batch,
				     test_source_t *src, int fail_iteration)
{
	dalic_pipeline_params_t params = test_params(m, batch, 3);
	return test_pipe_sleep(&params, device, src, "max_us", 40, "fail_iteration",
			       fail_iteration, "fail_sample", batch - 1, NULL);
}

Test(exec_stress, thousands_of_iterations_with_random_delays)
{
	unsigned seed = 7;
	int total = 0;
	FOR_EACH_MODE(m)
	for (int d = 0; d < 2; d++) {
		test_source_t src;
		test_source_init(&src, 3);
		src.max_sleep_us = 40;
		dalic_pipeline_t *p = stress_pipe(m, d ? "gpu" : "cpu", 3, &src, -1);
		int64_t next = 0;
		if (d == 0) { /* run() */
			for (; next < 500; next++) {
				cr_assert_eq(dalic_pipeline_run(p), 0, "%s: %s", m->name,
					     dalic_last_error());
				test_expect_source_values(p, next, 3, m->name);
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
						cr_assert_eq(rc, 0, "%s: %s", m->name,
							     dalic_last_error());
					if (!rc) /* the first call fills the queue */
						scheduled += scheduled == 0 && m->pipelined ? m->cpu : 1;
				}
				if (r == 1 && next < scheduled) {
					int rc = dalic_pipeline_share_outputs(p);
					if (rc == DALIC_ESTATE) { /* every buffer held */
						r = 2;
					} else {
						cr_assert_eq(rc, 0, "%s: %s", m->name,
							     dalic_last_error());
						test_expect_source_values(p, next++, 3, m->name);
						held++;
					}
				}
				if (r == 2 && held > 0) {
					cr_assert_eq(dalic_pipeline_release_outputs(p), 0);
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
		FOR_EACH_MODE(m)
		{
			int fail = rand_r(&seed) % 12;
			test_source_t src;
			test_source_init(&src, 2);
			src.max_sleep_us = 30;
			dalic_pipeline_t *p = stress_pipe(m, round % 2 ? "gpu" : "cpu", 2, &src, fail);
			for (int k = 0; k < fail; k++) {
				cr_assert_eq(dalic_pipeline_run(p), 0, "%s: %s", m->name,
					     dalic_last_error());
				test_expect_source_values(p, k, 2, m->name);
			}
			cr_expect_eq(dalic_pipeline_run(p), DALIC_EOP, "%s fail at %d", m->name, fail);
			cr_expect_eq(dalic_pipeline_run(p), DALIC_EBROKEN);
			dalic_pipeline_destroy(p);
		}
}

/* Destroy must never hang: with iterations running, with every slot held and stages waiting
 * for one, right after the first schedule, with nothing fed. */
Test(exec_stress, destroy_at_any_moment)
{
	unsigned seed = 3;
	for (int round = 0; round < 40; round++) {
		const exec_mode_t *m = &test_exec_modes[round % 4];
		test_source_t src;
		test_source_init(&src, 4);
		src.max_sleep_us = 20;
		dalic_pipeline_params_t params = test_params(m, 4, 2);
		dalic_pipeline_t *p = test_pipe_sleep(&params, round % 3 ? "gpu" : "cpu", &src,
						      "max_us", 500, NULL);
		int steps = rand_r(&seed) % 6;
		for (int k = 0; k < steps; k++) {
			int rc = dalic_pipeline_schedule_run(p);
			cr_assert(rc == 0 || rc == DALIC_ESTATE, "%s", dalic_last_error());
			if (rand_r(&seed) % 2 && dalic_pipeline_share_outputs(p) == 0 &&
			    rand_r(&seed) % 2)
				dalic_pipeline_release_outputs(p);
		}
		if (rand_r(&seed) % 2)
			test_sleep_ms(rand_r(&seed) % 3);
		dalic_pipeline_destroy(p);
	}
	/* nothing fed, no source: the schedule fails, destroy is immediate */
	dalic_pipeline_params_t params = test_params(&test_exec_modes[2], 2, 2);
	dalic_pipeline_t *p = test_pipe_sleep(&params, "cpu", NULL, NULL);
	cr_expect_eq(dalic_pipeline_schedule_run(p), DALIC_ESTATE);
	dalic_pipeline_destroy(p);
}
