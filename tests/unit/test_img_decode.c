/*
 * decoders.image on the sample photographs: bit-exact with libjpeg-turbo's djpeg for every
 * chroma subsampling, progressive and grayscale files, in RGB, BGR, GRAY and ANY_DATA; YCbCr
 * against DALI's conversion formula; all eight EXIF orientations; PNG against files written
 * here; and errors for truncated and non-image files that name the file and the sample.
 */
#include "tests/testlib/image.h"

TestSuite(img_decode, .timeout = 30, .fini = tl_tmpdir_remove);

static const char *img_decode_jpegs[] = {
    "cat/chelsea.jpg",
    "cat/chelsea_411.jpg",
    "cat/chelsea_440.jpg",
    "cat/chelsea_gray.jpg",
    "cat/chelsea_progressive.jpg",
    "coffee/coffee_422.jpg",
    "coffee/coffee_444.jpg",
    "space/astronaut_444_progressive.jpg",
    "space/rocket.jpg",
    "space/rocket_gray_progressive.jpg",
};
#define NJPEG ((int)(sizeof img_decode_jpegs / sizeof img_decode_jpegs[0]))

/* Decodes all sample JPEGs with `output_type`; compares with djpeg `args` (BGR: swapped). */
static void img_decode_compare_with_djpeg(int output_type, const char *args, bool swap_rb)
{
	if (!tl_have_djpeg())
		cr_skip_test("djpeg (libjpeg-turbo-progs) is not installed");
	dalic_pipeline_t *p = tl_decode_pipeline("samples/images", NJPEG, img_decode_jpegs,
	                                         "decoders.image", output_type, NULL);
	const dalic_batch_t *b = tl_run(p, 0);
	cr_expect_str_eq(dalic_batch_layout(b), "HWC");
	for (int i = 0; i < NJPEG; i++) {
		char path[256];
		snprintf(path, sizeof path, "samples/images/%s", img_decode_jpegs[i]);
		tl_image_t want = tl_djpeg(args, path), got = tl_image_sample(b, i);
		if (swap_rb)
			for (size_t k = 0; k < (size_t)want.w * want.h; k++) {
				uint8_t t = want.px[3 * k];
				want.px[3 * k] = want.px[3 * k + 2];
				want.px[3 * k + 2] = t;
			}
		cr_assert(got.w == want.w && got.h == want.h && got.c == want.c,
		          "%s: %dx%dx%d, djpeg %dx%dx%d", img_decode_jpegs[i], got.h, got.w, got.c,
		          want.h, want.w, want.c);
		size_t n = (size_t)want.w * want.h * want.c;
		cr_expect_eq(memcmp(got.px, want.px, n), 0, "%s differs from djpeg %s",
		             img_decode_jpegs[i], args);
		free(want.px);
	}
	dalic_pipeline_destroy(p);
}

Test(img_decode, rgb_is_bit_exact_with_djpeg)
{
	img_decode_compare_with_djpeg(DALIC_RGB, "-rgb", false);
}

Test(img_decode, bgr_is_bit_exact_with_djpeg)
{
	img_decode_compare_with_djpeg(DALIC_BGR, "-rgb", true);
}

Test(img_decode, gray_is_bit_exact_with_djpeg_grayscale)
{
	img_decode_compare_with_djpeg(DALIC_GRAY, "-grayscale", false);
}

Test(img_decode, any_data_keeps_the_file_channels)
{
	if (!tl_have_djpeg())
		cr_skip_test("djpeg (libjpeg-turbo-progs) is not installed");
	const char *files[] = {"cat/chelsea_gray.jpg", "cat/chelsea.jpg"};
	dalic_pipeline_t *p =
	    tl_decode_pipeline("samples/images", 2, files, "decoders.image", DALIC_ANY_DATA, NULL);
	const dalic_batch_t *b = tl_run(p, 0);
	for (int i = 0; i < 2; i++) {
		char path[256];
		snprintf(path, sizeof path, "samples/images/%s", files[i]);
		tl_image_t want = tl_djpeg("", path), got = tl_image_sample(b, i);
		cr_expect_eq(got.c, i == 0 ? 1 : 3, "%s", files[i]);
		cr_expect_eq(tl_image_max_diff(&got, &want, 0, NULL), 0, "%s", files[i]);
		free(want.px);
	}
	dalic_pipeline_destroy(p);
}

/* DALI's YCbCr output: the RGB decode through its studio-range BT.601 conversion (JPEG's
 * coefficients times 219/255 for Y, 224/255 for Cb and Cr, in float, +16 / +128, rounded
 * half away from zero), every pixel recomputed here from djpeg's RGB. */
Test(img_decode, ycbcr_follows_dali_conversion)
{
	if (!tl_have_djpeg())
		cr_skip_test("djpeg (libjpeg-turbo-progs) is not installed");
	const char *files[] = {"coffee/coffee_444.jpg"};
	dalic_pipeline_t *p =
	    tl_decode_pipeline("samples/images", 1, files, "decoders.image", DALIC_YCbCr, NULL);
	tl_image_t got = tl_image_sample(tl_run(p, 0), 0);
	tl_image_t rgb = tl_djpeg("", "samples/images/coffee/coffee_444.jpg");
	static const double jy[3] = {0.299, 0.587, 0.114};
	static const double jb[3] = {-0.16873589, -0.33126411, 0.5};
	static const double jr[3] = {0.5, -0.41868759, -0.08131241};
	float ky[3], kb[3], kr[3];
	for (int c = 0; c < 3; c++) {
		ky[c] = (float)(219.0 / 255 * jy[c]);
		kb[c] = (float)(224.0 / 255 * jb[c]);
		kr[c] = (float)(224.0 / 255 * jr[c]);
	}
	for (size_t k = 0; k < (size_t)rgb.w * rgb.h; k++) {
		float r = rgb.px[3 * k], g = rgb.px[3 * k + 1], bl = rgb.px[3 * k + 2];
		float y = ky[0] * r + ky[1] * g + ky[2] * bl + 16.0f;
		float cb = kb[0] * r + kb[1] * g + kb[2] * bl + 128.0f;
		float cr = kr[0] * r + kr[1] * g + kr[2] * bl + 128.0f;
		rgb.px[3 * k] = (uint8_t)floorf(y + 0.5f);
		rgb.px[3 * k + 1] = (uint8_t)floorf(cb + 0.5f);
		rgb.px[3 * k + 2] = (uint8_t)floorf(cr + 0.5f);
	}
	cr_expect_eq(tl_image_max_diff(&got, &rgb, 0, NULL), 0);
	free(rgb.px);
	dalic_pipeline_destroy(p);
}

/* The two known differences from DALI 2.4 (issue 20), pinned to the values DALI gives:
 * chelsea.jpg's first pixel in YCbCr, coffee_cup.png's first pixels in GRAY (libpng's
 * truncating rgb_to_gray with OpenCV's weights: (9797 R + 19234 G + 3737 B) >> 15). */
Test(img_decode, first_pixels_are_dalis)
{
	const char *jf[] = {"cat/chelsea.jpg"};
	dalic_pipeline_t *p =
	    tl_decode_pipeline("samples/images", 1, jf, "decoders.image", DALIC_YCbCr, NULL);
	const uint8_t *px = dalic_batch_data(tl_run(p, 0), 0);
	cr_expect(px[0] == 123 && px[1] == 119 && px[2] == 139, "YCbCr %d %d %d, DALI 123 119 139",
	          px[0], px[1], px[2]);
	dalic_pipeline_destroy(p);
	const char *pf[] = {"coffee/coffee_cup.png"};
	p = tl_decode_pipeline("samples/images", 1, pf, "decoders.image", DALIC_GRAY, NULL);
	px = dalic_batch_data(tl_run(p, 0), 0);
	static const uint8_t want[6] = {82, 85, 84, 82, 84, 81};
	for (int k = 0; k < 6; k++)
		cr_expect_eq(px[k], want[k], "GRAY pixel %d: %d, DALI %d", k, px[k], want[k]);
	dalic_pipeline_destroy(p);
}

/* Copies chelsea.jpg with an EXIF APP1 (IFD0: Orientation = o) after the JFIF APP0. */
static void img_decode_write_with_orientation(const char *dir, int o, bool big_endian)
{
	size_t n;
	uint8_t *src = tl_read_file("samples/images/cat/chelsea.jpg", &n);
	size_t app0 = 4 + (size_t)(src[4] << 8 | src[5]);
	uint8_t seg[36] = {0xFF, 0xE1, 0, 34, 'E', 'x', 'i', 'f', 0, 0};
	uint8_t *t = seg + 10;
	if (big_endian) {
		const uint8_t tiff[] = {'M', 'M', 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3,
					0, 0,   0, 1, 0, (uint8_t)o, 0, 0, 0, 0, 0, 0};
		memcpy(t, tiff, sizeof tiff);
	} else {
		const uint8_t tiff[] = {'I', 'I', 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0,
					1,   0,   0,  0, (uint8_t)o, 0, 0, 0, 0, 0, 0, 0};
		memcpy(t, tiff, sizeof tiff);
	}
	uint8_t *dst = malloc(n + sizeof seg);
	memcpy(dst, src, app0);
	memcpy(dst + app0, seg, sizeof seg);
	memcpy(dst + app0 + sizeof seg, src + app0, n - app0);
	char path[512];
	snprintf(path, sizeof path, "%s/o%d.jpg", dir, o);
	tl_write_file(path, dst, n + sizeof seg);
	free(src);
	free(dst);
}

/* Pixel of the displayed image at (x, y) for EXIF orientation o, from the stored image. */
static const uint8_t *img_decode_oriented_px(const tl_image_t *raw, int o, int x, int y)
{
	int w = raw->w, h = raw->h, rx, ry;
	switch (o) {
	case 2: rx = w - 1 - x, ry = y; break;
	case 3: rx = w - 1 - x, ry = h - 1 - y; break;
	case 4: rx = x, ry = h - 1 - y; break;
	case 5: rx = y, ry = x; break;
	case 6: rx = y, ry = h - 1 - x; break; /* the stored top row becomes the right column */
	case 7: rx = w - 1 - y, ry = h - 1 - x; break;
	case 8: rx = w - 1 - y, ry = x; break;
	default: rx = x, ry = y; break;
	}
	return raw->px + ((size_t)ry * w + rx) * 3;
}

Test(img_decode, exif_orientations)
{
	if (!tl_have_djpeg())
		cr_skip_test("djpeg (libjpeg-turbo-progs) is not installed");
	const char *dir = tl_tmpdir();
	const char *files[8] = {"o1.jpg", "o2.jpg", "o3.jpg", "o4.jpg",
				"o5.jpg", "o6.jpg", "o7.jpg", "o8.jpg"};
	for (int o = 1; o <= 8; o++)
		img_decode_write_with_orientation(dir, o, o % 2 == 0);
	tl_image_t raw = tl_djpeg("", "samples/images/cat/chelsea.jpg");
	for (int adjust = 0; adjust < 2; adjust++) {
		dalic_op_t *dec;
		dalic_pipeline_t *p =
		    tl_decode_pipeline(dir, 8, files, "decoders.image", DALIC_RGB, &dec);
		ASSERT_OK(dalic_op_set_bool(dec, "adjust_orientation", adjust));
		const dalic_batch_t *b = tl_run(p, 0);
		for (int o = 1; o <= 8; o++) {
			tl_image_t got = tl_image_sample(b, o - 1);
			int eff = adjust ? o : 1;
			bool swap = eff >= 5;
			cr_assert_eq(got.w, swap ? raw.h : raw.w, "orientation %d", o);
			cr_assert_eq(got.h, swap ? raw.w : raw.h, "orientation %d", o);
			long bad = 0;
			for (int y = 0; y < got.h; y++)
				for (int x = 0; x < got.w; x++)
					bad +=
					    memcmp(got.px + ((size_t)y * got.w + x) * 3,
					           img_decode_oriented_px(&raw, eff, x, y), 3) != 0;
			cr_expect_eq(bad, 0, "orientation %d (adjust %d): %ld pixels differ", o,
				     adjust, bad);
		}
		dalic_pipeline_destroy(p);
	}
	free(raw.px);
}

/* A window of an EXIF-rotated file decodes only the raw window (the whole file is still read):
 * for every orientation, windows at the corners, edges and middle of the displayed image
 * equal djpeg's whole decode, oriented, cut to them. */
Test(img_decode, exif_windows)
{
	if (!tl_have_djpeg())
		cr_skip_test("djpeg (libjpeg-turbo-progs) is not installed");
	const char *dir = tl_tmpdir();
	tl_image_t raw = tl_djpeg("", "samples/images/cat/chelsea.jpg");
	for (int o = 1; o <= 8; o++) {
		img_decode_write_with_orientation(dir, o, false);
		char name[24]; /* room for any int: gcc checks the format at -O1 */
		snprintf(name, sizeof name, "o%d.jpg", o);
		int W = o >= 5 ? raw.h : raw.w, H = o >= 5 ? raw.w : raw.h;
		const int win[][4] = {{0, 0, 50, 33},          {W - 61, 0, 61, 17},
		                      {0, H - 9, 100, 9},      {W - 45, H - 77, 45, 77},
		                      {31, 17, W - 62, H - 40}, {W / 3, H / 2, 1, 1}};
		for (int k = 0; k < 6; k++) {
			const int *r = win[k];
			dalic_op_t *dec;
			dalic_pipeline_t *p = tl_decode_pipeline(dir, 1, (const char *[]){name},
			                                         "decoders.image_slice", DALIC_RGB, &dec);
			ASSERT_OK(dalic_op_set_ints(dec, "start", 2, (int64_t[]){r[0], r[1]}));
			ASSERT_OK(dalic_op_set_ints(dec, "shape", 2, (int64_t[]){r[2], r[3]}));
			tl_image_t got = tl_image_sample(tl_run(p, 0), 0);
			cr_assert(got.w == r[2] && got.h == r[3], "orientation %d window %d", o, k);
			long bad = 0;
			for (int y = 0; y < got.h; y++)
				for (int x = 0; x < got.w; x++)
					bad += memcmp(got.px + ((size_t)y * got.w + x) * 3,
					              img_decode_oriented_px(&raw, o, r[0] + x, r[1] + y),
					              3) != 0;
			cr_expect_eq(bad, 0, "orientation %d window %dx%d+%d+%d: %ld pixels differ", o,
			             r[2], r[3], r[0], r[1], bad);
			dalic_pipeline_destroy(p);
		}
	}
	free(raw.px);
}

Test(img_decode, sample_with_exif_is_shown_upright)
{
	const char *files[] = {"cat/chelsea_exif6.jpg", "cat/chelsea.jpg"};
	dalic_pipeline_t *p =
	    tl_decode_pipeline("samples/images", 2, files, "decoders.image", DALIC_RGB, NULL);
	const dalic_batch_t *b = tl_run(p, 0);
	tl_expect_shape(b, 0, 3, (const int64_t[]){451, 300, 3});
	tl_expect_shape(b, 1, 3, (const int64_t[]){300, 451, 3});
	tl_image_t rot = tl_image_sample(b, 0), up = tl_image_sample(b, 1);
	/* Rotated 90 degrees clockwise: the stored bottom-left pixel is shown top-left. */
	cr_expect_eq(memcmp(rot.px, up.px + (size_t)299 * 451 * 3, 3), 0);
	dalic_pipeline_destroy(p);
}

/* ---- PNG ------------------------------------------------------------------------------- */
static uint32_t img_decode_crc32_of(const uint8_t *d, size_t n, uint32_t c)
{
	c = ~c;
	for (size_t i = 0; i < n; i++) {
		c ^= d[i];
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
	}
	return ~c;
}

static size_t img_decode_put_chunk(uint8_t *out, const char *type, const uint8_t *d, size_t n)
{
	out[0] = (uint8_t)(n >> 24), out[1] = (uint8_t)(n >> 16), out[2] = (uint8_t)(n >> 8);
	out[3] = (uint8_t)n;
	memcpy(out + 4, type, 4);
	if (n)
		memcpy(out + 8, d, n);
	uint32_t c = img_decode_crc32_of(out + 4, n + 4, 0);
	out[8 + n] = (uint8_t)(c >> 24), out[9 + n] = (uint8_t)(c >> 16);
	out[10 + n] = (uint8_t)(c >> 8), out[11 + n] = (uint8_t)c;
	return n + 12;
}

/* An 8-bit PNG of colour type `ct` with zlib "stored" (uncompressed) deflate blocks. */
static size_t img_decode_make_png(uint8_t *out, int w, int h, int ct, int ch, const uint8_t *px)
{
	size_t raw_n = (size_t)h * (1 + (size_t)w * ch), pos = 0;
	uint8_t *z = malloc(raw_n + 16);
	z[pos++] = 0x78, z[pos++] = 0x01;
	z[pos++] = 1; /* final stored block; the images here stay under 64 KiB */
	z[pos++] = (uint8_t)raw_n, z[pos++] = (uint8_t)(raw_n >> 8);
	z[pos++] = (uint8_t)~raw_n, z[pos++] = (uint8_t)(~raw_n >> 8);
	uint32_t a = 1, b = 0;
	for (int y = 0; y < h; y++)
		for (int k = -1; k < w * ch; k++) {
			uint8_t v = k < 0 ? 0 : px[(size_t)y * w * ch + k];
			z[pos++] = v;
			a = (a + v) % 65521, b = (b + a) % 65521;
		}
	uint32_t adler = b << 16 | a;
	z[pos++] = (uint8_t)(adler >> 24), z[pos++] = (uint8_t)(adler >> 16);
	z[pos++] = (uint8_t)(adler >> 8), z[pos++] = (uint8_t)adler;
	uint8_t ihdr[13] = {0, 0, 0, (uint8_t)w, 0, 0, 0, (uint8_t)h, 8, (uint8_t)ct, 0, 0, 0};
	size_t n = 8;
	memcpy(out, "\x89PNG\r\n\x1a\n", 8);
	n += img_decode_put_chunk(out + n, "IHDR", ihdr, 13);
	n += img_decode_put_chunk(out + n, "IDAT", z, pos);
	n += img_decode_put_chunk(out + n, "IEND", NULL, 0);
	free(z);
	return n;
}

Test(img_decode, png_layouts_and_output_types)
{
	const char *dir = tl_tmpdir();
	enum { W = 7, H = 5 };
	uint8_t rgba[W * H * 4], rgb[W * H * 3], gray[W * H];
	for (int k = 0; k < W * H; k++) {
		rgba[4 * k] = rgb[3 * k] = (uint8_t)(k * 7);
		rgba[4 * k + 1] = rgb[3 * k + 1] = (uint8_t)(255 - k * 5);
		rgba[4 * k + 2] = rgb[3 * k + 2] = (uint8_t)(k * k);
		rgba[4 * k + 3] = (uint8_t)(k * 3);
		gray[k] = (uint8_t)(k * 6 + 1);
	}
	uint8_t buf[4096];
	char path[512];
	const char *files[3] = {"rgb.png", "rgba.png", "gray.png"};
	const uint8_t *px[3] = {rgb, rgba, gray};
	const int ct[3] = {2, 6, 0}, ch[3] = {3, 4, 1};
	for (int f = 0; f < 3; f++) {
		snprintf(path, sizeof path, "%s/%s", dir, files[f]);
		tl_write_file(path, buf, img_decode_make_png(buf, W, H, ct[f], ch[f], px[f]));
	}
	/* ANY_DATA keeps the stored channels; RGB drops alpha and replicates gray. */
	for (int type = 0; type < 2; type++) {
		int out_type = type ? DALIC_RGB : DALIC_ANY_DATA;
		dalic_pipeline_t *p =
		    tl_decode_pipeline(dir, 3, files, "decoders.image", out_type, NULL);
		const dalic_batch_t *b = tl_run(p, 0);
		for (int f = 0; f < 3; f++) {
			tl_image_t got = tl_image_sample(b, f);
			int want_c = out_type == DALIC_RGB ? 3 : ch[f];
			cr_assert(got.w == W && got.h == H && got.c == want_c, "%s: %dx%dx%d",
				  files[f], got.h, got.w, got.c);
			for (int k = 0; k < W * H; k++)
				for (int c = 0; c < want_c; c++) {
					int src_c = ch[f] == 1 ? 0 : c;
					cr_expect_eq(got.px[k * want_c + c], px[f][k * ch[f] + src_c],
						     "%s pixel %d channel %d", files[f], k, c);
				}
		}
		dalic_pipeline_destroy(p);
	}
	/* GRAY from colour uses DALI's 0.299 / 0.587 / 0.114 weights. */
	dalic_pipeline_t *p = tl_decode_pipeline(dir, 1, files, "decoders.image", DALIC_GRAY, NULL);
	tl_image_t g = tl_image_sample(tl_run(p, 0), 0);
	for (int k = 0; k < W * H; k++) {
		double y = 0.299 * rgb[3 * k] + 0.587 * rgb[3 * k + 1] + 0.114 * rgb[3 * k + 2];
		cr_expect_leq(fabs(g.px[k] - floor(y + 0.5)), 1, "pixel %d", k);
	}
	dalic_pipeline_destroy(p);
}

Test(img_decode, real_png_photo)
{
	const char *files[] = {"coffee/coffee_cup.png"};
	dalic_pipeline_t *p =
	    tl_decode_pipeline("samples/images", 1, files, "decoders.image", DALIC_RGB, NULL);
	const dalic_batch_t *b = tl_run(p, 0);
	tl_expect_shape(b, 0, 3, (const int64_t[]){200, 300, 3});
	/* The crop of coffee.png at (150, 100) is the same photo as coffee_444.jpg, which is
	 * lossy: the two agree within JPEG's error. */
	tl_image_t png = tl_image_sample(b, 0);
	const char *jf[] = {"coffee/coffee_444.jpg"};
	dalic_pipeline_t *q =
	    tl_decode_pipeline("samples/images", 1, jf, "decoders.image", DALIC_RGB, NULL);
	tl_image_t jpg = tl_image_sample(tl_run(q, 0), 0);
	double sum = 0;
	for (int y = 0; y < 200; y++)
		for (int x = 0; x < 300 * 3; x++)
			sum += fabs((double)png.px[y * 900 + x] -
				    jpg.px[(size_t)(y + 100) * 1800 + 450 + x]);
	cr_expect_lt(sum / (200 * 900), 4.0, "mean abs difference %.2f", sum / (200 * 900));
	dalic_pipeline_destroy(q);
	dalic_pipeline_destroy(p);
}

/* ---- errors ---------------------------------------------------------------------------- */
static void img_decode_expect_failure(const char *file, const char *why)
{
	const char *files[] = {"samples/images/cat/chelsea.jpg", file};
	dalic_pipeline_t *p = tl_decode_pipeline(".", 2, files, "decoders.image", DALIC_RGB, NULL);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "Decoder", "names the operator");
	EXPECT_HAS(msg, "sample 1", "names the sample");
	EXPECT_HAS(msg, file, "names the file");
	EXPECT_HAS(msg, why, "says why (%s)", why);
	dalic_pipeline_destroy(p);
}

Test(img_decode, truncated_jpeg_fails)
{
	img_decode_expect_failure("tests/data/truncated.jpg", "truncated");
}

Test(img_decode, non_image_fails)
{
	img_decode_expect_failure("tests/data/not_an_image.jpg", "not an image");
}

Test(img_decode, unsupported_format_is_named)
{
	const char *dir = tl_tmpdir();
	char path[512];
	snprintf(path, sizeof path, "%s/x.bmp", dir);
	tl_write_file(path, "BM\x3a\0\0\0\0\0\0\0\x36\0\0\0", 14);
	const char *files[] = {"x.bmp"};
	dalic_pipeline_t *p = tl_decode_pipeline(dir, 1, files, "decoders.image", DALIC_RGB, NULL);
	const char *msg = tl_run_fails(p, DALIC_EOP);
	EXPECT_HAS(msg, "unsupported image format BMP");
	EXPECT_HAS(msg, "x.bmp");
	dalic_pipeline_destroy(p);
}

/* device="mixed" runs the same CPU decoder through the emulated device: same pixels, and the
 * output is a "gpu" batch. */
Test(img_decode, mixed_device_decodes_the_same_pixels)
{
	const char *files[] = {"cat/chelsea.jpg"};
	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = 1;
	params.device_id = 0;
	params.exec_pipelined = false;
	params.exec_async = false;
	params.prefetch_cpu = params.prefetch_gpu = 1;
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_create(&params, &p));
	dalic_op_t *rd, *mixed, *cpu;
	ASSERT_OK(dalic_pipeline_add_op(p, "readers.file", "cpu", &rd));
	ASSERT_OK(dalic_op_set_string(rd, "file_root", "samples/images"));
	ASSERT_OK(dalic_op_set_strings(rd, "files", 1, files));
	ASSERT_OK(dalic_pipeline_add_op(p, "decoders.image", "mixed", &mixed));
	ASSERT_OK(dalic_pipeline_add_op(p, "decoders.image", "cpu", &cpu));
	tl_input(mixed, dalic_op_output(rd, 0));
	tl_input(cpu, dalic_op_output(rd, 0));
	tl_output(p, mixed);
	tl_output(p, cpu);
	ASSERT_OK(dalic_pipeline_run(p));
	const dalic_batch_t *g = dalic_pipeline_output(p, 0), *c = dalic_pipeline_output(p, 1);
	cr_expect_str_eq(dalic_batch_device(g), "gpu");
	cr_assert_eq(dalic_batch_sample_bytes(g, 0), dalic_batch_sample_bytes(c, 0));
	cr_expect_eq(memcmp(dalic_batch_data(g, 0), dalic_batch_data(c, 0),
			    dalic_batch_sample_bytes(c, 0)),
		     0);
	dalic_pipeline_destroy(p);
}
