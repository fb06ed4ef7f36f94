/*
 * Image previews of samples: any image-like sample (HWC or CHW, or 2-D, of any numeric type)
 * becomes 8-bit HWC pixels, for a PNG/PPM file or for the TUI's terminal cells. Values map to
 * [0, 255] the way people expect to look at them: uint8 as is, floats in [0, 1] scaled by 255
 * (normalized images), everything else clamped. NaN shows as 0.
 *
 * PNG is written here with libpng rather than through cli/dump.c because the library (and the
 * TUI) must not depend on the command-line program's objects.
 */
#include "debugmode/session.h"

#include "engine/dtype.h"
#include "engine/error.h"

#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Height, width, channels and strides (in elements) of an image-like sample. */
typedef struct geom {
	int64_t h, w, c;
	int64_t sh, sw, sc;
} geom_t;

static bool preview_image_geometry(const dalic_batch_t *b, int i, geom_t *g)
{
	const int64_t *s = dalic_batch_shape(b, i);
	const char *layout = b->layout;
	if (b->ndim == 2) {
		*g = (geom_t){s[0], s[1], 1, s[1], 1, 0};
	} else if (b->ndim == 3 && !strcmp(layout, "CHW")) {
		*g = (geom_t){s[1], s[2], s[0], s[2], 1, s[1] * s[2]};
	} else if (b->ndim == 3 && (!strcmp(layout, "HWC") || (!*layout && s[2] <= 4))) {
		*g = (geom_t){s[0], s[1], s[2], s[1] * s[2], s[2], 1};
	} else if (b->ndim == 3 && !*layout && s[0] <= 4) {
		*g = (geom_t){s[1], s[2], s[0], s[2], 1, s[1] * s[2]};
	} else {
		return false;
	}
	return g->h > 0 && g->w > 0 && (g->c == 1 || g->c == 3 || g->c == 4);
}

int dalic_debug_preview(const dalic_batch_t *b, int sample, dalic_debug_image_t *out)
{
	memset(out, 0, sizeof *out);
	if (!b || sample < 0 || sample >= b->num_samples)
		return dalic_fail(DALIC_EINVAL, "preview: sample %d out of range", sample);
	geom_t g;
	if (!dalic_dtype_is_numeric(b->dtype) || !preview_image_geometry(b, sample, &g))
		return dalic_fail(DALIC_EUNSUPPORTED,
		                  "preview: a sample of shape with %d dims, layout \"%s\" and type "
		                  "%s is not an image (HWC/CHW with 1, 3 or 4 channels, or 2-D)",
		                  b->ndim, b->layout, dalic_dtype_name(b->dtype));
	size_t n = (size_t)(g.h * g.w * g.c);
	out->pixels = malloc(n);
	if (!out->pixels)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	const void *data = b->ptrs[sample];
	double scale = 1;
	if (dalic_dtype_is_float(b->dtype)) {
		dalic_debug_stats_t st;
		dalic_debug_sample_stats(b, sample, false, &st);
		if (!(st.min < 0) && !(st.max > 1))
			scale = 255;
	}
	size_t k = 0;
	for (int64_t y = 0; y < g.h; y++)
		for (int64_t x = 0; x < g.w; x++)
			for (int64_t c = 0; c < g.c; c++) {
				int64_t at = y * g.sh + x * g.sw + c * g.sc;
				double v = b->dtype == DALIC_UINT8
				               ? ((const uint8_t *)data)[at]
				               : dalic_dtype_load_f64(b->dtype, data, at);
				v = isnan(v) ? 0 : v * scale;
				out->pixels[k++] = (unsigned char)(v < 0     ? 0
				                                   : v > 255 ? 255
				                                             : lround(v));
			}
	out->height = (int)g.h;
	out->width = (int)g.w;
	out->channels = (int)g.c;
	return DALIC_OK;
}

void dalic_debug_image_free(dalic_debug_image_t *img)
{
	if (!img)
		return;
	free(img->pixels);
	memset(img, 0, sizeof *img);
}

static int preview_write_png(FILE *f, const char *path, const dalic_debug_image_t *img)
{
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	if (!png || !info || setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		return dalic_fail(DALIC_EIO, "%s: PNG encoding failed", path);
	}
	int type = img->channels == 1   ? PNG_COLOR_TYPE_GRAY
	           : img->channels == 3 ? PNG_COLOR_TYPE_RGB
	                                : PNG_COLOR_TYPE_RGBA;
	png_init_io(png, f);
	png_set_IHDR(png, info, (png_uint_32)img->width, (png_uint_32)img->height, 8, type,
	             PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	size_t row = (size_t)img->width * (size_t)img->channels;
	for (int y = 0; y < img->height; y++)
		png_write_row(png, img->pixels + (size_t)y * row);
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	return DALIC_OK;
}

/* Netpbm: P6 (RGB; gray is repeated, alpha dropped) or P5 (gray; colour averaged). */
static int preview_write_pnm(FILE *f, const dalic_debug_image_t *img, bool gray)
{
	fprintf(f, "%s\n%d %d\n255\n", gray ? "P5" : "P6", img->width, img->height);
	int c = img->channels;
	for (size_t p = 0; p < (size_t)img->width * (size_t)img->height; p++) {
		const unsigned char *px = img->pixels + p * (size_t)c;
		if (gray) {
			int v = c == 1 ? px[0] : (px[0] + px[1] + px[2] + 1) / 3;
			fputc(v, f);
		} else {
			for (int k = 0; k < 3; k++)
				fputc(px[c == 1 ? 0 : k], f);
		}
	}
	return DALIC_OK;
}

static bool preview_has_ext(const char *path, const char *ext)
{
	size_t n = strlen(path), m = strlen(ext);
	return n > m && !strcasecmp(path + n - m, ext);
}

int dalic_debug_save_image(const dalic_batch_t *b, int sample, const char *path)
{
	bool png = preview_has_ext(path, ".png"), ppm = preview_has_ext(path, ".ppm"), pgm = preview_has_ext(path, ".pgm");
	if (!png && !ppm && !pgm)
		return dalic_fail(DALIC_EINVAL, "%s: image files end in .png, .ppm or .pgm", path);
	dalic_debug_image_t img;
	int rc = dalic_debug_preview(b, sample, &img);
	if (rc)
		return rc;
	FILE *f = fopen(path, "wb");
	if (!f) {
		dalic_debug_image_free(&img);
		return dalic_fail(DALIC_EIO, "%s: %s", path, strerror(errno));
	}
	rc = png ? preview_write_png(f, path, &img) : preview_write_pnm(f, &img, pgm);
	if (fclose(f) && !rc)
		rc = dalic_fail(DALIC_EIO, "%s: write failed", path);
	dalic_debug_image_free(&img);
	return rc;
}
