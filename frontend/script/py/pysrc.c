/*
 * Located error messages for pipeline scripts (see pysrc.h). The message is built in
 * a local buffer and handed to dalic_fail, so it travels like every other dalic error.
 */
#include "frontend/script/py/pysrc.h"

#include "frontend/script/py/pybuf.h"

#include "engine/error.h"

#include <stdio.h>
#include <string.h>

int dalic_pysrc_column(const char *text, size_t line_start, size_t offset)
{
	int col = 1;
	for (size_t i = line_start; i < offset; i++)
		if (((unsigned char)text[i] & 0xC0) != 0x80)
			col++;
	return col;
}

/* Source lines longer than this many characters are shown as a window around the column. */
#define PYSRC_MAX_SHOWN 160
#define PYSRC_CONTEXT 60

/* Start of the character `chars` characters before (dir < 0) or after p, within [lo, hi). */
static const char *pysrc_step(const char *p, const char *lo, const char *hi, int chars, int dir)
{
	for (int c = 0; c < chars;) {
		if (dir < 0 ? p <= lo : p >= hi)
			break;
		p += dir;
		while (p > lo && p < hi && ((unsigned char)*p & 0xC0) == 0x80)
			p += dir;
		c++;
	}
	return p;
}

/* Appends the source line `line` and a caret under character column `col` to buf; a long
 * line shows the part around the column between "..." marks, so the caret stays visible. */
static void pysrc_append_source_line(char *buf, size_t cap, const pysrc_t *src, int line, int col)
{
	const char *p = src->text, *end = src->text + src->len;
	for (int l = 1; l < line && p < end; p++)
		if (*p == '\n')
			l++;
	if (p >= end && line > 1)
		return;
	const char *e = p;
	while (e < end && *e != '\n' && *e != '\r')
		e++;
	const char *from = p, *to = e;
	bool cut_left = false, cut_right = false;
	if (dalic_pybuf_utf8_chars(p, (size_t)(e - p)) > PYSRC_MAX_SHOWN) {
		const char *at = pysrc_step(p, p, e, col - 1, 1);
		from = pysrc_step(at, p, e, PYSRC_CONTEXT, -1);
		to = pysrc_step(at, p, e, PYSRC_CONTEXT, 1);
		cut_left = from > p;
		cut_right = to < e;
		col =
		    (int)dalic_pybuf_utf8_chars(from, (size_t)(at - from)) + 1 + (cut_left ? 3 : 0);
	}
	size_t n = strlen(buf);
	if (n + 2 >= cap)
		return;
	int w = snprintf(buf + n, cap - n, "\n%s%.*s%s\n", cut_left ? "..." : "", (int)(to - from),
	                 from, cut_right ? "..." : "");
	if (w < 0 || (size_t)w >= cap - n)
		return;
	n += (size_t)w;
	/* the caret line copies tabs so the caret lands under the same character */
	int c = 1;
	for (; cut_left && c <= 3 && n + 2 < cap; c++)
		buf[n++] = ' ';
	for (const char *q = from; q < to && c < col && n + 2 < cap; q++) {
		if (((unsigned char)*q & 0xC0) == 0x80)
			continue;
		buf[n++] = *q == '\t' ? '\t' : ' ';
		c++;
	}
	for (; c < col && n + 2 < cap; c++)
		buf[n++] = ' ';
	if (n + 1 < cap)
		buf[n++] = '^';
	buf[n] = 0;
}

int dalic_pysrc_verror(const pysrc_t *src, int line, int col, int code, const char *fmt, va_list ap)
{
	char buf[DALIC_ERRMSG_MAX];
	int n = snprintf(buf, sizeof buf, "%s:%d:%d: ", src->path, line, col);
	if (n < 0 || (size_t)n >= sizeof buf)
		n = 0;
	vsnprintf(buf + n, sizeof buf - (size_t)n, fmt, ap);
	pysrc_append_source_line(buf, sizeof buf, src, line, col);
	return dalic_fail(code, "%s", buf);
}

int dalic_pysrc_error(const pysrc_t *src, int line, int col, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = dalic_pysrc_verror(src, line, col, code, fmt, ap);
	va_end(ap);
	return rc;
}

int dalic_pysrc_relocate(const pysrc_t *src, int line, int col, int code)
{
	char msg[DALIC_ERRMSG_MAX];
	snprintf(msg, sizeof msg, "%s", dalic_last_error());
	return dalic_pysrc_error(src, line, col, code, "%s", msg);
}
