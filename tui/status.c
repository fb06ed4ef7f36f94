/*
 * The three one-row widgets: the status line (what is loaded, which engine, how fast, which
 * parameters, and a loud DEVICES EMULATED when gpu/mixed operators run on the CPU), the
 * message line (an open prompt, the last error, or the runner's last notice) and the key bar,
 * generated from the command table. When the terminal is narrow, status segments of lower
 * priority are dropped first; the emulation mark is never dropped.
 */
#include "tui/app.h"

#include "tui/commands.h"
#include "tui/keys.h"
#include "tui/theme.h"

#include <stdio.h>
#include <string.h>

typedef struct segment {
	char text[96];
	int priority; /* lower is kept longer */
	tui_style_id_t style;
} segment_t;

static const char *status_short_path(const char *path)
{
	if (!path)
		return "(no pipeline)";
	const char *slash = strrchr(path, '/');
	return slash && strlen(path) > 28 ? slash + 1 : path;
}

void dalic_tui_draw_status(tui_app_t *app, tui_canvas_t row)
{
	const tui_model_t *m = app->model;
	segment_t seg[12];
	int n = 0;
#define SEG(prio, st, ...)                                                                         \
	do {                                                                                       \
		snprintf(seg[n].text, sizeof seg[n].text, __VA_ARGS__);                            \
		seg[n].priority = prio;                                                            \
		seg[n++].style = st;                                                               \
	} while (0)
	SEG(0, TUI_S_STATUS, "%s", status_short_path(m->path));
	if (dalic_tui_app_last_seq() > m->done_seq)
		SEG(0, TUI_S_STATUS, "\xe2\x80\xa6 working"); /* a step or rebuild in progress */
	else if (m->error.set)
		SEG(0, TUI_S_ALERT, "\xe2\x9c\x96 ERROR");
	else if (m->running)
		SEG(0, TUI_S_STATUS, "\xe2\x96\xb6 running");
	else if (!m->graph)
		SEG(0, TUI_S_STATUS, "\xe2\x80\xa6 loading");
	else if (m->ended)
		SEG(0, TUI_S_STATUS, "\xe2\x96\xa0 end of data");
	else
		SEG(0, TUI_S_STATUS, "paused");
	if (m->engine == TUI_ENGINE_DEBUG && m->graph)
		SEG(0, TUI_S_STATUS, "it %lld op %d/%d", (long long)m->iteration,
		    m->next_op < 0 ? 0 : m->next_op, m->graph->num_nodes);
	else
		SEG(0, TUI_S_STATUS, "it %lld", (long long)m->iteration);
	/* DALI's epoch_idx (a checkpoint's), else the ends of data this workbench went past */
	SEG(1, TUI_S_STATUS, "epoch %lld", (long long)(m->has_position ? m->epoch_idx : m->epochs));
	SEG(1, TUI_S_STATUS, m->rate >= 100 ? "%.0f samples/s" : "%.1f samples/s", m->rate);
	SEG(2, TUI_S_STATUS, "%s", m->engine == TUI_ENGINE_FULL ? m->executor : "debug (eager)");
	if (m->params.separated_queues)
		SEG(1, TUI_S_STATUS, "prefetch cpu=%d,gpu=%d", m->params.prefetch_cpu,
		    m->params.prefetch_gpu);
	else
		SEG(1, TUI_S_STATUS, "prefetch %d", m->params.prefetch_cpu);
	SEG(3, TUI_S_STATUS, "bytes_per_sample %lld", (long long)m->params.bytes_per_sample);
	if (m->tracing)
		SEG(2, TUI_S_WARN, "\xe2\x97\x8f trace");
	SEG(4, TUI_S_STATUS, "threads %d", m->params.num_threads);
	SEG(5, TUI_S_STATUS, "batch %d", m->params.batch_size);
#undef SEG
	/* the emulation mark is never dropped; it gets shorter when the line is crowded */
	const char *alert = "";
	if (m->emulated) {
		int need = 0;
		for (int i = 0; i < n; i++)
			if (seg[i].priority <= 2)
				need += dalic_tui_text_width(seg[i].text) + 3;
		alert = need + 40 <= row.r.w ? " \xe2\x9a\xa0 DEVICES EMULATED (gpu/mixed on CPU) "
		                             : " \xe2\x9a\xa0 DEVICES EMULATED ";
	}
	int alert_w = dalic_tui_text_width(alert);
	/* drop the least important segments until everything fits */
	for (int drop = 5; drop >= 0; drop--) {
		int w = alert_w;
		for (int i = 0; i < n; i++)
			if (seg[i].priority <= drop)
				w += dalic_tui_text_width(seg[i].text) + 3;
		if (w <= row.r.w || drop == 0) {
			dalic_tui_fill(row, (tui_rect_t){0, 0, row.r.w, 1}, ' ',
			               dalic_tui_style(TUI_S_STATUS));
			int x = 0;
			for (int i = 0; i < n; i++) {
				if (seg[i].priority > drop)
					continue;
				if (x)
					x += dalic_tui_print(row, x, 0,
					                     dalic_tui_style(TUI_S_STATUS),
					                     " \xe2\x94\x82 ", -1);
				x += dalic_tui_print(row, x, 0, dalic_tui_style(seg[i].style),
				                     seg[i].text, -1);
			}
			if (alert_w)
				dalic_tui_print(row, row.r.w - alert_w, 0,
				                dalic_tui_style(TUI_S_ALERT), alert, -1);
			return;
		}
	}
}

void dalic_tui_draw_message(tui_app_t *app, tui_canvas_t row)
{
	const tui_prompt_t *p = &app->prompt;
	const tui_model_t *m = app->model;
	if (p->active) {
		int x = dalic_tui_print(row, 0, 0, dalic_tui_style(TUI_S_WARN), p->label, -1);
		x += dalic_tui_print(row, x, 0, dalic_tui_style(TUI_S_NORMAL), p->text, -1);
		dalic_tui_put(row, x, 0, '_', dalic_tui_style(TUI_S_EXECUTING));
		dalic_tui_print(row, x + 2, 0, dalic_tui_style(TUI_S_DIM),
		                "(Enter applies, Esc cancels)", -1);
	} else if (app->message[0]) {
		dalic_tui_print(row, 0, 0,
		                dalic_tui_style(app->message_is_error ? TUI_S_ERROR : TUI_S_NORMAL),
		                app->message, -1);
	} else if (m->error.set) {
		/* one row: the message's lines joined */
		char one[sizeof m->error.message];
		snprintf(one, sizeof one, "%s", m->error.message);
		for (char *p = one; *p; p++)
			if (*p == '\n')
				*p = ' ';
		int x =
		    dalic_tui_print(row, 0, 0, dalic_tui_style(TUI_S_ERROR), "\xe2\x9c\x96 ", -1);
		dalic_tui_print(row, x, 0, dalic_tui_style(TUI_S_ERROR), one, -1);
	} else {
		dalic_tui_print(row, 0, 0, dalic_tui_style(TUI_S_DIM), m->notice, -1);
	}
}

static int status_bar_item(tui_canvas_t row, int x, const tui_command_t *c)
{
	char b[8];
	x += dalic_tui_print(row, x, 0, dalic_tui_style(TUI_S_KEY),
	                     dalic_tui_key_label(c->keys[0], b), -1);
	x += dalic_tui_print(row, x, 0, dalic_tui_style(TUI_S_KEYLABEL), c->bar, -1);
	return x + dalic_tui_print(row, x, 0, dalic_tui_style(TUI_S_NORMAL), " ", -1);
}

static int status_bar_width(const tui_command_t *c)
{
	char b[8];
	return dalic_tui_text_width(dalic_tui_key_label(c->keys[0], b)) +
	       dalic_tui_text_width(c->bar) + 1;
}

void dalic_tui_draw_keybar(tui_app_t *app, tui_canvas_t row)
{
	const tui_command_t *quit = dalic_tui_command_by_name("quit");
	int room = row.r.w - status_bar_width(quit), x = 0;
	if (app->help) {
		dalic_tui_print(row, 0, 0, dalic_tui_style(TUI_S_KEYLABEL),
		                " any key closes help  \xe2\x86\x91\xe2\x86\x93 PgUp PgDn scroll ",
		                -1);
		return;
	}
	for (int i = 0; i < tui_num_commands; i++) {
		const tui_command_t *c = &tui_commands[i];
		if (!c->bar || c == quit || x + status_bar_width(c) > room)
			continue;
		x = status_bar_item(row, x, c);
	}
	status_bar_item(row, x, quit);
}
