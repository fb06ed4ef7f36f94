/*
 * A scan's decode (issue 20): dalic_img_decode with no output reads each file exactly as far
 * as a real decode, so it fails on the same files with the same message and warns the same,
 * although it drops the pixels before orientation and colour conversion. Checked on every
 * file of the damaged set and on an EXIF-rotated photo, for several output types.
 */
#include "tests/testlib.h"
#include "tests/testlib/damage.h"
#include "kernels/common/img_codec.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

TestSuite(img_scan_decode, .timeout = 120, .fini = tl_tmpdir_remove);

typedef struct imgsd_result {
	int rc;
	char err[512];
	img_warnings_t warnings;
} imgsd_result_t;

/* Decodes `data` whole into a buffer (out = true) or with no output; probe failures are
 * results too (a scan logs them alike). */
static imgsd_result_t imgsd_decode(img_decoder_t *d, const uint8_t *data, size_t n, int type,
                                   bool out)
{
	imgsd_result_t r = {0};
	img_info_t info;
	r.rc = dalic_img_probe(d, data, n, true, &info, r.err, sizeof r.err);
	if (r.rc)
		return r;
	size_t bytes = (size_t)img_oriented_w(&info) * (size_t)img_oriented_h(&info) *
		       (size_t)dalic_img_output_channels(&info, type);
	uint8_t *buf = out ? malloc(bytes) : NULL;
	cr_assert(!out || buf);
	r.rc = dalic_img_decode(d, data, n, &info, type, NULL, buf, r.err, sizeof r.err);
	r.warnings = *dalic_img_warnings(d);
	free(buf);
	return r;
}

/* Both ways give the same outcome for `path`; returns 1 when it failed, 2 when it warned. */
static int imgsd_compare(img_decoder_t *d, const char *path, int type)
{
	size_t n;
	uint8_t *data = tl_read_file(path, &n);
	imgsd_result_t a = imgsd_decode(d, data, n, type, true);
	imgsd_result_t b = imgsd_decode(d, data, n, type, false);
	free(data);
	cr_expect_eq(a.rc, b.rc, "%s (type %d): rc %d decoded, %d scanned", path, type, a.rc,
	             b.rc);
	if (a.rc)
		cr_expect_str_eq(a.err, b.err, "%s (type %d)", path, type);
	cr_expect_eq(a.warnings.total, b.warnings.total, "%s (type %d): %ld warnings, %ld", path,
	             type, a.warnings.total, b.warnings.total);
	cr_expect_eq(a.warnings.count, b.warnings.count, "%s (type %d)", path, type);
	for (int k = 0; k < a.warnings.count && k < b.warnings.count; k++) {
		cr_expect_str_eq(a.warnings.w[k].msg, b.warnings.w[k].msg, "%s", path);
		cr_expect_eq(a.warnings.w[k].repeats, b.warnings.w[k].repeats, "%s", path);
	}
	return a.rc ? 1 : a.warnings.total ? 2 : 0;
}

Test(img_scan_decode, no_output_fails_and_warns_as_a_full_decode)
{
	const char *set = tl_tmp_path("set");
	cr_assert_eq(mkdir(set, 0755), 0);
	cr_assert_gt(tl_damage_write_set("samples/images", set), 0);
	img_decoder_t *d = dalic_img_decoder_new();
	cr_assert(d);
	static const int types[] = {DALIC_RGB, DALIC_GRAY, DALIC_YCbCr, DALIC_ANY_DATA};
	int files = 0, failed = 0, warned = 0;
	DIR *dir = opendir(set);
	cr_assert(dir);
	for (struct dirent *e; (e = readdir(dir));) {
		if (e->d_name[0] == '.')
			continue;
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", set, e->d_name);
		files++;
		for (int t = 0; t < 4; t++) {
			int o = imgsd_compare(d, path, types[t]);
			failed += o == 1;
			warned += o == 2;
		}
	}
	closedir(dir);
	/* the set holds files of both kinds: the comparison above saw both outcomes */
	cr_expect_gt(files, 20);
	cr_expect_gt(failed, 0);
	cr_expect_gt(warned, 0);
	/* rotated (EXIF orientation 6): decoded whole, then only the rotation is skipped */
	for (int t = 0; t < 4; t++)
		cr_expect_eq(imgsd_compare(d, "samples/images/cat/chelsea_exif6.jpg", types[t]), 0);
	dalic_img_decoder_free(d);
}
