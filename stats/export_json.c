/*
 * The stats JSON json_document (docs/stats-schema.md, docs/stats-schema.json). Keys are a stable
 * interface: a change that removes or retypes one bumps DALIC_STATS_SCHEMA_VERSION; new keys
 * may appear within a version. "json_executor_statistics" is keyed and valued exactly as DALI's
 * Pipeline.json_executor_statistics(): "<STAGE>_<instance>" -> four lists, one integer per output.
 */
#include "dalic_stats.h"

#include "engine/error.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

static const char *const memory_kinds[] = {"host", "pinned", "device"};

static cJSON *json_timing(const dalic_stats_timing_t *t)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "count", (double)t->count);
	cJSON_AddNumberToObject(o, "total_ns", (double)t->total_ns);
	cJSON_AddNumberToObject(o, "mean_ns", t->mean_ns);
	cJSON_AddNumberToObject(o, "min_ns", (double)t->min_ns);
	cJSON_AddNumberToObject(o, "p50_ns", (double)t->p50_ns);
	cJSON_AddNumberToObject(o, "p90_ns", (double)t->p90_ns);
	cJSON_AddNumberToObject(o, "p99_ns", (double)t->p99_ns);
	cJSON_AddNumberToObject(o, "max_ns", (double)t->max_ns);
	return o;
}

static cJSON *json_executor_statistics(const dalic_stats_snapshot_t *snap)
{
	static const char *const keys[4] = {"real_memory_size", "max_real_memory_size",
	                                    "reserved_memory_size", "max_reserved_memory_size"};
	cJSON *es = cJSON_CreateObject();
	if (!snap->memory_stats)
		return es; /* as DALI: nothing unless enable_memory_stats */
	for (int i = 0; i < snap->num_operators; i++) {
		const dalic_stats_operator_t *op = &snap->operators[i];
		if (op->time.count == 0)
			continue; /* DALI fills an entry when the operator runs */
		cJSON *entry = cJSON_AddObjectToObject(es, op->key);
		for (int k = 0; k < 4; k++) {
			cJSON *list = cJSON_AddArrayToObject(entry, keys[k]);
			for (int o = 0; o < op->num_outputs; o++) {
				const dalic_stats_output_t *d = &op->outputs[o];
				int64_t v = k == 0   ? d->real_memory_size
				            : k == 1 ? d->max_real_memory_size
				            : k == 2 ? d->reserved_memory_size
				                     : d->max_reserved_memory_size;
				cJSON_AddItemToArray(list, cJSON_CreateNumber((double)v));
			}
		}
	}
	return es;
}

static cJSON *json_pipeline(const dalic_stats_snapshot_t *snap)
{
	cJSON *p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "executor", snap->executor_mode);
	cJSON_AddNumberToObject(p, "batch_size", snap->batch_size);
	cJSON_AddNumberToObject(p, "num_threads", snap->num_threads);
	cJSON *q = cJSON_AddObjectToObject(p, "prefetch_queue_depth");
	cJSON_AddNumberToObject(q, "cpu", snap->prefetch_cpu);
	cJSON_AddNumberToObject(q, "gpu", snap->prefetch_gpu);
	cJSON_AddBoolToObject(p, "separated_queues", snap->separated_queues);
	cJSON_AddBoolToObject(p, "exec_pipelined", snap->exec_pipelined);
	cJSON_AddBoolToObject(p, "exec_async", snap->exec_async);
	cJSON_AddBoolToObject(p, "cpu_only", snap->cpu_only);
	cJSON_AddBoolToObject(p, "emulated_device", snap->emulated_device);
	cJSON_AddBoolToObject(p, "enable_memory_stats", snap->memory_stats);
	cJSON_AddBoolToObject(p, "built", snap->built);
	return p;
}

static cJSON *json_output(const dalic_stats_output_t *d)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "name", d->name);
	cJSON_AddStringToObject(o, "device", d->gpu ? "gpu" : "cpu");
	if (d->memory_kind >= 0 && d->memory_kind < 3)
		cJSON_AddStringToObject(o, "memory_kind", memory_kinds[d->memory_kind]);
	else
		cJSON_AddNullToObject(o, "memory_kind");
	cJSON_AddBoolToObject(o, "contiguous", d->contiguous);
	cJSON_AddNumberToObject(o, "real_memory_size", (double)d->real_memory_size);
	cJSON_AddNumberToObject(o, "max_real_memory_size", (double)d->max_real_memory_size);
	cJSON_AddNumberToObject(o, "reserved_memory_size", (double)d->reserved_memory_size);
	cJSON_AddNumberToObject(o, "max_reserved_memory_size", (double)d->max_reserved_memory_size);
	cJSON_AddNumberToObject(o, "max_real_memory_size_dali24",
	                        (double)d->max_real_memory_size_dali24);
	cJSON_AddNumberToObject(o, "max_reserved_memory_size_dali24",
	                        (double)d->max_reserved_memory_size_dali24);
	cJSON_AddNumberToObject(o, "bytes_per_sample_hint", (double)d->hint);
	cJSON_AddNumberToObject(o, "suggested_bytes_per_sample_hint", (double)d->suggested_hint);
	cJSON *a = cJSON_AddObjectToObject(o, "allocations");
	cJSON_AddNumberToObject(a, "count", (double)d->allocations);
	cJSON_AddNumberToObject(a, "bytes", (double)d->bytes_allocated);
	cJSON_AddNumberToObject(a, "last_iteration_count", (double)d->last_allocations);
	cJSON_AddNumberToObject(a, "last_iteration_bytes", (double)d->last_bytes_allocated);
	cJSON_AddNumberToObject(a, "max_per_iteration", (double)d->max_allocations);
	cJSON_AddNumberToObject(a, "last_allocation_iteration",
	                        (double)d->last_allocation_iteration);
	cJSON_AddNumberToObject(o, "bytes_live", (double)d->bytes_live);
	cJSON_AddNumberToObject(o, "growth_events", (double)d->growth_events);
	return o;
}

static cJSON *json_operators(const dalic_stats_snapshot_t *snap)
{
	cJSON *ops = cJSON_CreateArray();
	for (int i = 0; i < snap->num_operators; i++) {
		const dalic_stats_operator_t *op = &snap->operators[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", op->name);
		cJSON_AddStringToObject(o, "op", op->op);
		cJSON_AddStringToObject(o, "key", op->key);
		cJSON_AddStringToObject(o, "stage", snap->stages[op->stage].name);
		cJSON_AddBoolToObject(o, "internal", op->internal);
		cJSON_AddItemToObject(o, "time", json_timing(&op->time));
		cJSON_AddNumberToObject(o, "cpu_ns", (double)op->cpu_ns);
		cJSON_AddNumberToObject(o, "work_ns", (double)op->work_ns);
		/* on a GPU, the operators still on the CPU path (all are, when emulated_device) */
		if (op->emulated && !snap->emulated_device)
			cJSON_AddBoolToObject(o, "emulated", true);
		if (op->gpu_runs > 0) { /* only when its kernels ran on a device */
			cJSON_AddNumberToObject(o, "gpu_ns", (double)op->gpu_ns);
			cJSON_AddNumberToObject(o, "gpu_runs", (double)op->gpu_runs);
		}
		cJSON_AddNumberToObject(o, "share", op->share);
		cJSON_AddNumberToObject(o, "warnings", (double)op->warnings);
		cJSON *outs = cJSON_AddArrayToObject(o, "outputs");
		for (int k = 0; k < op->num_outputs; k++)
			cJSON_AddItemToArray(outs, json_output(&op->outputs[k]));
		cJSON_AddItemToArray(ops, o);
	}
	return ops;
}

static cJSON *json_stages(const dalic_stats_snapshot_t *snap)
{
	cJSON *stages = cJSON_CreateArray();
	for (int s = 0; s < 3; s++) {
		const dalic_stats_stage_t *st = &snap->stages[s];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", st->name);
		cJSON_AddBoolToObject(o, "present", st->present);
		cJSON_AddNumberToObject(o, "operators", st->num_operators);
		cJSON_AddItemToObject(o, "time", json_timing(&st->time));
		cJSON_AddNumberToObject(o, "share", st->share);
		cJSON_AddItemToObject(o, "wait_before", json_timing(&st->wait_before));
		cJSON_AddItemToArray(stages, o);
	}
	return stages;
}

static cJSON *json_name_or_null(const char *s)
{
	return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static cJSON *json_bottleneck(const dalic_stats_snapshot_t *snap)
{
	cJSON *b = cJSON_CreateObject();
	const dalic_stats_operator_t *op =
	    snap->bottleneck_operator >= 0 ? &snap->operators[snap->bottleneck_operator] : NULL;
	const dalic_stats_stage_t *st =
	    snap->bottleneck_stage >= 0 ? &snap->stages[snap->bottleneck_stage] : NULL;
	cJSON_AddItemToObject(b, "operator", json_name_or_null(op ? op->name : NULL));
	cJSON_AddNumberToObject(b, "operator_share", op ? op->share : 0);
	cJSON_AddItemToObject(b, "stage", json_name_or_null(st ? st->name : NULL));
	cJSON_AddNumberToObject(b, "stage_share", st ? st->share : 0);
	cJSON_AddNumberToObject(b, "overhead_share", snap->overhead_share);
	return b;
}

static cJSON *json_waits(const dalic_stats_snapshot_t *snap)
{
	cJSON *w = cJSON_CreateObject();
	cJSON_AddItemToObject(w, "consumer", json_timing(&snap->waits[DALIC_STATS_WAIT_CONSUMER]));
	cJSON_AddItemToObject(w, "free_slot",
	                      json_timing(&snap->waits[DALIC_STATS_WAIT_FREE_SLOT]));
	cJSON_AddItemToObject(w, "input", json_timing(&snap->waits[DALIC_STATS_WAIT_INPUT]));
	cJSON_AddItemToObject(w, "ready", json_timing(&snap->waits[DALIC_STATS_WAIT_READY]));
	cJSON_AddBoolToObject(w, "consumer_wait_measured", snap->consumer_wait_measured);
	cJSON_AddNumberToObject(w, "consumer_wait_share", snap->consumer_wait_share);
	cJSON_AddNumberToObject(w, "free_slot_wait_share", snap->free_slot_wait_share);
	cJSON_AddNumberToObject(w, "pipeline_utilization", snap->pipeline_utilization);
	cJSON *v = cJSON_AddObjectToObject(w, "verdict");
	cJSON_AddStringToObject(v, "name", snap->verdict_name);
	cJSON_AddStringToObject(v, "reason", snap->verdict_reason ? snap->verdict_reason : "");
	return w;
}

/* "cpu": the workers' busy and CPU time, the process's getrusage, the sentence on threads. */
static cJSON *json_cpu(const dalic_stats_snapshot_t *snap)
{
	cJSON *c = cJSON_CreateObject();
	cJSON *ws = cJSON_AddArrayToObject(c, "workers");
	for (int i = 0; i < snap->num_workers; i++) {
		const dalic_stats_worker_t *w = &snap->workers[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "index", i);
		cJSON_AddNumberToObject(o, "chunks", (double)w->chunks);
		cJSON_AddNumberToObject(o, "samples", (double)w->samples);
		cJSON_AddNumberToObject(o, "busy_ns", (double)w->busy_ns);
		cJSON_AddNumberToObject(o, "cpu_ns", (double)w->cpu_ns);
		cJSON_AddNumberToObject(o, "busy_share", w->busy_share);
		cJSON_AddNumberToObject(o, "idle_share", w->idle_share);
		cJSON_AddNumberToObject(o, "cpu_share", w->cpu_share);
		const dalic_stats_operator_t *top =
		    w->top_operator >= 0 ? &snap->operators[w->top_operator] : NULL;
		cJSON_AddItemToObject(o, "top_operator", json_name_or_null(top ? top->name : NULL));
		cJSON_AddNumberToObject(o, "top_operator_share", w->top_operator_share);
		cJSON_AddItemToArray(ws, o);
	}
	cJSON_AddNumberToObject(c, "workers_busy_share", snap->workers_busy_share);
	cJSON_AddNumberToObject(c, "workers_cpu_share", snap->workers_cpu_share);
	cJSON *p = cJSON_AddObjectToObject(c, "process");
	cJSON_AddNumberToObject(p, "user_seconds", snap->process_user_s);
	cJSON_AddNumberToObject(p, "system_seconds", snap->process_sys_s);
	cJSON_AddNumberToObject(p, "elapsed_seconds", snap->process_elapsed_s);
	cJSON_AddNumberToObject(p, "cores", snap->process_cores);
	cJSON_AddNumberToObject(c, "online_cpus", snap->online_cpus);
	cJSON_AddStringToObject(c, "verdict", snap->cpu_verdict ? snap->cpu_verdict : "");
	return c;
}

/* "trend": each point's cumulative counters and the rates since the point before (the first
 * since the collector started). */
static cJSON *json_trend(const dalic_stats_snapshot_t *snap)
{
	cJSON *t = cJSON_CreateObject();
	cJSON_AddNumberToObject(t, "interval_seconds", snap->trend_interval_s);
	cJSON *pts = cJSON_AddArrayToObject(t, "points");
	dalic_stats_trend_point_t prev = {0};
	for (int i = 0; i < snap->num_trend; i++) {
		const dalic_stats_trend_point_t *p = &snap->trend[i];
		double dt = p->t_s - prev.t_s;
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "t_seconds", p->t_s);
		cJSON_AddNumberToObject(o, "iterations", (double)p->iterations);
		cJSON_AddNumberToObject(o, "samples", (double)p->samples);
		cJSON_AddNumberToObject(o, "reader_bytes", (double)p->reader_bytes);
		cJSON_AddNumberToObject(o, "reader_files", (double)p->reader_files);
		cJSON_AddNumberToObject(o, "bytes_live", (double)p->bytes_live);
		cJSON_AddNumberToObject(o, "cpu_seconds", p->cpu_s);
		cJSON_AddNumberToObject(o, "samples_per_second",
		                        dt > 0 ? (double)(p->samples - prev.samples) / dt : 0);
		cJSON_AddNumberToObject(
		    o, "reader_mb_per_second",
		    dt > 0 ? (double)(p->reader_bytes - prev.reader_bytes) / dt * 1e-6 : 0);
		cJSON_AddNumberToObject(
		    o, "files_per_second",
		    dt > 0 ? (double)(p->reader_files - prev.reader_files) / dt : 0);
		cJSON_AddNumberToObject(o, "cpu_cores", dt > 0 ? (p->cpu_s - prev.cpu_s) / dt : 0);
		cJSON *ops = cJSON_AddArrayToObject(o, "operator_ns");
		for (int k = 0; k < snap->num_operators; k++)
			cJSON_AddItemToArray(ops, cJSON_CreateNumber((double)snap->trend_operator_ns
			                                                 [(size_t)i * snap->num_operators + k]));
		cJSON_AddItemToArray(pts, o);
		prev = *p;
	}
	return t;
}

static cJSON *json_queues(const dalic_stats_snapshot_t *snap)
{
	cJSON *qs = cJSON_CreateArray();
	for (int q = 0; q < DALIC_STATS_QUEUES; q++) {
		const dalic_stats_queue_t *d = &snap->queues[q];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", d->name);
		cJSON_AddBoolToObject(o, "present", d->present);
		cJSON_AddNumberToObject(o, "depth", d->depth);
		cJSON_AddNumberToObject(o, "occupancy", d->occupancy);
		cJSON_AddNumberToObject(o, "max_occupancy", d->max_occupancy);
		cJSON_AddNumberToObject(o, "mean_occupancy", d->mean_occupancy);
		cJSON_AddNumberToObject(o, "changes", (double)d->changes);
		cJSON_AddNumberToObject(o, "bytes", (double)d->bytes);
		cJSON *h = cJSON_AddArrayToObject(o, "history");
		for (int i = 0; i < d->num_samples; i++) {
			cJSON *pt = cJSON_CreateArray();
			cJSON_AddItemToArray(pt, cJSON_CreateNumber((double)d->samples[i].t_ns));
			cJSON_AddItemToArray(pt, cJSON_CreateNumber(d->samples[i].occupancy));
			cJSON_AddItemToArray(h, pt);
		}
		cJSON_AddItemToArray(qs, o);
	}
	return qs;
}

static cJSON *json_allocations(const dalic_stats_snapshot_t *snap)
{
	cJSON *a = cJSON_CreateObject();
	cJSON_AddNumberToObject(a, "count", (double)snap->allocations);
	cJSON_AddNumberToObject(a, "bytes", (double)snap->bytes_allocated);
	cJSON_AddNumberToObject(a, "last_iteration_count",
	                        (double)snap->last_iteration_allocations);
	cJSON_AddNumberToObject(a, "last_iteration_bytes", (double)snap->last_iteration_bytes);
	cJSON_AddNumberToObject(a, "last_allocation_iteration",
	                        (double)snap->last_allocation_iteration);
	cJSON_AddNumberToObject(a, "bytes_live", (double)snap->bytes_live);
	cJSON_AddNumberToObject(a, "reserved_total", (double)snap->reserved_total);
	cJSON *g = cJSON_AddObjectToObject(a, "growth");
	cJSON_AddNumberToObject(g, "total", (double)snap->growth_events);
	cJSON *ev = cJSON_AddArrayToObject(g, "events");
	for (int i = 0; i < snap->num_growth; i++) {
		const dalic_stats_growth_t *e = &snap->growth[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "iteration", (double)e->iteration);
		cJSON_AddNumberToObject(o, "t_ns", (double)e->t_ns);
		cJSON_AddStringToObject(o, "operator", e->op);
		cJSON_AddNumberToObject(o, "output", e->output);
		cJSON_AddNumberToObject(o, "sample", e->sample);
		cJSON_AddItemToObject(o, "source", json_name_or_null(e->source));
		cJSON_AddNumberToObject(o, "old_capacity", (double)e->old_capacity);
		cJSON_AddNumberToObject(o, "new_capacity", (double)e->new_capacity);
		cJSON_AddItemToArray(ev, o);
	}
	return a;
}

static cJSON *json_warnings(const dalic_stats_snapshot_t *snap)
{
	cJSON *w = cJSON_CreateObject();
	cJSON_AddNumberToObject(w, "total", (double)(snap->num_warnings + snap->warnings_dropped));
	cJSON_AddNumberToObject(w, "dropped", (double)snap->warnings_dropped);
	cJSON *ev = cJSON_AddArrayToObject(w, "entries");
	for (int64_t i = 0; i < snap->num_warnings; i++) {
		const dalic_warning_t *e = &snap->warnings[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "operator", e->op);
		cJSON_AddStringToObject(o, "op", e->schema ? e->schema : "");
		cJSON_AddNumberToObject(o, "iteration", (double)e->iteration);
		cJSON_AddNumberToObject(o, "sample", e->sample);
		cJSON_AddItemToObject(o, "source", json_name_or_null(e->source));
		cJSON_AddNumberToObject(o, "record", (double)e->record);
		cJSON_AddStringToObject(o, "message", e->message ? e->message : "");
		cJSON_AddNumberToObject(o, "repeats", (double)e->repeats);
		cJSON_AddBoolToObject(o, "error", e->error);
		cJSON_AddItemToArray(ev, o);
	}
	return w;
}

static cJSON *json_document(const dalic_stats_snapshot_t *snap)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddNumberToObject(root, "schema_version", DALIC_STATS_SCHEMA_VERSION);
	cJSON_AddStringToObject(root, "generator", "dalic " DALIC_VERSION);
	cJSON_AddItemToObject(root, "pipeline", json_pipeline(snap));
	cJSON_AddNumberToObject(root, "iterations", (double)snap->iterations);
	cJSON_AddNumberToObject(root, "samples", (double)snap->samples);
	cJSON_AddNumberToObject(root, "wall_seconds", snap->wall_s);
	cJSON_AddNumberToObject(root, "samples_per_second", snap->samples_per_second);
	cJSON_AddNumberToObject(root, "iterations_per_second", snap->iterations_per_second);
	cJSON_AddItemToObject(root, "iteration_time", json_timing(&snap->iteration_time));
	cJSON_AddItemToObject(root, "iteration_interval", json_timing(&snap->iteration_interval));
	cJSON_AddItemToObject(root, "executor_statistics", json_executor_statistics(snap));
	cJSON_AddItemToObject(root, "operators", json_operators(snap));
	cJSON_AddItemToObject(root, "stages", json_stages(snap));
	cJSON_AddItemToObject(root, "bottleneck", json_bottleneck(snap));
	cJSON_AddItemToObject(root, "waits", json_waits(snap));
	cJSON_AddItemToObject(root, "cpu", json_cpu(snap));
	cJSON_AddItemToObject(root, "trend", json_trend(snap));
	cJSON_AddItemToObject(root, "queues", json_queues(snap));
	cJSON_AddItemToObject(root, "allocations", json_allocations(snap));
	cJSON *t = cJSON_AddObjectToObject(root, "trace");
	cJSON_AddNumberToObject(t, "events", (double)snap->trace_events);
	cJSON_AddNumberToObject(t, "dropped", (double)snap->trace_dropped);
	cJSON_AddNumberToObject(root, "unknown_events", (double)snap->unknown_events);
	cJSON_AddItemToObject(root, "warnings", json_warnings(snap));
	return root;
}

static char *json_print_and_free(cJSON *root)
{
	char *text = root ? cJSON_Print(root) : NULL;
	cJSON_Delete(root);
	if (!text)
		dalic_fail(DALIC_ENOMEM, "out of memory writing stats JSON");
	return text;
}

char *dalic_stats_json(const dalic_stats_snapshot_t *snap)
{
	return json_print_and_free(json_document(snap));
}

char *dalic_stats_executor_statistics_json(const dalic_stats_snapshot_t *snap)
{
	return json_print_and_free(json_executor_statistics(snap));
}

int dalic_stats_write_json(const dalic_stats_snapshot_t *snap, FILE *f)
{
	char *text = dalic_stats_json(snap);
	if (!text)
		return DALIC_ENOMEM;
	int rc = fputs(text, f) < 0 || fputc('\n', f) == EOF ? DALIC_EIO : DALIC_OK;
	free(text);
	return rc ? dalic_fail(rc, "cannot write stats JSON") : DALIC_OK;
}
