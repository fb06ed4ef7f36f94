/*
 * Failures and misuse, in every mode. An operator failure names the operator, iteration and
 * sample (and the file, for reader data); it comes out of the run call that would have
 * returned that iteration — after the iterations before it — and from then on every call
 * says the pipeline is broken. Misuse (mixing the run APIs, releasing what was not shared,
 * holding every buffer) is an error that changes nothing, never a hang.
 */

#include "tests/testlib/exec.h"

#include <stdlib.h>
#include <string.h>

TestSuite(exec_errors, .timeout = 60);

static void exec_errors_expect_broken(dalic_pipeline_t *p, const tl_mode_t *m, const char *what)
{
	int64_t shapes[1] = {0}, v = 0;
	EXPECT_STATUS(dalic_pipeline_run(p), DALIC_EBROKEN, "%s", m->name);
	EXPECT_ERROR_HAS(what, "%s", m->name);
	EXPECT_ERROR_HAS("no longer valid", "%s", m->name);
	EXPECT_STATUS(dalic_pipeline_outputs(p), DALIC_EBROKEN);
	EXPECT_STATUS(dalic_pipeline_schedule_run(p), DALIC_EBROKEN);
	EXPECT_STATUS(dalic_pipeline_release_outputs(p), DALIC_EBROKEN);
	EXPECT_STATUS(dalic_pipeline_reset(p), DALIC_EBROKEN);
	EXPECT_STATUS(dalic_pipeline_feed_input(p, "src", DALIC_INT64, 0, 1, shapes, &v, NULL),
	              DALIC_EBROKEN);
}

/* The fed value 302 (iteration 3, sample 2) makes the operator fail. */
Test(exec_errors, operator_failure_in_order_then_broken)
{
	const char *devices[] = {"cpu", "gpu"};
	TL_FOR_EACH_MODE(m)
	for (int d = 0; d < 2; d++) {
		tl_seq_source_t src;
		tl_seq_source_init(&src, 4);
		dalic_pipeline_params_t params = tl_mode_params(m, 4, 2);
		dalic_pipeline_t *p = tl_sleep_pipeline(&params, devices[d], &src, "fail_value",
		                                        302, "max_us", 200, NULL);
		for (int k = 0; k < 3; k++) {
			ASSERT_OK(dalic_pipeline_run(p), "%s", m->name);
			tl_expect_seq_values(p, k, 4, m->name);
		}
		EXPECT_STATUS(dalic_pipeline_run(p), DALIC_EOP, "%s/%s", m->name, devices[d]);
		EXPECT_ERROR_HAS("Critical error in pipeline", "%s", m->name);
		EXPECT_ERROR_HAS("_test__Sleep", "%s", m->name);
		EXPECT_ERROR_HAS("iteration 3", "%s", m->name);
		EXPECT_ERROR_HAS("sample 2", "%s", m->name);
		EXPECT_ERROR_HAS("failing on purpose: value 302", "%s", m->name);
		cr_expect_null(dalic_pipeline_output(p, 0));
		exec_errors_expect_broken(p, m, "sample 2");
		dalic_pipeline_destroy(p);
	}
}

/* The failure in the gpu stage while the cpu stage already ran ahead. */
Test(exec_errors, failure_in_a_later_stage_drops_what_follows)
{
	TL_FOR_EACH_MODE(m)
	{
		tl_seq_source_t src;
		tl_seq_source_init(&src, 2);
		dalic_pipeline_params_t params = tl_mode_params(m, 2, 2);
		dalic_pipeline_t *p = tl_sleep_pipeline(&params, "gpu", &src, "fail_iteration", 1,
		                                        "fail_sample", 1, "sleep_us", 3000, NULL);
		ASSERT_OK(dalic_pipeline_schedule_run(p));
		for (int k = 0; k < 3; k++)
			cr_assert_eq(dalic_pipeline_schedule_run(p) == 0 || !m->async, 1);
		ASSERT_OK(dalic_pipeline_share_outputs(p), "%s", m->name);
		tl_expect_seq_values(p, 0, 2, m->name);
		ASSERT_OK(dalic_pipeline_release_outputs(p));
		if (!m->pipelined)
			ASSERT_OK(dalic_pipeline_schedule_run(p));
		EXPECT_STATUS(dalic_pipeline_share_outputs(p), DALIC_EOP, "%s", m->name);
		EXPECT_ERROR_HAS("iteration 1, sample 1", "%s", m->name);
		exec_errors_expect_broken(p, m, "iteration 1, sample 1");
		dalic_pipeline_destroy(p);
	}
}

Test(exec_errors, source_callback_failure)
{
	TL_FOR_EACH_MODE(m)
	{
		tl_seq_source_t src;
		tl_seq_source_init(&src, 2);
		src.fail_at = 2;
		dalic_pipeline_params_t params = tl_mode_params(m, 2, 2);
		dalic_pipeline_t *p = tl_sleep_pipeline(&params, "gpu", &src, NULL);
		for (int k = 0; k < 2; k++) {
			ASSERT_OK(dalic_pipeline_run(p), "%s", m->name);
			tl_expect_seq_values(p, k, 2, m->name);
		}
		EXPECT_STATUS(dalic_pipeline_run(p), DALIC_EOP, "%s", m->name);
		EXPECT_ERROR_HAS("external_source 'src'", "%s", m->name);
		EXPECT_ERROR_HAS("iteration 2", "%s", m->name);
		EXPECT_ERROR_HAS("input/output error", "%s", m->name);
		exec_errors_expect_broken(p, m, "external_source 'src'");
		dalic_pipeline_destroy(p);
	}
}

/* Reader data: the message names the file the failing sample came from. */
Test(exec_errors, reader_failure_names_the_file)
{
	TL_FOR_EACH_MODE(m)
	{
		dalic_pipeline_params_t params = tl_mode_params(m, 2, 2);
		dalic_pipeline_t *p;
		ASSERT_OK(dalic_pipeline_create(&params, &p));
		dalic_op_t *rd, *sl;
		ASSERT_OK(dalic_pipeline_add_op(p, "readers.file", NULL, &rd));
		ASSERT_OK(dalic_op_set_string(rd, "file_root", "samples/images"));
		ASSERT_OK(dalic_pipeline_add_op(p, "_test__Sleep", NULL, &sl));
		ASSERT_OK(dalic_op_add_input(sl, dalic_op_output(rd, 0), NULL));
		ASSERT_OK(dalic_op_set_int(sl, "fail_iteration", 1));
		ASSERT_OK(dalic_op_set_int(sl, "fail_sample", 1));
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(sl, 0), NULL));
		ASSERT_OK(dalic_pipeline_run(p));
		EXPECT_STATUS(dalic_pipeline_run(p), DALIC_EOP);
		EXPECT_ERROR_HAS("iteration 1, sample 1, file '", "%s", m->name);
		EXPECT_ERROR_HAS(".jpg'", "%s", m->name);
		dalic_pipeline_destroy(p);
	}
}

Test(exec_errors, mixing_run_apis)
{
	TL_FOR_EACH_MODE(m)
	{
		tl_seq_source_t src;
		tl_seq_source_init(&src, 2);
		dalic_pipeline_params_t params = tl_mode_params(m, 2, 1);
		dalic_pipeline_t *p = tl_sleep_pipeline(&params, "cpu", &src, NULL);
		ASSERT_OK(dalic_pipeline_run(p));
		EXPECT_STATUS(dalic_pipeline_schedule_run(p), DALIC_ESTATE, "%s", m->name);
		EXPECT_ERROR_HAS("Mixing pipeline API type", "%s", m->name);
		EXPECT_STATUS(dalic_pipeline_share_outputs(p), DALIC_ESTATE);
		EXPECT_STATUS(dalic_pipeline_outputs(p), DALIC_ESTATE);
		ASSERT_OK(dalic_pipeline_run(p), "%s: still usable", m->name);
		tl_expect_seq_values(p, 1, 2, m->name);
		dalic_pipeline_destroy(p);

		tl_seq_source_init(&src, 2);
		p = tl_sleep_pipeline(&params, "cpu", &src, NULL);
		EXPECT_STATUS(dalic_pipeline_release_outputs(p), DALIC_ESTATE, "nothing shared");
		EXPECT_ERROR_HAS("no outputs are shared", "%s", m->name);
		ASSERT_OK(dalic_pipeline_schedule_run(p));
		EXPECT_STATUS(dalic_pipeline_run(p), DALIC_ESTATE);
		EXPECT_ERROR_HAS("Mixing pipeline API type", "%s", m->name);
		ASSERT_OK(dalic_pipeline_share_outputs(p));
		tl_expect_seq_values(p, 0, 2, m->name);
		dalic_pipeline_destroy(p);
	}
}

/* The caller holds every output buffer: scheduling (sync) or sharing (async) more can never
 * complete, so it fails at once; after a release everything continues. */
Test(exec_errors, holding_every_buffer_errors_instead_of_hanging)
{
	TL_FOR_EACH_MODE(m)
	{
		tl_seq_source_t src;
		tl_seq_source_init(&src, 2);
		dalic_pipeline_params_t params = tl_mode_params(m, 2, 1);
		dalic_pipeline_t *p = tl_sleep_pipeline(&params, "gpu", &src, NULL);
		int held = m->separated ? m->gpu : m->cpu;
		int64_t next = 0;
		for (int k = 0; k < held; k++) {
			if (k == 0 || !m->pipelined) /* the first run filled the queue */
				ASSERT_OK(dalic_pipeline_schedule_run(p));
			ASSERT_OK(dalic_pipeline_share_outputs(p), "%s", m->name);
			tl_expect_seq_values(p, next++, 2, m->name);
		}
		int rc = dalic_pipeline_schedule_run(p);
		if (!m->async) {
			EXPECT_STATUS(rc, DALIC_ESTATE, "%s", m->name);
			EXPECT_ERROR_HAS("output buffers are in use", "%s", m->name);
		} else {
			ASSERT_OK(rc, "%s", m->name);
			EXPECT_STATUS(dalic_pipeline_share_outputs(p), DALIC_ESTATE, "%s", m->name);
			EXPECT_ERROR_HAS("output buffers are in use", "%s", m->name);
		}
		ASSERT_OK(dalic_pipeline_release_outputs(p));
		if (!m->async)
			ASSERT_OK(dalic_pipeline_schedule_run(p));
		ASSERT_OK(dalic_pipeline_share_outputs(p), "%s", m->name);
		tl_expect_seq_values(p, next++, 2, m->name);
		dalic_pipeline_destroy(p);
	}
}

static void exec_errors_expect_invalid(dalic_pipeline_params_t *params, const char *what)
{
	dalic_pipeline_t *p = NULL;
	EXPECT_STATUS(dalic_pipeline_create(params, &p), DALIC_EINVAL, "%s", what);
	cr_expect_null(p);
	EXPECT_ERROR_HAS(what);
	dalic_pipeline_params_init(params);
	params->batch_size = 2;
}

Test(exec_errors, invalid_parameters)
{
	dalic_pipeline_params_t x;
	dalic_pipeline_params_init(&x);
	x.batch_size = 0;
	exec_errors_expect_invalid(&x, "Invalid batch size: 0. Please set a positive integer.");
	x.num_threads = 0;
	exec_errors_expect_invalid(&x, "Invalid number of threads: 0");
	x.prefetch_cpu = x.prefetch_gpu = 0;
	exec_errors_expect_invalid(&x, "The prefetch queue depth must be greater than 0.");
	x.prefetch_gpu = 3;
	exec_errors_expect_invalid(
	    &x, "must be the same for CPU and GPU if separated execution is not used");
	x.separated_queues = true;
	x.exec_async = false;
	exec_errors_expect_invalid(&x, "requires `exec_async=True`");
	x.separated_queues = true;
	x.exec_pipelined = false;
	exec_errors_expect_invalid(&x, "`exec_pipelined=True`");
	x.device_id = -5;
	exec_errors_expect_invalid(&x, "Invalid device_id");
	/* a malformed DALI_AFFINITY_MASK fails the build, when set_affinity asks for it */
	setenv("DALI_AFFINITY_MASK", "0,x", 1);
	x.set_affinity = true;
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_create(&x, &p));
	dalic_op_t *c;
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &c));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(c, 0), NULL));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EINVAL);
	EXPECT_ERROR_HAS("DALI_AFFINITY_MASK");
	dalic_pipeline_destroy(p);
	unsetenv("DALI_AFFINITY_MASK");
}
