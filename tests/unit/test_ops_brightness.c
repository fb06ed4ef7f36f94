/* brightness: out = brightness_shift * range(out) + brightness * in (hand-computed). */
#include "tests/testlib/oneop.h"

TestSuite(ops_brightness, .timeout = 20);

static const int64_t ops_brightness_px[3] = {1, 1, 3};
static const uint8_t ops_brightness_u8[3] = {0, 100, 255};

Test(ops_brightness, shift_is_in_units_of_the_output_range)
{
	tl_oneop_t t = tl_oneop("brightness", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t.op, "brightness_shift", 0.5));
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_FLOAT));
	tl_oneop_feed_u8(&t, "in", 1, 3, ops_brightness_px, ops_brightness_u8, "HWC");
	tl_expect_values(tl_run(t.p, 0), 0, 3, (double[]){0.5, 100.5, 255.5});
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("brightness", 1, 1, NULL); /* 0.5 * 32767 = 16383.5, rounds up */
	ASSERT_OK(dalic_op_set_float(t.op, "brightness_shift", 0.5));
	ASSERT_OK(dalic_op_set_int(t.op, "dtype", DALIC_INT16));
	tl_oneop_feed_u8(&t, "in", 1, 3, ops_brightness_px, ops_brightness_u8, "HWC");
	tl_expect_values(tl_run(t.p, 0), 0, 3, (double[]){16384, 16484, 16639});
	dalic_pipeline_destroy(t.p);
}

Test(ops_brightness, per_sample_factor_and_saturation)
{
	tl_oneop_t t = tl_oneop("brightness", 2, 1, (const char *[]){"brightness", NULL});
	const uint8_t two[6] = {0, 100, 255, 0, 100, 255};
	tl_oneop_feed_u8(&t, "in", 2, 3, ops_brightness_px, two, "HWC");
	tl_oneop_feed_scalars(&t, "brightness", 2, (const float[]){2.0f, 0.25f});
	const dalic_batch_t *out = tl_run(t.p, 0);
	tl_expect_values(out, 0, 3, (double[]){0, 200, 255});
	tl_expect_values(out, 1, 3, (double[]){0, 25, 64}); /* 63.75 */
	dalic_pipeline_destroy(t.p);
}
