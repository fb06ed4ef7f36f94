/*
 * `dalic tui --ranks DIR`: a merged statistics directory (docs/scale-out.md) opened read-only
 * — the RANKS pane (one row per rank, stragglers marked, ↑/↓ select) over the selected rank's
 * operators and the summary (imbalance, stragglers, coverage). Nothing runs; the numbers are
 * stats-merge's (cli/stats_merge.h). Headless with --keys/--dump like the workbench.
 */
#include "tui/ranks_view.h"

#include "cli/stats_merge.h"
#include "tui/keys.h"
#include "tui/term.h"
#include "tui/theme.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct rview {
	const char *dir;
	cJSON *m; /* the merged document */
	int sel, nranks;
	tui_screen_t screen;
} rview_t;

static double rview_num(const cJSON *o, const char *k)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(x) ? x->valuedouble : 0;
}

static const char *rview_str(const cJSON *o, const char *k)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));
	return s ? s : "?";
}

/* The RANKS pane: a row per rank. */
static void rview_draw_ranks(rview_t *v, tui_canvas_t c)
{
	char title[300];
	snprintf(title, sizeof title, "RANKS  %s  (read-only)", v->dir);
	dalic_tui_frame(c, title, dalic_tui_style(TUI_S_BORDER_FOCUS), true);
	tui_canvas_t in = dalic_tui_frame_inner(c);
	dalic_tui_printf(in, 0, 0, dalic_tui_style(TUI_S_HEADER), "  %-5s %-10s %8s %10s %-15s %-22s %8s",
	                 "rank", "host", "samples", "samples/s", "verdict", "bottleneck", "read");
	const cJSON *r;
	int y = 1;
	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(v->m, "ranks"))
	{
		bool strag = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "straggler"));
		tui_style_t st = dalic_tui_style(y - 1 == v->sel ? TUI_S_SELECTED
		                                 : strag        ? TUI_S_WARN
		                                                : TUI_S_NORMAL);
		dalic_tui_printf(in, 0, y, st, "%s%-5d %-10.10s %8.0f %10.1f %-15.15s %-22.22s %8.0f %s",
		                 y - 1 == v->sel ? "> " : "  ", (int)rview_num(r, "rank"), rview_str(r, "host"),
		                 rview_num(r, "samples"), rview_num(r, "samples_per_second"),
		                 rview_str(r, "verdict"), rview_str(r, "bottleneck"),
		                 rview_num(r, "samples_read"), strag ? "STRAGGLER" : "");
		y++;
	}
}

/* The selected rank's operators: mean time per run, and whether it is the slowest rank. */
static void rview_draw_ops(rview_t *v, tui_canvas_t c)
{
	const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(v->m, "ranks"), v->sel);
	int rank = (int)rview_num(row, "rank");
	char title[64];
	snprintf(title, sizeof title, "OPERATORS of rank %d", rank);
	dalic_tui_frame(c, title, dalic_tui_style(TUI_S_BORDER), false);
	tui_canvas_t in = dalic_tui_frame_inner(c);
	dalic_tui_printf(in, 0, 0, dalic_tui_style(TUI_S_HEADER), "%-36s %12s", "operator",
	                 "mean ms");
	const cJSON *op;
	int y = 1;
	cJSON_ArrayForEach(op, cJSON_GetObjectItemCaseSensitive(v->m, "operators"))
	{
		const cJSON *t = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(op, "mean_ns"),
		                                    v->sel);
		bool slowest = (int)rview_num(op, "slowest_rank") == rank && v->nranks > 1;
		if (cJSON_IsNumber(t))
			dalic_tui_printf(in, 0, y++, dalic_tui_style(slowest ? TUI_S_WARN : TUI_S_NORMAL),
			                 "%-36.36s %12.3f%s", rview_str(op, "name"), t->valuedouble * 1e-6,
			                 slowest ? "  slowest rank" : "");
	}
}

static void rview_draw_summary(rview_t *v, tui_canvas_t c)
{
	dalic_tui_frame(c, "SUMMARY", dalic_tui_style(TUI_S_BORDER), false);
	tui_canvas_t in = dalic_tui_frame_inner(c);
	const cJSON *im = cJSON_GetObjectItemCaseSensitive(v->m, "imbalance");
	const cJSON *ratio = cJSON_GetObjectItemCaseSensitive(im, "ratio");
	bool bad = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(im, "imbalanced"));
	char line[512];
	int n = snprintf(line, sizeof line, "world %d, ranks found %d; imbalance ",
	                 (int)rview_num(v->m, "world"), (int)rview_num(v->m, "ranks_found"));
	if (cJSON_IsNumber(ratio))
		n += snprintf(line + n, sizeof line - (size_t)n, "%.2f", ratio->valuedouble);
	else
		n += snprintf(line + n, sizeof line - (size_t)n, "infinite");
	snprintf(line + n, sizeof line - (size_t)n, " (slowest rank %d)%s; stragglers:",
	         (int)rview_num(im, "slowest_rank"), bad ? " IMBALANCED" : "");
	int x = dalic_tui_print(in, 0, 0, dalic_tui_style(bad ? TUI_S_WARN : TUI_S_GOOD), line, -1);
	const cJSON *s;
	cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(v->m, "stragglers"))
	x += dalic_tui_printf(in, x, 0, dalic_tui_style(TUI_S_WARN), " %d", (int)s->valuedouble);
	const cJSON *cov;
	int y = 1;
	cJSON_ArrayForEach(cov, cJSON_GetObjectItemCaseSensitive(v->m, "coverage"))
	{
		bool ok = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cov, "complete"));
		dalic_tui_printf(in, 0, y++, dalic_tui_style(ok ? TUI_S_GOOD : TUI_S_ERROR),
		                 "reader %s: %.0f samples, %d shards: %s", rview_str(cov, "reader"),
		                 rview_num(cov, "epoch_size"), (int)rview_num(cov, "num_shards"),
		                 ok ? "every sample in exactly one rank's shard"
		                    : "INCOMPLETE (dalic stats-merge says which shards)");
	}
}

static void rview_draw(rview_t *v)
{
	dalic_tui_screen_clear(&v->screen);
	tui_canvas_t all = dalic_tui_screen_canvas(&v->screen);
	int h = v->screen.h, w = v->screen.w;
	int top = v->nranks + 3 < h / 2 ? v->nranks + 3 : h / 2;
	int sum = 4;
	rview_draw_ranks(v, dalic_tui_canvas_sub(all, (tui_rect_t){0, 0, w, top}));
	rview_draw_ops(v, dalic_tui_canvas_sub(all, (tui_rect_t){0, top, w, h - top - sum - 1}));
	rview_draw_summary(v, dalic_tui_canvas_sub(all, (tui_rect_t){0, h - sum - 1, w, sum}));
	dalic_tui_print(all, 0, h - 1, dalic_tui_style(TUI_S_STATUS),
	                "Up/Down select a rank   q quit", -1);
}

/* A key: false when it quits. */
static bool rview_key(rview_t *v, int key)
{
	if (key == 'q' || key == TUI_KEY_ESC)
		return false;
	if (key == TUI_KEY_UP && v->sel > 0)
		v->sel--;
	if (key == TUI_KEY_DOWN && v->sel + 1 < v->nranks)
		v->sel++;
	return true;
}

static int rview_dump(rview_t *v, const char *dir, int *dumps)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/screen-%03d.txt", dir, ++*dumps);
	FILE *f = fopen(path, "w");
	int rc = f ? dalic_tui_screen_dump(&v->screen, f) : -1;
	if (f && fclose(f))
		rc = -1;
	if (rc)
		fprintf(stderr, "dalic tui: cannot write %s: %s\n", path, strerror(errno));
	return rc ? 1 : 0;
}

/* Headless: one key or `dump` per line of the script. */
static int rview_headless(rview_t *v, const char *keys, const char *dump)
{
	FILE *f = strcmp(keys, "-") ? fopen(keys, "r") : stdin;
	if (!f || (mkdir(dump, 0777) && errno != EEXIST)) {
		fprintf(stderr, "dalic tui: cannot open %s / create %s\n", keys, dump);
		if (f && f != stdin)
			fclose(f);
		return 2;
	}
	char line[256];
	int dumps = 0, rc = 0;
	bool going = true;
	while (!rc && going && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		rview_draw(v);
		if (!strcmp(line, "dump")) {
			rc = rview_dump(v, dump, &dumps);
			continue;
		}
		int key = dalic_tui_key_parse(line);
		if (key == TUI_KEY_NONE) {
			fprintf(stderr, "dalic tui: %s: '%s' is no key of the ranks view\n", keys, line);
			rc = 2;
		} else {
			going = rview_key(v, key);
		}
	}
	if (f != stdin)
		fclose(f);
	return rc;
}

static int rview_terminal(rview_t *v)
{
	if (dalic_tui_term_start() < 0) {
		fprintf(stderr, "dalic tui: needs a terminal (headless: --keys FILE --dump DIR)\n");
		return 2;
	}
	int w, h;
	bool going = true;
	while (going && !dalic_tui_term_interrupted()) {
		dalic_tui_term_size(&w, &h);
		if ((w != v->screen.w || h != v->screen.h) && !dalic_tui_screen_resize(&v->screen, w, h))
			break;
		rview_draw(v);
		dalic_tui_term_present(&v->screen);
		int key = dalic_tui_term_key(TUI_FRAME_MS * 10);
		if (key != TUI_KEY_NONE && key != TUI_KEY_RESIZE)
			going = rview_key(v, key);
	}
	dalic_tui_term_stop();
	return 0;
}

int dalic_tui_ranks_view(const char *dir, const char *keys, const char *dump, int w, int h)
{
	dalic_merge_set_t set;
	if (dalic_merge_load_dir(dir, &set))
		return 1;
	rview_t v = {.dir = dir, .m = dalic_merge_analyze(&set, DALIC_MERGE_TOLERANCE)};
	dalic_merge_free(&set);
	if (!v.m || !dalic_tui_screen_resize(&v.screen, w, h)) {
		cJSON_Delete(v.m);
		fprintf(stderr, "dalic tui: out of memory\n");
		return 1;
	}
	v.nranks = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(v.m, "ranks"));
	int rc = keys ? rview_headless(&v, keys, dump) : rview_terminal(&v);
	dalic_tui_screen_free(&v.screen);
	cJSON_Delete(v.m);
	return rc;
}
