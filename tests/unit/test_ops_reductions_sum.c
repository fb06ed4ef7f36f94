/* reductions.sum: integers widen to 64 bits by default, float stays float; the input's own
 * type wraps around (hand-computed). */
#include "tests/testlib/oneop.h"

TestSuite(ops_reductions_sum, .timeout = 20);

static const int64_t ops_rsum_shape[2] = {2, 3};

Test(ops_reductions_sum, widening_defaults)
{
	tl_oneop_t t = tl_oneop("reductions.sum", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_ints(t.op, "axes", 1, (const int64_t[]){0}));
	tl_oneop_feed_u8(&t, "in", 1, 2, ops_rsum_shape,
	                 (const uint8_t[]){200, 100, 3, 250, 250, 1}, NULL);
	const dalic_batch_t *out = tl_run(t.p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_UINT64);
	tl_expect_values(out, 0, 3, (double[]){450, 350, 4});
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("reductions.sum", 1, 1, NULL);
	const int8_t s[6] = {-100, -100, -100, 5, 6, 7};
	tl_feed(t.p, "in", DALIC_INT8, 2, 1, ops_rsum_shape, s, NULL);
	out = tl_run(t.p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_INT64);
	tl_expect_shape(out, 0, 0, NULL);
	tl_expect_values(out, 0, 1, (double[]){-282});
	dalic_pipeline_destroy(t.p);
}

Test(ops_reductions_sum, own_type_wraps_and_float_out)
{
	tl_oneop_t t = tl_oneop("reductions.sum", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_ints(t.op, "axes", 1, (const int64_t[]){0}));
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_UINT8));
	tl_oneop_feed_u8(&t, "in", 1, 2, ops_rsum_shape,
	                 (const uint8_t[]){200, 100, 3, 250, 250, 1}, NULL);
	tl_expect_values(tl_run(t.p, 0), 0, 3, (double[]){194, 94, 4}); /* mod 256 */
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("reductions.sum", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_FLOAT));
	ASSERT_OK(dalic_op_set_ints(t.op, "axes", 1, (const int64_t[]){1}));
	tl_oneop_feed_u8(&t, "in", 1, 2, ops_rsum_shape,
	                 (const uint8_t[]){200, 100, 3, 250, 250, 1}, NULL);
	tl_expect_values(tl_run(t.p, 0), 0, 2, (double[]){303, 501});
	dalic_pipeline_destroy(t.p);
}

Test(ops_reductions_sum, long_float_sums_are_pairwise)
{
	/* 1 followed by 63 values of 2^-24: added one by one in float each one vanishes
	 * (1 + 2^-24 rounds to 1). DALI splits 64 values into halves of 32 summed apart: the
	 * first half gives 1, the second 32 * 2^-24 = 2^-19 exactly, and 1 + 2^-19 is a float. */
	float v[64];
	v[0] = 1.0f;
	for (int k = 1; k < 64; k++)
		v[k] = 0x1p-24f;
	tl_oneop_t t = tl_oneop("reductions.sum", 1, 1, NULL);
	tl_oneop_feed_f32(&t, "in", 1, 1, (const int64_t[]){64}, v, NULL);
	tl_expect_values(tl_run(t.p, 0), 0, 1, (double[]){1.0 + 0x1p-19});
	dalic_pipeline_destroy(t.p);
}
