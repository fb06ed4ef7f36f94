/*
 * Output dumps (`dalic run --dump DIR`): NumPy .npy (format 1.0: magic, header dict padded
 * to 64 bytes, raw little-endian data) for every sample, and PNG through libpng for images.
 * File names depend only on iteration, output and sample, so dumps from two executor modes
 * can be compared file by file.
 */
#include "cli/dump.h"

#include "engine/dtype.h"
#include "engine/error.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int dalic_dump_npy(const char *path, const dalic_batch_t *b, int i)
{
	const char *descr = dalic_dtype_npy_descr(dalic_batch_dtype(b));
	if (!descr)
		return dalic_fail(DALIC_EUNSUPPORTED, "%s: dtype %s has no .npy form", path,
				  dalic_dtype_name(dalic_batch_dtype(b)));
	char shape[256] = "", header[512];
	int ndim = dalic_batch_ndim(b);
	const int64_t *s = dalic_batch_shape(b, i);
	size_t n = 0;
	for (int d = 0; d < ndim; d++)
		n += (size_t)snprintf(shape + n, sizeof shape - n, "%lld,%s", (long long)s[d],
				      d + 1 < ndim ? " " : "");
	if (ndim > 1) /* (a, b,) is valid but numpy writes (a, b) */
		shape[n - 1] = 0;
	int len = snprintf(header, sizeof header,
			   "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr,
			   shape);
	int total = 10 + len + 1, pad = (64 - total % 64) % 64;
	FILE *f = fopen(path, "wb");
	if (!f)
		return dalic_fail(DALIC_EIO, "%s: %s", path, strerror(errno));
	unsigned short hlen = (unsigned short)(len + pad + 1);
	fwrite("\x93NUMPY\x01\x00", 1, 8, f);
	fputc(hlen & 0xff, f);
	fputc(hlen >> 8, f);
	fwrite(header, 1, (size_t)len, f);
	for (int k = 0; k < pad; k++)
		fputc(' ', f);
	fputc('\n', f);
	size_t bytes = dalic_batch_sample_bytes(b, i);
	size_t wrote = bytes ? fwrite(dalic_batch_data(b, i), 1, bytes, f) : 0;
	if (fclose(f) || wrote != bytes)
		return dalic_fail(DALIC_EIO, "%s: write failed", path);
	return DALIC_OK;
}

int dalic_dump_png(const char *path, const dalic_batch_t *b, int i)
{
	const int64_t *s = dalic_batch_shape(b, i);
	if (dalic_batch_dtype(b) != DALIC_UINT8 || dalic_batch_ndim(b) != 3 ||
	    strcmp(dalic_batch_layout(b), "HWC") || (s[2] != 1 && s[2] != 3 && s[2] != 4) ||
	    s[0] <= 0 || s[1] <= 0)
		return DALIC_EUNSUPPORTED;
	FILE *f = fopen(path, "wb");
	if (!f)
		return dalic_fail(DALIC_EIO, "%s: %s", path, strerror(errno));
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	if (!png || !info || setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		fclose(f);
		return dalic_fail(DALIC_EIO, "%s: PNG encoding failed", path);
	}
	int type = s[2] == 1 ? PNG_COLOR_TYPE_GRAY : s[2] == 3 ? PNG_COLOR_TYPE_RGB
							      : PNG_COLOR_TYPE_RGBA;
	png_init_io(png, f);
	png_set_IHDR(png, info, (png_uint_32)s[1], (png_uint_32)s[0], 8, type, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	const unsigned char *data = dalic_batch_data(b, i);
	for (int64_t y = 0; y < s[0]; y++)
		png_write_row(png, data + (size_t)y * (size_t)(s[1] * s[2]));
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	return fclose(f) ? dalic_fail(DALIC_EIO, "%s: write failed", path) : DALIC_OK;
}

int dalic_dump_outputs(const char *dir, dalic_pipeline_t *p, int64_t iteration)
{
	if (mkdir(dir, 0777) && errno != EEXIST)
		return dalic_fail(DALIC_EIO, "%s: %s", dir, strerror(errno));
	char path[4096];
	for (int o = 0; o < dalic_pipeline_num_outputs(p); o++) {
		const dalic_batch_t *b = dalic_pipeline_output(p, o);
		for (int i = 0; i < dalic_batch_num_samples(b); i++) {
			snprintf(path, sizeof path, "%s/i%06lld_o%d_s%03d.npy", dir,
				 (long long)iteration, o, i);
			int rc = dalic_dump_npy(path, b, i);
			if (rc)
				return rc;
			snprintf(path, sizeof path, "%s/i%06lld_o%d_s%03d.png", dir,
				 (long long)iteration, o, i);
			rc = dalic_dump_png(path, b, i);
			if (rc && rc != DALIC_EUNSUPPORTED)
				return rc;
		}
	}
	return DALIC_OK;
}
