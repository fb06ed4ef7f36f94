/*
 * BATCH pane: the samples of the selected operator's output for the current iteration —
 * thumbnails drawn by chafa for images, numpy-style values otherwise — with the selected
 * sample's shape, min/max/mean and source file underneath; a sample with a data-quality
 * warning (issue 20: a damaged file decoded anyway) is marked and its warning shown. A
 * pipeline error is shown here
 * first, in place, with the operator, sample and file it names. The pane tells the runner how
 * many samples it can show (app->batch_window) so the runner copies exactly that many.
 */
#include "tui/app.h"

#include "tui/keys.h"
#include "tui/theme.h"
#include "tui/thumbs.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A source wider than the pane keeps its end, the file's name ("…/cat/chelsea.jpg"): fed
 * files carry whole paths. Cut at a UTF-8 character start. */
static void pane_batch_draw_source(tui_canvas_t c, int y, const char *src)
{
	size_t n = strlen(src);
	tui_style_t st = dalic_tui_style(TUI_S_DIM);
	if (c.r.w < 2 || n <= (size_t)c.r.w) {
		dalic_tui_print(c, 0, y, st, src, -1);
		return;
	}
	const char *tail = src + n - (size_t)(c.r.w - 1);
	while (((unsigned char)*tail & 0xc0) == 0x80)
		tail++;
	int x = dalic_tui_print(c, 0, y, st, "\xe2\x80\xa6", -1);
	dalic_tui_print(c, x, y, st, tail, -1);
}

static int pane_batch_draw_error(const tui_model_t *m, tui_canvas_t c, int y, int y_end)
{
	const tui_error_t *e = &m->error;
	tui_style_t es = dalic_tui_style(TUI_S_ERROR);
	int n = dalic_tui_print(c, 0, y, es, "\xe2\x9c\x96 ERROR", -1);
	if (*e->op)
		n += dalic_tui_printf(c, n, y, es, " in %s", e->op);
	if (e->sample >= 0)
		dalic_tui_printf(c, n, y, es, ", sample %d", e->sample);
	y++;
	if (*e->source && y < y_end) {
		dalic_tui_print(c, 0, y, es, "file: ", -1);
		y = dalic_tui_wrap(c, 6, y, y_end, es, e->source);
	}
	y = dalic_tui_wrap(c, 0, y, y_end - 1, dalic_tui_style(TUI_S_NORMAL), e->message);
	const char *hint = !m->graph ? "fix the file, then R reloads it"
	                   : m->engine == TUI_ENGINE_FULL
	                       ? "the workbench goes on: e debug engine (shows the failing input), "
	                         "R rebuild"
	                       : "the workbench goes on: n next iteration, R rebuild";
	return dalic_tui_wrap(c, 0, y, y_end, dalic_tui_style(TUI_S_DIM), hint);
}

static void pane_batch_sample_info(const tui_sample_view_t *s, const tui_batch_view_t *v, char *buf,
                                   size_t n)
{
	int used = snprintf(buf, n, "#%d %s %s", s->index, s->shape, v->dtype);
	if (s->has_stats && used < (int)n)
		used += snprintf(buf + used, n - (size_t)used, " min %.4g max %.4g mean %.4g",
		                 s->min, s->max, s->mean);
	if (s->nan_count && used < (int)n)
		snprintf(buf + used, n - (size_t)used, " NaN %lld", (long long)s->nan_count);
}

/* Tile size that shows as many of `want` samples as possible in w x rows. */
static void pane_batch_tile_size(int w, int rows, int want, int *tw, int *th, int *fit)
{
	for (int t = w; t >= 6; t--) {
		int h = t * 3 / 8 < 2 ? 2 : t * 3 / 8;
		int cols = (w + 1) / (t + 1), nrows = rows / (h + 1);
		if (cols * nrows >= want || t == 6) {
			*tw = t;
			*th = h;
			*fit = cols * nrows;
			return;
		}
	}
	*tw = 6;
	*th = 2;
	*fit = 0;
}

static void pane_batch_draw_images(tui_app_t *app, const tui_batch_view_t *v, tui_canvas_t c, int y)
{
	int rows = c.r.h - y - 2; /* two info lines under the tiles */
	/* a pane among others shows two big thumbnails rather than many tiny ones; zoomed, many */
	int most = app->zoom ? 16 : 2;
	int want = v->num_samples < most ? v->num_samples : most;
	int tw, th, fit;
	pane_batch_tile_size(c.r.w, rows, want, &tw, &th, &fit);
	int window = fit < 1 ? 1 : fit;
	if (window != app->batch_window) {
		app->batch_window = window;
		dalic_tui_app_post_select(app);
	}
	int cols = (c.r.w + 1) / (tw + 1);
	for (int k = 0; k < v->count && k < fit; k++) {
		const tui_sample_view_t *s = &v->samples[k];
		int tx = (k % cols) * (tw + 1), ty = y + (k / cols) * (th + 1);
		dalic_tui_thumbs_draw(app->thumbs, c, tx, ty, tw, th, v, k);
		bool sel = s->index == app->sel_sample;
		char label[24];
		snprintf(label, sizeof label, sel ? "[#%d%s]" : "#%d%s", s->index,
		         s->warning ? " \xe2\x9a\xa0" : ""); /* warning sign */
		tui_style_t ls = dalic_tui_style(sel        ? TUI_S_SELECTED
		                                 : s->warning ? TUI_S_WARN
		                                              : TUI_S_DIM);
		dalic_tui_print(c, tx + (tw - dalic_tui_text_width(label)) / 2, ty + th, ls, label,
		                tw);
	}
	for (int k = 0; k < v->count; k++)
		if (v->samples[k].index == app->sel_sample) {
			char info[256];
			pane_batch_sample_info(&v->samples[k], v, info, sizeof info);
			dalic_tui_print(c, 0, c.r.h - 2, dalic_tui_style(TUI_S_NORMAL), info, -1);
			if (v->samples[k].warning) { /* the warning before the file: it says more */
				dalic_tui_print(c, 0, c.r.h - 1, dalic_tui_style(TUI_S_WARN),
				                v->samples[k].warning, -1);
				continue;
			}
			if (v->samples[k].source)
				pane_batch_draw_source(c, c.r.h - 1, v->samples[k].source);
		}
}

/* One row per sample (shape, source, values); the last row gives the selected sample's
 * statistics when it has more than one element (a scalar is its own min, max and mean). */
static void pane_batch_draw_values(tui_app_t *app, const tui_batch_view_t *v, tui_canvas_t c, int y)
{
	const tui_sample_view_t *selected = NULL;
	for (int k = 0; k < v->count; k++)
		if (v->samples[k].index == app->sel_sample)
			selected = &v->samples[k];
	bool info = selected && selected->has_stats && selected->elements > 1;
	int rows = c.r.h - y - (info ? 1 : 0);
	int window = rows < 1 ? 1 : rows;
	if (window != app->batch_window) {
		app->batch_window = window;
		dalic_tui_app_post_select(app);
	}
	for (int k = 0; k < v->count && k < rows; k++, y++) {
		const tui_sample_view_t *s = &v->samples[k];
		bool sel = s == selected;
		tui_style_t st = dalic_tui_style(sel ? TUI_S_SELECTED : TUI_S_NORMAL);
		if (sel)
			dalic_tui_fill(c, (tui_rect_t){0, y, c.r.w, 1}, ' ', st);
		int x = dalic_tui_printf(c, 0, y, st, "#%-3d %s", s->index, s->shape);
		if (s->source)
			x += dalic_tui_printf(c, x, y, st, " %s", s->source);
		if (s->warning)
			x += dalic_tui_printf(c, x, y, dalic_tui_style(TUI_S_WARN), " \xe2\x9a\xa0 %s",
			                      s->warning);
		dalic_tui_printf(c, x, y, st, " = %s", s->values ? s->values : "?");
	}
	if (info) {
		char text[256];
		pane_batch_sample_info(selected, v, text, sizeof text);
		dalic_tui_print(c, 0, c.r.h - 1, dalic_tui_style(TUI_S_NORMAL), text, -1);
	}
}

static void pane_batch_draw(tui_app_t *app, tui_canvas_t c)
{
	const tui_model_t *m = app->model;
	const tui_batch_view_t *v = m->batch;
	int y = 0;
	if (m->error.set)
		y = pane_batch_draw_error(m, c, y, c.r.h - 2) + 1;
	if (!v || y >= c.r.h || (m->error.set && !v->count))
		return;
	if (v->node[0]) {
		/* two rows: which node, then what its batch is */
		char head[256];
		int n = snprintf(head, sizeof head, "%s", v->node);
		if (v->num_op_outputs > 1)
			snprintf(head + n, sizeof head - (size_t)n, " (output %d/%d, v: next)",
			         v->output + 1, v->num_op_outputs);
		dalic_tui_print(c, 0, y++, dalic_tui_style(TUI_S_BORDER_FOCUS), head, -1);
		if (v->dtype[0]) {
			n = v->iteration >= 0
			        ? snprintf(head, sizeof head, "it %lld ", (long long)v->iteration)
			        : 0;
			snprintf(head + n, sizeof head - (size_t)n, "%s%s%s %s, %d samples%s",
			         v->dtype, *v->layout ? " " : "", v->layout, v->device,
			         v->num_samples, v->stretched ? ", shown min-max stretched" : "");
			dalic_tui_print(c, 0, y++, dalic_tui_style(TUI_S_DIM), head, -1);
		}
	}
	if (v->note[0])
		y = dalic_tui_wrap(c, 0, y, c.r.h, dalic_tui_style(TUI_S_DIM), v->note);
	if (!v->count || y >= c.r.h)
		return;
	if (v->image)
		pane_batch_draw_images(app, v, c, y);
	else
		pane_batch_draw_values(app, v, c, y);
}

static unsigned pane_batch_key(tui_app_t *app, int k)
{
	const tui_batch_view_t *v = app->model->batch;
	if (!v || !v->num_samples)
		return TUI_HANDLED;
	int step = 1;
	const tui_rect_t *r = &app->panes[TUI_PANE_BATCH];
	if (v->image && (k == TUI_KEY_UP || k == TUI_KEY_DOWN)) {
		int tw, th, fit;
		pane_batch_tile_size(r->w - 2, r->h - 5, app->zoom ? 16 : 2, &tw, &th, &fit);
		step = (r->w - 1) / (tw + 1);
	}
	int s = app->sel_sample;
	switch (k) {
	case TUI_KEY_LEFT:
		s--;
		break;
	case TUI_KEY_RIGHT:
		s++;
		break;
	case TUI_KEY_UP:
		s -= step;
		break;
	case TUI_KEY_DOWN:
		s += step;
		break;
	case TUI_KEY_PGUP:
		s -= app->batch_window;
		break;
	case TUI_KEY_PGDN:
		s += app->batch_window;
		break;
	case TUI_KEY_HOME:
		s = 0;
		break;
	case TUI_KEY_END:
		s = v->num_samples - 1;
		break;
	}
	if (s >= v->num_samples)
		s = v->num_samples - 1;
	if (s < 0)
		s = 0;
	app->sel_sample = s;
	return TUI_HANDLED | TUI_REDRAW | TUI_SELECT;
}

const tui_pane_class_t tui_pane_batch = {
    .title = "BATCH",
    .draw = pane_batch_draw,
    .key = pane_batch_key,
};
