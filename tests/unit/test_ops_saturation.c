/* saturation: scaling of I and Q in DALI's YIQ. Hand values use the exact inverse of DALI's
 * RGB->YIQ matrix (first column 0.99966, 0.99962, 1.00281); for (200, 100, 50), Y = 124.2,
 * and out = s * in + (1 - s) * Y * column. */
#include "tests/testlib/oneop.h"

TestSuite(ops_saturation, .timeout = 20);

static const int64_t ops_saturation_px[3] = {1, 1, 3};
static const uint8_t ops_saturation_rgb[3] = {200, 100, 50};

static void ops_saturation_check(double s, const double *want)
{
	tl_oneop_t t = tl_oneop("saturation", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t.op, "saturation", s));
	tl_oneop_feed_u8(&t, "in", 1, 3, ops_saturation_px, ops_saturation_rgb, "HWC");
	tl_expect_values(tl_run(t.p, 0), 0, 3, want);
	dalic_pipeline_destroy(t.p);
}

Test(ops_saturation, zero_one_and_two)
{
	ops_saturation_check(0, (double[]){124, 124, 125});  /* 124.16, 124.15, 124.55 */
	ops_saturation_check(1, (double[]){200, 100, 50});   /* unchanged */
	ops_saturation_check(2, (double[]){255, 76, 0});     /* 275.8, 75.85, -24.5 */
	ops_saturation_check(0.5, (double[]){162, 112, 87}); /* 162.08, 112.08, 87.27 */
}
