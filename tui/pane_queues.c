/*
 * QUEUES pane: how full each prefetch queue is now (a bar) and lately (a sparkline of the
 * occupancy history the collector keeps), how much of the time the consumer waited for data
 * versus the pipeline waited for a free slot, how busy the pool's workers were (issue 26) and
 * the collector's input-bound verdict.
 * After a parameter change it also shows the numbers before and after side by side:
 * throughput, iteration interval, reserved memory and engine memory. While the tuner runs
 * (U) and after, until U again, it shows the tune view instead.
 */
#include "tui/app.h"

#include "tui/theme.h"

#include <stdio.h>
#include <string.h>

static const uint32_t levels[8] = {0x2581, 0x2582, 0x2583, 0x2584, 0x2585, 0x2586, 0x2587, 0x2588};

static uint32_t pane_queues_level(int occupancy, int depth)
{
	if (depth <= 0 || occupancy <= 0)
		return levels[0];
	int l = (occupancy * 7 + depth / 2) / depth;
	return levels[l > 7 ? 7 : l];
}

/* Occupancy over the kept history, resampled to `w` columns (last value in each bucket). */
static void pane_queues_sparkline(tui_canvas_t c, int x, int y, int w, const dalic_stats_queue_t *q)
{
	if (w <= 0 || q->num_samples == 0)
		return;
	int64_t t0 = q->samples[0].t_ns, t1 = q->samples[q->num_samples - 1].t_ns;
	int k = 0, occ = q->samples[0].occupancy;
	for (int col = 0; col < w; col++) {
		int64_t edge = t0 + (t1 - t0) * (col + 1) / w;
		while (k < q->num_samples && q->samples[k].t_ns <= edge)
			occ = q->samples[k++].occupancy;
		dalic_tui_put(c, x + col, y, pane_queues_level(occ, q->depth),
		              dalic_tui_style(TUI_S_BAR));
	}
}

static void pane_queues_queue_line(tui_canvas_t c, int y, const dalic_stats_queue_t *q)
{
	dalic_tui_printf(c, 0, y, dalic_tui_style(TUI_S_NORMAL), "%-3s", q->name);
	if (!q->present) {
		dalic_tui_print(c, 4, y, dalic_tui_style(TUI_S_DIM), "-", -1);
		return;
	}
	int bar = q->depth < 8 ? 8 : q->depth > 12 ? 12 : q->depth;
	int fill = q->depth ? (q->occupancy * bar + q->depth / 2) / q->depth : 0;
	for (int i = 0; i < bar; i++)
		dalic_tui_put(c, 4 + i, y, i < fill ? 0x2588 : 0x2591, dalic_tui_style(TUI_S_BAR));
	int x = 5 + bar;
	x += dalic_tui_printf(c, x, y, dalic_tui_style(TUI_S_NORMAL), "%d/%d ", q->occupancy,
	                      q->depth);
	pane_queues_sparkline(c, x, y, c.r.w - x, q);
}

/* One value of a trend series between points i and i + 1 (op: an operator, for op time). */
typedef double (*pane_queues_series_fn)(const dalic_stats_snapshot_t *s, int i, int op);

static double pane_queues_dt(const dalic_stats_snapshot_t *s, int i)
{
	return s->trend[i + 1].t_s - s->trend[i].t_s;
}

static double pane_queues_samples(const dalic_stats_snapshot_t *s, int i, int op)
{
	double dt = pane_queues_dt(s, i);
	return dt > 0 ? (double)(s->trend[i + 1].samples - s->trend[i].samples) / dt : 0;
}

static double pane_queues_mbs(const dalic_stats_snapshot_t *s, int i, int op)
{
	double dt = pane_queues_dt(s, i);
	return dt > 0 ? (double)(s->trend[i + 1].reader_bytes - s->trend[i].reader_bytes) * 1e-6 / dt
	              : 0;
}

static double pane_queues_mib(const dalic_stats_snapshot_t *s, int i, int op)
{
	return (double)s->trend[i + 1].bytes_live / (1024.0 * 1024.0);
}

static double pane_queues_cores(const dalic_stats_snapshot_t *s, int i, int op)
{
	double dt = pane_queues_dt(s, i);
	return dt > 0 ? (s->trend[i + 1].cpu_s - s->trend[i].cpu_s) / dt : 0;
}

static double pane_queues_op_ms(const dalic_stats_snapshot_t *s, int i, int op)
{
	double dt = pane_queues_dt(s, i);
	int n = s->num_operators;
	int64_t d = s->trend_operator_ns[(size_t)(i + 1) * n + op] -
	            s->trend_operator_ns[(size_t)i * n + op];
	return dt > 0 ? (double)d * 1e-6 / dt : 0;
}

/* A trend series, newest at the right, one column per interval, scaled to its maximum, then
 * its last value: a slowdown after the first epoch shows as a step down, a memory ramp as a
 * slope. */
static void pane_queues_trend(tui_canvas_t c, int y, const dalic_stats_snapshot_t *s,
                              const char *label, pane_queues_series_fn fn, int op)
{
	int x = dalic_tui_printf(c, 0, y, dalic_tui_style(TUI_S_NORMAL), "%-9s ", label);
	int w = c.r.w - x - 8 - (fn == pane_queues_op_ms ? 8 : 0), n = s->num_trend - 1;
	/* values need two points */
	if (w <= 0 || n < 1)
		return;
	int first = n > w ? n - w : 0;
	double v[512], top = 0;
	int k = 0;
	for (int i = first; i < n && k < 512; i++, k++) {
		v[k] = fn(s, i, op);
		if (v[k] > top)
			top = v[k];
	}
	for (int i = 0; i < k; i++) {
		int l = top > 0 ? (int)(v[i] / top * 7 + 0.5) : 0;
		dalic_tui_put(c, x + i, y, levels[l < 0 ? 0 : l > 7 ? 7 : l],
		              dalic_tui_style(TUI_S_BAR));
	}
	x += k + 1;
	x += dalic_tui_printf(c, x, y, dalic_tui_style(TUI_S_NORMAL),
	                      v[k - 1] >= 100 ? "%.0f" : "%.1f", v[k - 1]);
	if (fn == pane_queues_op_ms) /* whose time it is */
		dalic_tui_print(c, x + 1, y, dalic_tui_style(TUI_S_DIM), s->operators[op].name,
		                c.r.w - x - 1);
}

/* The trend lines that fit above the workers and the verdict: samples/s first, then the
 * readers' MB/s, memory held, CPU cores and the selected operator's time (ms per second). */
static int pane_queues_trends(tui_app_t *app, tui_canvas_t c, int y,
                              const dalic_stats_snapshot_t *s)
{
	if (s->num_trend < 2)
		return 0;
	int op = -1;
	for (int k = 0; k < s->num_operators && s->trend_operator_ns; k++)
		if (!strcmp(s->operators[k].name, app->sel_op))
			op = k;
	const struct {
		const char *label;
		pane_queues_series_fn fn;
	} series[5] = {{"samples/s", pane_queues_samples},
	               {"MB/s read", pane_queues_mbs},
	               {"MiB held", pane_queues_mib},
	               {"cpu cores", pane_queues_cores},
	               {"op ms/s", pane_queues_op_ms}};
	int used = 0;
	for (int k = 0; k < 5 && c.r.h - (y + used) > 4 + 2 * (k > 0); k++) {
		if (k == 4 && op < 0)
			break;
		pane_queues_trend(c, y + used++, s, series[k].label, series[k].fn, op);
	}
	return used;
}

/* The worker pool: a summary line, then one line per worker (busy bar, busy %, the operator
 * it spent most time on) while `rows` allow. Returns the rows used. */
static int pane_queues_workers(tui_canvas_t c, int y, int rows, const dalic_stats_snapshot_t *s)
{
	if (rows <= 0 || s->num_workers <= 0)
		return 0;
	dalic_tui_printf(c, 0, y, dalic_tui_style(TUI_S_NORMAL), "workers busy %.0f%%, cpu %.0f%%",
	                 s->workers_busy_share * 100, s->workers_cpu_share * 100);
	int used = 1;
	for (int w = 0; w < s->num_workers && used < rows; w++, used++) {
		const dalic_stats_worker_t *k = &s->workers[w];
		int x = dalic_tui_printf(c, 0, y + used, dalic_tui_style(TUI_S_DIM), "w%-2d", w);
		int fill = (int)(k->busy_share * 8 + 0.5);
		for (int i = 0; i < 8; i++)
			dalic_tui_put(c, x + i, y + used, i < fill ? 0x2588 : 0x2591,
			              dalic_tui_style(TUI_S_BAR));
		x += 9;
		x += dalic_tui_printf(c, x, y + used, dalic_tui_style(TUI_S_NORMAL), "%3.0f%% ",
		                      k->busy_share * 100);
		if (k->top_operator >= 0)
			dalic_tui_print(c, x, y + used, dalic_tui_style(TUI_S_DIM),
			                s->operators[k->top_operator].name, c.r.w - x);
	}
	return used;
}

/* Before / after a change, in 32 columns: label, before, after, relative change. */
static void pane_queues_compare(tui_app_t *app, tui_canvas_t c, int y)
{
	const tui_model_t *m = app->model;
	tui_measure_t after;
	dalic_tui_measure_take(m, app->stats, &after);
	const tui_measure_t *b = &m->before;
	tui_style_t st = dalic_tui_style(TUI_S_NORMAL);
	char x1[16], x2[16];
	dalic_tui_print(c, 0, y++, dalic_tui_style(TUI_S_HEADER), m->change, -1);
	dalic_tui_printf(c, 0, y++, dalic_tui_style(TUI_S_DIM), "%-9s%9s%9s", "", "before",
	                 "after");
	snprintf(x1, sizeof x1, b->rate >= 1000 ? "%.0f" : "%.1f", b->rate);
	snprintf(x2, sizeof x2, after.rate >= 1000 ? "%.0f" : "%.1f", after.rate);
	int n = dalic_tui_printf(c, 0, y, st, "%-9s%9s%9s", "samples/s", b->rate > 0 ? x1 : "-",
	                         after.rate > 0 ? x2 : "run: Spc");
	if (b->rate > 0 && after.rate > 0)
		dalic_tui_printf(c, n, y,
		                 dalic_tui_style(after.rate >= b->rate ? TUI_S_GOOD : TUI_S_WARN),
		                 " %+.0f%%", (after.rate / b->rate - 1) * 100);
	y++;
	snprintf(x1, sizeof x1, "%.2fms", b->iter_ms);
	snprintf(x2, sizeof x2, "%.2fms", after.iter_ms);
	dalic_tui_printf(c, 0, y++, st, "%-9s%9s%9s", "interval", b->iter_ms > 0 ? x1 : "-",
	                 after.iter_ms > 0 ? x2 : "-");
	dalic_tui_printf(c, 0, y++, st, "%-9s%9s%9s", "reserved",
	                 dalic_tui_fmt_bytes(b->reserved, x1),
	                 dalic_tui_fmt_bytes(after.reserved, x2));
	dalic_tui_printf(c, 0, y++, st, "%-9s%9s%9s", "mem live", dalic_tui_fmt_bytes(b->live, x1),
	                 dalic_tui_fmt_bytes(after.live, x2));
}

/* The tune view (U): the runner's lines, one per row, "faster" and "slower" in colour. */
static void pane_queues_tune(const tui_model_t *m, tui_canvas_t c)
{
	const char *line = m->tune;
	for (int y = 0; *line && y < c.r.h; y++) {
		int len = (int)strcspn(line, "\n");
		tui_style_t st = dalic_tui_style(y < 2 ? TUI_S_HEADER : TUI_S_NORMAL);
		if (y >= 2 && len > 6 && !strncmp(line + len - 6, "faster", 6))
			st = dalic_tui_style(TUI_S_GOOD);
		else if (y >= 2 && len > 6 && !strncmp(line + len - 6, "slower", 6))
			st = dalic_tui_style(TUI_S_WARN);
		char buf[160];
		snprintf(buf, sizeof buf, "%.*s", len, line);
		dalic_tui_print(c, 0, y, st, buf, -1);
		line += len + (line[len] == '\n');
	}
}

/* The position: each reader's epoch and samples into it (runner_ckpt.c), or why there is
 * none. Returns the rows used. */
static int pane_queues_position(const tui_model_t *m, tui_canvas_t c, int y)
{
	if (!m->has_position) {
		if (!m->position_note[0])
			return 0;
		dalic_tui_print(c, 0, y, dalic_tui_style(TUI_S_DIM), m->position_note, -1);
		return 1;
	}
	int used = 0;
	for (int i = 0; i < m->num_readers && used < c.r.h - y; i++, used++) {
		const tui_reader_pos_t *p = &m->readers[i];
		char of[32] = "";
		if (p->epoch_size > 0)
			snprintf(of, sizeof of, "/%lld", (long long)p->epoch_size);
		dalic_tui_printf(c, 0, y + used, dalic_tui_style(TUI_S_NORMAL),
		                 "%s: epoch %d, sample %d%s", p->name, p->epoch, p->age, of);
	}
	return used;
}

static void pane_queues_draw(tui_app_t *app, tui_canvas_t all)
{
	const tui_model_t *m = app->model;
	const dalic_stats_snapshot_t *s = app->stats;
	int y = 0;
	if (m->tune[0]) {
		pane_queues_tune(m, all);
		return;
	}
	int compare_rows = m->has_compare && all.r.h >= 6 ? 6 : 0;
	/* queue lines above, the before/after table below: neither draws over the other */
	tui_canvas_t c =
	    dalic_tui_canvas_sub(all, (tui_rect_t){0, 0, all.r.w, all.r.h - compare_rows});
	y += pane_queues_position(m, c, y);
	if (m->engine == TUI_ENGINE_DEBUG) {
		y = dalic_tui_wrap(
		    c, 0, y, c.r.h, dalic_tui_style(TUI_S_DIM),
		    "debug engine (eager): no prefetch queues; e switches back to the full "
		    "engine");
	} else if (!s) {
		dalic_tui_print(c, 0, y++, dalic_tui_style(TUI_S_DIM), "no pipeline", -1);
	} else {
		pane_queues_queue_line(c, y++, &s->queues[DALIC_STATS_QUEUE_CPU]);
		pane_queues_queue_line(c, y++, &s->queues[DALIC_STATS_QUEUE_GPU]);
		if (s->consumer_wait_measured)
			dalic_tui_printf(c, 0, y++, dalic_tui_style(TUI_S_NORMAL),
			                 "consumer wait %.0f%%, "
			                 "slot wait %.0f%%",
			                 s->consumer_wait_share * 100,
			                 s->free_slot_wait_share * 100);
		else if (m->params.exec_async)
			dalic_tui_print(c, 0, y++, dalic_tui_style(TUI_S_DIM),
			                "waits: none measured yet", -1);
		else
			dalic_tui_print(c, 0, y++, dalic_tui_style(TUI_S_NORMAL),
			                "synchronous executor: no overlap", -1);
		char t1[16], t2[16];
		if (c.r.h - y > 2)
			dalic_tui_printf(
			    c, 0, y++, dalic_tui_style(TUI_S_NORMAL), "iteration %s, one per %s",
			    dalic_tui_fmt_ns(s->iteration_time.mean_ns, t1),
			    dalic_tui_fmt_ns((double)s->iteration_interval.p50_ns, t2));
		y += pane_queues_trends(app, c, y, s);
		/* the workers, leaving the verdict and two lines of its reason below */
		y += pane_queues_workers(c, y, c.r.h - y - 3, s);
		tui_style_t vs = s->verdict == DALIC_STATS_VERDICT_INPUT_BOUND
		                     ? dalic_tui_style(TUI_S_WARN)
		                     : dalic_tui_style(TUI_S_GOOD);
		int n = dalic_tui_print(c, 0, y, dalic_tui_style(TUI_S_NORMAL), "verdict: ", -1);
		dalic_tui_print(c, n, y++, vs, s->verdict_name, -1);
		/* the reason sentence, wrapped over the rows left above the comparison */
		if (s->verdict_reason)
			dalic_tui_wrap(c, 1, y, c.r.h, dalic_tui_style(TUI_S_DIM),
			               s->verdict_reason);
	}
	if (compare_rows)
		pane_queues_compare(app, all, all.r.h - compare_rows);
}

const tui_pane_class_t tui_pane_queues = {
    .title = "QUEUES",
    .draw = pane_queues_draw,
};
