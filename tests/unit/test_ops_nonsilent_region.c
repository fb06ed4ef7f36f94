/* nonsilent_region: the region of a burst between silences for several windows, a burst at the
 * start and at the end, integer input, a given reference power, and DALI's argument errors.
 * The power at position p is that of the window ending at p, so a burst [a, b) is loud at
 * p in [a, b + w - 1); a region found after the start begins w - 1 earlier (DALI 2.4). */
#include "tests/testlib/oneop.h"

#include <string.h>

TestSuite(ops_nonsilent_region, .timeout = 20);

static void nonsilent_region_expect(tl_oneop_t *t, int i, int begin, int length)
{
	tl_expect_values(dalic_pipeline_output(t->p, 0), i, 1, (double[]){begin});
	tl_expect_values(dalic_pipeline_output(t->p, 1), i, 1, (double[]){length});
}

static tl_oneop_t nonsilent_region_op(int batch, int window)
{
	tl_oneop_t t = tl_oneop("nonsilent_region", batch, 1, NULL);
	ASSERT_OK(dalic_pipeline_add_output(t.p, dalic_op_output(t.op, 1), NULL));
	ASSERT_OK(dalic_op_set_int(t.op, "window_length", window));
	return t;
}

Test(ops_nonsilent_region, bursts_between_silences)
{
	static float x[3][3000];
	memset(x, 0, sizeof x);
	for (int k = 1000; k < 1100; k++)
		x[0][k] = 1;
	for (int k = 0; k < 10; k++)
		x[1][k] = x[2][2990 + k] = 0.5f;
	const int windows[3] = {128, 1, 512};
	/* burst [1000, 1100): loud at [1000, 1099 + w), begins at 1000 - (w - 1);
	 * burst [0, 10): loud at [0, 9 + w), starts at 0 (no shift);
	 * burst [2990, 3000): loud at [2990, 3000), begins at 2990 - (w - 1) */
	const int want[3][3][2] = {
	    {{873, 354}, {0, 137}, {2863, 137}},
	    {{1000, 100}, {0, 10}, {2990, 10}},
	    {{489, 1122}, {0, 521}, {2479, 521}},
	};
	for (int w = 0; w < 3; w++) {
		tl_oneop_t t = nonsilent_region_op(3, windows[w]);
		tl_oneop_feed_f32(&t, "in", 3, 1, (int64_t[]){3000}, &x[0][0], NULL);
		tl_run(t.p, 0);
		for (int i = 0; i < 3; i++)
			nonsilent_region_expect(&t, i, want[w][i][0], want[w][i][1]);
		dalic_pipeline_destroy(t.p);
	}
}

Test(ops_nonsilent_region, int16_input_reference_power_and_silence)
{
	static int16_t x[1000];
	for (int k = 100; k < 110; k++)
		x[k] = 1000;
	tl_oneop_t t = nonsilent_region_op(1, 16);
	tl_feed(t.p, "in", DALIC_INT16, 1, 1, (int64_t[]){1000}, x, NULL);
	tl_run(t.p, 0);
	nonsilent_region_expect(&t, 0, 85, 40); /* loud at [100, 124], begins at 100 - 15 */
	dalic_pipeline_destroy(t.p);

	/* a quiet burst: power 1e-8 is -80 dB from a reference power of 1 */
	static float q[500];
	for (int k = 200; k < 300; k++)
		q[k] = 1e-4f;
	t = nonsilent_region_op(1, 50);
	ASSERT_OK(dalic_op_set_float(t.op, "reference_power", 1));
	ASSERT_OK(dalic_op_set_int(t.op, "reset_interval", 100));
	tl_oneop_feed_f32(&t, "in", 1, 1, (int64_t[]){500}, q, NULL);
	tl_run(t.p, 0);
	nonsilent_region_expect(&t, 0, 0, 0);
	dalic_pipeline_destroy(t.p);

	/* a window longer than the signal shrinks to it */
	t = nonsilent_region_op(1, 512);
	tl_oneop_feed_f32(&t, "in", 1, 1, (int64_t[]){300}, q + 150, NULL);
	tl_run(t.p, 0);
	nonsilent_region_expect(&t, 0, 0, 300);
	dalic_pipeline_destroy(t.p);
}

Test(ops_nonsilent_region, argument_errors)
{
	tl_oneop_t t = nonsilent_region_op(1, 64);
	ASSERT_OK(dalic_op_set_int(t.op, "reset_interval", 100));
	tl_oneop_feed_f32(&t, "in", 1, 1, (int64_t[]){4}, (float[]){1, 2, 3, 4}, NULL);
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "`reset_interval` shall be a multiple of "
	                                         "`window_length`. Got: reset_interval: 100 vs "
	                                         "window_length: 64");
	dalic_pipeline_destroy(t.p);

	t = nonsilent_region_op(1, 64);
	ASSERT_OK(dalic_op_set_float(t.op, "reference_power", -1));
	EXPECT_STATUS(dalic_pipeline_build(t.p), DALIC_EOP);
	EXPECT_ERROR_HAS("`reference_power` has to be positive. Got: -1");
	dalic_pipeline_destroy(t.p);
}
