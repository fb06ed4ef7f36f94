/* DataNode indexing end to end: scripts with `x[...]` lowered to TensorSubscript /
 * SubscriptDimCheck / ExpandDims, built and run, outputs compared with values worked out by
 * hand from x = arange(12) reshaped to (3, 4); plus the operators through the C API
 * (per-sample shapes, argument inputs across iterations, errors naming the sample). */
#include "tests/testlib/script.h"

#include "engine/pipeline.h"
#include "tests/testlib.h"

TestSuite(ops_subscript, .timeout = 20);

/* A script returning `x[<expr>]` for each expression, x = arange(12) as (3, 4) INT32, and
 * `idx`, a per-sample coin flip (0 or 1) usable as an index DataNode. */
static dalic_pipeline_t *ops_subscript_indexing(const char *outputs)
{
	char text[2048];
	snprintf(text, sizeof text,
	         "from nvidia.dali import pipeline_def, fn, types\n"
	         "import nvidia.dali as dali\n"
	         "\n"
	         "@pipeline_def(batch_size=4, num_threads=1, device_id=None, seed=7)\n"
	         "def p():\n"
	         "    x = types.Constant(list(range(12)), shape=[3, 4], dtype=types.INT32)\n"
	         "    idx = fn.random.coin_flip()\n"
	         "    return %s\n"
	         "\n"
	         "pipe = p()\n",
	         outputs);
	const char *path = tl_write_temp("script", ".py", text);
	dalic_graphdef_t *g = NULL;
	int rc = dalic_script_load(path, NULL, &g);
	unlink(path);
	ASSERT_OK(rc);
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_from_graphdef(g, &p));
	return p;
}

static void ops_subscript_expect_all(const dalic_batch_t *b, int ndim, const int64_t *shape, int n,
                                     const double *want)
{
	cr_assert_eq(dalic_batch_num_samples(b), 4);
	for (int i = 0; i < 4; i++) {
		tl_expect_shape(b, i, ndim, shape);
		tl_expect_values(b, i, n, want);
	}
}

Test(ops_subscript, integer_index_removes_the_dim)
{
	dalic_pipeline_t *p = ops_subscript_indexing("x[0], x[-1], x[1, 2]");
	const dalic_batch_t *b = tl_run(p, 0);
	ops_subscript_expect_all(b, 1, (int64_t[]){4}, 4, (double[]){0, 1, 2, 3});
	ops_subscript_expect_all(dalic_pipeline_output(p, 1), 1, (int64_t[]){4}, 4,
	                         (double[]){8, 9, 10, 11});
	ops_subscript_expect_all(dalic_pipeline_output(p, 2), 0, NULL, 1, (double[]){6});
	dalic_pipeline_destroy(p);
}

Test(ops_subscript, ranges_keep_the_dim_and_clamp)
{
	dalic_pipeline_t *p = ops_subscript_indexing("x[1:3], x[:, 1:-1], x[-10:1], x[2:100, 5:]");
	tl_run(p, 0);
	ops_subscript_expect_all(dalic_pipeline_output(p, 0), 2, (int64_t[]){2, 4}, 8,
	                         (double[]){4, 5, 6, 7, 8, 9, 10, 11});
	ops_subscript_expect_all(dalic_pipeline_output(p, 1), 2, (int64_t[]){3, 2}, 6,
	                         (double[]){1, 2, 5, 6, 9, 10});
	ops_subscript_expect_all(dalic_pipeline_output(p, 2), 2, (int64_t[]){1, 4}, 4,
	                         (double[]){0, 1, 2, 3});
	ops_subscript_expect_all(dalic_pipeline_output(p, 3), 2, (int64_t[]){1, 0}, 0, NULL);
	dalic_pipeline_destroy(p);
}

Test(ops_subscript, steps_positive_and_negative)
{
	dalic_pipeline_t *p = ops_subscript_indexing("x[:, ::2], x[::-2, 3:0:-1], x[::-1, -1]");
	tl_run(p, 0);
	ops_subscript_expect_all(dalic_pipeline_output(p, 0), 2, (int64_t[]){3, 2}, 6,
	                         (double[]){0, 2, 4, 6, 8, 10});
	ops_subscript_expect_all(dalic_pipeline_output(p, 1), 2, (int64_t[]){2, 3}, 6,
	                         (double[]){11, 10, 9, 3, 2, 1});
	ops_subscript_expect_all(dalic_pipeline_output(p, 2), 1, (int64_t[]){3}, 3,
	                         (double[]){11, 7, 3});
	dalic_pipeline_destroy(p);
}

Test(ops_subscript, none_is_a_full_range_and_newaxis_inserts_dims)
{
	dalic_pipeline_t *p = ops_subscript_indexing(
	    "x[None], x[dali.newaxis], x[1, dali.newaxis('C')], x[:, dali.newaxis, 0]");
	tl_run(p, 0);
	double all[12];
	for (int k = 0; k < 12; k++)
		all[k] = k;
	ops_subscript_expect_all(dalic_pipeline_output(p, 0), 2, (int64_t[]){3, 4}, 12, all);
	ops_subscript_expect_all(dalic_pipeline_output(p, 1), 3, (int64_t[]){1, 3, 4}, 12, all);
	const dalic_batch_t *named = dalic_pipeline_output(p, 2);
	ops_subscript_expect_all(named, 2, (int64_t[]){1, 4}, 4, (double[]){4, 5, 6, 7});
	cr_expect_str_eq(dalic_batch_layout(named), "C?");
	ops_subscript_expect_all(dalic_pipeline_output(p, 3), 2, (int64_t[]){3, 1}, 3,
	                         (double[]){0, 4, 8});
	dalic_pipeline_destroy(p);
}

Test(ops_subscript, index_from_a_data_node)
{
	dalic_pipeline_t *p = ops_subscript_indexing("x[idx], x[:, idx - 2], idx");
	for (int it = 0; it < 3; it++) {
		tl_run(p, 0);
		const dalic_batch_t *rows = dalic_pipeline_output(p, 0);
		const dalic_batch_t *cols = dalic_pipeline_output(p, 1);
		const dalic_batch_t *idx = dalic_pipeline_output(p, 2);
		for (int i = 0; i < 4; i++) {
			int r = (int)tl_at(idx, i, 0);
			cr_assert(r == 0 || r == 1);
			tl_expect_values(rows, i, 4,
			                 (double[]){4 * r, 4 * r + 1, 4 * r + 2, 4 * r + 3});
			int c = r + 2; /* r - 2 counted from the end of 4 */
			tl_expect_values(cols, i, 3, (double[]){c, 4 + c, 8 + c});
		}
	}
	dalic_pipeline_destroy(p);
}

Test(ops_subscript, out_of_range_index_names_operator_and_sample)
{
	dalic_pipeline_t *p = ops_subscript_indexing("x[:, 4]");
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "(_TensorSubscript)");
	EXPECT_HAS(msg, "sample 0");
	EXPECT_HAS(msg, "Index 4 is out of range for axis 1 of length 4");
	dalic_pipeline_destroy(p);
}

Test(ops_subscript, too_many_subscripts_fail)
{
	dalic_pipeline_t *p = ops_subscript_indexing("x[:, :, :]");
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "(_SubscriptDimCheck)");
	EXPECT_HAS(msg, "Too many indices (3) for a 2D tensor.");
	dalic_pipeline_destroy(p);
	p = ops_subscript_indexing("x[0, 1, 2]");
	msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "(_TensorSubscript)");
	EXPECT_HAS(msg, "Too many indices (3) for a 2D tensor.");
	dalic_pipeline_destroy(p);
}

/* ---- the C API ------------------------------------------------------------------------- */

/* Two samples of different lengths: [10, 11, 12] and [20]. */
static const int64_t ops_subscript_ragged_shapes[] = {3, 1};
static const float ops_subscript_ragged[] = {10, 11, 12, 20};

Test(ops_subscript, c_api_per_sample_shapes_and_the_failing_sample)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "x");
	dalic_op_t *last = tl_op(p, "TensorSubscript");
	tl_input(last, "x");
	ASSERT_OK(dalic_op_set_int(last, "at_0", -1));
	tl_output(p, last);
	dalic_op_t *third = tl_op(p, "TensorSubscript");
	tl_input(third, "x");
	ASSERT_OK(dalic_op_set_int(third, "at_0", 2));
	tl_output(p, third);

	tl_feed(p, "x", DALIC_FLOAT, 1, 2, ops_subscript_ragged_shapes, ops_subscript_ragged, NULL);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, dalic_op_name(third));
	EXPECT_HAS(msg, "sample 1");
	EXPECT_HAS(msg, "Index 2 is out of range for axis 0 of length 1");
	dalic_pipeline_destroy(p);
}

Test(ops_subscript, c_api_argument_input_over_iterations)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "x");
	tl_source(p, "lo");
	dalic_op_t *op = tl_op(p, "TensorSubscript");
	tl_input(op, "x");
	ASSERT_OK(dalic_op_set_arg_input(op, "lo_0", "lo"));
	tl_output(p, op);
	tl_feed(p, "x", DALIC_FLOAT, 1, 2, ops_subscript_ragged_shapes, ops_subscript_ragged, "X");
	const int64_t lo_shapes[] = {0, 0}; /* unused for 0D samples */
	const int16_t lo[] = {1, -5};
	tl_feed(p, "lo", DALIC_INT16, 0, 2, lo_shapes, lo, NULL);
	const dalic_batch_t *b = tl_run(p, 0);
	tl_expect_shape(b, 0, 1, (int64_t[]){2});
	tl_expect_values(b, 0, 2, (double[]){11, 12});
	tl_expect_shape(b, 1, 1, (int64_t[]){1}); /* -5 clamps to the start */
	tl_expect_values(b, 1, 1, (double[]){20});
	cr_expect_str_eq(dalic_batch_layout(b), "X");
	/* the borrowed range follows the input from one iteration to the next */
	const float next[] = {30, 31, 32, 40};
	tl_feed(p, "x", DALIC_FLOAT, 1, 2, ops_subscript_ragged_shapes, next, "X");
	tl_feed(p, "lo", DALIC_INT16, 0, 2, lo_shapes, (int16_t[]){-1, 0}, NULL);
	b = tl_run(p, 0);
	tl_expect_values(b, 0, 1, (double[]){32});
	tl_expect_values(b, 1, 1, (double[]){40});
	dalic_pipeline_destroy(p);
}

Test(ops_subscript, c_api_expand_dims_checks_axes)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	tl_source(p, "x");
	dalic_op_t *op = tl_op(p, "ExpandDims");
	tl_input(op, "x");
	ASSERT_OK(dalic_op_set_ints(op, "axes", 2, (int64_t[]){2, 0}));
	ASSERT_OK(dalic_op_set_string(op, "new_axis_names", "FC"));
	tl_output(p, op);
	tl_feed(p, "x", DALIC_FLOAT, 1, 2, ops_subscript_ragged_shapes, ops_subscript_ragged, "X");
	const dalic_batch_t *b = tl_run(p, 0);
	tl_expect_shape(b, 0, 3, (int64_t[]){1, 3, 1});
	tl_expect_values(b, 0, 3, (double[]){10, 11, 12});
	tl_expect_shape(b, 1, 3, (int64_t[]){1, 1, 1});
	cr_expect_str_eq(dalic_batch_layout(b), "FXC");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(2);
	tl_source(p, "x");
	op = tl_op(p, "ExpandDims");
	tl_input(op, "x");
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (int64_t[]){3}));
	tl_output(p, op);
	tl_feed(p, "x", DALIC_FLOAT, 1, 2, ops_subscript_ragged_shapes, ops_subscript_ragged, "X");
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "(ExpandDims)");
	EXPECT_HAS(msg, "axis 3 is out of range");
	dalic_pipeline_destroy(p);
}
