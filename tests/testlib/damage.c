/* The damaged-image set (see tests/testlib/damage.h). */
#include "tests/testlib/damage.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* jpeglib.h wants FILE and size_t first. */
#include <jpeglib.h>
#include <png.h>
#include <sys/stat.h>

typedef struct tl_dmg_buf {
	uint8_t *p;
	size_t n, cap;
} tl_dmg_buf_t;

typedef struct tl_dmg {
	const char *samples, *dir;
	int count;
	int failed;
} tl_dmg_t;

static void tl_dmg_put(tl_dmg_buf_t *b, const void *d, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		if (!b->p) {
			fprintf(stderr, "damage: out of memory\n");
			exit(1);
		}
	}
	memcpy(b->p + b->n, d, n);
	b->n += n;
}

static tl_dmg_buf_t tl_dmg_read(tl_dmg_t *g, const char *rel)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", g->samples, rel);
	tl_dmg_buf_t b = {0};
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "damage: cannot read %s\n", path);
		g->failed = 1;
		return b;
	}
	uint8_t chunk[65536];
	size_t got;
	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
		tl_dmg_put(&b, chunk, got);
	fclose(f);
	return b;
}

static void tl_dmg_write(tl_dmg_t *g, const char *name, const uint8_t *d, size_t n)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", g->dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(d, 1, n, f) != n || fclose(f)) {
		fprintf(stderr, "damage: cannot write %s\n", path);
		g->failed = 1;
		return;
	}
	g->count++;
}

unsigned long long tl_damage_hash(const void *data, size_t n)
{
	const uint8_t *p = data;
	unsigned long long h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ULL;
	return h;
}

/* A small deterministic generator for positions and bits. */
static uint32_t tl_dmg_next(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

/* ---- JPEG ---------------------------------------------------------------------------------- */

/* Offset of marker `m` (first occurrence among the header segments), or 0. */
static size_t tl_dmg_jpeg_marker(const tl_dmg_buf_t *b, uint8_t m)
{
	size_t i = 2;
	while (i + 4 <= b->n && b->p[i] == 0xFF) {
		uint8_t k = b->p[i + 1];
		if (k == m)
			return i;
		if (k == 0xDA)
			return 0;
		i += 2 + ((size_t)b->p[i + 2] << 8 | b->p[i + 3]);
	}
	return 0;
}

/* First byte of entropy-coded data (after the first SOS header). */
static size_t tl_dmg_jpeg_data(const tl_dmg_buf_t *b)
{
	size_t s = tl_dmg_jpeg_marker(b, 0xDA);
	return s ? s + 2 + ((size_t)b->p[s + 2] << 8 | b->p[s + 3]) : 0;
}

static void tl_dmg_variant(tl_dmg_t *g, const char *base, const char *what, const uint8_t *d,
                           size_t n)
{
	char name[128];
	snprintf(name, sizeof name, "%s_%s", base, what);
	tl_dmg_write(g, name, d, n);
}

/* Flips `bits` bits in the entropy-coded data, away from the last two bytes (EOI). */
static void tl_dmg_flips(tl_dmg_t *g, const tl_dmg_buf_t *src, const char *base, int bits,
                         uint32_t seed)
{
	size_t s = tl_dmg_jpeg_data(src);
	uint8_t *d = malloc(src->n);
	memcpy(d, src->p, src->n);
	for (int k = 0; k < bits; k++) {
		size_t pos = s + tl_dmg_next(&seed) % (src->n - 2 - s);
		d[pos] ^= (uint8_t)(1u << (tl_dmg_next(&seed) % 8));
	}
	char what[32];
	snprintf(what, sizeof what, "flip%d.jpg", bits);
	tl_dmg_variant(g, base, what, d, src->n);
	free(d);
}

/* Truncation at a fraction of the entropy-coded data, without the EOI, headers only. */
static void tl_dmg_truncations(tl_dmg_t *g, const tl_dmg_buf_t *src, const char *base)
{
	size_t s = tl_dmg_jpeg_data(src);
	tl_dmg_variant(g, base, "trunc30.jpg", src->p, s + (src->n - s) * 3 / 10);
	tl_dmg_variant(g, base, "trunc90.jpg", src->p, s + (src->n - s) * 9 / 10);
	tl_dmg_variant(g, base, "noeoi.jpg", src->p, src->n - 2);
	tl_dmg_variant(g, base, "headers.jpg", src->p, s);
}

/* One byte of marker `m`'s segment (at `off` from its 0xFF) set to `v`. */
static void tl_dmg_poke(tl_dmg_t *g, const tl_dmg_buf_t *src, const char *name, uint8_t m,
                        size_t off, uint8_t v)
{
	size_t at = tl_dmg_jpeg_marker(src, m);
	uint8_t *d = malloc(src->n);
	memcpy(d, src->p, src->n);
	d[at + off] = v;
	tl_dmg_write(g, name, d, src->n);
	free(d);
}

static void tl_dmg_jpeg_markers(tl_dmg_t *g, const tl_dmg_buf_t *c)
{
	tl_dmg_poke(g, c, "marker_dht_c8.jpg", 0xC4, 1, 0xC8);  /* an undefined SOF type */
	tl_dmg_poke(g, c, "marker_no_dqt.jpg", 0xDB, 1, 0xEF);  /* DQT turned into APP15 */
	tl_dmg_poke(g, c, "marker_sof3.jpg", 0xC0, 1, 0xC3);    /* lossless: not supported */
	tl_dmg_poke(g, c, "marker_sof1.jpg", 0xC0, 1, 0xC1);    /* extended sequential: fine */
	tl_dmg_poke(g, c, "marker_12bit.jpg", 0xC0, 4, 12);     /* 12-bit precision */
	tl_dmg_poke(g, c, "marker_dqt_len.jpg", 0xDB, 2, 0xFF); /* a length past the end */
	tl_dmg_poke(g, c, "marker_sos_comp.jpg", 0xDA, 5, 9);   /* no such component */
	tl_dmg_poke(g, c, "marker_width195.jpg", 0xC0, 7, 0);     /* 451 -> 195 columns */
	tl_dmg_poke(g, c, "marker_height44.jpg", 0xC0, 5, 0);     /* 300 -> 44 rows */
	tl_dmg_poke(g, c, "marker_height556.jpg", 0xC0, 5, 2);    /* more rows than coded */
	size_t sof = tl_dmg_jpeg_marker(c, 0xC0);
	uint8_t *z = malloc(c->n);
	memcpy(z, c->p, c->n);
	z[sof + 7] = z[sof + 8] = 0;
	tl_dmg_write(g, "marker_width0.jpg", z, c->n);
	memcpy(z, c->p, c->n);
	z[sof + 5] = z[sof + 6] = 0; /* height 0: a DNL marker would give it; there is none */
	tl_dmg_write(g, "marker_height0.jpg", z, c->n);
	free(z);
	size_t at = tl_dmg_jpeg_marker(c, 0xC4);
	tl_dmg_buf_t b = {0};
	tl_dmg_put(&b, c->p, at);
	tl_dmg_put(&b, "\x12\x34\x56", 3); /* stray bytes between two segments */
	tl_dmg_put(&b, c->p + at, c->n - at);
	tl_dmg_write(g, "marker_garbage.jpg", b.p, b.n);
	b.n = 0;
	tl_dmg_put(&b, c->p, c->n);
	tl_dmg_put(&b, "\0garbage\xff\xd8", 10); /* bytes after the EOI */
	tl_dmg_write(g, "marker_trailing.jpg", b.p, b.n);
	free(b.p);
	tl_dmg_write(g, "marker_soi_only.jpg", (const uint8_t *)"\xff\xd8\xff", 3);
}

typedef struct tl_dmg_jerr {
	struct jpeg_error_mgr pub;
	jmp_buf jump;
} tl_dmg_jerr_t;

static void tl_dmg_jerr_exit(j_common_ptr c)
{
	longjmp(((tl_dmg_jerr_t *)c->err)->jump, 1);
}

static void tl_dmg_jerr_quiet(j_common_ptr c, int level)
{
	(void)c, (void)level;
}

/* Transcodes `src` losslessly (coefficients copied) with arithmetic coding, a restart
 * interval or progressive scans, as jpegtran does. */
static int tl_dmg_transcode(const tl_dmg_buf_t *src, bool arith, bool progressive, int restart,
                            tl_dmg_buf_t *out)
{
	struct jpeg_decompress_struct in;
	struct jpeg_compress_struct o;
	tl_dmg_jerr_t je, jo;
	unsigned char *mem = NULL;
	unsigned long size = 0;
	in.err = jpeg_std_error(&je.pub);
	o.err = jpeg_std_error(&jo.pub);
	je.pub.error_exit = jo.pub.error_exit = tl_dmg_jerr_exit;
	je.pub.emit_message = jo.pub.emit_message = tl_dmg_jerr_quiet;
	jpeg_create_decompress(&in);
	jpeg_create_compress(&o);
	if (setjmp(je.jump) || setjmp(jo.jump)) {
		jpeg_destroy_decompress(&in);
		jpeg_destroy_compress(&o);
		free(mem);
		return -1;
	}
	jpeg_mem_src(&in, src->p, (unsigned long)src->n);
	jpeg_read_header(&in, TRUE);
	jvirt_barray_ptr *coefs = jpeg_read_coefficients(&in);
	jpeg_copy_critical_parameters(&in, &o);
	o.arith_code = arith;
	o.restart_interval = (unsigned)restart;
	if (progressive)
		jpeg_simple_progression(&o);
	jpeg_mem_dest(&o, &mem, &size);
	jpeg_write_coefficients(&o, coefs);
	jpeg_finish_compress(&o);
	jpeg_finish_decompress(&in);
	jpeg_destroy_compress(&o);
	jpeg_destroy_decompress(&in);
	tl_dmg_put(out, mem, size);
	free(mem);
	return 0;
}

/* Decodes `src` to RGB (w*h*3 bytes, malloc'd). */
static uint8_t *tl_dmg_decode_rgb(const tl_dmg_buf_t *src, int *w, int *h)
{
	struct jpeg_decompress_struct in;
	tl_dmg_jerr_t je;
	in.err = jpeg_std_error(&je.pub);
	je.pub.error_exit = tl_dmg_jerr_exit;
	uint8_t *px = NULL;
	jpeg_create_decompress(&in);
	if (setjmp(je.jump)) {
		jpeg_destroy_decompress(&in);
		free(px);
		return NULL;
	}
	jpeg_mem_src(&in, src->p, (unsigned long)src->n);
	jpeg_read_header(&in, TRUE);
	in.out_color_space = JCS_RGB;
	jpeg_start_decompress(&in);
	*w = (int)in.output_width, *h = (int)in.output_height;
	px = malloc((size_t)*w * *h * 3);
	while (in.output_scanline < in.output_height) {
		JSAMPROW row = px + (size_t)in.output_scanline * *w * 3;
		jpeg_read_scanlines(&in, &row, 1);
	}
	jpeg_finish_decompress(&in);
	jpeg_destroy_decompress(&in);
	return px;
}

/* A 4-component JPEG from RGB: CMYK (with or without Adobe's marker) or YCCK, stored in
 * Adobe's inverted convention as Photoshop writes it. */
static int tl_dmg_encode_cmyk(const uint8_t *rgb, int w, int h, J_COLOR_SPACE cs, bool adobe,
                              const uint8_t *app1, size_t app1_len, tl_dmg_buf_t *out)
{
	struct jpeg_compress_struct o;
	tl_dmg_jerr_t jo;
	unsigned char *mem = NULL;
	unsigned long size = 0;
	uint8_t *row = malloc((size_t)w * 4);
	o.err = jpeg_std_error(&jo.pub);
	jo.pub.error_exit = tl_dmg_jerr_exit;
	jpeg_create_compress(&o);
	if (setjmp(jo.jump)) {
		jpeg_destroy_compress(&o);
		free(mem);
		free(row);
		return -1;
	}
	jpeg_mem_dest(&o, &mem, &size);
	o.image_width = (JDIMENSION)w;
	o.image_height = (JDIMENSION)h;
	o.input_components = 4;
	o.in_color_space = JCS_CMYK;
	jpeg_set_defaults(&o);
	jpeg_set_colorspace(&o, cs);
	o.write_Adobe_marker = adobe;
	jpeg_set_quality(&o, 90, TRUE);
	jpeg_start_compress(&o, TRUE);
	if (app1)
		jpeg_write_marker(&o, JPEG_APP0 + 1, app1, (unsigned)app1_len);
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			const uint8_t *p = rgb + ((size_t)y * w + x) * 3;
			uint8_t k = (uint8_t)(255 - (x + y) % 96); /* inverted: 255 = no black */
			row[4 * x + 0] = p[0];
			row[4 * x + 1] = p[1];
			row[4 * x + 2] = p[2];
			row[4 * x + 3] = k;
		}
		JSAMPROW r = row;
		jpeg_write_scanlines(&o, &r, 1);
	}
	jpeg_finish_compress(&o);
	jpeg_destroy_compress(&o);
	tl_dmg_put(out, mem, size);
	free(mem);
	free(row);
	return 0;
}

/* The APP1 payload of chelsea_exif6.jpg (EXIF orientation 6), or 0 bytes. */
static size_t tl_dmg_app1(const tl_dmg_buf_t *b, const uint8_t **p)
{
	size_t at = tl_dmg_jpeg_marker(b, 0xE1);
	if (!at)
		return 0;
	*p = b->p + at + 4;
	return ((size_t)b->p[at + 2] << 8 | b->p[at + 3]) - 2;
}

static void tl_dmg_jpeg_codings(tl_dmg_t *g, const tl_dmg_buf_t *c, const tl_dmg_buf_t *exif6)
{
	tl_dmg_buf_t b = {0};
	if (!tl_dmg_transcode(c, true, false, 0, &b)) {
		tl_dmg_write(g, "arith.jpg", b.p, b.n);
		tl_dmg_flips(g, &b, "arith", 3, 11);
		size_t s = tl_dmg_jpeg_data(&b);
		tl_dmg_write(g, "arith_trunc60.jpg", b.p, s + (b.n - s) * 6 / 10);
	}
	b.n = 0;
	if (!tl_dmg_transcode(c, true, true, 0, &b))
		tl_dmg_write(g, "arith_progressive.jpg", b.p, b.n);
	b.n = 0;
	if (!tl_dmg_transcode(c, false, false, 2, &b)) {
		tl_dmg_write(g, "restart.jpg", b.p, b.n);
		tl_dmg_flips(g, &b, "restart", 4, 5);
		uint8_t *d = malloc(b.n);
		memcpy(d, b.p, b.n);
		uint8_t *rst = memmem(d + tl_dmg_jpeg_data(&b), b.n - tl_dmg_jpeg_data(&b), "\xff\xd3", 2);
		if (rst) {
			rst[1] = 0xD6; /* RST6 where RST3 belongs */
			tl_dmg_write(g, "restart_wrong.jpg", d, b.n);
			rst[1] = 0xD3;
		}
		uint8_t *gone = memmem(d + tl_dmg_jpeg_data(&b), b.n - tl_dmg_jpeg_data(&b), "\xff\xd5", 2);
		if (gone) { /* one restart marker missing */
			size_t at = (size_t)(gone - d);
			memmove(d + at, d + at + 2, b.n - at - 2);
			tl_dmg_write(g, "restart_missing.jpg", d, b.n - 2);
		}
		free(d);
	}
	int w, h;
	uint8_t *rgb = tl_dmg_decode_rgb(c, &w, &h);
	if (!rgb) {
		g->failed = 1;
		free(b.p);
		return;
	}
	const uint8_t *app1 = NULL;
	size_t app1_len = tl_dmg_app1(exif6, &app1);
	struct {
		const char *name;
		J_COLOR_SPACE cs;
		bool adobe, exif;
	} kinds[] = {
	    {"cmyk.jpg", JCS_CMYK, true, false},
	    {"cmyk_no_adobe.jpg", JCS_CMYK, false, false},
	    {"ycck.jpg", JCS_YCCK, true, false},
	    {"cmyk_exif6.jpg", JCS_CMYK, true, true},
	};
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		b.n = 0;
		if (tl_dmg_encode_cmyk(rgb, w, h, kinds[k].cs, kinds[k].adobe,
		                       kinds[k].exif ? app1 : NULL, kinds[k].exif ? app1_len : 0, &b))
			continue;
		tl_dmg_write(g, kinds[k].name, b.p, b.n);
		if (k == 0) {
			tl_dmg_flips(g, &b, "cmyk", 3, 17);
			tl_dmg_write(g, "cmyk_noeoi.jpg", b.p, b.n - 2);
		}
	}
	free(rgb);
	free(b.p);
}

static void tl_dmg_jpegs(tl_dmg_t *g)
{
	static const struct {
		const char *file, *base;
	} srcs[] = {
	    {"cat/chelsea.jpg", "chelsea"},
	    {"cat/chelsea_progressive.jpg", "progressive"},
	    {"coffee/coffee_422.jpg", "coffee422"},
	    {"cat/chelsea_gray.jpg", "gray"},
	    {"cat/chelsea_exif6.jpg", "exif6"},
	};
	tl_dmg_buf_t chelsea = {0}, exif6 = {0};
	for (size_t i = 0; i < sizeof srcs / sizeof srcs[0]; i++) {
		tl_dmg_buf_t b = tl_dmg_read(g, srcs[i].file);
		if (!b.n)
			continue;
		for (int bits = 1; bits <= 16; bits *= 4)
			tl_dmg_flips(g, &b, srcs[i].base, bits, (uint32_t)(i * 7919 + (size_t)bits));
		tl_dmg_truncations(g, &b, srcs[i].base);
		if (i == 0)
			chelsea = b;
		else if (i == 4)
			exif6 = b;
		else
			free(b.p);
	}
	if (chelsea.n && exif6.n) {
		tl_dmg_jpeg_markers(g, &chelsea);
		tl_dmg_jpeg_codings(g, &chelsea, &exif6);
	}
	free(chelsea.p);
	free(exif6.p);
}

/* ---- PNG ----------------------------------------------------------------------------------- */

static uint32_t tl_dmg_crc(const uint8_t *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
	}
	return c ^ 0xFFFFFFFFu;
}

static void tl_dmg_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* Appends a chunk; `bad_crc` stores a wrong CRC. */
static void tl_dmg_chunk(tl_dmg_buf_t *b, const char *type, const void *data, size_t n,
                         bool bad_crc)
{
	uint8_t head[8];
	tl_dmg_be32(head, (uint32_t)n);
	memcpy(head + 4, type, 4);
	tl_dmg_put(b, head, 8);
	tl_dmg_put(b, data, n);
	uint32_t crc = tl_dmg_crc(b->p + b->n - n - 4, n + 4) ^ (bad_crc ? 1u : 0u);
	uint8_t tail[4];
	tl_dmg_be32(tail, crc);
	tl_dmg_put(b, tail, 4);
}

static void tl_dmg_png_write_fn(png_structp png, png_bytep d, png_size_t n)
{
	tl_dmg_put(png_get_io_ptr(png), d, n);
}

static void tl_dmg_png_flush(png_structp png)
{
	(void)png;
}

typedef struct tl_dmg_png_opts {
	int color, depth;
	bool interlace, trns;
} tl_dmg_png_opts_t;

/* Encodes pixels from the RGB photo in the given colour type and depth (libpng, no ancillary
 * chunks). */
static int tl_dmg_png_encode(const uint8_t *rgb, int w, int h, tl_dmg_png_opts_t o,
                             tl_dmg_buf_t *out)
{
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	int ch = o.color == PNG_COLOR_TYPE_RGB ? 3 : o.color == PNG_COLOR_TYPE_RGBA ? 4
		 : o.color == PNG_COLOR_TYPE_GRAY_ALPHA ? 2 : 1;
	int bps = o.depth == 16 ? 2 : 1;
	uint8_t *row = malloc((size_t)w * ch * 2);
	if (!info || !row || setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		free(row);
		return -1;
	}
	png_set_write_fn(png, out, tl_dmg_png_write_fn, tl_dmg_png_flush);
	png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, o.depth, o.color,
		     o.interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
		     PNG_FILTER_TYPE_DEFAULT);
	if (o.color == PNG_COLOR_TYPE_PALETTE) {
		png_color pal[256];
		png_byte alpha[256];
		for (int i = 0; i < 256; i++) {
			pal[i] = (png_color){(png_byte)i, (png_byte)(255 - i), (png_byte)(i / 2)};
			alpha[i] = (png_byte)(i * 2);
		}
		png_set_PLTE(png, info, pal, 256);
		if (o.trns)
			png_set_tRNS(png, info, alpha, 256, NULL);
	}
	png_write_info(png, info);
	int passes = o.interlace ? png_set_interlace_handling(png) : 1;
	for (int pass = 0; pass < passes; pass++)
		for (int y = 0; y < h; y++) {
			for (int x = 0; x < w; x++) {
				const uint8_t *p = rgb + ((size_t)y * w + x) * 3;
				uint8_t v[4] = {p[0], p[1], p[2], (uint8_t)(x + y)};
				if (ch <= 2)
					v[0] = p[1], v[1] = p[0]; /* gray from green, alpha from red */
				int levels = o.depth < 8 ? (1 << o.depth) - 1 : 255;
				for (int c = 0; c < ch; c++) {
					int val = v[c] * levels / 255;
					if (bps == 2) { /* 16 bits: the low byte varies along the row */
						row[(x * ch + c) * 2] = v[c];
						row[(x * ch + c) * 2 + 1] = (uint8_t)(x * 7 + c);
					} else if (o.depth < 8) {
						row[x] = (uint8_t)val; /* packed below */
					} else {
						row[x * ch + c] = (uint8_t)val;
					}
				}
			}
			if (o.depth < 8) { /* pack gray samples MSB first */
				int per = 8 / o.depth;
				for (int x = 0; x < w; x += per) {
					uint8_t byte = 0;
					for (int k = 0; k < per; k++)
						byte = (uint8_t)(byte << o.depth |
								 (x + k < w ? row[x + k] : 0));
					row[x / per] = byte;
				}
			}
			png_write_row(png, row);
		}
	png_write_end(png, info);
	png_destroy_write_struct(&png, &info);
	free(row);
	return 0;
}

/* The chunks of a PNG file: offsets of the chunk starting with `type`, or 0. */
static size_t tl_dmg_png_find(const tl_dmg_buf_t *b, const char *type)
{
	size_t i = 8;
	while (i + 12 <= b->n) {
		size_t len = (size_t)b->p[i] << 24 | (size_t)b->p[i + 1] << 16 |
			     (size_t)b->p[i + 2] << 8 | b->p[i + 3];
		if (!memcmp(b->p + i + 4, type, 4))
			return i;
		i += 12 + len;
	}
	return 0;
}

/* `src` with a chunk inserted before the chunk of type `before`. */
static void tl_dmg_png_insert(tl_dmg_t *g, const tl_dmg_buf_t *src, const char *name,
                              const char *before, const char *type, const void *data,
                              size_t n, bool bad_crc)
{
	size_t at = tl_dmg_png_find(src, before);
	tl_dmg_buf_t b = {0};
	tl_dmg_put(&b, src->p, at);
	tl_dmg_chunk(&b, type, data, n, bad_crc);
	tl_dmg_put(&b, src->p + at, src->n - at);
	tl_dmg_write(g, name, b.p, b.n);
	free(b.p);
}

/* `src` with byte `off` of the chunk `type` (counted from its data) xor-ed with `x`. */
static void tl_dmg_png_poke(tl_dmg_t *g, const tl_dmg_buf_t *src, const char *name,
                            const char *type, long off, uint8_t x)
{
	size_t at = tl_dmg_png_find(src, type);
	uint8_t *d = malloc(src->n);
	memcpy(d, src->p, src->n);
	d[(long)at + 8 + off] ^= x;
	tl_dmg_write(g, name, d, src->n);
	free(d);
}

/* A big-endian TIFF block whose IFD0 holds Orientation = 6 (an eXIf chunk's payload). */
static const uint8_t tl_dmg_exif6[] = {'M', 'M', 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3,
                                       0,   0,   0, 1,  0, 6, 0, 0, 0, 0, 0,    0};

static void tl_dmg_png_damage(tl_dmg_t *g, const tl_dmg_buf_t *p)
{
	static const uint8_t gama[4] = {0, 0, 0xB1, 0x8F}; /* 1/2.2 */
	tl_dmg_png_insert(g, p, "png_gama.png", "IDAT", "gAMA", gama, 4, false);
	tl_dmg_png_insert(g, p, "png_srgb.png", "IDAT", "sRGB", "\0", 1, false);
	tl_dmg_png_insert(g, p, "png_bad_srgb.png", "IDAT", "sRGB", "\x09", 1, false);
	tl_dmg_png_insert(g, p, "png_text_bad_crc.png", "IDAT", "tEXt", "Comment\0hi", 10, true);
	tl_dmg_png_insert(g, p, "png_unknown_ancillary.png", "IDAT", "abCd", "xyz", 3, false);
	tl_dmg_png_insert(g, p, "png_unknown_critical.png", "IDAT", "ABCD", "xyz", 3, false);
	tl_dmg_png_insert(g, p, "png_critical_after_idat.png", "IEND", "ABCD", "xyz", 3, false);
	tl_dmg_png_insert(g, p, "png_text_bad_crc_after_idat.png", "IEND", "tEXt", "C\0x", 3,
	                  true);
	tl_dmg_png_insert(g, p, "png_exif6.png", "IDAT", "eXIf", tl_dmg_exif6, sizeof tl_dmg_exif6, false);
	tl_dmg_png_insert(g, p, "png_exif6_after_idat.png", "IEND", "eXIf", tl_dmg_exif6, sizeof tl_dmg_exif6,
	                  false);
	tl_dmg_png_poke(g, p, "png_ihdr_bad_crc.png", "IHDR", 13, 1);
	tl_dmg_png_poke(g, p, "png_idat_bad_crc.png", "IEND", -4, 1);
	size_t idat = tl_dmg_png_find(p, "IDAT");
	size_t idat_len = (size_t)p->p[idat] << 24 | (size_t)p->p[idat + 1] << 16 |
			  (size_t)p->p[idat + 2] << 8 | p->p[idat + 3];
	/* zlib data damaged: the CRC made right again, so only inflate sees it */
	tl_dmg_buf_t b = {0};
	tl_dmg_put(&b, p->p, idat);
	tl_dmg_buf_t z = {0};
	tl_dmg_put(&z, p->p + idat + 8, idat_len);
	z.p[idat_len / 2] ^= 0x40;
	tl_dmg_chunk(&b, "IDAT", z.p, z.n, false);
	tl_dmg_put(&b, p->p + idat + 12 + idat_len, p->n - idat - 12 - idat_len);
	tl_dmg_write(g, "png_zlib_flip.png", b.p, b.n);
	b.n = 0;
	z.p[idat_len / 2] ^= 0x40;
	z.p[idat_len - 1] ^= 1; /* the Adler-32 of the zlib stream */
	tl_dmg_put(&b, p->p, idat);
	tl_dmg_chunk(&b, "IDAT", z.p, z.n, false);
	tl_dmg_put(&b, p->p + idat + 12 + idat_len, p->n - idat - 12 - idat_len);
	tl_dmg_write(g, "png_zlib_adler.png", b.p, b.n);
	free(z.p);
	free(b.p);
	tl_dmg_write(g, "png_trunc10.png", p->p, p->n / 10);
	tl_dmg_write(g, "png_trunc50.png", p->p, p->n / 2);
	tl_dmg_write(g, "png_trunc99.png", p->p, p->n - 40);
	tl_dmg_write(g, "png_no_iend.png", p->p, p->n - 12);
	b = (tl_dmg_buf_t){0};
	tl_dmg_put(&b, p->p, p->n);
	tl_dmg_put(&b, "garbage", 7);
	tl_dmg_write(g, "png_trailing.png", b.p, b.n);
	free(b.p);
}

static void tl_dmg_pngs(tl_dmg_t *g)
{
	tl_dmg_buf_t src = tl_dmg_read(g, "cat/chelsea.jpg");
	int w, h;
	uint8_t *rgb = src.n ? tl_dmg_decode_rgb(&src, &w, &h) : NULL;
	free(src.p);
	if (!rgb) {
		g->failed = 1;
		return;
	}
	static const struct {
		const char *name;
		tl_dmg_png_opts_t o;
	} kinds[] = {
	    {"png_rgb.png", {PNG_COLOR_TYPE_RGB, 8, false, false}},
	    {"png_rgba.png", {PNG_COLOR_TYPE_RGBA, 8, false, false}},
	    {"png_gray.png", {PNG_COLOR_TYPE_GRAY, 8, false, false}},
	    {"png_gray2.png", {PNG_COLOR_TYPE_GRAY, 2, false, false}},
	    {"png_gray_alpha.png", {PNG_COLOR_TYPE_GRAY_ALPHA, 8, false, false}},
	    {"png_palette.png", {PNG_COLOR_TYPE_PALETTE, 8, false, false}},
	    {"png_palette_trns.png", {PNG_COLOR_TYPE_PALETTE, 8, false, true}},
	    {"png_rgb16.png", {PNG_COLOR_TYPE_RGB, 16, false, false}},
	    {"png_rgba16.png", {PNG_COLOR_TYPE_RGBA, 16, false, false}},
	    {"png_gray16.png", {PNG_COLOR_TYPE_GRAY, 16, false, false}},
	    {"png_interlaced.png", {PNG_COLOR_TYPE_RGB, 8, true, false}},
	};
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		tl_dmg_buf_t b = {0};
		if (tl_dmg_png_encode(rgb, w, h, kinds[k].o, &b)) {
			g->failed = 1;
			continue;
		}
		tl_dmg_write(g, kinds[k].name, b.p, b.n);
		if (k == 0)
			tl_dmg_png_damage(g, &b);
		if (k == 1) { /* RGBA with an EXIF orientation: OpenCV ignores it for 4 channels */
			tl_dmg_png_insert(g, &b, "png_rgba_exif6.png", "IDAT", "eXIf", tl_dmg_exif6,
			                  sizeof tl_dmg_exif6, false);
		}
		free(b.p);
	}
	free(rgb);
}

int tl_damage_write_set(const char *samples, const char *dir)
{
	tl_dmg_t g = {samples, dir, 0, 0};
	tl_dmg_jpegs(&g);
	tl_dmg_pngs(&g);
	return g.failed ? -1 : g.count;
}

int tl_damage_pick(const char *set, const char *dir, int n, const char *const *names)
{
	for (int i = 0; i < n; i++) {
		const char *slash = strchr(names[i], '/'), *base = slash ? slash + 1 : names[i];
		char path[1024];
		if (slash) {
			snprintf(path, sizeof path, "%s/%.*s", dir, (int)(slash - names[i]), names[i]);
			mkdir(path, 0755); /* fails harmlessly when it exists */
		}
		tl_dmg_t g = {.samples = set, .dir = dir};
		tl_dmg_buf_t b = tl_dmg_read(&g, base);
		if (g.failed)
			return -1;
		tl_dmg_write(&g, names[i], b.p, b.n);
		free(b.p);
		if (g.failed)
			return -1;
	}
	return 0;
}
