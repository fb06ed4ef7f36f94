/* Shared helpers of the image operator tests (see tests/testlib/image.h). */
#include "tests/testlib/image.h"

#include <stdio.h>
#include <stdlib.h>

bool tl_have_djpeg(void)
{
	return system("djpeg -version >/dev/null 2>&1") == 0;
}

tl_image_t tl_djpeg(const char *args, const char *path)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "djpeg -pnm %s '%s'", args, path);
	FILE *f = popen(cmd, "r");
	cr_assert_not_null(f, "cannot run %s", cmd);
	char magic[3] = {0};
	int maxval = 0;
	tl_image_t im = {0};
	cr_assert_eq(fscanf(f, "%2s %d %d %d", magic, &im.w, &im.h, &maxval), 4, "%s", cmd);
	fgetc(f);
	cr_assert(maxval == 255 && (magic[1] == '5' || magic[1] == '6'), "%s: %s", cmd, magic);
	im.c = magic[1] == '6' ? 3 : 1;
	size_t n = (size_t)im.w * im.h * im.c;
	im.px = malloc(n);
	cr_assert_not_null(im.px);
	cr_assert_eq(fread(im.px, 1, n, f), n, "%s", cmd);
	cr_assert_eq(pclose(f), 0, "%s failed", cmd);
	return im;
}

dalic_pipeline_t *tl_decode_pipeline(const char *root, int n, const char **files,
                                     const char *decoder, int output_type, dalic_op_t **dec_out)
{
	dalic_pipeline_t *p = tl_pipeline(n);
	dalic_op_t *rd = tl_op(p, "readers.file");
	ASSERT_OK(dalic_op_set_string(rd, "file_root", root));
	ASSERT_OK(dalic_op_set_strings(rd, "files", n, files));
	dalic_op_t *dec = tl_op(p, decoder);
	ASSERT_OK(dalic_op_set_name(dec, "Decoder"));
	tl_input(dec, dalic_op_output(rd, 0));
	ASSERT_OK(dalic_op_set_int(dec, "output_type", output_type));
	tl_output(p, dec);
	if (dec_out)
		*dec_out = dec;
	return p;
}

tl_image_t tl_image_sample(const dalic_batch_t *b, int i)
{
	cr_assert_eq(dalic_batch_ndim(b), 3);
	const int64_t *s = dalic_batch_shape(b, i);
	return (tl_image_t){(int)s[1], (int)s[0], (int)s[2], (uint8_t *)dalic_batch_data(b, i)};
}

tl_image_t tl_image_cut(const tl_image_t *full, int x, int y, int w, int h)
{
	size_t c = (size_t)full->c;
	tl_image_t cut = {w, h, full->c, malloc((size_t)w * h * c + 1)};
	cr_assert_not_null(cut.px);
	for (int r = 0; r < h; r++)
		memcpy(cut.px + (size_t)r * w * c, full->px + ((size_t)(y + r) * full->w + x) * c,
		       (size_t)w * c);
	return cut;
}

void tl_expect_djpeg_window(const dalic_batch_t *b, int i, const char *file, int x, int y, int w,
                            int h)
{
	if (!tl_have_djpeg())
		cr_skip_test("djpeg (libjpeg-turbo-progs) is not installed");
	tl_expect_shape(b, i, 3, (int64_t[]){h, w, 3});
	char path[256];
	snprintf(path, sizeof path, "samples/images/%s", file);
	tl_image_t full = tl_djpeg("-rgb", path);
	tl_image_t ref = tl_image_cut(&full, x, y, w, h), got = tl_image_sample(b, i);
	cr_expect_eq(tl_image_max_diff(&got, &ref, 0, NULL), 0, "%s: %dx%d+%d+%d", file, w, h, x,
	             y);
	free(ref.px);
	free(full.px);
}

int tl_image_max_diff(const tl_image_t *a, const tl_image_t *b, int tol, long *over)
{
	cr_assert(a->w == b->w && a->h == b->h && a->c == b->c, "%dx%dx%d vs %dx%dx%d", a->w, a->h,
	          a->c, b->w, b->h, b->c);
	int m = 0;
	long n = 0;
	for (size_t k = 0; k < (size_t)a->w * a->h * a->c; k++) {
		int d = abs((int)a->px[k] - (int)b->px[k]);
		m = d > m ? d : m;
		n += d > tol;
	}
	if (over)
		*over = n;
	return m;
}
