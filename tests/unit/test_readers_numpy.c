/*
 * readers.numpy through the public API on .npy files the tests write (tests/testlib/formats.h):
 * the directory order and sources, C and Fortran order, dtypes and header versions, regions of
 * interest with the three out-of-bounds policies, file lists, the read modes, DALI 2.4's
 * orders for shuffle_after_epoch and sharded random_shuffle, and the errors for corrupt or
 * truncated files and mixed batches, each naming the file.
 */
#include "tests/testlib.h"
#include "tests/testlib/formats.h"

#include <sys/stat.h>

TestSuite(readers_numpy, .timeout = 30, .fini = tl_tmpdir_remove);

static const int16_t npy_iota[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};

/* A subdirectory of the test's directory. */
static const char *npy_dir(const char *name)
{
	static char path[8][300];
	static int k;
	char *s = path[k++ % 8];
	snprintf(s, 300, "%s", tl_tmp_path(name));
	mkdir(s, 0755);
	return s;
}

static void npy_write_i16(const char *dir, const char *name, bool fortran, int64_t h, int64_t w,
                          const int16_t *data)
{
	char path[2048];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	tl_npy_write(path, "<i2", fortran, 2, (int64_t[]){h, w}, data, 2);
}

static dalic_op_t *npy_reader(dalic_pipeline_t *p, const char *root)
{
	dalic_op_t *op = tl_op(p, "readers.numpy");
	ASSERT_OK(dalic_op_set_name(op, "Reader"));
	if (root)
		ASSERT_OK(dalic_op_set_string(op, "file_root", root));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, 0), NULL));
	return op;
}

static void npy_files(dalic_op_t *op, int n, const char *const *files)
{
	ASSERT_OK(dalic_op_set_strings(op, "files", n, files));
}

Test(readers_numpy, directory_order_sources_and_fortran)
{
	const char *root = npy_dir("dir");
	npy_dir("dir/sub");
	npy_dir("dir/sub/deeper");
	npy_write_i16(root, "b.npy", false, 2, 3, npy_iota);
	/* data in Fortran order: A[i][j] = data[i + 2 j] */
	npy_write_i16(root, "a.npy", true, 2, 3, npy_iota);
	npy_write_i16(root, "skip.bin", false, 2, 3, npy_iota);
	char sub[600];
	snprintf(sub, sizeof sub, "%s/sub", root);
	npy_write_i16(sub, "c.npy", false, 1, 3, (const int16_t[]){10, 11, 12});
	snprintf(sub, sizeof sub, "%s/sub/deeper", root);
	npy_write_i16(sub, "d.npy", false, 1, 1, (const int16_t[]){99});
	dalic_pipeline_t *p = tl_pipeline(4);
	npy_reader(p, root);
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *b = dalic_pipeline_output(p, 0);
	cr_expect_eq(dalic_batch_dtype(b), DALIC_INT16);
	cr_expect_str_eq(dalic_batch_layout(b), "");
	tl_expect_shape(b, 0, 2, (int64_t[]){2, 3});
	tl_expect_values(b, 0, 6, (double[]){0, 2, 4, 1, 3, 5});
	tl_expect_shape(b, 1, 2, (int64_t[]){2, 3});
	tl_expect_values(b, 1, 6, (double[]){0, 1, 2, 3, 4, 5});
	tl_expect_shape(b, 2, 2, (int64_t[]){1, 3});
	tl_expect_values(b, 2, 3, (double[]){10, 11, 12});
	tl_expect_values(b, 3, 6, (double[]){0, 2, 4, 1, 3, 5}); /* wrapped: d.npy is too deep */
	cr_expect_str_eq(dalic_batch_source(b, 0), "./a.npy");
	cr_expect_str_eq(dalic_batch_source(b, 1), "./b.npy");
	cr_expect_str_eq(dalic_batch_source(b, 2), "sub/c.npy");
	dalic_reader_meta_t m;
	ASSERT_OK(dalic_pipeline_reader_meta(p, "Reader", &m));
	cr_expect_eq(m.epoch_size, 3);
	dalic_pipeline_destroy(p);

	p = tl_pipeline(2);
	dalic_op_t *op = npy_reader(p, root);
	ASSERT_OK(dalic_op_set_string(op, "file_filter", "*.bin"));
	ASSERT_OK(dalic_pipeline_run(p));
	cr_expect_str_eq(dalic_batch_source(dalic_pipeline_output(p, 0), 0), "./skip.bin");
	cr_expect_str_eq(dalic_batch_source(dalic_pipeline_output(p, 0), 1), "./skip.bin");
	dalic_pipeline_destroy(p);
}

typedef struct npy_case {
	const char *dict;
	int version;
	const void *data;
	size_t n;
	dalic_dtype_t dtype;
	int ndim;
	int64_t dims[3];
	double values[6];
} npy_case_t;

Test(readers_numpy, dtypes_and_header_versions)
{
	const double f64[2] = {1.5, -2.0};
	const uint8_t bools[3] = {1, 0, 1};
	const uint16_t halves[2] = {0x3c00, 0xc100}; /* 1.0, -2.5 */
	const uint64_t big = 1ull << 40;
	const int32_t f32i[4] = {1, 2, 3, 4};
	const npy_case_t cases[] = {
	    {"{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", 2, f64, 16, DALIC_FLOAT64,
	     1, {2}, {1.5, -2.0}},
	    {"{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", 3, bools, 3, DALIC_BOOL, 1,
	     {3}, {1, 0, 1}},
	    {"{'descr': '<f2', 'fortran_order': False, 'shape': (1, 2), }", 1, halves, 4,
	     DALIC_FLOAT16, 2, {1, 2}, {1.0, -2.5}},
	    {"{'descr': '<u8', 'fortran_order': False, 'shape': (), }", 1, &big, 8, DALIC_UINT64, 0,
	     {0}, {1099511627776.0}},
	    /* a 3-D Fortran array [1, 2, 2]: A[0][j][k] = data[j + 2 k] */
	    {"{'descr': '<i4', 'fortran_order': True, 'shape': (1, 2, 2), }", 1, f32i, 16,
	     DALIC_INT32, 3, {1, 2, 2}, {1, 3, 2, 4}},
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		const npy_case_t *k = &cases[c];
		const char *path = tl_tmp_path("t.npy");
		tl_npy_write_raw(path, k->version, k->dict, k->data, k->n);
		dalic_pipeline_t *p = tl_pipeline(1);
		npy_files(npy_reader(p, NULL), 1, &path);
		ASSERT_OK(dalic_pipeline_run(p), "case %zu", c);
		const dalic_batch_t *b = dalic_pipeline_output(p, 0);
		cr_expect_eq(dalic_batch_dtype(b), k->dtype, "case %zu", c);
		tl_expect_shape(b, 0, k->ndim, k->dims);
		int64_t vol = 1;
		for (int d = 0; d < k->ndim; d++)
			vol *= k->dims[d];
		tl_expect_values(b, 0, (int)vol, k->values);
		dalic_pipeline_destroy(p);
	}
}

/* One [3, 4] int16 array 0..11, in C or Fortran order, through the ROI arguments. */
static const dalic_batch_t *npy_roi_run(dalic_pipeline_t **pp, bool fortran, const char *mode,
                                        void (*set)(dalic_op_t *))
{
	int16_t data[12];
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 4; j++)
			data[fortran ? i + 3 * j : 4 * i + j] = (int16_t)(4 * i + j);
	const char *path = tl_tmp_path("roi.npy");
	tl_npy_write(path, "<i2", fortran, 2, (int64_t[]){3, 4}, data, 2);
	*pp = tl_pipeline(1);
	dalic_op_t *op = npy_reader(*pp, NULL);
	npy_files(op, 1, &path);
	if (mode)
		ASSERT_OK(dalic_op_set_bool(op, mode, true));
	set(op);
	ASSERT_OK(dalic_pipeline_run(*pp));
	return dalic_pipeline_output(*pp, 0);
}

static void npy_roi_pad(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "roi_start", 2, (int64_t[]){1, 1}));
	ASSERT_OK(dalic_op_set_ints(op, "roi_end", 2, (int64_t[]){3, 5}));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "pad"));
	ASSERT_OK(dalic_op_set_float(op, "fill_value", 7.6));
}

static void npy_roi_rel_axis(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_floats(op, "rel_roi_start", 1, (double[]){0.5}));
	ASSERT_OK(dalic_op_set_ints(op, "roi_axes", 1, (int64_t[]){1}));
}

static void npy_roi_trim(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "roi_start", 2, (int64_t[]){-1, -1}));
	ASSERT_OK(dalic_op_set_ints(op, "roi_end", 2, (int64_t[]){2, 2}));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "trim_to_shape"));
}

static void npy_roi_broadcast(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "roi_start", 1, (int64_t[]){1}));
}

static void npy_roi_shape_neg_axis(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "roi_shape", 1, (int64_t[]){2}));
	ASSERT_OK(dalic_op_set_ints(op, "roi_axes", 1, (int64_t[]){-2}));
}

Test(readers_numpy, regions_of_interest)
{
	const char *modes[] = {NULL, "dont_use_mmap", "read_ahead"};
	for (int f = 0; f < 2; f++)
		for (int m = 0; m < 3; m++) {
			dalic_pipeline_t *p;
			/* fill 7.6 rounds to 8 (ConvertSat) */
			const dalic_batch_t *b = npy_roi_run(&p, f, modes[m], npy_roi_pad);
			tl_expect_shape(b, 0, 2, (int64_t[]){2, 4});
			tl_expect_values(b, 0, 8, (double[]){5, 6, 7, 8, 9, 10, 11, 8});
			dalic_pipeline_destroy(p);
			b = npy_roi_run(&p, f, modes[m], npy_roi_rel_axis);
			tl_expect_shape(b, 0, 2, (int64_t[]){3, 2});
			tl_expect_values(b, 0, 6, (double[]){2, 3, 6, 7, 10, 11});
			dalic_pipeline_destroy(p);
			b = npy_roi_run(&p, f, modes[m], npy_roi_trim);
			tl_expect_shape(b, 0, 2, (int64_t[]){2, 2});
			tl_expect_values(b, 0, 4, (double[]){0, 1, 4, 5});
			dalic_pipeline_destroy(p);
			b = npy_roi_run(&p, f, modes[m], npy_roi_broadcast);
			tl_expect_shape(b, 0, 2, (int64_t[]){2, 3});
			tl_expect_values(b, 0, 6, (double[]){5, 6, 7, 9, 10, 11});
			dalic_pipeline_destroy(p);
			b = npy_roi_run(&p, f, modes[m], npy_roi_shape_neg_axis);
			tl_expect_shape(b, 0, 2, (int64_t[]){2, 4});
			tl_expect_values(b, 0, 8, (double[]){0, 1, 2, 3, 4, 5, 6, 7});
			dalic_pipeline_destroy(p);
		}
}

Test(readers_numpy, roi_errors)
{
	const char *path = tl_tmp_path("e.npy");
	npy_write_i16(tl_tmpdir(), "e.npy", false, 3, 4, npy_iota);
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = npy_reader(p, NULL);
	npy_files(op, 1, &path);
	ASSERT_OK(dalic_op_set_ints(op, "roi_start", 2, (int64_t[]){1, 1}));
	ASSERT_OK(dalic_op_set_ints(op, "roi_end", 2, (int64_t[]){3, 5}));
	const char *e = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(e, "Slice can't be placed out of bounds with current policy. Got: "
	              "input_shape={3 x 4}, slice_anchor={1 x 1}, slice_shape={2 x 4}");
	EXPECT_HAS(e, path);
	dalic_pipeline_destroy(p);

	const struct {
		const char *arg, *value, *msg;
	} bad[] = {
	    {"out_of_bounds_policy", "edge", "Not supported out_of_bounds_policy: edge"},
	    {"out_of_bounds_policy", "ERROR", "Not supported out_of_bounds_policy: ERROR"},
	};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		p = tl_pipeline(1);
		op = tl_op(p, "readers.numpy");
		npy_files(op, 1, &path);
		ASSERT_OK(dalic_op_set_string(op, bad[k].arg, bad[k].value));
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, 0), NULL));
		EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
		EXPECT_ERROR_HAS(bad[k].msg);
		dalic_pipeline_destroy(p);
	}
	p = tl_pipeline(1);
	op = npy_reader(p, NULL);
	npy_files(op, 1, &path);
	ASSERT_OK(dalic_op_set_ints(op, "roi_start", 1, (int64_t[]){1}));
	ASSERT_OK(dalic_op_set_ints(op, "roi_axes", 2, (int64_t[]){0, 5}));
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "Axis 5 out of range. Expected range is [-2, 1]");
	dalic_pipeline_destroy(p);
}

Test(readers_numpy, file_list_lines_as_written)
{
	const char *root = npy_dir("l");
	npy_dir("l/sub");
	npy_write_i16(root, "a.npy", false, 1, 2, (const int16_t[]){1, 2});
	char sub[600], list[600];
	snprintf(sub, sizeof sub, "%s/sub", root);
	npy_write_i16(sub, "c.npy", false, 1, 2, (const int16_t[]){3, 4});
	snprintf(list, sizeof list, "%s/list.txt", root);
	tl_write_text(list, "a.npy\n\nsub/c.npy\n");
	dalic_pipeline_t *p = tl_pipeline(3);
	dalic_op_t *op = npy_reader(p, NULL);
	ASSERT_OK(dalic_op_set_string(op, "file_list", list));
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *b = dalic_pipeline_output(p, 0);
	cr_expect_str_eq(dalic_batch_source(b, 0), "a.npy");
	cr_expect_str_eq(dalic_batch_source(b, 1), "sub/c.npy");
	tl_expect_values(b, 1, 2, (double[]){3, 4});
	cr_expect_str_eq(dalic_batch_source(b, 2), "a.npy");
	dalic_pipeline_destroy(p);

	/* spaces belong to the name, as DALI reads the list */
	tl_write_text(list, "a.npy \n");
	p = tl_pipeline(1);
	op = npy_reader(p, NULL);
	ASSERT_OK(dalic_op_set_string(op, "file_list", list));
	char want[600];
	snprintf(want, sizeof want, "cannot open '%s/a.npy '", root);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), want);
	dalic_pipeline_destroy(p);
}

/* Five one-value files f0..f4 and the values a reader gives over `iters` batches of `batch`. */
static void npy_expect_order(dalic_pipeline_t *p, int batch, int iters, const int *want)
{
	for (int it = 0; it < iters; it++) {
		ASSERT_OK(dalic_pipeline_run(p));
		const dalic_batch_t *b = dalic_pipeline_output(p, 0);
		for (int i = 0; i < batch; i++)
			cr_expect_eq(tl_at(b, i, 0), want[it * batch + i], "iteration %d sample %d",
			             it, i);
	}
}

Test(readers_numpy, orders_match_dali)
{
	const char *root = npy_dir("o");
	for (int k = 0; k < 5; k++) {
		char path[2048];
		snprintf(path, sizeof path, "%s/f%d.npy", root, k);
		tl_npy_write(path, "<i4", false, 1, (int64_t[]){1}, &k, 4);
	}
	/* real DALI 2.4 (pipeline seed 3; the shuffle buffer draws from the seed argument) */
	dalic_pipeline_t *p = tl_pipeline(5);
	dalic_op_t *op = npy_reader(p, root);
	ASSERT_OK(dalic_op_set_bool(op, "shuffle_after_epoch", true));
	const int want[15] = {4, 2, 1, 0, 3, 1, 2, 4, 0, 3, 0, 4, 3, 2, 1};
	npy_expect_order(p, 5, 3, want);
	dalic_pipeline_destroy(p);

	p = tl_pipeline(3);
	op = npy_reader(p, root);
	ASSERT_OK(dalic_op_set_bool(op, "random_shuffle", true));
	ASSERT_OK(dalic_op_set_int(op, "initial_fill", 2));
	ASSERT_OK(dalic_op_set_int(op, "num_shards", 2));
	ASSERT_OK(dalic_op_set_int(op, "shard_id", 1));
	ASSERT_OK(dalic_op_set_bool(op, "pad_last_batch", true));
	ASSERT_OK(dalic_op_set_int(op, "seed", 3));
	const int want_shard[12] = {4, 2, 1, 3, 0, 0, 2, 4, 1, 3, 0, 0};
	npy_expect_order(p, 3, 4, want_shard);
	dalic_reader_meta_t m;
	ASSERT_OK(dalic_pipeline_reader_meta(p, "Reader", &m));
	cr_expect_eq(m.epoch_size, 5);
	cr_expect_eq(m.epoch_size_padded, 6);
	dalic_pipeline_destroy(p);
}

/* The first error of a one-file reader on `path`. */
static const char *npy_error(const char *path)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	npy_files(npy_reader(p, NULL), 1, &path);
	static char msg[2048];
	snprintf(msg, sizeof msg, "%s", tl_run_fails(p, DALIC_EOP));
	dalic_pipeline_destroy(p);
	return msg;
}

Test(readers_numpy, corrupt_files_name_the_file)
{
	const char *path = tl_tmp_path("bad.npy");
	const int32_t v[4] = {1, 2, 3, 4};
	const struct {
		const char *dict;
		int version;
		size_t n;
		const char *msg;
	} bad[] = {
	    {"{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }", 1, 8,
	     "the header declares 16 bytes of data after 128 bytes of header; the file has 136"},
	    {"{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }", 1, 8,
	     "Big Endian files are not supported."},
	    {"{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", 1, 8,
	     "Unknown Numpy type string '<c8'"},
	    {"{'descr': '<i4', 'shape': (2,), }", 1, 8, "Expected \"fortran_order\" but got"},
	    {"{'descr': '<i4', 'fortran_order': Maybe, 'shape': (2,), }", 1, 8,
	     "Failed to parse fortran_order field."},
	    {"{'descr': '<i4', 'fortran_order': False, 'shape': (2), }", 1, 8,
	     "The first number in a tuple must be followed by a comma."},
	    {"{'descr': '<i4', 'fortran_order': False, 'shape': (-2,), }", 1, 8,
	     "Invalid extent -2 in the shape."},
	    {"{'descr': '<i4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", 1, 8,
	     "The array's shape is too large."},
	    {"no dictionary", 2, 8, "Header is corrupted."},
	};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		tl_npy_write_raw(path, bad[k].version, bad[k].dict, v, bad[k].n);
		const char *e = npy_error(path);
		EXPECT_HAS(e, bad[k].msg, "case %zu", k);
		EXPECT_HAS(e, path, "case %zu", k);
	}
	/* a preamble of the wrong length, no magic, a short file, version 4 */
	tl_npy_write_raw(path, 1, "{'descr': '<i4', 'fortran_order': False, 'shape': (1,), }", v, 4);
	size_t n;
	uint8_t *b = tl_read_file(path, &n);
	b[8] ^= 1;
	tl_write_file(path, b, n);
	EXPECT_HAS(npy_error(path), "Error extracting header length.");
	b[8] ^= 1;
	b[6] = 4;
	tl_write_file(path, b, n);
	EXPECT_HAS(npy_error(path), "Unsupported NPY format version 4.0.");
	b[1] = 'X';
	tl_write_file(path, b, n);
	EXPECT_HAS(npy_error(path), "File is not a numpy file.");
	tl_write_file(path, b, 7);
	EXPECT_HAS(npy_error(path), "Can not read header.");
	b[1] = 'N';
	b[6] = 1;
	tl_write_file(path, b, 40); /* the header is 64 bytes */
	EXPECT_HAS(npy_error(path), "Can not read header.");
	free(b);
	EXPECT_HAS(npy_error(tl_tmp_path("missing.npy")), "cannot open");
}

Test(readers_numpy, mixed_batches_name_both_files)
{
	const char *a = tl_tmp_path("m1.npy"), *b = tl_tmp_path("m2.npy"), *c = tl_tmp_path("m3.npy");
	tl_npy_write(a, "<i2", false, 2, (int64_t[]){1, 2}, npy_iota, 2);
	tl_npy_write(b, "<i2", false, 1, (int64_t[]){2}, npy_iota, 2);
	tl_npy_write(c, "|u1", false, 2, (int64_t[]){1, 2}, npy_iota, 1);
	dalic_pipeline_t *p = tl_pipeline(2);
	npy_files(npy_reader(p, NULL), 2, (const char *[]){a, b});
	char want[1024];
	snprintf(want, sizeof want,
	         "Inconsistent data: All samples in the batch must have the same number of "
	         "dimensions. Got \"%s\" with 2 dimensions and \"%s\" with 1 dimensions",
	         a, b);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), want);
	dalic_pipeline_destroy(p);
	p = tl_pipeline(2);
	npy_files(npy_reader(p, NULL), 2, (const char *[]){a, c});
	snprintf(want, sizeof want,
	         "same data type. Got \"%s\" with data type int16 and \"%s\" with data type uint8", a,
	         c);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), want);
	dalic_pipeline_destroy(p);
}

/* cache_header_information keeps the first header: a file rewritten with another shape is
 * read under the old one (DALI's cache), while without it the new shape shows. */
Test(readers_numpy, cached_headers)
{
	const char *path = tl_tmp_path("c.npy");
	for (int cache = 0; cache < 2; cache++) {
		tl_npy_write(path, "<i2", false, 1, (int64_t[]){3}, npy_iota, 2);
		dalic_pipeline_t *p = tl_pipeline(1);
		dalic_op_t *op = npy_reader(p, NULL);
		npy_files(op, 1, &path);
		ASSERT_OK(dalic_op_set_bool(op, "cache_header_information", cache));
		ASSERT_OK(dalic_pipeline_run(p));
		tl_expect_shape(dalic_pipeline_output(p, 0), 0, 1, (int64_t[]){3});
		tl_npy_write(path, "<i2", false, 1, (int64_t[]){5}, npy_iota + 2, 2);
		ASSERT_OK(dalic_pipeline_run(p));
		const dalic_batch_t *b = dalic_pipeline_output(p, 0);
		tl_expect_shape(b, 0, 1, (int64_t[]){cache ? 3 : 5});
		tl_expect_values(b, 0, cache ? 3 : 5, (double[]){2, 3, 4, 5, 6});
		dalic_pipeline_destroy(p);
	}
}

/* A script, its protobuf and every executor mode read the same samples. */
Test(readers_numpy, script_protobuf_and_modes)
{
	const char *root = npy_dir("s");
	for (int k = 0; k < 4; k++) {
		char name[24];
		snprintf(name, sizeof name, "x%d.npy", k);
		npy_write_i16(root, name, k % 2, 2, 2, npy_iota + k);
	}
	char script[1024];
	snprintf(script, sizeof script,
	         "from nvidia.dali import pipeline_def, fn\n"
	         "@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=1)\n"
	         "def p():\n"
	         "    return fn.readers.numpy(file_root='%s', roi_start=[1, 0], roi_shape=[2, 1],\n"
	         "                            out_of_bounds_policy='pad', fill_value=-1)\n"
	         "pipe = p()\n",
	         root);
	const char *py = tl_write_temp("npy", ".py", script);
	tl_cmd_t c = tl_dalic(NULL, "run %s -n 2 --json", py);
	cr_assert_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "\"samples_per_second\"");
	tl_cmd_free(&c);
	const char *pb = tl_tmp_path("npy.pb");
	c = tl_dalic(NULL, "serialize %s -o %s", py, pb);
	cr_assert_eq(c.status, 0, "%s", c.out);
	tl_cmd_free(&c);
	TL_FOR_EACH_MODE(m)
	{
		dalic_pipeline_override_t o = {
		    .fields = DALIC_PARAM_PREFETCH | DALIC_PARAM_EXEC_PIPELINED | DALIC_PARAM_EXEC_ASYNC,
		    .params = tl_mode_params(m, 3, 2)};
		dalic_pipeline_t *p = NULL;
		ASSERT_OK(dalic_pipeline_load(pb, NULL, &o, &p), "mode %s", m->name);
		for (int it = 0; it < 2; it++) {
			ASSERT_OK(dalic_pipeline_run(p), "mode %s", m->name);
			const dalic_batch_t *b = dalic_pipeline_output(p, 0);
			for (int i = 0; i < 3; i++) {
				int k = (it * 3 + i) % 4; /* x<k>: [[k, k+1], [k+2, k+3]] or transposed */
				double second = k % 2 ? k + 1 : k + 2;
				tl_expect_shape(b, i, 2, (int64_t[]){2, 1});
				tl_expect_values(b, i, 2, (double[]){second, -1});
			}
		}
		dalic_pipeline_destroy(p);
	}
}
