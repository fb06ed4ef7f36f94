/* hue: rotation of I and Q in DALI's YIQ. Hand values use the exact inverse of DALI's RGB->YIQ
 * matrix (first column 0.99966, 0.99962, 1.00281); for (200, 100, 50), Y = 124.2. */
#include "tests/testlib/oneop.h"

TestSuite(ops_hue, .timeout = 20);

static const int64_t ops_hue_px[3] = {1, 1, 3};
static const uint8_t ops_hue_rgb[3] = {200, 100, 50};

Test(ops_hue, half_turn_and_full_turn)
{
	tl_oneop_t t = tl_oneop("hue", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t.op, "hue", 180.0));
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_FLOAT));
	tl_oneop_feed_u8(&t, "in", 1, 3, ops_hue_px, ops_hue_rgb, "HWC");
	const dalic_batch_t *out = tl_run(t.p, 0);
	/* 2 * Y * column - in */
	const double want[3] = {2 * 124.2 * 0.999660 - 200, 2 * 124.2 * 0.999620 - 100,
	                        2 * 124.2 * 1.002814 - 50};
	for (int k = 0; k < 3; k++)
		cr_expect_float_eq(tl_at(out, 0, k), want[k], 2e-3, "channel %d", k);
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("hue", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t.op, "hue", -360.0));
	tl_oneop_feed_u8(&t, "in", 1, 3, ops_hue_px, ops_hue_rgb, "HWC");
	out = tl_run(t.p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_UINT8); /* the input's type */
	tl_expect_values(out, 0, 3, (double[]){200, 100, 50});
	dalic_pipeline_destroy(t.p);
}

Test(ops_hue, grey_has_no_hue)
{
	tl_oneop_t t = tl_oneop("hue", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t.op, "hue", 77.0));
	const uint8_t grey[3] = {90, 90, 90}; /* I = Q = 0 (to float rounding): 90 * column */
	tl_oneop_feed_u8(&t, "in", 1, 3, ops_hue_px, grey, "HWC");
	tl_expect_values(tl_run(t.p, 0), 0, 3, (double[]){90, 90, 90});
	dalic_pipeline_destroy(t.p);
}
