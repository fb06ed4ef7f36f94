/*
 * JPEG for img_codec: header probing (TurboJPEG header + our own marker walk for SOF2 and the
 * EXIF orientation), whole-image decoding with tjDecompress2, and window decoding with
 * libjpeg-turbo's jpeg_crop_scanline / jpeg_skip_scanlines. The window is widened by one
 * pixel on each side before decoding, because chroma upsampling replicates the edge of the
 * decoded region; with that margin a window's pixels equal the whole decode's (the tests
 * check 4:2:0, 4:2:2, 4:4:0, 4:1:1, progressive and grayscale files).
 *
 * The window decoder uses the libjpeg API (libjpeg-turbo's libjpeg, linked); the entry
 * points sit in one table so the fallback — windows cut from a whole decode, same pixels,
 * more work — stays selectable.
 *
 * Warnings: libjpeg keeps going after damaged data and invents grey pixels. Every warning
 * except "extraneous bytes before marker" (harmless padding, common in real datasets) is an
 * error here, so truncated and corrupt files fail instead of yielding made-up images.
 */
#include "kernels/common/img_codec_impl.h"

#include "dalic.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* jpeglib.h wants FILE and size_t first. */
#include <jerror.h>
#include <jpeglib.h>
#include <turbojpeg.h>

/* ---- the libjpeg entry points ----------------------------------------------------------- */
static struct {
	bool ok;
	struct jpeg_error_mgr *(*std_error)(struct jpeg_error_mgr *);
	void (*create)(j_decompress_ptr, int, size_t);
	void (*destroy)(j_decompress_ptr);
	void (*mem_src)(j_decompress_ptr, const unsigned char *, unsigned long);
	int (*read_header)(j_decompress_ptr, boolean);
	boolean (*start)(j_decompress_ptr);
	void (*crop)(j_decompress_ptr, JDIMENSION *, JDIMENSION *);
	JDIMENSION (*skip)(j_decompress_ptr, JDIMENSION);
	JDIMENSION (*read)(j_decompress_ptr, JSAMPARRAY, JDIMENSION);
	void (*abort)(j_decompress_ptr);
} lj;
static pthread_once_t lj_once = PTHREAD_ONCE_INIT;

static void lj_load(void)
{
	lj.std_error = jpeg_std_error;
	lj.create = jpeg_CreateDecompress;
	lj.destroy = jpeg_destroy_decompress;
	lj.mem_src = jpeg_mem_src;
	lj.read_header = jpeg_read_header;
	lj.start = jpeg_start_decompress;
	lj.crop = jpeg_crop_scanline;
	lj.skip = jpeg_skip_scanlines;
	lj.read = jpeg_read_scanlines;
	lj.abort = jpeg_abort_decompress;
	lj.ok = true;
}

bool dalic_img_jpeg_crop_available(void)
{
	pthread_once(&lj_once, lj_load);
	return lj.ok;
}

typedef struct lj_error {
	struct jpeg_error_mgr pub;
	jmp_buf jump;
	char msg[JMSG_LENGTH_MAX];
} lj_error_t;

struct img_jpeg {
	tjhandle tj;
	bool lj_ready;
	struct jpeg_decompress_struct cinfo;
	lj_error_t jerr;
};

static void lj_error_exit(j_common_ptr c)
{
	lj_error_t *e = (lj_error_t *)c->err;
	e->pub.format_message(c, e->msg);
	longjmp(e->jump, 1);
}

static void lj_emit(j_common_ptr c, int level)
{
	lj_error_t *e = (lj_error_t *)c->err;
	if (level < 0 && e->pub.msg_code != JWRN_EXTRANEOUS_DATA) {
		e->pub.format_message(c, e->msg);
		longjmp(e->jump, 1);
	}
}

static bool lj_create(img_jpeg_t *j)
{
	j->cinfo.err = lj.std_error(&j->jerr.pub);
	j->jerr.pub.error_exit = lj_error_exit;
	j->jerr.pub.emit_message = lj_emit;
	if (setjmp(j->jerr.jump))
		return false;
	lj.create(&j->cinfo, JPEG_LIB_VERSION, sizeof j->cinfo);
	return true;
}

img_jpeg_t *dalic_img_jpeg_new(void)
{
	img_jpeg_t *j = calloc(1, sizeof *j);
	if (!j)
		return NULL;
	j->tj = tjInitDecompress();
	if (!j->tj) {
		free(j);
		return NULL;
	}
	if (dalic_img_jpeg_crop_available())
		j->lj_ready = lj_create(j);
	return j;
}

void dalic_img_jpeg_free(img_jpeg_t *j)
{
	if (!j)
		return;
	if (j->lj_ready)
		lj.destroy(&j->cinfo);
	tjDestroy(j->tj);
	free(j);
}

/* ---- markers: SOF2 and EXIF orientation ----------------------------------------------- */
static unsigned jpg_rd16(const uint8_t *p, bool le)
{
	return le ? (unsigned)(p[0] | p[1] << 8) : (unsigned)(p[0] << 8 | p[1]);
}

static uint32_t jpg_rd32(const uint8_t *p, bool le)
{
	return le ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
			    (uint32_t)p[3] << 24
		  : (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Orientation tag (0x0112) of IFD0 in a TIFF structure; 1 when absent or malformed. */
static int jpg_tiff_orientation(const uint8_t *t, size_t n)
{
	if (n < 8 || !((t[0] == 'I' && t[1] == 'I') || (t[0] == 'M' && t[1] == 'M')))
		return 1;
	bool le = t[0] == 'I';
	if (jpg_rd16(t + 2, le) != 42)
		return 1;
	uint32_t ifd = jpg_rd32(t + 4, le);
	if (ifd > n - 2)
		return 1;
	unsigned count = jpg_rd16(t + ifd, le);
	for (unsigned k = 0; k < count; k++) {
		size_t e = (size_t)ifd + 2 + (size_t)k * 12;
		if (e + 12 > n)
			break;
		if (jpg_rd16(t + e, le) == 0x0112 && jpg_rd16(t + e + 2, le) == 3) {
			unsigned v = jpg_rd16(t + e + 8, le);
			return v >= 1 && v <= 8 ? (int)v : 1;
		}
	}
	return 1;
}

/* Walks the markers before the first scan. */
static void jpg_scan_markers(const uint8_t *d, size_t n, bool *progressive, int *orientation)
{
	size_t pos = 2;
	while (pos + 4 <= n && d[pos] == 0xFF) {
		uint8_t m = d[pos + 1];
		if (m == 0xFF) { /* fill byte */
			pos++;
			continue;
		}
		if (m == 0xD8 || m == 0x01 || (m >= 0xD0 && m <= 0xD7)) {
			pos += 2;
			continue;
		}
		if (m == 0xDA || m == 0xD9)
			break;
		size_t len = jpg_rd16(d + pos + 2, false);
		if (len < 2 || pos + 2 + len > n)
			break;
		const uint8_t *seg = d + pos + 4;
		size_t seglen = len - 2;
		if (m == 0xC2 || m == 0xC6 || m == 0xCA || m == 0xCE)
			*progressive = true;
		if (m == 0xE1 && seglen >= 14 && !memcmp(seg, "Exif\0\0", 6) && *orientation == 1)
			*orientation = jpg_tiff_orientation(seg + 6, seglen - 6);
		pos += 2 + len;
	}
}

/* ---- probing ----------------------------------------------------------------------------- */
static int lj_probe(img_jpeg_t *j, const uint8_t *data, size_t n, img_info_t *info, char *err,
		    size_t errn)
{
	if (setjmp(j->jerr.jump)) {
		lj.abort(&j->cinfo);
		snprintf(err, errn, "%s", j->jerr.msg);
		return -1;
	}
	lj.mem_src(&j->cinfo, data, (unsigned long)n);
	lj.read_header(&j->cinfo, TRUE);
	info->width = (int)j->cinfo.image_width;
	info->height = (int)j->cinfo.image_height;
	J_COLOR_SPACE cs = j->cinfo.jpeg_color_space;
	info->cmyk = cs == JCS_CMYK || cs == JCS_YCCK;
	info->channels = cs == JCS_GRAYSCALE ? 1 : info->cmyk ? 4 : 3;
	info->subsampling = -1; /* TurboJPEG could not classify it: decode with libjpeg */
	lj.abort(&j->cinfo);
	return 0;
}

int dalic_img_jpeg_probe(img_jpeg_t *j, const uint8_t *data, size_t n, bool adjust,
                         img_info_t *info, char *err, size_t errn)
{
	int w, h, subsamp, cs;
	if (tjDecompressHeader3(j->tj, data, (unsigned long)n, &w, &h, &subsamp, &cs) == 0) {
		info->width = w;
		info->height = h;
		info->subsampling = subsamp;
		info->cmyk = cs == TJCS_CMYK || cs == TJCS_YCCK;
		info->channels = cs == TJCS_GRAY ? 1 : info->cmyk ? 4 : 3;
	} else if (!j->lj_ready || lj_probe(j, data, n, info, err, errn)) {
		if (!j->lj_ready)
			snprintf(err, errn, "%s", tjGetErrorStr2(j->tj));
		return -1;
	}
	info->progressive = false;
	info->orientation = 1;
	jpg_scan_markers(data, n, &info->progressive, &info->orientation);
	if (!adjust)
		info->orientation = 1;
	return 0;
}

/* ---- decoding ---------------------------------------------------------------------------- */
static int tj_decode(img_jpeg_t *j, const uint8_t *data, size_t n, const img_info_t *info,
		     img_px_t px, uint8_t *out, char *err, size_t errn)
{
	static const int pf[] = {[IMG_PX_GRAY] = TJPF_GRAY, [IMG_PX_RGB] = TJPF_RGB,
				 [IMG_PX_BGR] = TJPF_BGR, [IMG_PX_CMYK] = TJPF_CMYK};
	int pitch = info->width * img_px_channels(px);
	if (tjDecompress2(j->tj, data, (unsigned long)n, out, info->width, pitch, info->height,
			  pf[px], TJFLAG_ACCURATEDCT | TJFLAG_LIMITSCANS) == 0)
		return 0;
	const char *msg = tjGetErrorStr2(j->tj);
	if (tjGetErrorCode(j->tj) == TJERR_WARNING && strstr(msg, "extraneous bytes before marker"))
		return 0;
	snprintf(err, errn, "%s", msg);
	return -1;
}

static int lj_decode(img_decoder_t *d, const uint8_t *data, size_t n, img_px_t px,
		     const img_rect_t *r, uint8_t *out, char *err, size_t errn)
{
	img_jpeg_t *j = d->jpeg;
	struct jpeg_decompress_struct *c = &j->cinfo;
	if (setjmp(j->jerr.jump)) {
		lj.abort(c);
		snprintf(err, errn, "%s", j->jerr.msg);
		return -1;
	}
	lj.mem_src(c, data, (unsigned long)n);
	lj.read_header(c, TRUE);
	static const J_COLOR_SPACE cs[] = {[IMG_PX_GRAY] = JCS_GRAYSCALE, [IMG_PX_RGB] = JCS_EXT_RGB,
					   [IMG_PX_BGR] = JCS_EXT_BGR, [IMG_PX_CMYK] = JCS_CMYK};
	c->out_color_space = cs[px];
	c->dct_method = JDCT_ISLOW;
	c->do_fancy_upsampling = TRUE;
	lj.start(c);
	int ch = c->output_components;
	/* Decode one pixel more on each side: the upsampler replicates the edge of what it
	 * decodes, so the window's own edge pixels then see their real neighbours. */
	int ex0 = r->x > 0 ? r->x - 1 : 0, ey0 = r->y > 0 ? r->y - 1 : 0;
	int ex1 = r->x + r->w < (int)c->output_width ? r->x + r->w + 1 : r->x + r->w;
	JDIMENSION x0 = (JDIMENSION)ex0, w = (JDIMENSION)(ex1 - ex0);
	if (ex0 != 0 || ex1 != (int)c->output_width)
		lj.crop(c, &x0, &w); /* widens further to iMCU column boundaries */
	if (ey0 > 0 && lj.skip(c, (JDIMENSION)ey0) != (JDIMENSION)ey0) {
		lj.abort(c);
		snprintf(err, errn, "cannot skip to row %d", ey0);
		return -1;
	}
	size_t row_bytes = (size_t)r->w * (size_t)ch, lead = (size_t)(r->x - (int)x0) * (size_t)ch;
	size_t wide = (size_t)w * (size_t)ch;
	bool direct = lead == 0 && w == (JDIMENSION)r->w;
	/* Up to ROWS scanlines per call: libjpeg hands out a whole upsampled row group at once. */
	enum { ROWS = 16 };
	uint8_t *tmp = dalic_img_scratch_get(&d->rows, wide * ROWS);
	if (!tmp) {
		lj.abort(c);
		snprintf(err, errn, "%u-pixel rows: %s", (unsigned)w, dalic_last_error());
		return -1;
	}
	for (int y = ey0; y < r->y + r->h;) {
		JSAMPROW rows[ROWS];
		int want = r->y + r->h - y < ROWS ? r->y + r->h - y : ROWS;
		for (int k = 0; k < want; k++)
			rows[k] = direct && y + k >= r->y ? out + (size_t)(y + k - r->y) * row_bytes
							  : tmp + (size_t)k * wide;
		int got = (int)lj.read(c, rows, (JDIMENSION)want);
		if (got <= 0) {
			lj.abort(c);
			snprintf(err, errn, "decoder stopped at row %d", y);
			return -1;
		}
		for (int k = 0; k < got; k++)
			if (!direct && y + k >= r->y)
				memcpy(out + (size_t)(y + k - r->y) * row_bytes, rows[k] + lead,
				       row_bytes);
		y += got;
	}
	lj.abort(c); /* the rows below the window are never decoded */
	return 0;
}

int dalic_img_jpeg_decode(img_decoder_t *d, const uint8_t *data, size_t n, const img_info_t *info,
                          img_px_t px, const img_rect_t *r, uint8_t *out, char *err, size_t errn)
{
	bool whole = r->x == 0 && r->y == 0 && r->w == info->width && r->h == info->height;
	if (d->jpeg->lj_ready && (!whole || info->subsampling < 0))
		return lj_decode(d, data, n, px, r, out, err, errn);
	if (whole)
		return tj_decode(d->jpeg, data, n, info, px, out, err, errn);
	/* No libjpeg: decode everything, keep the window. */
	size_t ch = (size_t)img_px_channels(px);
	uint8_t *full = dalic_img_scratch_get(&d->full, (size_t)info->width * info->height * ch);
	if (!full) {
		snprintf(err, errn, "a %dx%d image: %s", info->width, info->height,
			 dalic_last_error());
		return -1;
	}
	if (tj_decode(d->jpeg, data, n, info, px, full, err, errn))
		return -1;
	for (int y = 0; y < r->h; y++)
		memcpy(out + (size_t)y * r->w * ch,
		       full + ((size_t)(r->y + y) * info->width + r->x) * ch, (size_t)r->w * ch);
	return 0;
}
