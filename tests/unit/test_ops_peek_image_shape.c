/* peek_image_shape: the decoded shape from the header (the EXIF-rotated photo swaps H and W
 * unless adjust_orientation is off; GRAY has 1 channel), in the asked type; DALI's errors.
 * The photos' sizes are those of samples/images (300 x 451 cats, chelsea_exif6 rotated). */
#include "tests/testlib.h"

TestSuite(ops_peek_image_shape, .timeout = 30);

/* readers.file over samples/images (sorted: chelsea, _411, _440, _exif6...) -> peek. */
static dalic_op_t *ops_peek_image_shape_pipeline(dalic_pipeline_t *p)
{
	dalic_op_t *reader = tl_op(p, "readers.file");
	ASSERT_OK(dalic_op_set_string(reader, "file_root", "samples/images"));
	dalic_op_t *op = tl_op(p, "peek_image_shape");
	ASSERT_OK(dalic_op_set_name(op, "peek"));
	tl_input(op, dalic_op_output(reader, 0));
	tl_output(p, op);
	return op;
}

Test(ops_peek_image_shape, oriented_shapes)
{
	dalic_pipeline_t *p = tl_pipeline(4);
	ops_peek_image_shape_pipeline(p);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_INT64);
	for (int i = 0; i < 3; i++)
		tl_expect_values(out, i, 3, (double[]){300, 451, 3});
	tl_expect_values(out, 3, 3, (double[]){451, 300, 3});
	dalic_pipeline_destroy(p);
}

Test(ops_peek_image_shape, options)
{
	dalic_pipeline_t *p = tl_pipeline(4);
	dalic_op_t *op = ops_peek_image_shape_pipeline(p);
	ASSERT_OK(dalic_op_set_bool(op, "adjust_orientation", false));
	ASSERT_OK(dalic_op_set_int(op, "image_type", DALIC_GRAY));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_FLOAT));
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	tl_expect_shape(out, 3, 1, (int64_t[]){3});
	tl_expect_values(out, 3, 3, (double[]){300, 451, 1});
	dalic_pipeline_destroy(p);
}

Test(ops_peek_image_shape, errors)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "peek_image_shape");
	ASSERT_OK(dalic_op_set_name(op, "peek"));
	tl_input(op, "in");
	tl_output(p, op);
	tl_feed(p, "in", DALIC_UINT8, 1, 1, (int64_t[]){4}, (uint8_t[]){1, 2, 3, 4}, NULL);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'peek'");
	EXPECT_HAS(msg, "sample 0");
	EXPECT_HAS(msg, "cannot read the image header");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	tl_source(p, "in");
	op = tl_op(p, "peek_image_shape");
	tl_input(op, "in");
	tl_output(p, op);
	tl_feed(p, "in", DALIC_UINT8, 2, 1, (int64_t[]){2, 2}, (uint8_t[]){1, 2, 3, 4}, NULL);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "The input must be a raw, undecoded file stored "
	                                       "as a flat uint8 array.");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_peek_image_shape_pipeline(p);
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_INT16));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("PeekImageShape can return the output as one of the following");
	dalic_pipeline_destroy(p);
}
