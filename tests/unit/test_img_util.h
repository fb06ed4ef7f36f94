/*
 * Helpers for the image operator tests (test_img_*.c): reading files, running libjpeg-turbo's
 * djpeg as the reference decoder, building reader -> decoder pipelines through the public API,
 * and small image comparisons. Header-only, like helpers.h, on which it builds.
 */
#ifndef DALIC_TESTS_UNIT_TEST_IMG_UTIL_H
#define DALIC_TESTS_UNIT_TEST_IMG_UTIL_H

#include "helpers.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* One temporary directory per test: it_tmpdir() makes it, the suite's .fini = it_rmtree
 * removes it. */
static char it_tmp[256];

static inline const char *it_tmpdir(void)
{
	snprintf(it_tmp, sizeof it_tmp, "/tmp/dalic_img_XXXXXX");
	cr_assert_not_null(mkdtemp(it_tmp));
	return it_tmp;
}

static inline int it_rm_entry(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st, (void)flag, (void)f;
	return remove(path);
}

static inline void it_rmtree(void)
{
	if (it_tmp[0])
		nftw(it_tmp, it_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	it_tmp[0] = 0;
}

typedef struct it_image {
	int w, h, c;
	uint8_t *px; /* HWC */
} it_image_t;

static inline uint8_t *it_read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	rewind(f);
	uint8_t *d = malloc((size_t)size + 1);
	cr_assert_eq(fread(d, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	*n = (size_t)size;
	return d;
}

static inline void it_write_file(const char *path, const void *d, size_t n)
{
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f, "cannot create %s", path);
	cr_assert_eq(fwrite(d, 1, n, f), n);
	fclose(f);
}

static inline bool it_have_djpeg(void)
{
	return system("djpeg -version >/dev/null 2>&1") == 0;
}

/* Runs `djpeg <args> <path>` (PNM output) and parses the P5/P6 result. */
static inline it_image_t it_djpeg(const char *args, const char *path)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "djpeg -pnm %s '%s'", args, path);
	FILE *f = popen(cmd, "r");
	cr_assert_not_null(f, "cannot run %s", cmd);
	char magic[3] = {0};
	int maxval = 0;
	it_image_t im = {0};
	cr_assert_eq(fscanf(f, "%2s %d %d %d", magic, &im.w, &im.h, &maxval), 4, "%s", cmd);
	fgetc(f);
	cr_assert(maxval == 255 && (magic[1] == '5' || magic[1] == '6'), "%s: %s", cmd, magic);
	im.c = magic[1] == '6' ? 3 : 1;
	size_t n = (size_t)im.w * im.h * im.c;
	im.px = malloc(n);
	cr_assert_eq(fread(im.px, 1, n, f), n, "%s", cmd);
	cr_assert_eq(pclose(f), 0, "%s failed", cmd);
	return im;
}

/* A pipeline: readers.file over `files` (relative to `root`) -> `decoder` with output_type.
 * The decoder is named "Decoder"; output 0 is its output, output 1 the reader's bytes. */
static inline dalic_pipeline_t *it_decode_pipeline(const char *root, int n, const char **files,
						   const char *decoder, int output_type,
						   dalic_op_t **dec_out)
{
	dalic_pipeline_t *p = th_pipeline(n);
	dalic_op_t *rd = th_op(p, "readers.file");
	cr_assert_eq(dalic_op_set_string(rd, "file_root", root), DALIC_OK);
	cr_assert_eq(dalic_op_set_strings(rd, "files", n, files), DALIC_OK);
	dalic_op_t *dec = th_op(p, decoder);
	cr_assert_eq(dalic_op_set_name(dec, "Decoder"), DALIC_OK);
	th_input(dec, dalic_op_output(rd, 0));
	cr_assert_eq(dalic_op_set_int(dec, "output_type", output_type), DALIC_OK, "%s",
		     dalic_last_error());
	th_output(p, dec);
	if (dec_out)
		*dec_out = dec;
	return p;
}

/* Sample i of a uint8 HWC batch as an image (borrowed pixels). */
static inline it_image_t it_sample(const dalic_batch_t *b, int i)
{
	cr_assert_eq(dalic_batch_ndim(b), 3);
	const int64_t *s = dalic_batch_shape(b, i);
	return (it_image_t){(int)s[1], (int)s[0], (int)s[2], (uint8_t *)dalic_batch_data(b, i)};
}

/* Largest absolute difference of two same-shaped images; counts pixels differing by more
 * than `tol` into *over (may be NULL). */
static inline int it_max_diff(const it_image_t *a, const it_image_t *b, int tol, long *over)
{
	cr_assert(a->w == b->w && a->h == b->h && a->c == b->c, "%dx%dx%d vs %dx%dx%d", a->w,
		  a->h, a->c, b->w, b->h, b->c);
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

#endif
