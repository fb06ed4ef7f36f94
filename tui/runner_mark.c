/*
 * `m` / `M` in the workbench (issue 26, docs/tui.md): `m` keeps every operator's memory
 * counters — bytes live in its output buffers, buffer growths, allocations and their bytes —
 * and `M` shows what changed since, per operator, in place of OPERATORS. The full engine's
 * counters come from its collector's stats document (stats/growth.c, as the attached view
 * reads them); the debug engine's from the session's own mark (dalic_debug_mark / _since).
 * A mark belongs to the engine and the pipeline it was taken on: a rebuild or an engine
 * switch forgets it.
 */
#include "stats/growth.h"
#include "tui/runner_impl.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The full engine's stats document now, or NULL. */
static cJSON *runner_mark_document(tui_runner_t *r)
{
	dalic_stats_snapshot_t *snap = dalic_tui_runner_snapshot(r);
	char *text = snap ? dalic_stats_json(snap) : NULL;
	dalic_stats_snapshot_free(snap);
	cJSON *doc = text ? cJSON_Parse(text) : NULL;
	free(text);
	return doc;
}

static int64_t runner_mark_iteration(tui_runner_t *r)
{
	if (r->engine == TUI_ENGINE_FULL || !r->dbg)
		return r->full_iteration;
	dalic_debug_status_t st;
	dalic_debug_status(r->dbg, &st);
	return st.iteration;
}

void dalic_tui_mark_forget(tui_runner_t *r)
{
	if (r->mark)
		dalic_growth_free(r->mark);
	free(r->mark);
	r->mark = NULL;
	r->marked = r->since_shown = false;
}

void dalic_tui_mark(tui_runner_t *r)
{
	dalic_tui_mark_forget(r);
	int rc = DALIC_ESTATE;
	if (r->engine == TUI_ENGINE_DEBUG && r->dbg) {
		rc = dalic_debug_mark(r->dbg);
	} else if (r->engine == TUI_ENGINE_FULL && r->pipe) {
		cJSON *doc = runner_mark_document(r);
		r->mark = calloc(1, sizeof *r->mark);
		rc = doc && r->mark ? dalic_growth_mark(doc, r->mark) : DALIC_ENOMEM;
		cJSON_Delete(doc);
	}
	if (rc) {
		dalic_tui_mark_forget(r);
		dalic_tui_runner_fail(r, "mark: no pipeline to read the memory counters of");
		return;
	}
	r->marked = true;
	r->mark_engine = r->engine;
	r->mark_iteration = runner_mark_iteration(r);
	dalic_tui_runner_note(r, "marked the memory counters at iteration %lld: M shows what grew",
	                      (long long)r->mark_iteration);
}

void dalic_tui_mark_toggle_since(tui_runner_t *r)
{
	if (!r->marked) {
		dalic_tui_runner_note(r, "no mark yet: m marks the memory counters");
		return;
	}
	r->since_shown = !r->since_shown;
}

static void runner_mark_row(tui_model_t *m, const char *name, int64_t live, int64_t growths,
                            int64_t allocs, int64_t bytes)
{
	if (m->num_since >= TUI_MAX_SINCE)
		return;
	tui_since_row_t *row = &m->since[m->num_since++];
	*row = (tui_since_row_t){.bytes_live = live,
	                         .growth_events = growths,
	                         .allocations = allocs,
	                         .allocated_bytes = bytes};
	snprintf(row->name, sizeof row->name, "%s", name);
}

void dalic_tui_mark_fill(tui_runner_t *r, tui_model_t *m)
{
	m->marked = r->marked;
	m->since_shown = r->since_shown;
	m->mark_iteration = r->mark_iteration;
	if (!r->since_shown)
		return;
	if (r->mark_engine == TUI_ENGINE_DEBUG && r->dbg) {
		const dalic_debug_growth_t *rows;
		int n;
		if (dalic_debug_since(r->dbg, &m->since_iterations, &rows, &n))
			return;
		for (int i = 0; i < n; i++)
			runner_mark_row(m, rows[i].op, rows[i].bytes_live, rows[i].growth_events,
			                rows[i].allocations, rows[i].allocated_bytes);
		return;
	}
	cJSON *doc = r->mark ? runner_mark_document(r) : NULL;
	dalic_growth_t g;
	if (doc && !dalic_growth_since(r->mark, doc, &g)) {
		m->since_iterations = g.iterations;
		for (int i = 0; i < g.num_rows; i++)
			runner_mark_row(m, g.rows[i].name, g.rows[i].bytes_live,
			                g.rows[i].growth_events, g.rows[i].allocations,
			                g.rows[i].allocated_bytes);
		dalic_growth_free(&g);
	}
	cJSON_Delete(doc);
}
