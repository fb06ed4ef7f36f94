/*
 * The debug engine in the runner (dalic_debug.h): an eager session that steps one operator
 * or one iteration, keeps every data node's batch for the batch pane, and reports failures
 * with the operator, sample and file it stopped on. The session has no stats collector, so
 * the runner keeps each operator's recent run times itself to show mean and p99.
 */
#include "cli/feed.h"
#include "tui/runner_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tui_graph_t *runner_debug_graph_from_debug(dalic_debug_t *s)
{
	int n = dalic_debug_num_ops(s), ne = 0;
	dalic_debug_op_info_t *info = calloc((size_t)n + 1, sizeof *info);
	if (!info)
		return NULL;
	for (int i = 0; i < n; i++) {
		dalic_debug_op_info(s, i, &info[i]);
		ne += info[i].num_inputs;
	}
	tui_graph_t *g = dalic_tui_graph_new(n, ne, dalic_debug_num_outputs(s));
	for (int i = 0; g && i < n; i++) {
		tui_gnode_t *tn = &g->nodes[g->num_nodes++];
		tn->name = strdup(info[i].name);
		tn->schema = strdup(info[i].schema ? info[i].schema : "");
		tn->stage = !strcmp(info[i].device, "gpu") ? 2 : !strcmp(info[i].device, "mixed");
		tn->internal = info[i].internal;
		tn->outputs = calloc((size_t)info[i].num_outputs + 1, sizeof *tn->outputs);
		for (int o = 0; tn->outputs && o < info[i].num_outputs; o++)
			tn->outputs[tn->num_outputs++] = strdup(info[i].outputs[o]);
		/* Producers by node name: graphs are small, a scan is fine. */
		for (int k = 0; k < info[i].num_inputs; k++)
			for (int p = 0; p < i; p++)
				for (int o = 0; o < info[p].num_outputs; o++)
					if (!strcmp(info[p].outputs[o], info[i].inputs[k]))
						g->edges[g->num_edges++] = (tui_gedge_t){
						    p, i, info[i].input_args[k] != NULL};
	}
	for (int i = 0; g && i < dalic_debug_num_outputs(s); i++)
		g->outputs[g->num_outputs++] = strdup(dalic_debug_output_name(s, i));
	free(info);
	return g;
}

/* print() in a debug=True script: shown on the message line instead of garbling the screen. */
static void runner_debug_on_print(void *user, const char *text)
{
	tui_runner_t *r = user;
	const char *nl = strchr(text, '\n');
	int n = nl ? (int)(nl - text) : (int)strlen(text);
	dalic_tui_runner_note(r, "print: %.*s", n, text);
}

int dalic_tui_debug_open(tui_runner_t *r)
{
	dalic_pipeline_t *def;
	int rc = dalic_tui_runner_instantiate(r, &def);
	if (rc)
		return rc;
	dalic_debug_t *s;
	rc = dalic_debug_open(def, &s);
	dalic_pipeline_destroy(def);
	if (rc) {
		dalic_tui_runner_fail(r, dalic_last_error());
		return rc;
	}
	dalic_cli_feeds_close(r->debug_feeds);
	r->debug_feeds = NULL;
	if (r->opts.num_feeds &&
	    (dalic_cli_feeds_open(r->opts.feeds, r->opts.num_feeds, r->params.batch_size,
	                          &r->debug_feeds) ||
	     dalic_cli_feeds_attach_debug(r->debug_feeds, s))) {
		dalic_debug_close(s);
		dalic_tui_runner_fail(r, dalic_cli_feed_error());
		return DALIC_EINVAL;
	}
	dalic_debug_set_print(s, runner_debug_on_print, r);
	if (dalic_tui_ckpt_open_debug(r, s)) {
		dalic_debug_close(s);
		return DALIC_EINVAL;
	}
	r->dbg = s;
	r->debug_graph = runner_debug_graph_from_debug(s);
	r->num_hist = dalic_debug_num_ops(s);
	r->hist = calloc((size_t)r->num_hist + 1, sizeof *r->hist);
	return DALIC_OK;
}

void dalic_tui_debug_close(tui_runner_t *r)
{
	dalic_debug_close(r->dbg);
	r->dbg = NULL;
	dalic_cli_feeds_close(r->debug_feeds);
	r->debug_feeds = NULL;
	dalic_tui_graph_unref(r->debug_graph);
	r->debug_graph = NULL;
	free(r->hist);
	r->hist = NULL;
	r->num_hist = 0;
}

static void runner_debug_record_times(tui_runner_t *r)
{
	for (int i = 0; i < r->num_hist; i++) {
		dalic_debug_op_info_t info;
		if (dalic_debug_op_info(r->dbg, i, &info))
			continue;
		tui_op_hist_t *h = &r->hist[i];
		if (info.runs <= h->runs_seen) {
			h->runs_seen = info.runs; /* restarted */
			continue;
		}
		h->runs_seen = info.runs;
		h->ring[h->head] = info.last_ns;
		h->head = (h->head + 1) % TUI_P99_RING;
		if (h->n < TUI_P99_RING)
			h->n++;
	}
}

int dalic_tui_debug_run(tui_runner_t *r, bool one_op, int *samples)
{
	if (samples)
		*samples = 0;
	if (!r->dbg)
		return DALIC_ESTATE;
	int rc = one_op ? dalic_debug_step(r->dbg) : dalic_debug_next(r->dbg);
	dalic_debug_status_t st;
	dalic_debug_status(r->dbg, &st);
	runner_debug_record_times(r);
	r->batch_dirty = true;
	if (rc == DALIC_EOP) {
		dalic_tui_runner_fail(r, dalic_debug_last_error(r->dbg));
		if (st.stop_op)
			snprintf(r->error.op, sizeof r->error.op, "%s", st.stop_op);
		if (st.stop_sample >= 0)
			r->error.sample = st.stop_sample;
		if (st.stop_source)
			snprintf(r->error.source, sizeof r->error.source, "%s", st.stop_source);
		return rc;
	}
	if (rc == DALIC_EEND) {
		r->ended = true;
		r->running = false;
		dalic_tui_runner_note(r, "end of data after %lld iterations",
		                      (long long)st.iterations_done);
		return rc;
	}
	if (rc) {
		dalic_tui_runner_fail(r, dalic_debug_last_error(r->dbg));
		return rc;
	}
	r->error.set = false;
	if (st.next_op == st.num_ops && samples)
		*samples = st.batch_size;
	if (st.stop != DALIC_DEBUG_STOP_STEP && st.stop != DALIC_DEBUG_STOP_NONE)
		r->running = false; /* a breakpoint or condition: stay there */
	return DALIC_OK;
}

void dalic_tui_debug_extract(tui_runner_t *r)
{
	tui_batch_view_t *v = NULL;
	const tui_graph_t *g = r->debug_graph;
	int idx = dalic_tui_graph_find(g, r->sel_op);
	const tui_gnode_t *n = idx >= 0 ? &g->nodes[idx] : NULL;
	int out = n && r->sel_output < n->num_outputs ? r->sel_output : 0;
	const char *node = n && n->num_outputs ? n->outputs[out] : NULL;
	int64_t iteration = -1;
	const dalic_batch_t *b = r->dbg && node ? dalic_debug_node(r->dbg, node, &iteration) : NULL;
	const char *input_of = NULL;
	if (!b && r->dbg && n && r->error.set && !strcmp(n->name, r->error.op)) {
		/* the failed operator has no output: its input explains the failure */
		dalic_debug_op_info_t info;
		int i = dalic_debug_find_op(r->dbg, n->name);
		if (i >= 0 && !dalic_debug_op_info(r->dbg, i, &info) && info.num_inputs > 0 &&
		    (b = dalic_debug_node(r->dbg, info.inputs[0], &iteration))) {
			input_of = n->name;
			node = info.inputs[0];
		}
	}
	if (b)
		v = dalic_tui_extract(b, r->sel_sample, r->sel_window);
	else if ((v = dalic_tui_batch_view_new(0)))
		snprintf(v->note, sizeof v->note,
		         !r->dbg ? "debug engine not open"
		         : !node ? "select an operator in the graph"
		                 : "'%s' has not run yet: s runs one operator, n one iteration",
		         node ? node : "");
	if (v) {
		snprintf(v->node, sizeof v->node, "%s", node ? node : "");
		snprintf(v->op, sizeof v->op, "%s", n ? n->name : "");
		v->output = out;
		v->num_op_outputs = n ? n->num_outputs : 0;
		v->iteration = iteration;
		if (input_of)
			snprintf(v->note, sizeof v->note, "the input of %s, which failed on it",
			         input_of);
	}
	dalic_tui_batch_view_unref(r->batch);
	r->batch = v;
}

static int runner_debug_cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static int64_t runner_debug_node_bytes(dalic_debug_t *s, const char *node)
{
	const dalic_batch_t *b = dalic_debug_node(s, node, NULL);
	int64_t n = 0;
	for (int i = 0; b && i < dalic_batch_num_samples(b); i++)
		n += (int64_t)dalic_batch_sample_bytes(b, i);
	return n;
}

void dalic_tui_debug_fill(tui_runner_t *r, tui_model_t *m)
{
	snprintf(m->executor, sizeof m->executor, "eager (debug)");
	if (!r->dbg)
		return;
	dalic_debug_status_t st;
	dalic_debug_status(r->dbg, &st);
	m->iteration = st.iteration;
	m->iterations_done = st.iterations_done;
	m->next_op = st.next_op;
	m->last_op = st.next_op > 0 ? st.next_op - 1 : -1;
	m->debug_ops = calloc((size_t)r->num_hist + 1, sizeof *m->debug_ops);
	if (!m->debug_ops)
		return;
	m->num_debug_ops = r->num_hist;
	m->emulated = false;
	for (int i = 0; i < r->num_hist; i++) {
		dalic_debug_op_info_t info;
		if (dalic_debug_op_info(r->dbg, i, &info))
			continue;
		tui_debug_op_t *d = &m->debug_ops[i];
		m->emulated |= info.emulated;
		d->runs = info.runs;
		d->last_iteration = info.last_iteration;
		d->last_ns = info.last_ns;
		d->mean_ns = info.runs ? (double)info.total_ns / (double)info.runs : 0;
		const tui_op_hist_t *h = &r->hist[i];
		if (h->n) {
			int64_t sorted[TUI_P99_RING];
			memcpy(sorted, h->ring, sizeof(int64_t) * (size_t)h->n);
			qsort(sorted, (size_t)h->n, sizeof sorted[0], runner_debug_cmp_i64);
			d->p99_ns = sorted[(h->n * 99 + 99) / 100 - 1];
		}
		for (int o = 0; o < info.num_outputs; o++)
			d->bytes += runner_debug_node_bytes(r->dbg, info.outputs[o]);
	}
}
