/* reductions.mean_square and reductions.rms: squares summed in the output type (float by
 * default, the 64-bit widening, or for rms the input's type), times 1/n, rms's square root;
 * integer outputs truncate. Hand-computed on columns (3, 5), (1, 4), (2, 7). */
#include "tests/testlib/oneop.h"

TestSuite(ops_reductions_mean_square, .timeout = 20);

static const int64_t ops_rms_shape[2] = {2, 3};
static const uint8_t ops_rms_data[6] = {3, 1, 2, 5, 4, 7};

static const dalic_batch_t *ops_rms_run(tl_oneop_t *t, const char *op, int dtype)
{
	*t = tl_oneop(op, 1, 1, NULL);
	ASSERT_OK(dalic_op_set_ints(t->op, "axes", 1, (const int64_t[]){0}));
	if (dtype >= 0)
		ASSERT_OK(dalic_op_set_int(t->op, "dtype", dtype));
	tl_oneop_feed_u8(t, "in", 1, 2, ops_rms_shape, ops_rms_data, NULL);
	return tl_run(t->p, 0);
}

Test(ops_reductions_mean_square, mean_of_squares)
{
	tl_oneop_t t;
	/* (9 + 25) / 2, (1 + 16) / 2, (4 + 49) / 2 */
	tl_expect_values(ops_rms_run(&t, "reductions.mean_square", -1), 0, 3,
	                 (double[]){17, 8.5, 26.5});
	dalic_pipeline_destroy(t.p);
	const dalic_batch_t *out = ops_rms_run(&t, "reductions.mean_square", DALIC_UINT64);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_UINT64);
	tl_expect_values(out, 0, 3, (double[]){17, 8, 26});
	dalic_pipeline_destroy(t.p);
}

Test(ops_reductions_mean_square, root_mean_square)
{
	tl_oneop_t t;
	const dalic_batch_t *out = ops_rms_run(&t, "reductions.rms", -1);
	const double want[3] = {4.1231056, 2.9154759, 5.1478151};
	for (int k = 0; k < 3; k++)
		cr_expect_float_eq(tl_at(out, 0, k), want[k], 1e-6);
	dalic_pipeline_destroy(t.p);
	out = ops_rms_run(&t, "reductions.rms", DALIC_UINT8);
	tl_expect_values(out, 0, 3, (double[]){4, 2, 5});
	dalic_pipeline_destroy(t.p);
}

Test(ops_reductions_mean_square, uint16_squares_wrap_in_int_as_in_dali)
{
	/* 65535 * 65535 in C++'s int wraps to -131071: a negative mean square */
	tl_oneop_t t = tl_oneop("reductions.mean_square", 1, 1, NULL);
	tl_feed(t.p, "in", DALIC_UINT16, 1, 1, (const int64_t[]){1}, (const uint16_t[]){65535},
	        NULL);
	tl_expect_values(tl_run(t.p, 0), 0, 1, (double[]){-131071});
	dalic_pipeline_destroy(t.p);
}

Test(ops_reductions_mean_square, refuses_the_input_type_for_mean_square)
{
	tl_oneop_t t = tl_oneop("reductions.mean_square", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_UINT8));
	tl_oneop_feed_u8(&t, "in", 1, 2, ops_rms_shape, ops_rms_data, NULL);
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "Unsupported types: uint8, uint8");
	dalic_pipeline_destroy(t.p);
}
