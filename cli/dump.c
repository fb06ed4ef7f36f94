/*
 * Output dumps (`dalic run --dump DIR`): NumPy .npy (format 1.0: magic, header dict padded
 * to 64 bytes, raw little-endian data) for every sample, and PNG through libpng for images.
 * File names depend only on iteration, output and sample, so dumps from two executor modes
 * (and from debug mode) can be compared file by file. Each file is complete or absent
 * (cli/output.c).
 */
#include "cli/dump.h"

#include "cli/cli.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static const char *dump_npy_descr(dalic_dtype_t t)
{
	switch (t) {
	case DALIC_UINT8: return "|u1";
	case DALIC_UINT16: return "<u2";
	case DALIC_UINT32: return "<u4";
	case DALIC_UINT64: return "<u8";
	case DALIC_INT8: return "|i1";
	case DALIC_INT16: return "<i2";
	case DALIC_INT32: return "<i4";
	case DALIC_INT64: return "<i8";
	case DALIC_FLOAT16: return "<f2";
	case DALIC_FLOAT: return "<f4";
	case DALIC_FLOAT64: return "<f8";
	case DALIC_BOOL: return "|b1";
	default: return NULL;
	}
}

int dalic_cli_dump_npy(const char *path, const dalic_batch_t *b, int i)
{
	const char *descr = dump_npy_descr(dalic_batch_dtype(b));
	if (!descr)
		return dalic_cli_fail(DALIC_EUNSUPPORTED, "%s: dtype %s has no .npy form", path,
				      dalic_dtype_name(dalic_batch_dtype(b)));
	char shape[DALIC_MAX_NDIM * 24 + 8] = "", header[DALIC_MAX_NDIM * 24 + 128];
	int ndim = dalic_batch_ndim(b);
	const int64_t *s = dalic_batch_shape(b, i);
	size_t n = 0;
	for (int d = 0; d < ndim && d < DALIC_MAX_NDIM; d++)
		n += (size_t)snprintf(shape + n, sizeof shape - n, "%lld,%s", (long long)s[d],
				      d + 1 < ndim ? " " : "");
	if (ndim > 1) /* (a, b,) is valid but numpy writes (a, b) */
		shape[n - 1] = 0;
	int len = snprintf(header, sizeof header,
			   "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr,
			   shape);
	int total = 10 + len + 1, pad = (64 - total % 64) % 64;
	dalic_cli_file_t file;
	if (dalic_cli_file_open(&file, path))
		return DALIC_EIO;
	unsigned short hlen = (unsigned short)(len + pad + 1);
	fwrite("\x93NUMPY\x01\x00", 1, 8, file.f);
	fputc(hlen & 0xff, file.f);
	fputc(hlen >> 8, file.f);
	fwrite(header, 1, (size_t)len, file.f);
	fprintf(file.f, "%*s\n", pad, "");
	size_t bytes = dalic_batch_sample_bytes(b, i);
	bool ok = !bytes || fwrite(dalic_batch_data(b, i), 1, bytes, file.f) == bytes;
	return dalic_cli_file_close(&file, ok);
}

int dalic_cli_dump_png(const char *path, const dalic_batch_t *b, int i)
{
	const int64_t *s = dalic_batch_shape(b, i);
	if (dalic_batch_dtype(b) != DALIC_UINT8 || dalic_batch_ndim(b) != 3 ||
	    strcmp(dalic_batch_layout(b), "HWC") || (s[2] != 1 && s[2] != 3 && s[2] != 4) ||
	    s[0] <= 0 || s[1] <= 0 || s[0] > 0x7fffffff || s[1] > 0x7fffffff)
		return DALIC_EUNSUPPORTED;
	dalic_cli_file_t file;
	if (dalic_cli_file_open(&file, path))
		return DALIC_EIO;
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	if (!png || !info || setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		dalic_cli_file_close(&file, false);
		return dalic_cli_fail(DALIC_EIO, "%s: PNG encoding failed", path);
	}
	int type = s[2] == 1 ? PNG_COLOR_TYPE_GRAY : s[2] == 3 ? PNG_COLOR_TYPE_RGB
							      : PNG_COLOR_TYPE_RGBA;
	png_init_io(png, file.f);
	png_set_IHDR(png, info, (png_uint_32)s[1], (png_uint_32)s[0], 8, type, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	const unsigned char *data = dalic_batch_data(b, i);
	for (int64_t y = 0; y < s[0]; y++)
		png_write_row(png, data + (size_t)y * (size_t)(s[1] * s[2]));
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	return dalic_cli_file_close(&file, true);
}

int dalic_cli_dump_outputs(const char *dir, int64_t iteration, int num, dalic_cli_output_fn get,
			   void *ctx)
{
	if (mkdir(dir, 0777) && errno != EEXIST)
		return dalic_cli_fail(DALIC_EIO, "%s: %s", dir, strerror(errno));
	char path[4096];
	for (int o = 0; o < num; o++) {
		const dalic_batch_t *b = get(ctx, o);
		for (int i = 0; b && i < dalic_batch_num_samples(b); i++) {
			snprintf(path, sizeof path, "%s/i%06lld_o%d_s%03d.npy", dir,
				 (long long)iteration, o, i);
			int rc = dalic_cli_dump_npy(path, b, i);
			if (rc)
				return rc;
			snprintf(path, sizeof path, "%s/i%06lld_o%d_s%03d.png", dir,
				 (long long)iteration, o, i);
			rc = dalic_cli_dump_png(path, b, i);
			if (rc && rc != DALIC_EUNSUPPORTED)
				return rc;
		}
	}
	return DALIC_OK;
}
