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
 * - An EXIF-rotated file is read to its end as OpenCV (DALI's decoder for those) reads it:
 *   the rows below the window are entropy-decoded (damage there fails or warns as in a whole
 *   decode) but not output; the window's pixels are those of the whole decode.
 * - A multi-scan (progressive) file is read whole by jpeg_start_decompress before any row
 *   comes out. Blocks below the iMCU row holding the row under the window are never output
 *   (the upsampler takes one chroma row down at most), so each scan's entropy data is decoded
 *   only down to there and the reader then jumps to the marker ending the scan (jpgd_skip_*):
 *   the window's coefficients, and so its pixels, are those of a whole read. A scan is read
 *   whole when its end cannot be found the way libjpeg's bit reader finds it (no marker, or a
 *   marker code below 0xC0 first), and the file is decoded again unskipped when block
 *   smoothing (incomplete progressive files) would look at blocks further down. What is not
 *   decoded gives no warnings (docs/dali-differences.md).
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
/* struct jpeg_entropy_decoder, whose decode_mcu jpgd_progress replaces */
#include <jpegint.h>

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
	struct jpeg_decompress_struct cinfo; /* first: jpgd_progress gets from it to the rest */
	jpgd_error_t jerr;
	jpgd_source_t src;
	struct jpeg_progress_mgr progress;
	bool ready;
	/* Skipping the entropy data below the window (multi-scan files): iMCU rows from
	 * skip_from on are not decoded (0: everything is); whole_scan is a scan (number) read
	 * whole, cut_scan the last one cut and decode_mcu its decoder's method, skipped whether
	 * any scan was cut. */
	JDIMENSION skip_from;
	int whole_scan, cut_scan;
	boolean (*decode_mcu)(j_decompress_ptr c, JBLOCKROW *blocks);
	bool skipped;
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

/* Where the scan whose entropy data goes on at p ends: after the first 0xFF (0xFF...) xx with
 * xx neither a stuffed 0 nor RSTn, where libjpeg's bit reader stops and its marker reader takes
 * over; *marker gets xx. NULL when there is none (truncated: the whole read fails there) or a
 * code below 0xC0 comes first (libjpeg discards those at restarts, elsewhere fails on them):
 * such a scan is read whole. */
static const uint8_t *jpgd_skip_scan_end(const uint8_t *p, const uint8_t *e, int *marker)
{
	while (p < e && (p = memchr(p, 0xFF, (size_t)(e - p)))) {
		const uint8_t *q = p + 1;
		while (q < e && *q == 0xFF)
			q++;
		if (q >= e || (*q > 0 && *q < 0xC0))
			return NULL;
		if (*q == 0 || (*q >= 0xD0 && *q <= 0xD7)) {
			p = q + 1;
			continue;
		}
		*marker = *q;
		return q + 1;
	}
	return NULL;
}

/* A scan's decode_mcu once the reader has jumped past the scan's end: its remaining MCUs are
 * left as they are (never output). */
static boolean jpgd_skip_mcu(j_decompress_ptr c, JBLOCKROW *blocks)
{
	(void)c, (void)blocks;
	return TRUE;
}

/* libjpeg calls this before each step of jpeg_start_decompress's reading of the scans: a marker
 * segment, or one iMCU row of a scan. At the scan's first row from skip_from on, the reader
 * jumps past the marker ending the scan and leaves it pending, as the bit reader does when it
 * meets one (the next scan's start_pass resets the bit buffer and the restart state), and the
 * scan's remaining MCUs are not decoded. A scan is read whole when the bit reader has met a
 * marker already, or its end is not found as the bit reader would find it. */
static void jpgd_progress(j_common_ptr c)
{
	j_decompress_ptr d = (j_decompress_ptr)c;
	jpgd_error_t *e = (jpgd_error_t *)c->err;
	if (d->input_scan_number > JPGD_MAX_SCANS) {
		snprintf(e->msg, sizeof e->msg, "more than %d progressive scans (DALI's limit)",
		         JPGD_MAX_SCANS);
		longjmp(e->jump, 1);
	}
	img_jpeg_t *j = (img_jpeg_t *)(void *)d; /* cinfo is its first member */
	if (!j->skip_from || d->global_state != DSTATE_PRELOAD)
		return;
	/* The progressive decoder's start_pass sets decode_mcu for each scan, the sequential
	 * one's keeps it: put it back at the next scan. */
	if (d->entropy->decode_mcu == jpgd_skip_mcu && j->cut_scan != d->input_scan_number)
		d->entropy->decode_mcu = j->decode_mcu;
	if (d->input_iMCU_row < j->skip_from || d->input_iMCU_row >= d->total_iMCU_rows ||
	    d->entropy->decode_mcu == jpgd_skip_mcu || j->whole_scan == d->input_scan_number)
		return;
	int marker = 0;
	const uint8_t *end = d->unread_marker ? NULL
	                                      : jpgd_skip_scan_end(d->src->next_input_byte,
	                                                           d->src->next_input_byte +
	                                                               d->src->bytes_in_buffer,
	                                                           &marker);
	if (!end) {
		j->whole_scan = d->input_scan_number;
		return;
	}
	d->src->bytes_in_buffer -= (size_t)(end - d->src->next_input_byte);
	d->src->next_input_byte = end;
	d->unread_marker = marker;
	j->decode_mcu = d->entropy->decode_mcu;
	d->entropy->decode_mcu = jpgd_skip_mcu;
	j->cut_scan = d->input_scan_number;
	j->skipped = true;
}

/* Whether libjpeg may smooth blocks (progressive files whose first AC coefficients are not
 * all known exactly at the end); smoothing reads blocks two rows down, beyond skip_from. */
static bool jpgd_skip_may_smooth(j_decompress_ptr c)
{
	if (!c->progressive_mode || !c->do_block_smoothing || !c->coef_bits)
		return false;
	for (int ci = 0; ci < c->num_components; ci++)
		for (int k = 1; k < 10; k++)
			if (c->coef_bits[ci][k] != 0)
				return true;
	return false;
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

/* One decode; with `skip`, scans are cut below the window, and *redo is set (and -1 returned)
 * when that turns out not to be safe. */
static int jpgd_decode(img_decoder_t *d, const uint8_t *data, size_t n, img_px_t *px,
                       const img_rect_t *r, uint8_t *out, bool all_rows, bool skip, bool *redo,
                       char *err, size_t errn)
{
	img_jpeg_t *j = d->jpeg;
	struct jpeg_decompress_struct *c = &j->cinfo;
	j->skip_from = 0;
	j->whole_scan = j->cut_scan = 0;
	j->skipped = false;
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
	if (skip && !all_rows && jpeg_has_multiple_scans(c)) {
		/* up to the iMCU row of the row below the window: the fancy upsampler's chroma
		 * rows for the window's last row (one chroma row down at most) lie there */
		JDIMENSION last = (JDIMENSION)(r->y + r->h);
		JDIMENSION rows = (JDIMENSION)c->max_v_samp_factor * DCTSIZE;
		if (last >= c->image_height)
			last = c->image_height - 1;
		if (last / rows + 1 < c->total_iMCU_rows)
			j->skip_from = last / rows + 1;
	}
	if (!jpeg_start_decompress(c))
		return jpgd_truncated(j, "before the first row", err, errn);
	if (j->skipped && jpgd_skip_may_smooth(c)) {
		jpeg_abort_decompress(c);
		*redo = true;
		return -1;
	}
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
	bool need_tmp = !direct || ey0 < r->y || all_rows; /* rows decoded but not kept */
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
	/* DALI's end: skip what is left (libjpeg skips to the end without reading), finish.
	 * With all_rows the rows below are read as OpenCV reads them, short of their pixels:
	 * libjpeg skips rows short of the end by decoding their entropy data; the last row is
	 * decoded into tmp. */
	JDIMENSION left = c->output_height - c->output_scanline;
	if (all_rows && left) {
		JSAMPROW last[1] = {tmp};
		if ((left > 1 && jpeg_skip_scanlines(c, left - 1) != left - 1) ||
		    jpeg_read_scanlines(c, last, 1) != 1) {
			char where[64];
			snprintf(where, sizeof where, "at row %u of %d", (unsigned)c->output_scanline,
			         H);
			return jpgd_truncated(j, where, err, errn);
		}
	} else if (left && jpeg_skip_scanlines(c, left) != left)
		return jpgd_truncated(j, "below the window", err, errn);
	if (!jpeg_finish_decompress(c))
		return jpgd_truncated(j, "before its end marker", err, errn);
	return 0;
}

int dalic_img_jpeg_decode(img_decoder_t *d, const uint8_t *data, size_t n, const img_info_t *info,
                          img_px_t *px, const img_rect_t *r, uint8_t *out, char *err, size_t errn)
{
	/* OpenCV, DALI's decoder for EXIF-rotated files, reads every row */
	bool all_rows = info->orientation != 1, redo = false;
	img_px_t want = *px;
	int rc = jpgd_decode(d, data, n, px, r, out, all_rows, true, &redo, err, errn);
	if (!redo)
		return rc;
	memset(&d->warnings, 0, sizeof d->warnings); /* the second read gives them again */
	*px = want;
	return jpgd_decode(d, data, n, px, r, out, all_rows, false, &redo, err, errn);
}
