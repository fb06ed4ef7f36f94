/*
 * JPEG pixels for img_codec through libjpeg (libjpeg-turbo), set up as DALI 2.4's CPU decoder
 * sets it up (nvImageCodec's libjpeg-turbo extension, and OpenCV's JPEG reader for
 * EXIF-rotated files), so the same files decode into the same pixels and the same ones fail:
 *
 * - Warnings ("Corrupt JPEG data: bad Huffman code", "... extraneous bytes before marker")
 *   leave the image as libjpeg makes it — DALI keeps it — and are kept for the operator.
 * - Running out of data fails: the source manager never invents an end marker. Errors
 *   (libjpeg's error_exit) fail. More than 256 progressive scans fail (DALI's limit, which also
 *   keeps hostile files from taking minutes).
 * - A window is decoded with jpeg_crop_scanline (widened by one pixel on each side: chroma
 *   upsampling replicates the edge of what it decodes, and with the margin the window's pixels
 *   equal the whole decode's) and jpeg_skip_scanlines; after its last row the rest is skipped
 *   with jpeg_skip_scanlines, which libjpeg does without reading it, then
 *   jpeg_finish_decompress: exactly DALI's sequence, so what lies below the window is never
 *   read and a file truncated there decodes, in both. Window rows are decoded straight into
 *   the output (jpgd_read_rows), not into a row buffer and copied.
 */
#include "kernels/common/img_codec_impl.h"

#include "dalic.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* jpeglib.h wants FILE and size_t first. */
#include <jerror.h>
#include <jpeglib.h>

/* nvImageCodec's default NVIMGCODEC_MAX_JPEG_SCANS. */
#define JPGD_MAX_SCANS 256

typedef struct jpgd_error {
	struct jpeg_error_mgr pub;
	jmp_buf jump;
	char msg[JMSG_LENGTH_MAX + 64];
	img_warnings_t *warnings;
} jpgd_error_t;

/* A memory source that fails, like DALI's, when libjpeg asks for bytes past the end. */
typedef struct jpgd_source {
	struct jpeg_source_mgr pub;
	const uint8_t *data;
	size_t n;
} jpgd_source_t;

struct img_jpeg {
	struct jpeg_decompress_struct cinfo;
	jpgd_error_t jerr;
	jpgd_source_t src;
	struct jpeg_progress_mgr progress;
	bool ready;
};

static void jpgd_error_exit(j_common_ptr c)
{
	jpgd_error_t *e = (jpgd_error_t *)c->err;
	if (e->pub.msg_code == JERR_FILE_READ) /* our source's: libjpeg's text says "file read" */
		snprintf(e->msg, sizeof e->msg, "premature end of JPEG data (truncated file)");
	else
		e->pub.format_message(c, e->msg);
	longjmp(e->jump, 1);
}

static void jpgd_emit(j_common_ptr c, int level)
{
	jpgd_error_t *e = (jpgd_error_t *)c->err;
	if (level >= 0) /* trace messages */
		return;
	char msg[JMSG_LENGTH_MAX];
	e->pub.format_message(c, msg);
	e->pub.num_warnings++;
	if (e->warnings)
		dalic_img_warn(e->warnings, msg);
}

static void jpgd_progress(j_common_ptr c)
{
	j_decompress_ptr d = (j_decompress_ptr)c;
	jpgd_error_t *e = (jpgd_error_t *)c->err;
	if (d->input_scan_number > JPGD_MAX_SCANS) {
		snprintf(e->msg, sizeof e->msg, "more than %d progressive scans (DALI's limit)",
		         JPGD_MAX_SCANS);
		longjmp(e->jump, 1);
	}
}

static void jpgd_src_init(j_decompress_ptr c)
{
	jpgd_source_t *s = (jpgd_source_t *)c->src;
	s->pub.next_input_byte = s->data;
	s->pub.bytes_in_buffer = s->n;
}

/* Called when libjpeg wants bytes past the end: an error from the marker reader, a suspension
 * (jpeg_read_scanlines returns 0) from the entropy decoder, whose copy of bytes_in_buffer
 * is stale when it calls — nvImageCodec's source does the same. */
static boolean jpgd_src_fill(j_decompress_ptr c)
{
	jpgd_source_t *s = (jpgd_source_t *)c->src;
	if (s->pub.bytes_in_buffer == 0 && s->pub.next_input_byte == s->data)
		ERREXIT(c, JERR_INPUT_EMPTY);
	if (s->pub.bytes_in_buffer)
		return FALSE;
	ERREXIT(c, JERR_FILE_READ);
	return FALSE;
}

static void jpgd_src_skip(j_decompress_ptr c, long jump)
{
	jpgd_source_t *s = (jpgd_source_t *)c->src;
	if (jump <= 0)
		return;
	if ((size_t)jump > s->pub.bytes_in_buffer) {
		s->pub.bytes_in_buffer = 0;
		jpgd_src_fill(c);
		return;
	}
	s->pub.bytes_in_buffer -= (size_t)jump;
	s->pub.next_input_byte += jump;
}

static void jpgd_src_term(j_decompress_ptr c)
{
	(void)c;
}

static bool jpgd_create(img_jpeg_t *j)
{
	j->cinfo.err = jpeg_std_error(&j->jerr.pub);
	j->jerr.pub.error_exit = jpgd_error_exit;
	j->jerr.pub.emit_message = jpgd_emit;
	if (setjmp(j->jerr.jump))
		return false;
	jpeg_create_decompress(&j->cinfo);
	j->src.pub.init_source = jpgd_src_init;
	j->src.pub.fill_input_buffer = jpgd_src_fill;
	j->src.pub.skip_input_data = jpgd_src_skip;
	j->src.pub.resync_to_restart = jpeg_resync_to_restart;
	j->src.pub.term_source = jpgd_src_term;
	j->progress.progress_monitor = jpgd_progress;
	return true;
}

img_jpeg_t *dalic_img_jpeg_new(void)
{
	img_jpeg_t *j = calloc(1, sizeof *j);
	if (j && !(j->ready = jpgd_create(j))) {
		free(j);
		j = NULL;
	}
	return j;
}

void dalic_img_jpeg_free(img_jpeg_t *j)
{
	if (!j)
		return;
	jpeg_destroy_decompress(&j->cinfo);
	free(j);
}

/* Failure after libjpeg stopped without an error: the data ran out. */
static int jpgd_truncated(img_jpeg_t *j, const char *where, char *err, size_t errn)
{
	jpeg_abort_decompress(&j->cinfo);
	snprintf(err, errn, "premature end of JPEG data %s (truncated file)", where);
	return -1;
}

/* Rows [y, y + h) of the started decompressor into `out` (rows of `row_bytes`, taken `lead`
 * bytes into each decoded row of `wide` bytes; `tmp` holds ROWS decoded rows). Rows above y
 * are decoded into tmp and dropped. A window row is decoded straight into the output, `lead`
 * bytes before its start: that overwrites the end of the row above (saved and put back) and
 * the start of the row below (not decoded yet), one row per call so the rows of one call do
 * not overwrite each other; rows where that would leave the buffer (the first, the last) go
 * through tmp and are copied. Returns 0, or -1 when the data ends. */
enum { JPGD_ROWS = 16, JPGD_MAX_LEAD = 256 };
static int jpgd_read_rows(struct jpeg_decompress_struct *c, int y0, int y, int h, uint8_t *out,
                          size_t row_bytes, size_t lead, size_t wide, uint8_t *tmp, bool direct)
{
	const size_t end = (size_t)h * row_bytes, trail = wide - lead - row_bytes;
	for (int at = y0; at < y + h;) {
		JSAMPROW rows[JPGD_ROWS];
		size_t k = at >= y ? (size_t)(at - y) : 0, pos = k * row_bytes;
		bool window = at >= y;
		if (window && !direct && lead <= JPGD_MAX_LEAD && pos >= lead &&
		    pos + row_bytes + trail <= end) { /* in place */
			uint8_t above[JPGD_MAX_LEAD];
			memcpy(above, out + pos - lead, lead);
			rows[0] = out + pos - lead;
			if (jpeg_read_scanlines(c, rows, 1) != 1)
				return -1;
			memcpy(out + pos - lead, above, lead);
			at++;
			continue;
		}
		int want = window ? (direct ? y + h - at : 1) : y - at;
		want = want < JPGD_ROWS ? want : JPGD_ROWS;
		for (int r = 0; r < want; r++)
			rows[r] = window && direct ? out + pos + (size_t)r * row_bytes
						   : tmp + (size_t)r * wide;
		int got = (int)jpeg_read_scanlines(c, rows, (JDIMENSION)want);
		if (got <= 0)
			return -1;
		if (window && !direct)
			memcpy(out + pos, tmp + lead, row_bytes);
		at += got;
	}
	return 0;
}

int dalic_img_jpeg_decode(img_decoder_t *d, const uint8_t *data, size_t n, const img_info_t *info,
                          img_px_t *px, const img_rect_t *r, uint8_t *out, char *err, size_t errn)
{
	img_jpeg_t *j = d->jpeg;
	struct jpeg_decompress_struct *c = &j->cinfo;
	(void)info;
	j->jerr.warnings = &d->warnings;
	j->jerr.msg[0] = 0;
	if (setjmp(j->jerr.jump)) {
		jpeg_abort_decompress(c);
		snprintf(err, errn, "%s", j->jerr.msg);
		return -1;
	}
	j->src.data = data;
	j->src.n = n;
	c->src = &j->src.pub;
	c->progress = &j->progress;
	jpeg_read_header(c, TRUE);
	static const J_COLOR_SPACE cs[] = {
	    [IMG_PX_GRAY] = JCS_GRAYSCALE, [IMG_PX_GA] = JCS_GRAYSCALE, [IMG_PX_RGB] = JCS_EXT_RGB,
	    [IMG_PX_BGR] = JCS_EXT_BGR,    [IMG_PX_RGBA] = JCS_EXT_RGB, [IMG_PX_CMYK] = JCS_CMYK,
	    [IMG_PX_CMYK_PLAIN] = JCS_CMYK, [IMG_PX_CMYK_CV] = JCS_CMYK};
	c->out_color_space = cs[*px];
	c->dct_method = JDCT_ISLOW;
	c->do_fancy_upsampling = TRUE;
	if (*px == IMG_PX_CMYK && !c->saw_Adobe_marker)
		*px = IMG_PX_CMYK_PLAIN;
	if (!jpeg_start_decompress(c))
		return jpgd_truncated(j, "before the first row", err, errn);
	int ch = c->output_components;
	int W = (int)c->output_width, H = (int)c->output_height;
	if (r->x + r->w > W || r->y + r->h > H) { /* the header said otherwise (fuzzing) */
		jpeg_abort_decompress(c);
		snprintf(err, errn, "the JPEG frame is %dx%d, smaller than its header said", W, H);
		return -1;
	}
	/* One pixel more on each side: the upsampler replicates the edge of what it decodes, so
	 * the window's own edge pixels then see their real neighbours. */
	int ex0 = r->x > 0 ? r->x - 1 : 0, ey0 = r->y > 0 ? r->y - 1 : 0;
	int ex1 = r->x + r->w < W ? r->x + r->w + 1 : r->x + r->w;
	JDIMENSION x0 = (JDIMENSION)ex0, w = (JDIMENSION)(ex1 - ex0);
	if (ex0 != 0 || ex1 != W)
		jpeg_crop_scanline(c, &x0, &w); /* widens further to iMCU column boundaries */
	if (ey0 > 0 && jpeg_skip_scanlines(c, (JDIMENSION)ey0) != (JDIMENSION)ey0)
		return jpgd_truncated(j, "above the window", err, errn);
	size_t row_bytes = (size_t)r->w * (size_t)ch, lead = (size_t)(r->x - (int)x0) * (size_t)ch;
	size_t wide = (size_t)w * (size_t)ch;
	bool direct = lead == 0 && w == (JDIMENSION)r->w;
	bool need_tmp = !direct || ey0 < r->y; /* rows decoded but not kept go there */
	uint8_t *tmp = need_tmp ? dalic_img_scratch_get(&d->rows, wide * JPGD_ROWS) : NULL;
	if (need_tmp && !tmp) {
		jpeg_abort_decompress(c);
		snprintf(err, errn, "%u-pixel rows: %s", (unsigned)w, dalic_last_error());
		return -1;
	}
	if (jpgd_read_rows(c, ey0, r->y, r->h, out, row_bytes, lead, wide, tmp, direct)) {
		char where[64];
		snprintf(where, sizeof where, "at row %u of %d", (unsigned)c->output_scanline, H);
		return jpgd_truncated(j, where, err, errn);
	}
	/* DALI's end: skip what is left (libjpeg skips to the end without reading), finish */
	JDIMENSION left = c->output_height - c->output_scanline;
	if (left && jpeg_skip_scanlines(c, left) != left)
		return jpgd_truncated(j, "below the window", err, errn);
	if (!jpeg_finish_decompress(c))
		return jpgd_truncated(j, "before its end marker", err, errn);
	return 0;
}
