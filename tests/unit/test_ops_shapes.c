/* shapes and _shape (DataNode.shape()): each sample's extents as a 1-D tensor in the asked
 * type; a scalar gives an empty one; types other than DALI's six are refused. */
#include "tests/testlib.h"

TestSuite(ops_shapes, .timeout = 20);

static dalic_op_t *ops_shapes_pipeline(dalic_pipeline_t *p, const char *name)
{
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, name);
	ASSERT_OK(dalic_op_set_name(op, "sh"));
	tl_input(op, "in");
	tl_output(p, op);
	return op;
}

Test(ops_shapes, int64_by_default)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	ops_shapes_pipeline(p, "shapes");
	static const uint8_t data[64];
	tl_feed(p, "in", DALIC_UINT8, 3, 2, (int64_t[]){2, 5, 3, 4, 1, 0}, data, "HWC");
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_INT64);
	cr_expect_str_eq(dalic_batch_layout(out), "");
	tl_expect_shape(out, 0, 1, (int64_t[]){3});
	tl_expect_values(out, 0, 3, (double[]){2, 5, 3});
	tl_expect_values(out, 1, 3, (double[]){4, 1, 0});
	dalic_pipeline_destroy(p);
}

Test(ops_shapes, other_types_and_scalars)
{
	static const float data[8];
	const dalic_dtype_t types[] = {DALIC_INT32, DALIC_UINT32, DALIC_UINT64, DALIC_FLOAT,
	                               DALIC_FLOAT64};
	for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
		dalic_pipeline_t *p = tl_pipeline(1);
		dalic_op_t *op = ops_shapes_pipeline(p, k % 2 ? "_shape" : "shapes");
		ASSERT_OK(dalic_op_set_int(op, "dtype", types[k]));
		tl_feed(p, "in", DALIC_FLOAT, 2, 1, (int64_t[]){7, 1}, data, NULL);
		const dalic_batch_t *out = tl_run(p, 0);
		cr_expect_eq(dalic_batch_dtype(out), types[k]);
		tl_expect_values(out, 0, 2, (double[]){7, 1});
		dalic_pipeline_destroy(p);
	}
	dalic_pipeline_t *p = tl_pipeline(1);
	ops_shapes_pipeline(p, "_shape");
	tl_feed(p, "in", DALIC_FLOAT, 0, 1, NULL, data, NULL);
	tl_expect_shape(tl_run(p, 0), 0, 1, (int64_t[]){0});
	dalic_pipeline_destroy(p);
}

Test(ops_shapes, deprecated_type_argument)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_shapes_pipeline(p, "shapes");
	ASSERT_OK(dalic_op_set_int(op, "type", DALIC_INT32));
	static const float data[2];
	tl_feed(p, "in", DALIC_FLOAT, 1, 1, (int64_t[]){2}, data, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	cr_expect_eq(dalic_batch_dtype(out), DALIC_INT32);
	tl_expect_values(out, 0, 1, (double[]){2});
	dalic_pipeline_destroy(p);
}

Test(ops_shapes, refuses_other_types)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_shapes_pipeline(p, "shapes");
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_UINT8));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("'sh'");
	EXPECT_ERROR_HAS("int32, uint32, int64, uint64, float or double; requested: uint8");
	dalic_pipeline_destroy(p);
}
