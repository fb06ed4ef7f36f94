/*
 * The in-memory cell grid (screen.h): clipping canvases, UTF-8 text, frames, and the text
 * dump the headless tests read. Nothing here knows about curses.
 */
#include "tui/screen.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const tui_cell_t blank = {' ', {-1, -1, 0}};

bool dalic_tui_screen_resize(tui_screen_t *s, int w, int h)
{
	if (w < 1)
		w = 1;
	if (h < 1)
		h = 1;
	tui_cell_t *cells = malloc(sizeof *cells * (size_t)w * (size_t)h);
	if (!cells)
		return false;
	free(s->cells);
	s->cells = cells;
	s->w = w;
	s->h = h;
	dalic_tui_screen_clear(s);
	return true;
}

void dalic_tui_screen_free(tui_screen_t *s)
{
	free(s->cells);
	s->cells = NULL;
	s->w = s->h = 0;
}

void dalic_tui_screen_clear(tui_screen_t *s)
{
	for (int i = 0; i < s->w * s->h; i++)
		s->cells[i] = blank;
}

tui_canvas_t dalic_tui_screen_canvas(tui_screen_t *s)
{
	return (tui_canvas_t){s, {0, 0, s->w, s->h}};
}

tui_canvas_t dalic_tui_canvas_sub(tui_canvas_t c, tui_rect_t r)
{
	int x0 = c.r.x + (r.x > 0 ? r.x : 0), y0 = c.r.y + (r.y > 0 ? r.y : 0);
	int x1 = c.r.x + r.x + r.w, y1 = c.r.y + r.y + r.h;
	if (x1 > c.r.x + c.r.w)
		x1 = c.r.x + c.r.w;
	if (y1 > c.r.y + c.r.h)
		y1 = c.r.y + c.r.h;
	tui_canvas_t out = {c.s, {x0, y0, x1 - x0, y1 - y0}};
	if (out.r.w < 0)
		out.r.w = 0;
	if (out.r.h < 0)
		out.r.h = 0;
	return out;
}

tui_cell_t *dalic_tui_cell_at(tui_canvas_t c, int x, int y)
{
	if (x < 0 || y < 0 || x >= c.r.w || y >= c.r.h)
		return NULL;
	return &c.s->cells[(c.r.y + y) * c.s->w + c.r.x + x];
}

/* Code points a terminal draws one column wide and that are safe to put in a cell. */
static uint32_t printable(uint32_t cp)
{
	if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
		return '?';
	if (cp < 0x1100 || (cp >= 0x2000 && cp < 0x2e80) || (cp >= 0x1fb00 && cp < 0x1fc00))
		return cp;
	return '?';
}

void dalic_tui_put(tui_canvas_t c, int x, int y, uint32_t ch, tui_style_t st)
{
	tui_cell_t *cell = dalic_tui_cell_at(c, x, y);
	if (cell)
		*cell = (tui_cell_t){printable(ch), st};
}

int dalic_tui_utf8_decode(const char *str, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	int n;
	uint32_t v;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	} else if ((s[0] & 0xe0) == 0xc0) {
		n = 2;
		v = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		v = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4;
		v = s[0] & 0x07;
	} else {
		*cp = 0xfffd;
		return 1;
	}
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*cp = 0xfffd;
			return i;
		}
		v = v << 6 | (s[i] & 0x3f);
	}
	*cp = v;
	return n;
}

int dalic_tui_utf8_encode(uint32_t cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

int dalic_tui_text_width(const char *s)
{
	int n = 0;
	uint32_t cp;
	while (*s) {
		s += dalic_tui_utf8_decode(s, &cp);
		n++;
	}
	return n;
}

int dalic_tui_print(tui_canvas_t c, int x, int y, tui_style_t st, const char *s, int max)
{
	int used = 0;
	uint32_t cp;
	while (*s && (max < 0 || used < max) && x + used < c.r.w) {
		s += dalic_tui_utf8_decode(s, &cp);
		dalic_tui_put(c, x + used, y, cp, st);
		used++;
	}
	return used;
}

int dalic_tui_printf(tui_canvas_t c, int x, int y, tui_style_t st, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return dalic_tui_print(c, x, y, st, buf, -1);
}

int dalic_tui_wrap(tui_canvas_t c, int x, int y, int y_end, tui_style_t st, const char *s)
{
	int w = c.r.w - x;
	if (w <= 0)
		return y;
	bool soft = false; /* this row continues a wrapped line: drop its leading blanks */
	while (*s && y < y_end) {
		if (*s == '\n') {
			s++;
			soft = false;
			continue;
		}
		while (soft && *s == ' ')
			s++;
		/* take words while they fit; a word longer than the row is cut */
		const char *p = s, *brk = NULL;
		int cols = 0;
		uint32_t cp;
		while (*p && *p != '\n' && cols < w) {
			if (*p == ' ')
				brk = p;
			p += dalic_tui_utf8_decode(p, &cp);
			cols++;
		}
		if (*p && *p != ' ' && *p != '\n' && brk)
			p = brk;
		int n = 0;
		for (const char *q = s; q < p; n++)
			q += dalic_tui_utf8_decode(q, &cp);
		dalic_tui_print(c, x, y++, st, s, n);
		s = p;
		soft = *s != '\n';
	}
	return y;
}

void dalic_tui_fill(tui_canvas_t c, tui_rect_t r, uint32_t ch, tui_style_t st)
{
	for (int y = r.y; y < r.y + r.h; y++)
		for (int x = r.x; x < r.x + r.w; x++)
			dalic_tui_put(c, x, y, ch, st);
}

void dalic_tui_restyle(tui_canvas_t c, tui_rect_t r, tui_style_t st)
{
	for (int y = r.y; y < r.y + r.h; y++)
		for (int x = r.x; x < r.x + r.w; x++) {
			tui_cell_t *cell = dalic_tui_cell_at(c, x, y);
			if (cell)
				cell->st = st;
		}
}

void dalic_tui_frame(tui_canvas_t c, const char *title, tui_style_t st, bool heavy)
{
	/* corners tl tr bl br, horizontal, vertical */
	static const uint32_t light[] = {0x250c, 0x2510, 0x2514, 0x2518, 0x2500, 0x2502};
	static const uint32_t bold[] = {0x250f, 0x2513, 0x2517, 0x251b, 0x2501, 0x2503};
	const uint32_t *g = heavy ? bold : light;
	int w = c.r.w, h = c.r.h;
	if (w < 2 || h < 2)
		return;
	for (int x = 1; x < w - 1; x++) {
		dalic_tui_put(c, x, 0, g[4], st);
		dalic_tui_put(c, x, h - 1, g[4], st);
	}
	for (int y = 1; y < h - 1; y++) {
		dalic_tui_put(c, 0, y, g[5], st);
		dalic_tui_put(c, w - 1, y, g[5], st);
	}
	dalic_tui_put(c, 0, 0, g[0], st);
	dalic_tui_put(c, w - 1, 0, g[1], st);
	dalic_tui_put(c, 0, h - 1, g[2], st);
	dalic_tui_put(c, w - 1, h - 1, g[3], st);
	if (title && w > 6) {
		tui_style_t t = st;
		t.attr |= TUI_BOLD;
		dalic_tui_put(c, 1, 0, ' ', st);
		int n = dalic_tui_print(c, 2, 0, t, title, w - 5);
		dalic_tui_put(c, 2 + n, 0, ' ', st);
	}
}

tui_canvas_t dalic_tui_frame_inner(tui_canvas_t c)
{
	return dalic_tui_canvas_sub(c, (tui_rect_t){1, 1, c.r.w - 2, c.r.h - 2});
}

int dalic_tui_screen_dump(const tui_screen_t *s, FILE *f)
{
	for (int y = 0; y < s->h; y++) {
		const tui_cell_t *row = &s->cells[y * s->w];
		int end = s->w;
		while (end > 0 && row[end - 1].ch == ' ')
			end--;
		for (int x = 0; x < end; x++) {
			char b[4];
			fwrite(b, 1, (size_t)dalic_tui_utf8_encode(row[x].ch, b), f);
		}
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}
