/*
 * Image decoding front: format sniffing, dispatch to img_jpeg*.c / img_png.c, EXIF orientation
 * and conversion to DALI's output types (see img_codec.h).
 *
 * Windows are given in oriented coordinates; the codec decodes the matching raw rectangle and
 * one pass maps it through the orientation and colour conversion into the output. The common
 * case (orientation 1, codec already producing the output layout) decodes straight into the
 * output buffer with no extra pass. An EXIF-rotated JPEG is read to its end, as OpenCV (DALI's
 * decoder for those) reads it, but only the raw window's pixels are made (img_jpeg.c).
 */
#include "kernels/common/img_codec_impl.h"

#include "dalic.h"
#include "kernels/common/color.h"
#include "kernels/common/sat_cast.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

img_decoder_t *dalic_img_decoder_new(void)
{
	img_decoder_t *d = calloc(1, sizeof *d);
	if (d && !(d->jpeg = dalic_img_jpeg_new())) {
		free(d);
		d = NULL;
	}
	return d;
}

void dalic_img_decoder_free(img_decoder_t *d)
{
	if (!d)
		return;
	dalic_img_jpeg_free(d->jpeg);
	dalic_img_scratch_free(&d->region);
	dalic_img_scratch_free(&d->full);
	dalic_img_scratch_free(&d->rows);
	free(d);
}

void dalic_img_warn(img_warnings_t *w, const char *msg)
{
	w->total++;
	for (int i = 0; i < w->count; i++)
		if (!strcmp(w->w[i].msg, msg)) {
			w->w[i].repeats++;
			return;
		}
	if (w->count < IMG_WARN_MAX) {
		snprintf(w->w[w->count].msg, IMG_WARN_LEN, "%s", msg);
		w->w[w->count++].repeats = 1;
	}
}

const img_warnings_t *dalic_img_warnings(const img_decoder_t *d)
{
	return &d->warnings;
}

const char *dalic_img_format_name(img_format_t f)
{
	static const char *names[] = {"unknown", "JPEG", "PNG", "BMP", "TIFF",
				      "JPEG 2000", "WebP", "PNM", "GIF"};
	return names[f];
}

img_format_t dalic_img_sniff(const uint8_t *d, size_t n)
{
	if (n >= 3 && d[0] == 0xFF && d[1] == 0xD8 && d[2] == 0xFF)
		return IMG_FMT_JPEG;
	if (n >= 8 && !memcmp(d, "\x89PNG\r\n\x1a\n", 8))
		return IMG_FMT_PNG;
	if (n >= 2 && d[0] == 'B' && d[1] == 'M')
		return IMG_FMT_BMP;
	if (n >= 4 && (!memcmp(d, "II*\0", 4) || !memcmp(d, "MM\0*", 4)))
		return IMG_FMT_TIFF;
	if ((n >= 12 && !memcmp(d, "\0\0\0\x0cjP  ", 8)) || (n >= 4 && !memcmp(d, "\xff\x4f\xff\x51", 4)))
		return IMG_FMT_JPEG2000;
	if (n >= 12 && !memcmp(d, "RIFF", 4) && !memcmp(d + 8, "WEBP", 4))
		return IMG_FMT_WEBP;
	if (n >= 2 && d[0] == 'P' && d[1] >= '1' && d[1] <= '6')
		return IMG_FMT_PNM;
	if (n >= 4 && !memcmp(d, "GIF8", 4))
		return IMG_FMT_GIF;
	return IMG_FMT_UNKNOWN;
}

int dalic_img_probe(img_decoder_t *d, const uint8_t *data, size_t n, bool adjust_orientation,
                    img_info_t *info, char *err, size_t errn)
{
	memset(info, 0, sizeof *info);
	memset(&d->warnings, 0, sizeof d->warnings);
	info->format = dalic_img_sniff(data, n);
	info->subsampling = -1;
	info->png_color = -1;
	info->adobe_transform = -1;
	info->orientation = 1;
	int rc;
	switch (info->format) {
	case IMG_FMT_JPEG:
		rc = dalic_img_jpeg_parse(data, n, info, err, errn);
		break;
	case IMG_FMT_PNG:
		rc = dalic_img_png_probe(d, data, n, info, err, errn);
		break;
	case IMG_FMT_UNKNOWN:
		snprintf(err, errn, "not an image: unrecognized data (%zu bytes); supported formats "
				    "are JPEG and PNG", n);
		return -1;
	default:
		snprintf(err, errn, "unsupported image format %s; supported formats are JPEG and PNG",
			 dalic_img_format_name(info->format));
		return -1;
	}
	if (!adjust_orientation)
		info->orientation = 1;
	if (rc == 0 && (info->width <= 0 || info->height <= 0)) {
		snprintf(err, errn, "image has no pixels (%dx%d)", info->width, info->height);
		return -1;
	}
	return rc;
}

int dalic_img_output_channels(const img_info_t *info, int output_type)
{
	switch (output_type) {
	case DALIC_GRAY:
		return 1;
	case DALIC_ANY_DATA:
		return info->cmyk ? 3 : info->channels;
	default:
		return 3;
	}
}

const char *dalic_img_refused_type(const img_info_t *info, int output_type)
{
	if (output_type != DALIC_ANY_DATA)
		return NULL;
	if (info->format == IMG_FMT_JPEG && info->cmyk)
		return "a 4-channel (CMYK/YCCK) JPEG does not decode to ANY_DATA (DALI 2.4 refuses "
		       "it; ask for RGB)";
	if (info->format == IMG_FMT_PNG && info->channels == 2)
		return "a gray+alpha PNG does not decode to ANY_DATA (DALI 2.4 refuses it: OpenCV "
		       "gives 3 channels for 2; ask for GRAY or RGB)";
	return NULL;
}

/* Raw coordinates of oriented pixel (x, y); w, h are the raw extents. */
static void codec_to_raw(int orientation, int w, int h, int x, int y, int *rx, int *ry)
{
	switch (orientation) {
	case 2: *rx = w - 1 - x; *ry = y; break;
	case 3: *rx = w - 1 - x; *ry = h - 1 - y; break;
	case 4: *rx = x; *ry = h - 1 - y; break;
	case 5: *rx = y; *ry = x; break;
	case 6: *rx = y; *ry = h - 1 - x; break;
	case 7: *rx = w - 1 - y; *ry = h - 1 - x; break;
	case 8: *rx = w - 1 - y; *ry = x; break;
	default: *rx = x; *ry = y; break;
	}
}

/* One pixel of any decoded layout as RGB (alpha dropped). The three CMYK conversions are
 * DALI's libjpeg path with and without Adobe's marker, and OpenCV's. */
static inline void codec_px_rgb(const uint8_t *s, img_px_t px, uint8_t rgb[3])
{
	switch (px) {
	case IMG_PX_GRAY:
	case IMG_PX_GA:
		rgb[0] = rgb[1] = rgb[2] = s[0];
		break;
	case IMG_PX_BGR:
		rgb[0] = s[2], rgb[1] = s[1], rgb[2] = s[0];
		break;
	case IMG_PX_CMYK:
		for (int c = 0; c < 3; c++)
			rgb[c] = (uint8_t)(s[3] * s[c] / 255);
		break;
	case IMG_PX_CMYK_PLAIN:
		for (int c = 0; c < 3; c++)
			rgb[c] = (uint8_t)((255 - s[3]) * (255 - s[c]) / 255);
		break;
	case IMG_PX_CMYK_CV:
		for (int c = 0; c < 3; c++)
			rgb[c] = (uint8_t)(s[3] - ((255 - s[c]) * s[3] >> 8));
		break;
	default: /* RGB, RGBA */
		rgb[0] = s[0], rgb[1] = s[1], rgb[2] = s[2];
		break;
	}
}

/* GRAY of a CMYK pixel: DALI's libjpeg path converts its RGB in float and truncates; OpenCV
 * uses 14-bit fixed point. */
static inline uint8_t codec_cmyk_gray(const uint8_t *s, img_px_t px)
{
	uint8_t p[3];
	codec_px_rgb(s, px, p);
	if (px == IMG_PX_CMYK_CV)
		return (uint8_t)((p[0] * 4899 + p[1] * 9617 + p[2] * 1868 + (1 << 13)) >> 14);
	return (uint8_t)(0.299f * p[0] + 0.587f * p[1] + 0.114f * p[2]);
}

/* Converts n pixels read `step` pixels apart from src (layout px) into dst (output type). */
static void codec_convert_run(const uint8_t *src, ptrdiff_t step, img_px_t px, int output_type,
                              int out_ch, uint8_t *dst, int n)
{
	const int in_ch = img_px_bytes(px);
	const ptrdiff_t sstep = step * in_ch;
	bool cmyk = px == IMG_PX_CMYK || px == IMG_PX_CMYK_PLAIN || px == IMG_PX_CMYK_CV;
	if ((output_type == DALIC_ANY_DATA && !cmyk) || (output_type == DALIC_GRAY && !cmyk) ||
	    (output_type == DALIC_RGB && px == IMG_PX_RGB) ||
	    (output_type == DALIC_BGR && px == IMG_PX_BGR)) {
		if (out_ch == 3) /* a fixed-size copy, not a memcpy call per pixel */
			for (int i = 0; i < n; i++, src += sstep, dst += 3)
				dst[0] = src[0], dst[1] = src[1], dst[2] = src[2];
		else
			for (int i = 0; i < n; i++, src += sstep, dst += out_ch)
				memcpy(dst, src, (size_t)out_ch);
		return;
	}
	float cy[3], cb[3], cr[3];
	if (output_type == DALIC_YCbCr)
		dalic_color_ycbcr_coeffs(cy, cb, cr);
	if (px == IMG_PX_RGB16) { /* DALI converts 16-bit samples normalised to [0, 1] */
		const float y0 = 16.0f / 255, c0 = 128.0f / 255;
		for (int i = 0; i < n; i++, src += sstep, dst += out_ch) {
			const uint16_t *s16 = (const uint16_t *)(const void *)src;
			float r = s16[0] / 65535.0f, g = s16[1] / 65535.0f, b = s16[2] / 65535.0f;
			dst[0] = dalic_sat_f2u8((cy[0] * r + cy[1] * g + cy[2] * b + y0) * 255.0f);
			dst[1] = dalic_sat_f2u8((cb[0] * r + cb[1] * g + cb[2] * b + c0) * 255.0f);
			dst[2] = dalic_sat_f2u8((cr[0] * r + cr[1] * g + cr[2] * b + c0) * 255.0f);
		}
		return;
	}
	for (int i = 0; i < n; i++, src += sstep, dst += out_ch) {
		if (output_type == DALIC_GRAY) {
			dst[0] = codec_cmyk_gray(src, px);
			continue;
		}
		uint8_t p[3];
		codec_px_rgb(src, px, p);
		float r = p[0], g = p[1], b = p[2];
		switch (output_type) {
		case DALIC_YCbCr:
			dst[0] = dalic_sat_f2u8(cy[0] * r + cy[1] * g + cy[2] * b + 16.0f);
			dst[1] = dalic_sat_f2u8(cb[0] * r + cb[1] * g + cb[2] * b + 128.0f);
			dst[2] = dalic_sat_f2u8(cr[0] * r + cr[1] * g + cr[2] * b + 128.0f);
			break;
		case DALIC_BGR:
			dst[0] = p[2], dst[1] = p[1], dst[2] = p[0];
			break;
		default: /* RGB, and ANY_DATA from CMYK */
			dst[0] = p[0], dst[1] = p[1], dst[2] = p[2];
			break;
		}
	}
}

/* The layout the JPEG decoder should produce for an output type. */
static img_px_t codec_jpeg_layout(const img_info_t *info, int output_type)
{
	if (info->cmyk)
		return info->orientation != 1 ? IMG_PX_CMYK_CV : IMG_PX_CMYK;
	if (output_type == DALIC_GRAY || (output_type == DALIC_ANY_DATA && info->channels == 1))
		return IMG_PX_GRAY;
	return output_type == DALIC_BGR ? IMG_PX_BGR : IMG_PX_RGB;
}

/* Bytes per pixel img_png.c writes for an output type (it decodes as OpenCV would). */
static int codec_png_bytes(const img_info_t *info, int output_type)
{
	if (output_type == DALIC_GRAY || (output_type == DALIC_ANY_DATA && info->channels == 1))
		return 1;
	if (output_type == DALIC_YCbCr && info->precision == 16)
		return 6;
	return output_type == DALIC_ANY_DATA && info->channels == 4 ? 4 : 3;
}

uint64_t dalic_img_decode_memory(const img_info_t *info, int output_type, const img_rect_t *roi,
                                 uint64_t *library)
{
	/* JPEG extents are at most 65535 and libpng's limit is 1e6 per side: no overflow */
	const uint64_t w = (uint64_t)info->width, h = (uint64_t)info->height;
	uint64_t rw = roi ? (uint64_t)roi->w : w, rh = roi ? (uint64_t)roi->h : h;
	*library = 0;
	if (info->format == IMG_FMT_PNG) /* the whole image, then its row pointers */
		return w * h * (uint64_t)codec_png_bytes(info, output_type) + h * sizeof(void *);
	img_px_t px = codec_jpeg_layout(info, output_type);
	if (roi && info->orientation >= 5) { /* the raw window is the oriented one transposed */
		uint64_t t = rw;
		rw = rh, rh = t;
	}
	uint64_t ch = (uint64_t)img_px_bytes(px), bytes = (rw + 64) * ch * 16; /* row buffers */
	if (info->orientation != 1 || (int)ch != dalic_img_output_channels(info, output_type))
		bytes += rw * rh * ch; /* decoded before orientation / conversion */
	if (info->progressive) { /* whole-image coefficients, MCUs padded to 32 pixels */
		uint64_t comps = (uint64_t)info->channels;
		*library = (w + 31) / 32 * 32 * ((h + 31) / 32 * 32) * comps * 2;
	}
	return bytes + *library;
}

/* Decodes the raw rectangle holding `rect` into d's scratch (or straight into out when
 * `direct`); returns the buffer, its layout in *px and the rectangle in *raw. */
static uint8_t *codec_decode_raw(img_decoder_t *d, const uint8_t *data, size_t n,
                                 const img_info_t *info, int output_type, const img_rect_t *rect,
                                 uint8_t *out, img_px_t *px, img_rect_t *raw, char *err,
                                 size_t errn)
{
	const int out_ch = dalic_img_output_channels(info, output_type);
	if (info->format == IMG_FMT_PNG) { /* no random access: the whole image */
		size_t ch = (size_t)codec_png_bytes(info, output_type);
		uint8_t *full = dalic_img_scratch_get(&d->full, (size_t)info->width * info->height * ch);
		*raw = (img_rect_t){0, 0, info->width, info->height};
		if (!full)
			snprintf(err, errn, "a %dx%d image: %s", info->width, info->height,
			         dalic_last_error());
		else if (dalic_img_png_decode(d, data, n, info, output_type, px, full, err, errn))
			full = NULL;
		return full;
	}
	*px = codec_jpeg_layout(info, output_type);
	*raw = *rect;
	int ch = img_px_bytes(*px);
	bool direct = out && info->orientation == 1 && ch == out_ch;
	uint8_t *region =
	    direct ? out : dalic_img_scratch_get(&d->region, (size_t)raw->w * raw->h * ch);
	if (!region) {
		snprintf(err, errn, "a %dx%d window: %s", raw->w, raw->h, dalic_last_error());
		return NULL;
	}
	if (dalic_img_jpeg_decode(d, data, n, info, px, raw, region, err, errn))
		return NULL;
	return region;
}

int dalic_img_decode(img_decoder_t *d, const uint8_t *data, size_t n, const img_info_t *info,
                     int output_type, const img_rect_t *roi, uint8_t *out, char *err, size_t errn)
{
	memset(&d->warnings, 0, sizeof d->warnings);
	const int W = img_oriented_w(info), H = img_oriented_h(info);
	img_rect_t rect = roi ? *roi : (img_rect_t){0, 0, W, H};
	if (rect.x < 0 || rect.y < 0 || rect.w < 1 || rect.h < 1 || rect.x + rect.w > W ||
	    rect.y + rect.h > H) {
		snprintf(err, errn, "window (%d, %d) %dx%d is outside the %dx%d image", rect.x,
			 rect.y, rect.w, rect.h, W, H);
		return -1;
	}
	const char *refused = dalic_img_refused_type(info, output_type);
	if (refused) {
		snprintf(err, errn, "%s", refused);
		return -1;
	}
	/* The raw rectangle holding the window: the orientation maps corners to corners. */
	int ax, ay, bx, by;
	codec_to_raw(info->orientation, info->width, info->height, rect.x, rect.y, &ax, &ay);
	codec_to_raw(info->orientation, info->width, info->height, rect.x + rect.w - 1,
	       rect.y + rect.h - 1, &bx, &by);
	img_rect_t want = {ax < bx ? ax : bx, ay < by ? ay : by, abs(bx - ax) + 1, abs(by - ay) + 1};
	img_px_t px;
	img_rect_t raw;
	uint8_t *region = codec_decode_raw(d, data, n, info, output_type, &want, out, &px, &raw,
	                                   err, errn);
	if (!region)
		return -1;
	if (!out) /* a scan: decoded as far as a real decode, the pixels are not wanted */
		return 0;

	/* One pass: orientation (a constant raw step per output pixel) and conversion. */
	static const int dx[9] = {0, 1, -1, -1, 1, 0, 0, 0, 0};
	static const int dy[9] = {0, 0, 0, 0, 0, 1, -1, -1, 1};
	const int o = info->orientation, out_ch = dalic_img_output_channels(info, output_type);
	ptrdiff_t step = dx[o] + (ptrdiff_t)dy[o] * raw.w;
	const int in_ch = img_px_bytes(px);
	/* A transposing orientation walks raw columns: strips of 32 output columns keep the
	 * raw rows it reads in cache across output rows. */
	const int strip = o >= 5 ? 32 : rect.w;
	for (int x0 = 0; x0 < rect.w; x0 += strip) {
		const int n = rect.w - x0 < strip ? rect.w - x0 : strip;
		for (int y = 0; y < rect.h; y++) {
			int rx, ry;
			codec_to_raw(o, info->width, info->height, rect.x + x0, rect.y + y, &rx, &ry);
			const uint8_t *src =
			    region + ((size_t)(ry - raw.y) * raw.w + (rx - raw.x)) * in_ch;
			uint8_t *dst = out + ((size_t)y * rect.w + x0) * out_ch;
			/* Decoded straight into the output: only YCbCr still needs converting (in
			 * place, pixel by pixel). */
			if (src == dst && output_type != DALIC_YCbCr)
				continue;
			codec_convert_run(src, step, px, output_type, out_ch, dst, n);
		}
	}
	return 0;
}
