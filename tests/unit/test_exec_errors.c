/*
 * Failures and misuse, in every mode. An operator failure names the operator, iteration and
 * sample (and the file, for reader data); it comes out of the run call that would have
 * returned that iteration — after the iterations before it — and from then on every call
 * says the pipeline is broken. Misuse (mixing the run APIs, releasing what was not shared,
 * holding every buffer) is an error that changes nothing, never a hang.
 */
#include <criterion/criterion.h>

#include "test_exec_util.h"

#include <stdlib.h>
#include <string.h>

TestSuite(exec_errors, .timeout = 60);

#define EXPECT_MSG(what)                                                                           \
	cr_expect(strstr(dalic_last_error(), what) != NULL, "%s: '%s' not in: %s", m->name, what, \
		  dalic_last_error())

static void expect_broken(dalic_pipeline_t *p, const exec_mode_t *m, const char *what)
{
	int64_t shapes[1] = {0}, v = 0;
	cr_expect_eq(dalic_pipeline_run(p), DALIC_EBROKEN, "%s", m->name);
	EXPECT_MSG(what);
	EXPECT_MSG("no longer valid");
	cr_expect_eq(dalic_pipeline_outputs(p), DALIC_EBROKEN);
	cr_expect_eq(dalic_pipeline_schedule_run(p), DALIC_EBROKEN);
	cr_expect_eq(dalic_pipeline_release_outputs(p), DALIC_EBROKEN);
	cr_expect_eq(dalic_pipeline_reset(p), DALIC_EBROKEN);
	cr_expect_eq(dalic_pipeline_feed_input(p, "src", DALIC_INT64, 0, 1, shapes, &v, NULL),
		     DALIC_EBROKEN);
}

/* The fed value 302 (iteration 3, sample 2) makes the operator fail. */
Test(exec_errors, operator_failure_in_order_then_broken)
{
	const char *devices[] = {"cpu", "gpu"};
	FOR_EACH_MODE(m)
	for (int d = 0; d < 2; d++) {
		test_source_t src;
		test_source_init(&src, 4);
		dalic_pipeline_params_t params = test_params(m, 4, 2);
		dalic_pipeline_t *p = test_pipe_sleep(&params, devices[d], &src, "fail_value", 302,
						      "max_us", 200, NULL);
		for (int k = 0; k < 3; k++) {
			cr_assert_eq(dalic_pipeline_run(p), 0, "%s: %s", m->name, dalic_last_error());
			test_expect_source_values(p, k, 4, m->name);
		}
		cr_expect_eq(dalic_pipeline_run(p), DALIC_EOP, "%s/%s", m->name, devices[d]);
		EXPECT_MSG("Critical error in pipeline");
		EXPECT_MSG("_test__Sleep");
		EXPECT_MSG("iteration 3");
		EXPECT_MSG("sample 2");
		EXPECT_MSG("failing on purpose: value 302");
		cr_expect_null(dalic_pipeline_output(p, 0));
		expect_broken(p, m, "sample 2");
		dalic_pipeline_destroy(p);
	}
}

/* The failure in the gpu stage while the cpu stage already ran ahead. */
Test(exec_errors, failure_in_a_later_stage_drops_what_follows)
{
	FOR_EACH_MODE(m)
	{
		test_source_t src;
		test_source_init(&src, 2);
		dalic_pipeline_params_t params = test_params(m, 2, 2);
		dalic_pipeline_t *p = test_pipe_sleep(&params, "gpu", &src, "fail_iteration", 1,
						      "fail_sample", 1, "sleep_us", 3000, NULL);
		cr_assert_eq(dalic_pipeline_schedule_run(p), 0);
		for (int k = 0; k < 3; k++)
			cr_assert_eq(dalic_pipeline_schedule_run(p) == 0 || !m->async, 1);
		cr_assert_eq(dalic_pipeline_share_outputs(p), 0, "%s: %s", m->name,
			     dalic_last_error());
		test_expect_source_values(p, 0, 2, m->name);
		cr_assert_eq(dalic_pipeline_release_outputs(p), 0);
		if (!m->pipelined)
			cr_assert_eq(dalic_pipeline_schedule_run(p), 0);
		cr_expect_eq(dalic_pipeline_share_outputs(p), DALIC_EOP, "%s", m->name);
		EXPECT_MSG("iteration 1, sample 1");
		expect_broken(p, m, "iteration 1, sample 1");
		dalic_pipeline_destroy(p);
	}
}

Test(exec_errors, source_callback_failure)
{
	FOR_EACH_MODE(m)
	{
		test_source_t src;
		test_source_init(&src, 2);
		src.fail_at = 2;
		dalic_pipeline_params_t params = test_params(m, 2, 2);
		dalic_pipeline_t *p = test_pipe_sleep(&params, "gpu", &src, NULL);
		for (int k = 0; k < 2; k++) {
			cr_assert_eq(dalic_pipeline_run(p), 0, "%s: %s", m->name, dalic_last_error());
			test_expect_source_values(p, k, 2, m->name);
		}
		cr_expect_eq(dalic_pipeline_run(p), DALIC_EOP, "%s", m->name);
		EXPECT_MSG("external_source 'src'");
		EXPECT_MSG("iteration 2");
		EXPECT_MSG("input/output error");
		expect_broken(p, m, "external_source 'src'");
		dalic_pipeline_destroy(p);
	}
}

/* Reader data: the message names the file the failing sample came from. */
Test(exec_errors, reader_failure_names_the_file)
{
	FOR_EACH_MODE(m)
	{
		dalic_pipeline_params_t params = test_params(m, 2, 2);
		dalic_pipeline_t *p;
		cr_assert_eq(dalic_pipeline_create(&params, &p), 0);
		dalic_op_t *rd, *sl;
		cr_assert_eq(dalic_pipeline_add_op(p, "readers.file", NULL, &rd), 0);
		cr_assert_eq(dalic_op_set_string(rd, "file_root", "samples/images"), 0);
		cr_assert_eq(dalic_pipeline_add_op(p, "_test__Sleep", NULL, &sl), 0);
		cr_assert_eq(dalic_op_add_input(sl, dalic_op_output(rd, 0), NULL), 0);
		cr_assert_eq(dalic_op_set_int(sl, "fail_iteration", 1), 0);
		cr_assert_eq(dalic_op_set_int(sl, "fail_sample", 1), 0);
		cr_assert_eq(dalic_pipeline_add_output(p, dalic_op_output(sl, 0), NULL), 0);
		cr_assert_eq(dalic_pipeline_run(p), 0, "%s", dalic_last_error());
		cr_expect_eq(dalic_pipeline_run(p), DALIC_EOP);
		EXPECT_MSG("iteration 1, sample 1, file '");
		EXPECT_MSG(".jpg'");
		dalic_pipeline_destroy(p);
	}
}

Test(exec_errors, mixing_run_apis)
{
	FOR_EACH_MODE(m)
	{
		test_source_t src;
		test_source_init(&src, 2);
		dalic_pipeline_params_t params = test_params(m, 2, 1);
		dalic_pipeline_t *p = test_pipe_sleep(&params, "cpu", &src, NULL);
		cr_assert_eq(dalic_pipeline_run(p), 0);
		cr_expect_eq(dalic_pipeline_schedule_run(p), DALIC_ESTATE, "%s", m->name);
		EXPECT_MSG("Mixing pipeline API type");
		cr_expect_eq(dalic_pipeline_share_outputs(p), DALIC_ESTATE);
		cr_expect_eq(dalic_pipeline_outputs(p), DALIC_ESTATE);
		cr_assert_eq(dalic_pipeline_run(p), 0, "%s: still usable", m->name);
		test_expect_source_values(p, 1, 2, m->name);
		dalic_pipeline_destroy(p);

		test_source_init(&src, 2);
		p = test_pipe_sleep(&params, "cpu", &src, NULL);
		cr_expect_eq(dalic_pipeline_release_outputs(p), DALIC_ESTATE, "nothing shared");
		EXPECT_MSG("no outputs are shared");
		cr_assert_eq(dalic_pipeline_schedule_run(p), 0);
		cr_expect_eq(dalic_pipeline_run(p), DALIC_ESTATE);
		EXPECT_MSG("Mixing pipeline API type");
		cr_assert_eq(dalic_pipeline_share_outputs(p), 0, "%s", dalic_last_error());
		test_expect_source_values(p, 0, 2, m->name);
		dalic_pipeline_destroy(p);
	}
}

/* The caller holds every output buffer: scheduling (sync) or sharing (async) more can never
 * complete, so it fails at once; after a release everything continues. */
Test(exec_errors, holding_every_buffer_errors_instead_of_hanging)
{
	FOR_EACH_MODE(m)
	{
		test_source_t src;
		test_source_init(&src, 2);
		dalic_pipeline_params_t params = test_params(m, 2, 1);
		dalic_pipeline_t *p = test_pipe_sleep(&params, "gpu", &src, NULL);
		int held = m->separated ? m->gpu : m->cpu;
		int64_t next = 0;
		for (int k = 0; k < held; k++) {
			if (k == 0 || !m->pipelined) /* the first run filled the queue */
				cr_assert_eq(dalic_pipeline_schedule_run(p), 0, "%s",
					     dalic_last_error());
			cr_assert_eq(dalic_pipeline_share_outputs(p), 0, "%s: %s", m->name,
				     dalic_last_error());
			test_expect_source_values(p, next++, 2, m->name);
		}
		int rc = dalic_pipeline_schedule_run(p);
		if (!m->async) {
			cr_expect_eq(rc, DALIC_ESTATE, "%s", m->name);
			EXPECT_MSG("output buffers are in use");
		} else {
			cr_assert_eq(rc, 0, "%s: %s", m->name, dalic_last_error());
			cr_expect_eq(dalic_pipeline_share_outputs(p), DALIC_ESTATE, "%s", m->name);
			EXPECT_MSG("output buffers are in use");
		}
		cr_assert_eq(dalic_pipeline_release_outputs(p), 0);
		if (!m->async)
			cr_assert_eq(dalic_pipeline_schedule_run(p), 0, "%s", dalic_last_error());
		cr_assert_eq(dalic_pipeline_share_outputs(p), 0, "%s: %s", m->name,
			     dalic_last_error());
		test_expect_source_values(p, next++, 2, m->name);
		dalic_pipeline_destroy(p);
	}
}

static void expect_invalid(dalic_pipeline_params_t *params, const char *what)
{
	dalic_pipeline_t *p = NULL;
	cr_expect_eq(dalic_pipeline_create(params, &p), DALIC_EINVAL, "%s", what);
	cr_expect_null(p);
	cr_expect(strstr(dalic_last_error(), what) != NULL, "'%s' not in: %s", what,
		  dalic_last_error());
	dalic_pipeline_params_init(params);
	params->batch_size = 2;
}

Test(exec_errors, invalid_parameters)
{
	dalic_pipeline_params_t x;
	dalic_pipeline_params_init(&x);
	x.batch_size = 0;
	expect_invalid(&x, "Invalid batch size: 0. Please set a positive integer.");
	x.num_threads = 0;
	expect_invalid(&x, "Invalid number of threads: 0");
	x.prefetch_cpu = x.prefetch_gpu = 0;
	expect_invalid(&x, "The prefetch queue depth must be greater than 0.");
	x.prefetch_gpu = 3;
	expect_invalid(&x, "must be the same for CPU and GPU if separated execution is not used");
	x.separated_queues = true;
	x.exec_async = false;
	expect_invalid(&x, "requires `exec_async=True`");
	x.separated_queues = true;
	x.exec_pipelined = false;
	expect_invalid(&x, "`exec_pipelined=True`");
	x.device_id = -5;
	expect_invalid(&x, "Invalid device_id");
	/* a malformed DALI_AFFINITY_MASK fails the build, when set_affinity asks for it */
	setenv("DALI_AFFINITY_MASK", "0,x", 1);
	x.set_affinity = true;
	dalic_pipeline_t *p;
	cr_assert_eq(dalic_pipeline_create(&x, &p), 0);
	dalic_op_t *c;
	cr_assert_eq(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &c), 0);
	cr_assert_eq(dalic_pipeline_add_output(p, dalic_op_output(c, 0), NULL), 0);
	cr_expect_eq(dalic_pipeline_build(p), DALIC_EINVAL);
	cr_expect(strstr(dalic_last_error(), "DALI_AFFINITY_MASK") != NULL, "%s",
		  dalic_last_error());
	dalic_pipeline_destroy(p);
	unsetenv("DALI_AFFINITY_MASK");
}
