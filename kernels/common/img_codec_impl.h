/* Internal interface between img_codec.c (dispatch, orientation, colour conversion) and the
 * per-format decoders img_jpeg.c and img_png.c. Not for operators: they use img_codec.h. */
#ifndef DALIC_KERNELS_IMG_CODEC_IMPL_H
#define DALIC_KERNELS_IMG_CODEC_IMPL_H

#include "kernels/common/img_codec.h"
#include "kernels/common/img_scratch.h"

typedef struct img_jpeg img_jpeg_t;

struct img_decoder {
	img_jpeg_t *jpeg;       /* TurboJPEG handle and libjpeg state */
	img_scratch_t region;   /* decoded window before orientation */
	img_scratch_t full;     /* whole image when a window cannot be decoded alone */
	img_scratch_t rows;     /* row buffers of the cropped decoder / PNG rows */
};

img_jpeg_t *dalic_img_jpeg_new(void);
void dalic_img_jpeg_free(img_jpeg_t *j);
/* Header: size, channels, subsampling, progressive, EXIF orientation (when adjust). */
int dalic_img_jpeg_probe(img_jpeg_t *j, const uint8_t *data, size_t n, bool adjust,
                         img_info_t *info, char *err, size_t errn);
/* Decodes raw (unoriented) rectangle `r` in pixel layout `px` (GRAY, RGB, BGR or CMYK) into
 * `out` with rows of r->w pixels. */
int dalic_img_jpeg_decode(img_decoder_t *d, const uint8_t *data, size_t n, const img_info_t *info,
                          img_px_t px, const img_rect_t *r, uint8_t *out, char *err, size_t errn);

int dalic_img_png_probe(const uint8_t *data, size_t n, img_info_t *info, char *err, size_t errn);
/* Decodes the whole PNG, 8 bits per channel, in the file's layout (GRAY, GA, RGB or RGBA). */
int dalic_img_png_decode(img_decoder_t *d, const uint8_t *data, size_t n, const img_info_t *info,
                         uint8_t *out, char *err, size_t errn);

/* Channels of a pixel layout. */
static inline int img_px_channels(img_px_t px)
{
	static const int c[] = {1, 2, 3, 3, 4, 4};
	return c[px];
}

#endif
