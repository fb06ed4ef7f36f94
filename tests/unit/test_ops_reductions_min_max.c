/* reductions.min / reductions.max: in the input's type; an empty range gives the neutral value
 * (the type's maximum for min, its lowest value for max), as DALI does. */
#include "tests/testlib/oneop.h"

#include <float.h>

TestSuite(ops_reductions_min_max, .timeout = 20);

Test(ops_reductions_min_max, per_axis)
{
	const float d[6] = {3, -1, 2, 5, 4, -7};
	tl_oneop_t t = tl_oneop("reductions.min", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_ints(t.op, "axes", 1, (const int64_t[]){1}));
	tl_oneop_feed_f32(&t, "in", 1, 2, (const int64_t[]){2, 3}, d, NULL);
	tl_expect_values(tl_run(t.p, 0), 0, 2, (double[]){-1, -7});
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("reductions.max", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_ints(t.op, "axes", 1, (const int64_t[]){0}));
	tl_oneop_feed_f32(&t, "in", 1, 2, (const int64_t[]){2, 3}, d, NULL);
	tl_expect_values(tl_run(t.p, 0), 0, 3, (double[]){5, 4, 2});
	dalic_pipeline_destroy(t.p);
}

Test(ops_reductions_min_max, empty_ranges_give_the_neutral_value)
{
	tl_oneop_t t = tl_oneop("reductions.min", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_ints(t.op, "axes", 1, (const int64_t[]){0}));
	tl_oneop_feed_u8(&t, "in", 1, 2, (const int64_t[]){0, 2}, NULL, NULL);
	const dalic_batch_t *out = tl_run(t.p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_UINT8);
	tl_expect_values(out, 0, 2, (double[]){255, 255});
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("reductions.max", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_ints(t.op, "axes", 1, (const int64_t[]){0}));
	tl_oneop_feed_f32(&t, "in", 1, 2, (const int64_t[]){0, 1}, NULL, NULL);
	tl_expect_values(tl_run(t.p, 0), 0, 1, (double[]){-FLT_MAX});
	dalic_pipeline_destroy(t.p);
}
