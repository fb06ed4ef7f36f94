/* The panes of the attached view, drawn from the newest snapshot's JSON (tui/attach_draw.h). */
#include "tui/attach_draw.h"

#include "tui/theme.h"

#include <stdio.h>

static const uint32_t attach_levels[8] = {0x2581, 0x2582, 0x2583, 0x2584,
                                          0x2585, 0x2586, 0x2587, 0x2588};

static double attach_num(const cJSON *o, const char *k)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(x) ? x->valuedouble : 0;
}

static const char *attach_str(const cJSON *o, const char *k)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));
	return s ? s : "-";
}

static const cJSON *attach_obj(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

static void attach_draw_operators(const cJSON *stats, tui_canvas_t c)
{
	dalic_tui_frame(c, "OPERATORS", dalic_tui_style(TUI_S_BORDER), false);
	tui_canvas_t in = dalic_tui_frame_inner(c);
	dalic_tui_printf(in, 0, 0, dalic_tui_style(TUI_S_HEADER), "%-30s %-5s %9s %9s %8s %6s %10s",
	                 "operator", "stage", "mean ms", "p99 ms", "runs", "share", "live KiB");
	const cJSON *op;
	int y = 1;
	cJSON_ArrayForEach(op, attach_obj(stats, "operators"))
	{
		double live = 0;
		const cJSON *o;
		cJSON_ArrayForEach(o, attach_obj(op, "outputs")) live += attach_num(o, "bytes_live");
		const cJSON *t = attach_obj(op, "time");
		dalic_tui_printf(in, 0, y++, dalic_tui_style(TUI_S_NORMAL),
		                 "%-30.30s %-5.5s %9.3f %9.3f %8.0f %5.1f%% %10.1f", attach_str(op, "name"),
		                 attach_str(op, "stage"), attach_num(t, "mean_ns") * 1e-6,
		                 attach_num(t, "p99_ns") * 1e-6, attach_num(t, "count"),
		                 attach_num(op, "share") * 100, live / 1024);
	}
}

/* What grew since the mark, per operator. */
static void attach_draw_since(tui_attach_t *v, const cJSON *stats, tui_canvas_t c)
{
	char title[80];
	snprintf(title, sizeof title, "SINCE MARK (snapshot %ld)", v->mark_seq);
	dalic_tui_frame(c, title, dalic_tui_style(TUI_S_BORDER_FOCUS), true);
	tui_canvas_t in = dalic_tui_frame_inner(c);
	dalic_growth_t g;
	if (dalic_growth_since(&v->mark, stats, &g)) {
		dalic_tui_print(in, 0, 0, dalic_tui_style(TUI_S_ERROR), "this snapshot has no operators", -1);
		return;
	}
	dalic_tui_printf(in, 0, 0, dalic_tui_style(TUI_S_HEADER), "%-30s %14s %8s %8s %14s  (%lld iterations)",
	                 "operator", "live bytes", "grew", "allocs", "alloc bytes",
	                 (long long)g.iterations);
	for (int i = 0; i < g.num_rows; i++) {
		const dalic_growth_row_t *r = &g.rows[i];
		bool grew = r->bytes_live > 0 || r->growth_events > 0;
		dalic_tui_printf(in, 0, i + 1, dalic_tui_style(grew ? TUI_S_WARN : TUI_S_NORMAL),
		                 "%-30.30s %+14lld %+8lld %+8lld %+14lld", r->name, (long long)r->bytes_live,
		                 (long long)r->growth_events, (long long)r->allocations,
		                 (long long)r->allocated_bytes);
	}
	dalic_growth_free(&g);
}

/* Queues, then the worker pool: a summary and a line per worker. */
static void attach_draw_queues(const cJSON *stats, tui_canvas_t c)
{
	dalic_tui_frame(c, "QUEUES / WORKERS", dalic_tui_style(TUI_S_BORDER), false);
	tui_canvas_t in = dalic_tui_frame_inner(c);
	int y = 0;
	const cJSON *q;
	cJSON_ArrayForEach(q, attach_obj(stats, "queues"))
	{
		if (cJSON_IsTrue(attach_obj(q, "present")))
			dalic_tui_printf(in, 0, y++, dalic_tui_style(TUI_S_NORMAL),
			                 "queue %-3s %.0f/%.0f  mean %.2f  %.0f KiB", attach_str(q, "name"),
			                 attach_num(q, "occupancy"), attach_num(q, "depth"),
			                 attach_num(q, "mean_occupancy"), attach_num(q, "bytes") / 1024);
	}
	const cJSON *cpu = attach_obj(stats, "cpu");
	dalic_tui_printf(in, 0, y++, dalic_tui_style(TUI_S_NORMAL), "workers busy %.0f%%, cpu %.0f%%",
	                 attach_num(cpu, "workers_busy_share") * 100,
	                 attach_num(cpu, "workers_cpu_share") * 100);
	const cJSON *w;
	cJSON_ArrayForEach(w, attach_obj(cpu, "workers"))
	{
		double busy = attach_num(w, "busy_share");
		int x = dalic_tui_printf(in, 0, y, dalic_tui_style(TUI_S_DIM), "w%-2d",
		                         (int)attach_num(w, "index"));
		int fill = (int)(busy * 8 + 0.5);
		for (int i = 0; i < 8; i++)
			dalic_tui_put(in, x + i, y, i < fill ? 0x2588 : 0x2591, dalic_tui_style(TUI_S_BAR));
		dalic_tui_printf(in, x + 9, y++, dalic_tui_style(TUI_S_NORMAL), "%3.0f%% %s",
		                 busy * 100, attach_str(w, "top_operator"));
	}
}

/* One trend series as a sparkline scaled to its maximum, newest at the right, then its last
 * value. */
static void attach_sparkline(tui_canvas_t c, int y, const char *label, const cJSON *points,
                             const char *key, double scale)
{
	int x = dalic_tui_printf(c, 0, y, dalic_tui_style(TUI_S_NORMAL), "%-12s", label);
	int n = cJSON_GetArraySize(points), w = c.r.w - x - 12;
	if (w <= 0 || n == 0)
		return;
	int first = n > w ? n - w : 0;
	double top = 0, last = 0;
	for (int i = first; i < n; i++) {
		double val = attach_num(cJSON_GetArrayItem(points, i), key) * scale;
		top = val > top ? val : top;
	}
	for (int i = first; i < n; i++) {
		last = attach_num(cJSON_GetArrayItem(points, i), key) * scale;
		int l = top > 0 ? (int)(last / top * 7 + 0.5) : 0;
		dalic_tui_put(c, x + i - first, y, attach_levels[l > 7 ? 7 : l], dalic_tui_style(TUI_S_BAR));
	}
	dalic_tui_printf(c, x + n - first + 1, y, dalic_tui_style(TUI_S_NORMAL), "%.1f", last);
}

static void attach_draw_trends(const cJSON *stats, tui_canvas_t c)
{
	const cJSON *trend = attach_obj(stats, "trend");
	const cJSON *points = attach_obj(trend, "points");
	char title[80];
	snprintf(title, sizeof title, "TRENDS (a point every %.0f s, %d points)",
	         attach_num(trend, "interval_seconds"), cJSON_GetArraySize(points));
	dalic_tui_frame(c, title, dalic_tui_style(TUI_S_BORDER), false);
	tui_canvas_t in = dalic_tui_frame_inner(c);
	attach_sparkline(in, 0, "samples/s", points, "samples_per_second", 1);
	attach_sparkline(in, 1, "reader MB/s", points, "reader_mb_per_second", 1);
	attach_sparkline(in, 2, "MiB live", points, "bytes_live", 1.0 / (1 << 20));
	attach_sparkline(in, 3, "cpu cores", points, "cpu_cores", 1);
}

void dalic_tui_attach_draw(tui_attach_t *v)
{
	dalic_tui_screen_clear(&v->screen);
	tui_canvas_t all = dalic_tui_screen_canvas(&v->screen);
	int h = v->screen.h, w = v->screen.w;
	const cJSON *stats = attach_obj(v->env, "stats");
	dalic_tui_printf(all, 0, 0, dalic_tui_style(TUI_S_ALERT),
	                 " ATTACHED READ-ONLY to %s  pid %ld  snapshot %.0f%s ", v->path, v->pid,
	                 attach_num(v->env, "seq"), v->ended ? "  (the process ended)" : "");
	const cJSON *verdict = attach_obj(attach_obj(stats, "waits"), "verdict");
	dalic_tui_printf(all, 0, 1, dalic_tui_style(TUI_S_NORMAL),
	                 "iterations %.0f  samples %.0f  %.1f samples/s  verdict: %s",
	                 attach_num(stats, "iterations"), attach_num(stats, "samples"),
	                 attach_num(stats, "samples_per_second"), attach_str(verdict, "name"));
	int rest = h - 3, trends = 6, queues = rest - trends > 14 ? 8 : (rest - trends) / 2;
	int ops = rest - trends - queues;
	tui_canvas_t top = dalic_tui_canvas_sub(all, (tui_rect_t){0, 2, w, ops});
	if (v->since)
		attach_draw_since(v, stats, top);
	else
		attach_draw_operators(stats, top);
	attach_draw_queues(stats, dalic_tui_canvas_sub(all, (tui_rect_t){0, 2 + ops, w, queues}));
	attach_draw_trends(stats, dalic_tui_canvas_sub(all, (tui_rect_t){0, 2 + ops + queues, w, trends}));
	dalic_tui_print(all, 0, h - 1, dalic_tui_style(TUI_S_STATUS),
	                v->msg[0] ? v->msg
	                          : "m mark memory   M since mark   q quit   (read-only: no stepping)",
	                -1);
}
