/*
 * Debug mode: inspecting values. Statistics per sample and per batch (NaN and Inf counted,
 * not averaged), image previews from HWC/CHW samples of any numeric type, and preview files
 * (PNG, PPM, PGM) — including a decoded photograph taken from a running session.
 */
#include "tests/testlib.h"

#include "engine/batch.h"

#include <unistd.h>

TestSuite(debug_inspect, .timeout = 60, .fini = tl_tmpdir_remove);

static dalic_batch_t *debug_inspect_one_sample(dalic_dtype_t t, int ndim, const int64_t *shape,
                                               const char *layout, const void *data)
{
	dalic_batch_t *b = calloc(1, sizeof *b);
	dalic_batch_init(b, DALIC_MEM_HOST, true, NULL);
	ASSERT_OK(dalic_batch_set_meta(b, 1, t, ndim));
	dalic_batch_set_shape(b, 0, shape);
	dalic_batch_set_layout(b, layout);
	ASSERT_OK(dalic_batch_alloc(b));
	memcpy(b->ptrs[0], data, dalic_batch_sample_bytes(b, 0));
	return b;
}

static void debug_inspect_free_batch(dalic_batch_t *b)
{
	dalic_batch_free(b);
	free(b);
}

Test(debug_inspect, statistics_count_nan_and_inf_apart)
{
	float v[] = {1, 2, NAN, 3, INFINITY, -INFINITY};
	dalic_batch_t *b = debug_inspect_one_sample(DALIC_FLOAT, 1, (const int64_t[]){6}, "", v);
	dalic_debug_stats_t st;
	ASSERT_OK(dalic_debug_stats(b, 0, &st));
	cr_expect_eq(st.elements, 6);
	cr_expect_eq(st.nan_count, 1);
	cr_expect_eq(st.inf_count, 2);
	cr_expect_float_eq(st.min, 1, 1e-12);
	cr_expect_float_eq(st.max, 3, 1e-12);
	cr_expect_float_eq(st.mean, 2, 1e-12);
	cr_expect_float_eq(st.std, sqrt(2.0 / 3.0), 1e-12, "population std of 1, 2, 3");
	EXPECT_STATUS(dalic_debug_stats(b, 1, &st), DALIC_EINVAL);
	debug_inspect_free_batch(b);

	/* a batch of two int16 samples: whole-batch figures cover both */
	dalic_batch_t c;
	dalic_batch_init(&c, DALIC_MEM_HOST, false, NULL);
	ASSERT_OK(dalic_batch_set_meta(&c, 2, DALIC_INT16, 1));
	dalic_batch_set_shape(&c, 0, (const int64_t[]){2});
	dalic_batch_set_shape(&c, 1, (const int64_t[]){1});
	ASSERT_OK(dalic_batch_alloc(&c));
	((int16_t *)c.ptrs[0])[0] = -4;
	((int16_t *)c.ptrs[0])[1] = 10;
	((int16_t *)c.ptrs[1])[0] = 30000;
	ASSERT_OK(dalic_debug_stats(&c, -1, &st));
	cr_expect_eq(st.elements, 3);
	cr_expect_float_eq(st.min, -4, 1e-12);
	cr_expect_float_eq(st.max, 30000, 1e-12);
	cr_expect_float_eq(st.mean, 10002, 1e-9);
	ASSERT_OK(dalic_debug_stats(&c, 1, &st));
	cr_expect_float_eq(st.std, 0, 1e-12);
	dalic_batch_free(&c);
}

Test(debug_inspect, previews_take_hwc_and_chw_and_scale_unit_floats)
{
	/* CHW float in [0, 1]: 2 channels is not an image, 3 is */
	float chw[12] = {0, 1, 0.5f, 0.25f, /* R */ 1, 1, 1, 1, /* G */ 0, 0, 0, 0.2f /* B */};
	dalic_batch_t *b =
	    debug_inspect_one_sample(DALIC_FLOAT, 3, (const int64_t[]){3, 2, 2}, "CHW", chw);
	dalic_debug_image_t img;
	ASSERT_OK(dalic_debug_preview(b, 0, &img));
	cr_expect_eq(img.width, 2);
	cr_expect_eq(img.height, 2);
	cr_expect_eq(img.channels, 3);
	const unsigned char want[12] = {0, 255, 0, 255, 255, 0, 128, 255, 0, 64, 255, 51};
	cr_expect_eq(memcmp(img.pixels, want, 12), 0, "%d %d %d | %d %d %d", img.pixels[0],
	             img.pixels[1], img.pixels[2], img.pixels[9], img.pixels[10], img.pixels[11]);
	dalic_debug_image_free(&img);
	debug_inspect_free_batch(b);

	/* HWC int32 beyond [0, 255] is clamped */
	int32_t hwc[3] = {-5, 100, 999};
	b = debug_inspect_one_sample(DALIC_INT32, 3, (const int64_t[]){1, 1, 3}, "HWC", hwc);
	ASSERT_OK(dalic_debug_preview(b, 0, &img));
	cr_expect_eq(img.pixels[0], 0);
	cr_expect_eq(img.pixels[1], 100);
	cr_expect_eq(img.pixels[2], 255);
	dalic_debug_image_free(&img);
	debug_inspect_free_batch(b);

	float line[4] = {0};
	b = debug_inspect_one_sample(DALIC_FLOAT, 1, (const int64_t[]){4}, "", line);
	EXPECT_STATUS(dalic_debug_preview(b, 0, &img), DALIC_EUNSUPPORTED);
	EXPECT_STATUS(dalic_debug_save_image(b, 0, "/tmp/x.png"), DALIC_EUNSUPPORTED);
	debug_inspect_free_batch(b);
}

static size_t debug_inspect_read_head(const char *path, unsigned char *buf, size_t n)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "%s was not written", path);
	size_t k = fread(buf, 1, n, f);
	fclose(f);
	return k;
}

Test(debug_inspect, a_decoded_photo_is_saved_as_png_ppm_and_pgm)
{
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *reader = tl_op(p, "readers.file");
	/* a list of files: file_filters over samples/images would also visit folders
	 * without a match */
	ASSERT_OK(dalic_op_set_strings(reader, "files", 1,
	                               (const char *const[]){"samples/images/cat/chelsea.jpg"}));
	dalic_op_t *decode = tl_op(p, "decoders.image");
	tl_input(decode, dalic_op_output(reader, 0));
	tl_output(p, decode);
	dalic_debug_t *s = tl_debug_open(p);
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	const dalic_batch_t *img = dalic_debug_node(s, dalic_op_name(decode), NULL);
	cr_assert_not_null(img);
	cr_expect_str_eq(dalic_batch_layout(img), "HWC");
	cr_expect(strstr(dalic_batch_source(img, 0), "chelsea.jpg"));
	const char *png = tl_tmp_path("prev.png"), *ppm = tl_tmp_path("prev.ppm"),
	           *pgm = tl_tmp_path("prev.pgm");
	ASSERT_DEBUG_OK(s, dalic_debug_save_image(img, 0, png));
	ASSERT_DEBUG_OK(s, dalic_debug_save_image(img, 0, ppm));
	ASSERT_DEBUG_OK(s, dalic_debug_save_image(img, 0, pgm));
	unsigned char head[32] = {0};
	debug_inspect_read_head(png, head, 8);
	cr_expect_eq(memcmp(head, "\x89PNG\r\n\x1a\n", 8), 0);
	char want[64];
	const int64_t *shape = dalic_batch_shape(img, 0);
	snprintf(want, sizeof want, "P6\n%lld %lld\n255\n", (long long)shape[1],
	         (long long)shape[0]);
	memset(head, 0, sizeof head);
	debug_inspect_read_head(ppm, head, strlen(want));
	cr_expect_str_eq((char *)head, want);
	want[1] = '5';
	memset(head, 0, sizeof head);
	debug_inspect_read_head(pgm, head, strlen(want));
	cr_expect_str_eq((char *)head, want);
	EXPECT_STATUS(dalic_debug_save_image(img, 0, "/tmp/x.jpg"), DALIC_EINVAL);
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}
