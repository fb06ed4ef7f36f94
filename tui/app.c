/*
 * The UI thread's application object (app.h): taking the newest model and snapshot, laying
 * the panes out, and routing keys — help screen first, then an open prompt, then the command
 * table. Layout (rows): status line, body, message line, key bar. The body is two bands:
 * GRAPH | BATCH on top, OPERATORS | QUEUES below; zoom gives the focused pane the body.
 */
#include "tui/app.h"

#include "tui/commands.h"
#include "tui/keys.h"
#include "tui/theme.h"
#include "tui/thumbs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t last_seq;

static const tui_pane_class_t *const pane_classes[TUI_PANES] = {
    [TUI_PANE_GRAPH] = &tui_pane_graph,
    [TUI_PANE_OPS] = &tui_pane_ops,
    [TUI_PANE_QUEUES] = &tui_pane_queues,
    [TUI_PANE_BATCH] = &tui_pane_batch,
};

int dalic_tui_app_init(tui_app_t *app, tui_runner_t *runner, int w, int h, int colors,
                       bool headless)
{
	memset(app, 0, sizeof *app);
	app->runner = runner;
	app->colors = colors;
	app->headless = headless;
	app->batch_window = 8;
	app->thumbs = dalic_tui_thumbs_new(headless || colors < 8 ? 0 : colors);
	if (!app->thumbs || !dalic_tui_screen_resize(&app->screen, w, h))
		return DALIC_ENOMEM;
	app->model = dalic_tui_runner_model(runner);
	return DALIC_OK;
}

void dalic_tui_app_free(tui_app_t *app)
{
	dalic_tui_model_unref(app->model);
	dalic_stats_snapshot_free(app->stats);
	dalic_tui_glayout_free(app->layout);
	dalic_tui_glayout_shutdown();
	dalic_tui_thumbs_free(app->thumbs);
	dalic_tui_screen_free(&app->screen);
	free(app->prev_runs);
	free(app->active);
}

uint64_t dalic_tui_app_post(tui_app_t *app, const tui_cmd_t *cmd)
{
	uint64_t seq = dalic_tui_runner_post(app->runner, cmd);
	if (seq)
		last_seq = seq;
	else
		dalic_tui_app_message(app, true, "busy: the runner has too many commands queued");
	return seq;
}

uint64_t dalic_tui_app_last_seq(void)
{
	return last_seq;
}

uint64_t dalic_tui_app_post_select(tui_app_t *app)
{
	tui_cmd_t c = {.kind = TUI_CMD_SELECT,
	               .a = app->sel_output,
	               .b = app->sel_sample,
	               .c = app->batch_window};
	snprintf(c.text, sizeof c.text, "%s", app->sel_op);
	return dalic_tui_app_post(app, &c);
}

void dalic_tui_app_message(tui_app_t *app, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(app->message, sizeof app->message, fmt, ap);
	va_end(ap);
	app->message_is_error = error;
}

void dalic_tui_app_prompt(tui_app_t *app, const char *label, const char *initial,
                          unsigned (*submit)(tui_app_t *, const char *))
{
	tui_prompt_t *p = &app->prompt;
	p->active = true;
	snprintf(p->label, sizeof p->label, "%s", label);
	snprintf(p->text, sizeof p->text, "%s", initial);
	p->len = (int)strlen(p->text);
	p->submit = submit;
}

int dalic_tui_app_selected_node(const tui_app_t *app)
{
	return dalic_tui_graph_find(app->model ? app->model->graph : NULL, app->sel_op);
}

void dalic_tui_app_select_node(tui_app_t *app, int i)
{
	const tui_graph_t *g = app->model ? app->model->graph : NULL;
	if (!g || i < 0 || i >= g->num_nodes)
		return;
	if (strcmp(app->sel_op, g->nodes[i].name)) {
		app->sel_output = 0;
		app->sel_sample = 0;
	}
	snprintf(app->sel_op, sizeof app->sel_op, "%s", g->nodes[i].name);
}

/* First selection: the user operator that produces pipeline output 0 (usually the images). */
static void app_default_selection(tui_app_t *app)
{
	const tui_graph_t *g = app->model->graph;
	if (!g || dalic_tui_app_selected_node(app) >= 0)
		return;
	int pick = -1;
	for (int i = 0; i < g->num_nodes && pick < 0; i++)
		for (int o = 0; o < g->nodes[i].num_outputs && g->num_outputs; o++)
			if (!g->nodes[i].internal &&
			    !strcmp(g->nodes[i].outputs[o], g->outputs[0])) {
				pick = i;
				app->sel_output = o;
			}
	for (int i = 0; i < g->num_nodes && pick < 0; i++)
		if (!g->nodes[i].internal)
			pick = i;
	if (pick < 0)
		return;
	int out = app->sel_output;
	dalic_tui_app_select_node(app, pick);
	app->sel_output = out;
	dalic_tui_app_post_select(app);
}

/* Full engine: which operators ran since the previous frame (their run count moved). */
static void app_track_active(tui_app_t *app)
{
	const tui_graph_t *g = app->model->graph;
	int n = g ? g->num_nodes : 0;
	if (n != app->num_active) {
		free(app->prev_runs);
		free(app->active);
		app->prev_runs = calloc((size_t)n + 1, sizeof *app->prev_runs);
		app->active = calloc((size_t)n + 1, sizeof *app->active);
		app->num_active = app->prev_runs && app->active ? n : 0;
	}
	for (int i = 0; i < app->num_active; i++) {
		const dalic_stats_operator_t *op =
		    app->stats ? dalic_stats_find_operator(app->stats, g->nodes[i].name) : NULL;
		int64_t runs = op ? op->time.count : 0;
		app->active[i] = app->model->running && runs > app->prev_runs[i];
		app->prev_runs[i] = runs;
	}
}

/* A new pipeline error selects the operator and sample it names: that is where to look. */
static void app_follow_error(tui_app_t *app)
{
	const tui_error_t *e = &app->model->error;
	if (!e->set || !strcmp(app->seen_error, e->message))
		return;
	snprintf(app->seen_error, sizeof app->seen_error, "%s", e->message);
	int i = dalic_tui_graph_find(app->model->graph, e->op);
	if (i < 0)
		return;
	dalic_tui_app_select_node(app, i);
	app->sel_output = 0;
	app->sel_sample = e->sample > 0 ? e->sample : 0;
	dalic_tui_app_post_select(app);
}

void dalic_tui_app_refresh(tui_app_t *app)
{
	tui_model_t *m = dalic_tui_runner_model(app->runner);
	dalic_tui_model_unref(app->model);
	app->model = m;
	dalic_stats_snapshot_free(app->stats);
	app->stats = m->engine == TUI_ENGINE_FULL ? dalic_tui_runner_snapshot(app->runner) : NULL;
	app_default_selection(app);
	app_follow_error(app);
	app_track_active(app);
}

/* ---- layout and drawing ------------------------------------------------------------------ */
static void app_layout(tui_app_t *app, tui_rect_t body)
{
	memset(app->panes, 0, sizeof app->panes);
	if (app->zoom) {
		app->panes[app->focus] = body;
		return;
	}
	int top = body.h * 11 / 20;
	if (top < 8)
		top = body.h / 2;
	int left = body.w * 58 / 100;
	/* QUEUES needs ~34 columns for its before/after table; OPERATORS gets the rest */
	int queues_w = body.w * 36 / 100;
	if (queues_w < 34)
		queues_w = 34;
	if (queues_w > 44)
		queues_w = 44;
	app->panes[TUI_PANE_GRAPH] = (tui_rect_t){body.x, body.y, left, top};
	app->panes[TUI_PANE_BATCH] = (tui_rect_t){body.x + left, body.y, body.w - left, top};
	app->panes[TUI_PANE_OPS] =
	    (tui_rect_t){body.x, body.y + top, body.w - queues_w, body.h - top};
	app->panes[TUI_PANE_QUEUES] =
	    (tui_rect_t){body.x + body.w - queues_w, body.y + top, queues_w, body.h - top};
}

void dalic_tui_app_draw(tui_app_t *app)
{
	tui_screen_t *s = &app->screen;
	dalic_tui_screen_clear(s);
	tui_canvas_t all = dalic_tui_screen_canvas(s);
	dalic_tui_draw_status(app, dalic_tui_canvas_sub(all, (tui_rect_t){0, 0, s->w, 1}));
	tui_rect_t body = {0, 1, s->w, s->h - 3};
	if (s->w < 60 || s->h < 16) {
		char text[128];
		snprintf(text, sizeof text,
		         "the terminal is %dx%d: the workbench needs 60x16 (80x24 "
		         "or more is better)",
		         s->w, s->h);
		dalic_tui_wrap(all, 0, 1, s->h - 2, dalic_tui_style(TUI_S_WARN), text);
	} else if (app->help) {
		dalic_tui_draw_help(app, dalic_tui_canvas_sub(all, body));
	} else {
		app_layout(app, body);
		for (int i = 0; i < TUI_PANES; i++) {
			if (app->panes[i].w < 4 || app->panes[i].h < 3)
				continue;
			tui_canvas_t c = dalic_tui_canvas_sub(all, app->panes[i]);
			bool focused = (int)app->focus == i;
			dalic_tui_frame(
			    c, pane_classes[i]->title,
			    dalic_tui_style(focused ? TUI_S_BORDER_FOCUS : TUI_S_BORDER), focused);
			pane_classes[i]->draw(app, dalic_tui_frame_inner(c));
		}
	}
	dalic_tui_draw_message(app, dalic_tui_canvas_sub(all, (tui_rect_t){0, s->h - 2, s->w, 1}));
	dalic_tui_draw_keybar(app, dalic_tui_canvas_sub(all, (tui_rect_t){0, s->h - 1, s->w, 1}));
	app->frames++;
}

/* ---- keys ---------------------------------------------------------------------------------- */
static unsigned app_prompt_key(tui_app_t *app, int key)
{
	tui_prompt_t *p = &app->prompt;
	if (key == TUI_KEY_ESC) {
		p->active = false;
		dalic_tui_app_message(app, false, "cancelled");
	} else if (key == TUI_KEY_ENTER) {
		p->active = false;
		app->message[0] = 0;
		return p->submit(app, p->text);
	} else if (key == TUI_KEY_BACKSPACE) {
		while (p->len > 0 && (p->text[p->len - 1] & 0xc0) == 0x80)
			p->len--;
		if (p->len > 0)
			p->len--;
		p->text[p->len] = 0;
	} else if (key >= 0x20 && key < TUI_KEY_SPECIAL) {
		char b[4];
		int n = dalic_tui_utf8_encode((uint32_t)key, b);
		if (p->len + n < (int)sizeof p->text - 1) {
			memcpy(p->text + p->len, b, (size_t)n);
			p->len += n;
			p->text[p->len] = 0;
		}
	}
	return TUI_HANDLED | TUI_REDRAW;
}

static unsigned app_finish(tui_app_t *app, unsigned flags)
{
	if (flags & TUI_SELECT)
		dalic_tui_app_post_select(app);
	return flags;
}

unsigned dalic_tui_app_key(tui_app_t *app, int key)
{
	if (key == TUI_KEY_RESIZE)
		return TUI_HANDLED | TUI_REDRAW;
	if (app->prompt.active)
		return app_prompt_key(app, key);
	if (app->help) {
		int page = app->screen.h - 4;
		if (key == TUI_KEY_DOWN || key == TUI_KEY_PGDN)
			app->help_scroll += key == TUI_KEY_DOWN ? 1 : page;
		else if (key == TUI_KEY_UP || key == TUI_KEY_PGUP)
			app->help_scroll -= key == TUI_KEY_UP ? 1 : page;
		else
			app->help =
			    false; /* any other key, q included: q then quits from the panes */
		if (app->help_scroll < 0)
			app->help_scroll = 0;
		return TUI_HANDLED | TUI_REDRAW;
	}
	app->message[0] = 0;
	const tui_command_t *c = dalic_tui_command_by_key(key);
	if (!c) {
		char b[8];
		dalic_tui_app_message(app, true, "%s: no such key (? shows them all)",
		                      dalic_tui_key_name(key, b));
		return TUI_REDRAW;
	}
	return app_finish(app, c->run(app, key));
}

unsigned dalic_tui_app_command(tui_app_t *app, const char *name)
{
	const tui_command_t *c = dalic_tui_command_by_name(name);
	if (!c)
		return 0;
	app->message[0] = 0;
	return app_finish(app, c->run(app, c->keys[0]));
}
