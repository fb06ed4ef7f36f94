/*
 * The decoders' warnings (issue 20): what libjpeg or libpng warns about in a file it still
 * decodes — as DALI keeps such images — lands in the pipeline's warnings log, one entry per
 * sample and distinct message, naming the operator, iteration, sample and file; clean files
 * give none. The files come from the damaged set (tests/testlib/damage.c); the messages are
 * libjpeg's and libpng's own.
 */
#include "tests/testlib.h"
#include "tests/testlib/damage.h"

#include <sys/stat.h>

TestSuite(img_warnings, .timeout = 60, .fini = tl_tmpdir_remove);

/* The damaged set in a temporary folder (made once per process). */
static const char *imgw_set(void)
{
	static char dir[512];
	if (!dir[0]) {
		snprintf(dir, sizeof dir, "%s", tl_tmp_path("set"));
		cr_assert_eq(mkdir(dir, 0755), 0);
		cr_assert_gt(tl_damage_write_set("samples/images", dir), 0);
	}
	return dir;
}

/* readers.file over `files` of the set -> `decoder` (RGB), one batch of all of them. */
static dalic_pipeline_t *imgw_pipeline(int n, const char **files, const char *decoder)
{
	dalic_pipeline_t *p = tl_pipeline(n);
	dalic_op_t *rd = tl_op(p, "readers.file");
	ASSERT_OK(dalic_op_set_string(rd, "file_root", imgw_set()));
	ASSERT_OK(dalic_op_set_strings(rd, "files", n, files));
	dalic_op_t *dec = tl_op(p, decoder);
	ASSERT_OK(dalic_op_set_name(dec, "dec"));
	tl_input(dec, dalic_op_output(rd, 0));
	tl_output(p, dec);
	ASSERT_OK(dalic_pipeline_build(p));
	return p;
}

static dalic_warning_t imgw_get(const dalic_pipeline_t *p, int64_t i)
{
	dalic_warning_t w;
	ASSERT_OK(dalic_pipeline_warning(p, i, &w));
	return w;
}

static void imgw_expect(const dalic_warning_t *w, int64_t iteration, int sample,
                        const char *source, const char *message)
{
	cr_expect_str_eq(w->op, "dec");
	cr_expect_str_eq(w->schema, "decoders__Image");
	cr_expect_eq(w->iteration, iteration);
	cr_expect_eq(w->sample, sample);
	cr_expect_str_eq(w->source, source);
	cr_expect_eq(w->record, -1);
	cr_expect_str_eq(w->message, message);
	cr_expect_eq(w->repeats, 1);
	cr_expect(!w->error, "a decoded sample is a warning, not an error");
}

Test(img_warnings, damaged_files_decode_and_each_warning_is_logged)
{
	const char *files[] = {"arith.jpg", "arith_flip3.jpg", "png_bad_srgb.png", "gray_flip1.jpg"};
	dalic_pipeline_t *p = imgw_pipeline(4, files, "decoders.image");
	const dalic_batch_t *b = tl_run(p, 0);
	static const int64_t chelsea[3] = {300, 451, 3};
	tl_expect_shape(b, 1, 3, chelsea); /* decoded anyway, as in DALI */
	cr_assert_eq(dalic_pipeline_num_warnings(p), 4);
	/* samples run on pool workers: order the entries by sample, then as they came */
	dalic_warning_t w[4];
	int k = 0;
	for (int s = 0; s < 4; s++)
		for (int64_t i = 0; i < 4; i++)
			if (imgw_get(p, i).sample == s)
				w[k++] = imgw_get(p, i);
	cr_assert_eq(k, 4);
	imgw_expect(&w[0], 0, 1, "arith_flip3.jpg", "Corrupt JPEG data: bad arithmetic code");
	imgw_expect(&w[1], 0, 1, "arith_flip3.jpg",
	            "Corrupt JPEG data: 15290 extraneous bytes before marker 0xd9");
	imgw_expect(&w[2], 0, 2, "png_bad_srgb.png",
	            "sRGB: profile 'sRGB': 9h: invalid sRGB rendering intent");
	imgw_expect(&w[3], 0, 3, "gray_flip1.jpg",
	            "Corrupt JPEG data: 3 extraneous bytes before marker 0xd9");
	cr_expect_eq(dalic_pipeline_warnings_dropped(p), 0);

	/* the next iteration reads the same files: its warnings are added, with its number */
	tl_run(p, 0);
	cr_assert_eq(dalic_pipeline_num_warnings(p), 8);
	for (int64_t i = 4; i < 8; i++)
		cr_expect_eq(imgw_get(p, i).iteration, 1);

	dalic_pipeline_clear_warnings(p);
	cr_expect_eq(dalic_pipeline_num_warnings(p), 0);
	dalic_warning_t none;
	cr_expect_eq(dalic_pipeline_warning(p, 0, &none), DALIC_EINVAL);
	EXPECT_HAS(dalic_last_error(), "out of range");
	dalic_pipeline_destroy(p);
}

Test(img_warnings, clean_files_give_none)
{
	const char *files[] = {"arith.jpg", "png_rgb.png", "cmyk.jpg", "marker_sof1.jpg"};
	dalic_pipeline_t *p = imgw_pipeline(4, files, "decoders.image");
	tl_run(p, 0);
	cr_expect_eq(dalic_pipeline_num_warnings(p), 0);
	dalic_pipeline_destroy(p);
}

Test(img_warnings, windowed_decoders_log_too)
{
	const char *files[] = {"marker_height556.jpg"};
	dalic_pipeline_t *p = imgw_pipeline(1, files, "decoders.image_random_crop");
	tl_run(p, 0);
	cr_assert_geq(dalic_pipeline_num_warnings(p), 1);
	dalic_warning_t w = imgw_get(p, 0);
	cr_expect_str_eq(w.schema, "decoders__ImageRandomCrop");
	cr_expect_str_eq(w.source, "marker_height556.jpg");
	EXPECT_HAS(w.message, "Corrupt JPEG data");
	dalic_pipeline_destroy(p);
}
