/*
 * JPEG headers as DALI 2.4 reads them before decoding (nvImageCodec's JPEG parser): the marker
 * segments from SOI to the first SOS, each one 0xFF (fill bytes allowed) and a non-zero code
 * followed by its length. The walk is strict where libjpeg is lenient — stray bytes between two
 * segments, a length reaching past the end, a file that ends before its first scan — so such
 * files fail here, as they fail in DALI, with the reason. From the segments: the frame (SOFn:
 * precision, extents, components, sampling), EXIF orientation (APP1) and Adobe's transform
 * (APP14, YCCK vs CMYK).
 */
#include "kernels/common/img_codec_impl.h"

#include <stdio.h>
#include <string.h>

typedef struct jpgp_reader {
	const uint8_t *d;
	size_t n, pos;
	bool eof;
} jpgp_reader_t;

static unsigned jpgp_byte(jpgp_reader_t *r)
{
	if (r->pos >= r->n) {
		r->eof = true;
		return 0;
	}
	return r->d[r->pos++];
}

static unsigned jpgp_be16(jpgp_reader_t *r)
{
	unsigned hi = jpgp_byte(r);
	return hi << 8 | jpgp_byte(r);
}

static unsigned jpgp_rd16(const uint8_t *p, bool le)
{
	return le ? (unsigned)(p[0] | p[1] << 8) : (unsigned)(p[0] << 8 | p[1]);
}

static uint32_t jpgp_rd32(const uint8_t *p, bool le)
{
	return le ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
			    (uint32_t)p[3] << 24
		  : (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int dalic_img_exif_orientation(const uint8_t *t, size_t n)
{
	if (n < 8 || !((t[0] == 'I' && t[1] == 'I') || (t[0] == 'M' && t[1] == 'M')))
		return 0;
	bool le = t[0] == 'I';
	if (jpgp_rd16(t + 2, le) != 42)
		return 0;
	uint32_t ifd = jpgp_rd32(t + 4, le);
	if (ifd > n - 2)
		return 0;
	unsigned count = jpgp_rd16(t + ifd, le);
	for (unsigned k = 0; k < count; k++) {
		size_t e = (size_t)ifd + 2 + (size_t)k * 12;
		if (e + 12 > n)
			break;
		if (jpgp_rd16(t + e, le) == 0x0112 && jpgp_rd16(t + e + 2, le) == 3) {
			unsigned v = jpgp_rd16(t + e + 8, le);
			return v >= 1 && v <= 8 ? (int)v : 1;
		}
	}
	return 0;
}

/* TJSAMP_* of the sampling factors (nvImageCodec's classification), -1 if unusual. */
static int jpgp_subsampling(int ncomp, const uint8_t h[4], const uint8_t v[4])
{
	if (ncomp == 1)
		return 3; /* TJSAMP_GRAY */
	if (ncomp != 3 || h[1] != h[2] || v[1] != v[2] || h[1] == 0 || v[1] == 0 ||
	    h[0] % h[1] || v[0] % v[1])
		return -1;
	int x = h[0] / h[1], y = v[0] / v[1];
	static const int map[5][3] = {{-1, -1, -1},
				      {-1, 0, 4},   /* 1x1: 444, 1x2: 440 */
				      {-1, 1, 2},   /* 2x1: 422, 2x2: 420 */
				      {-1, -1, -1},
				      {-1, 5, -1}}; /* 4x1: 411 */
	return x <= 4 && y <= 2 ? map[x][y] : -1;
}

static int jpgp_fail(char *err, size_t errn, const char *what, size_t at)
{
	snprintf(err, errn, "bad JPEG header: %s (byte %zu)", what, at);
	return -1;
}

int dalic_img_jpeg_parse(const uint8_t *data, size_t n, img_info_t *info, char *err,
                         size_t errn)
{
	jpgp_reader_t r = {data, n, 2, false};
	if (n < 2 || data[0] != 0xFF || data[1] != 0xD8)
		return jpgp_fail(err, errn, "no start-of-image marker", 0);
	bool shape = false;
	int ncomp = 0, orientation = 1;
	uint8_t hs[4] = {0}, vs[4] = {0};
	info->adobe_transform = -1;
	for (;;) {
		size_t at = r.pos;
		unsigned m0 = jpgp_byte(&r), m1;
		do
			m1 = jpgp_byte(&r);
		while (m1 == 0xFF && !r.eof);
		if (r.eof)
			return jpgp_fail(err, errn, "the file ends before the image data (truncated)", at);
		if (m0 != 0xFF || m1 == 0)
			return jpgp_fail(err, errn, "stray bytes where a marker belongs", at);
		if (m1 == 0xDA)
			break;
		size_t seg = r.pos;
		size_t next = seg + jpgp_be16(&r);
		bool sof = m1 >= 0xC0 && m1 <= 0xCF && m1 != 0xC4 && m1 != 0xC8 && m1 != 0xCC;
		if (sof) {
			info->precision = (int)jpgp_byte(&r);
			info->height = (int)jpgp_be16(&r);
			info->width = (int)jpgp_be16(&r);
			ncomp = (int)jpgp_byte(&r);
			if (ncomp > 4)
				return jpgp_fail(err, errn, "more than 4 components", at);
			for (int c = 0; c < ncomp; c++) {
				jpgp_byte(&r);
				unsigned f = jpgp_byte(&r);
				hs[c] = (uint8_t)(f >> 4), vs[c] = (uint8_t)(f & 15);
				jpgp_byte(&r);
			}
			info->progressive = m1 == 0xC2 || m1 == 0xC6 || m1 == 0xCA || m1 == 0xCE;
			shape = true;
		} else if (m1 == 0xE1 && r.pos + 6 <= n && !memcmp(data + r.pos, "Exif\0\0", 6)) {
			r.pos += 6;
			size_t len = next >= seg + 8 ? next - seg - 8 : (size_t)-1;
			if (len > n - r.pos)
				return jpgp_fail(err, errn, "the EXIF block ends past the file", at);
			int o = dalic_img_exif_orientation(data + r.pos, len);
			if (o) /* the last EXIF block with an orientation wins */
				orientation = o;
		} else if (m1 == 0xEE && r.pos + 5 <= n && !memcmp(data + r.pos, "Adobe", 5)) {
			if (next - seg == 14 && seg + 13 < n)
				info->adobe_transform = data[seg + 13];
		}
		if (r.eof)
			return jpgp_fail(err, errn, "the file ends inside a marker segment", at);
		r.pos = next;
	}
	if (!shape)
		return jpgp_fail(err, errn, "no frame header (SOF) before the image data", r.pos);
	if (ncomp != 1 && ncomp != 3 && ncomp != 4) {
		snprintf(err, errn, "bad JPEG header: %d components (1, 3 or 4 decode)", ncomp);
		return -1;
	}
	info->channels = ncomp;
	info->cmyk = ncomp == 4;
	info->orientation = orientation;
	info->subsampling = jpgp_subsampling(ncomp, hs, vs);
	return 0;
}
