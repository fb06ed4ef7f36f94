/* Internal interface between img_codec.c (dispatch, orientation, colour conversion) and the
 * per-format parts img_jpeg_parse.c, img_jpeg.c and img_png.c. Not for operators: they use
 * img_codec.h. */
#ifndef DALIC_KERNELS_IMG_CODEC_IMPL_H
#define DALIC_KERNELS_IMG_CODEC_IMPL_H

#include "kernels/common/img_codec.h"
#include "kernels/common/img_scratch.h"

typedef struct img_jpeg img_jpeg_t;

struct img_decoder {
	img_jpeg_t *jpeg;         /* libjpeg state */
	img_scratch_t region;     /* decoded window before orientation / conversion */
	img_scratch_t full;       /* whole image when a window cannot be decoded alone */
	img_scratch_t rows;       /* row buffers of the cropped decoder / PNG rows */
	img_warnings_t warnings;  /* of the last probe or decode */
};

img_jpeg_t *dalic_img_jpeg_new(void);
void dalic_img_jpeg_free(img_jpeg_t *j);
/* The header as DALI's parser reads it (img_jpeg_parse.c): extents, components, precision,
 * progressive, sampling, Adobe transform, EXIF orientation (not cleared when unwanted). */
int dalic_img_jpeg_parse(const uint8_t *data, size_t n, img_info_t *info, char *err,
                         size_t errn);
/* Orientation tag (0x0112) of IFD0 in a TIFF structure (EXIF): 1..8, 1 for a value out of
 * range, 0 when absent or malformed. */
int dalic_img_exif_orientation(const uint8_t *tiff, size_t n);
/* Decodes raw (unoriented) rectangle `r` in pixel layout *px (GRAY, RGB, BGR or one of the
 * CMYK ones) into `out` with rows of r->w pixels. *px becomes IMG_PX_CMYK_PLAIN for a CMYK
 * file without Adobe's marker. Warnings go to d->warnings. */
int dalic_img_jpeg_decode(img_decoder_t *d, const uint8_t *data, size_t n, const img_info_t *info,
                          img_px_t *px, const img_rect_t *r, uint8_t *out, char *err, size_t errn);

/* The header as DALI's parser reads it: IHDR, then every chunk to IEND (eXIf orientation). */
int dalic_img_png_probe(img_decoder_t *d, const uint8_t *data, size_t n, img_info_t *info,
                        char *err, size_t errn);
/* Decodes the whole PNG as OpenCV does for `output_type`: *px gets the layout written (GRAY
 * for GRAY and 1-channel ANY_DATA, RGBA for 4-channel ANY_DATA, RGB16 for YCbCr of a 16-bit
 * file, else RGB). Warnings go to d->warnings. */
int dalic_img_png_decode(img_decoder_t *d, const uint8_t *data, size_t n, const img_info_t *info,
                         int output_type, img_px_t *px, uint8_t *out, char *err, size_t errn);

/* Bytes of one pixel of a layout. */
static inline int img_px_bytes(img_px_t px)
{
	static const int c[] = {1, 2, 3, 3, 4, 4, 4, 4, 6};
	return c[px];
}

#endif
