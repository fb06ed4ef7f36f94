/*
 * The data scan (issue 20, dalic_pipeline_make_scan): a training pipeline turned into "read and
 * decode every file once"; every file that warns or fails is in the warnings log, the rest
 * is not, and a refused file does not stop the scan (it would stop the pipeline itself).
 */
#include "tests/testlib.h"
#include "tests/testlib/damage.h"

#include <sys/stat.h>

TestSuite(img_scan, .timeout = 60, .fini = tl_tmpdir_remove);

/* Files of the damaged set and what a scan must say of each. */
static const struct {
	const char *file;
	const char *says; /* NULL: nothing; else a piece of the message */
	bool error;
} scan_files[] = {
    {"arith.jpg", NULL, false},
    {"arith_flip3.jpg", "bad arithmetic code", false},
    {"chelsea_trunc30.jpg", "premature end of JPEG data", true},
    {"cmyk.jpg", NULL, false},
    {"gray_flip1.jpg", "3 extraneous bytes before marker 0xd9", false},
    {"marker_garbage.jpg", "stray bytes where a marker belongs", true},
    {"png_no_iend.png", "the file ends before its IEND chunk", true},
    {"png_rgb.png", NULL, false},
};
#define SCAN_N ((int)(sizeof scan_files / sizeof scan_files[0]))

/* A folder "data/a/" holding the files above, copied from the damaged set. */
static const char *scan_folder(void)
{
	const char *set = tl_tmp_path("set");
	cr_assert_eq(mkdir(set, 0755), 0);
	cr_assert_gt(tl_damage_write_set("samples/images", set), 0);
	const char *names[SCAN_N];
	char buf[SCAN_N][128];
	for (int i = 0; i < SCAN_N; i++) {
		snprintf(buf[i], sizeof buf[i], "a/%s", scan_files[i].file);
		names[i] = buf[i];
	}
	const char *data = tl_tmp_path("data");
	cr_assert_eq(mkdir(data, 0755), 0);
	cr_assert_eq(tl_damage_pick(set, data, SCAN_N, names), 0);
	return data;
}

/* The ResNet-style training pipeline: shuffled reader, random-crop decode, resize. */
static dalic_pipeline_t *scan_training(const char *root, int batch)
{
	dalic_pipeline_t *p = tl_pipeline(batch);
	dalic_op_t *rd = tl_op(p, "readers.file");
	ASSERT_OK(dalic_op_set_name(rd, "reader"));
	ASSERT_OK(dalic_op_set_string(rd, "file_root", root));
	ASSERT_OK(dalic_op_set_bool(rd, "random_shuffle", true));
	dalic_op_t *dec = tl_op(p, "decoders.image_random_crop");
	ASSERT_OK(dalic_op_set_name(dec, "decode"));
	tl_input(dec, dalic_op_output(rd, 0));
	dalic_op_t *rs = tl_op(p, "resize");
	tl_input(rs, dalic_op_output(dec, 0));
	ASSERT_OK(dalic_op_set_float(rs, "resize_x", 64));
	ASSERT_OK(dalic_op_set_float(rs, "resize_y", 64));
	tl_output(p, rs);
	return p;
}

static int scan_index(const char *source)
{
	const char *base = strrchr(source, '/');
	base = base ? base + 1 : source;
	for (int i = 0; i < SCAN_N; i++)
		if (!strcmp(scan_files[i].file, base))
			return i;
	return -1;
}

Test(img_scan, lists_exactly_the_files_that_warn_or_fail)
{
	const char *root = scan_folder();
	/* the pipeline itself stops at the first refused file, as DALI does */
	dalic_pipeline_t *p = scan_training(root, 4);
	ASSERT_OK(dalic_pipeline_build(p));
	int rc = DALIC_OK;
	for (int it = 0; it < 2 && !rc; it++)
		rc = dalic_pipeline_run(p);
	cr_expect_neq(rc, DALIC_OK, "the training pipeline should stop on a truncated file");
	dalic_pipeline_destroy(p);

	p = scan_training(root, 4);
	ASSERT_OK(dalic_pipeline_make_scan(p));
	ASSERT_OK(dalic_pipeline_build(p));
	cr_expect_eq(dalic_pipeline_num_outputs(p), 1, "only the decoder's output remains");
	dalic_reader_meta_t meta;
	ASSERT_OK(dalic_pipeline_reader_meta(p, "reader", &meta));
	cr_assert_eq(meta.epoch_size, SCAN_N);
	int seen[SCAN_N] = {0};
	for (int it = 0; it < SCAN_N / 4; it++) {
		const dalic_batch_t *b = tl_run(p, 0);
		for (int s = 0; s < 4; s++) {
			cr_expect_eq(dalic_batch_shape(b, s)[0], 0, "a scan keeps no pixels");
			int k = scan_index(dalic_batch_source(b, s));
			cr_assert_geq(k, 0, "unknown source %s", dalic_batch_source(b, s));
			cr_expect_eq(k, it * 4 + s, "a scan reads in order (no shuffling)");
		}
	}
	for (int64_t i = 0; i < dalic_pipeline_num_warnings(p); i++) {
		dalic_warning_t w;
		ASSERT_OK(dalic_pipeline_warning(p, i, &w));
		int k = scan_index(w.source);
		cr_assert_geq(k, 0, "unknown source %s", w.source);
		seen[k]++;
		cr_expect_str_eq(w.op, "decode_scan");
		if (!scan_files[k].says) {
			cr_expect_fail("%s is clean, yet: %s", w.source, w.message);
			continue;
		}
		cr_expect_eq(w.error, scan_files[k].error, "%s: %s", w.source, w.message);
		cr_expect_eq(w.iteration, k / 4);
		cr_expect_eq(w.sample, k % 4);
	}
	for (int k = 0; k < SCAN_N; k++) {
		if (!scan_files[k].says)
			continue;
		cr_expect_geq(seen[k], 1, "%s is not in the scan", scan_files[k].file);
		bool found = false;
		for (int64_t i = 0; i < dalic_pipeline_num_warnings(p); i++) {
			dalic_warning_t w;
			ASSERT_OK(dalic_pipeline_warning(p, i, &w));
			found |= scan_index(w.source) == k && strstr(w.message, scan_files[k].says);
		}
		cr_expect(found, "%s: no entry says '%s'", scan_files[k].file, scan_files[k].says);
	}
	dalic_pipeline_destroy(p);
}

Test(img_scan, needs_a_decoder_and_an_unbuilt_pipeline)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *rd = tl_op(p, "readers.file");
	ASSERT_OK(dalic_op_set_string(rd, "file_root", "samples/images"));
	tl_output(p, rd);
	EXPECT_STATUS(dalic_pipeline_make_scan(p), DALIC_EINVAL);
	EXPECT_HAS(dalic_last_error(), "no image decoder");
	dalic_pipeline_destroy(p);

	p = scan_training("samples/images", 2);
	ASSERT_OK(dalic_pipeline_build(p));
	EXPECT_STATUS(dalic_pipeline_make_scan(p), DALIC_ESTATE);
	dalic_pipeline_destroy(p);
}
