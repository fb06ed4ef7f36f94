/*
 * Snapshots: copies of the collector's numbers into the plain struct of dalic_stats.h, plus
 * what is derived from them — shares of the busy time, the bottleneck operator and stage,
 * the input-bound verdict. Shares are of the pipeline's busy time (the sum of every stage's
 * time), so stage shares sum to 1 and operator shares to 1 minus the executor's own overhead.
 */
#include "stats/collector.h"

#include "engine/device.h"
#include "engine/error.h"
#include "engine/pipeline.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Verdict thresholds, as fractions of the wall time. */
#define INPUT_BOUND_SHARE 0.25
#define CONSUMER_BOUND_SHARE 0.25
#define IDLE_CONSUMER_SHARE 0.05
#define IDLE_PIPELINE_UTILIZATION 0.5

static const char *const verdict_names[] = {"unknown", "input-bound", "consumer-bound", "balanced"};

static int snapshot_copy_output(dalic_stats_output_t *d, const dalic_stats_out_t *o)
{
	d->name = strdup(o->name);
	if (!d->name)
		return DALIC_ENOMEM;
	d->gpu = o->gpu;
	d->memory_kind = atomic_load(&o->memory_kind);
	d->contiguous = atomic_load(&o->contiguous) != 0;
	d->real_memory_size = atomic_load(&o->real);
	d->max_real_memory_size = atomic_load(&o->max_real);
	d->reserved_memory_size = atomic_load(&o->reserved);
	d->max_reserved_memory_size = atomic_load(&o->max_reserved);
	d->max_real_memory_size_dali24 = atomic_load(&o->max_real_dali24);
	d->max_reserved_memory_size_dali24 = atomic_load(&o->max_reserved_dali24);
	d->hint = o->hint;
	d->suggested_hint = d->max_real_memory_size;
	d->allocations = atomic_load(&o->seen_allocs) - atomic_load(&o->base_allocs);
	d->bytes_allocated = atomic_load(&o->seen_bytes) - atomic_load(&o->base_bytes);
	d->last_allocations = atomic_load(&o->last_allocs);
	d->last_bytes_allocated = atomic_load(&o->last_bytes);
	d->max_allocations = atomic_load(&o->max_allocs);
	d->last_allocation_iteration = atomic_load(&o->last_alloc_iteration);
	d->bytes_live = atomic_load(&o->seen_live);
	d->growth_events = atomic_load(&o->growth);
	return DALIC_OK;
}

static int snapshot_copy_operators(dalic_stats_snapshot_t *snap, const dalic_stats_layout_t *L)
{
	snap->operators = calloc((size_t)L->num_nodes + 1, sizeof *snap->operators);
	if (!snap->operators)
		return DALIC_ENOMEM;
	snap->num_operators = L->num_nodes;
	for (int i = 0; i < L->num_nodes; i++) {
		const dalic_stats_node_t *n = &L->nodes[i];
		dalic_stats_operator_t *op = &snap->operators[i];
		op->name = strdup(n->name);
		op->op = strdup(n->op);
		op->key = strdup(n->key);
		op->stage = n->stage;
		op->internal = n->internal;
		op->outputs = calloc((size_t)n->num_outputs + 1, sizeof *op->outputs);
		if (!op->name || !op->op || !op->key || !op->outputs)
			return DALIC_ENOMEM;
		op->num_outputs = n->num_outputs;
		op->warnings = atomic_load(&n->warnings);
		dalic_hist_summary(&n->time, &op->time);
		op->emulated = n->emulated;
		op->gpu_ns = atomic_load(&n->gpu_ns);
		op->gpu_runs = atomic_load(&n->gpu_runs);
		for (int o = 0; o < n->num_outputs; o++)
			if (snapshot_copy_output(&op->outputs[o], &n->outputs[o]))
				return DALIC_ENOMEM;
	}
	return DALIC_OK;
}

/* Shares of the busy time and the bottlenecks. A stage's busy time is at least its
 * operators' time: a snapshot taken mid-iteration, or an iteration cut short at shutdown, has
 * reported its operators but not yet its stage. */
static void snapshot_derive_shares(dalic_stats_snapshot_t *snap)
{
	double stage_busy[DALIC_NUM_STAGES] = {0}, busy = 0, op_shares = 0;
	for (int i = 0; i < snap->num_operators; i++)
		stage_busy[snap->operators[i].stage] += (double)snap->operators[i].time.total_ns;
	for (int s = 0; s < DALIC_NUM_STAGES; s++) {
		double t = (double)snap->stages[s].time.total_ns;
		if (t > stage_busy[s])
			stage_busy[s] = t;
		busy += stage_busy[s];
	}
	snap->bottleneck_operator = snap->bottleneck_stage = -1;
	if (busy <= 0)
		return;
	int64_t best = 0;
	for (int i = 0; i < snap->num_operators; i++) {
		dalic_stats_operator_t *op = &snap->operators[i];
		op->share = (double)op->time.total_ns / busy;
		op_shares += op->share;
		if (op->time.total_ns > best) {
			best = op->time.total_ns;
			snap->bottleneck_operator = i;
		}
	}
	snap->overhead_share = op_shares < 1 ? 1 - op_shares : 0;
	double best_mean = 0;
	for (int s = 0; s < DALIC_NUM_STAGES; s++) {
		dalic_stats_stage_t *st = &snap->stages[s];
		st->share = stage_busy[s] / busy;
		/* stages overlap when pipelined: the slowest per iteration limits throughput */
		if (st->time.count > 0 && st->time.mean_ns > best_mean) {
			best_mean = st->time.mean_ns;
			snap->bottleneck_stage = s;
		}
		if (snap->wall_s > 0 &&
		    stage_busy[s] / (snap->wall_s * 1e9) > snap->pipeline_utilization)
			snap->pipeline_utilization = stage_busy[s] / (snap->wall_s * 1e9);
	}
	if (snap->pipeline_utilization > 1)
		snap->pipeline_utilization = 1;
}

char *dalic_stats_format(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return strdup(buf);
}

static void snapshot_derive_verdict(dalic_stats_snapshot_t *snap)
{
	double wall_ns = snap->wall_s * 1e9;
	double consumer_ns = (double)snap->waits[DALIC_STATS_WAIT_CONSUMER].total_ns;
	snap->consumer_wait_measured = snap->waits[DALIC_STATS_WAIT_CONSUMER].count > 0;
	if (!snap->consumer_wait_measured && !snap->exec_async)
		consumer_ns = (double)snap->iteration_time.total_ns;
	double slot_ns = (double)snap->waits[DALIC_STATS_WAIT_FREE_SLOT].total_ns;
	snap->consumer_wait_share = wall_ns > 0 ? consumer_ns / wall_ns : 0;
	snap->free_slot_wait_share = wall_ns > 0 ? slot_ns / wall_ns : 0;
	if (snap->consumer_wait_share > 1)
		snap->consumer_wait_share = 1;
	if (snap->free_slot_wait_share > 1)
		snap->free_slot_wait_share = 1;
	const char *stage =
	    snap->bottleneck_stage >= 0 ? snap->stages[snap->bottleneck_stage].name : "none";
	const char *op = snap->bottleneck_operator >= 0
	                     ? snap->operators[snap->bottleneck_operator].name
	                     : "none";
	double op_share =
	    snap->bottleneck_operator >= 0 ? snap->operators[snap->bottleneck_operator].share : 0;
	if (snap->iterations < 2 || wall_ns <= 0) {
		snap->verdict = DALIC_STATS_VERDICT_UNKNOWN;
		snap->verdict_reason = dalic_stats_format("%lld iteration(s) observed; need at least 2",
		                                     (long long)snap->iterations);
	} else if (snap->consumer_wait_share >= INPUT_BOUND_SHARE) {
		snap->verdict = DALIC_STATS_VERDICT_INPUT_BOUND;
		snap->verdict_reason = dalic_stats_format(
		    "the consumer waited %.0f%% of the time (%.3f s of %.3f s) for data%s; "
		    "slowest stage %s, slowest operator %s (%.0f%% of the busy time)%s%s",
		    100 * snap->consumer_wait_share, consumer_ns * 1e-9, snap->wall_s,
		    snap->consumer_wait_measured ? ""
		                                 : " (synchronous executor: it ran every "
		                                   "iteration itself)",
		    stage, op, 100 * op_share, *snap->cpu_verdict ? "; " : "", snap->cpu_verdict);
	} else if (snap->consumer_wait_share < IDLE_CONSUMER_SHARE &&
	           (snap->free_slot_wait_share >= CONSUMER_BOUND_SHARE ||
	            snap->pipeline_utilization < IDLE_PIPELINE_UTILIZATION)) {
		snap->verdict = DALIC_STATS_VERDICT_CONSUMER_BOUND;
		snap->verdict_reason = dalic_stats_format(
		    "the consumer waited %.1f%% of the time for data while the busiest stage "
		    "worked %.0f%% of it and the pipeline waited %.0f%% for a free queue slot: "
		    "data is ready before it is asked for; a deeper prefetch queue will not help, "
		    "a shallower one saves memory",
		    100 * snap->consumer_wait_share, 100 * snap->pipeline_utilization,
		    100 * snap->free_slot_wait_share);
	} else {
		snap->verdict = DALIC_STATS_VERDICT_BALANCED;
		snap->verdict_reason = dalic_stats_format(
		    "the consumer waited %.0f%% of the time for data and the pipeline %.0f%% for "
		    "a free slot; slowest stage %s, slowest operator %s",
		    100 * snap->consumer_wait_share, 100 * snap->free_slot_wait_share, stage, op);
	}
	snap->verdict_name = verdict_names[snap->verdict];
}

static int snapshot_copy_queues(dalic_stats_t *s, dalic_stats_snapshot_t *snap)
{
	static const char *const names[DALIC_STATS_QUEUES] = {"cpu", "gpu"};
	for (int q = 0; q < DALIC_STATS_QUEUES; q++) {
		dalic_stats_qstate_t *qs = &s->queues[q];
		dalic_stats_queue_t *d = &snap->queues[q];
		d->name = names[q];
		d->samples = calloc((size_t)qs->cap, sizeof *d->samples);
		if (!d->samples)
			return DALIC_ENOMEM;
		pthread_mutex_lock(&qs->lock);
		d->present = qs->present;
		d->depth = qs->depth;
		d->occupancy = qs->occupancy;
		d->max_occupancy = qs->max_occupancy;
		d->changes = qs->changes;
		int64_t span = qs->last_t - qs->first_t;
		d->mean_occupancy = span > 0 ? qs->integral / (double)span : qs->occupancy;
		d->num_samples = qs->count;
		for (int i = 0; i < qs->count; i++)
			d->samples[i] = qs->ring[(qs->head + i) % qs->cap];
		pthread_mutex_unlock(&qs->lock);
	}
	return DALIC_OK;
}

static int snapshot_copy_growth(dalic_stats_t *s, dalic_stats_snapshot_t *snap)
{
	snap->growth_events = atomic_load(&s->growth_total);
	snap->growth = calloc((size_t)s->opts.growth_history, sizeof *snap->growth);
	if (!snap->growth)
		return DALIC_ENOMEM;
	int rc = DALIC_OK;
	pthread_mutex_lock(&s->lock);
	for (int i = 0; i < s->growth_count; i++) {
		const dalic_stats_grec_t *g =
		    &s->growth[(s->growth_head + i) % s->opts.growth_history];
		dalic_stats_growth_t *d = &snap->growth[i];
		d->iteration = g->iteration;
		d->t_ns = g->t;
		d->op = strdup(g->op);
		d->output = g->output;
		d->sample = g->sample;
		d->source = g->has_source ? strdup(g->source) : NULL;
		d->old_capacity = g->old_capacity;
		d->new_capacity = g->new_capacity;
		snap->num_growth = i + 1;
		if (!d->op || (g->has_source && !d->source)) {
			rc = DALIC_ENOMEM;
			break;
		}
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

/* A copy of w's strings in one block that starts with op (freed through op). */
static bool snapshot_copy_warning(dalic_warning_t *d, const dalic_warning_t *w)
{
	const char *parts[4] = {w->op ? w->op : "", w->schema, w->source, w->message};
	size_t n = 0;
	for (int k = 0; k < 4; k++)
		n += parts[k] ? strlen(parts[k]) + 1 : 0;
	char *block = malloc(n), *at = block;
	if (!block)
		return false;
	*d = *w;
	const char **dst[4] = {&d->op, &d->schema, &d->source, &d->message};
	for (int k = 0; k < 4; k++) {
		*dst[k] = NULL;
		if (!parts[k])
			continue;
		size_t len = strlen(parts[k]) + 1;
		memcpy(at, parts[k], len);
		*dst[k] = at;
		at += len;
	}
	return true;
}

static int snapshot_copy_warnings(dalic_stats_t *s, dalic_stats_snapshot_t *snap)
{
	int64_t n = dalic_warnlog_count(s->warnings), keep = n;
	if (keep > DALIC_STATS_MAX_WARNINGS)
		keep = DALIC_STATS_MAX_WARNINGS;
	snap->warnings_dropped = dalic_warnlog_dropped(s->warnings) + (n - keep);
	if (!keep)
		return DALIC_OK;
	snap->warnings = calloc((size_t)keep, sizeof *snap->warnings);
	if (!snap->warnings)
		return DALIC_ENOMEM;
	for (int64_t i = 0; i < keep; i++) {
		dalic_warning_t w;
		if (!dalic_warnlog_get(s->warnings, i, &w))
			break;
		if (!snapshot_copy_warning(&snap->warnings[i], &w))
			return DALIC_ENOMEM;
		snap->num_warnings = i + 1;
	}
	return DALIC_OK;
}

static void snapshot_sum_allocations(dalic_stats_snapshot_t *snap)
{
	snap->last_allocation_iteration = -1;
	for (int i = 0; i < snap->num_operators; i++)
		for (int o = 0; o < snap->operators[i].num_outputs; o++) {
			const dalic_stats_output_t *d = &snap->operators[i].outputs[o];
			snap->allocations += d->allocations;
			snap->bytes_allocated += d->bytes_allocated;
			/* each output's most recent run: with overlapping stages there is no
			 * single "last iteration" every output has finished */
			snap->last_iteration_allocations += d->last_allocations;
			snap->last_iteration_bytes += d->last_bytes_allocated;
			snap->bytes_live += d->bytes_live;
			snap->reserved_total += d->reserved_memory_size;
			if (d->last_allocation_iteration > snap->last_allocation_iteration)
				snap->last_allocation_iteration = d->last_allocation_iteration;
		}
}

/* Bytes each prefetch queue holds: its stages' output buffers, every slot (the gpu queue
 * serves the mixed and gpu stages; without it the cpu queue holds everything). */
static void snapshot_queue_bytes(dalic_stats_snapshot_t *snap)
{
	bool split = snap->queues[DALIC_STATS_QUEUE_GPU].present;
	for (int i = 0; i < snap->num_operators; i++) {
		const dalic_stats_operator_t *op = &snap->operators[i];
		int q = split && op->stage != DALIC_STAGE_CPU ? DALIC_STATS_QUEUE_GPU
		                                              : DALIC_STATS_QUEUE_CPU;
		for (int o = 0; o < op->num_outputs; o++)
			snap->queues[q].bytes += op->outputs[o].bytes_live;
	}
}

static void snapshot_copy_params(dalic_stats_snapshot_t *snap, const dalic_pipeline_params_t *p,
                        bool uses_gpu)
{
	snap->batch_size = p->batch_size;
	snap->num_threads = p->num_threads;
	snap->prefetch_cpu = p->prefetch_cpu;
	snap->prefetch_gpu = p->prefetch_gpu;
	snap->separated_queues = p->separated_queues;
	snap->exec_pipelined = p->exec_pipelined;
	snap->exec_async = p->exec_async;
	snap->executor_mode = dalic_executor_mode_name(p);
	snap->cpu_only = p->device_id == DALIC_CPU_ONLY_DEVICE_ID;
	snap->emulated_device = uses_gpu && dalic_device_backend()->emulated;
	snap->memory_stats = p->enable_memory_stats;
}

int dalic_stats_snapshot(dalic_stats_t *s, dalic_stats_snapshot_t **out)
{
	if (!s || !out)
		return dalic_fail(DALIC_EINVAL, "dalic_stats_snapshot: NULL argument");
	*out = NULL;
	dalic_stats_snapshot_t *snap = calloc(1, sizeof *snap);
	if (!snap)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	dalic_stats_layout_t *L = dalic_stats_layout(s);
	int rc = DALIC_OK;
	if (L) {
		snapshot_copy_params(snap, &L->params, L->uses_gpu);
		snap->built = true;
		rc = snapshot_copy_operators(snap, L);
	} else {
		snapshot_copy_params(snap, &s->params, false);
	}
	static const char *const stage_names[DALIC_NUM_STAGES] = {"CPU", "MIXED", "GPU"};
	for (int st = 0; st < DALIC_NUM_STAGES; st++) {
		snap->stages[st].name = stage_names[st];
		snap->stages[st].num_operators = L ? L->stage_nodes[st] : 0;
		snap->stages[st].present = snap->stages[st].num_operators > 0;
		dalic_hist_summary(&s->stage_time[st], &snap->stages[st].time);
		dalic_hist_summary(&s->stage_wait[st], &snap->stages[st].wait_before);
	}
	snap->iterations = atomic_load(&s->iterations);
	snap->samples = atomic_load(&s->samples);
	int64_t first = atomic_load(&s->first_t), last = atomic_load(&s->last_t);
	snap->wall_s = first > 0 && last > first ? (double)(last - first) * 1e-9 : 0;
	if (snap->wall_s > 0) {
		snap->samples_per_second = (double)snap->samples / snap->wall_s;
		snap->iterations_per_second = (double)snap->iterations / snap->wall_s;
	}
	dalic_hist_summary(&s->iter_time, &snap->iteration_time);
	dalic_hist_summary(&s->iter_interval, &snap->iteration_interval);
	for (int w = 0; w < DALIC_STATS_WAITS; w++)
		dalic_hist_summary(&s->waits[w], &snap->waits[w]);
	if (!rc)
		rc = snapshot_copy_queues(s, snap);
	if (!rc)
		rc = snapshot_copy_growth(s, snap);
	if (!rc)
		rc = snapshot_copy_warnings(s, snap);
	if (!rc)
		rc = dalic_stats_trend_copy(s, snap);
	if (rc) {
		dalic_stats_snapshot_free(snap);
		return dalic_fail(rc, "out of memory for a stats snapshot");
	}
	snapshot_derive_shares(snap);
	if (dalic_stats_snapshot_cpu(s, L, snap)) {
		dalic_stats_snapshot_free(snap);
		return dalic_fail(DALIC_ENOMEM, "out of memory for a stats snapshot");
	}
	snapshot_derive_verdict(snap);
	snapshot_sum_allocations(snap);
	snapshot_queue_bytes(snap);
	if (s->tracing) {
		snap->trace_events = dalic_trace_ring_recorded(&s->trace);
		snap->trace_dropped = dalic_trace_ring_dropped(&s->trace);
	}
	snap->unknown_events = atomic_load(&s->unknown);
	*out = snap;
	return DALIC_OK;
}

void dalic_stats_snapshot_free(dalic_stats_snapshot_t *snap)
{
	if (!snap)
		return;
	for (int i = 0; snap->operators && i < snap->num_operators; i++) {
		dalic_stats_operator_t *op = &snap->operators[i];
		for (int o = 0; op->outputs && o < op->num_outputs; o++)
			free(op->outputs[o].name);
		free(op->outputs);
		free(op->name);
		free(op->op);
		free(op->key);
	}
	free(snap->operators);
	for (int q = 0; q < DALIC_STATS_QUEUES; q++)
		free(snap->queues[q].samples);
	for (int i = 0; snap->growth && i < snap->num_growth; i++) {
		free(snap->growth[i].op);
		free(snap->growth[i].source);
	}
	free(snap->growth);
	for (int64_t i = 0; snap->warnings && i < snap->num_warnings; i++)
		free((void *)snap->warnings[i].op); /* the block holding all its strings */
	free(snap->warnings);
	free(snap->verdict_reason);
	free(snap->workers);
	free(snap->cpu_verdict);
	free(snap->trend);
	free(snap->trend_operator_ns);
	free(snap);
}

const dalic_stats_operator_t *dalic_stats_find_operator(const dalic_stats_snapshot_t *snap,
                                                        const char *name)
{
	for (int i = 0; snap && name && i < snap->num_operators; i++)
		if (!strcmp(snap->operators[i].name, name))
			return &snap->operators[i];
	return NULL;
}
