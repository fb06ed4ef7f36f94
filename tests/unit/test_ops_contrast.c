/* contrast: out = c0 + contrast * (in - c0), c0 = 128 for uint8 and 0.5 for float unless
 * contrast_center is given (hand-computed). */
#include "tests/testlib/oneop.h"

TestSuite(ops_contrast, .timeout = 20);

static const int64_t ops_contrast_px[3] = {1, 1, 3};

Test(ops_contrast, default_center_depends_on_the_input_type)
{
	tl_oneop_t t = tl_oneop("contrast", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t.op, "contrast", 0.5));
	tl_oneop_feed_u8(&t, "in", 1, 3, ops_contrast_px, (const uint8_t[]){0, 100, 255}, "HWC");
	tl_expect_values(tl_run(t.p, 0), 0, 3, (double[]){64, 114, 192}); /* 191.5 up */
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("contrast", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_float(t.op, "contrast", 0.5));
	tl_oneop_feed_f32(&t, "in", 1, 3, ops_contrast_px, (const float[]){0, 100, 255}, "HWC");
	tl_expect_values(tl_run(t.p, 0), 0, 3, (double[]){0.25, 50.25, 127.75});
	dalic_pipeline_destroy(t.p);
}

Test(ops_contrast, given_center_per_sample)
{
	tl_oneop_t t = tl_oneop("contrast", 2, 1, (const char *[]){"contrast_center", NULL});
	ASSERT_OK(dalic_op_set_float(t.op, "contrast", 0.0));
	const uint8_t two[6] = {0, 100, 255, 0, 100, 255};
	tl_oneop_feed_u8(&t, "in", 2, 3, ops_contrast_px, two, "HWC");
	tl_oneop_feed_scalars(&t, "contrast_center", 2, (const float[]){10.0f, 300.0f});
	const dalic_batch_t *out = tl_run(t.p, 0);
	tl_expect_values(out, 0, 3, (double[]){10, 10, 10});
	tl_expect_values(out, 1, 3, (double[]){255, 255, 255});
	dalic_pipeline_destroy(t.p);
}
