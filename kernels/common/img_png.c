/*
 * PNG for img_codec, as DALI 2.4 reads it. The header is probed as nvImageCodec's parser does:
 * the signature, a 13-byte IHDR with a valid depth and colour type, then every chunk up to
 * IEND — a file that ends before its IEND chunk fails, even when its image data is complete —
 * and the orientation of an eXIf chunk. The pixels are decoded as OpenCV's PNG reader decodes
 * them for the channels DALI asks for: alpha stripped unless four channels are wanted
 * (then tRNS becomes alpha), palettes expanded, gray depths below 8 expanded, gray expanded to
 * RGB for colour, and colour to gray by libpng's own rgb_to_gray with OpenCV's 0.299 / 0.587
 * weights (its fixed-point, truncating arithmetic, gamma-aware when the file has gAMA/sRGB);
 * 16-bit samples are scaled to 8 bits with rounding; interlaced files are deinterlaced; the
 * chunks after the image data are read too (png_read_end). libpng's warnings and benign
 * errors (a bad CRC in an ancillary chunk, ...) keep the image and are kept as warnings.
 */
#include "kernels/common/img_codec_impl.h"

#include "dalic.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

typedef struct pngdec_src {
	const uint8_t *data;
	size_t n, pos;
	char *err;
	size_t errn;
	img_warnings_t *warnings;
} pngdec_src_t;

static uint32_t pngdec_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int pngdec_bad(char *err, size_t errn, const char *what)
{
	snprintf(err, errn, "bad PNG header: %s", what);
	return -1;
}

/* DALI's channels of a colour type: palette counts as 3, alpha included. */
static int pngdec_planes(int color)
{
	switch (color) {
	case 0: return 1;
	case 4: return 2;
	case 6: return 4;
	default: return 3;
	}
}

int dalic_img_png_probe(img_decoder_t *d, const uint8_t *data, size_t n, img_info_t *info,
                        char *err, size_t errn)
{
	(void)d;
	if (n < 8 + 8 + 13 + 4)
		return pngdec_bad(err, errn, "the file ends inside its IHDR chunk (truncated)");
	if (pngdec_be32(data + 8) != 13 || memcmp(data + 12, "IHDR", 4))
		return pngdec_bad(err, errn, "no 13-byte IHDR chunk first");
	const uint8_t *h = data + 16;
	uint32_t w = pngdec_be32(h), hh = pngdec_be32(h + 4);
	int depth = h[8], color = h[9];
	bool depth_ok = depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16;
	bool pair_ok = color == 0 || (color == 3 && depth != 16) ||
		       ((color == 2 || color == 4 || color == 6) && (depth == 8 || depth == 16));
	if (!depth_ok || !pair_ok) {
		char what[64];
		snprintf(what, sizeof what, "bit depth %d with colour type %d", depth, color);
		return pngdec_bad(err, errn, what);
	}
	/* DALI's extents are unsigned 32-bit; ours are int: more than 2^31-1 cannot decode */
	if (w > 0x7fffffffu || hh > 0x7fffffffu)
		return pngdec_bad(err, errn, "extents past 2^31");
	info->width = (int)w;
	info->height = (int)hh;
	info->precision = depth;
	info->png_color = color;
	info->channels = pngdec_planes(color);
	/* every chunk to IEND, as the parser walks them */
	size_t pos = 8 + 8 + 13 + 4;
	for (;;) {
		if (n - pos < 8)
			return pngdec_bad(err, errn, "the file ends before its IEND chunk (truncated)");
		uint32_t len = pngdec_be32(data + pos);
		const uint8_t *type = data + pos + 4;
		if (!memcmp(type, "IEND", 4))
			break;
		if (!memcmp(type, "eXIf", 4)) {
			if (len > n - pos - 8)
				return pngdec_bad(err, errn, "the eXIf chunk ends past the file");
			int o = dalic_img_exif_orientation(data + pos + 8, len);
			info->orientation = o ? o : 1;
		}
		if ((uint64_t)len + 12 > n - pos)
			return pngdec_bad(err, errn, "the file ends before its IEND chunk (truncated)");
		pos += (size_t)len + 12;
	}
	return 0;
}

static void pngdec_src_read(png_structp png, png_bytep out, png_size_t len)
{
	pngdec_src_t *s = png_get_io_ptr(png);
	if (len > s->n - s->pos)
		png_error(png, "unexpected end of PNG data (truncated file)");
	memcpy(out, s->data + s->pos, len);
	s->pos += len;
}

static void pngdec_on_error(png_structp png, png_const_charp msg)
{
	pngdec_src_t *s = png_get_error_ptr(png);
	snprintf(s->err, s->errn, "%s", msg);
	png_longjmp(png, 1);
}

static void pngdec_on_warning(png_structp png, png_const_charp msg)
{
	pngdec_src_t *s = png_get_error_ptr(png);
	dalic_img_warn(s->warnings, msg);
}

/* OpenCV's transformations for `channels` output channels (1: gray, 3: RGB, 4: RGBA); 16-bit
 * samples scaled to 8 bits unless `keep16`. */
static void pngdec_transform(png_structp png, png_infop pi, int channels, bool keep16)
{
	int color = png_get_color_type(png, pi), depth = png_get_bit_depth(png, pi);
	if (depth == 16 && !keep16)
		png_set_scale_16(png);
	if (depth == 16 && keep16) {
		const uint16_t one = 1;
		if (*(const uint8_t *)&one) /* little-endian host */
			png_set_swap(png);
	}
	if (channels < 4)
		png_set_strip_alpha(png);
	else
		png_set_tRNS_to_alpha(png);
	if (color == PNG_COLOR_TYPE_PALETTE)
		png_set_palette_to_rgb(png);
	if (!(color & PNG_COLOR_MASK_COLOR) && depth < 8)
		png_set_expand_gray_1_2_4_to_8(png);
	if (channels > 1 && !(color & PNG_COLOR_MASK_COLOR))
		png_set_gray_to_rgb(png);
	else if (channels == 1)
		png_set_rgb_to_gray(png, 1, 0.299, 0.587);
	png_set_interlace_handling(png);
	png_read_update_info(png, pi);
}

/* libpng's part of dalic_img_png_decode. */
static int pngdec_read(img_decoder_t *d, const uint8_t *data, size_t n, const img_info_t *info,
                       int channels, bool keep16, uint8_t *out, char *err, size_t errn)
{
	pngdec_src_t src = {data, n, 0, err, errn, &d->warnings};
	png_structp png =
	    png_create_read_struct(PNG_LIBPNG_VER_STRING, &src, pngdec_on_error, pngdec_on_warning);
	png_infop pi = png ? png_create_info_struct(png) : NULL;
	png_infop end = png ? png_create_info_struct(png) : NULL;
	if (!pi || !end) {
		png_destroy_read_struct(&png, &pi, &end);
		snprintf(err, errn, "out of memory for a PNG reader");
		return -1;
	}
	png_bytep *rows = (png_bytep *)dalic_img_scratch_get(&d->rows, sizeof(png_bytep) *
								  (size_t)info->height);
	if (!rows) {
		png_destroy_read_struct(&png, &pi, &end);
		snprintf(err, errn, "%d PNG rows: %s", info->height, dalic_last_error());
		return -1;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_read_struct(&png, &pi, &end);
		return -1;
	}
	png_set_read_fn(png, &src, pngdec_src_read);
	png_read_info(png, pi);
	if ((int)png_get_image_width(png, pi) != info->width ||
	    (int)png_get_image_height(png, pi) != info->height)
		png_error(png, "PNG header changed between probe and decode");
	pngdec_transform(png, pi, channels, keep16);
	if ((int)png_get_channels(png, pi) != channels ||
	    png_get_bit_depth(png, pi) != (keep16 ? 16 : 8))
		png_error(png, "unexpected PNG layout after the transformations");
	size_t stride = (size_t)info->width * (size_t)channels * (keep16 ? 2 : 1);
	for (int y = 0; y < info->height; y++)
		rows[y] = out + (size_t)y * stride;
	png_read_image(png, rows);
	png_read_end(png, end);
	png_destroy_read_struct(&png, &pi, &end);
	return 0;
}

int dalic_img_png_decode(img_decoder_t *d, const uint8_t *data, size_t n, const img_info_t *info,
                         int output_type, img_px_t *px, uint8_t *out, char *err, size_t errn)
{
	int channels = output_type == DALIC_GRAY ? 1
		       : output_type == DALIC_ANY_DATA && (info->channels == 1 || info->channels == 4)
			   ? info->channels
			   : 3;
	bool keep16 = output_type == DALIC_YCbCr && info->precision == 16;
	*px = channels == 1 ? IMG_PX_GRAY : channels == 4 ? IMG_PX_RGBA : keep16 ? IMG_PX_RGB16
									   : IMG_PX_RGB;
	return pngdec_read(d, data, n, info, channels, keep16, out, err, errn);
}
