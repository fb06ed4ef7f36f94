/*
 * PNG for img_codec through libpng's progressive-free read API: palettes and low bit depths
 * expand to 8-bit gray/RGB, tRNS becomes an alpha channel, 16-bit samples are scaled to 8
 * bits, interlaced files are deinterlaced. The result keeps the file's layout (GRAY, GA, RGB,
 * RGBA); img_codec.c converts it to the requested output type.
 */
#include "kernels/common/img_codec_impl.h"

#include "dalic.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

typedef struct png_src {
	const uint8_t *data;
	size_t n, pos;
	char *err;
	size_t errn;
} png_src_t;

static void pngdec_src_read(png_structp png, png_bytep out, png_size_t len)
{
	png_src_t *s = png_get_io_ptr(png);
	if (len > s->n - s->pos)
		png_error(png, "unexpected end of PNG data (truncated file)");
	memcpy(out, s->data + s->pos, len);
	s->pos += len;
}

static void pngdec_on_error(png_structp png, png_const_charp msg)
{
	png_src_t *s = png_get_error_ptr(png);
	snprintf(s->err, s->errn, "%s", msg);
	png_longjmp(png, 1);
}

static void pngdec_on_warning(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg; /* ancillary-chunk complaints do not affect pixels */
}

/* Opens a reader, reads the header and sets the 8-bit expansion; fills info. */
static int pngdec_open_png(png_structp png, png_infop pi, img_info_t *info)
{
	png_read_info(png, pi);
	int type = png_get_color_type(png, pi), depth = png_get_bit_depth(png, pi);
	if (type == PNG_COLOR_TYPE_PALETTE)
		png_set_palette_to_rgb(png);
	if (type == PNG_COLOR_TYPE_GRAY && depth < 8)
		png_set_expand_gray_1_2_4_to_8(png);
	if (png_get_valid(png, pi, PNG_INFO_tRNS))
		png_set_tRNS_to_alpha(png);
	if (depth == 16)
		png_set_scale_16(png);
	png_set_interlace_handling(png);
	png_read_update_info(png, pi);
	info->width = (int)png_get_image_width(png, pi);
	info->height = (int)png_get_image_height(png, pi);
	info->channels = png_get_channels(png, pi);
	return 0;
}

int dalic_img_png_probe(const uint8_t *data, size_t n, img_info_t *info, char *err, size_t errn)
{
	png_src_t src = {data, n, 0, err, errn};
	png_structp png =
	    png_create_read_struct(PNG_LIBPNG_VER_STRING, &src, pngdec_on_error, pngdec_on_warning);
	png_infop pi = png ? png_create_info_struct(png) : NULL;
	if (!pi) {
		png_destroy_read_struct(&png, NULL, NULL);
		snprintf(err, errn, "out of memory for a PNG reader");
		return -1;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_read_struct(&png, &pi, NULL);
		return -1;
	}
	png_set_read_fn(png, &src, pngdec_src_read);
	pngdec_open_png(png, pi, info);
	png_destroy_read_struct(&png, &pi, NULL);
	info->cmyk = false;
	info->orientation = 1;
	info->subsampling = -1;
	info->progressive = false;
	return 0;
}

int dalic_img_png_decode(img_decoder_t *d, const uint8_t *data, size_t n, const img_info_t *info,
                         uint8_t *out, char *err, size_t errn)
{
	png_src_t src = {data, n, 0, err, errn};
	png_structp png =
	    png_create_read_struct(PNG_LIBPNG_VER_STRING, &src, pngdec_on_error, pngdec_on_warning);
	png_infop pi = png ? png_create_info_struct(png) : NULL;
	if (!pi) {
		png_destroy_read_struct(&png, NULL, NULL);
		snprintf(err, errn, "out of memory for a PNG reader");
		return -1;
	}
	png_bytep *rows = (png_bytep *)dalic_img_scratch_get(&d->rows, sizeof(png_bytep) *
								  (size_t)info->height);
	if (!rows) {
		png_destroy_read_struct(&png, &pi, NULL);
		snprintf(err, errn, "%d PNG rows: %s", info->height, dalic_last_error());
		return -1;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_read_struct(&png, &pi, NULL);
		return -1;
	}
	png_set_read_fn(png, &src, pngdec_src_read);
	img_info_t now;
	pngdec_open_png(png, pi, &now);
	if (now.width != info->width || now.height != info->height ||
	    now.channels != info->channels)
		png_error(png, "PNG header changed between probe and decode");
	size_t stride = (size_t)info->width * (size_t)info->channels;
	for (int y = 0; y < info->height; y++)
		rows[y] = out + (size_t)y * stride;
	png_read_image(png, rows);
	png_destroy_read_struct(&png, &pi, NULL);
	return 0;
}
