/*
 * readers.file through the public API: labels from sorted subdirectories, file_list parsing,
 * files/labels, filters, DALI's shard formulas, pad_last_batch, stick_to_shard, the
 * random_shuffle / shuffle_after_epoch orders, reader_meta, read modes, sources and errors.
 *
 * The expected random_shuffle orders were produced by a C++ replay of DALI's Loader::ReadOne and
 * FileLabelLoader (std::mt19937, std::shuffle, std::default_random_engine seeded with
 * std::seed_seq, std::uniform_int_distribution from GCC 12's libstdc++), so they pin dalic's
 * C reimplementation to what DALI built with GCC produces; the shuffle_after_epoch orders are
 * real DALI 2.4's outputs on the same tree.
 */
#include "tests/testlib.h"

#include <sys/stat.h>

/* Each test's temporary trees go away with the test. */
TestSuite(img_reader, .timeout = 30, .fini = tl_tmpdir_remove);

/* root/<dir>/f<k> for `ndirs` dirs of `nfiles` files; content "file <dir> <k>" + k bytes. */
static const char *img_reader_make_tree(int ndirs, int nfiles)
{
	static char root[320];
	static int trees;
	char name[32];
	snprintf(name, sizeof name, "tree%d", trees++);
	snprintf(root, sizeof root, "%s", tl_tmp_path(name));
	cr_assert_eq(mkdir(root, 0755), 0, "%s", root);
	for (int d = 0; d < ndirs; d++) {
		char dir[512];
		snprintf(dir, sizeof dir, "%s/%c", root, 'a' + d);
		cr_assert_eq(mkdir(dir, 0755), 0);
		for (int k = 0; k < nfiles; k++) {
			char path[600], text[64];
			snprintf(path, sizeof path, "%s/f%d", dir, k);
			int n = snprintf(text, sizeof text, "file %c %d", 'a' + d, k);
			cr_assert_lt(n + k, (int)sizeof text);
			for (int j = 0; j < k; j++)
				text[n++] = 'x';
			tl_write_file(path, text, (size_t)n);
		}
	}
	return root;
}

/* A reader with both outputs declared; filters accept every name. */
static dalic_op_t *img_reader_reader(dalic_pipeline_t *p, const char *root)
{
	dalic_op_t *op = tl_op(p, "readers.file");
	ASSERT_OK(dalic_op_set_name(op, "Reader"));
	if (root)
		ASSERT_OK(dalic_op_set_string(op, "file_root", root));
	const char *all[] = {"*"};
	ASSERT_OK(dalic_op_set_strings(op, "file_filters", 1, all));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, 0), NULL));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, 1), NULL));
	return op;
}

/* Index k of source "<dir>/f<k>". */
static int img_reader_file_index(const dalic_batch_t *b, int i)
{
	const char *s = dalic_batch_source(b, i);
	cr_assert_not_null(s, "sample %d has no source", i);
	const char *f = strrchr(s, 'f');
	cr_assert_not_null(f, "source %s", s);
	return atoi(f + 1);
}

/* Runs `batches` iterations and checks the file indices against `want`. */
static void img_reader_expect_order(dalic_pipeline_t *p, int batch, int batches, const int *want)
{
	for (int it = 0; it < batches; it++) {
		const dalic_batch_t *b = tl_run(p, 0);
		cr_assert_eq(dalic_batch_num_samples(b), batch);
		for (int i = 0; i < batch; i++)
			cr_expect_eq(img_reader_file_index(b, i), want[it * batch + i],
			             "iteration %d sample %d: file f%d, expected f%d", it, i,
			             img_reader_file_index(b, i), want[it * batch + i]);
	}
}

Test(img_reader, labels_from_sorted_subdirectories_and_bytes)
{
	dalic_pipeline_t *p = tl_pipeline(12);
	dalic_op_t *op = tl_op(p, "readers.file");
	ASSERT_OK(dalic_op_set_string(op, "file_root", "samples/images"));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, 0), NULL));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, 1), NULL));
	const char *names[12] = {"cat/chelsea.jpg", "cat/chelsea_411.jpg", "cat/chelsea_440.jpg",
				 "cat/chelsea_exif6.jpg", "cat/chelsea_gray.jpg",
				 "cat/chelsea_progressive.jpg", "coffee/coffee_422.jpg",
				 "coffee/coffee_444.jpg", "coffee/coffee_cup.png",
				 "space/astronaut_444_progressive.jpg", "space/rocket.jpg",
				 "space/rocket_gray_progressive.jpg"};
	const int labels[12] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2};
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *data = dalic_pipeline_output(p, 0), *lab = dalic_pipeline_output(p, 1);
	cr_expect_eq(dalic_batch_dtype(data), DALIC_UINT8);
	cr_expect_eq(dalic_batch_dtype(lab), DALIC_INT32);
	for (int i = 0; i < 12; i++) {
		cr_expect_str_eq(dalic_batch_source(data, i), names[i]);
		cr_expect_str_eq(dalic_batch_source(lab, i), names[i]);
		cr_expect_eq(dalic_batch_shape(lab, i)[0], 1);
		cr_expect_eq(*(const int32_t *)dalic_batch_data(lab, i), labels[i], "%s", names[i]);
		char path[256];
		snprintf(path, sizeof path, "samples/images/%s", names[i]);
		size_t size;
		uint8_t *want = tl_read_file(path, &size);
		cr_assert_eq(dalic_batch_shape(data, i)[0], (int64_t)size, "%s", names[i]);
		cr_expect_eq(memcmp(dalic_batch_data(data, i), want, size), 0, "%s", names[i]);
		free(want);
	}
	dalic_pipeline_destroy(p);
}

/* 10 files, 3 shards: start(id) = floor(10 * id / 3) = 0, 3, 6 -> sizes 3, 3, 4. */
Test(img_reader, shard_sizes_follow_dali_formula)
{
	const char *root = img_reader_make_tree(1, 10);
	const int want[3][8] = {{0, 1, 2, 0, 1, 2, 0, 1},
				{3, 4, 5, 3, 4, 5, 3, 4},
				{6, 7, 8, 9, 6, 7, 8, 9}};
	for (int id = 0; id < 3; id++) {
		dalic_pipeline_t *p = tl_pipeline(1);
		dalic_op_t *op = img_reader_reader(p, root);
		ASSERT_OK(dalic_op_set_int(op, "num_shards", 3));
		ASSERT_OK(dalic_op_set_int(op, "shard_id", id));
		ASSERT_OK(dalic_op_set_bool(op, "stick_to_shard", true));
		img_reader_expect_order(p, 1, 8, want[id]);
		dalic_reader_meta_t m;
		ASSERT_OK(dalic_pipeline_reader_meta(p, "Reader", &m));
		cr_expect_eq(m.epoch_size, 10);
		cr_expect_eq(m.epoch_size_padded, 10);
		cr_expect_eq(m.number_of_shards, 3);
		cr_expect_eq(m.shard_id, id);
		cr_expect(m.stick_to_shard);
		cr_expect(!m.pad_last_batch);
		dalic_pipeline_destroy(p);
	}
}

Test(img_reader, pad_last_batch_repeats_last_sample_and_pads_epoch)
{
	const char *root = img_reader_make_tree(1, 10);
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *op = img_reader_reader(p, root);
	ASSERT_OK(dalic_op_set_int(op, "num_shards", 3));
	ASSERT_OK(dalic_op_set_bool(op, "pad_last_batch", true));
	/* Shard 0 (3 files) is padded to ceil(10/3) = 4 samples, then the reader moves on to
	 * shard 1 (3 files, padded), then shard 2 (4 files). */
	const int want[16] = {0, 1, 2, 2, 3, 4, 5, 5, 6, 7, 8, 9, 0, 1, 2, 2};
	img_reader_expect_order(p, 2, 8, want);
	dalic_reader_meta_t m;
	ASSERT_OK(dalic_pipeline_reader_meta(p, "Reader", &m));
	cr_expect_eq(m.epoch_size, 10);
	cr_expect_eq(m.epoch_size_padded, 12);
	cr_expect(m.pad_last_batch);
	dalic_pipeline_destroy(p);
}

Test(img_reader, without_stick_to_shard_the_reader_moves_through_shards)
{
	const char *root = img_reader_make_tree(1, 10);
	dalic_pipeline_t *p = tl_pipeline(4);
	dalic_op_t *op = img_reader_reader(p, root);
	ASSERT_OK(dalic_op_set_int(op, "num_shards", 3));
	ASSERT_OK(dalic_op_set_int(op, "shard_id", 2));
	const int want[16] = {6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1};
	img_reader_expect_order(p, 4, 4, want);
	dalic_pipeline_destroy(p);
}

Test(img_reader, random_shuffle_orders_match_dali)
{
	const char *root = img_reader_make_tree(1, 10);
	struct {
		int fill, seed, shards, shard, batch, batches;
		int want[20];
	} cases[] = {
		/* initial_fill 1: only the mt19937(524287) shuffle of the list */
		{1, 7, 1, 0, 5, 4, {5, 9, 1, 6, 7, 2, 0, 4, 8, 3, 5, 9, 1, 6, 7, 2, 0, 4, 8, 3}},
		{4, 42, 1, 0, 5, 4, {6, 5, 7, 9, 4, 2, 0, 1, 3, 8, 6, 5, 1, 2, 9, 7, 8, 3, 4, 0}},
		{3, 1234, 2, 1, 3, 5, {2, 8, 3, 4, 0, 5, 9, 6, 7, 1, 2, 4, 0, 8, 3}},
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		dalic_pipeline_t *p = tl_pipeline(cases[c].batch);
		dalic_op_t *op = img_reader_reader(p, root);
		ASSERT_OK(dalic_op_set_bool(op, "random_shuffle", true));
		ASSERT_OK(dalic_op_set_int(op, "initial_fill", cases[c].fill));
		ASSERT_OK(dalic_op_set_int(op, "seed", cases[c].seed));
		ASSERT_OK(dalic_op_set_int(op, "num_shards", cases[c].shards));
		ASSERT_OK(dalic_op_set_int(op, "shard_id", cases[c].shard));
		img_reader_expect_order(p, cases[c].batch, cases[c].batches, cases[c].want);
		dalic_pipeline_destroy(p);
	}
}

Test(img_reader, shuffle_after_epoch_reshuffles_every_epoch)
{
	const char *root = img_reader_make_tree(1, 10);
	dalic_pipeline_t *p = tl_pipeline(5);
	dalic_op_t *op = img_reader_reader(p, root);
	ASSERT_OK(dalic_op_set_bool(op, "shuffle_after_epoch", true));
	/* DALI 2.4: mt19937_64(524287 + (epoch << 32)) reshuffles the list cumulatively */
	const int want[20] = {9, 6, 0, 5, 4, 2, 8, 1, 7, 3, 7, 1, 4, 5, 8, 6, 0, 2, 3, 9};
	img_reader_expect_order(p, 5, 4, want);
	dalic_reader_meta_t m;
	ASSERT_OK(dalic_pipeline_reader_meta(p, "Reader", &m));
	cr_expect(m.stick_to_shard, "shuffle_after_epoch implies stick_to_shard");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(3);
	op = img_reader_reader(p, root);
	ASSERT_OK(dalic_op_set_bool(op, "shuffle_after_epoch", true));
	ASSERT_OK(dalic_op_set_int(op, "num_shards", 3));
	ASSERT_OK(dalic_op_set_int(op, "shard_id", 1));
	const int want_shard[12] = {5, 4, 2, 5, 8, 6, 8, 3, 1, 2, 3, 4};
	img_reader_expect_order(p, 3, 4, want_shard);
	dalic_pipeline_destroy(p);
}

Test(img_reader, file_list_parsing)
{
	const char *root = img_reader_make_tree(2, 3);
	char list[600];
	snprintf(list, sizeof list, "%s/list.txt", root);
	/* Labels are read from the end; names are relative to the list's directory; empty
	 * lines are skipped; trailing spaces are ignored. */
	tl_write_text(list, "b/f2 7\n\n   \na/f0\t3  \na/f1 12\n");
	dalic_pipeline_t *p = tl_pipeline(3);
	dalic_op_t *op = img_reader_reader(p, NULL);
	ASSERT_OK(dalic_op_set_string(op, "file_list", list));
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *data = dalic_pipeline_output(p, 0), *lab = dalic_pipeline_output(p, 1);
	const char *src[3] = {"b/f2", "a/f0", "a/f1"};
	const int labels[3] = {7, 3, 12};
	const char *content[3] = {"file b 2xx", "file a 0", "file a 1x"};
	for (int i = 0; i < 3; i++) {
		cr_expect_str_eq(dalic_batch_source(data, i), src[i]);
		cr_expect_eq(*(const int32_t *)dalic_batch_data(lab, i), labels[i]);
		cr_assert_eq(dalic_batch_shape(data, i)[0], (int64_t)strlen(content[i]));
		cr_expect_eq(memcmp(dalic_batch_data(data, i), content[i], strlen(content[i])), 0);
	}
	dalic_pipeline_destroy(p);

	tl_write_text(list, "a/f0 1\njust_a_name\n");
	p = tl_pipeline(1);
	op = img_reader_reader(p, NULL);
	ASSERT_OK(dalic_op_set_string(op, "file_list", list));
	cr_expect_neq(dalic_pipeline_build(p), DALIC_OK);
	EXPECT_ERROR_HAS("Incorrect format of the list file");
	EXPECT_ERROR_HAS(":2", "names the line");
	dalic_pipeline_destroy(p);
}

Test(img_reader, files_and_labels)
{
	const char *root = img_reader_make_tree(1, 3);
	const char *files[3] = {"a/f2", "a/f0", "a/f1"};
	dalic_pipeline_t *p = tl_pipeline(3);
	dalic_op_t *op = img_reader_reader(p, root);
	ASSERT_OK(dalic_op_set_strings(op, "files", 3, files));
	const int64_t labels[3] = {40, 50, 60};
	ASSERT_OK(dalic_op_set_ints(op, "labels", 3, labels));
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *lab = dalic_pipeline_output(p, 1);
	for (int i = 0; i < 3; i++) {
		cr_expect_str_eq(dalic_batch_source(lab, i), files[i]);
		cr_expect_eq(*(const int32_t *)dalic_batch_data(lab, i), labels[i]);
	}
	dalic_pipeline_destroy(p);

	/* Without labels, a file's label is its index in `files`. */
	p = tl_pipeline(3);
	op = img_reader_reader(p, root);
	ASSERT_OK(dalic_op_set_strings(op, "files", 3, files));
	lab = tl_run(p, 1);
	for (int i = 0; i < 3; i++)
		cr_expect_eq(*(const int32_t *)dalic_batch_data(lab, i), i);
	dalic_pipeline_destroy(p);

	p = tl_pipeline(3);
	op = img_reader_reader(p, root);
	ASSERT_OK(dalic_op_set_strings(op, "files", 3, files));
	ASSERT_OK(dalic_op_set_ints(op, "labels", 2, labels));
	cr_expect_neq(dalic_pipeline_build(p), DALIC_OK);
	EXPECT_ERROR_HAS("Provided 2 labels for 3 files.");
	dalic_pipeline_destroy(p);
}

Test(img_reader, argument_conflicts_use_dali_messages)
{
	struct {
		const char *arg;
		const char *msg;
	} cases[] = {
		{NULL, "``file_root`` argument is required"},
		{"shuffle_after_epoch+stick_to_shard",
		 "shuffle_after_epoch and stick_to_shard cannot be both true"},
		{"shuffle_after_epoch+random_shuffle",
		 "shuffle_after_epoch and random_shuffle cannot be both true"},
		{"shard_id", "num_shards needs to be greater than shard_id"},
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		dalic_pipeline_t *p = tl_pipeline(1);
		dalic_op_t *op = img_reader_reader(p, c == 0 ? NULL : "samples/images");
		if (c == 1 || c == 2)
			ASSERT_OK(dalic_op_set_bool(op, "shuffle_after_epoch", true));
		if (c == 1)
			ASSERT_OK(dalic_op_set_bool(op, "stick_to_shard", true));
		if (c == 2)
			ASSERT_OK(dalic_op_set_bool(op, "random_shuffle", true));
		if (c == 3)
			ASSERT_OK(dalic_op_set_int(op, "shard_id", 1));
		cr_expect_neq(dalic_pipeline_build(p), DALIC_OK, "case %zu", c);
		EXPECT_ERROR_HAS(cases[c].msg, "case %zu", c);
		dalic_pipeline_destroy(p);
	}
}

Test(img_reader, file_and_dir_filters)
{
	const char *root = img_reader_make_tree(3, 2);
	char path[600];
	snprintf(path, sizeof path, "%s/a/UPPER.JPG", root);
	tl_write_text(path, "u");
	snprintf(path, sizeof path, "%s/c/lower.jpg", root);
	tl_write_text(path, "l");
	/* Default: case-insensitive, so both match '*.jpg'; dir_filters keeps a and c, whose
	 * labels are then 0 and 1. */
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *op = tl_op(p, "readers.file");
	ASSERT_OK(dalic_op_set_string(op, "file_root", root));
	const char *jpg[] = {"*.jpg"}, *dirs[] = {"a", "c"};
	ASSERT_OK(dalic_op_set_strings(op, "file_filters", 1, jpg));
	ASSERT_OK(dalic_op_set_strings(op, "dir_filters", 2, dirs));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, 1), NULL));
	const dalic_batch_t *lab = tl_run(p, 0);
	cr_expect_str_eq(dalic_batch_source(lab, 0), "a/UPPER.JPG");
	cr_expect_str_eq(dalic_batch_source(lab, 1), "c/lower.jpg");
	cr_expect_eq(*(const int32_t *)dalic_batch_data(lab, 0), 0);
	cr_expect_eq(*(const int32_t *)dalic_batch_data(lab, 1), 1);
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = tl_op(p, "readers.file");
	ASSERT_OK(dalic_op_set_name(op, "R"));
	ASSERT_OK(dalic_op_set_string(op, "file_root", root));
	ASSERT_OK(dalic_op_set_strings(op, "file_filters", 1, jpg));
	ASSERT_OK(dalic_op_set_bool(op, "case_sensitive_filter", true));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(op, 1), NULL));
	lab = tl_run(p, 0);
	cr_expect_str_eq(dalic_batch_source(lab, 0), "c/lower.jpg");
	dalic_reader_meta_t m;
	ASSERT_OK(dalic_pipeline_reader_meta(p, "R", &m));
	cr_expect_eq(m.epoch_size, 1);
	dalic_pipeline_destroy(p);
}

Test(img_reader, read_modes_return_the_same_bytes)
{
	const char *root = img_reader_make_tree(2, 4);
	const char *modes[4][2] = {{NULL, NULL},
				   {"dont_use_mmap", NULL},
				   {"read_ahead", NULL},
				   {"read_ahead", "dont_use_mmap"}};
	for (int m = 0; m < 4; m++) {
		dalic_pipeline_t *p = tl_pipeline(8);
		dalic_op_t *op = img_reader_reader(p, root);
		for (int k = 0; k < 2; k++)
			if (modes[m][k])
				ASSERT_OK(dalic_op_set_bool(op, modes[m][k], true));
		for (int it = 0; it < 2; it++) { /* the second pass reads read_ahead's copies */
			const dalic_batch_t *b = tl_run(p, 0);
			for (int i = 0; i < 8; i++) {
				char want[32];
				int n = snprintf(want, sizeof want, "file %c %d", 'a' + i / 4, i % 4);
				for (int j = 0; j < i % 4; j++)
					want[n++] = 'x';
				cr_assert_eq(dalic_batch_shape(b, i)[0], n, "mode %d sample %d", m, i);
				cr_expect_eq(memcmp(dalic_batch_data(b, i), want, (size_t)n), 0,
					     "mode %d sample %d", m, i);
			}
		}
		dalic_pipeline_destroy(p);
	}
}

Test(img_reader, missing_file_error_names_the_file)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *op = img_reader_reader(p, "samples/images");
	const char *files[] = {"cat/no_such_file.jpg"};
	ASSERT_OK(dalic_op_set_strings(op, "files", 1, files));
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "cat/no_such_file.jpg");
	EXPECT_HAS(msg, "Reader", "names the operator");
	dalic_pipeline_destroy(p);

	p = tl_pipeline(1);
	op = img_reader_reader(p, tl_tmpdir()); /* not /tmp: other tests change it meanwhile */
	const char *none[] = {"*.definitely_no_such_extension"};
	ASSERT_OK(dalic_op_set_strings(op, "file_filters", 1, none));
	cr_expect_neq(dalic_pipeline_build(p), DALIC_OK);
	EXPECT_ERROR_HAS("No files found.");
	dalic_pipeline_destroy(p);
}
