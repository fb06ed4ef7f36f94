/* water: output (x, y) samples the input at (x + ampl_x sin(freq_x y + phase_x),
 * y + ampl_y cos(freq_y x + phase_y)); with freq 0 the shifts are constant, so the expected
 * images are the input moved by hand. */
#include "tests/testlib/oneop.h"

#include <math.h>

TestSuite(ops_water, .timeout = 20);

static tl_oneop_t ops_water_make(double ax, double phase_x, double ay, int interp, double fill)
{
	tl_oneop_t t = tl_oneop("water", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t.op, "ampl_x", ax));
	ASSERT_OK(dalic_op_set_float(t.op, "phase_x", phase_x));
	ASSERT_OK(dalic_op_set_float(t.op, "ampl_y", ay));
	ASSERT_OK(dalic_op_set_float(t.op, "freq_x", 0));
	ASSERT_OK(dalic_op_set_float(t.op, "freq_y", 0));
	ASSERT_OK(dalic_op_set_int(t.op, "interp_type", interp));
	ASSERT_OK(dalic_op_set_float(t.op, "fill_value", fill));
	return t;
}

Test(ops_water, nearest_neighbour_shift_and_fill)
{
	/* 4 rows, 5 columns, channel 0 = x, channel 1 = y; sin(pi/2) = 1: px = x + 1,
	 * cos(0) = 1: py = y + 2 */
	uint8_t d[40];
	double want[40];
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 5; x++) {
			d[(y * 5 + x) * 2] = (uint8_t)x;
			d[(y * 5 + x) * 2 + 1] = (uint8_t)y;
			bool in = x + 1 < 5 && y + 2 < 4;
			want[(y * 5 + x) * 2] = in ? x + 1 : 9;
			want[(y * 5 + x) * 2 + 1] = in ? y + 2 : 9;
		}
	tl_oneop_t t = ops_water_make(1, M_PI / 2, 2, DALIC_INTERP_NN, 9.7); /* fill truncates */
	tl_oneop_feed_u8(&t, "in", 1, 3, (const int64_t[]){4, 5, 2}, d, "HWC");
	tl_expect_values(tl_run(t.p, 0), 0, 40, want);
	dalic_pipeline_destroy(t.p);
}

Test(ops_water, linear_blends_neighbours)
{
	/* py = y + 0.5 samples rows exactly; px = x + 1 falls between columns x and x + 1 */
	const float d[6] = {0, 10, 20, 30, 40, 50};
	tl_oneop_t t = ops_water_make(1, M_PI / 2, 0.5, DALIC_INTERP_LINEAR, 0);
	tl_oneop_feed_f32(&t, "in", 1, 3, (const int64_t[]){2, 3, 1}, d, "HWC");
	tl_expect_values(tl_run(t.p, 0), 0, 6, (double[]){5, 15, 10, 35, 45, 25});
	dalic_pipeline_destroy(t.p);
}

Test(ops_water, mask_zero_copies_and_errors)
{
	tl_oneop_t t = tl_oneop("water", 2, 1, (const char *[]){"mask", NULL});
	const uint8_t d[8] = {1, 2, 3, 4, 1, 2, 3, 4};
	tl_oneop_feed_u8(&t, "in", 2, 3, (const int64_t[]){2, 2, 1}, d, "HWC");
	tl_feed(t.p, "mask", DALIC_INT32, 0, 2, NULL, (const int32_t[]){0, 1}, NULL);
	const dalic_batch_t *out = tl_run(t.p, 0);
	tl_expect_values(out, 0, 4, (double[]){1, 2, 3, 4});
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("water", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_int(t.op, "interp_type", DALIC_INTERP_CUBIC));
	ASSERT_STATUS(dalic_pipeline_build(t.p), DALIC_EOP);
	EXPECT_ERROR_HAS("only NN and LINEAR are supported");
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("water", 1, 1, NULL);
	tl_feed(t.p, "in", DALIC_INT16, 3, 1, (const int64_t[]){1, 1, 1}, (const int16_t[]){1},
	        "HWC");
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "Unexpected input type int16");
	dalic_pipeline_destroy(t.p);
}
