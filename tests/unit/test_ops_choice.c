/* random.choice: draws from [0, n) for a scalar n, from a 1-D input's elements, slices of a 2-D
 * input; probabilities; shape-like input; DALI 2.4's values for seed 1234; argument errors. */
#include "tests/testlib.h"

TestSuite(ops_choice, .timeout = 20);

/* A pipeline of `batch` samples: choice(a [, like]) with seed 1234 as the output. */
static dalic_op_t *ops_choice_pipe(dalic_pipeline_t **p, int batch, bool like)
{
	*p = tl_pipeline(batch);
	tl_source(*p, "a");
	if (like)
		tl_source(*p, "like");
	dalic_op_t *op = tl_op(*p, "random.choice");
	ASSERT_OK(dalic_op_set_name(op, "pick"));
	ASSERT_OK(dalic_op_set_int(op, "seed", 1234));
	tl_input(op, "a");
	if (like)
		tl_input(op, "like");
	tl_output(*p, op);
	return op;
}

Test(ops_choice, scalar_draws_cover_zero_to_n)
{
	dalic_pipeline_t *p;
	dalic_op_t *op = ops_choice_pipe(&p, 2, false);
	ASSERT_OK(dalic_op_set_ints(op, "shape", 1, (int64_t[]){2000}));
	const int32_t n[2] = {5, 1};
	tl_feed(p, "a", DALIC_INT32, 0, 2, (int64_t[]){0}, n, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_INT32);
	tl_expect_shape(out, 0, 1, (int64_t[]){2000});
	int hits[5] = {0};
	for (int k = 0; k < 2000; k++) {
		double v = tl_at(out, 0, k);
		cr_assert(v >= 0 && v < 5 && v == (int)v, "%g", v);
		hits[(int)v]++;
		cr_assert_eq(tl_at(out, 1, k), 0, "n = 1 always gives 0");
	}
	for (int k = 0; k < 5; k++)
		cr_expect(hits[k] > 320 && hits[k] < 480, "value %d: %d of 2000", k, hits[k]);
	dalic_pipeline_destroy(p);
}

Test(ops_choice, probabilities_decide_what_is_drawn)
{
	dalic_pipeline_t *p;
	dalic_op_t *op = ops_choice_pipe(&p, 1, false);
	ASSERT_OK(dalic_op_set_ints(op, "shape", 1, (int64_t[]){1000}));
	ASSERT_OK(dalic_op_set_floats(op, "p", 4, (double[]){0.75, 0, 0.25, 0}));
	const float vals[4] = {1.5f, 2.5f, 3.5f, 4.5f};
	tl_feed(p, "a", DALIC_FLOAT, 1, 1, (int64_t[]){4}, vals, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	int first = 0;
	for (int k = 0; k < 1000; k++) {
		double v = tl_at(out, 0, k);
		cr_assert(v == 1.5 || v == 3.5, "%g has probability 0", v);
		first += v == 1.5;
	}
	cr_expect(first > 700 && first < 800, "1.5 drawn %d of 1000 times (p = 0.75)", first);
	dalic_pipeline_destroy(p);
}

Test(ops_choice, slices_of_a_matrix_and_shape_like)
{
	dalic_pipeline_t *p;
	ops_choice_pipe(&p, 1, true);
	const uint8_t rows[6] = {1, 2, 3, 4, 5, 6};
	tl_feed(p, "a", DALIC_UINT8, 2, 1, (int64_t[]){3, 2}, rows, "AB");
	const float like[6] = {0};
	tl_feed(p, "like", DALIC_FLOAT, 2, 1, (int64_t[]){2, 3}, like, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 3, (int64_t[]){2, 3, 2});
	for (int k = 0; k < 6; k++) {
		double a = tl_at(out, 0, 2 * k), b = tl_at(out, 0, 2 * k + 1);
		cr_expect(b == a + 1 && (a == 1 || a == 3 || a == 5), "slice %d: [%g, %g]", k, a, b);
	}
	dalic_pipeline_destroy(p);
}

/* Recorded from DALI 2.4: batch 2, operator seed 1234, first iteration. */
Test(ops_choice, dali_values_for_seed_1234)
{
	dalic_pipeline_t *p;
	dalic_op_t *op = ops_choice_pipe(&p, 2, false);
	ASSERT_OK(dalic_op_set_ints(op, "shape", 1, (int64_t[]){6}));
	const int32_t n[2] = {5, 100};
	tl_feed(p, "a", DALIC_INT32, 0, 2, (int64_t[]){0}, n, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_values(out, 0, 6, (double[]){0, 4, 2, 2, 0, 2});
	tl_expect_values(out, 1, 6, (double[]){71, 37, 6, 64, 24, 14});
	dalic_pipeline_destroy(p);

	op = ops_choice_pipe(&p, 2, false);
	ASSERT_OK(dalic_op_set_ints(op, "shape", 1, (int64_t[]){6}));
	ASSERT_OK(dalic_op_set_floats(op, "p", 4, (double[]){0.1, 0.2, 0.3, 0.4}));
	const int32_t v[8] = {10, 20, 30, 40, 10, 20, 30, 40};
	tl_feed(p, "a", DALIC_INT32, 1, 2, (int64_t[]){4, 4}, v, NULL);
	out = tl_run(p, 0);
	tl_expect_values(out, 0, 6, (double[]){40, 40, 30, 40, 20, 20});
	tl_expect_values(out, 1, 6, (double[]){10, 40, 20, 40, 40, 40});
	dalic_pipeline_destroy(p);

	op = ops_choice_pipe(&p, 2, false);
	ASSERT_OK(dalic_op_set_ints(op, "shape", 1, (int64_t[]){3}));
	const uint8_t m[12] = {1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6};
	tl_feed(p, "a", DALIC_UINT8, 2, 2, (int64_t[]){3, 2, 3, 2}, m, NULL);
	out = tl_run(p, 0);
	tl_expect_values(out, 0, 6, (double[]){1, 2, 5, 6, 1, 2});
	tl_expect_values(out, 1, 6, (double[]){5, 6, 1, 2, 1, 2});
	dalic_pipeline_destroy(p);
}

Test(ops_choice, argument_errors_name_the_operator_and_sample)
{
	dalic_pipeline_t *p;
	dalic_op_t *op = ops_choice_pipe(&p, 2, false);
	ASSERT_OK(dalic_op_set_floats(op, "p", 2, (double[]){0.5, 0.6}));
	const float vals[4] = {1, 2, 3, 4};
	tl_feed(p, "a", DALIC_FLOAT, 1, 2, (int64_t[]){2, 2}, vals, NULL);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'pick'");
	EXPECT_HAS(msg, "Sum of probabilities must be 1.0, but got 1.1 for sample: 0.");
	dalic_pipeline_destroy(p);

	ops_choice_pipe(&p, 1, false);
	const float x = 3;
	tl_feed(p, "a", DALIC_FLOAT, 0, 1, (int64_t[]){0}, &x, NULL);
	msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "Data type float is not supported for 0D inputs.");
	dalic_pipeline_destroy(p);

	ops_choice_pipe(&p, 2, false);
	const int64_t n[2] = {3, -2};
	tl_feed(p, "a", DALIC_INT64, 0, 2, (int64_t[]){0}, n, NULL);
	msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "Expected positive number of elements for sampling, got: -2 for sample: 1.");
	dalic_pipeline_destroy(p);
}
