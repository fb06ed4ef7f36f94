/*
 * The plain-text report: Redis INFO style, `# Section` headers and one `key: value` per line,
 * composite values as `k=v,k=v`, so people read it and scripts split it on ": " and ",".
 * Times are milliseconds with three decimals, shares percentages with one. Keys within a
 * section are unique (operators use their instance names, which the graph keeps unique).
 */
#include "dalic_stats.h"

#include "engine/error.h"

static double report_ms(int64_t ns)
{
	return (double)ns * 1e-6;
}

static void report_timing(FILE *f, const dalic_stats_timing_t *t)
{
	fprintf(f, "count=%lld,mean_ms=%.3f,p50_ms=%.3f,p90_ms=%.3f,p99_ms=%.3f,max_ms=%.3f",
	        (long long)t->count, t->mean_ns * 1e-6, report_ms(t->p50_ns), report_ms(t->p90_ns), report_ms(t->p99_ns),
	        report_ms(t->max_ns));
}

static const char *report_yes(bool b)
{
	return b ? "yes" : "no";
}

static void report_section_pipeline(FILE *f, const dalic_stats_snapshot_t *s)
{
	fprintf(f, "# Pipeline\nexecutor: %s\nbatch_size: %d\nnum_threads: %d\n", s->executor_mode,
	        s->batch_size, s->num_threads);
	if (s->separated_queues)
		fprintf(f, "prefetch_queue_depth: cpu=%d,gpu=%d\n", s->prefetch_cpu,
		        s->prefetch_gpu);
	else
		fprintf(f, "prefetch_queue_depth: %d\n", s->prefetch_cpu);
	fprintf(f, "cpu_only: %s\n", report_yes(s->cpu_only));
	fprintf(f, "emulated_device: %s\n",
	        s->emulated_device ? "yes (EMULATED: gpu and mixed operators run on the CPU)"
	                           : "no");
	fprintf(f, "enable_memory_stats: %s\n\n", report_yes(s->memory_stats));
}

static void report_section_throughput(FILE *f, const dalic_stats_snapshot_t *s)
{
	fprintf(f, "# Throughput\niterations: %lld\nsamples: %lld\nwall_seconds: %.6f\n",
	        (long long)s->iterations, (long long)s->samples, s->wall_s);
	fprintf(f, "samples_per_second: %.1f\niterations_per_second: %.2f\n", s->samples_per_second,
	        s->iterations_per_second);
	fprintf(f, "iteration_time: ");
	report_timing(f, &s->iteration_time);
	fprintf(f, "\niteration_interval: ");
	report_timing(f, &s->iteration_interval);
	fprintf(f, "\n\n");
}

static void report_section_time(FILE *f, const dalic_stats_snapshot_t *s)
{
	fprintf(f, "# Stages\n");
	for (int i = 0; i < 3; i++) {
		const dalic_stats_stage_t *st = &s->stages[i];
		if (!st->present)
			continue;
		fprintf(f, "stage_%s: operators=%d,", st->name, st->num_operators);
		report_timing(f, &st->time);
		fprintf(f, ",share=%.1f%%\n", 100 * st->share);
		if (st->wait_before.count > 0) {
			fprintf(f, "wait_before_%s: ", st->name);
			report_timing(f, &st->wait_before);
			fprintf(f, "\n");
		}
	}
	fprintf(f, "\n# Operators\n");
	for (int i = 0; i < s->num_operators; i++) {
		const dalic_stats_operator_t *op = &s->operators[i];
		fprintf(f, "%s: op=%s,stage=%s,internal=%s,", op->name, op->op,
		        s->stages[op->stage].name, report_yes(op->internal));
		report_timing(f, &op->time);
		fprintf(f, ",share=%.1f%%,cpu_ms=%.3f,work_ms=%.3f", 100 * op->share,
		        (double)op->cpu_ns * 1e-6, (double)op->work_ns * 1e-6);
		if (op->emulated && !s->emulated_device)
			fprintf(f, ",emulated=yes");
		if (op->gpu_runs > 0)
			fprintf(f, ",gpu_ms=%.3f,gpu_runs=%lld", (double)op->gpu_ns * 1e-6,
			        (long long)op->gpu_runs);
		fprintf(f, "\n");
	}
	fprintf(f, "\n# Bottleneck\n");
	if (s->bottleneck_operator >= 0) {
		const dalic_stats_operator_t *op = &s->operators[s->bottleneck_operator];
		fprintf(f, "operator: %s\noperator_share: %.1f%%\n", op->name, 100 * op->share);
	} else {
		fprintf(f, "operator: none\n");
	}
	if (s->bottleneck_stage >= 0) {
		const dalic_stats_stage_t *st = &s->stages[s->bottleneck_stage];
		fprintf(f, "stage: %s\nstage_mean_ms: %.3f\nstage_share: %.1f%%\n", st->name,
		        st->time.mean_ns * 1e-6, 100 * st->share);
	} else {
		fprintf(f, "stage: none\n");
	}
	fprintf(f, "executor_overhead_share: %.1f%%\n\n", 100 * s->overhead_share);
}

static void report_section_waits(FILE *f, const dalic_stats_snapshot_t *s)
{
	static const char *const names[DALIC_STATS_WAITS] = {"consumer_wait", "free_slot_wait",
	                                                     "input_wait", "ready_wait"};
	fprintf(f, "# Waits\n");
	for (int w = 0; w < DALIC_STATS_WAITS; w++) {
		fprintf(f, "%s: total_s=%.6f,", names[w], (double)s->waits[w].total_ns * 1e-9);
		report_timing(f, &s->waits[w]);
		fprintf(f, "\n");
	}
	fprintf(f, "consumer_wait_measured: %s\n", report_yes(s->consumer_wait_measured));
	fprintf(f, "consumer_wait_share: %.1f%%\nfree_slot_wait_share: %.1f%%\n",
	        100 * s->consumer_wait_share, 100 * s->free_slot_wait_share);
	fprintf(f, "pipeline_utilization: %.1f%%\n", 100 * s->pipeline_utilization);
	fprintf(f, "verdict: %s\nverdict_reason: %s\n\n", s->verdict_name,
	        s->verdict_reason ? s->verdict_reason : "");
}

static void report_section_cpu(FILE *f, const dalic_stats_snapshot_t *s)
{
	fprintf(f, "# CPU\n");
	for (int i = 0; i < s->num_workers; i++) {
		const dalic_stats_worker_t *w = &s->workers[i];
		fprintf(f,
		        "worker_%d: busy=%.1f%%,idle=%.1f%%,on_cpu=%.1f%%,busy_ms=%.3f,cpu_ms=%.3f,"
		        "chunks=%lld,samples=%lld,top_operator=%s,top_share=%.1f%%\n",
		        i, 100 * w->busy_share, 100 * w->idle_share, 100 * w->cpu_share,
		        (double)w->busy_ns * 1e-6, (double)w->cpu_ns * 1e-6, (long long)w->chunks,
		        (long long)w->samples,
		        w->top_operator >= 0 ? s->operators[w->top_operator].name : "-",
		        100 * w->top_operator_share);
	}
	fprintf(f, "workers_busy: %.1f%%\nworkers_on_cpu: %.1f%%\n", 100 * s->workers_busy_share,
	        100 * s->workers_cpu_share);
	fprintf(f, "process_user_s: %.3f\nprocess_system_s: %.3f\nprocess_elapsed_s: %.3f\n",
	        s->process_user_s, s->process_sys_s, s->process_elapsed_s);
	fprintf(f, "process_cores: %.2f of %d\ncpu_verdict: %s\n\n", s->process_cores,
	        s->online_cpus, s->cpu_verdict ? s->cpu_verdict : "");
	fprintf(f, "# Trend\ntrend_points: %d\ntrend_interval_s: %.3f\n", s->num_trend,
	        s->trend_interval_s);
	const dalic_stats_trend_point_t *prev = NULL;
	for (int i = 0; i < s->num_trend; i++) {
		const dalic_stats_trend_point_t *p = &s->trend[i];
		double dt = prev ? p->t_s - prev->t_s : p->t_s;
		int64_t ds = p->samples - (prev ? prev->samples : 0);
		int64_t db = p->reader_bytes - (prev ? prev->reader_bytes : 0);
		fprintf(f, "trend_%d: t_s=%.3f,samples_per_s=%.1f,reader_mb_per_s=%.3f,bytes_live=%lld\n",
		        i, p->t_s, dt > 0 ? (double)ds / dt : 0, dt > 0 ? (double)db / dt * 1e-6 : 0,
		        (long long)p->bytes_live);
		prev = p;
	}
	fprintf(f, "\n");
}

static void report_section_queues(FILE *f, const dalic_stats_snapshot_t *s)
{
	fprintf(f, "# Queues\n");
	for (int q = 0; q < DALIC_STATS_QUEUES; q++) {
		const dalic_stats_queue_t *d = &s->queues[q];
		if (!d->present)
			continue;
		fprintf(f,
		        "queue_%s: depth=%d,occupancy=%d,max_occupancy=%d,mean_occupancy=%.2f,"
		        "changes=%lld,bytes=%lld\n",
		        d->name, d->depth, d->occupancy, d->max_occupancy, d->mean_occupancy,
		        (long long)d->changes, (long long)d->bytes);
	}
	fprintf(f, "\n");
}

static void report_int_list(FILE *f, const char *key, const dalic_stats_operator_t *op, int which)
{
	fprintf(f, "%s=[", key);
	for (int o = 0; o < op->num_outputs; o++) {
		const dalic_stats_output_t *d = &op->outputs[o];
		int64_t v = which == 0   ? d->real_memory_size
		            : which == 1 ? d->max_real_memory_size
		            : which == 2 ? d->reserved_memory_size
		            : which == 3 ? d->max_reserved_memory_size
		                         : d->suggested_hint;
		fprintf(f, "%s%lld", o ? " " : "", (long long)v);
	}
	fprintf(f, "]");
}

static void report_section_memory(FILE *f, const dalic_stats_snapshot_t *s)
{
	fprintf(f, "# executor_statistics\n");
	if (!s->memory_stats) {
		fprintf(f,
		        "executor_statistics: disabled (enable_memory_stats / --memory-stats)\n\n");
		return;
	}
	for (int i = 0; i < s->num_operators; i++) {
		const dalic_stats_operator_t *op = &s->operators[i];
		if (op->time.count == 0)
			continue;
		fprintf(f, "%s: ", op->key);
		report_int_list(f, "real_memory_size", op, 0);
		report_int_list(f, ",max_real_memory_size", op, 1);
		report_int_list(f, ",reserved_memory_size", op, 2);
		report_int_list(f, ",max_reserved_memory_size", op, 3);
		report_int_list(f, ",suggested_bytes_per_sample_hint", op, 4);
		fprintf(f, "\n");
	}
	fprintf(f, "reserved_total: %lld\n\n", (long long)s->reserved_total);
}

static void report_section_allocations(FILE *f, const dalic_stats_snapshot_t *s)
{
	fprintf(f, "# Allocations\nallocations: %lld\nbytes_allocated: %lld\n",
	        (long long)s->allocations, (long long)s->bytes_allocated);
	fprintf(f, "last_iteration_allocations: %lld\nlast_iteration_bytes: %lld\n",
	        (long long)s->last_iteration_allocations, (long long)s->last_iteration_bytes);
	fprintf(f, "last_allocation_iteration: %lld\nbytes_live: %lld\ngrowth_events: %lld\n",
	        (long long)s->last_allocation_iteration, (long long)s->bytes_live,
	        (long long)s->growth_events);
	for (int i = 0; i < s->num_operators; i++) {
		const dalic_stats_operator_t *op = &s->operators[i];
		for (int o = 0; o < op->num_outputs; o++) {
			const dalic_stats_output_t *d = &op->outputs[o];
			if (d->allocations == 0)
				continue;
			fprintf(f,
			        "alloc_%s[%d]: count=%lld,bytes=%lld,last_iteration_count=%lld,"
			        "max_per_iteration=%lld,last_allocation_iteration=%lld,"
			        "bytes_live=%lld,growth_events=%lld\n",
			        op->name, o, (long long)d->allocations,
			        (long long)d->bytes_allocated, (long long)d->last_allocations,
			        (long long)d->max_allocations,
			        (long long)d->last_allocation_iteration, (long long)d->bytes_live,
			        (long long)d->growth_events);
		}
	}
	for (int i = 0; i < s->num_growth; i++) {
		const dalic_stats_growth_t *g = &s->growth[i];
		fprintf(
		    f,
		    "growth_%d: iteration=%lld,operator=%s,output=%d,sample=%d,old_capacity=%lld,"
		    "new_capacity=%lld,source=%s\n",
		    i, (long long)g->iteration, g->op, g->output, g->sample,
		    (long long)g->old_capacity, (long long)g->new_capacity,
		    g->source ? g->source : "-");
	}
	fprintf(f, "\n# Trace\ntrace_events: %lld\ntrace_dropped: %lld\nunknown_events: %lld\n",
	        (long long)s->trace_events, (long long)s->trace_dropped,
	        (long long)s->unknown_events);
}

/* Data-quality warnings: the count, then the first few entries (the JSON has them all). */
static void report_section_warnings(FILE *f, const dalic_stats_snapshot_t *s)
{
	fprintf(f, "\n# Warnings\nwarnings: %lld\n",
	        (long long)(s->num_warnings + s->warnings_dropped));
	for (int64_t i = 0; i < s->num_warnings && i < 10; i++) {
		const dalic_warning_t *w = &s->warnings[i];
		fprintf(f, "warning_%lld: iteration=%lld,operator=%s,sample=%d,source=%s,message=%s\n",
		        (long long)i, (long long)w->iteration, w->op, w->sample,
		        w->source ? w->source : "-", w->message);
	}
}

int dalic_stats_write_report(const dalic_stats_snapshot_t *snap, FILE *f)
{
	report_section_pipeline(f, snap);
	report_section_throughput(f, snap);
	report_section_time(f, snap);
	report_section_waits(f, snap);
	report_section_cpu(f, snap);
	report_section_queues(f, snap);
	report_section_memory(f, snap);
	report_section_allocations(f, snap);
	report_section_warnings(f, snap);
	if (ferror(f))
		return dalic_fail(DALIC_EIO, "cannot write the stats report");
	return DALIC_OK;
}
