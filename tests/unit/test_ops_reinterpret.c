/* reinterpret: the bytes of each sample read as another type (little-endian), the innermost
 * extent rescaled when no shape is given, a given shape counted in bytes. Expected values are
 * computed by hand from the fed bytes. */
#include "tests/testlib.h"

TestSuite(ops_reinterpret, .timeout = 20);

/* Feeds one uint8 sample of `shape` and runs reinterpret with dtype `to` (and `set` applied). */
static dalic_pipeline_t *ops_reinterpret_run(int ndim, const int64_t *shape, const uint8_t *bytes,
                                             dalic_dtype_t to, const int64_t *new_shape,
                                             int new_ndim, const dalic_batch_t **out)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "reinterpret");
	ASSERT_OK(dalic_op_set_int(op, "dtype", to));
	if (new_shape)
		ASSERT_OK(dalic_op_set_ints(op, "shape", new_ndim, new_shape));
	tl_input(op, "in");
	tl_output(p, op);
	tl_feed(p, "in", DALIC_UINT8, ndim, 1, shape, bytes, NULL);
	*out = tl_run(p, 0);
	return p;
}

static const uint8_t ops_reinterpret_bytes[] = {1, 0, 0,   0,  2,   1,   0,   0,
                                                0, 0, 128, 63, 255, 255, 255, 255};

Test(ops_reinterpret, uint8_to_int32_rescales_the_innermost_extent)
{
	const dalic_batch_t *out;
	dalic_pipeline_t *p = ops_reinterpret_run(2, (const int64_t[]){2, 8}, ops_reinterpret_bytes,
	                                          DALIC_INT32, NULL, 0, &out);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_INT32);
	tl_expect_shape(out, 0, 2, (const int64_t[]){2, 2});
	/* 1; 2 + 256; 0x3f800000; -1 */
	tl_expect_values(out, 0, 4, (double[]){1, 258, 1065353216, -1});
	dalic_pipeline_destroy(p);
}

Test(ops_reinterpret, a_shape_with_a_wildcard_is_counted_in_bytes)
{
	const dalic_batch_t *out;
	dalic_pipeline_t *p = ops_reinterpret_run(1, (const int64_t[]){16}, ops_reinterpret_bytes,
	                                          DALIC_FLOAT, (const int64_t[]){-1, 2}, 2, &out);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_FLOAT);
	tl_expect_shape(out, 0, 2, (const int64_t[]){2, 2});
	const float *f = dalic_batch_data(out, 0);
	cr_expect_eq(f[2], 1.0f); /* 00 00 80 3f */
	cr_expect(isnan(f[3]));   /* ff ff ff ff */
	dalic_pipeline_destroy(p);
	p = ops_reinterpret_run(1, (const int64_t[]){16}, ops_reinterpret_bytes, DALIC_UINT16,
	                        (const int64_t[]){4, -1}, 2, &out);
	tl_expect_shape(out, 0, 2, (const int64_t[]){4, 2});
	tl_expect_values(out, 0, 8, (double[]){1, 0, 258, 0, 0, 16256, 65535, 65535});
	dalic_pipeline_destroy(p);
}

Test(ops_reinterpret, a_size_mismatch_names_both_byte_counts)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "reinterpret");
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_INT32));
	ASSERT_OK(dalic_op_set_ints(op, "shape", 1, (const int64_t[]){3}));
	tl_input(op, "in");
	tl_output(p, op);
	tl_feed(p, "in", DALIC_UINT8, 1, 1, (const int64_t[]){16}, ops_reinterpret_bytes, NULL);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "input and output samples must occupy the same size in bytes: (16) of "
	                "UINT8 is 16 bytes, (3) of INT32 12 bytes");
	dalic_pipeline_destroy(p);
	/* without a shape: 6 bytes do not make int32 values */
	p = tl_pipeline(1);
	tl_source(p, "in");
	op = tl_op(p, "reinterpret");
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_INT32));
	tl_input(op, "in");
	tl_output(p, op);
	tl_feed(p, "in", DALIC_UINT8, 1, 1, (const int64_t[]){6}, ops_reinterpret_bytes, NULL);
	msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg,
	           "the size, in bytes, of the innermost dimension (6 x UINT8) is not divisible "
	           "by the size of INT32");
	dalic_pipeline_destroy(p);
}

Test(ops_reinterpret, reshape_has_no_dtype_and_keeps_counting_elements)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = tl_op(p, "reshape");
	cr_expect_neq(dalic_op_set_int(op, "dtype", DALIC_INT32), DALIC_OK);
	dalic_pipeline_destroy(p);
}
