/*
 * Image thumbnails in character cells, drawn with libchafa. With colour (8, 16 or 256
 * palette entries) each cell gets a block symbol plus a foreground and background colour;
 * without colour — monochrome terminals and headless dumps — chafa's foreground/background
 * mode shapes the picture with the same block symbols (deterministic for the same pixels). Rendered
 * thumbnails are cached per batch view, sample and size, so a still picture costs nothing per
 * frame.
 */
#ifndef DALIC_TUI_THUMBS_H
#define DALIC_TUI_THUMBS_H

#include "tui/model.h"
#include "tui/screen.h"

typedef struct tui_thumb_cache tui_thumb_cache_t;

/* colors: 0 (no colour), 8, 16 or 256. New: dalic_tui_thumbs_free. */
tui_thumb_cache_t *dalic_tui_thumbs_new(int colors);
void dalic_tui_thumbs_free(tui_thumb_cache_t *c);
/* Draws sample k of v (which must have a thumbnail) into at most w x h cells at (x, y),
 * keeping its aspect ratio (a cell is about twice as tall as wide), centred horizontally.
 * Returns the rows used. */
int dalic_tui_thumbs_draw(tui_thumb_cache_t *c, tui_canvas_t cv, int x, int y, int w, int h,
                          const tui_batch_view_t *v, int k);

#endif
