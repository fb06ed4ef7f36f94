/*
 * Image decoding for decoders.image and decoders.image_random_crop: format sniffing, header
 * probing (size, channels, EXIF orientation) and decoding into HWC uint8 with DALI's
 * output types, optionally only a window of the (oriented) image.
 *
 * JPEG goes through libturbojpeg with djpeg's default settings (accurate integer IDCT, fancy
 * upsampling), so full decodes are bit-exact with `djpeg`. Windows are decoded with
 * libjpeg-turbo's jpeg_crop_scanline / jpeg_skip_scanlines, which skip the IDCT, upsampling
 * and colour conversion outside the window and stop after its last row (see img_jpeg.c);
 * the pixels equal a whole decode cut to the window. PNG goes through libpng.
 *
 * Output types (DALIImageType): RGB, BGR, GRAY (the JPEG luma plane; DALI's 0.299/0.587/0.114
 * for other sources), YCbCr (DALI's full-range BT.601 conversion from RGB), ANY_DATA (the
 * file's channels: 1 for grayscale, 2/4 for PNG with alpha, else 3).
 *
 * A decoder (img_decoder_t) holds one thread's codec handles and scratch buffers; buffers only
 * grow, so steady-state decoding allocates nothing.
 */
#ifndef DALIC_KERNELS_IMG_CODEC_H
#define DALIC_KERNELS_IMG_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
	IMG_FMT_UNKNOWN = 0,
	IMG_FMT_JPEG,
	IMG_FMT_PNG,
	IMG_FMT_BMP,
	IMG_FMT_TIFF,
	IMG_FMT_JPEG2000,
	IMG_FMT_WEBP,
	IMG_FMT_PNM,
	IMG_FMT_GIF,
} img_format_t;

/* Pixel layouts a codec hands back before conversion to the output type. */
typedef enum { IMG_PX_GRAY, IMG_PX_GA, IMG_PX_RGB, IMG_PX_BGR, IMG_PX_RGBA, IMG_PX_CMYK } img_px_t;

typedef struct img_info {
	img_format_t format;
	int width, height;   /* as stored (before orientation) */
	int channels;        /* stored channels: 1 gray, 2 gray+alpha, 3 colour, 4 RGBA or CMYK */
	bool cmyk;           /* JPEG in CMYK / YCCK */
	int orientation;     /* EXIF 1..8; 1 when absent or not applied */
	int subsampling;     /* JPEG: TJSAMP_* ; -1 otherwise */
	bool progressive;
} img_info_t;

typedef struct img_rect {
	int x, y, w, h;
} img_rect_t;

typedef struct img_decoder img_decoder_t;

/* New per-thread decoder, or NULL when out of memory. */
img_decoder_t *dalic_img_decoder_new(void);
void dalic_img_decoder_free(img_decoder_t *d);

/* Name of a format ("JPEG", "PNG", ...) for messages. */
const char *dalic_img_format_name(img_format_t f);
img_format_t dalic_img_sniff(const uint8_t *data, size_t n);

/* Reads the header. With adjust_orientation false the EXIF orientation is ignored (1).
 * Returns 0, or -1 with a message in err. */
int dalic_img_probe(img_decoder_t *d, const uint8_t *data, size_t n, bool adjust_orientation,
                    img_info_t *info, char *err, size_t errn);

/* Extents after orientation (5..8 swap width and height). */
static inline int img_oriented_w(const img_info_t *i)
{
	return i->orientation >= 5 ? i->height : i->width;
}
static inline int img_oriented_h(const img_info_t *i)
{
	return i->orientation >= 5 ? i->width : i->height;
}

/* Channels of the output for a DALIImageType (DALIC_RGB ... DALIC_ANY_DATA). */
int dalic_img_output_channels(const img_info_t *info, int output_type);

/* Decodes window `roi` (in oriented coordinates; NULL = whole image) into `out`, HWC uint8
 * with dalic_img_output_channels() channels and roi->w (or oriented width) pixels per row.
 * Returns 0, or -1 with a message in err (truncated or corrupt data, unsupported format). */
int dalic_img_decode(img_decoder_t *d, const uint8_t *data, size_t n, const img_info_t *info,
                     int output_type, const img_rect_t *roi, uint8_t *out, char *err, size_t errn);

/* Memory dalic_img_decode needs besides the output to decode `roi` (NULL = whole image): scratch
 * buffers plus the codec's own (a progressive JPEG keeps every DCT coefficient of the image,
 * about 2 bytes per pixel and component). Computed from the header, so a hostile header is
 * refused before anything is allocated. *library gets the codec's own part, which is not
 * allocated through dalic (callers charge it against the budget while decoding). */
uint64_t dalic_img_decode_memory(const img_info_t *info, int output_type, const img_rect_t *roi,
                                 uint64_t *library);

/* True when windows of JPEGs are decoded without decoding the rest (libjpeg loaded). */
bool dalic_img_jpeg_crop_available(void);

#endif
