/*
 * readers.tfrecord through the public API, on TFRecord files the tests write
 * (tests/testlib/formats.h): feature types, shapes, defaults, sources, the orders of the
 * buffer shuffle and of shuffle_after_epoch (taken from real DALI 2.4 on the same records),
 * reader_meta, read modes, CRC checks (the payload's once per record and reader) and the
 * errors for corrupt, truncated and mis-indexed files, and `dalic tfrecord-index`.
 */
#include "tests/testlib.h"
#include "tests/testlib/formats.h"

#include <stdlib.h>

TestSuite(readers_tfrecord, .timeout = 30, .fini = tl_tmpdir_remove);

/* `count` records whose "label" feature is the int64 first + k. */
static void tfrecord_labels(const char *path, const char *index, int first, int count)
{
	tl_tfrecord_int64s(path, index, first, count);
}

static dalic_op_t *tfrecord_reader(dalic_pipeline_t *p, int nfiles, const char *const *paths,
                                   const char *const *index, int nfeat, const char *const *names,
                                   const char *const *features)
{
	dalic_op_t *op = tl_op(p, "readers.tfrecord");
	ASSERT_OK(dalic_op_set_name(op, "Reader"));
	ASSERT_OK(dalic_op_set_strings(op, "path", nfiles, paths));
	ASSERT_OK(dalic_op_set_strings(op, "index_path", nfiles, index));
	ASSERT_OK(dalic_op_set_strings(op, "feature_names", nfeat, names));
	ASSERT_OK(dalic_op_set_strings(op, "features", nfeat, features));
	for (int k = 0; k < dalic_op_num_outputs(op); k++)
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, k), NULL));
	return op;
}

/* A reader of the int64 "label" of the files. */
static dalic_op_t *tfrecord_label_reader(dalic_pipeline_t *p, int nfiles, const char *const *paths,
                                         const char *const *index)
{
	const char *names[] = {"label"}, *feats[] = {"FixedLenFeature([1], int64, -1)"};
	return tfrecord_reader(p, nfiles, paths, index, 1, names, feats);
}

static void tfrecord_expect_labels(dalic_pipeline_t *p, int batch, int iters, const int *want)
{
	for (int it = 0; it < iters; it++) {
		const dalic_batch_t *b = tl_run(p, 0);
		for (int i = 0; i < batch; i++)
			cr_expect_eq(*(const int64_t *)dalic_batch_data(b, i), want[it * batch + i],
			             "iteration %d sample %d: %lld, expected %d", it, i,
			             (long long)*(const int64_t *)dalic_batch_data(b, i),
			             want[it * batch + i]);
	}
}

Test(readers_tfrecord, feature_types_shapes_and_sources)
{
	const char *path = tl_tmp_path("a.tfrecord"), *idx = tl_tmp_path("a.idx");
	tl_buf_t recs[2];
	size_t sizes[2];
	for (int k = 0; k < 2; k++) {
		tl_buf_t ex = {0};
		char name[24];
		snprintf(name, sizeof name, "photo-%d", k);
		tl_tfex_bytes(&ex, "name", name, strlen(name));
		int64_t ints[3] = {k, -5, (int64_t)1 << 40};
		tl_tfex_int64s(&ex, "ints", ints, 3);
		float box[6] = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f};
		tl_tfex_floats(&ex, "box", box, k == 0 ? 6 : 2);
		recs[k] = tl_tfex_finish(&ex);
		sizes[k] = recs[k].n + 16;
		tl_buf_free(&ex);
	}
	tl_tfrecord_write(path, idx, recs, 2);
	dalic_pipeline_t *p = tl_pipeline(2);
	const char *names[] = {"name", "ints", "box", "ints"};
	const char *feats[] = {"FixedLenFeature([], string, '')", "FixedLenFeature([3], int64, 0)",
	                       "VarLenFeature([2], float32, 0.0)", "VarLenFeature(int64, 0)"};
	tfrecord_reader(p, 1, &path, &idx, 4, names, feats);
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *name = dalic_pipeline_output(p, 0), *ints = dalic_pipeline_output(p, 1),
	                    *box = dalic_pipeline_output(p, 2), *var = dalic_pipeline_output(p, 3);
	cr_expect_eq(dalic_batch_dtype(name), DALIC_UINT8);
	cr_expect_eq(dalic_batch_dtype(ints), DALIC_INT64);
	cr_expect_eq(dalic_batch_dtype(box), DALIC_FLOAT);
	tl_expect_shape(name, 0, 1, (int64_t[]){7});
	cr_expect_eq(memcmp(dalic_batch_data(name, 1), "photo-1", 7), 0);
	tl_expect_shape(ints, 1, 1, (int64_t[]){3});
	tl_expect_values(ints, 1, 3, (double[]){1, -5, 1099511627776.0});
	/* 6 floats with a partial shape [2]: [3, 2]; the second record's 2: [1, 2] */
	tl_expect_shape(box, 0, 2, (int64_t[]){3, 2});
	tl_expect_values(box, 0, 6, (double[]){0.5, 1.5, 2.5, 3.5, 4.5, 5.5});
	tl_expect_shape(box, 1, 2, (int64_t[]){1, 2});
	tl_expect_shape(var, 0, 1, (int64_t[]){3});
	/* DALI's source_info: "<path> at index <offset>" */
	char want[512];
	snprintf(want, sizeof want, "%s at index 0", path);
	cr_expect_str_eq(dalic_batch_source(box, 0), want);
	snprintf(want, sizeof want, "%s at index %zu", path, sizes[0]);
	cr_expect_str_eq(dalic_batch_source(name, 1), want);
	for (int k = 0; k < 2; k++)
		tl_buf_free(&recs[k]);
	dalic_pipeline_destroy(p);
}

Test(readers_tfrecord, missing_features_give_their_defaults)
{
	const char *path = tl_tmp_path("m.tfrecord"), *idx = tl_tmp_path("m.idx");
	tfrecord_labels(path, idx, 0, 1);
	dalic_pipeline_t *p = tl_pipeline(1);
	const char *names[] = {"fixed", "var", "text", "label"};
	const char *feats[] = {"FixedLenFeature([2, 2], float32, 2.5)",
	                       "VarLenFeature([3], int64, -7)", "FixedLenFeature([1], string, 'n/a')",
	                       "FixedLenFeature([], int64, 9)"};
	tfrecord_reader(p, 1, &path, &idx, 4, names, feats);
	ASSERT_OK(dalic_pipeline_run(p));
	tl_expect_shape(dalic_pipeline_output(p, 0), 0, 2, (int64_t[]){2, 2});
	tl_expect_values(dalic_pipeline_output(p, 0), 0, 4, (double[]){2.5, 2.5, 2.5, 2.5});
	tl_expect_shape(dalic_pipeline_output(p, 1), 0, 2, (int64_t[]){1, 3});
	tl_expect_values(dalic_pipeline_output(p, 1), 0, 3, (double[]){-7, -7, -7});
	tl_expect_shape(dalic_pipeline_output(p, 2), 0, 1, (int64_t[]){3});
	cr_expect_eq(memcmp(dalic_batch_data(dalic_pipeline_output(p, 2), 0), "n/a", 3), 0);
	/* a scalar FixedLenFeature is [1], and the present feature is read */
	tl_expect_shape(dalic_pipeline_output(p, 3), 0, 1, (int64_t[]){1});
	tl_expect_values(dalic_pipeline_output(p, 3), 0, 1, (double[]){0});
	dalic_pipeline_destroy(p);
}

/* Orders from DALI 2.4 on the same ten records (no whole-list shuffle for TFRecord). */
Test(readers_tfrecord, shuffle_and_shard_orders_match_dali)
{
	const char *path = tl_tmp_path("o.tfrecord"), *idx = tl_tmp_path("o.idx");
	tfrecord_labels(path, idx, 0, 10);
	dalic_pipeline_t *p = tl_pipeline(5);
	dalic_op_t *op = tfrecord_label_reader(p, 1, &path, &idx);
	ASSERT_OK(dalic_op_set_bool(op, "random_shuffle", true));
	ASSERT_OK(dalic_op_set_int(op, "initial_fill", 4));
	const int want[20] = {3, 0, 4, 2, 7, 6, 9, 5, 8, 1, 2, 1, 3, 4, 5, 8, 7, 0, 9, 6};
	tfrecord_expect_labels(p, 5, 4, want);
	dalic_pipeline_destroy(p);

	p = tl_pipeline(3);
	op = tfrecord_label_reader(p, 1, &path, &idx);
	ASSERT_OK(dalic_op_set_bool(op, "random_shuffle", true));
	ASSERT_OK(dalic_op_set_int(op, "initial_fill", 3));
	ASSERT_OK(dalic_op_set_int(op, "num_shards", 2));
	ASSERT_OK(dalic_op_set_int(op, "shard_id", 1));
	ASSERT_OK(dalic_op_set_int(op, "seed", 1234));
	const int want_shard[15] = {5, 8, 9, 7, 6, 0, 1, 3, 4, 2, 5, 7, 6, 8, 9};
	tfrecord_expect_labels(p, 3, 5, want_shard);
	dalic_reader_meta_t m;
	ASSERT_OK(dalic_pipeline_reader_meta(p, "Reader", &m));
	cr_expect_eq(m.epoch_size, 10);
	cr_expect_eq(m.number_of_shards, 2);
	cr_expect_eq(m.shard_id, 1);
	dalic_pipeline_destroy(p);
}

/* shuffle_after_epoch reorders the files (3, 3 and 4 records), each file's records in order:
 * the orders real DALI 2.4 gives. */
Test(readers_tfrecord, shuffle_after_epoch_reorders_files)
{
	const char *paths[3], *idx[3];
	for (int f = 0; f < 3; f++) {
		char name[32];
		snprintf(name, sizeof name, "e%d.tfrecord", f);
		paths[f] = strdup(tl_tmp_path(name));
		snprintf(name, sizeof name, "e%d.idx", f);
		idx[f] = strdup(tl_tmp_path(name));
		tfrecord_labels(paths[f], idx[f], 3 * f, f == 2 ? 4 : 3);
	}
	dalic_pipeline_t *p = tl_pipeline(5);
	dalic_op_t *op = tfrecord_label_reader(p, 3, paths, idx);
	ASSERT_OK(dalic_op_set_bool(op, "shuffle_after_epoch", true));
	const int want[40] = {0, 1, 2, 6, 7, 8, 9, 3, 4, 5, 6, 7, 8, 9, 3, 4, 5, 0, 1, 2,
	                      3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
	tfrecord_expect_labels(p, 5, 8, want);
	dalic_pipeline_destroy(p);

	p = tl_pipeline(5);
	op = tfrecord_label_reader(p, 3, paths, idx);
	ASSERT_OK(dalic_op_set_bool(op, "shuffle_after_epoch", true));
	ASSERT_OK(dalic_op_set_int(op, "shuffle_after_epoch_seed", 7));
	ASSERT_OK(dalic_op_set_int(op, "num_shards", 2));
	ASSERT_OK(dalic_op_set_int(op, "shard_id", 1));
	const int want_seed[30] = {2, 6, 7, 8, 9, 8, 9, 3, 4, 5, 2, 6, 7, 8, 9,
	                           1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5};
	tfrecord_expect_labels(p, 5, 6, want_seed);
	dalic_pipeline_destroy(p);
	for (int f = 0; f < 3; f++) {
		free((void *)paths[f]);
		free((void *)idx[f]);
	}
}

/* mmap, read(), read_ahead, prefetch_queue_depth and the table CRC give the same samples. */
Test(readers_tfrecord, read_modes_give_the_same_samples)
{
	setenv("DALIC_CRC32C_SOFTWARE", "1", 1);
	const char *path = tl_tmp_path("r.tfrecord"), *idx = tl_tmp_path("r.idx");
	tfrecord_labels(path, idx, 100, 7);
	const char *modes[][2] = {{NULL, NULL},           {"dont_use_mmap", NULL},
	                          {"read_ahead", NULL},   {"dont_use_mmap", "read_ahead"},
	                          {"prefetch", NULL}};
	for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
		dalic_pipeline_t *p = tl_pipeline(3);
		dalic_op_t *op = tfrecord_label_reader(p, 1, &path, &idx);
		for (int k = 0; k < 2 && modes[m][k]; k++) {
			if (!strcmp(modes[m][k], "prefetch"))
				ASSERT_OK(dalic_op_set_int(op, "prefetch_queue_depth", 4));
			else
				ASSERT_OK(dalic_op_set_bool(op, modes[m][k], true));
		}
		const int want[9] = {100, 101, 102, 103, 104, 105, 106, 100, 101};
		tfrecord_expect_labels(p, 3, 3, want);
		dalic_pipeline_destroy(p);
	}
}

/* Flips byte `at` of the file. */
static void tfrecord_flip(const char *path, long at)
{
	size_t n;
	uint8_t *b = tl_read_file(path, &n);
	cr_assert_lt((size_t)at, n);
	b[at] ^= 0x40;
	tl_write_file(path, b, n);
	free(b);
}

static const char *tfrecord_first_error(const char *path, const char *idx, bool no_mmap)
{
	dalic_pipeline_t *p = tl_pipeline(3);
	dalic_op_t *op = tfrecord_label_reader(p, 1, &path, &idx);
	ASSERT_OK(dalic_op_set_bool(op, "dont_use_mmap", no_mmap));
	static char msg[2048];
	snprintf(msg, sizeof msg, "%s", tl_run_fails(p, DALIC_EOP));
	dalic_pipeline_destroy(p);
	return msg;
}

Test(readers_tfrecord, corrupt_records_name_the_file_and_offset)
{
	const char *path = tl_tmp_path("c.tfrecord"), *idx = tl_tmp_path("c.idx");
	/* each record: 12 header + 18 payload (Example{label}) + 4 = 34 bytes */
	tfrecord_labels(path, idx, 0, 3);
	tfrecord_flip(path, 34 + 12 + 6); /* in the payload of the record at 34 */
	for (int m = 0; m < 2; m++) {
		const char *e = tfrecord_first_error(path, idx, m);
		EXPECT_HAS(e, "data CRC does not match");
		EXPECT_HAS(e, "offset 34 of");
		EXPECT_HAS(e, path);
		EXPECT_HAS(e, "sample 1,");
	}
	tfrecord_labels(path, idx, 0, 3);
	tfrecord_flip(path, 68 + 2); /* the length of the third record */
	EXPECT_HAS(tfrecord_first_error(path, idx, false), "length CRC does not match at offset 68");
	/* a file cut short: the index points past its end */
	tfrecord_labels(path, idx, 0, 3);
	size_t n;
	void *b = tl_read_file(path, &n);
	tl_write_file(path, b, n - 10);
	free(b);
	const char *e = tfrecord_first_error(path, idx, false);
	EXPECT_HAS(e, "bytes [68, 102) lie past the end");
	EXPECT_HAS(e, "92 bytes");
	/* an index of another file: the sizes disagree with the records */
	tfrecord_labels(path, NULL, 0, 3);
	tl_write_text(idx, "0 34\n34 40\n");
	EXPECT_HAS(tfrecord_first_error(path, idx, false), "index does not belong to this file");
}

/* The payload CRC is checked on a record's first delivery by a reader (DALI checks none):
 * corruption that appears later, while the reader runs, is caught where it breaks the
 * Example (as DALI's parse catches it) and by the next reader, not by a second CRC. Each
 * record: 12 header + 18 payload + 4 CRC bytes; payload byte 6 is the "l" of "label",
 * byte 1 the length of the Example's features. read() each time (dont_use_mmap). */
Test(readers_tfrecord, payload_crc_checked_on_first_delivery)
{
	const char *path = tl_tmp_path("v.tfrecord"), *idx = tl_tmp_path("v.idx");
	tfrecord_labels(path, idx, 0, 3);
	dalic_pipeline_t *p = tl_pipeline(3);
	dalic_op_t *op = tfrecord_label_reader(p, 1, &path, &idx);
	ASSERT_OK(dalic_op_set_bool(op, "dont_use_mmap", true));
	const int first[3] = {0, 1, 2};
	tfrecord_expect_labels(p, 3, 1, first);
	/* the key "label" becomes ",abel": a valid Example without the feature, whose CRC
	 * this reader checked in the first epoch; the default -1 comes out */
	tfrecord_flip(path, 34 + 12 + 6);
	const int second[3] = {0, -1, 2};
	tfrecord_expect_labels(p, 3, 1, second);
	/* a new reader checks every record again */
	EXPECT_HAS(tfrecord_first_error(path, idx, true), "data CRC does not match");
	/* the Example broken: the parse fails, and the failure reports the CRC */
	tfrecord_flip(path, 34 + 12 + 6);
	tfrecord_flip(path, 34 + 12 + 1);
	const char *e = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(e, "data CRC does not match in the record at offset 34");
	EXPECT_HAS(e, path);
	dalic_pipeline_destroy(p);
}

Test(readers_tfrecord, bad_index_files_and_arguments)
{
	const char *path = tl_tmp_path("i.tfrecord"), *idx = tl_tmp_path("i.idx");
	tfrecord_labels(path, idx, 0, 2);
	tl_write_text(idx, "0 34\n34 x34\n");
	dalic_pipeline_t *p = tl_pipeline(1);
	tfrecord_label_reader(p, 1, &path, &idx);
	ASSERT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("line 2: expected '<offset> <size>'");
	EXPECT_ERROR_HAS(idx);
	dalic_pipeline_destroy(p);

	tl_write_text(idx, "");
	p = tl_pipeline(1);
	tfrecord_label_reader(p, 1, &path, &idx);
	ASSERT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("Content of index files should not be empty");
	dalic_pipeline_destroy(p);

	const char *missing = tl_tmp_path("none.idx");
	p = tl_pipeline(1);
	tfrecord_label_reader(p, 1, &path, &missing);
	ASSERT_STATUS(dalic_pipeline_build(p), DALIC_EOP);
	EXPECT_ERROR_HAS("Failed to open file");
	EXPECT_ERROR_HAS("none.idx");
	dalic_pipeline_destroy(p);

	struct {
		const char *feature, *error;
	} bad[] = {
	    {"VarLenFeature(string, '')", "Tensors of strings are not supported"},
	    {"FixedLenFeature([2], string, '')", "Tensors of strings are not supported"},
	    {"FixedLenFeature(int64, 0)", "needs a shape first"},
	    {"FixedLenFeature([1], int32, 0)", "unknown feature type 'int32"},
	    {"FixedLenFeature([1], int64, 'x')", "needs a numeric default"},
	    {"FixedLenFeature([1], int64, 0.5)", "integer default"},
	    {"VarLenFeature([0], float32, 0)", "zero volume"},
	    {"Feature([1], int64, 0)", "is not FixedLenFeature"},
	};
	tfrecord_labels(path, idx, 0, 2);
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		p = tl_pipeline(1);
		const char *names[] = {"label"};
		tfrecord_reader(p, 1, &path, &idx, 1, names, &bad[k].feature);
		EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EOP, "%s", bad[k].feature);
		EXPECT_ERROR_HAS(bad[k].error);
		EXPECT_ERROR_HAS("feature 'label'");
		dalic_pipeline_destroy(p);
	}
}

Test(readers_tfrecord, feature_type_and_size_errors)
{
	const char *path = tl_tmp_path("t.tfrecord"), *idx = tl_tmp_path("t.idx");
	tfrecord_labels(path, idx, 5, 2);
	struct {
		const char *feature, *error;
	} bad[] = {
	    {"FixedLenFeature([1], float32, 0)", "feature 'label' holds an int64_list, the reader "
	                                         "asks for float32"},
	    {"FixedLenFeature([2], int64, 0)", "feature 'label' has 1 values; its FixedLenFeature "
	                                       "shape takes 2"},
	    {"VarLenFeature([2], int64, 0)", "Feature size not matching partial shape"},
	};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		dalic_pipeline_t *p = tl_pipeline(1);
		const char *names[] = {"label"};
		tfrecord_reader(p, 1, &path, &idx, 1, names, &bad[k].feature);
		const char *e = tl_run_fails(p, DALIC_EOP);
		EXPECT_HAS(e, bad[k].error);
		EXPECT_HAS(e, " at index 0'"); /* the sample's source */
		dalic_pipeline_destroy(p);
	}
}

Test(readers_tfrecord, index_command_writes_dalis_index)
{
	const char *path = tl_tmp_path("x.tfrecord"), *idx = tl_tmp_path("x.idx"),
	           *mine = tl_tmp_path("mine.idx");
	tfrecord_labels(path, idx, 0, 3);
	tl_cmd_t c = tl_dalic(NULL, "tfrecord-index %s %s", path, mine);
	cr_expect_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "3 records indexed");
	tl_cmd_free(&c);
	size_t n1, n2;
	char *a = tl_read_file(idx, &n1), *b = tl_read_file(mine, &n2);
	cr_expect_str_eq(b, "0 34\n34 34\n68 34\n");
	cr_expect_str_eq(a, b);
	free(a);
	free(b);
	/* a truncated last record is an error naming its offset, and no index is written */
	size_t n;
	void *data = tl_read_file(path, &n);
	tl_write_file(path, data, n - 3);
	free(data);
	remove(mine);
	c = tl_dalic(NULL, "tfrecord-index %s %s", path, mine);
	cr_expect_eq(c.status, 1);
	EXPECT_HAS(c.out, "truncated record at offset 68");
	cr_expect_null(tl_try_read_file(mine, &n), "an index was left behind");
	tl_cmd_free(&c);
	/* not a TFRecord file */
	tl_write_text(path, "this is not a TFRecord file at all");
	c = tl_dalic(NULL, "tfrecord-index %s %s", path, mine);
	cr_expect_eq(c.status, 1);
	EXPECT_HAS(c.out, "not a TFRecord record at offset 0");
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "tfrecord-index %s", path);
	cr_expect_eq(c.status, 2);
	EXPECT_HAS(c.out, "usage: dalic tfrecord-index");
	tl_cmd_free(&c);
}

/* A script with tfrec features: the outputs come back as a dict keyed by feature name; the
 * serialized pipeline holds DALI's "TFRecord" feature Arguments and runs the same. */
Test(readers_tfrecord, script_dict_and_protobuf_round_trip)
{
	const char *path = tl_tmp_path("s.tfrecord"), *idx = tl_tmp_path("s.idx");
	tfrecord_labels(path, idx, 40, 3);
	char script[2048];
	snprintf(script, sizeof script,
	         "from nvidia.dali import pipeline_def, fn\n"
	         "import nvidia.dali.tfrecord as tfrec\n"
	         "@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)\n"
	         "def p():\n"
	         "    out = fn.readers.tfrecord(path='%s', index_path='%s', features={\n"
	         "        'label': tfrec.FixedLenFeature([1], tfrec.int64, -1),\n"
	         "        'missing': tfrec.VarLenFeature([2], tfrec.float32, 0.25),\n"
	         "        'name': tfrec.FixedLenFeature((), tfrec.string, 'it\\'s')})\n"
	         "    return out['missing'], out['label'], out['name']\n"
	         "pipe = p()\n",
	         path, idx);
	const char *file = tl_write_temp("tfrec", ".py", script);
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_load(file, NULL, NULL, &p));
	ASSERT_OK(dalic_pipeline_run(p));
	tl_expect_shape(dalic_pipeline_output(p, 0), 1, 2, (int64_t[]){1, 2});
	tl_expect_values(dalic_pipeline_output(p, 0), 1, 2, (double[]){0.25, 0.25});
	tl_expect_values(dalic_pipeline_output(p, 1), 1, 1, (double[]){41});
	tl_expect_shape(dalic_pipeline_output(p, 2), 0, 1, (int64_t[]){4});
	cr_expect_eq(memcmp(dalic_batch_data(dalic_pipeline_output(p, 2), 0), "it's", 4), 0);
	void *buf;
	size_t len;
	ASSERT_OK(dalic_pipeline_serialize(p, &buf, &len));
	dalic_pipeline_destroy(p);
	/* DALI's form: "features" of type "TFRecord", one "TFRecord" element per feature */
	const char *needle = "\x12\x08TFRecord";
	int found = 0;
	for (size_t i = 0; i + 10 <= len; i++)
		found += !memcmp((const char *)buf + i, needle, 10);
	cr_expect_eq(found, 4, "the features argument and its 3 elements are TFRecord-typed");
	ASSERT_OK(dalic_pipeline_deserialize(buf, len, NULL, &p));
	ASSERT_OK(dalic_pipeline_run(p));
	tl_expect_shape(dalic_pipeline_output(p, 0), 0, 2, (int64_t[]){1, 2});
	tl_expect_values(dalic_pipeline_output(p, 1), 0, 1, (double[]){40});
	tl_expect_shape(dalic_pipeline_output(p, 2), 1, 1, (int64_t[]){4});
	dalic_pipeline_destroy(p);
	free(buf);
	remove(file);
}

Test(readers_tfrecord, script_feature_errors)
{
	static const struct {
		const char *features, *error;
	} bad[] = {
	    {"{'a': 3}", "Expected `nvidia.dali.tfrecord.Feature` for the \"a\", but got int"},
	    {"{'a': tfrec.FixedLenFeature([1], tfrec.int64, 'x')}",
	     "a default value of type str does not fit a int64 feature"},
	    {"{'a': tfrec.VarLenFeature(tfrec.float32)}", "takes ([partial_shape,] dtype"},
	    {"{'a': tfrec.FixedLenFeature(1, tfrec.int64, 0)}", "the shape must be a list of ints"},
	};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		char script[1024];
		snprintf(script, sizeof script,
		         "from nvidia.dali import pipeline_def, fn\n"
		         "import nvidia.dali.tfrecord as tfrec\n"
		         "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
		         "def p():\n"
		         "    out = fn.readers.tfrecord(path='x', index_path='y', features=%s)\n"
		         "    return out['a']\n"
		         "pipe = p()\n",
		         bad[k].features);
		const char *file = tl_write_temp("tfrec_bad", ".py", script);
		dalic_pipeline_t *p = NULL;
		cr_expect_neq(dalic_pipeline_load(file, NULL, NULL, &p), DALIC_OK, "%s",
		              bad[k].features);
		EXPECT_ERROR_HAS(bad[k].error);
		EXPECT_ERROR_HAS(":5:");
		dalic_pipeline_destroy(p);
		remove(file);
	}
}
