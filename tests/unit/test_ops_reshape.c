/* reshape: shape with a wildcard, rel_shape, src_dims, per-sample shapes (argument input and
 * second positional input), layouts, zero-copy, and element-count errors. */
#include "tests/testlib.h"

TestSuite(ops_reshape, .timeout = 20);

static dalic_op_t *ops_reshape_reshape(dalic_pipeline_t *p)
{
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "reshape");
	ASSERT_OK(dalic_op_set_name(op, "rs"));
	tl_input(op, "in");
	tl_output(p, op);
	return op;
}

static const int32_t ops_reshape_iota[24] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                             12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23};

static void ops_reshape_expect_iota(const dalic_batch_t *b, int i, int n)
{
	const int32_t *d = dalic_batch_data(b, i);
	for (int k = 0; k < n; k++)
		cr_expect_eq(d[k], k, "sample %d element %d", i, k);
}

Test(ops_reshape, shape_with_wildcard)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *op = ops_reshape_reshape(p);
	ASSERT_OK(dalic_op_set_ints(op, "shape", 2, (int64_t[]){3, -1}));
	/* (2, 6) -> (3, 4); (3, 2) -> (3, 2) */
	tl_feed(p, "in", DALIC_INT32, 2, 2, (int64_t[]){2, 6, 3, 2}, ops_reshape_iota, "HW");
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 2, (int64_t[]){3, 4});
	tl_expect_shape(out, 1, 2, (int64_t[]){3, 2});
	ops_reshape_expect_iota(out, 0, 12);
	cr_expect_eq(((const int32_t *)dalic_batch_data(out, 1))[0], 12);
	cr_expect_str_eq(dalic_batch_layout(out), "HW", "same ndim keeps the layout");
	dalic_pipeline_destroy(p);
}

Test(ops_reshape, layout_dropped_or_replaced)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_reshape_reshape(p);
	ASSERT_OK(dalic_op_set_ints(op, "shape", 1, (int64_t[]){-1}));
	tl_feed(p, "in", DALIC_INT32, 3, 1, (int64_t[]){2, 3, 4}, ops_reshape_iota, "HWC");
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 1, (int64_t[]){24});
	cr_expect_str_eq(dalic_batch_layout(out), "");
	ops_reshape_expect_iota(out, 0, 24);
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_reshape_reshape(p);
	ASSERT_OK(dalic_op_set_string(op, "layout", "XY"));
	ASSERT_OK(dalic_op_set_ints(op, "shape", 2, (int64_t[]){4, 6}));
	tl_feed(p, "in", DALIC_INT32, 3, 1, (int64_t[]){2, 3, 4}, ops_reshape_iota, "HWC");
	out = tl_run(p, 0);
	cr_expect_str_eq(dalic_batch_layout(out), "XY");
	tl_expect_shape(out, 0, 2, (int64_t[]){4, 6});
	dalic_pipeline_destroy(p);

	/* layout alone: shapes unchanged */
	p = tl_pipeline(1);
	op = ops_reshape_reshape(p);
	ASSERT_OK(dalic_op_set_string(op, "layout", "ABC"));
	tl_feed(p, "in", DALIC_INT32, 3, 1, (int64_t[]){2, 3, 4}, ops_reshape_iota, "HWC");
	out = tl_run(p, 0);
	cr_expect_str_eq(dalic_batch_layout(out), "ABC");
	tl_expect_shape(out, 0, 3, (int64_t[]){2, 3, 4});
	dalic_pipeline_destroy(p);
}

Test(ops_reshape, rel_shape_and_src_dims)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_reshape_reshape(p);
	ASSERT_OK(dalic_op_set_floats(op, "rel_shape", 2, (double[]){0.5, -1}));
	tl_feed(p, "in", DALIC_INT32, 2, 1, (int64_t[]){4, 6}, ops_reshape_iota, NULL);
	tl_expect_shape(tl_run(p, 0), 0, 2, (int64_t[]){2, 12});
	dalic_pipeline_destroy(p);

	/* DALI's example: [300, 200, 1] with src_dims [-1, 1, 0] -> [1, 200, 300]; small here */
	p = tl_pipeline(1);
	op = ops_reshape_reshape(p);
	ASSERT_OK(dalic_op_set_ints(op, "src_dims", 3, (int64_t[]){-1, 1, 0}));
	tl_feed(p, "in", DALIC_INT32, 3, 1, (int64_t[]){3, 2, 1}, ops_reshape_iota, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 3, (int64_t[]){1, 2, 3});
	ops_reshape_expect_iota(out, 0, 6);
	dalic_pipeline_destroy(p);

	/* rel_shape mapped through src_dims: [-1, 0.5, 2] -> [1, 1, 6] */
	p = tl_pipeline(1);
	op = ops_reshape_reshape(p);
	ASSERT_OK(dalic_op_set_ints(op, "src_dims", 3, (int64_t[]){-1, 1, 0}));
	ASSERT_OK(dalic_op_set_floats(op, "rel_shape", 3, (double[]){-1, 0.5, 2}));
	tl_feed(p, "in", DALIC_INT32, 3, 1, (int64_t[]){3, 2, 1}, ops_reshape_iota, NULL);
	tl_expect_shape(tl_run(p, 0), 0, 3, (int64_t[]){1, 1, 6});
	dalic_pipeline_destroy(p);
}

Test(ops_reshape, per_sample_shape_from_argument_input_and_second_input)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "shape");
	dalic_op_t *op = ops_reshape_reshape(p);
	ASSERT_OK(dalic_op_set_arg_input(op, "shape", "shape"));
	const int32_t shapes[] = {4, 3, 2, -1};
	tl_feed(p, "shape", DALIC_INT32, 1, 2, (int64_t[]){2, 2}, shapes, NULL);
	tl_feed(p, "in", DALIC_INT32, 1, 2, (int64_t[]){12, 8}, ops_reshape_iota, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	tl_expect_shape(out, 0, 2, (int64_t[]){4, 3});
	tl_expect_shape(out, 1, 2, (int64_t[]){2, 4});
	cr_expect_eq(((const int32_t *)dalic_batch_data(out, 1))[7], 19);
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	tl_source(p, "shape");
	op = ops_reshape_reshape(p);
	tl_input(op, "shape");
	const int64_t shape[] = {2, 2, 2};
	tl_feed(p, "shape", DALIC_INT64, 1, 1, (int64_t[]){3}, shape, NULL);
	tl_feed(p, "in", DALIC_INT32, 1, 1, (int64_t[]){8}, ops_reshape_iota, NULL);
	out = tl_run(p, 0);
	tl_expect_shape(out, 0, 3, (int64_t[]){2, 2, 2});
	ops_reshape_expect_iota(out, 0, 8);
	dalic_pipeline_destroy(p);
}

/* Data bytes still allocated after one run of source -> [reshape ->] output. */
static int64_t ops_reshape_live_bytes_after_run(bool with_reshape)
{
	dalic_mem_totals_t before, after;
	dalic_mem_totals(0, &before);
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "in");
	if (with_reshape) {
		dalic_op_t *rs = tl_op(p, "reshape");
		ASSERT_OK(dalic_op_set_ints(rs, "shape", 2, (int64_t[]){2, -1}));
		tl_input(rs, "in");
		tl_output(p, rs);
	} else {
		ASSERT_OK(dalic_pipeline_add_output(p, "in", NULL));
	}
	tl_feed(p, "in", DALIC_INT32, 1, 1, (int64_t[]){24}, ops_reshape_iota, NULL);
	const dalic_batch_t *out = tl_run(p, 0);
	ops_reshape_expect_iota(out, 0, 24);
	dalic_mem_totals(0, &after);
	dalic_pipeline_destroy(p);
	return after.bytes_live - before.bytes_live;
}

Test(ops_reshape, output_shares_the_input_memory)
{
	int64_t plain = ops_reshape_live_bytes_after_run(false),
	        reshaped = ops_reshape_live_bytes_after_run(true);
	cr_expect_gt(plain, 0);
	cr_expect_eq(reshaped, plain, "reshape allocated %lld bytes of its own",
	             (long long)(reshaped - plain));
}

Test(ops_reshape, element_count_mismatch_names_the_sample)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *op = ops_reshape_reshape(p);
	ASSERT_OK(dalic_op_set_ints(op, "shape", 2, (int64_t[]){2, 3}));
	tl_feed(p, "in", DALIC_INT32, 1, 2, (int64_t[]){6, 7}, ops_reshape_iota, NULL);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "'rs'");
	EXPECT_HAS(msg, "Reshape");
	EXPECT_HAS(msg, "sample 1");
	EXPECT_HAS(msg, "7 elements");
	dalic_pipeline_destroy(p);
}

Test(ops_reshape, argument_errors)
{
	static const struct {
		const char *what;
		int64_t shape[3];
		int n;
		const char *needle;
	} cases[] = {
	    {"two wildcards", {-1, 2, -1}, 3, "one negative"},
	    {"zero extent", {0, 2, 3}, 3, "extent of 0"},
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		dalic_pipeline_t *p = tl_pipeline(1);
		dalic_op_t *op = ops_reshape_reshape(p);
		ASSERT_OK(dalic_op_set_ints(op, "shape", cases[c].n, cases[c].shape));
		EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EINVAL, "%s", cases[c].what);
		EXPECT_ERROR_HAS("'rs'", "%s", cases[c].what);
		EXPECT_ERROR_HAS("'shape'", "%s", cases[c].what);
		EXPECT_ERROR_HAS(cases[c].needle, "%s", cases[c].what);
		dalic_pipeline_destroy(p);
	}

	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = ops_reshape_reshape(p);
	ASSERT_OK(dalic_op_set_ints(op, "shape", 1, (int64_t[]){-1}));
	ASSERT_OK(dalic_op_set_floats(op, "rel_shape", 1, (double[]){1}));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EINVAL);
	EXPECT_ERROR_HAS("mutually exclusive");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	ops_reshape_reshape(p);
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EINVAL);
	EXPECT_ERROR_HAS("'rs'");
	EXPECT_ERROR_HAS("no-op");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = ops_reshape_reshape(p);
	EXPECT_STATUS(dalic_op_set_string(op, "shape", "2x3"), DALIC_EARG_TYPE);
	EXPECT_ERROR_HAS("shape");
	dalic_pipeline_destroy(p);
}
