/*
 * Located error messages for pipeline scripts (see pysrc.h). The message is built in
 * a local buffer and handed to dalic_fail, so it travels like every other dalic error.
 */
#include "frontend/script/py/pysrc.h"

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

/* Appends the source line `line` and a caret under character column `col` to buf. */
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
	size_t n = strlen(buf);
	if (n + 2 >= cap)
		return;
	int w = snprintf(buf + n, cap - n, "\n%.*s\n", (int)(e - p), p);
	if (w < 0 || (size_t)w >= cap - n)
		return;
	n += (size_t)w;
	/* the caret line copies tabs so the caret lands under the same character */
	int c = 1;
	for (const char *q = p; q < e && c < col && n + 2 < cap; q++) {
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
