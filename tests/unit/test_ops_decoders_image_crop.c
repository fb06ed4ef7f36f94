/*
 * decoders.image_crop: the decoded window (only it is decoded) is bit-exact with djpeg's whole
 * decode cut to the window placed as crop places it (anchor = round or truncate of pos * (in
 * - crop)); windows leaving the image fail as in DALI. chelsea.jpg is 451 x 300.
 */
#include "tests/testlib/image.h"

TestSuite(ops_decoders_image_crop, .timeout = 30);

static dalic_pipeline_t *ops_decoders_image_crop_pipeline(const char *file, dalic_op_t **dec)
{
	return tl_decode_pipeline("samples/images", 1, (const char *[]){file},
	                          "decoders.image_crop", DALIC_RGB, dec);
}

Test(ops_decoders_image_crop, placed_windows)
{
	/* x = round(0.25 * (451 - 41)) = round(102.5) = 103; y = round(0.8 * 269) = 215 */
	dalic_op_t *dec;
	dalic_pipeline_t *p = ops_decoders_image_crop_pipeline("cat/chelsea.jpg", &dec);
	ASSERT_OK(dalic_op_set_floats(dec, "crop", 2, (double[]){31, 41}));
	ASSERT_OK(dalic_op_set_float(dec, "crop_pos_x", 0.25));
	ASSERT_OK(dalic_op_set_float(dec, "crop_pos_y", 0.8));
	tl_expect_djpeg_window(tl_run(p, 0), 0, "cat/chelsea.jpg", 103, 215, 41, 31);
	dalic_pipeline_destroy(p);

	/* truncate: x = 102, y = trunc(0.5 * 269) = 134 */
	p = ops_decoders_image_crop_pipeline("cat/chelsea.jpg", &dec);
	ASSERT_OK(dalic_op_set_floats(dec, "crop", 2, (double[]){31, 41}));
	ASSERT_OK(dalic_op_set_float(dec, "crop_pos_x", 0.25));
	ASSERT_OK(dalic_op_set_string(dec, "rounding", "truncate"));
	tl_expect_djpeg_window(tl_run(p, 0), 0, "cat/chelsea.jpg", 102, 134, 41, 31);
	dalic_pipeline_destroy(p);

	/* crop_w / crop_h on the 4:2:2 coffee (600 x 400): x = 0.5 * 480 = 240, y = 0.5 * 336 =
	 * 168 */
	p = ops_decoders_image_crop_pipeline("coffee/coffee_422.jpg", &dec);
	ASSERT_OK(dalic_op_set_float(dec, "crop_w", 120));
	ASSERT_OK(dalic_op_set_float(dec, "crop_h", 64));
	tl_expect_djpeg_window(tl_run(p, 0), 0, "coffee/coffee_422.jpg", 240, 168, 120, 64);
	dalic_pipeline_destroy(p);
}

Test(ops_decoders_image_crop, errors)
{
	dalic_op_t *dec;
	dalic_pipeline_t *p = ops_decoders_image_crop_pipeline("cat/chelsea.jpg", &dec);
	ASSERT_OK(dalic_op_set_floats(dec, "crop", 2, (double[]){3000, 40}));
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'Decoder'");
	EXPECT_HAS(msg, "The cropping window [-1350..1650, 206..246] is not valid for image "
	                "dimensions [300 x 451]");
	dalic_pipeline_destroy(p);

	p = ops_decoders_image_crop_pipeline("cat/chelsea.jpg", &dec);
	ASSERT_OK(dalic_op_set_string(dec, "rounding", "ceil"));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("Unsupported rounding 'ceil'");
	dalic_pipeline_destroy(p);
}
