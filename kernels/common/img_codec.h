/*
 * Image decoding for the decoder operators: format sniffing, header probing (size, channels,
 * EXIF orientation) and decoding into HWC uint8 with DALI's output types, optionally only a
 * window of the (oriented) image — decoding what DALI 2.4's CPU decoder decodes, into the same
 * pixels, and refusing what it refuses (docs/dali-behaviour.md, "Damaged images").
 *
 * Headers are read as nvImageCodec's parsers read them (a strict JPEG marker walk, a PNG chunk
 * walk to IEND), so files DALI cannot even parse fail in setup. JPEG pixels come from libjpeg
 * with djpeg's settings (accurate integer IDCT, fancy upsampling: bit-exact with `djpeg`);
 * windows are decoded with jpeg_crop_scanline / jpeg_skip_scanlines, which skip the IDCT,
 * upsampling and colour conversion outside the window and stop reading after its last row, as
 * DALI's ROI decode does; the pixels equal a whole decode cut to the window. libjpeg's warnings
 * ("Corrupt JPEG data: ...") keep the image, as in DALI; running out of data or a libjpeg error
 * refuses it. PNG goes through libpng with the transformations OpenCV (DALI's PNG decoder) asks
 * for, libpng's benign errors being warnings.
 *
 * Output types (DALIImageType): RGB, BGR, GRAY (the JPEG luma plane; libpng's rgb_to_gray for
 * PNG, as OpenCV), YCbCr (DALI's studio-range BT.601 conversion of the RGB decode), ANY_DATA
 * (the file's channels: 1 for grayscale, 4 for RGBA PNGs, else 3).
 *
 * Warnings a codec gives while probing or decoding are kept in the decoder (img_warnings_t)
 * until the next call, for the operator to report per sample.
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

/* Pixel layouts a codec hands back before conversion to the output type. CMYK comes from
 * JPEG in Adobe's inverted convention; DALI converts it one of three ways: its libjpeg path
 * with or without the Adobe marker, or OpenCV's (EXIF-rotated files go through OpenCV). */
typedef enum {
	IMG_PX_GRAY,
	IMG_PX_GA,
	IMG_PX_RGB,
	IMG_PX_BGR,
	IMG_PX_RGBA,
	IMG_PX_CMYK,       /* libjpeg path, Adobe marker: R = K * C / 255 */
	IMG_PX_CMYK_PLAIN, /* libjpeg path, no Adobe marker: R = (255 - K)(255 - C) / 255 */
	IMG_PX_CMYK_CV,    /* OpenCV: R = K - ((255 - C) * K >> 8) */
	IMG_PX_RGB16,      /* 16-bit RGB (host order): YCbCr of 16-bit PNGs is computed from it */
} img_px_t;

typedef struct img_info {
	img_format_t format;
	int width, height;   /* as stored (before orientation) */
	int channels;        /* stored channels: 1 gray, 2 gray+alpha, 3 colour, 4 RGBA or CMYK */
	bool cmyk;           /* JPEG in CMYK / YCCK */
	int orientation;     /* EXIF 1..8; 1 when absent or not applied */
	int subsampling;     /* JPEG: TJSAMP_* (4:4:4 .. 4:1:1, gray); -1 otherwise or unusual */
	bool progressive;
	int precision;       /* bits per sample: JPEG 8 or 12, PNG 1..16 */
	int adobe_transform; /* JPEG APP14 Adobe transform (2: YCCK), -1 without one */
	int png_color;       /* PNG colour type (0 gray, 2 RGB, 3 palette, 4 GA, 6 RGBA); -1 */
} img_info_t;

/* Warnings of the last probe or decode: the distinct messages (up to IMG_WARN_MAX) with their
 * repeats, and the total. */
#define IMG_WARN_MAX 8
#define IMG_WARN_LEN 200
typedef struct img_warnings {
	int count;     /* distinct messages kept */
	long total;    /* all warnings, repeats and those past IMG_WARN_MAX included */
	struct {
		char msg[IMG_WARN_LEN];
		long repeats; /* 1 = seen once */
	} w[IMG_WARN_MAX];
} img_warnings_t;

/* Adds one warning (repeats of a kept message are counted, not kept again). */
void dalic_img_warn(img_warnings_t *w, const char *msg);

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
 * Returns 0, or -1 with a message in err. Warnings: dalic_img_warnings(d). */
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
 * A window is decoded as DALI's ROI decode does: rows below it are never read, so a file
 * truncated below the window decodes; the whole image (NULL) is read to its end marker.
 * Returns 0, or -1 with a message in err (truncated or corrupt data, unsupported format).
 * Warnings (damaged data the image was decoded from anyway): dalic_img_warnings(d).
 * out NULL (a scan): the data is decoded just as far, into d's scratch, with the same warnings
 * and errors, but the pixels are dropped before orientation and colour conversion, which can
 * neither warn nor fail. */
int dalic_img_decode(img_decoder_t *d, const uint8_t *data, size_t n, const img_info_t *info,
                     int output_type, const img_rect_t *roi, uint8_t *out, char *err, size_t errn);

/* Memory dalic_img_decode needs besides the output to decode `roi` (NULL = whole image): scratch
 * buffers plus the codec's own (a progressive JPEG keeps every DCT coefficient of the image,
 * about 2 bytes per pixel and component). Computed from the header, so a hostile header is
 * refused before anything is allocated. *library gets the codec's own part, which is not
 * allocated through dalic (callers charge it against the budget while decoding). */
uint64_t dalic_img_decode_memory(const img_info_t *info, int output_type, const img_rect_t *roi,
                                 uint64_t *library);

/* Output types DALI refuses for this image although the header reads: ANY_DATA of a CMYK
 * JPEG or a gray+alpha PNG. NULL, or why (static). */
const char *dalic_img_refused_type(const img_info_t *info, int output_type);

/* The warnings of the decoder's last probe or decode. Borrowed until its next call. */
const img_warnings_t *dalic_img_warnings(const img_decoder_t *d);

#endif
