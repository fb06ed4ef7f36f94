/*
 * The full engine in the runner: build a pipeline with a stats collector attached, run it
 * one iteration per call, copy a window of its outputs for the batch pane, and save reports.
 *
 * Order at teardown matters (dalic_stats.h): the UI stops seeing the collector first (so no
 * snapshot can run while the pipeline goes away), then the pipeline is destroyed (joining
 * every executor thread), then the collector is told and freed.
 */
#include "cli/feed.h"
#include "tui/runner_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *runner_full_dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

static tui_graph_t *runner_full_graph_from_built(const dalic_pipeline_t *p)
{
	int nn = dalic_pipeline_graph_size(p), ne = 0, no = dalic_pipeline_num_outputs(p);
	dalic_graph_op_t op;
	for (int i = 0; i < nn; i++)
		if (!dalic_pipeline_graph_op(p, i, &op))
			ne += op.num_inputs;
	tui_graph_t *t = dalic_tui_graph_new(nn, ne, no);
	if (!t)
		return NULL;
	for (int i = 0; i < nn && !dalic_pipeline_graph_op(p, i, &op); i++) {
		tui_gnode_t *tn = &t->nodes[t->num_nodes++];
		tn->name = runner_full_dup_or_empty(op.name);
		tn->schema = runner_full_dup_or_empty(op.schema);
		tn->stage = op.stage;
		tn->internal = op.internal;
		tn->outputs = calloc((size_t)op.num_outputs + 1, sizeof *tn->outputs);
		for (int o = 0; tn->outputs && o < op.num_outputs; o++)
			tn->outputs[tn->num_outputs++] =
			    runner_full_dup_or_empty(dalic_pipeline_graph_output(p, i, o));
		for (int k = 0; k < op.num_inputs; k++) {
			dalic_graph_input_t in;
			if (!dalic_pipeline_graph_input(p, i, k, &in) && in.producer >= 0)
				t->edges[t->num_edges++] =
				    (tui_gedge_t){in.producer, i, in.arg != NULL};
		}
	}
	for (int i = 0; i < no; i++)
		t->outputs[t->num_outputs++] =
		    runner_full_dup_or_empty(dalic_pipeline_output_name(p, i));
	return t;
}

static void runner_full_forget_stats(tui_runner_t *r, dalic_stats_t **s)
{
	pthread_mutex_lock(&r->stats_lock);
	*s = r->stats;
	r->stats = NULL;
	pthread_mutex_unlock(&r->stats_lock);
}

void dalic_tui_full_close(tui_runner_t *r)
{
	dalic_stats_t *s;
	runner_full_forget_stats(r, &s);
	dalic_pipeline_destroy(r->pipe);
	r->pipe = NULL;
	dalic_cli_feeds_close(r->full_feeds);
	r->full_feeds = NULL;
	if (s) {
		dalic_stats_pipeline_destroyed(s);
		dalic_stats_destroy(s);
	}
	dalic_tui_graph_unref(r->full_graph);
	r->full_graph = NULL;
	r->pipe_failed = r->has_outputs = false;
	r->full_iteration = 0;
}

int dalic_tui_full_open(tui_runner_t *r)
{
	dalic_pipeline_t *p;
	int rc = dalic_tui_runner_instantiate(r, &p);
	if (rc)
		return rc;
	dalic_stats_options_t o;
	dalic_stats_options_init(&o);
	/* Trace events cost the collector a few hundred ns per operator run — up to a tenth of
	 * the throughput of a pipeline of tiny operators — so they are recorded on request. */
	o.trace = r->trace;
	o.trace_capacity = 65536;
	dalic_stats_t *s = NULL;
	rc = dalic_stats_create(p, &o, &s);
	/* --feed: the sources are set (and the pipeline built) once the collector is attached */
	bool feed_failed = false;
	if (!rc && r->opts.num_feeds) {
		dalic_cli_feeds_close(r->full_feeds);
		r->full_feeds = NULL;
		feed_failed = dalic_cli_feeds_open(r->opts.feeds, r->opts.num_feeds,
		                                   r->params.batch_size, &r->full_feeds) ||
		              dalic_cli_feeds_attach(r->full_feeds, p);
		rc = feed_failed ? DALIC_EINVAL : DALIC_OK;
	}
	bool ckpt_failed = false;
	if (!rc && (rc = dalic_tui_ckpt_restore_full(r, p)))
		ckpt_failed = true; /* its error is on screen */
	if (!rc)
		rc = dalic_pipeline_build(p);
	if (!rc && (rc = dalic_tui_ckpt_seek_full(r, p)))
		ckpt_failed = true;
	if (rc) {
		if (!ckpt_failed)
			dalic_tui_runner_fail(r, feed_failed ? dalic_cli_feed_error()
			                                     : dalic_last_error());
		dalic_pipeline_destroy(p);
		if (s) {
			dalic_stats_pipeline_destroyed(s);
			dalic_stats_destroy(s);
		}
		return rc;
	}
	r->pipe = p;
	r->full_graph = runner_full_graph_from_built(p);
	pthread_mutex_lock(&r->stats_lock);
	r->stats = s;
	pthread_mutex_unlock(&r->stats_lock);
	dalic_stats_snapshot_t *snap;
	if (!dalic_stats_snapshot(s, &snap)) {
		r->emulated = snap->emulated_device;
		snprintf(r->executor, sizeof r->executor, "%s", snap->executor_mode);
		dalic_stats_snapshot_free(snap);
	}
	return DALIC_OK;
}

int dalic_tui_full_iterate(tui_runner_t *r, int *samples)
{
	if (samples)
		*samples = 0;
	if (!r->pipe)
		return DALIC_ESTATE;
	int rc = dalic_pipeline_run(r->pipe);
	if (rc == DALIC_EEND) {
		/* End of data: start the next epoch; two ends in a row mean there is no data. */
		bool again = r->has_outputs == false && r->epochs > 0;
		r->has_outputs = false;
		r->epochs++;
		int rrc = dalic_pipeline_reset(r->pipe);
		if (rrc || again) {
			r->ended = true;
			r->running = false;
			dalic_tui_runner_note(r, "end of data after %lld iterations",
			                      (long long)r->full_iteration);
		}
		return rc;
	}
	if (rc) {
		dalic_tui_runner_fail(r, dalic_last_error());
		r->pipe_failed = true;
		r->has_outputs = false;
		return rc;
	}
	r->error.set = false;
	r->has_outputs = true;
	r->full_iteration++;
	if (samples && dalic_pipeline_num_outputs(r->pipe))
		*samples = dalic_batch_num_samples(dalic_pipeline_output(r->pipe, 0));
	return DALIC_OK;
}

static tui_batch_view_t *runner_full_note_view(const char *fmt, const char *a, const char *b)
{
	tui_batch_view_t *v = dalic_tui_batch_view_new(0);
	if (v)
		snprintf(v->note, sizeof v->note, fmt, a, b);
	return v;
}

/* Marks the view's samples that the pipeline warned about in the shown iteration (issue 20):
 * the operator and message of the first warning, "(+N)" when there are more. */
static void runner_full_mark_warnings(const dalic_pipeline_t *p, tui_batch_view_t *v)
{
	int64_t n = p && v ? dalic_pipeline_num_warnings(p) : 0;
	for (int k = 0; k < (v ? v->count : 0); k++) {
		tui_sample_view_t *s = &v->samples[k];
		int more = 0;
		char text[512] = "";
		for (int64_t i = 0; i < n; i++) {
			dalic_warning_t w;
			if (dalic_pipeline_warning(p, i, &w) || w.iteration != v->iteration ||
			    w.sample != s->index)
				continue;
			if (!text[0])
				snprintf(text, sizeof text, "%s: %s", w.op, w.message);
			else
				more++;
		}
		if (more) {
			size_t len = strlen(text);
			snprintf(text + len, sizeof text - len, " (+%d)", more);
		}
		s->warning = text[0] ? strdup(text) : NULL;
	}
}

void dalic_tui_full_extract(tui_runner_t *r)
{
	tui_batch_view_t *v = NULL;
	const tui_graph_t *g = r->full_graph;
	if (!r->pipe || !g) {
		v = runner_full_note_view(
		    "%s%s", r->error.set ? "the pipeline failed: see the error" : "not built", "");
	} else if (!r->has_outputs) {
		v = runner_full_note_view(
		    "%s%s", "no iteration yet: n runs one, Space runs continuously", "");
	} else {
		int idx = dalic_tui_graph_find(g, r->sel_op);
		const tui_gnode_t *n = idx >= 0 ? &g->nodes[idx] : NULL;
		int out = n && r->sel_output < n->num_outputs ? r->sel_output : 0;
		const char *node = n && n->num_outputs ? n->outputs[out] : NULL;
		int which = -1;
		for (int i = 0; node && i < g->num_outputs; i++)
			if (!strcmp(g->outputs[i], node))
				which = i;
		int shown = which >= 0 ? which : 0;
		const dalic_batch_t *b = dalic_pipeline_output(r->pipe, shown);
		/* real device memory cannot be read from here; the debug engine copies it out */
		bool on_device = !strcmp(dalic_batch_device(b), "gpu") && !r->emulated;
		v = on_device ? dalic_tui_batch_view_new(0)
		              : dalic_tui_extract(b, r->sel_sample, r->sel_window);
		if (v && on_device)
			snprintf(v->note, sizeof v->note,
			         "this output is in GPU memory: e switches to "
			         "the debug engine, which copies it out");
		if (v && !on_device)
			dalic_tui_overlay_boxes(v, r->pipe, shown, r->sel_window);
		if (v) {
			snprintf(v->node, sizeof v->node, "%s", g->outputs[shown]);
			snprintf(v->op, sizeof v->op, "%s", n ? n->name : "");
			v->output = out;
			v->num_op_outputs = n ? n->num_outputs : 0;
			v->iteration = r->full_iteration - 1;
			if (which < 0 && node)
				snprintf(
				    v->note, sizeof v->note,
				    "'%s' is not a pipeline output: the full engine keeps only "
				    "outputs (e switches to the debug engine, which keeps every "
				    "node)",
				    node);
		}
	}
	runner_full_mark_warnings(r->pipe, v);
	dalic_tui_batch_view_unref(r->batch);
	r->batch = v;
}

static int runner_full_mkdir_p(const char *dir)
{
	char path[512];
	snprintf(path, sizeof path, "%s", dir);
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(path, 0777) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(path, 0777) && errno != EEXIST ? -1 : 0;
}

static int runner_full_write_with(const char *dir, const char *name,
                                  const dalic_stats_snapshot_t *snap,
                                  int (*fn)(const dalic_stats_snapshot_t *, FILE *))
{
	char path[600];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	int rc = fn(snap, f);
	if (fclose(f))
		rc = -1;
	return rc;
}

int dalic_tui_full_save(tui_runner_t *r, const char *dir)
{
	char msg[700];
	if (!dir || !*dir)
		dir = "dalic-report";
	if (runner_full_mkdir_p(dir)) {
		snprintf(msg, sizeof msg, "cannot create %s: %s", dir, strerror(errno));
		dalic_tui_runner_fail(r, msg);
		return DALIC_EIO;
	}
	/* The debug engine has no collector: build (not run) a full pipeline for the graph. */
	if (!r->pipe && (!r->def || dalic_tui_full_open(r)))
		return DALIC_ESTATE;
	dalic_stats_snapshot_t *snap;
	int rc = dalic_stats_snapshot(r->stats, &snap);
	if (rc) {
		dalic_tui_runner_fail(r, dalic_last_error());
		return rc;
	}
	char path[600];
	const char *failed = NULL;
	if (runner_full_write_with(dir, "stats.json", snap, dalic_stats_write_json))
		failed = "stats.json";
	else if (runner_full_write_with(dir, "report.txt", snap, dalic_stats_write_report))
		failed = "report.txt";
	dalic_stats_snapshot_free(snap);
	snprintf(path, sizeof path, "%s/trace.json", dir);
	if (!failed && r->trace && dalic_stats_save_trace(r->stats, path))
		failed = "trace.json";
	snprintf(path, sizeof path, "%s/graph.dot", dir);
	if (!failed && dalic_pipeline_save_graph(r->pipe, path, DALIC_DOT_USE_COLORS))
		failed = "graph.dot";
	if (failed) {
		snprintf(msg, sizeof msg, "cannot write %s/%s: %s", dir, failed,
		         dalic_last_error());
		dalic_tui_runner_fail(r, msg);
		return DALIC_EIO;
	}
	return DALIC_OK;
}
