/*
 * chafa-backed thumbnails (thumbs.h). A cache entry holds the cells chafa chose; it is keyed
 * by (batch view id, sample, size) and the whole cache is dropped when a new batch view
 * arrives, so it never holds more than one batch's thumbnails.
 */
#include "tui/thumbs.h"

#include <chafa.h>
#include <stdlib.h>
#include <string.h>

#define CACHE_MAX 64

typedef struct entry {
	int sample, w, h;
	tui_cell_t *cells;
} entry_t;

struct tui_thumb_cache {
	int colors;
	uint64_t view;
	entry_t entries[CACHE_MAX];
	int count, next;
	ChafaSymbolMap *symbols;
};

tui_thumb_cache_t *dalic_tui_thumbs_new(int colors)
{
	tui_thumb_cache_t *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->colors = colors;
	/* chafa's worker pool would compete with the pipeline's threads for tiny canvases */
	chafa_set_n_threads(1);
	c->symbols = chafa_symbol_map_new();
	/* block elements in both modes: without colour they still draw recognisable shapes
	 * (chafa's ASCII set reads as noise at thumbnail sizes) and are the same on every run */
	chafa_symbol_map_add_by_tags(c->symbols, CHAFA_SYMBOL_TAG_BLOCK | CHAFA_SYMBOL_TAG_SPACE);
	return c;
}

static void thumbs_clear(tui_thumb_cache_t *c)
{
	for (int i = 0; i < c->count; i++)
		free(c->entries[i].cells);
	c->count = c->next = 0;
}

void dalic_tui_thumbs_free(tui_thumb_cache_t *c)
{
	if (!c)
		return;
	thumbs_clear(c);
	chafa_symbol_map_unref(c->symbols);
	free(c);
}

static ChafaCanvasMode thumbs_mode_for(int colors)
{
	if (colors >= 256)
		return CHAFA_CANVAS_MODE_INDEXED_256;
	if (colors >= 16)
		return CHAFA_CANVAS_MODE_INDEXED_16;
	if (colors >= 8)
		return CHAFA_CANVAS_MODE_INDEXED_8;
	return CHAFA_CANVAS_MODE_FGBG;
}

static tui_cell_t *thumbs_render(tui_thumb_cache_t *c, const tui_sample_view_t *s, int w, int h)
{
	tui_cell_t *cells = malloc(sizeof *cells * (size_t)w * (size_t)h);
	if (!cells)
		return NULL;
	ChafaCanvasConfig *cfg = chafa_canvas_config_new();
	chafa_canvas_config_set_geometry(cfg, w, h);
	chafa_canvas_config_set_canvas_mode(cfg, thumbs_mode_for(c->colors));
	chafa_canvas_config_set_symbol_map(cfg, c->symbols);
	ChafaCanvas *cv = chafa_canvas_new(cfg);
	chafa_canvas_draw_all_pixels(cv, CHAFA_PIXEL_RGB8, s->thumb, s->thumb_w, s->thumb_h,
	                             s->thumb_w * 3);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			gint fg = -1, bg = -1;
			tui_cell_t *cell = &cells[y * w + x];
			cell->ch = chafa_canvas_get_char_at(cv, x, y);
			if (c->colors)
				chafa_canvas_get_raw_colors_at(cv, x, y, &fg, &bg);
			cell->st = (tui_style_t){(int16_t)(fg >= 0 && fg < 256 ? fg : -1),
			                         (int16_t)(bg >= 0 && bg < 256 ? bg : -1), 0};
		}
	chafa_canvas_unref(cv);
	chafa_canvas_config_unref(cfg);
	return cells;
}

int dalic_tui_thumbs_draw(tui_thumb_cache_t *c, tui_canvas_t cv, int x, int y, int w, int h,
                          const tui_batch_view_t *v, int k)
{
	const tui_sample_view_t *s = &v->samples[k];
	if (!s->thumb || w < 1 || h < 1)
		return 0;
	/* cells are ~1:2, so an image of aspect a needs 2a columns per row */
	double aspect = (double)s->thumb_w / s->thumb_h;
	int tw = (int)(h * 2 * aspect + 0.5), th = h;
	if (tw > w) {
		tw = w;
		th = (int)(w / (2 * aspect) + 0.5);
	}
	if (tw < 1)
		tw = 1;
	if (th < 1)
		th = 1;
	if (c->view != v->id) {
		thumbs_clear(c);
		c->view = v->id;
	}
	entry_t *e = NULL;
	for (int i = 0; i < c->count && !e; i++)
		if (c->entries[i].sample == s->index && c->entries[i].w == tw &&
		    c->entries[i].h == th)
			e = &c->entries[i];
	if (!e) {
		tui_cell_t *cells = thumbs_render(c, s, tw, th);
		if (!cells)
			return 0;
		e = &c->entries[c->next];
		if (c->count == CACHE_MAX)
			free(e->cells);
		else
			c->count++;
		c->next = (c->next + 1) % CACHE_MAX;
		*e = (entry_t){s->index, tw, th, cells};
	}
	int ox = x + (w - tw) / 2;
	for (int yy = 0; yy < th; yy++)
		for (int xx = 0; xx < tw; xx++) {
			const tui_cell_t *cell = &e->cells[yy * tw + xx];
			dalic_tui_put(cv, ox + xx, y + yy, cell->ch, cell->st);
		}
	return th;
}
