/*
 * decoders.image_random_crop: windows follow DALI's area / aspect-ratio rules, the decoded
 * window (only the window is decoded) is bit-exact with djpeg's whole decode cut to the
 * window, for 4:2:0, 4:2:2 and progressive 4:4:4 files, EXIF orientation applies before
 * cropping, and windows depend only on the seed.
 */
#include "tests/testlib/image.h"

TestSuite(img_random_crop, .timeout = 30, .fini = tl_tmpdir_remove);

#define N 24

static dalic_pipeline_t *img_random_crop_pipeline(const char *file, int64_t seed, dalic_op_t **dec)
{
	const char *files[N];
	for (int i = 0; i < N; i++)
		files[i] = file;
	dalic_pipeline_t *p = tl_decode_pipeline("samples/images", N, files,
	                                         "decoders.image_random_crop", DALIC_RGB, dec);
	ASSERT_OK(dalic_op_set_int(*dec, "seed", seed));
	return p;
}

/* Where `win` sits in `full`: the position whose first row matches best. */
static void img_random_crop_locate(const tl_image_t *full, const tl_image_t *win, int *ax, int *ay)
{
	long best = -1;
	int probe = win->w < 48 ? win->w : 48;
	for (int y = 0; y + win->h <= full->h; y++)
		for (int x = 0; x + win->w <= full->w; x++) {
			long sad = 0;
			const uint8_t *a = full->px + ((size_t)y * full->w + x) * 3;
			for (int k = 0; k < probe * 3 && (best < 0 || sad < best); k++)
				sad += abs((int)a[k] - (int)win->px[k]);
			/* the middle row too, so flat first rows cannot fool us */
			const uint8_t *m = full->px + ((size_t)(y + win->h / 2) * full->w + x) * 3;
			const uint8_t *wm = win->px + (size_t)(win->h / 2) * win->w * 3;
			for (int k = 0; k < probe * 3 && (best < 0 || sad < best); k++)
				sad += abs((int)m[k] - (int)wm[k]);
			if (best < 0 || sad < best) {
				best = sad;
				*ax = x, *ay = y;
			}
		}
}

static void img_random_crop_check_windows(const char *file)
{
	if (!tl_have_djpeg())
		cr_skip_test("djpeg (libjpeg-turbo-progs) is not installed");
	dalic_op_t *dec;
	dalic_pipeline_t *p = img_random_crop_pipeline(file, 1234, &dec);
	const dalic_batch_t *b = tl_run(p, 0);
	char path[256];
	snprintf(path, sizeof path, "samples/images/%s", file);
	tl_image_t full = tl_djpeg("-rgb", path);
	int W = full.w, H = full.h;
	for (int i = 0; i < N; i++) {
		tl_image_t win = tl_image_sample(b, i);
		double area = (double)win.w * win.h / ((double)W * H), ratio = (double)win.w / win.h;
		cr_expect(area >= 0.08 * 0.95 && area <= 1.0, "%s sample %d: area %.3f", file, i, area);
		cr_expect(ratio >= 0.75 - 1e-6 && ratio <= 4.0 / 3 + 1e-6, "%s sample %d: ratio %.3f",
			  file, i, ratio);
		int x = 0, y = 0;
		img_random_crop_locate(&full, &win, &x, &y);
		/* Only the window is decoded, yet its pixels are those of the whole decode. */
		tl_image_t ref = tl_image_cut(&full, x, y, win.w, win.h);
		cr_expect_eq(tl_image_max_diff(&win, &ref, 0, NULL), 0,
		             "%s sample %d: window %dx%d+%d+%d differs from decode-then-crop", file,
		             i, win.w, win.h, x, y);
		free(ref.px);
	}
	free(full.px);
	dalic_pipeline_destroy(p);
}

Test(img_random_crop, baseline_420_windows)
{
	img_random_crop_check_windows("cat/chelsea.jpg");
}

Test(img_random_crop, progressive_444_windows)
{
	img_random_crop_check_windows("space/astronaut_444_progressive.jpg");
}

Test(img_random_crop, subsampling_422_windows)
{
	img_random_crop_check_windows("coffee/coffee_422.jpg");
}

Test(img_random_crop, windows_depend_only_on_the_seed)
{
	dalic_op_t *dec;
	dalic_pipeline_t *a = img_random_crop_pipeline("space/rocket.jpg", 77, &dec);
	dalic_pipeline_t *b = img_random_crop_pipeline("space/rocket.jpg", 77, &dec);
	dalic_pipeline_t *c = img_random_crop_pipeline("space/rocket.jpg", 78, &dec);
	for (int it = 0; it < 2; it++) {
		const dalic_batch_t *ba = tl_run(a, 0), *bb = tl_run(b, 0), *bc = tl_run(c, 0);
		int same_c = 0;
		for (int i = 0; i < N; i++) {
			tl_image_t x = tl_image_sample(ba, i), y = tl_image_sample(bb, i),
			           z = tl_image_sample(bc, i);
			cr_assert(x.w == y.w && x.h == y.h, "iteration %d sample %d", it, i);
			cr_expect_eq(memcmp(x.px, y.px, (size_t)x.w * x.h * 3), 0);
			same_c += x.w == z.w && x.h == z.h;
		}
		cr_expect_lt(same_c, N / 2, "another seed gives other windows (%d equal)", same_c);
	}
	dalic_pipeline_destroy(a);
	dalic_pipeline_destroy(b);
	dalic_pipeline_destroy(c);
}

Test(img_random_crop, orientation_applies_before_cropping)
{
	dalic_op_t *dec;
	dalic_pipeline_t *p = img_random_crop_pipeline("cat/chelsea_exif6.jpg", 5, &dec);
	const dalic_batch_t *b = tl_run(p, 0);
	const char *files[] = {"cat/chelsea_exif6.jpg"};
	dalic_pipeline_t *q =
	    tl_decode_pipeline("samples/images", 1, files, "decoders.image", DALIC_RGB, NULL);
	tl_image_t full = tl_image_sample(tl_run(q, 0), 0);
	cr_assert(full.w == 300 && full.h == 451);
	for (int i = 0; i < N; i++) {
		tl_image_t win = tl_image_sample(b, i);
		cr_assert(win.w <= 300 && win.h <= 451, "sample %d: %dx%d", i, win.w, win.h);
		int x = 0, y = 0;
		img_random_crop_locate(&full, &win, &x, &y);
		tl_image_t ref = tl_image_cut(&full, x, y, win.w, win.h);
		cr_expect_eq(tl_image_max_diff(&win, &ref, 0, NULL), 0, "sample %d", i);
		free(ref.px);
	}
	dalic_pipeline_destroy(q);
	dalic_pipeline_destroy(p);
}

/* Windows that cannot have the requested area fall back like DALI: chelsea (451x300) is
 * wider than 4/3, so the widest allowed window is 300 x (int)(300 * 4/3) = 400. */
Test(img_random_crop, fallback_window)
{
	dalic_op_t *dec;
	dalic_pipeline_t *p = img_random_crop_pipeline("cat/chelsea.jpg", 3, &dec);
	const double area[2] = {2.0, 2.0};
	ASSERT_OK(dalic_op_set_floats(dec, "random_area", 2, area));
	const dalic_batch_t *b = tl_run(p, 0);
	for (int i = 0; i < N; i++)
		tl_expect_shape(b, i, 3, (const int64_t[]){300, 400, 3});
	dalic_pipeline_destroy(p);
}
