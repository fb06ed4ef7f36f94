/* color_space_conversion: OpenCV's fixed-point grey and DALI's BT.601 studio-range YCbCr
 * (JPEG coefficients times 219/255 for Y and 224/255 for Cb/Cr), rounded half away from zero.
 * Values worked out by hand for (R, G, B) = (200, 100, 50). */
#include "tests/testlib/oneop.h"

TestSuite(ops_color_space_conversion, .timeout = 20);

/* One pixel of `c` channels converted from `from` to `to`; returns the pipeline (run). */
static const dalic_batch_t *ops_csc_run(tl_oneop_t *t, int from, int to, int c, const uint8_t *px)
{
	*t = tl_oneop("color_space_conversion", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_int(t->op, "image_type", from));
	ASSERT_OK(dalic_op_set_int(t->op, "output_type", to));
	tl_oneop_feed_u8(t, "in", 1, 3, (const int64_t[]){1, 1, c}, px, "HWC");
	return tl_run(t->p, 0);
}

static void ops_csc_check(int from, int to, int c, const uint8_t *px, int oc, const double *want)
{
	tl_oneop_t t;
	const dalic_batch_t *out = ops_csc_run(&t, from, to, c, px);
	tl_expect_shape(out, 0, 3, (const int64_t[]){1, 1, oc});
	tl_expect_values(out, 0, oc, want);
	dalic_pipeline_destroy(t.p);
}

static const uint8_t ops_csc_rgb[3] = {200, 100, 50}, ops_csc_bgr[3] = {50, 100, 200};

Test(ops_color_space_conversion, rgb_bgr_and_grey)
{
	ops_csc_check(DALIC_RGB, DALIC_BGR, 3, ops_csc_rgb, 3, (double[]){50, 100, 200});
	ops_csc_check(DALIC_BGR, DALIC_RGB, 3, ops_csc_bgr, 3, (double[]){200, 100, 50});
	/* (9798 * 200 + 19235 * 100 + 3735 * 50 + 16384) >> 15 = 4086234 >> 15 = 124 */
	ops_csc_check(DALIC_RGB, DALIC_GRAY, 3, ops_csc_rgb, 1, (double[]){124});
	ops_csc_check(DALIC_BGR, DALIC_GRAY, 3, ops_csc_bgr, 1, (double[]){124});
	ops_csc_check(DALIC_GRAY, DALIC_RGB, 1, (const uint8_t[]){77}, 3, (double[]){77, 77, 77});
}

Test(ops_color_space_conversion, ycbcr_both_ways)
{
	/* Y = 219/255 * 124.2 + 16 = 122.67; Cb = 224/255 * -41.873 + 128 = 91.22;
	 * Cr = 224/255 * 54.0656 + 128 = 175.49 */
	ops_csc_check(DALIC_RGB, DALIC_YCbCr, 3, ops_csc_rgb, 3, (double[]){123, 91, 175});
	ops_csc_check(DALIC_BGR, DALIC_YCbCr, 3, ops_csc_bgr, 3, (double[]){123, 91, 175});
	/* (Y - 16) * 255/219 = 124.589; R = +1.59603 * 47 = 199.60, G = -0.81297 * 47 +
	 * 0.39176 * 37 = 100.87, B = -2.01723 * 37 = 49.95 */
	const uint8_t ycc[3] = {123, 91, 175};
	ops_csc_check(DALIC_YCbCr, DALIC_RGB, 3, ycc, 3, (double[]){200, 101, 50});
	ops_csc_check(DALIC_YCbCr, DALIC_BGR, 3, ycc, 3, (double[]){50, 101, 200});
	/* grey: Y = 100 * 0.858824 + 16 = 101.88; back: (102 - 16) / 0.858824 = 100.14 */
	ops_csc_check(DALIC_GRAY, DALIC_YCbCr, 1, (const uint8_t[]){100}, 3,
	              (double[]){102, 128, 128});
	ops_csc_check(DALIC_YCbCr, DALIC_GRAY, 3, (const uint8_t[]){102, 9, 250}, 1,
	              (double[]){100});
}

Test(ops_color_space_conversion, refuses_what_dali_refuses)
{
	tl_oneop_t t = tl_oneop("color_space_conversion", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_int(t.op, "image_type", DALIC_RGB));
	ASSERT_OK(dalic_op_set_int(t.op, "output_type", DALIC_RGB));
	ASSERT_STATUS(dalic_pipeline_build(t.p), DALIC_EOP);
	EXPECT_ERROR_HAS("conversion not supported: RGB to RGB");
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("color_space_conversion", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_int(t.op, "image_type", DALIC_GRAY));
	ASSERT_OK(dalic_op_set_int(t.op, "output_type", DALIC_RGB));
	tl_oneop_feed_u8(&t, "in", 1, 3, (const int64_t[]){1, 1, 3}, ops_csc_rgb, "HWC");
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "Expected 1 channels. Got 3");
	EXPECT_ERROR_HAS("sample 0");
	dalic_pipeline_destroy(t.p);

	t = tl_oneop("color_space_conversion", 1, 1, NULL);
	ASSERT_OK(dalic_op_set_int(t.op, "image_type", DALIC_RGB));
	ASSERT_OK(dalic_op_set_int(t.op, "output_type", DALIC_GRAY));
	tl_oneop_feed_f32(&t, "in", 1, 3, (const int64_t[]){1, 1, 3}, (const float[]){1, 2, 3},
	                  "HWC");
	EXPECT_HAS(tl_run_fails(t.p, DALIC_EOP), "accept only uint8");
	dalic_pipeline_destroy(t.p);
}
