/* segmentation.random_mask_pixel: foreground pixels by threshold and by value, each drawn about
 * equally often; any pixel without foreground; DALI 2.4's values for seed 1234; errors. */
#include "tests/testlib.h"

TestSuite(ops_random_mask_pixel, .timeout = 20);

/* A 4 x 5 mask: 7 at (1, 2) and (3, 0), 9 at (2, 4), 0 elsewhere. */
static void ops_random_mask_pixel_feed(dalic_pipeline_t *p, int batch)
{
	uint8_t m[2][20] = {{0}};
	for (int i = 0; i < batch; i++) {
		m[i][1 * 5 + 2] = 7;
		m[i][3 * 5 + 0] = 7;
		m[i][2 * 5 + 4] = 9;
	}
	tl_feed(p, "mask", DALIC_UINT8, 2, batch, (int64_t[]){4, 5, 4, 5}, m, NULL);
}

static dalic_op_t *ops_random_mask_pixel_op(dalic_pipeline_t *p, int foreground)
{
	tl_source(p, "mask");
	dalic_op_t *op = tl_op(p, "segmentation.random_mask_pixel");
	ASSERT_OK(dalic_op_set_name(op, "pixel"));
	ASSERT_OK(dalic_op_set_int(op, "seed", 1234));
	ASSERT_OK(dalic_op_set_int(op, "foreground", foreground));
	tl_input(op, "mask");
	tl_output(p, op);
	return op;
}

Test(ops_random_mask_pixel, foreground_by_value_and_threshold)
{
	for (int by_value = 0; by_value < 2; by_value++) {
		dalic_pipeline_t *p = tl_pipeline(1);
		dalic_op_t *op = ops_random_mask_pixel_op(p, 1);
		if (by_value)
			ASSERT_OK(dalic_op_set_int(op, "value", 7));
		else
			ASSERT_OK(dalic_op_set_float(op, "threshold", 5));
		int hits[3] = {0};
		for (int it = 0; it < 300; it++) {
			ops_random_mask_pixel_feed(p, 1);
			const dalic_batch_t *out = tl_run(p, 0);
			cr_assert_eq(dalic_batch_dtype(out), DALIC_INT64);
			tl_expect_shape(out, 0, 1, (int64_t[]){2});
			int y = (int)tl_at(out, 0, 0), x = (int)tl_at(out, 0, 1);
			int which = y == 1 && x == 2 ? 0 : y == 3 && x == 0 ? 1 : y == 2 && x == 4 ? 2 : -1;
			cr_assert(which >= 0, "(%d, %d) is background", y, x);
			cr_assert(!(by_value && which == 2), "value 9 is not 7");
			hits[which]++;
		}
		int n = by_value ? 2 : 3;
		for (int k = 0; k < n; k++)
			cr_expect(hits[k] > 300 / n - 45, "pixel %d drawn %d times", k, hits[k]);
		dalic_pipeline_destroy(p);
	}
}

Test(ops_random_mask_pixel, no_foreground_draws_any_pixel)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_random_mask_pixel_op(p, 1);
	ASSERT_OK(dalic_op_set_int(op, "value", 300)); /* uint8 cannot hold it: matches nothing */
	bool bg = false;
	for (int it = 0; it < 50; it++) {
		ops_random_mask_pixel_feed(p, 1);
		const dalic_batch_t *out = tl_run(p, 0);
		double y = tl_at(out, 0, 0), x = tl_at(out, 0, 1);
		cr_assert(y >= 0 && y < 4 && x >= 0 && x < 5, "(%g, %g)", y, x);
		bg |= !(y == 1 && x == 2) && !(y == 3 && x == 0) && !(y == 2 && x == 4);
	}
	cr_expect(bg, "background pixels are drawn too");
	dalic_pipeline_destroy(p);
}

/* Recorded from DALI 2.4: batch 2, operator seed 1234, iterations 0 and 1. */
Test(ops_random_mask_pixel, dali_values_for_seed_1234)
{
	static const double want[2][2][2][2] = {
	    {{{1, 2}, {3, 0}}, {{2, 4}, {2, 4}}}, /* foreground, threshold 5 */
	    {{{0, 4}, {2, 0}}, {{2, 4}, {2, 0}}}, /* any pixel */
	};
	for (int mode = 0; mode < 2; mode++) {
		dalic_pipeline_t *p = tl_pipeline(2);
		dalic_op_t *op = ops_random_mask_pixel_op(p, mode == 0);
		if (mode == 0)
			ASSERT_OK(dalic_op_set_float(op, "threshold", 5));
		for (int it = 0; it < 2; it++) {
			ops_random_mask_pixel_feed(p, 2);
			const dalic_batch_t *out = tl_run(p, 0);
			for (int i = 0; i < 2; i++)
				tl_expect_values(out, i, 2, want[mode][it][i]);
		}
		dalic_pipeline_destroy(p);
	}
}

Test(ops_random_mask_pixel, errors)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_random_mask_pixel_op(p, 1);
	const double d[4] = {0};
	tl_feed(p, "mask", DALIC_FLOAT64, 1, 1, (int64_t[]){4}, d, NULL);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'pixel'");
	EXPECT_HAS(msg, "Unexpected data type: double");
	dalic_pipeline_destroy(p);
}
