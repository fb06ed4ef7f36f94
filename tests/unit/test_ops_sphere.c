/* sphere: output pixel (x, y) of an 8x8 image, t = (x + 0.5 - 4, y + 0.5 - 4), samples the
 * input at 4 + |t| / 4 * t (nearest neighbour). By hand: (0, 0) -> (-0.33, -0.33), outside;
 * (1, 0) -> (1.31, 0.24); (2, 2) -> (3.20, 3.20); (3, 3) -> (3.91, 3.91); (4, 4) -> (4.09, 4.09).
 */
#include "tests/testlib/oneop.h"

TestSuite(ops_sphere, .timeout = 20);

Test(ops_sphere, nearest_neighbour_points)
{
	uint8_t d[64];
	for (int k = 0; k < 64; k++)
		d[k] = (uint8_t)(10 * (k / 8) + k % 8); /* 10 y + x */
	tl_oneop_t t = tl_oneop("sphere", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t.op, "fill_value", 200));
	tl_oneop_feed_u8(&t, "in", 1, 3, (const int64_t[]){8, 8, 1}, d, "HWC");
	const dalic_batch_t *out = tl_run(t.p, 0);
	cr_expect_eq(tl_at(out, 0, 0), 200);
	cr_expect_eq(tl_at(out, 0, 1), 1);
	cr_expect_eq(tl_at(out, 0, 2 * 8 + 2), 33);
	cr_expect_eq(tl_at(out, 0, 3 * 8 + 3), 33);
	cr_expect_eq(tl_at(out, 0, 4 * 8 + 4), 44);
	dalic_pipeline_destroy(t.p);
}

Test(ops_sphere, layout_must_be_hwc)
{
	tl_oneop_t t = tl_oneop("sphere", 1, 1, NULL);
	tl_oneop_feed_u8(&t, "in", 1, 2, (const int64_t[]){2, 2}, (const uint8_t[]){1, 2, 3, 4},
	                 "HW");
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "does not match any of the allowed layouts");
	EXPECT_ERROR_HAS("(Sphere)");
	dalic_pipeline_destroy(t.p);
}
