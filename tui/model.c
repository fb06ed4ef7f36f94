/*
 * Life cycle of the published structs (model.h) and the few number formats every pane uses.
 * Reference counts are atomics because the runner drops its references while the UI thread
 * may still be drawing the same model.
 */
#include "tui/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

tui_graph_t *dalic_tui_graph_new(int num_nodes, int num_edges, int num_outputs)
{
	static atomic_uint_fast64_t generation;
	tui_graph_t *g = calloc(1, sizeof *g);
	if (!g)
		return NULL;
	g->nodes = calloc((size_t)num_nodes + 1, sizeof *g->nodes);
	g->edges = calloc((size_t)num_edges + 1, sizeof *g->edges);
	g->outputs = calloc((size_t)num_outputs + 1, sizeof *g->outputs);
	if (!g->nodes || !g->edges || !g->outputs) {
		free(g->nodes);
		free(g->edges);
		free(g->outputs);
		free(g);
		return NULL;
	}
	atomic_init(&g->refs, 1);
	g->generation = atomic_fetch_add(&generation, 1) + 1;
	return g;
}

tui_graph_t *dalic_tui_graph_ref(tui_graph_t *g)
{
	if (g)
		atomic_fetch_add(&g->refs, 1);
	return g;
}

void dalic_tui_graph_unref(tui_graph_t *g)
{
	if (!g || atomic_fetch_sub(&g->refs, 1) != 1)
		return;
	for (int i = 0; i < g->num_nodes; i++) {
		free(g->nodes[i].name);
		free(g->nodes[i].schema);
		for (int o = 0; o < g->nodes[i].num_outputs; o++)
			free(g->nodes[i].outputs[o]);
		free(g->nodes[i].outputs);
	}
	for (int i = 0; i < g->num_outputs; i++)
		free(g->outputs[i]);
	free(g->nodes);
	free(g->edges);
	free(g->outputs);
	free(g);
}

int dalic_tui_graph_find(const tui_graph_t *g, const char *name)
{
	for (int i = 0; g && name && i < g->num_nodes; i++)
		if (!strcmp(g->nodes[i].name, name))
			return i;
	return -1;
}

tui_batch_view_t *dalic_tui_batch_view_new(int count)
{
	static atomic_uint_fast64_t ids;
	tui_batch_view_t *b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	b->samples = calloc((size_t)count + 1, sizeof *b->samples);
	if (!b->samples) {
		free(b);
		return NULL;
	}
	atomic_init(&b->refs, 1);
	b->id = atomic_fetch_add(&ids, 1) + 1;
	b->iteration = -1;
	return b;
}

tui_batch_view_t *dalic_tui_batch_view_ref(tui_batch_view_t *b)
{
	if (b)
		atomic_fetch_add(&b->refs, 1);
	return b;
}

void dalic_tui_batch_view_unref(tui_batch_view_t *b)
{
	if (!b || atomic_fetch_sub(&b->refs, 1) != 1)
		return;
	for (int i = 0; i < b->count; i++) {
		free(b->samples[i].source);
		free(b->samples[i].warning);
		free(b->samples[i].thumb);
		free(b->samples[i].values);
	}
	free(b->samples);
	free(b);
}

tui_model_t *dalic_tui_model_new(void)
{
	tui_model_t *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	atomic_init(&m->refs, 1);
	m->next_op = m->last_op = -1;
	m->error.sample = -1;
	return m;
}

tui_model_t *dalic_tui_model_ref(tui_model_t *m)
{
	if (m)
		atomic_fetch_add(&m->refs, 1);
	return m;
}

void dalic_tui_model_unref(tui_model_t *m)
{
	if (!m || atomic_fetch_sub(&m->refs, 1) != 1)
		return;
	dalic_tui_graph_unref(m->graph);
	dalic_tui_batch_view_unref(m->batch);
	free(m->debug_ops);
	free(m);
}

void dalic_tui_measure_take(const tui_model_t *m, const dalic_stats_snapshot_t *s,
                            tui_measure_t *out)
{
	memset(out, 0, sizeof *out);
	if (!m)
		return;
	out->valid = true;
	out->rate = m->rate;
	out->live = m->mem_live[0] + m->mem_live[1] + m->mem_live[2];
	out->prefetch_cpu = m->params.prefetch_cpu;
	out->prefetch_gpu = m->params.prefetch_gpu;
	out->separated = m->params.separated_queues;
	out->num_threads = m->params.num_threads;
	out->bytes_per_sample = m->params.bytes_per_sample;
	out->reserved = out->buffers = -1;
	if (s && m->engine == TUI_ENGINE_FULL) {
		out->iter_ms = (double)s->iteration_interval.p50_ns / 1e6;
		out->reserved = s->memory_stats ? s->reserved_total : -1;
		out->buffers = s->bytes_live;
	}
}

const char *dalic_tui_fmt_bytes(int64_t v, char buf[16])
{
	if (v < 0)
		return "-";
	if (v < 1024)
		snprintf(buf, 16, "%lldB", (long long)v);
	else if (v < 1024 * 1024)
		snprintf(buf, 16, "%.1fK", (double)v / 1024);
	else if (v < (int64_t)1024 * 1024 * 1024)
		snprintf(buf, 16, "%.1fM", (double)v / (1024.0 * 1024));
	else
		snprintf(buf, 16, "%.2fG", (double)v / (1024.0 * 1024 * 1024));
	return buf;
}

const char *dalic_tui_fmt_ns(double ns, char buf[16])
{
	if (ns <= 0)
		return "-";
	if (ns < 1e3)
		snprintf(buf, 16, "%.0fns", ns);
	else if (ns < 1e6)
		snprintf(buf, 16, "%.1fus", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, 16, "%.2fms", ns / 1e6);
	else
		snprintf(buf, 16, "%.2fs", ns / 1e9);
	return buf;
}
