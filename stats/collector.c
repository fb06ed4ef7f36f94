/*
 * The collector's life cycle: create (install the hooks), lay out per-node state once the
 * pipeline is built, reset, destroy. The layout is built under the collector's mutex and
 * published with a release store; hooks read it with an acquire load and never lock.
 */
#include "stats/collector.h"

#include "engine/clock.h"
#include "engine/device.h"
#include "engine/error.h"
#include "engine/executor.h"
#include "engine/pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

void dalic_stats_options_init(dalic_stats_options_t *o)
{
	memset(o, 0, sizeof *o);
	o->trace = false;
	o->trace_capacity = 1 << 18;
	o->queue_history = 1024;
	o->growth_history = 64;
	o->trend_interval_ms = 1000;
	o->trend_capacity = 600;
}

static void collector_output_clear(dalic_stats_out_t *o)
{
	atomic_store(&o->real, 0);
	atomic_store(&o->max_real, 0);
	atomic_store(&o->reserved, 0);
	atomic_store(&o->max_reserved, 0);
	atomic_store(&o->max_real_dali24, 0);
	atomic_store(&o->max_reserved_dali24, 0);
	atomic_store(&o->base_allocs, atomic_load(&o->seen_allocs));
	atomic_store(&o->base_bytes, atomic_load(&o->seen_bytes));
	atomic_store(&o->last_allocs, 0);
	atomic_store(&o->last_bytes, 0);
	atomic_store(&o->last_iteration, -1);
	atomic_store(&o->max_allocs, 0);
	atomic_store(&o->last_alloc_iteration, -1);
	atomic_store(&o->growth, 0);
}

static void collector_layout_free(dalic_stats_layout_t *L)
{
	if (!L)
		return;
	for (int i = 0; L->nodes && i < L->num_nodes; i++) {
		dalic_stats_node_t *n = &L->nodes[i];
		for (int o = 0; n->outputs && o < n->num_outputs; o++)
			free(n->outputs[o].name);
		free(n->outputs);
		free(n->name);
		free(n->op);
		free(n->key);
	}
	free(L->nodes);
	free(L->workers);
	free(L->worker_node_ns);
	free(L);
}

static char *collector_key_of(const dalic_node_t *n)
{
	const char *stage = dalic_graph_stage_name(n->stage);
	size_t len = strlen(stage) + strlen(n->inst) + 2;
	char *k = malloc(len);
	if (k)
		snprintf(k, len, "%s_%s", stage, n->inst);
	return k;
}

static int collector_init_node(dalic_stats_node_t *sn, const dalic_node_t *n)
{
	sn->node = n;
	sn->stage = n->stage;
	sn->internal = n->internal;
	sn->emulated = dalic_exec_node_emulated(n);
	sn->reader = n->schema->is_reader;
	sn->name = strdup(n->inst);
	sn->op = strdup(n->schema->name);
	sn->key = collector_key_of(n);
	sn->num_outputs = n->num_outputs;
	sn->outputs = calloc((size_t)n->num_outputs + 1, sizeof *sn->outputs);
	if (!sn->name || !sn->op || !sn->key || !sn->outputs)
		return DALIC_ENOMEM;
	dalic_hist_init(&sn->time);
	for (int o = 0; o < n->num_outputs; o++) {
		dalic_stats_out_t *out = &sn->outputs[o];
		out->name = strdup(n->outputs[o]->name);
		if (!out->name)
			return DALIC_ENOMEM;
		out->gpu = n->outputs[o]->gpu;
		out->hint = n->hints ? n->hints[o] : 0;
		atomic_init(&out->memory_kind, -1);
		atomic_init(&out->contiguous, 0);
		collector_output_clear(out);
	}
	return DALIC_OK;
}

static dalic_stats_layout_t *collector_layout_create(const dalic_graph_t *g)
{
	dalic_stats_layout_t *L = calloc(1, sizeof *L);
	if (!L)
		return NULL;
	L->num_nodes = g->num_nodes;
	L->nodes = calloc((size_t)g->num_nodes + 1, sizeof *L->nodes);
	if (!L->nodes) {
		free(L);
		return NULL;
	}
	for (int i = 0; i < g->num_nodes; i++)
		if (collector_init_node(&L->nodes[i], g->nodes[i])) {
			collector_layout_free(L);
			return NULL;
		}
	for (int s = 0; s < DALIC_NUM_STAGES; s++)
		L->stage_nodes[s] = g->stage_begin[s + 1] - g->stage_begin[s];
	L->sample_node =
	    g->num_outputs > 0 && g->outputs[0]->producer ? g->outputs[0]->producer->index : -1;
	L->params = g->params;
	L->num_workers = g->params.num_threads > 0 ? g->params.num_threads : 1;
	L->workers = calloc((size_t)L->num_workers, sizeof *L->workers);
	L->worker_node_ns =
	    calloc((size_t)L->num_workers * (size_t)(g->num_nodes + 1), sizeof *L->worker_node_ns);
	if (!L->workers || !L->worker_node_ns) {
		collector_layout_free(L);
		return NULL;
	}
	L->memory_stats = g->params.enable_memory_stats;
	L->uses_gpu = g->uses_gpu;
	L->emulated = g->uses_gpu && dalic_device_backend()->emulated;
	return L;
}

dalic_stats_layout_t *dalic_stats_layout(dalic_stats_t *s)
{
	dalic_stats_layout_t *L = atomic_load_explicit(&s->layout, memory_order_acquire);
	if (L)
		return L;
	pthread_mutex_lock(&s->lock);
	L = atomic_load_explicit(&s->layout, memory_order_relaxed);
	const dalic_graph_t *g = L || !s->pipe ? NULL : dalic_pipeline_graph(s->pipe);
	if (g) {
		L = collector_layout_create(g);
		atomic_store_explicit(&s->layout, L, memory_order_release);
	}
	pthread_mutex_unlock(&s->lock);
	return L;
}

dalic_stats_node_t *dalic_stats_node_of(dalic_stats_t *s, const dalic_node_t *node)
{
	dalic_stats_layout_t *L = dalic_stats_layout(s);
	if (L && node && node->index >= 0 && node->index < L->num_nodes &&
	    L->nodes[node->index].node == node)
		return &L->nodes[node->index];
	atomic_fetch_add_explicit(&s->unknown, 1, memory_order_relaxed);
	return NULL;
}

void dalic_stats_rusage(int64_t *user_ns, int64_t *sys_ns)
{
	struct rusage ru;
	*user_ns = *sys_ns = 0;
	if (getrusage(RUSAGE_SELF, &ru))
		return;
	*user_ns = (int64_t)ru.ru_utime.tv_sec * 1000000000 + (int64_t)ru.ru_utime.tv_usec * 1000;
	*sys_ns = (int64_t)ru.ru_stime.tv_sec * 1000000000 + (int64_t)ru.ru_stime.tv_usec * 1000;
}

static void collector_clear_globals(dalic_stats_t *s)
{
	int64_t user, sys;
	dalic_stats_rusage(&user, &sys);
	atomic_store(&s->ru_user0, user);
	atomic_store(&s->ru_sys0, sys);
	for (int i = 0; i < DALIC_NUM_STAGES; i++) {
		dalic_hist_init(&s->stage_time[i]);
		dalic_hist_init(&s->stage_wait[i]);
	}
	pthread_mutex_lock(&s->iter_lock);
	for (int i = 0; i < DALIC_STATS_ITER_RING; i++)
		s->iters[i].iteration = -1;
	pthread_mutex_unlock(&s->iter_lock);
	dalic_hist_init(&s->iter_time);
	dalic_hist_init(&s->iter_interval);
	for (int i = 0; i < DALIC_STATS_WAITS; i++)
		dalic_hist_init(&s->waits[i]);
	atomic_store(&s->first_t, 0);
	atomic_store(&s->last_t, 0);
	atomic_store(&s->last_ready, 0);
	atomic_store(&s->iterations, 0);
	atomic_store(&s->samples, 0);
	atomic_store(&s->growth_total, 0);
	atomic_store(&s->unknown, 0);
	atomic_store(&s->t0, dalic_clock_ns());
}

int dalic_stats_create(dalic_pipeline_t *p, const dalic_stats_options_t *opts, dalic_stats_t **out)
{
	if (!p || !out)
		return dalic_fail(DALIC_EINVAL, "dalic_stats_create: NULL argument");
	*out = NULL;
	dalic_stats_t *s = calloc(1, sizeof *s);
	if (!s)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	s->pipe = p;
	s->params = *dalic_pipeline_params(p);
	if (opts)
		s->opts = *opts;
	else
		dalic_stats_options_init(&s->opts);
	if (s->opts.queue_history < 1)
		s->opts.queue_history = 1;
	if (s->opts.growth_history < 1)
		s->opts.growth_history = 1;
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_init(&s->iter_lock, NULL);
	collector_clear_globals(s);
	int rc = (s->warnings = dalic_warnlog_new()) ? DALIC_OK : DALIC_ENOMEM;
	if (dalic_stats_trend_init(s))
		rc = DALIC_ENOMEM;
	for (int q = 0; q < DALIC_STATS_QUEUES; q++) {
		dalic_stats_qstate_t *qs = &s->queues[q];
		pthread_mutex_init(&qs->lock, NULL);
		qs->cap = s->opts.queue_history;
		qs->ring = calloc((size_t)qs->cap, sizeof *qs->ring);
		if (!qs->ring)
			rc = DALIC_ENOMEM;
	}
	s->growth = calloc((size_t)s->opts.growth_history, sizeof *s->growth);
	if (!s->growth)
		rc = DALIC_ENOMEM;
	if (!rc && s->opts.trace) {
		rc = dalic_trace_ring_init(&s->trace, s->opts.trace_capacity);
		s->tracing = rc == DALIC_OK;
	}
	if (rc) {
		dalic_stats_destroy(s);
		return dalic_fail(rc, "out of memory for the stats collector");
	}
	/* a built pipeline gets its layout now, so the first iteration is not the one to pay */
	dalic_stats_layout(s);
	dalic_observer_t obs;
	dalic_stats_observer(s, &obs);
	rc = dalic_pipeline_add_observer(p, &obs);
	if (rc) {
		s->pipe = NULL;
		dalic_stats_destroy(s);
		return rc;
	}
	*out = s;
	return DALIC_OK;
}

void dalic_stats_destroy(dalic_stats_t *s)
{
	if (!s)
		return;
	if (s->pipe)
		dalic_pipeline_remove_observer(s->pipe, s);
	collector_layout_free(atomic_load(&s->layout));
	for (int q = 0; q < DALIC_STATS_QUEUES; q++) {
		free(s->queues[q].ring);
		pthread_mutex_destroy(&s->queues[q].lock);
	}
	free(s->growth);
	dalic_stats_trend_free(s);
	dalic_trace_ring_free(&s->trace);
	dalic_warnlog_free(s->warnings);
	pthread_mutex_destroy(&s->lock);
	pthread_mutex_destroy(&s->iter_lock);
	free(s);
}

void dalic_stats_pipeline_destroyed(dalic_stats_t *s)
{
	if (!s)
		return;
	int64_t user, sys;
	dalic_stats_rusage(&user, &sys);
	pthread_mutex_lock(&s->lock);
	s->pipe = NULL;
	s->ru_user_end = user;
	s->ru_sys_end = sys;
	s->ru_t_end = dalic_clock_ns();
	pthread_mutex_unlock(&s->lock);
}

void dalic_stats_reset(dalic_stats_t *s)
{
	dalic_stats_layout_t *L = dalic_stats_layout(s);
	for (int i = 0; L && i < L->num_nodes; i++) {
		dalic_hist_init(&L->nodes[i].time);
		atomic_store(&L->nodes[i].warnings, 0);
		atomic_store(&L->nodes[i].cpu_ns, 0);
		atomic_store(&L->nodes[i].work_ns, 0);
		atomic_store(&L->nodes[i].gpu_ns, 0);
		atomic_store(&L->nodes[i].gpu_runs, 0);
		atomic_store(&L->nodes[i].out_bytes, 0);
		atomic_store(&L->nodes[i].out_files, 0);
		for (int o = 0; o < L->nodes[i].num_outputs; o++)
			collector_output_clear(&L->nodes[i].outputs[o]);
	}
	for (int w = 0; L && w < L->num_workers; w++) {
		atomic_store(&L->workers[w].busy_ns, 0);
		atomic_store(&L->workers[w].cpu_ns, 0);
		atomic_store(&L->workers[w].chunks, 0);
		atomic_store(&L->workers[w].samples, 0);
		for (int i = 0; i < L->num_nodes; i++)
			atomic_store(&L->worker_node_ns[w * L->num_nodes + i], 0);
	}
	collector_clear_globals(s);
	dalic_stats_trend_reset(s);
	dalic_warnlog_clear(s->warnings);
	int64_t t0 = atomic_load(&s->t0);
	for (int q = 0; q < DALIC_STATS_QUEUES; q++) {
		dalic_stats_qstate_t *qs = &s->queues[q];
		pthread_mutex_lock(&qs->lock);
		qs->max_occupancy = qs->occupancy;
		qs->changes = 0;
		qs->first_t = qs->last_t = t0;
		qs->integral = 0;
		qs->head = qs->count = 0;
		pthread_mutex_unlock(&qs->lock);
	}
	pthread_mutex_lock(&s->lock);
	s->growth_head = s->growth_count = 0;
	pthread_mutex_unlock(&s->lock);
	if (s->tracing)
		dalic_trace_ring_reset(&s->trace);
}
