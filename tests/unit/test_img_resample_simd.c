/*
 * The AVX2 vertical and horizontal passes of the resampler (kernels/common/img_resample_avx2.c)
 * give the same bytes as the SSE2 ones: every sample photo (djpeg's decode, RGB and gray)
 * resized by every filter, down and up (both pass orders), to uint8 and to float, and float to
 * float, once with AVX2 and once without, compared byte for byte; then random 3- and 4-channel
 * images of random sizes (odd output widths, one-pixel outputs, wide filters). Skipped where the
 * CPU has no AVX2.
 */
#include "tests/testlib/image.h"

#include "kernels/common/img_resample.h"
#include "kernels/common/img_resample_simd.h"

#include <string.h>

TestSuite(img_resample_simd, .timeout = 120);

static const char *resample_simd_files[] = {
	"cat/chelsea.jpg",    "cat/chelsea_gray.jpg",       "coffee/coffee_444.jpg",
	"space/rocket.jpg",   "space/astronaut_444_progressive.jpg",
};

/* Resizes `img` (as uint8, or as float when in_float) to oh x ow into `out` (uint8 or float). */
static void resample_simd_run(const tl_image_t *img, const float *as_float, bool in_float,
                              bool out_float, img_filters_t f, int oh, int ow, void *out)
{
	img_resample_ws_t ws = {0};
	img_resample_job_t j = {
		.in = in_float ? (const void *)as_float : img->px,
		.in_type = in_float ? DALIC_FLOAT : DALIC_UINT8,
		.in_h = img->h, .in_w = img->w, .channels = img->c,
		.out = out, .out_type = out_float ? DALIC_FLOAT : DALIC_UINT8,
		.out_h = oh, .out_w = ow,
		/* a window inside the image, not pixel-aligned, so the tables are not trivial */
		.y0 = 3.25, .y1 = img->h - 1.5, .x0 = 2.75, .x1 = img->w - 0.5,
		.filters = f,
	};
	cr_assert_eq(dalic_img_resample(&ws, &j), 0, "%s", dalic_last_error());
	dalic_img_resample_ws_free(&ws);
}

static void resample_simd_compare(const char *file, const tl_image_t *img)
{
	static const img_filter_t filters[] = {IMG_FILTER_NN, IMG_FILTER_LINEAR,
					       IMG_FILTER_CUBIC, IMG_FILTER_LANCZOS3,
					       IMG_FILTER_TRIANGULAR, IMG_FILTER_GAUSSIAN};
	static const int sizes[][2] = {{224, 224}, {97, 301}, {611, 150}, {700, 900}};
	size_t n = (size_t)img->w * img->h * img->c;
	float *as_float = malloc(n * sizeof *as_float);
	cr_assert(as_float);
	for (size_t k = 0; k < n; k++)
		as_float[k] = img->px[k] * 0.75f + 0.125f;
	for (size_t fi = 0; fi < sizeof filters / sizeof *filters; fi++)
		for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
			for (int mode = 0; mode < 3; mode++) {
				bool in_float = mode == 2, out_float = mode >= 1;
				int oh = sizes[si][0], ow = sizes[si][1];
				size_t bytes = (size_t)oh * ow * img->c * (out_float ? 4 : 1);
				uint8_t *a = malloc(bytes), *b = malloc(bytes);
				cr_assert(a && b);
				img_filters_t f = {filters[fi], filters[fi], si != 1};
				cr_assert(dalic_img_resample_use_avx2(true));
				resample_simd_run(img, as_float, in_float, out_float, f, oh, ow, a);
				cr_assert(!dalic_img_resample_use_avx2(false));
				resample_simd_run(img, as_float, in_float, out_float, f, oh, ow, b);
				cr_expect(!memcmp(a, b, bytes),
				          "%s: filter %d, %dx%d, mode %d: AVX2 and SSE2 differ", file,
				          (int)filters[fi], oh, ow, mode);
				free(a);
				free(b);
			}
	free(as_float);
	dalic_img_resample_use_avx2(true);
}

Test(img_resample_simd, avx2_equals_sse2_on_the_photos)
{
	if (!dalic_img_resample_avx2_available())
		cr_skip_test("no AVX2 on this CPU");
	if (!tl_have_djpeg())
		cr_skip_test("no djpeg");
	for (size_t i = 0; i < sizeof resample_simd_files / sizeof *resample_simd_files; i++) {
		char path[256];
		snprintf(path, sizeof path, "samples/images/%s", resample_simd_files[i]);
		tl_image_t img = tl_djpeg(strstr(path, "gray") ? "-grayscale" : "", path);
		cr_assert(img.px, "%s", path);
		resample_simd_compare(path, &img);
		free(img.px);
	}
}

/* A small deterministic generator, so a failure names a reproducible case. */
static uint32_t resample_simd_rand(uint32_t *state)
{
	*state = *state * 1664525u + 1013904223u;
	return *state >> 8;
}

Test(img_resample_simd, avx2_equals_sse2_on_random_sizes)
{
	if (!dalic_img_resample_avx2_available())
		cr_skip_test("no AVX2 on this CPU");
	static const img_filter_t filters[] = {IMG_FILTER_NN, IMG_FILTER_LINEAR,
					       IMG_FILTER_CUBIC, IMG_FILTER_LANCZOS3,
					       IMG_FILTER_TRIANGULAR, IMG_FILTER_GAUSSIAN};
	uint32_t st = 21;
	for (int round = 0; round < 120; round++) {
		int c = 3 + round % 2, h = 1 + resample_simd_rand(&st) % 200;
		int w = 1 + resample_simd_rand(&st) % 300;
		int oh = 1 + resample_simd_rand(&st) % 120, ow = 1 + resample_simd_rand(&st) % 261;
		tl_image_t img = {.w = w, .h = h, .c = c, .px = malloc((size_t)w * h * c)};
		float *as_float = malloc(sizeof(float) * (size_t)w * h * c);
		cr_assert(img.px && as_float);
		for (size_t k = 0; k < (size_t)w * h * c; k++) {
			img.px[k] = (uint8_t)resample_simd_rand(&st);
			as_float[k] = img.px[k] * 0.75f - 17.5f; /* negative values too */
		}
		img_filter_t f = filters[round % 6];
		img_filters_t fs = {f, filters[(round / 6) % 6], round % 3 != 0};
		int mode = round % 3;
		bool in_float = mode == 2, out_float = mode >= 1;
		size_t bytes = (size_t)oh * ow * c * (out_float ? 4 : 1);
		uint8_t *a = malloc(bytes), *b = malloc(bytes);
		cr_assert(a && b);
		cr_assert(dalic_img_resample_use_avx2(true));
		resample_simd_run(&img, as_float, in_float, out_float, fs, oh, ow, a);
		cr_assert(!dalic_img_resample_use_avx2(false));
		resample_simd_run(&img, as_float, in_float, out_float, fs, oh, ow, b);
		dalic_img_resample_use_avx2(true);
		cr_expect(!memcmp(a, b, bytes),
			  "round %d: %dx%dx%d to %dx%d, filters %d/%d, mode %d: AVX2 and SSE2 differ",
			  round, h, w, c, oh, ow, (int)fs.min, (int)fs.mag, mode);
		free(a);
		free(b);
		free(as_float);
		free(img.px);
	}
}
