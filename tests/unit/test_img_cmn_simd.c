/*
 * crop_mirror_normalize's RGB rows (uint8 HWC in, float CHW out) give the same bits in every
 * form, AVX2, SSE2 and scalar (kernels/common/img_cmn_simd.h): random images of random widths
 * (under one vector, odd, many vectors) with random crops, mirror on and off and random
 * normalisations, each checked against values computed here in float as DALI defines them,
 * ((v - mean) * scale / std + shift as v * (scale / std) + (shift - mean * scale / std)); then
 * the sample photos (djpeg's decode), the three forms compared byte for byte.
 */
#include "tests/testlib/image.h"

#include "kernels/common/img_cmn_simd.h"

#include <string.h>

TestSuite(img_cmn_simd, .timeout = 120);

static uint32_t img_cmn_simd_rand(uint32_t *state)
{
	*state = *state * 1664525u + 1013904223u;
	return *state >> 8;
}

typedef struct img_cmn_simd_case {
	int h, w, ch, cw, right, bottom, mirror;
	double mean[3], std[3], scale, shift;
} img_cmn_simd_case_t;

/* Runs crop_mirror_normalize on one HWC image; returns a copy of the float CHW output. */
static float *img_cmn_simd_run(const uint8_t *px, const img_cmn_simd_case_t *k)
{
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "in");
	dalic_op_t *op = tl_op(p, "crop_mirror_normalize");
	tl_input(op, "in");
	ASSERT_OK(dalic_op_set_float(op, "crop_h", k->ch));
	ASSERT_OK(dalic_op_set_float(op, "crop_w", k->cw));
	ASSERT_OK(dalic_op_set_float(op, "crop_pos_x", k->right));
	ASSERT_OK(dalic_op_set_float(op, "crop_pos_y", k->bottom));
	ASSERT_OK(dalic_op_set_int(op, "mirror", k->mirror));
	ASSERT_OK(dalic_op_set_floats(op, "mean", 3, k->mean));
	ASSERT_OK(dalic_op_set_floats(op, "std", 3, k->std));
	ASSERT_OK(dalic_op_set_float(op, "scale", k->scale));
	ASSERT_OK(dalic_op_set_float(op, "shift", k->shift));
	tl_output(p, op);
	tl_feed(p, "in", DALIC_UINT8, 3, 1, (const int64_t[]){k->h, k->w, 3}, px, "HWC");
	const dalic_batch_t *b = tl_run(p, 0);
	tl_expect_shape(b, 0, 3, (const int64_t[]){3, k->ch, k->cw});
	size_t n = (size_t)3 * k->ch * k->cw;
	float *out = malloc(n * sizeof *out);
	cr_assert(out);
	memcpy(out, dalic_batch_data(b, 0), n * sizeof *out);
	dalic_pipeline_destroy(p);
	return out;
}

/* The case in every form the CPU has, compared with each other (and with `want` if given). */
static void img_cmn_simd_compare(const uint8_t *px, const img_cmn_simd_case_t *k, const float *want,
                                 const char *what)
{
	size_t bytes = sizeof(float) * 3 * (size_t)k->ch * (size_t)k->cw;
	float *first = NULL;
	for (int level = IMG_CMN_AVX2; level >= IMG_CMN_SCALAR; level--) {
		if (dalic_img_cmn_simd_limit(level) != level)
			continue; /* not on this CPU or build */
		float *got = img_cmn_simd_run(px, k);
		if (want)
			cr_expect(!memcmp(got, want, bytes),
			          "%s: form %d differs from the reference", what, level);
		if (first)
			cr_expect(!memcmp(got, first, bytes), "%s: form %d differs from the best",
			          what, level);
		if (first)
			free(got);
		else
			first = got;
	}
	free(first);
	dalic_img_cmn_simd_limit(IMG_CMN_AVX2);
}

Test(img_cmn_simd, every_form_equals_the_reference_on_random_images)
{
	uint32_t st = 7;
	for (int round = 0; round < 60; round++) {
		img_cmn_simd_case_t k = {.h = 1 + img_cmn_simd_rand(&st) % 4,
		                         .w = 1 + img_cmn_simd_rand(&st) % 90,
		                         .mirror = round % 2,
		                         .scale = round % 3 ? 1.0 : 1.0 / 64,
		                         .shift = round % 5 ? 0.0 : 128.25};
		k.ch = 1 + img_cmn_simd_rand(&st) % k.h;
		k.cw = 1 + img_cmn_simd_rand(&st) % k.w;
		k.right = img_cmn_simd_rand(&st) % 2, k.bottom = img_cmn_simd_rand(&st) % 2;
		for (int c = 0; c < 3; c++) {
			k.mean[c] = (img_cmn_simd_rand(&st) % 25600) / 100.0;
			k.std[c] = 0.5 + (img_cmn_simd_rand(&st) % 9000) / 100.0;
		}
		size_t n = (size_t)k.h * k.w * 3;
		uint8_t *px = malloc(n);
		float *want = malloc(sizeof(float) * 3 * (size_t)k.ch * k.cw);
		cr_assert(px && want);
		for (size_t i = 0; i < n; i++)
			px[i] = (uint8_t)img_cmn_simd_rand(&st);
		/* crop_pos 0 or 1 puts the window at the top / left or bottom / right edge */
		int ay = k.bottom ? k.h - k.ch : 0, ax = k.right ? k.w - k.cw : 0;
		for (int c = 0; c < 3; c++) {
			float mul = (float)k.scale / (float)k.std[c];
			float add = (float)k.shift - (float)k.mean[c] * mul;
			for (int y = 0; y < k.ch; y++)
				for (int x = 0; x < k.cw; x++) {
					int sx = ax + (k.mirror ? k.cw - 1 - x : x);
					float v = px[((size_t)(ay + y) * k.w + sx) * 3 + c];
					want[((size_t)c * k.ch + y) * k.cw + x] = v * mul + add;
				}
		}
		char what[128];
		snprintf(what, sizeof what, "round %d (%dx%d, crop %dx%d at %d,%d, mirror %d)",
		         round, k.h, k.w, k.ch, k.cw, k.bottom, k.right, k.mirror);
		img_cmn_simd_compare(px, &k, want, what);
		free(px);
		free(want);
	}
}

Test(img_cmn_simd, every_form_gives_the_same_bytes_on_the_photos)
{
	if (!tl_have_djpeg())
		cr_skip_test("no djpeg");
	static const char *files[] = {"cat/chelsea.jpg", "coffee/coffee_444.jpg",
	                              "space/rocket.jpg"};
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		char path[256];
		snprintf(path, sizeof path, "samples/images/%s", files[i]);
		tl_image_t img = tl_djpeg("", path);
		cr_assert(img.px && img.c == 3, "%s", path);
		for (int mirror = 0; mirror < 2; mirror++) {
			/* ImageNet's normalisation on a window of odd width */
			img_cmn_simd_case_t k = {.h = img.h,
			                         .w = img.w,
			                         .ch = img.h - 3,
			                         .cw = img.w - 5,
			                         .right = 1,
			                         .bottom = 0,
			                         .mirror = mirror,
			                         .mean = {0.485 * 255, 0.456 * 255, 0.406 * 255},
			                         .std = {0.229 * 255, 0.224 * 255, 0.225 * 255},
			                         .scale = 1,
			                         .shift = 0};
			char what[300];
			snprintf(what, sizeof what, "%s, mirror %d", path, mirror);
			img_cmn_simd_compare(img.px, &k, NULL, what);
		}
		free(img.px);
	}
}
