/* random.uniform and random.normal: ranges, discrete values, shapes, per-sample arguments,
 * dtypes, reproducibility for a seed, and argument errors. */
#include "tests/testlib.h"

TestSuite(ops_random, .timeout = 20);

static dalic_op_t *ops_random_rng_op(dalic_pipeline_t *p, const char *name, int64_t n)
{
	dalic_op_t *op = tl_op(p, name);
	ASSERT_OK(dalic_op_set_name(op, "rng"));
	if (n > 0)
		ASSERT_OK(dalic_op_set_ints(op, "shape", 1, &n));
	tl_output(p, op);
	return op;
}

Test(ops_random, uniform_defaults_to_float_scalars_in_minus_one_one)
{
	dalic_pipeline_t *p = tl_pipeline(4);
	ops_random_rng_op(p, "random.uniform", 0);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	cr_expect_eq(dalic_batch_ndim(out), 0);
	for (int i = 0; i < 4; i++) {
		double v = tl_at(out, i, 0);
		cr_expect(v >= -1 && v < 1, "sample %d: %g", i, v);
	}
	dalic_pipeline_destroy(p);
}

Test(ops_random, uniform_range_shape_and_spread)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *op = ops_random_rng_op(p, "Uniform", 4000);
	ASSERT_OK(dalic_op_set_floats(op, "range", 2, (double[]){2, 3}));
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 1, 1, (int64_t[]){4000});
	double sum = 0, lo = 3, hi = 2;
	for (int k = 0; k < 4000; k++) {
		double v = tl_at(out, 1, k);
		cr_assert(v >= 2 && v < 3, "element %d: %g", k, v);
		sum += v;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	cr_expect(fabs(sum / 4000 - 2.5) < 0.03, "mean %g", sum / 4000);
	cr_expect(lo < 2.01 && hi > 2.99, "spread [%g, %g]", lo, hi);
	cr_expect_neq(tl_at(out, 0, 0), tl_at(out, 1, 0), "samples draw different values");
	dalic_pipeline_destroy(p);
}

Test(ops_random, uniform_discrete_values_and_integer_dtype)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_random_rng_op(p, "random.uniform", 600);
	ASSERT_OK(dalic_op_set_floats(op, "values", 3, (double[]){-1, 0.5, 7}));
	const dalic_batch_t *out = tl_run(p, 0);
	int seen[3] = {0};
	for (int k = 0; k < 600; k++) {
		double v = tl_at(out, 0, k);
		int which = v == -1 ? 0 : v == 0.5 ? 1 : v == 7 ? 2 : -1;
		cr_assert(which >= 0, "element %d: %g is not one of the values", k, v);
		seen[which]++;
	}
	for (int w = 0; w < 3; w++)
		cr_expect(seen[w] > 120, "value %d picked %d times of 600", w, seen[w]);
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_random_rng_op(p, "random.uniform", 500);
	ASSERT_OK(dalic_op_set_floats(op, "range", 2, (double[]){0, 4}));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_INT32));
	out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_INT32);
	int hits[5] = {0};
	for (int k = 0; k < 500; k++) {
		double v = tl_at(out, 0, k);
		cr_assert(v >= 0 && v <= 4 && v == (int)v, "element %d: %g", k, v);
		hits[(int)v]++;
	}
	cr_expect(hits[4] > 0 && hits[0] > 0, "rounding reaches both ends: %d, %d", hits[0],
	          hits[4]);
	dalic_pipeline_destroy(p);
}

Test(ops_random, uniform_range_per_sample_from_argument_input)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "ranges");
	dalic_op_t *op = ops_random_rng_op(p, "random.uniform", 100);
	ASSERT_OK(dalic_op_set_arg_input(op, "range", "ranges"));
	const float ranges[] = {10, 11, -5, -4};
	tl_feed(p, "ranges", DALIC_FLOAT, 1, 2, (int64_t[]){2, 2}, ranges, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	for (int k = 0; k < 100; k++) {
		cr_assert(tl_at(out, 0, k) >= 10 && tl_at(out, 0, k) < 11);
		cr_assert(tl_at(out, 1, k) >= -5 && tl_at(out, 1, k) < -4);
	}
	dalic_pipeline_destroy(p);
}

/* The first value of sample 0 and 1 over two iterations, for a pipeline seeded `seed`. */
static void ops_random_draws(const char *op_name, int64_t seed, double out[4])
{
	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = 2;
	params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	params.seed = seed;
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_create(&params, &p));
	ops_random_rng_op(p, op_name, 0);
	for (int it = 0; it < 2; it++) {
		const dalic_batch_t *b = tl_run(p, 0);
		out[2 * it] = tl_at(b, 0, 0);
		out[2 * it + 1] = tl_at(b, 1, 0);
	}
	dalic_pipeline_destroy(p);
}

Test(ops_random, same_seed_same_values)
{
	const char *ops[] = {"random.uniform", "random.normal"};
	for (int o = 0; o < 2; o++) {
		double a[4], b[4], c[4];
		ops_random_draws(ops[o], 1234, a);
		ops_random_draws(ops[o], 1234, b);
		ops_random_draws(ops[o], 99, c);
		for (int k = 0; k < 4; k++)
			cr_expect_eq(a[k], b[k], "%s draw %d", ops[o], k);
		cr_expect(a[0] != c[0] || a[1] != c[1], "%s: another seed, other values", ops[o]);
		cr_expect(a[0] != a[2], "%s: iterations differ", ops[o]);
	}
}

Test(ops_random, normal_moments_and_per_sample_mean)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "means");
	dalic_op_t *op = ops_random_rng_op(p, "NormalDistribution", 5000);
	ASSERT_OK(dalic_op_set_arg_input(op, "mean", "means"));
	ASSERT_OK(dalic_op_set_float(op, "stddev", 2.0));
	const float means[] = {10, -3}; /* DALI: a float32 scalar per sample */
	tl_feed(p, "means", DALIC_FLOAT, 0, 2, (int64_t[]){0}, means, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	for (int i = 0; i < 2; i++) {
		double sum = 0, sq = 0;
		for (int k = 0; k < 5000; k++) {
			double v = tl_at(out, i, k);
			sum += v;
			sq += v * v;
		}
		double mean = sum / 5000, sd = sqrt(sq / 5000 - mean * mean);
		cr_expect(fabs(mean - means[i]) < 0.15, "sample %d mean %g", i, mean);
		cr_expect(fabs(sd - 2.0) < 0.15, "sample %d stddev %g", i, sd);
	}
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_random_rng_op(p, "random.normal", 200);
	ASSERT_OK(dalic_op_set_float(op, "mean", 100));
	ASSERT_OK(dalic_op_set_float(op, "stddev", 0));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_UINT8));
	out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_UINT8);
	for (int k = 0; k < 200; k++)
		cr_assert_eq(tl_at(out, 0, k), 100);
	dalic_pipeline_destroy(p);
}

Test(ops_random, shape_like_input)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "like");
	dalic_op_t *op = ops_random_rng_op(p, "random.normal", 0);
	tl_input(op, "like");
	const uint8_t img[24] = {0};
	tl_feed(p, "like", DALIC_UINT8, 3, 1, (int64_t[]){2, 4, 3}, img, NULL);
	tl_expect_shape(tl_run(p, 0), 0, 3, (int64_t[]){2, 4, 3});
	dalic_pipeline_destroy(p);
}

Test(ops_random, argument_errors)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_random_rng_op(p, "random.uniform", 0);
	ASSERT_OK(dalic_op_set_floats(op, "range", 2, (double[]){0, 1}));
	ASSERT_OK(dalic_op_set_floats(op, "values", 2, (double[]){5, 6}));
	double v = tl_at(tl_run(p, 0), 0, 0); /* DALI: `values` wins over `range` */
	cr_expect(v == 5 || v == 6, "%g", v);
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_random_rng_op(p, "random.uniform", 0);
	ASSERT_OK(dalic_op_set_floats(op, "range", 3, (double[]){0, 1, 2}));
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'rng'");
	EXPECT_HAS(msg, "Argument \"range\" expected shape {2} but got 3 values");
	EXPECT_HAS(msg, "sample 0");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_random_rng_op(p, "random.normal", 0);
	EXPECT_STATUS(dalic_op_set_string(op, "mean", "zero"), DALIC_EARG_TYPE);
	EXPECT_ERROR_HAS("'mean'");
	EXPECT_STATUS(dalic_op_set_float(op, "sigma", 1), DALIC_EUNKNOWN_ARG);
	EXPECT_ERROR_HAS("'rng'");
	EXPECT_ERROR_HAS("sigma");
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_FLOAT16));
	msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'rng'");
	EXPECT_HAS(msg, "Data type float16 is currently not supported");
	dalic_pipeline_destroy(p);
}
