/* mfcc: DCT types on small columns computed by hand, orthonormal scaling, n_mfcc truncation,
 * liftering, the axis, and DALI's errors. */
#include "tests/testlib/oneop.h"

#include <math.h>

TestSuite(ops_mfcc, .timeout = 20);

static const dalic_batch_t *mfcc_run(tl_oneop_t *t, const float *x, int64_t rows, int64_t cols)
{
	tl_oneop_feed_f32(t, "in", 1, 2, (int64_t[]){rows, cols}, x, "ft");
	return tl_run(t->p, 0);
}

Test(ops_mfcc, dct_types)
{
	/* DCT-II of a constant column of 4: [4, 0, 0, 0]; orthonormal: [2, 0, 0, 0] */
	const float ones[4] = {1, 1, 1, 1};
	tl_oneop_t t = tl_oneop("mfcc", 1, 1, NULL);
	const dalic_batch_t *out = mfcc_run(&t, ones, 4, 1);
	cr_expect_str_eq(dalic_batch_layout(out), "ft");
	tl_expect_shape(out, 0, 2, (int64_t[]){4, 1}); /* n_mfcc 20 > 4: all 4 */
	tl_expect_near(out, 0, 4, (double[]){4, 0, 0, 0}, 1e-6);
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("mfcc", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_bool(t.op, "normalize", true));
	ASSERT_OK(dalic_op_set_int(t.op, "n_mfcc", 2));
	tl_expect_near(mfcc_run(&t, ones, 4, 1), 0, 2, (double[]){2, 0}, 1e-6);
	dalic_pipeline_destroy(t.p);

	/* DCT-I of [1, 2, 3]: X_k = (x0 + (-1)^k x2) / 2 + x1 cos(pi k / 2) = 4, -1, 0 */
	t = tl_oneop("mfcc", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_int(t.op, "dct_type", 1));
	tl_expect_near(mfcc_run(&t, (float[]){1, 2, 3}, 3, 1), 0, 3, (double[]){4, -1, 0}, 1e-6);
	dalic_pipeline_destroy(t.p);

	/* DCT-III of [1, 0]: x0 / 2 = 0.5 for both; DCT-IV of [1, 0]: cos(pi / 8), cos(3 pi / 8) */
	t = tl_oneop("mfcc", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_int(t.op, "dct_type", 3));
	tl_expect_near(mfcc_run(&t, (float[]){1, 0}, 2, 1), 0, 2, (double[]){0.5, 0.5}, 1e-6);
	dalic_pipeline_destroy(t.p);
	t = tl_oneop("mfcc", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_int(t.op, "dct_type", 4));
	tl_expect_near(mfcc_run(&t, (float[]){1, 0}, 2, 1), 0, 2,
	               (double[]){cos(M_PI / 8), cos(3 * M_PI / 8)}, 1e-6);
	dalic_pipeline_destroy(t.p);
}

Test(ops_mfcc, lifter_and_axis)
{
	/* lifter 2: c_k *= 1 + sin(pi (k + 1) / 2): x2 for k = 0; DCT-II along axis 1 of rows
	 * [1, 1] and [2, 2]: [2, 0] and [4, 0] */
	tl_oneop_t t = tl_oneop("mfcc", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t.op, "lifter", 2));
	ASSERT_OK(dalic_op_set_int(t.op, "axis", 1));
	const dalic_batch_t *out = mfcc_run(&t, (float[]){1, 1, 2, 2}, 2, 2);
	tl_expect_near(out, 0, 4, (double[]){4, 0, 8, 0}, 1e-6);
	dalic_pipeline_destroy(t.p);
}

Test(ops_mfcc, errors)
{
	struct {
		const char *arg;
		int64_t v;
		const char *msg;
	} cases[] = {
	    {"dct_type", 5, "Unsupported DCT type: 5. Supported types are: 1, 2, 3, 4."},
	    {"n_mfcc", 0, "number of MFCCs should be > 0"},
	    {"axis", -1, "Provided axis cannot be negative."},
	};
	for (int c = 0; c < 3; c++) {
		tl_oneop_t t = tl_oneop("mfcc", 1, 1, NULL);
		ASSERT_OK(dalic_op_set_int(t.op, cases[c].arg, cases[c].v));
		EXPECT_STATUS(dalic_pipeline_build(t.p), DALIC_EOP, "%s", cases[c].arg);
		EXPECT_ERROR_HAS(cases[c].msg);
		dalic_pipeline_destroy(t.p);
	}
	tl_oneop_t t = tl_oneop("mfcc", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_int(t.op, "dct_type", 1));
	ASSERT_OK(dalic_op_set_bool(t.op, "normalize", true));
	EXPECT_STATUS(dalic_pipeline_build(t.p), DALIC_EOP);
	EXPECT_ERROR_HAS("Ortho-normalization is not supported for DCT type I.");
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("mfcc", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_int(t.op, "axis", 2));
	tl_oneop_feed_f32(&t, "in", 1, 2, (int64_t[]){2, 1}, (float[]){1, 1}, NULL);
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "Axis 2 is out of bounds [0,2)");
	dalic_pipeline_destroy(t.p);
}
