/* to_decibels: powers of ten against a given reference and against the sample's maximum, the
 * cutoff, an all-zero sample, and the zero-reference error. */
#include "tests/testlib/oneop.h"

TestSuite(ops_to_decibels, .timeout = 20);

Test(ops_to_decibels, references_and_cutoff)
{
	const float x[4] = {1, 10, 100, 1e-6f};
	tl_oneop_t t = tl_oneop("to_decibels", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t.op, "reference", 1));
	tl_oneop_feed_f32(&t, "in", 1, 1, (int64_t[]){4}, x, NULL);
	tl_expect_near(tl_run(t.p, 0), 0, 4, (double[]){0, 10, 20, -60}, 1e-4);
	dalic_pipeline_destroy(t.p);

	/* reference = the maximum (100); cutoff -30 dB with multiplier 20 */
	t = tl_oneop("to_decibels", 2, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t.op, "multiplier", 20));
	ASSERT_OK(dalic_op_set_float(t.op, "cutoff_db", -30));
	tl_feed(t.p, "in", DALIC_FLOAT, 1, 2, (int64_t[]){4, 2}, (float[]){1, 10, 100, 1e-6f, 0, 0},
	        NULL);
	const dalic_batch_t *out = tl_run(t.p, 0);
	tl_expect_near(out, 0, 4, (double[]){-30, -20, 0, -30}, 1e-4);
	tl_expect_near(out, 1, 2, (double[]){-30, -30}, 1e-4); /* all zero: reference 1 */
	dalic_pipeline_destroy(t.p);
}

Test(ops_to_decibels, zero_reference)
{
	tl_oneop_t t = tl_oneop("to_decibels", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t.op, "reference", 0));
	EXPECT_STATUS(dalic_pipeline_build(t.p), DALIC_EOP);
	EXPECT_ERROR_HAS("`reference` argument can't be zero");
	dalic_pipeline_destroy(t.p);
}
