/*
 * The screen abstraction every widget draws to: a grid of cells, each one code point with a
 * foreground, a background and attributes. Widgets never call curses; the terminal backend
 * (term.c) copies a finished grid to ncurses, and the headless driver (headless.c) writes the
 * same grid as UTF-8 text — so what a test reads is exactly what a person would see, minus
 * colour (htop's CRT and tig's test mode split the same way).
 *
 * Every cell holds one character one column wide: code points the terminal would draw wider
 * (CJK, emoji) are replaced by '?', so column arithmetic is plain counting. Drawing goes
 * through a canvas: the grid plus a clip rectangle and an origin, so a pane draws in its own
 * coordinates and cannot scribble outside its rectangle.
 */
#ifndef DALIC_TUI_SCREEN_H
#define DALIC_TUI_SCREEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum {
	TUI_BOLD = 1,
	TUI_REVERSE = 2,
	TUI_UNDERLINE = 4,
	TUI_DIM = 8,
};

/* Colours are terminal palette indices (0-255), -1 the terminal's default. */
typedef struct dalic_tui_style {
	int16_t fg, bg;
	uint8_t attr;
} tui_style_t;

typedef struct tui_cell {
	uint32_t ch;
	tui_style_t st;
} tui_cell_t;

typedef struct tui_screen {
	int w, h;
	tui_cell_t *cells; /* h rows of w cells */
} tui_screen_t;

typedef struct tui_rect {
	int x, y, w, h;
} tui_rect_t;

/* A window onto a screen: draws at (x, y) land on screen (r.x + x, r.y + y), clipped to r. */
typedef struct tui_canvas {
	tui_screen_t *s;
	tui_rect_t r;
} tui_canvas_t;

/* (Re)sizes the grid and clears it. Returns false when out of memory (grid unchanged). */
bool dalic_tui_screen_resize(tui_screen_t *s, int w, int h);
void dalic_tui_screen_free(tui_screen_t *s);
void dalic_tui_screen_clear(tui_screen_t *s);
/* The whole screen as a canvas. */
tui_canvas_t dalic_tui_screen_canvas(tui_screen_t *s);
/* A sub-canvas at local rectangle r of c, clipped to c. */
tui_canvas_t dalic_tui_canvas_sub(tui_canvas_t c, tui_rect_t r);

/* One cell; off-canvas draws are dropped. */
void dalic_tui_put(tui_canvas_t c, int x, int y, uint32_t ch, tui_style_t st);
/* The cell at local (x, y), or NULL off-canvas. */
tui_cell_t *dalic_tui_cell_at(tui_canvas_t c, int x, int y);
/* UTF-8 text from (x, y), at most max columns (-1: to the edge). Returns columns used. */
int dalic_tui_print(tui_canvas_t c, int x, int y, tui_style_t st, const char *utf8, int max);
int dalic_tui_printf(tui_canvas_t c, int x, int y, tui_style_t st, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Text word-wrapped into columns [x, width) of rows [y, y_end); returns the next free row. */
int dalic_tui_wrap(tui_canvas_t c, int x, int y, int y_end, tui_style_t st, const char *utf8);
/* Fills the whole canvas (or a local rectangle) with ch. */
void dalic_tui_fill(tui_canvas_t c, tui_rect_t r, uint32_t ch, tui_style_t st);
/* Restyles a local rectangle, keeping the characters. */
void dalic_tui_restyle(tui_canvas_t c, tui_rect_t r, tui_style_t st);
/* A box along the canvas edge with a title in the top border; heavy lines when focused. */
void dalic_tui_frame(tui_canvas_t c, const char *title, tui_style_t st, bool heavy);
/* The canvas inside a frame. */
tui_canvas_t dalic_tui_frame_inner(tui_canvas_t c);

/* Columns the UTF-8 string takes (each code point one column). */
int dalic_tui_text_width(const char *utf8);
/* Decodes one code point; returns bytes consumed (>= 1), bad sequences give U+FFFD. */
int dalic_tui_utf8_decode(const char *s, uint32_t *cp);
/* Encodes cp into out (4 bytes room); returns bytes. */
int dalic_tui_utf8_encode(uint32_t cp, char *out);

/* Writes the grid as UTF-8 text, one line per row, trailing blanks trimmed. */
int dalic_tui_screen_dump(const tui_screen_t *s, FILE *f);

#endif
