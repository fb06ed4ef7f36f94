/*
 * Debug mode: error stops. When an operator fails on a sample the session stops on that
 * operator with the sample and its source file, keeps the inputs for inspection, and the next
 * run command goes on with the next iteration. Two failures: an integer division by zero in
 * arithmetic fed through external sources, and a file that is not an image among JPEGs read
 * by readers.file and decoded by decoders.image.
 */
#include "test_debug_util.h"

#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmp_root[256];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static void remove_tree(void)
{
	if (tmp_root[0])
		nftw(tmp_root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	tmp_root[0] = 0;
}

TestSuite(debug_errors, .timeout = 60, .fini = remove_tree);

static void feed_ints(dalic_debug_t *s, const char *name, const int32_t *v)
{
	int64_t shapes[3] = {1, 1, 1};
	cr_assert_eq(dalic_debug_feed_input(s, name, DALIC_INT32, 1, 3, shapes, v, NULL), DALIC_OK,
	             "%s", dalic_last_error());
}

Test(debug_errors, a_failing_sample_stops_the_session_with_its_inputs_kept)
{
	dalic_pipeline_t *p = th_pipeline(3);
	th_source(p, "a");
	th_source(p, "b");
	dalic_op_t *d = th_op(p, "ArithmeticGenericOp");
	th_input(d, "a");
	th_input(d, "b");
	cr_assert_eq(dalic_op_set_string(d, "expression_desc", "div(&0 &1)"), DALIC_OK);
	th_output(p, d);
	dalic_debug_t *s = td_open(p);
	feed_ints(s, "a", (const int32_t[]){10, 20, 30});
	feed_ints(s, "b", (const int32_t[]){2, 5, 0});
	feed_ints(s, "a", (const int32_t[]){8, 9, 10});
	feed_ints(s, "b", (const int32_t[]){2, 3, 5});

	int rc = dalic_debug_continue(s, -1);
	cr_assert_eq(rc, DALIC_EOP, "%s", dalic_strerror(rc));
	dalic_debug_status_t st = td_status(s);
	cr_expect_eq(st.stop, DALIC_DEBUG_STOP_ERROR);
	cr_expect_str_eq(st.stop_op, "__ArithmeticGenericOp_2");
	cr_expect_eq(st.stop_sample, 2);
	cr_expect_eq(st.iteration, 0);
	cr_expect_str_eq(st.next_op_name, "__ArithmeticGenericOp_2", "stopped on the failing op");
	cr_expect(strstr(dalic_debug_last_error(s), "division by zero"), "%s",
	          dalic_debug_last_error(s));
	cr_expect(strstr(dalic_debug_last_error(s), "sample 2"), "%s", dalic_debug_last_error(s));
	/* the inputs of the failing sample are there to look at */
	int64_t it;
	const dalic_batch_t *b = dalic_debug_node(s, "b", &it);
	cr_assert_not_null(b);
	cr_expect_eq(it, 0);
	cr_expect_eq(th_at(b, 2, 0), 0);
	/* going on abandons the failed iteration and runs the next one */
	td_ok(s, dalic_debug_next(s));
	st = td_status(s);
	cr_expect_eq(st.iteration, 1);
	cr_expect_eq(st.next_op, st.num_ops);
	th_expect_values(dalic_debug_output(s, 0), 2, 1, (const double[]){2});
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

static void copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	cr_assert(in && out, "copy %s -> %s", from, to);
	char buf[8192];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		cr_assert_eq(fwrite(buf, 1, n, out), n);
	fclose(in);
	fclose(out);
}

Test(debug_errors, a_file_that_is_not_an_image_is_named_with_its_sample)
{
	snprintf(tmp_root, sizeof tmp_root, "/tmp/dalic_debug_XXXXXX");
	cr_assert_not_null(mkdtemp(tmp_root));
	char dir[512], path[600];
	snprintf(dir, sizeof dir, "%s/photos", tmp_root);
	cr_assert_eq(mkdir(dir, 0755), 0);
	snprintf(path, sizeof path, "%s/a.jpg", dir);
	copy_file("samples/images/cat/chelsea.jpg", path);
	snprintf(path, sizeof path, "%s/b.jpg", dir);
	copy_file("tests/data/not_an_image.jpg", path);
	snprintf(path, sizeof path, "%s/c.jpg", dir);
	copy_file("samples/images/coffee/coffee_422.jpg", path);

	dalic_pipeline_t *p = th_pipeline(3);
	dalic_op_t *reader = th_op(p, "readers.file");
	cr_assert_eq(dalic_op_set_string(reader, "file_root", tmp_root), DALIC_OK, "%s",
	             dalic_last_error());
	dalic_op_t *decode = th_op(p, "decoders.image");
	th_input(decode, dalic_op_output(reader, 0));
	th_output(p, decode);
	dalic_debug_t *s = td_open(p);
	int rc = dalic_debug_continue(s, 3);
	cr_assert_eq(rc, DALIC_EOP, "%s: %s", dalic_strerror(rc), dalic_debug_last_error(s));
	dalic_debug_status_t st = td_status(s);
	cr_expect_eq(st.stop, DALIC_DEBUG_STOP_ERROR);
	cr_expect_str_eq(st.stop_op, dalic_op_name(decode));
	cr_expect_eq(st.stop_sample, 1, "files are read in sorted order: a, b, c");
	cr_assert_not_null(st.stop_source);
	cr_expect(strstr(st.stop_source, "photos/b.jpg"), "%s", st.stop_source);
	cr_expect(strstr(dalic_debug_last_error(s), "b.jpg"), "%s", dalic_debug_last_error(s));
	/* the encoded bytes of the bad file are the reader's output, sample 1 */
	const dalic_batch_t *raw = dalic_debug_node(s, dalic_op_output(reader, 0), NULL);
	cr_assert_not_null(raw);
	cr_expect_eq(dalic_batch_sample_bytes(raw, 1), 94, "tests/data/not_an_image.jpg");
	cr_expect(strstr(dalic_batch_source(raw, 1), "b.jpg"));
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}
