/*
 * readers.mxnet through the public API on RecordIO files the tests write
 * (tests/testlib/formats.h): labels from the header or the label list, an index with offsets
 * through several files, multi-part records joined with the magic put back, a record running
 * on into the next file, sources, the read modes, and the errors for damaged records and
 * indexes, each naming the file.
 */
#include "tests/testlib.h"
#include "tests/testlib/formats.h"

TestSuite(readers_mxnet, .timeout = 30, .fini = tl_tmpdir_remove);

/* The record of image `img` with `nl` labels (label `label` when nl is 0). */
static void mx_record(tl_buf_t *file, float label, int nl, const float *labels, const char *img)
{
	tl_buf_t p = {0};
	tl_recio_payload(&p, label, nl, labels, img, strlen(img));
	tl_recio_part(file, 0, p.p, p.n);
	tl_buf_free(&p);
}

static dalic_op_t *mx_reader(dalic_pipeline_t *p, int n, const char *const *paths,
                             const char *idx)
{
	dalic_op_t *op = tl_op(p, "readers.mxnet");
	ASSERT_OK(dalic_op_set_name(op, "Reader"));
	ASSERT_OK(dalic_op_set_strings(op, "path", n, paths));
	ASSERT_OK(dalic_op_set_strings(op, "index_path", 1, &idx));
	for (int k = 0; k < 2; k++)
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, k), NULL));
	return op;
}

static void mx_expect_text(const dalic_batch_t *b, int i, const char *text)
{
	tl_expect_shape(b, i, 1, (int64_t[]){(int64_t)strlen(text)});
	cr_expect_eq(memcmp(dalic_batch_data(b, i), text, strlen(text)), 0, "sample %d", i);
}

/* a.rec: "one" (label 1.5), "three" (labels 7, 8, 9); b.rec: "four!" (label -2). */
static void mx_files(const char **a, const char **b, const char **idx)
{
	*a = tl_tmp_path("a.rec");
	*b = tl_tmp_path("b.rec");
	*idx = tl_tmp_path("all.idx");
	tl_buf_t fa = {0}, fb = {0};
	mx_record(&fa, 1.5f, 0, NULL, "one");
	size_t second = fa.n;
	mx_record(&fa, 0, 3, (const float[]){7, 8, 9}, "three");
	mx_record(&fb, -2, 0, NULL, "four!");
	tl_write_file(*a, fa.p, fa.n);
	tl_write_file(*b, fb.p, fb.n);
	char text[128];
	snprintf(text, sizeof text, "2\t%zu\n\n0\t0\n1\t%zu\n", fa.n, second);
	tl_write_text(*idx, text);
	tl_buf_free(&fa);
	tl_buf_free(&fb);
}

Test(readers_mxnet, labels_sources_and_read_modes)
{
	const char *a, *b, *idx;
	mx_files(&a, &b, &idx);
	const char *modes[] = {NULL, "dont_use_mmap", "read_ahead"};
	for (int m = 0; m < 3; m++) {
		dalic_pipeline_t *p = tl_pipeline(4);
		dalic_op_t *op = mx_reader(p, 2, (const char *[]){a, b}, idx);
		if (modes[m])
			ASSERT_OK(dalic_op_set_bool(op, modes[m], true));
		ASSERT_OK(dalic_pipeline_run(p));
		const dalic_batch_t *img = dalic_pipeline_output(p, 0), *lab = dalic_pipeline_output(p, 1);
		mx_expect_text(img, 0, "one");
		tl_expect_values(lab, 0, 1, (double[]){1.5});
		mx_expect_text(img, 1, "three");
		tl_expect_values(lab, 1, 3, (double[]){7, 8, 9});
		mx_expect_text(img, 2, "four!");
		tl_expect_values(lab, 2, 1, (double[]){-2});
		mx_expect_text(img, 3, "one");
		cr_expect_eq(dalic_batch_dtype(lab), DALIC_FLOAT);
		/* offsets within the file; the last record keeps the file of the one before it,
		 * as in DALI: a.rec at its end, read on from b.rec */
		char want[400];
		snprintf(want, sizeof want, "%s at index 36", a);
		cr_expect_str_eq(dalic_batch_source(img, 1), want);
		snprintf(want, sizeof want, "%s at index 88", a);
		cr_expect_str_eq(dalic_batch_source(img, 2), want);
		dalic_reader_meta_t meta;
		ASSERT_OK(dalic_pipeline_reader_meta(p, "Reader", &meta));
		cr_expect_eq(meta.epoch_size, 3);
		dalic_pipeline_destroy(p);
	}
}

/* A payload split where it held the magic: parts 1 and 3, the magic put back between. */
Test(readers_mxnet, multi_part_records_and_records_across_files)
{
	const char *path = tl_tmp_path("m.rec"), *idx = tl_tmp_path("m.idx");
	tl_buf_t f = {0}, p = {0};
	tl_recio_payload(&p, 4, 0, NULL, "abc", 3); /* 27 bytes: padded to 28 */
	tl_recio_part(&f, 1, p.p, p.n);
	tl_recio_part(&f, 3, "xyzzy", 5);
	tl_write_file(path, f.p, f.n);
	tl_write_text(idx, "0 0\n");
	dalic_pipeline_t *pl = tl_pipeline(1);
	mx_reader(pl, 1, &path, idx);
	ASSERT_OK(dalic_pipeline_run(pl));
	const uint8_t want[12] = {'a', 'b', 'c', 0x0a, 0x23, 0xd7, 0xce, 'x', 'y', 'z', 'z', 'y'};
	const dalic_batch_t *img = dalic_pipeline_output(pl, 0);
	tl_expect_shape(img, 0, 1, (int64_t[]){12});
	cr_expect_eq(memcmp(dalic_batch_data(img, 0), want, 12), 0);
	tl_expect_values(dalic_pipeline_output(pl, 1), 0, 1, (double[]){4});
	dalic_pipeline_destroy(pl);
	tl_buf_free(&f);
	tl_buf_free(&p);

	/* "first" whole in x.rec, "second" split over x.rec and y.rec */
	const char *x = tl_tmp_path("x.rec"), *y = tl_tmp_path("y.rec");
	tl_buf_t all = {0};
	mx_record(&all, 1, 0, NULL, "first");
	size_t cut = all.n + 10, second = all.n;
	mx_record(&all, 2, 0, NULL, "second");
	tl_write_file(x, all.p, cut);
	tl_write_file(y, all.p + cut, all.n - cut);
	char text[64];
	snprintf(text, sizeof text, "0 0\n1 %zu\n", second);
	tl_write_text(idx, text);
	pl = tl_pipeline(2);
	mx_reader(pl, 2, (const char *[]){x, y}, idx);
	ASSERT_OK(dalic_pipeline_run(pl));
	mx_expect_text(dalic_pipeline_output(pl, 0), 0, "first");
	mx_expect_text(dalic_pipeline_output(pl, 0), 1, "second");
	tl_expect_values(dalic_pipeline_output(pl, 1), 1, 1, (double[]){2});
	dalic_pipeline_destroy(pl);
	tl_buf_free(&all);
}

static const char *mx_error(const char *path, const char *idx)
{
	dalic_pipeline_t *p = tl_pipeline(3);
	mx_reader(p, 1, &path, idx);
	static char msg[2048];
	snprintf(msg, sizeof msg, "%s", tl_run_fails(p, DALIC_EOP));
	dalic_pipeline_destroy(p);
	return msg;
}

Test(readers_mxnet, damaged_records_and_indexes)
{
	const char *path = tl_tmp_path("d.rec"), *idx = tl_tmp_path("d.idx");
	tl_buf_t f = {0};
	mx_record(&f, 1, 0, NULL, "data");
	size_t one = f.n;
	mx_record(&f, 2, 0, NULL, "more");
	char text[64];
	snprintf(text, sizeof text, "0 0\n1 %zu\n", one);
	tl_write_text(idx, text);

	f.p[one] ^= 0x01; /* the second record's magic */
	tl_write_file(path, f.p, f.n);
	const char *e = mx_error(path, idx);
	EXPECT_HAS(e, "Invalid RecordIO: wrong magic number");
	char want[400];
	snprintf(want, sizeof want, "record at offset %zu of '%s'", one, path);
	EXPECT_HAS(e, want);
	f.p[one] ^= 0x01;

	/* a label count past the data */
	f.p[one + 8] = 200;
	tl_write_file(path, f.p, f.n);
	EXPECT_HAS(mx_error(path, idx), "Invalid RecordIO: 200 labels need 800 bytes");
	f.p[one + 8] = 0;

	/* the length runs past the record */
	tl_write_file(path, f.p, f.n - 4);
	EXPECT_HAS(mx_error(path, idx), "Invalid RecordIO: the part's length runs past the record");
	tl_write_file(path, f.p, f.n);

	snprintf(text, sizeof text, "0 0\n1 %zu\n", f.n + 4);
	tl_write_text(idx, text);
	EXPECT_HAS(mx_error(path, idx), "lies past the end of the data files");
	tl_write_text(idx, "0 0\n1 x\n");
	EXPECT_HAS(mx_error(path, idx), ":2: expected '<key> <offset>', got: 1 x");
	tl_write_text(idx, "\n");
	EXPECT_HAS(mx_error(path, idx), "RecordIO index file doesn't contain any indices");
	EXPECT_HAS(mx_error(path, tl_tmp_path("none.idx")), "Could not open RecordIO index file");
	tl_buf_free(&f);
}

/* shuffle_after_epoch reorders the files, each file's records kept together and in order
 * (DALI's IndexedFileLoader): real DALI 2.4 keeps these two files in order for four epochs
 * (mxnet_epochs.py in the oracle suite has orders that change). */
Test(readers_mxnet, shuffle_after_epoch_reorders_files)
{
	const char *a, *b, *idx;
	mx_files(&a, &b, &idx);
	dalic_pipeline_t *p = tl_pipeline(3);
	dalic_op_t *op = mx_reader(p, 2, (const char *[]){a, b}, idx);
	ASSERT_OK(dalic_op_set_bool(op, "shuffle_after_epoch", true));
	const char *want[12] = {"one", "three", "four!", "one", "three", "four!",
	                        "one", "three", "four!", "one", "three", "four!"};
	for (int it = 0; it < 4; it++) {
		ASSERT_OK(dalic_pipeline_run(p));
		for (int i = 0; i < 3; i++)
			mx_expect_text(dalic_pipeline_output(p, 0), i, want[3 * it + i]);
	}
	dalic_pipeline_destroy(p);
}
