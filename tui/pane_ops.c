/*
 * OPERATORS pane: one row per operator — instance, schema, device, mean and p99 time, share
 * of the iteration, real / reserved memory (DALI's executor_statistics), the suggested
 * bytes_per_sample_hint, allocations and data-quality warnings (issue 20) — sortable by most
 * of them, with the slowest operator
 * named on the last line. In the full engine the numbers come from the stats snapshot; in
 * the debug engine from the runner's own timings (memory is then the bytes of the outputs'
 * last batches; reserved, hint and allocations are unknown and shown as "-").
 * Columns are a const table; when the pane is narrow, lower-priority columns are left out
 * (zoom shows them all).
 */
#include "tui/app.h"

#include "tui/keys.h"
#include "tui/theme.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct row {
	int node;
	const char *name, *schema;
	int stage;
	bool internal;
	double mean_ns, share;
	int64_t p99_ns, real, reserved, hint, allocs;
	int64_t warnings; /* data-quality warnings (issue 20); -1 unknown */
	double cpu_ns;    /* CPU time per run (stage thread + workers); -1 unknown */
	double gpu_ns;    /* GPU time per run of its kernels on a device; -1 none ran */
} row_t;

typedef struct column {
	const char *title;
	int width, priority, sort;
	bool left;
	void (*cell)(const row_t *r, char buf[32]);
} column_t;

static void pane_ops_c_name(const row_t *r, char b[32])
{
	snprintf(b, 32, "%s", r->name);
}
static void pane_ops_c_schema(const row_t *r, char b[32])
{
	snprintf(b, 32, "%s", r->schema);
}
static void pane_ops_c_dev(const row_t *r, char b[32])
{
	static const char *names[] = {"cpu", "mixed", "gpu"};
	snprintf(b, 32, "%s", names[r->stage >= 0 && r->stage < 3 ? r->stage : 0]);
}
static void pane_ops_c_mean(const row_t *r, char b[32])
{
	char t[16];
	snprintf(b, 32, "%s", dalic_tui_fmt_ns(r->mean_ns, t));
}
static void pane_ops_c_p99(const row_t *r, char b[32])
{
	char t[16];
	snprintf(b, 32, "%s", dalic_tui_fmt_ns((double)r->p99_ns, t));
}
/* An operator whose kernels ran on a device shows their GPU time, marked "g" (its CPU time
 * is only the launch and the wait). */
static void pane_ops_c_cpu(const row_t *r, char b[32])
{
	char t[16];
	if (r->gpu_ns >= 0)
		snprintf(b, 32, "g%s", dalic_tui_fmt_ns(r->gpu_ns, t));
	else
		snprintf(b, 32, "%s", r->cpu_ns >= 0 ? dalic_tui_fmt_ns(r->cpu_ns, t) : "-");
}
static void pane_ops_c_share(const row_t *r, char b[32])
{
	snprintf(b, 32, r->share >= 0 ? "%.1f%%" : "-", r->share * 100);
}
static void pane_ops_c_real(const row_t *r, char b[32])
{
	char t[16];
	snprintf(b, 32, "%s", dalic_tui_fmt_bytes(r->real, t));
}
static void pane_ops_c_reserved(const row_t *r, char b[32])
{
	char t[16];
	snprintf(b, 32, "%s", dalic_tui_fmt_bytes(r->reserved, t));
}
static void pane_ops_c_hint(const row_t *r, char b[32])
{
	char t[16];
	snprintf(b, 32, "%s", dalic_tui_fmt_bytes(r->hint, t));
}
static void pane_ops_c_allocs(const row_t *r, char b[32])
{
	if (r->allocs < 0)
		snprintf(b, 32, "-");
	else
		snprintf(b, 32, "%lld", (long long)r->allocs);
}

static void pane_ops_c_warn(const row_t *r, char b[32])
{
	if (r->warnings < 0)
		snprintf(b, 32, "-");
	else
		snprintf(b, 32, "%lld", (long long)r->warnings);
}

/* Display order; priority 0 is kept longest. */
static const column_t columns[] = {
    {.title = "operator",
     .width = 14,
     .priority = 0,
     .sort = TUI_SORT_NAME,
     .left = true,
     .cell = pane_ops_c_name},
    {.title = "schema",
     .width = 14,
     .priority = 9,
     .sort = -1,
     .left = true,
     .cell = pane_ops_c_schema},
    {.title = "dev", .width = 5, .priority = 6, .sort = -1, .left = true, .cell = pane_ops_c_dev},
    {.title = "mean", .width = 8, .priority = 1, .sort = TUI_SORT_MEAN, .cell = pane_ops_c_mean},
    {.title = "p99", .width = 8, .priority = 5, .sort = TUI_SORT_P99, .cell = pane_ops_c_p99},
    /* last: the zoomed pane of a 100-column screen keeps the older columns */
    {.title = "cpu", .width = 8, .priority = 11, .sort = -1, .cell = pane_ops_c_cpu},
    {.title = "share", .width = 6, .priority = 2, .sort = TUI_SORT_SHARE, .cell = pane_ops_c_share},
    {.title = "real", .width = 7, .priority = 3, .sort = TUI_SORT_REAL, .cell = pane_ops_c_real},
    {.title = "reserved",
     .width = 8,
     .priority = 4,
     .sort = TUI_SORT_RESERVED,
     .cell = pane_ops_c_reserved},
    {.title = "hint", .width = 7, .priority = 7, .sort = TUI_SORT_HINT, .cell = pane_ops_c_hint},
    {.title = "allocs",
     .width = 6,
     .priority = 8,
     .sort = TUI_SORT_ALLOCS,
     .cell = pane_ops_c_allocs},
    {.title = "warn", .width = 5, .priority = 10, .sort = -1, .cell = pane_ops_c_warn},
};
#define NCOLS (int)(sizeof columns / sizeof columns[0])
#define NAME_MAX_W 26

static int pane_ops_rows_full(const tui_app_t *app, row_t *rows)
{
	const dalic_stats_snapshot_t *s = app->stats;
	const tui_graph_t *g = app->model->graph;
	int n = 0;
	for (int i = 0; s && i < s->num_operators; i++) {
		const dalic_stats_operator_t *op = &s->operators[i];
		row_t *r = &rows[n++];
		*r = (row_t){.node = dalic_tui_graph_find(g, op->name),
		             .name = op->name,
		             .schema = op->op,
		             .stage = op->stage,
		             .internal = op->internal,
		             .mean_ns = op->time.mean_ns,
		             .share = op->share,
		             .p99_ns = op->time.p99_ns,
		             .real = s->memory_stats ? 0 : -1,
		             .reserved = s->memory_stats ? 0 : -1,
		             .warnings = op->warnings,
		             .cpu_ns = op->time.count > 0
		                           ? (double)op->cpu_ns / (double)op->time.count
		                           : -1,
		             .gpu_ns = op->gpu_runs > 0
		                           ? (double)op->gpu_ns / (double)op->gpu_runs
		                           : -1};
		for (int o = 0; o < op->num_outputs; o++) {
			const dalic_stats_output_t *out = &op->outputs[o];
			if (s->memory_stats) {
				r->real += out->real_memory_size;
				r->reserved += out->reserved_memory_size;
			}
			if (out->suggested_hint > r->hint)
				r->hint = out->suggested_hint;
			r->allocs += out->allocations;
		}
	}
	return n;
}

static int pane_ops_rows_debug(const tui_app_t *app, row_t *rows)
{
	const tui_model_t *m = app->model;
	const tui_graph_t *g = m->graph;
	double total = 0;
	for (int i = 0; i < m->num_debug_ops; i++)
		total += m->debug_ops[i].mean_ns;
	int n = 0;
	for (int i = 0; g && i < g->num_nodes && i < m->num_debug_ops; i++) {
		const tui_debug_op_t *d = &m->debug_ops[i];
		rows[n++] = (row_t){.node = i,
		                    .name = g->nodes[i].name,
		                    .schema = g->nodes[i].schema,
		                    .stage = g->nodes[i].stage,
		                    .internal = g->nodes[i].internal,
		                    .mean_ns = d->mean_ns,
		                    .share = total > 0 ? d->mean_ns / total : -1,
		                    .p99_ns = d->p99_ns,
		                    .real = d->runs ? d->bytes : -1,
		                    .reserved = -1,
		                    .hint = -1,
		                    .allocs = -1,
		                    .warnings = -1,
		                    .cpu_ns = -1,
		                    .gpu_ns = -1};
	}
	return n;
}

static int sort_key, sort_desc;

static int pane_ops_cmp_rows(const void *pa, const void *pb)
{
	const row_t *a = pa, *b = pb;
	double x = 0, y = 0;
	switch (sort_key) {
	case TUI_SORT_NAME: {
		int c = strcmp(a->name, b->name);
		return sort_desc ? -c : c;
	}
	case TUI_SORT_MEAN:
		x = a->mean_ns, y = b->mean_ns;
		break;
	case TUI_SORT_P99:
		x = (double)a->p99_ns, y = (double)b->p99_ns;
		break;
	case TUI_SORT_SHARE:
		x = a->share, y = b->share;
		break;
	case TUI_SORT_REAL:
		x = (double)a->real, y = (double)b->real;
		break;
	case TUI_SORT_RESERVED:
		x = (double)a->reserved, y = (double)b->reserved;
		break;
	case TUI_SORT_HINT:
		x = (double)a->hint, y = (double)b->hint;
		break;
	case TUI_SORT_ALLOCS:
		x = (double)a->allocs, y = (double)b->allocs;
		break;
	default:
		x = a->node, y = b->node; /* execution order (stable by construction) */
	}
	int c = (x > y) - (x < y);
	return sort_desc ? -c : c;
}

/* Rows in display order; returns the count. *out is new (free). */
static int pane_ops_sorted_rows(const tui_app_t *app, row_t **out)
{
	int cap = (app->stats ? app->stats->num_operators : 0) +
	          (app->model->graph ? app->model->graph->num_nodes : 0) + 1;
	row_t *rows = calloc((size_t)cap, sizeof *rows);
	if (!rows) {
		*out = NULL;
		return 0;
	}
	int n = app->model->engine == TUI_ENGINE_FULL ? pane_ops_rows_full(app, rows)
	                                              : pane_ops_rows_debug(app, rows);
	sort_key = app->sort;
	sort_desc = app->sort_desc;
	qsort(rows, (size_t)n, sizeof *rows, pane_ops_cmp_rows);
	*out = rows;
	return n;
}

/* Picks the columns that fit `width`, by priority; returns the name column's width. */
static int pane_ops_pick_columns(int width, bool *shown)
{
	int order[NCOLS];
	for (int i = 0; i < NCOLS; i++)
		order[columns[i].priority] = i;
	int used = 0;
	for (int p = 0; p < NCOLS; p++) {
		int i = order[p];
		shown[i] = used + columns[i].width + 1 <= width;
		if (shown[i])
			used += columns[i].width + 1;
	}
	int name_w = columns[0].width + width - used;
	return name_w > NAME_MAX_W ? NAME_MAX_W : name_w;
}

/* M: what each operator's outputs grew and allocated since the mark (runner_mark.c). */
static void pane_ops_since(const tui_model_t *m, tui_canvas_t c)
{
	char title[120];
	snprintf(title, sizeof title,
	         "SINCE MARK at iteration %lld (%lld iterations): M back to the operators",
	         (long long)m->mark_iteration, (long long)m->since_iterations);
	dalic_tui_fill(c, (tui_rect_t){0, 0, c.r.w, 1}, ' ', dalic_tui_style(TUI_S_HEADER));
	dalic_tui_print(c, 0, 0, dalic_tui_style(TUI_S_HEADER), title, c.r.w);
	int name_w = c.r.w - 44 > 12 ? c.r.w - 44 : 12;
	dalic_tui_printf(c, 0, 1, dalic_tui_style(TUI_S_DIM), "%-*.*s %11s %7s %7s %11s", name_w,
	                 name_w, "operator", "bytes live", "growths", "allocs", "bytes alloc");
	int y = 2;
	for (int i = 0; i < m->num_since && y < c.r.h; i++, y++) {
		const tui_since_row_t *r = &m->since[i];
		bool grew = r->bytes_live > 0 || r->growth_events > 0;
		dalic_tui_printf(c, 0, y, dalic_tui_style(grew ? TUI_S_WARN : TUI_S_NORMAL),
		                 "%-*.*s %+11lld %7lld %7lld %11lld", name_w, name_w, r->name,
		                 (long long)r->bytes_live, (long long)r->growth_events,
		                 (long long)r->allocations, (long long)r->allocated_bytes);
	}
}

static void pane_ops_draw(tui_app_t *app, tui_canvas_t c)
{
	if (app->model->since_shown) {
		pane_ops_since(app->model, c);
		return;
	}
	row_t *rows;
	int n = pane_ops_sorted_rows(app, &rows);
	bool shown[NCOLS];
	int name_w = pane_ops_pick_columns(c.r.w, shown);
	dalic_tui_fill(c, (tui_rect_t){0, 0, c.r.w, 1}, ' ', dalic_tui_style(TUI_S_HEADER));
	int x = 0;
	for (int i = 0; i < NCOLS; i++) {
		if (!shown[i])
			continue;
		int w = i == 0 ? name_w : columns[i].width;
		char title[40];
		bool sorted = columns[i].sort == app->sort && app->sort != TUI_SORT_ORDER;
		snprintf(title, sizeof title, "%s%s", columns[i].title,
		         sorted ? (app->sort_desc ? "\xe2\x96\xbc" : "\xe2\x96\xb2") : "");
		int tw = dalic_tui_text_width(title);
		dalic_tui_print(c, columns[i].left ? x : x + w - tw, 0,
		                dalic_tui_style(TUI_S_HEADER), title, w);
		x += w + 1;
	}
	int body = c.r.h - 2; /* header + the "slowest" line */
	int sel = -1;
	for (int r = 0; r < n; r++)
		if (!strcmp(rows[r].name, app->sel_op))
			sel = r;
	if (sel >= 0 && sel < app->ops_scroll)
		app->ops_scroll = sel;
	if (sel >= 0 && body > 0 && sel >= app->ops_scroll + body)
		app->ops_scroll = sel - body + 1;
	if (app->ops_scroll > n - body)
		app->ops_scroll = n - body;
	if (app->ops_scroll < 0)
		app->ops_scroll = 0;
	for (int r = app->ops_scroll, y = 1; r < n && y <= body; r++, y++) {
		const row_t *row = &rows[r];
		bool failed = app->model->error.set && !strcmp(app->model->error.op, row->name);
		tui_style_t st = r == sel        ? dalic_tui_style(TUI_S_SELECTED)
		                 : failed        ? dalic_tui_style(TUI_S_ERROR)
		                 : row->internal ? dalic_tui_style(TUI_S_DIM)
		                                 : dalic_tui_style(TUI_S_NORMAL);
		if (r == sel)
			dalic_tui_fill(c, (tui_rect_t){0, y, c.r.w, 1}, ' ', st);
		x = 0;
		for (int i = 0; i < NCOLS; i++) {
			if (!shown[i])
				continue;
			int w = i == 0 ? name_w : columns[i].width;
			char text[32];
			columns[i].cell(row, text);
			int tw = dalic_tui_text_width(text);
			tui_style_t cs = st;
			if (i == 2 && r != sel && !failed)
				cs = dalic_tui_stage_style(row->stage);
			dalic_tui_print(c, columns[i].left || tw > w ? x : x + w - tw, y, cs, text,
			                w);
			if (tw > w) /* say that it was cut */
				dalic_tui_put(c, x + w - 1, y, 0x2026, cs);
			x += w + 1;
		}
	}
	/* the answer to "which operator is slowest" */
	const dalic_stats_snapshot_t *s = app->stats;
	char line[256] = "";
	if (s && s->bottleneck_operator >= 0 && s->operators[s->bottleneck_operator].time.count) {
		const dalic_stats_operator_t *op = &s->operators[s->bottleneck_operator];
		char t[16], cpu[16];
		snprintf(line, sizeof line, "slowest: %s (%s) %s, %.0f%% of the work, cpu %s",
		         op->name, op->op, dalic_tui_fmt_ns(op->time.mean_ns, t), op->share * 100,
		         dalic_tui_fmt_ns((double)op->cpu_ns / (double)op->time.count, cpu));
	} else if (!s) {
		int best = -1;
		for (int r = 0; r < n; r++)
			if (rows[r].mean_ns > 0 &&
			    (best < 0 || rows[r].mean_ns > rows[best].mean_ns))
				best = r;
		if (best >= 0) {
			char t[16];
			snprintf(line, sizeof line, "slowest: %s (%s) %s per run", rows[best].name,
			         rows[best].schema, dalic_tui_fmt_ns(rows[best].mean_ns, t));
		}
	}
	if (!*line)
		snprintf(line, sizeof line, "no timings yet: n runs an iteration");
	dalic_tui_print(c, 0, c.r.h - 1, dalic_tui_style(TUI_S_WARN), line, -1);
	free(rows);
}

static unsigned pane_ops_key(tui_app_t *app, int k)
{
	if (k == TUI_KEY_LEFT || k == TUI_KEY_RIGHT) {
		app->sort =
		    (app->sort + (k == TUI_KEY_RIGHT ? 1 : TUI_SORT_COUNT - 1)) % TUI_SORT_COUNT;
		app->sort_desc = app->sort != TUI_SORT_ORDER && app->sort != TUI_SORT_NAME;
		return TUI_HANDLED | TUI_REDRAW;
	}
	row_t *rows;
	int n = pane_ops_sorted_rows(app, &rows);
	int sel = 0;
	for (int r = 0; r < n; r++)
		if (!strcmp(rows[r].name, app->sel_op))
			sel = r;
	int page = app->panes[TUI_PANE_OPS].h - 4;
	if (page < 1)
		page = 1;
	switch (k) {
	case TUI_KEY_UP:
		sel--;
		break;
	case TUI_KEY_DOWN:
		sel++;
		break;
	case TUI_KEY_PGUP:
		sel -= page;
		break;
	case TUI_KEY_PGDN:
		sel += page;
		break;
	case TUI_KEY_HOME:
		sel = 0;
		break;
	case TUI_KEY_END:
		sel = n - 1;
		break;
	}
	if (sel >= n)
		sel = n - 1;
	if (sel < 0)
		sel = 0;
	unsigned flags = TUI_HANDLED | TUI_REDRAW;
	if (n && rows[sel].node >= 0) {
		dalic_tui_app_select_node(app, rows[sel].node);
		flags |= TUI_SELECT;
	}
	free(rows);
	return flags;
}

const tui_pane_class_t tui_pane_ops = {
    .title = "OPERATORS",
    .draw = pane_ops_draw,
    .key = pane_ops_key,
};
