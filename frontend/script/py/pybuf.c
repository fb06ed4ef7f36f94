/* The script front end's growable text buffer (see pybuf.h). */
#include "frontend/script/py/pybuf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for `extra` more bytes and the NUL; false (and oom set) when that cannot be had. */
static bool pybuf_reserve(pybuf_t *b, size_t extra)
{
	if (b->oom)
		return false;
	if (extra > SIZE_MAX / 2 - b->n) {
		b->oom = true;
		return false;
	}
	size_t need = b->n + extra + 1;
	if (need <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap * 2 : 64;
	while (cap < need)
		cap *= 2;
	char *ns = realloc(b->s, cap);
	if (!ns) {
		b->oom = true;
		return false;
	}
	b->s = ns;
	b->cap = cap;
	return true;
}

void dalic_pybuf_put(pybuf_t *b, const char *s, size_t n)
{
	if (!pybuf_reserve(b, n))
		return;
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
}

void dalic_pybuf_puts(pybuf_t *b, const char *s)
{
	dalic_pybuf_put(b, s, strlen(s));
}

void dalic_pybuf_fill(pybuf_t *b, char c, size_t n)
{
	if (!pybuf_reserve(b, n))
		return;
	memset(b->s + b->n, c, n);
	b->n += n;
	b->s[b->n] = 0;
}

void dalic_pybuf_printf(pybuf_t *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !pybuf_reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->n += (size_t)n;
}

void dalic_pybuf_free(pybuf_t *b)
{
	free(b->s);
	memset(b, 0, sizeof *b);
}

/* UTF-8 encoding of code point cp into out (at most 4 bytes); returns the length. */
int dalic_pybuf_utf8_encode(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

size_t dalic_pybuf_utf8_chars(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xC0) != 0x80;
	return c;
}

size_t dalic_pybuf_utf8_prefix(const char *s, size_t n, int64_t chars)
{
	size_t i = 0;
	for (int64_t c = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80 && c++ == chars)
			break;
	return i;
}
