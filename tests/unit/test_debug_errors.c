/*
 * Debug mode: error stops. When an operator fails on a sample the session stops on that
 * operator with the sample and its source file, keeps the inputs for inspection, and the next
 * run command goes on with the next iteration. Two failures: an integer division by zero in
 * arithmetic fed through external sources, and a file that is not an image among JPEGs read
 * by readers.file and decoded by decoders.image.
 */
#include "tests/testlib.h"

#include <sys/stat.h>

TestSuite(debug_errors, .timeout = 60, .fini = tl_tmpdir_remove);

static void debug_errors_feed_ints(dalic_debug_t *s, const char *name, const int32_t *v)
{
	int64_t shapes[3] = {1, 1, 1};
	ASSERT_OK(dalic_debug_feed_input(s, name, DALIC_INT32, 1, 3, shapes, v, NULL));
}

Test(debug_errors, a_failing_sample_stops_the_session_with_its_inputs_kept)
{
	dalic_pipeline_t *p = tl_pipeline(3);
	tl_source(p, "a");
	tl_source(p, "b");
	dalic_op_t *d = tl_op(p, "ArithmeticGenericOp");
	tl_input(d, "a");
	tl_input(d, "b");
	ASSERT_OK(dalic_op_set_string(d, "expression_desc", "div(&0 &1)"));
	tl_output(p, d);
	dalic_debug_t *s = tl_debug_open(p);
	debug_errors_feed_ints(s, "a", (const int32_t[]){10, 20, 30});
	debug_errors_feed_ints(s, "b", (const int32_t[]){2, 5, 0});
	debug_errors_feed_ints(s, "a", (const int32_t[]){8, 9, 10});
	debug_errors_feed_ints(s, "b", (const int32_t[]){2, 3, 5});

	ASSERT_STATUS(dalic_debug_continue(s, -1), DALIC_EOP, "session: %s",
	              dalic_debug_last_error(s));
	dalic_debug_status_t st = tl_debug_status(s);
	cr_expect_eq(st.stop, DALIC_DEBUG_STOP_ERROR);
	cr_expect_str_eq(st.stop_op, "___ArithmeticGenericOp_2");
	cr_expect_eq(st.stop_sample, 2);
	cr_expect_eq(st.iteration, 0);
	cr_expect_str_eq(st.next_op_name, "___ArithmeticGenericOp_2", "stopped on the failing op");
	EXPECT_DEBUG_ERROR_HAS(s, "division by zero");
	EXPECT_DEBUG_ERROR_HAS(s, "sample 2");
	/* the inputs of the failing sample are there to look at */
	int64_t it;
	const dalic_batch_t *b = dalic_debug_node(s, "b", &it);
	cr_assert_not_null(b);
	cr_expect_eq(it, 0);
	cr_expect_eq(tl_at(b, 2, 0), 0);
	/* going on abandons the failed iteration and runs the next one */
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	st = tl_debug_status(s);
	cr_expect_eq(st.iteration, 1);
	cr_expect_eq(st.next_op, st.num_ops);
	tl_expect_values(dalic_debug_output(s, 0), 2, 1, (const double[]){2});
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

Test(debug_errors, a_file_that_is_not_an_image_is_named_with_its_sample)
{
	const char *root = tl_tmpdir();
	char dir[512], path[600];
	snprintf(dir, sizeof dir, "%s/photos", root);
	cr_assert_eq(mkdir(dir, 0755), 0);
	snprintf(path, sizeof path, "%s/a.jpg", dir);
	tl_copy_file("samples/images/cat/chelsea.jpg", path);
	snprintf(path, sizeof path, "%s/b.jpg", dir);
	tl_copy_file("tests/data/not_an_image.jpg", path);
	snprintf(path, sizeof path, "%s/c.jpg", dir);
	tl_copy_file("samples/images/coffee/coffee_422.jpg", path);

	dalic_pipeline_t *p = tl_pipeline(3);
	dalic_op_t *reader = tl_op(p, "readers.file");
	ASSERT_OK(dalic_op_set_string(reader, "file_root", root));
	dalic_op_t *decode = tl_op(p, "decoders.image");
	tl_input(decode, dalic_op_output(reader, 0));
	tl_output(p, decode);
	dalic_debug_t *s = tl_debug_open(p);
	ASSERT_STATUS(dalic_debug_continue(s, 3), DALIC_EOP, "session: %s",
	              dalic_debug_last_error(s));
	dalic_debug_status_t st = tl_debug_status(s);
	cr_expect_eq(st.stop, DALIC_DEBUG_STOP_ERROR);
	cr_expect_str_eq(st.stop_op, dalic_op_name(decode));
	cr_expect_eq(st.stop_sample, 1, "files are read in sorted order: a, b, c");
	cr_assert_not_null(st.stop_source);
	EXPECT_HAS(st.stop_source, "photos/b.jpg");
	EXPECT_DEBUG_ERROR_HAS(s, "b.jpg");
	/* the encoded bytes of the bad file are the reader's output, sample 1 */
	const dalic_batch_t *raw = dalic_debug_node(s, dalic_op_output(reader, 0), NULL);
	cr_assert_not_null(raw);
	cr_expect_eq(dalic_batch_sample_bytes(raw, 1), 94, "tests/data/not_an_image.jpg");
	cr_expect(strstr(dalic_batch_source(raw, 1), "b.jpg"));
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}
