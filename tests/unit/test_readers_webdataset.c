/*
 * readers.webdataset through the public API on tar archives the tests write
 * (tests/testlib/formats.h): samples grouped by basename, extension alternatives, dtypes,
 * case-insensitive extensions, the three missing-component behaviours, index files (v1.2
 * and v1.1), sources, the per-archive shuffle_after_epoch order (real DALI 2.4's), and the
 * errors for corrupt or truncated archives and malformed index files.
 */
#include "tests/testlib.h"
#include "tests/testlib/formats.h"

TestSuite(readers_webdataset, .timeout = 30, .fini = tl_tmpdir_remove);

/* Offsets of the components of the archive wds_archive writes. */
static long wds_off[16];

/* s0: jpg, cls, txt | s1: JPEG, cls | <long>/s2: jpg, cls | s3: cls | .hidden | a dir |
 * s4: seg.png, cls | s5: f32 (two floats), cls */
static const char *wds_archive(void)
{
	static char path[300];
	snprintf(path, sizeof path, "%s", tl_tmp_path("a.tar"));
	tl_tar_t t;
	tl_tar_open(&t, path);
	const char *deep = "dir/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	                   "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx/s2";
	char name[300];
	int k = 0;
	wds_off[k++] = tl_tar_add(&t, "s0.jpg", "J0", 2);
	wds_off[k++] = tl_tar_add(&t, "s0.cls", "0", 1);
	wds_off[k++] = tl_tar_add(&t, "s0.txt", "t0", 2);
	wds_off[k++] = tl_tar_add(&t, "s1.JPEG", "J1J1", 4);
	wds_off[k++] = tl_tar_add(&t, "s1.cls", "1", 1);
	snprintf(name, sizeof name, "%s.jpg", deep);
	wds_off[k++] = tl_tar_add(&t, name, "LONG", 4);
	snprintf(name, sizeof name, "%s.cls", deep);
	wds_off[k++] = tl_tar_add(&t, name, "2", 1);
	wds_off[k++] = tl_tar_add(&t, "s3.cls", "3", 1);
	tl_tar_add(&t, ".hidden", "H", 1);
	tl_tar_add_dir(&t, "adir/");
	wds_off[k++] = tl_tar_add(&t, "s4.seg.png", "P4", 2);
	wds_off[k++] = tl_tar_add(&t, "s4.cls", "4", 1);
	float f[2] = {1.5f, -2.25f};
	wds_off[k++] = tl_tar_add(&t, "s5.f32", f, sizeof f);
	wds_off[k++] = tl_tar_add(&t, "s5.cls", "5", 1);
	tl_tar_close(&t);
	return path;
}

static dalic_op_t *wds_reader(dalic_pipeline_t *p, const char *path, const char *index, int next,
                              const char *const *ext)
{
	dalic_op_t *op = tl_op(p, "readers.webdataset");
	ASSERT_OK(dalic_op_set_name(op, "Reader"));
	ASSERT_OK(dalic_op_set_strings(op, "paths", 1, &path));
	if (index)
		ASSERT_OK(dalic_op_set_strings(op, "index_paths", 1, &index));
	ASSERT_OK(dalic_op_set_strings(op, "ext", next, ext));
	for (int k = 0; k < dalic_op_num_outputs(op); k++)
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, k), NULL));
	return op;
}

/* Sample i of b as text ("" when empty). */
static const char *wds_text(const dalic_batch_t *b, int i)
{
	static char buf[8][64];
	static int k;
	char *s = buf[k++ % 8];
	int64_t n = dalic_batch_shape(b, i)[0];
	cr_assert_lt(n, 64);
	memcpy(s, dalic_batch_data(b, i), (size_t)n);
	s[n] = 0;
	return s;
}

Test(readers_webdataset, samples_extensions_and_sources)
{
	const char *path = wds_archive();
	dalic_pipeline_t *p = tl_pipeline(7);
	const char *ext[] = {"jpg;jpeg;png", "cls"};
	wds_reader(p, path, NULL, 2, ext);
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *img = dalic_pipeline_output(p, 0), *cls = dalic_pipeline_output(p, 1);
	/* s0, s1 (JPEG: no match, case-sensitive), s2, s3, s4 (seg.png is its own extension),
	 * s5, then s0 again: .hidden and the directory make no sample */
	const char *want_img[] = {"J0", "", "LONG", "", "", "", "J0"};
	const char *want_cls[] = {"0", "1", "2", "3", "4", "5", "0"};
	for (int i = 0; i < 7; i++) {
		cr_expect_str_eq(wds_text(img, i), want_img[i], "sample %d", i);
		cr_expect_str_eq(wds_text(cls, i), want_cls[i], "sample %d", i);
	}
	char want[512];
	snprintf(want, sizeof want, "%s:%ld:s0.jpg", path, wds_off[0]);
	cr_expect_str_eq(dalic_batch_source(img, 0), want);
	cr_expect_eq(wds_off[0], 512);
	cr_expect_null(dalic_batch_source(img, 1), "an empty output has no source");
	/* the long name: its data follows the 'L' header, the name block and the real header */
	cr_expect_eq(wds_off[5], wds_off[4] + 512 + 3 * 512);
	snprintf(want, sizeof want, "%s:%ld:dir/", path, wds_off[5]);
	EXPECT_STARTS(dalic_batch_source(img, 2), want);
	dalic_pipeline_destroy(p);
}

Test(readers_webdataset, case_dtypes_and_duplicate_outputs)
{
	const char *path = wds_archive();
	dalic_pipeline_t *p = tl_pipeline(6);
	const char *ext[] = {"JPG;jpeg", "f32", "cls"};
	dalic_op_t *op = wds_reader(p, path, NULL, 3, ext);
	ASSERT_OK(dalic_op_set_bool(op, "case_sensitive_extensions", false));
	ASSERT_OK(dalic_op_set_ints(op, "dtypes", 3,
	                            (const int64_t[]){DALIC_UINT8, DALIC_FLOAT, DALIC_INT8}));
	ASSERT_OK(dalic_pipeline_run(p));
	cr_expect_str_eq(wds_text(dalic_pipeline_output(p, 0), 1), "J1J1");
	const dalic_batch_t *f = dalic_pipeline_output(p, 1), *c = dalic_pipeline_output(p, 2);
	cr_expect_eq(dalic_batch_dtype(f), DALIC_FLOAT);
	tl_expect_shape(f, 0, 1, (int64_t[]){0});
	tl_expect_shape(f, 5, 1, (int64_t[]){2});
	tl_expect_values(f, 5, 2, (double[]){1.5, -2.25});
	cr_expect_eq(dalic_batch_dtype(c), DALIC_INT8);
	tl_expect_values(c, 3, 1, (double[]){'3'});
	dalic_pipeline_destroy(p);

	/* one component may feed two outputs */
	p = tl_pipeline(2);
	const char *twice[] = {"cls", "cls"};
	wds_reader(p, path, NULL, 2, twice);
	ASSERT_OK(dalic_pipeline_run(p));
	cr_expect_str_eq(wds_text(dalic_pipeline_output(p, 0), 1), "1");
	cr_expect_str_eq(wds_text(dalic_pipeline_output(p, 1), 1), "1");
	dalic_pipeline_destroy(p);
}

Test(readers_webdataset, missing_component_behaviours)
{
	const char *path = wds_archive();
	const char *ext[] = {"jpg", "cls"};
	dalic_pipeline_t *p = tl_pipeline(4);
	dalic_op_t *op = wds_reader(p, path, NULL, 2, ext);
	ASSERT_OK(dalic_op_set_string(op, "missing_component_behavior", "SKIP"));
	ASSERT_OK(dalic_pipeline_run(p));
	/* only s0 and s2 have both */
	const char *want[] = {"0", "2", "0", "2"};
	for (int i = 0; i < 4; i++)
		cr_expect_str_eq(wds_text(dalic_pipeline_output(p, 1), i), want[i]);
	dalic_reader_meta_t m;
	ASSERT_OK(dalic_pipeline_reader_meta(p, "Reader", &m));
	cr_expect_eq(m.epoch_size, 2);
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = wds_reader(p, path, NULL, 2, ext);
	ASSERT_OK(dalic_op_set_string(op, "missing_component_behavior", "error"));
	ASSERT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("Underful sample detected at tar file at \"");
	EXPECT_ERROR_HAS("a.tar");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = wds_reader(p, path, NULL, 2, ext);
	ASSERT_OK(dalic_op_set_string(op, "missing_component_behavior", "drop"));
	ASSERT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("Invalid value for missing_component_behavior 'drop'");
	dalic_pipeline_destroy(p);
}

Test(readers_webdataset, index_files)
{
	const char *path = wds_archive(), *idx = tl_tmp_path("a.idx");
	char text[1024];
	snprintf(text, sizeof text,
	         "v1.2 2\n"
	         "jpg %ld 2 s0.jpg cls %ld 1 s0.cls\n"
	         "cls %ld 1 s3.cls\n",
	         wds_off[0], wds_off[1], wds_off[7]);
	tl_write_text(idx, text);
	dalic_pipeline_t *p = tl_pipeline(3);
	const char *ext[] = {"jpg", "cls"};
	wds_reader(p, path, idx, 2, ext);
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *cls = dalic_pipeline_output(p, 1);
	cr_expect_str_eq(wds_text(cls, 1), "3");
	char want[512];
	snprintf(want, sizeof want, "%s:%ld:s3.cls", path, wds_off[7]);
	cr_expect_str_eq(dalic_batch_source(cls, 1), want);
	dalic_pipeline_destroy(p);

	snprintf(text, sizeof text, "v1.1 1\ncls %ld 1\n", wds_off[4]);
	tl_write_text(idx, text);
	p = tl_pipeline(1);
	const char *one[] = {"cls"};
	wds_reader(p, path, idx, 1, one);
	ASSERT_OK(dalic_pipeline_run(p));
	snprintf(want, sizeof want, "%s:%ld:", path, wds_off[4]);
	cr_expect_str_eq(dalic_batch_source(dalic_pipeline_output(p, 0), 0), want);
	dalic_pipeline_destroy(p);
}

Test(readers_webdataset, malformed_index_files)
{
	const char *path = wds_archive(), *idx = tl_tmp_path("b.idx");
	static const struct {
		const char *text, *error;
	} bad[] = {
	    {"", "line 0 - no version signature found"},
	    {"v2.0 3\n", "Unsupported version of the index file (v2.0)"},
	    {"v1.2\n", "line 0 - no sample count found"},
	    {"v1.2 0\n", "sample count must be positive"},
	    {"v1.2 1\ncls 512\n", "line 1 - Could not find all necessary component parameters "
	                          "(offset, size or filename)"},
	    {"v1.1 1\ncls 512 x\n", "(offset or size)"},
	    {"v1.2 2\ncls 1536 1 s0.cls\n", "line 2 - no extensions provided for the sample"},
	    {"v1.2 1\ncls 1000 1 s0.cls\n", "tar offset is not a multiple of tar block size"},
	    {"v1.2 1\ncls 1048576 1 far.cls\n", "is outside of the archive file"},
	    {"v1.2 1\ncls 512 100000 big.cls\n", "lie past the end"},
	};
	const char *ext[] = {"cls"};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		tl_write_text(idx, bad[k].text);
		dalic_pipeline_t *p = tl_pipeline(1);
		wds_reader(p, path, idx, 1, ext);
		int rc = dalic_pipeline_run(p);
		cr_expect_neq(rc, DALIC_OK, "%s", bad[k].text);
		EXPECT_ERROR_HAS(bad[k].error, "index %s", bad[k].text);
		dalic_pipeline_destroy(p);
	}
	tl_write_text(idx, "v1.2 1\nf32 512 3 s0.f32\n");
	dalic_pipeline_t *p = tl_pipeline(1);
	const char *f32[] = {"f32"};
	dalic_op_t *op = wds_reader(p, path, idx, 1, f32);
	ASSERT_OK(dalic_op_set_ints(op, "dtypes", 1, (const int64_t[]){DALIC_FLOAT}));
	ASSERT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("Error in index file at index file at \"");
	EXPECT_ERROR_HAS("line 1 - component size and dtype incompatible");
	dalic_pipeline_destroy(p);
}

Test(readers_webdataset, corrupt_and_truncated_archives)
{
	const char *path = wds_archive();
	size_t n;
	uint8_t *b = tl_read_file(path, &n);
	b[1024 + 10] ^= 0x20; /* the name in s0.cls's header */
	tl_write_file(path, b, n);
	const char *ext[] = {"cls"};
	dalic_pipeline_t *p = tl_pipeline(1);
	wds_reader(p, path, NULL, 1, ext);
	ASSERT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("corrupted tar file '");
	EXPECT_ERROR_HAS("bad header (checksum) at offset 1024");
	dalic_pipeline_destroy(p);
	b[1024 + 10] ^= 0x20;
	tl_write_file(path, b, 2048 + 100); /* 100 bytes of s0.txt's header */
	p = tl_pipeline(1);
	wds_reader(p, path, NULL, 1, ext);
	ASSERT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("a header cut short at offset 2048");
	dalic_pipeline_destroy(p);
	tl_write_file(path, b, 1536); /* s0.cls's header without its data */
	free(b);
	p = tl_pipeline(1);
	const char *jpg[] = {"jpg"};
	wds_reader(p, path, NULL, 1, jpg);
	ASSERT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("truncated tar file");
	EXPECT_ERROR_HAS("entry 's0.cls' at offset 1024 needs 1 bytes");
	dalic_pipeline_destroy(p);
}

/* Two archives of 4 and 6 samples ("0".."9"): DALI 2.4 reorders them every epoch. */
Test(readers_webdataset, shuffle_after_epoch_reorders_archives)
{
	const char *paths[2] = {strdup(tl_tmp_path("w0.tar")), strdup(tl_tmp_path("w1.tar"))};
	for (int a = 0; a < 2; a++) {
		tl_tar_t t;
		tl_tar_open(&t, paths[a]);
		for (int k = a ? 4 : 0; k < (a ? 10 : 4); k++) {
			char name[24], text[12]; /* room for any int: gcc -O1 checks */
			snprintf(name, sizeof name, "s%02d.cls", k);
			snprintf(text, sizeof text, "%d", k);
			tl_tar_add(&t, name, text, 1);
		}
		tl_tar_close(&t);
	}
	dalic_pipeline_t *p = tl_pipeline(5);
	dalic_op_t *op = tl_op(p, "readers.webdataset");
	ASSERT_OK(dalic_op_set_strings(op, "paths", 2, paths));
	ASSERT_OK(dalic_op_set_strings(op, "ext", 1, (const char *[]){"cls"}));
	ASSERT_OK(dalic_op_set_bool(op, "shuffle_after_epoch", true));
	tl_output(p, op);
	const int want[30] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4,
	                      5, 6, 7, 8, 9, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3};
	for (int it = 0; it < 6; it++) {
		const dalic_batch_t *b = tl_run(p, 0);
		for (int i = 0; i < 5; i++)
			cr_expect_eq(*(const char *)dalic_batch_data(b, i) - '0', want[it * 5 + i],
			             "iteration %d sample %d", it, i);
	}
	dalic_pipeline_destroy(p);
	free((void *)paths[0]);
	free((void *)paths[1]);
}

Test(readers_webdataset, argument_errors_use_dalis_messages)
{
	const char *path = wds_archive();
	static const struct {
		int next;
		const char *ext[2];
		int ndt;
		int64_t dt[2];
		const char *error;
	} bad[] = {
	    {2, {"jpg", "cls"}, 1, {DALIC_UINT8}, "Number of extensions does not match"},
	    {1, {"jpg"}, 1, {DALIC_BOOL}, "Unsupported output dtype BOOL"},
	};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		dalic_pipeline_t *p = tl_pipeline(1);
		dalic_op_t *op = wds_reader(p, path, NULL, bad[k].next, bad[k].ext);
		ASSERT_OK(dalic_op_set_ints(op, "dtypes", bad[k].ndt, bad[k].dt));
		ASSERT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
		EXPECT_ERROR_HAS(bad[k].error);
		dalic_pipeline_destroy(p);
	}
	dalic_pipeline_t *p = tl_pipeline(1);
	const char *two[] = {path, path}, *idx = tl_tmp_path("one.idx");
	dalic_op_t *op = tl_op(p, "readers.webdataset");
	ASSERT_OK(dalic_op_set_strings(op, "paths", 2, two));
	ASSERT_OK(dalic_op_set_strings(op, "index_paths", 1, &idx));
	ASSERT_OK(dalic_op_set_strings(op, "ext", 1, (const char *[]){"cls"}));
	tl_output(p, op);
	ASSERT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("The number of index files, if any, must match the number of archives");
	dalic_pipeline_destroy(p);
}
