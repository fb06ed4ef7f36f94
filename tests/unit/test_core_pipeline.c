/* The pipeline object in its default mode: feeding, end of data, declared outputs, the
 * steady-state zero-allocation rule, reproducibility. (Every executor mode is covered by the
 * executor tests.) */
#include "tests/testlib.h"

#include <string.h>

TestSuite(core_pipeline, .timeout = 20);

static dalic_pipeline_t *core_pipeline_new_pipe(int batch, int64_t seed)
{
	dalic_pipeline_params_t p;
	dalic_pipeline_params_init(&p);
	p.batch_size = batch;
	p.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	p.seed = seed;
	dalic_pipeline_t *pipe;
	ASSERT_OK(dalic_pipeline_create(&p, &pipe));
	return pipe;
}

Test(core_pipeline, invalid_parameters_use_dali_messages)
{
	dalic_pipeline_params_t p;
	dalic_pipeline_params_init(&p);
	dalic_pipeline_t *pipe;
	EXPECT_STATUS(dalic_pipeline_create(&p, &pipe), DALIC_EINVAL);
	cr_expect_str_eq(dalic_last_error(), "Invalid batch size: 0. Please set a positive integer.");
	p.batch_size = 2;
	p.prefetch_cpu = 3;
	EXPECT_STATUS(dalic_pipeline_create(&p, &pipe), DALIC_EINVAL);
	EXPECT_ERROR_HAS("must be the same for CPU and GPU");
}

static int core_pipeline_count_source(void *user, int64_t iteration, dalic_feed_t *feed)
{
	int *left = user;
	if (*left == 0)
		return DALIC_EEND;
	(*left)--;
	int32_t data[3] = {(int32_t)iteration, (int32_t)iteration * 10, (int32_t)iteration * 100};
	const int64_t shapes[3] = {1, 1, 1};
	return dalic_feed_batch(feed, DALIC_INT32, 1, 3, shapes, data, "X");
}

Test(core_pipeline, source_callback_and_end_of_data)
{
	dalic_pipeline_t *p = core_pipeline_new_pipe(3, 1);
	dalic_op_t *src;
	ASSERT_OK(dalic_pipeline_add_op(p, "external_source", NULL, &src));
	ASSERT_OK(dalic_op_set_name(src, "src"));
	ASSERT_OK(dalic_pipeline_add_output(p, "src", NULL));
	int left = 3;
	ASSERT_OK(dalic_pipeline_set_source(p, "src", core_pipeline_count_source, &left));
	for (int it = 0; it < 3; it++) {
		ASSERT_OK(dalic_pipeline_run(p));
		const dalic_batch_t *b = dalic_pipeline_output(p, 0);
		cr_expect_eq(dalic_batch_num_samples(b), 3);
		cr_expect_str_eq(dalic_batch_layout(b), "X");
		cr_expect_eq(*(const int32_t *)dalic_batch_data(b, 2), it * 100);
	}
	EXPECT_STATUS(dalic_pipeline_run(p), DALIC_EEND);
	EXPECT_STATUS(dalic_pipeline_run(p), DALIC_EEND);
	/* next epoch after reset */
	left = 1;
	ASSERT_OK(dalic_pipeline_reset(p));
	EXPECT_OK(dalic_pipeline_run(p));
	EXPECT_STATUS(dalic_pipeline_run(p), DALIC_EEND);
	dalic_pipeline_destroy(p);
}

Test(core_pipeline, feed_input_variable_batch_and_validation)
{
	dalic_pipeline_t *p = core_pipeline_new_pipe(4, 1);
	dalic_op_t *src;
	ASSERT_OK(dalic_pipeline_add_op(p, "external_source", NULL, &src));
	ASSERT_OK(dalic_op_set_name(src, "in"));
	ASSERT_OK(dalic_op_set_int(src, "dtype", DALIC_UINT8));
	ASSERT_OK(dalic_pipeline_add_output(p, "in", NULL));
	const uint8_t data[] = {1, 2, 3, 4, 5, 6};
	const int64_t shapes[] = {2, 4};
	ASSERT_OK(dalic_pipeline_feed_input(p, "in", DALIC_UINT8, 1, 2, shapes, data, NULL));
	ASSERT_OK(dalic_pipeline_feed_input(p, "in", DALIC_UINT8, 1, 2, shapes, data, NULL));
	EXPECT_STATUS(dalic_pipeline_feed_input(p, "nope", DALIC_UINT8, 1, 2, shapes, data, NULL),
	              DALIC_EINVAL);
	EXPECT_STATUS(dalic_pipeline_feed_input(p, "in", DALIC_UINT8, 1, 5, shapes, data, NULL),
	              DALIC_EINVAL, "batch above max batch size");
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *b = dalic_pipeline_output(p, 0);
	cr_expect_eq(dalic_batch_num_samples(b), 2);
	cr_expect_eq(dalic_batch_shape(b, 1)[0], 4);
	cr_expect_eq(((const uint8_t *)dalic_batch_data(b, 1))[3], 6);
	dalic_pipeline_destroy(p);

	/* a declared dtype that does not match what is fed fails in the operator */
	p = core_pipeline_new_pipe(4, 1);
	ASSERT_OK(dalic_pipeline_add_op(p, "external_source", NULL, &src));
	ASSERT_OK(dalic_op_set_name(src, "in"));
	ASSERT_OK(dalic_op_set_int(src, "dtype", DALIC_FLOAT));
	ASSERT_OK(dalic_pipeline_add_output(p, "in", NULL));
	for (int i = 0; i < 2; i++)
		ASSERT_OK(
		    dalic_pipeline_feed_input(p, "in", DALIC_UINT8, 1, 2, shapes, data, NULL));
	EXPECT_STATUS(dalic_pipeline_run(p), DALIC_EOP);
	EXPECT_ERROR_HAS("'in'");
	EXPECT_ERROR_HAS("FLOAT");
	EXPECT_STATUS(dalic_pipeline_run(p), DALIC_EBROKEN);
	dalic_pipeline_destroy(p);
}

Test(core_pipeline, declared_output_dtype_is_checked)
{
	dalic_pipeline_t *p = core_pipeline_new_pipe(2, 1);
	dalic_op_t *c;
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &c));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(c, 0), NULL));
	ASSERT_OK(dalic_pipeline_set_output_desc(p, 0, DALIC_FLOAT, -1, NULL));
	EXPECT_STATUS(dalic_pipeline_run(p), DALIC_EOUTPUT);
	cr_expect_str_eq(dalic_last_error(), "Data type in the output_idx=0 does not match. "
					     "Expected: FLOAT. Received: INT32.");
	dalic_pipeline_destroy(p);
}

Test(core_pipeline, api_types_cannot_be_mixed)
{
	dalic_pipeline_t *p = core_pipeline_new_pipe(2, 1);
	dalic_op_t *c;
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &c));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(c, 0), NULL));
	ASSERT_OK(dalic_pipeline_run(p));
	EXPECT_STATUS(dalic_pipeline_schedule_run(p), DALIC_ESTATE);
	EXPECT_ERROR_HAS("Mixing pipeline API type");
	dalic_pipeline_destroy(p);

	p = core_pipeline_new_pipe(2, 1);
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &c));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(c, 0), NULL));
	EXPECT_STATUS(dalic_pipeline_release_outputs(p), DALIC_ESTATE, "nothing shared yet");
	ASSERT_OK(dalic_pipeline_schedule_run(p));
	ASSERT_OK(dalic_pipeline_share_outputs(p));
	ASSERT_OK(dalic_pipeline_release_outputs(p));
	EXPECT_STATUS(dalic_pipeline_run(p), DALIC_ESTATE);
	dalic_pipeline_destroy(p);
}

static void core_pipeline_collect(dalic_pipeline_t *p, int iters, int32_t *out, int batch)
{
	for (int it = 0; it < iters; it++) {
		ASSERT_OK(dalic_pipeline_run(p));
		const dalic_batch_t *b = dalic_pipeline_output(p, 0);
		for (int i = 0; i < batch; i++)
			out[it * batch + i] = *(const int32_t *)dalic_batch_data(b, i);
	}
}

Test(core_pipeline, same_seed_same_values)
{
	int32_t a[64], b[64], c[64];
	for (int k = 0; k < 3; k++) {
		dalic_pipeline_t *p = core_pipeline_new_pipe(8, k < 2 ? 99 : 100);
		dalic_op_t *op;
		ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &op));
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, 0), NULL));
		core_pipeline_collect(p, 8, k == 0 ? a : k == 1 ? b : c, 8);
		dalic_pipeline_destroy(p);
	}
	cr_expect_arr_eq(a, b, sizeof a);
	cr_expect(memcmp(a, c, sizeof a), "another seed gives other values");
	int ones = 0;
	for (int i = 0; i < 64; i++)
		ones += a[i];
	cr_expect(ones > 16 && ones < 48, "p=0.5: %d ones of 64", ones);
}

Test(core_pipeline, steady_state_allocates_nothing)
{
	dalic_pipeline_t *p = core_pipeline_new_pipe(16, 5);
	dalic_op_t *c;
	ASSERT_OK(dalic_pipeline_add_op(p, "random.coin_flip", NULL, &c));
	ASSERT_OK(dalic_op_set_ints(c, "shape", 2, (const int64_t[]){7, 3}));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(c, 0), NULL));
	for (int i = 0; i < 5; i++)
		ASSERT_OK(dalic_pipeline_run(p));
	dalic_mem_totals_t before, after;
	dalic_mem_totals(0, &before);
	for (int i = 0; i < 200; i++)
		ASSERT_OK(dalic_pipeline_run(p));
	dalic_mem_totals(0, &after);
	cr_expect_eq(after.allocations, before.allocations);
	cr_expect_eq(after.bytes_live, before.bytes_live);
	dalic_pipeline_destroy(p);
}
