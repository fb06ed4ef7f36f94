/*
 * `dalic scan` / `dalic run --scan` and `dalic run`'s warnings (issue 20), driven through the
 * binary on folders of files from the damaged set (tests/testlib/damage.c).
 */
#include "tests/testlib.h"
#include "tests/testlib/damage.h"

#include <cjson/cJSON.h>
#include <sys/stat.h>

TestSuite(cli_scan, .timeout = 120, .fini = tl_tmpdir_remove);

/* A folder of `n` files of the damaged set and a training pipeline script reading it (a
 * shuffled readers.file, `decoder`, resize); returns the script's path. */
static const char *cscan_setup(int n, const char *const *files, const char *decoder)
{
	const char *set = tl_tmp_path("set");
	cr_assert_eq(mkdir(set, 0755), 0);
	cr_assert_gt(tl_damage_write_set("samples/images", set), 0);
	char data[512];
	snprintf(data, sizeof data, "%s", tl_tmp_path("data"));
	cr_assert_eq(mkdir(data, 0755), 0);
	cr_assert_eq(tl_damage_pick(set, data, n, files), 0);
	char script[2048];
	snprintf(script, sizeof script,
	         "from nvidia.dali import pipeline_def\n"
	         "import nvidia.dali.fn as fn\n"
	         "@pipeline_def\n"
	         "def scanned():\n"
	         "    jpegs, labels = fn.readers.file(file_root='%s', random_shuffle=True)\n"
	         "    images = fn.decoders.%s(jpegs)\n"
	         "    return fn.resize(images, resize_x=64, resize_y=64), labels\n"
	         "pipe = scanned(batch_size=3, num_threads=2, device_id=None, seed=3)\n",
	         data, decoder);
	const char *path = tl_tmp_path("pipe.py");
	tl_write_text(path, script);
	return path;
}

static const char *const cscan_files[] = {
    "a/arith.jpg",          "a/arith_flip3.jpg", "a/chelsea_trunc30.jpg", "a/gray_flip1.jpg",
    "b/marker_garbage.jpg", "b/png_rgb.png",     "b/png_no_iend.png",
};

Test(cli_scan, text_report_lists_the_bad_files_and_exits_3)
{
	const char *script = cscan_setup(7, cscan_files, "image_random_crop");
	tl_cmd_t c = tl_dalic(NULL, "scan %s 2>&1", script);
	cr_expect_eq(c.status, 3, "%s", c.out);
	EXPECT_HAS(c.out, "files: 7\n");
	EXPECT_HAS(c.out, "files_with_warnings: 2\n");
	EXPECT_HAS(c.out, "files_refused: 3\n");
	/* one epoch in order: a/ first (sorted), batch 3 */
	EXPECT_HAS(c.out, "warning iteration 0 sample 1 a/arith_flip3.jpg: "
	                  "__ImageRandomCrop_1_scan: Corrupt JPEG data: bad arithmetic code\n");
	EXPECT_HAS(c.out, "error   iteration 0 sample 2 a/chelsea_trunc30.jpg: "
	                  "__ImageRandomCrop_1_scan: cannot decode JPEG image: premature end");
	EXPECT_HAS(c.out, "warning iteration 1 sample 0 a/gray_flip1.jpg: ");
	EXPECT_HAS(c.out, "error   iteration 1 sample 1 b/marker_garbage.jpg: ");
	EXPECT_HAS(c.out, "error   iteration 1 sample 2 b/png_no_iend.png: ");
	cr_expect_null(strstr(c.out, "a/arith.jpg"), "%s", c.out);
	cr_expect_null(strstr(c.out, "png_rgb.png"), "%s", c.out);
	/* the last batch (png_rgb.png) wraps into the next epoch: arith_flip3.jpg again as its
	 * sample 2, not reported twice */
	cr_expect_null(strstr(c.out, "iteration 2"), "%s", c.out);
	tl_cmd_free(&c);
}

Test(cli_scan, json_report_and_run_scan_alias)
{
	const char *script = cscan_setup(7, cscan_files, "image");
	tl_cmd_t c = tl_dalic(NULL, "run %s --scan --json 2>/dev/null", script);
	cr_expect_eq(c.status, 3, "%s", c.out);
	cJSON *doc = cJSON_Parse(c.out);
	cr_assert_not_null(doc, "not JSON: %s", c.out);
	cr_expect_eq(cJSON_GetObjectItem(doc, "files")->valueint, 7);
	cr_expect_eq(cJSON_GetObjectItem(doc, "files_refused")->valueint, 3);
	cr_expect_eq(cJSON_GetObjectItem(doc, "files_with_warnings")->valueint, 2);
	cJSON *w = cJSON_GetObjectItem(doc, "warnings");
	int errors = 0;
	for (int i = 0; i < cJSON_GetArraySize(w); i++) {
		cJSON *e = cJSON_GetArrayItem(w, i);
		errors += cJSON_IsTrue(cJSON_GetObjectItem(e, "error"));
		cr_expect_str_eq(cJSON_GetObjectItem(e, "schema")->valuestring, "decoders__Image");
	}
	cr_expect_eq(errors, 3);
	cJSON_Delete(doc);
	tl_cmd_free(&c);
}

Test(cli_scan, run_counts_warnings_and_lists_them)
{
	const char *const files[] = {"a/arith.jpg", "a/arith_flip3.jpg", "a/gray_flip1.jpg"};
	const char *script = cscan_setup(3, files, "image");
	tl_cmd_t c = tl_dalic(NULL, "run %s -n 2 2>&1", script);
	cr_expect_eq(c.status, 0, "%s", c.out);
	/* two iterations of the same 3 files: 3 entries each */
	EXPECT_HAS(c.out, "warnings: 6 in 4 samples (dalic run --warnings lists them)\n");
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "run %s -n 1 --warnings 2>&1", script);
	cr_expect_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "warnings: 3 in 2 samples\n");
	EXPECT_HAS(c.out, ": __Image_1: Corrupt JPEG data: bad arithmetic code\n");
	EXPECT_HAS(c.out, "a/gray_flip1.jpg: __Image_1: Corrupt JPEG data: 3 extraneous bytes");
	tl_cmd_free(&c);
}

Test(cli_scan, a_pipeline_without_decoder_cannot_be_scanned)
{
	const char *script = tl_tmp_path("nodec.py");
	tl_write_text(script, "from nvidia.dali import pipeline_def\n"
	                      "import nvidia.dali.fn as fn\n"
	                      "@pipeline_def\n"
	                      "def p():\n"
	                      "    jpegs, labels = fn.readers.file(file_root='samples/images')\n"
	                      "    return jpegs\n"
	                      "pipe = p(batch_size=2, num_threads=1, device_id=None)\n");
	tl_cmd_t c = tl_dalic(NULL, "scan %s 2>&1", script);
	cr_expect_eq(c.status, 1, "%s", c.out);
	EXPECT_HAS(c.out, "no image decoder");
	tl_cmd_free(&c);
}
