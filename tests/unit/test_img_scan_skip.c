/*
 * Multi-scan (progressive) JPEGs decoded to a window read each scan's entropy data only down to
 * one iMCU row below the window (kernels/common/img_jpeg.c). Through decoders.image_slice:
 * windows ending on, before and after iMCU row edges equal djpeg's whole decode cut to them,
 * with no warnings, on 4:2:0, 4:4:4 and gray progressive photos, on sequential files in
 * several scans and on incomplete progressive files (block smoothing, which looks further
 * down: decoded again unskipped; full-width windows); damaged progressive files (cut short, a
 * marker or an end marker inside a scan, random bytes) decode to a window exactly when
 * decoders.image decodes the whole file, into the same pixels.
 */
#include "tests/testlib/image.h"

TestSuite(img_scan_skip, .timeout = 120, .fini = tl_tmpdir_remove);

/* decoders.image_slice over root/file with window (x, y, w, h); the pipeline's status.
 * *warnings (may be NULL) gets the number of warnings the decode gave. */
static int img_scan_skip_window_w(const char *root, const char *file, int x, int y, int w,
                                  int h, tl_image_t *got, int64_t *warnings)
{
	dalic_op_t *dec;
	dalic_pipeline_t *p = tl_decode_pipeline(root, 1, (const char *[]){file},
	                                         "decoders.image_slice", DALIC_RGB, &dec);
	ASSERT_OK(dalic_op_set_ints(dec, "start", 2, (int64_t[]){x, y}));
	ASSERT_OK(dalic_op_set_ints(dec, "shape", 2, (int64_t[]){w, h}));
	int rc = dalic_pipeline_run(p);
	if (rc == DALIC_OK) {
		tl_image_t s = tl_image_sample(dalic_pipeline_output(p, 0), 0);
		*got = tl_image_cut(&s, 0, 0, s.w, s.h);
	}
	if (warnings)
		*warnings = dalic_pipeline_num_warnings(p);
	dalic_pipeline_destroy(p);
	return rc;
}

static int img_scan_skip_window(const char *root, const char *file, int x, int y, int w, int h,
                                tl_image_t *got)
{
	return img_scan_skip_window_w(root, file, x, y, w, h, got, NULL);
}

/* Windows whose last row lies on every side of the iMCU row edges, at several columns (or the
 * full width), against `full` (the whole decode). */
static void img_scan_skip_check(const char *root, const char *file, const tl_image_t *full,
                                int imcu, bool full_width)
{
	const int W = full->w, H = full->h;
	const int bottoms[] = {1,        imcu - 1, imcu,     imcu + 1, 2 * imcu,  3 * imcu + 1,
	                       H / 2,    H - 2 * imcu - 1,  H - 2 * imcu, H - imcu - 1,
	                       H - imcu, H - imcu + 1, H - 1, H};
	for (size_t k = 0; k < sizeof bottoms / sizeof *bottoms; k++) {
		int b = bottoms[k], h = b < 40 ? b : 40 + (int)k * 3;
		int x = full_width ? 0 : (int)(k * 37) % (W / 2);
		int w = full_width ? W : W / 3 + (int)k;
		h = h < b ? h : b;
		tl_image_t win;
		int64_t warnings = 0;
		cr_assert_eq(img_scan_skip_window_w(root, file, x, b - h, w, h, &win, &warnings),
		             DALIC_OK, "%s window %dx%d+%d+%d: %s", file, w, h, x, b - h,
		             dalic_last_error());
		/* a clean file: the jumps leave libjpeg nothing to warn about */
		cr_expect_eq(warnings, 0, "%s window %dx%d+%d+%d: %lld warnings", file, w, h, x,
		             b - h, (long long)warnings);
		tl_image_t ref = tl_image_cut(full, x, b - h, w, h);
		cr_expect_eq(tl_image_max_diff(&win, &ref, 0, NULL), 0,
		             "%s window %dx%d+%d+%d (rows to %d of %d) differs from the whole decode",
		             file, w, h, x, b - h, b, H);
		free(ref.px);
		free(win.px);
	}
}

static void img_scan_skip_photo(const char *file, int imcu)
{
	if (!tl_have_djpeg())
		cr_skip_test("djpeg (libjpeg-turbo-progs) is not installed");
	char path[256];
	snprintf(path, sizeof path, "samples/images/%s", file);
	tl_image_t full = tl_djpeg("-rgb", path);
	img_scan_skip_check("samples/images", file, &full, imcu, false);
	free(full.px);
}

Test(img_scan_skip, progressive_420_windows)
{
	img_scan_skip_photo("cat/chelsea_progressive.jpg", 16);
}

Test(img_scan_skip, progressive_444_windows)
{
	img_scan_skip_photo("space/astronaut_444_progressive.jpg", 8);
}

Test(img_scan_skip, progressive_gray_windows)
{
	img_scan_skip_photo("space/rocket_gray_progressive.jpg", 8);
}

/* jpegtran -scans SCRIPT of a sample photo into the temporary folder; its name there. */
static const char *img_scan_skip_jpegtran(const char *sample, const char *script, const char *name)
{
	char scans[512], cmd[1024];
	snprintf(scans, sizeof scans, "%s", tl_tmp_path("scans.txt"));
	tl_write_text(scans, script);
	snprintf(cmd, sizeof cmd, "jpegtran -scans '%s' -outfile '%s' 'samples/images/%s'", scans,
	         tl_tmp_path(name), sample);
	int rc = system(cmd);
	cr_assert(rc == 0, "%s: status %d", cmd, rc);
	return name;
}

/* Scans leaving the first AC coefficients inexact: libjpeg smooths blocks with their
 * neighbours two rows down, so the window is decoded again without skipping. Full-width
 * windows: smoothing also takes the blocks left and right, and a window cut at the sides
 * (jpeg_crop_scanline, as in DALI) smooths its edge blocks without them. */
Test(img_scan_skip, incomplete_progressive_is_smoothed_as_whole)
{
	if (!tl_have_djpeg() || system("jpegtran -version </dev/null >/dev/null 2>&1") != 0)
		cr_skip_test("djpeg/jpegtran (libjpeg-turbo-progs) are not installed");
	static const char script[] = "0,1,2: 0-0, 0, 0;\n0: 1-63, 0, 2;\n1: 1-63, 0, 1;\n"
	                             "2: 1-63, 0, 1;\n";
	const struct {
		const char *sample, *name;
		int imcu;
	} files[] = {{"cat/chelsea.jpg", "smooth_420.jpg", 16},
	             {"coffee/coffee_444.jpg", "smooth_444.jpg", 8}};
	for (int f = 0; f < 2; f++) {
		const char *name = img_scan_skip_jpegtran(files[f].sample, script, files[f].name);
		tl_image_t full = tl_djpeg("-rgb", tl_tmp_path(name));
		img_scan_skip_check(tl_tmpdir(), name, &full, files[f].imcu, true);
		free(full.px);
	}
}

/* A sequential file in one scan per component (libjpeg's sequential decoder keeps one
 * decode_mcu for all scans). */
Test(img_scan_skip, multiscan_sequential_windows)
{
	if (!tl_have_djpeg() || system("jpegtran -version </dev/null >/dev/null 2>&1") != 0)
		cr_skip_test("djpeg/jpegtran (libjpeg-turbo-progs) are not installed");
	const struct {
		const char *sample, *name;
		int imcu;
	} files[] = {{"cat/chelsea.jpg", "seq_420.jpg", 16},
	             {"coffee/coffee_444.jpg", "seq_444.jpg", 8}};
	for (int f = 0; f < 2; f++) {
		const char *name =
		    img_scan_skip_jpegtran(files[f].sample, "0;\n1;\n2;\n", files[f].name);
		tl_image_t full = tl_djpeg("-rgb", tl_tmp_path(name));
		img_scan_skip_check(tl_tmpdir(), name, &full, files[f].imcu, false);
		free(full.px);
	}
}

/* The whole decode (decoders.image) of root/file; its status. */
static int img_scan_skip_whole(const char *root, const char *file, tl_image_t *got)
{
	dalic_op_t *dec;
	dalic_pipeline_t *p = tl_decode_pipeline(root, 1, (const char *[]){file}, "decoders.image",
	                                         DALIC_RGB, &dec);
	int rc = dalic_pipeline_run(p);
	if (rc == DALIC_OK) {
		tl_image_t s = tl_image_sample(dalic_pipeline_output(p, 0), 0);
		*got = tl_image_cut(&s, 0, 0, s.w, s.h);
	}
	dalic_pipeline_destroy(p);
	return rc;
}

/* Where the scans' entropy data starts (after each SOS segment) and ends (its terminating
 * marker) in a JPEG; returns the count. */
static int img_scan_skip_scans(const uint8_t *d, size_t n, size_t *at, size_t *end, int max)
{
	int k = 0;
	for (size_t i = 2; i + 2 <= n;) {
		if (d[i] != 0xFF) {
			i++;
			continue;
		}
		int m = d[i + 1];
		if (m == 0xFF || m == 0 || (m >= 0xD0 && m <= 0xD7)) {
			i += m == 0xFF ? 1 : 2;
			continue;
		}
		if (k > 0 && !end[k - 1])
			end[k - 1] = i;
		if (m == 0xD9 || k == max || i + 4 > n)
			break;
		size_t len = (size_t)d[i + 2] << 8 | d[i + 3];
		if (m == 0xDA) {
			at[k] = i + 2 + len;
			end[k++] = 0;
		}
		i += 2 + len;
	}
	return k;
}

/* Damaged copies of a progressive photo: a window at the top decodes exactly when the whole
 * file does, into the same pixels. */
Test(img_scan_skip, damaged_progressive_like_whole_decode)
{
	static const char *srcs[] = {"cat/chelsea_progressive.jpg",
	                             "space/astronaut_444_progressive.jpg"};
	static const int widths[] = {451, 512};
	int variants = 0, decoded = 0;
	for (int s = 0; s < 2; s++) {
		char path[256];
		snprintf(path, sizeof path, "samples/images/%s", srcs[s]);
		size_t n;
		uint8_t *orig = tl_read_file(path, &n);
		size_t at[64], ends[64];
		int scans = img_scan_skip_scans(orig, n, at, ends, 64);
		cr_assert_gt(scans, 3, "%s: %d scans", srcs[s], scans);
		uint8_t *buf = malloc(n + 16);
		uint32_t lcg = 12345;
		for (int v = 0; v < 4 * scans; v++) {
			int sc = v / 4;
			/* three quarters into the scan's data: below the window */
			size_t end = at[sc] + (ends[sc] - at[sc]) * 3 / 4;
			cr_assert(ends[sc] > at[sc] + 8, "%s scan %d: %zu..%zu", srcs[s], sc, at[sc],
			          ends[sc]);
			size_t m = n;
			memcpy(buf, orig, n);
			if (v % 4 == 0) { /* cut short inside the scan */
				m = end;
			} else if (v % 4 < 3) { /* a code below 0xC0, or an end marker, in the scan */
				buf[end] = 0xFF;
				buf[end + 1] = v % 4 == 1 ? 0x05 : 0xD9;
			} else { /* bit rot: 6 random bytes anywhere in the scan's data */
				for (int k = 0; k < 6; k++) {
					lcg = lcg * 1664525u + 1013904223u;
					buf[at[sc] + (lcg >> 8) % (ends[sc] - at[sc])] = (uint8_t)(lcg >> 24);
				}
			}
			char name[64];
			snprintf(name, sizeof name, "damaged_%d_%d.jpg", s, v);
			tl_write_file(tl_tmp_path(name), buf, m);
			tl_image_t whole = {0}, win = {0};
			int rw = img_scan_skip_whole(tl_tmpdir(), name, &whole);
			/* full width: an end marker leaves the coefficients inexact, and smoothing
			 * differs at a window's cut sides (see above) */
			int w = widths[s], h = 8 + 5 * v % 40;
			int rc = img_scan_skip_window(tl_tmpdir(), name, 0, 0, w, h, &win);
			variants++;
			cr_expect_eq(rc == DALIC_OK, rw == DALIC_OK,
			             "%s variant %d: window %s, whole image %s", srcs[s], v,
			             rc == DALIC_OK ? "decodes" : "fails",
			             rw == DALIC_OK ? "decodes" : "fails");
			if (rc == DALIC_OK && rw == DALIC_OK) {
				decoded++;
				tl_image_t ref = tl_image_cut(&whole, 0, 0, w, h);
				cr_expect_eq(tl_image_max_diff(&win, &ref, 0, NULL), 0,
				             "%s variant %d: the window differs from the whole decode",
				             srcs[s], v);
				free(ref.px);
			}
			free(whole.px);
			free(win.px);
		}
		free(buf);
		free(orig);
	}
	/* both outcomes occur: the end markers decode, the cuts and bad markers fail */
	cr_expect(decoded > 0 && decoded < variants, "%d of %d variants decode", decoded, variants);
}
