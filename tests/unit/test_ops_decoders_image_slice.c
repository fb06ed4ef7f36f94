/*
 * decoders.image_slice: the decoded slice (only it is decoded) is bit-exact with djpeg's whole
 * decode cut to the window, for named (absolute, relative) and positional forms, on 4:2:0,
 * 4:2:2 and progressive JPEGs; windows that are empty or leave the image fail as in DALI.
 * Window positions are worked out by hand from the photos' sizes (chelsea: 451 x 300).
 */
#include "tests/testlib/image.h"

TestSuite(ops_decoders_image_slice, .timeout = 30);

static dalic_pipeline_t *ops_decoders_image_slice_pipeline(const char *file, dalic_op_t **dec)
{
	return tl_decode_pipeline("samples/images", 1, (const char *[]){file},
	                          "decoders.image_slice", DALIC_RGB, dec);
}

/* Output 0's sample equals djpeg's decode of `file` cut to (x, y, w, h). */
static void ops_decoders_image_slice_expect(dalic_pipeline_t *p, const char *file, int x, int y,
                                            int w, int h)
{
	const dalic_batch_t *b = tl_run(p, 0);
	cr_expect_str_eq(dalic_batch_layout(b), "HWC");
	tl_expect_djpeg_window(b, 0, file, x, y, w, h);
}

Test(ops_decoders_image_slice, start_and_shape_over_WH)
{
	const char *files[] = {"cat/chelsea.jpg", "coffee/coffee_422.jpg",
	                       "space/astronaut_444_progressive.jpg"};
	for (int k = 0; k < 3; k++) {
		dalic_op_t *dec;
		dalic_pipeline_t *p = ops_decoders_image_slice_pipeline(files[k], &dec);
		ASSERT_OK(dalic_op_set_ints(dec, "start", 2, (int64_t[]){17, 30}));
		ASSERT_OK(dalic_op_set_ints(dec, "shape", 2, (int64_t[]){77, 101}));
		ops_decoders_image_slice_expect(p, files[k], 17, 30, 77, 101);
		dalic_pipeline_destroy(p);
	}
}

Test(ops_decoders_image_slice, relative_by_axes)
{
	/* H: 0.1 * 300 = 30 .. 0.9 * 300 = 270; W: 0.25 * 451 = 112.75 -> 113 .. 0.6 * 451 =
	 * 270.6 -> 271 */
	dalic_op_t *dec;
	dalic_pipeline_t *p = ops_decoders_image_slice_pipeline("cat/chelsea.jpg", &dec);
	ASSERT_OK(dalic_op_set_ints(dec, "axes", 2, (int64_t[]){0, 1}));
	ASSERT_OK(dalic_op_set_floats(dec, "rel_start", 2, (double[]){0.1, 0.25}));
	ASSERT_OK(dalic_op_set_floats(dec, "rel_end", 2, (double[]){0.9, 0.6}));
	ops_decoders_image_slice_expect(p, "cat/chelsea.jpg", 113, 30, 158, 240);
	dalic_pipeline_destroy(p);
}

Test(ops_decoders_image_slice, positional_inputs)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "anchor");
	tl_source(p, "shape");
	dalic_op_t *rd = tl_op(p, "readers.file");
	ASSERT_OK(dalic_op_set_string(rd, "file_root", "samples/images"));
	ASSERT_OK(dalic_op_set_strings(rd, "files", 1, (const char *[]){"cat/chelsea.jpg"}));
	dalic_op_t *dec = tl_op(p, "decoders.image_slice");
	tl_input(dec, dalic_op_output(rd, 0));
	tl_input(dec, "anchor");
	tl_input(dec, "shape");
	tl_output(p, dec);
	/* normalized [W, H]: x 0.2 * 451 = 90.2 -> 90, end (0.2 + 0.5) * 451 = 315.7 -> 316;
	 * y 0.1 * 300 = 30, end 0.5 * 300 = 150 */
	tl_feed(p, "anchor", DALIC_FLOAT, 1, 1, (int64_t[]){2}, (float[]){0.2f, 0.1f}, NULL);
	tl_feed(p, "shape", DALIC_FLOAT, 1, 1, (int64_t[]){2}, (float[]){0.5f, 0.4f}, NULL);
	ops_decoders_image_slice_expect(p, "cat/chelsea.jpg", 90, 30, 226, 120);
	dalic_pipeline_destroy(p);
}

Test(ops_decoders_image_slice, bad_windows)
{
	dalic_op_t *dec;
	dalic_pipeline_t *p = ops_decoders_image_slice_pipeline("cat/chelsea.jpg", &dec);
	ASSERT_OK(dalic_op_set_ints(dec, "start", 2, (int64_t[]){400, 20}));
	ASSERT_OK(dalic_op_set_ints(dec, "shape", 2, (int64_t[]){100, 40}));
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'Decoder'");
	EXPECT_HAS(msg, "cat/chelsea.jpg");
	EXPECT_HAS(msg, "The cropping window [20..60, 400..500] is not valid for image dimensions "
	                "[300 x 451]");
	dalic_pipeline_destroy(p);

	p = ops_decoders_image_slice_pipeline("cat/chelsea.jpg", &dec);
	ASSERT_OK(dalic_op_set_ints(dec, "start", 2, (int64_t[]){10, 20}));
	ASSERT_OK(dalic_op_set_ints(dec, "shape", 2, (int64_t[]){0, 40}));
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "The cropping window [20..60, 10..10] is not valid");
	dalic_pipeline_destroy(p);

	p = ops_decoders_image_slice_pipeline("cat/chelsea.jpg", &dec);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Expected named slice arguments");
	dalic_pipeline_destroy(p);
}
