/* get_property: "source_info" is the file a reader sample came from (kept through the decoder),
 * empty for fed data; "layout" is the batch's layout; other keys are refused at build. */
#include "tests/testlib.h"

TestSuite(ops_get_property, .timeout = 30);

static void ops_get_property_expect_text(const dalic_batch_t *b, int i, const char *want)
{
	cr_expect_eq(dalic_batch_dtype(b), DALIC_UINT8);
	tl_expect_shape(b, i, 1, (int64_t[]){(int64_t)strlen(want)});
	size_t n = dalic_batch_sample_bytes(b, i);
	cr_expect(n == strlen(want) && !memcmp(dalic_batch_data(b, i), want, n),
	          "sample %d: '%.*s', want '%s'", i, (int)n, (const char *)dalic_batch_data(b, i),
	          want);
}

Test(ops_get_property, source_info_of_reader_samples)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *reader = tl_op(p, "readers.file");
	ASSERT_OK(dalic_op_set_string(reader, "file_root", "samples/images"));
	dalic_op_t *dec = tl_op(p, "decoders.image");
	tl_input(dec, dalic_op_output(reader, 0));
	dalic_op_t *info = tl_op(p, "get_property");
	ASSERT_OK(dalic_op_set_string(info, "key", "source_info"));
	tl_input(info, dalic_op_output(dec, 0));
	tl_output(p, info);
	dalic_op_t *layout = tl_op(p, "get_property");
	ASSERT_OK(dalic_op_set_string(layout, "key", "layout"));
	tl_input(layout, dalic_op_output(dec, 0));
	tl_output(p, layout);
	const dalic_batch_t *out = tl_run(p, 0);
	/* readers.file lists files in sorted order */
	ops_get_property_expect_text(out, 0, "cat/chelsea.jpg");
	ops_get_property_expect_text(out, 1, "cat/chelsea_411.jpg");
	ops_get_property_expect_text(dalic_pipeline_output(p, 1), 1, "HWC");
	dalic_pipeline_destroy(p);
}

Test(ops_get_property, fed_data_has_no_source)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "get_property");
	ASSERT_OK(dalic_op_set_string(op, "key", "source_info"));
	tl_input(op, "in");
	tl_output(p, op);
	const float v = 1;
	tl_feed(p, "in", DALIC_FLOAT, 0, 1, NULL, &v, NULL);
	ops_get_property_expect_text(tl_run(p, 0), 0, "");
	dalic_pipeline_destroy(p);
}

Test(ops_get_property, unknown_key)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "get_property");
	ASSERT_OK(dalic_op_set_name(op, "gp"));
	ASSERT_OK(dalic_op_set_string(op, "key", "size"));
	tl_input(op, "in");
	tl_output(p, op);
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("'gp'");
	EXPECT_ERROR_HAS("Unsupported property key: size");
	dalic_pipeline_destroy(p);
}
