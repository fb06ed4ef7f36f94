/*
 * The observer hooks (engine/observer.h) that feed the collector. They run on executor
 * threads, possibly concurrently for different stages and workers, so each one does a few
 * relaxed atomic updates, a histogram record and, when tracing, one ring append. Only the
 * queue and growth hooks — a few calls per iteration at most — take a mutex, for a handful
 * of stores. Nothing here allocates, except the warning hook (damaged data, rare).
 */
#include "stats/collector.h"

#include "engine/batch.h"
#include "engine/clock.h"

#include <string.h>

static void hooks_touch(dalic_stats_t *s, int64_t t_start, int64_t t_end)
{
	int64_t zero = 0;
	if (atomic_load_explicit(&s->first_t, memory_order_relaxed) == 0)
		atomic_compare_exchange_strong(&s->first_t, &zero, t_start);
	dalic_atomic_max(&s->last_t, t_end);
}

static void hooks_trace_cpu(dalic_stats_t *s, int type, int id, int thread, int a, int b,
                            int64_t it, int64_t t0, int64_t t1, int64_t cpu)
{
	if (!s->tracing)
		return;
	dalic_trace_event_t ev = {.type = type,
	                          .id = id,
	                          .thread = thread,
	                          .a = a,
	                          .b = b,
	                          .iteration = it,
	                          .t0 = t0,
	                          .t1 = t1,
	                          .cpu = cpu};
	dalic_trace_ring_push(&s->trace, &ev);
}

static void hooks_trace(dalic_stats_t *s, int type, int id, int thread, int a, int b, int64_t it,
                  int64_t t0, int64_t t1)
{
	hooks_trace_cpu(s, type, id, thread, a, b, it, t0, t1, 0);
}

static void hooks_on_node_run(void *user, const dalic_node_t *node, int64_t iteration, int batch,
                        int64_t t_start, int64_t t_end, int64_t cpu_ns)
{
	dalic_stats_t *s = user;
	dalic_stats_node_t *sn = dalic_stats_node_of(s, node);
	if (!sn)
		return;
	dalic_hist_record(&sn->time, t_end - t_start);
	atomic_fetch_add_explicit(&sn->cpu_ns, cpu_ns, memory_order_relaxed);
	hooks_touch(s, t_start, t_end);
	dalic_stats_layout_t *L = atomic_load_explicit(&s->layout, memory_order_relaxed);
	if (node->index == L->sample_node)
		atomic_fetch_add_explicit(&s->samples, batch, memory_order_relaxed);
	hooks_trace_cpu(s, DALIC_TRACE_NODE, node->index, 0, batch, 0, iteration, t_start, t_end,
	                cpu_ns);
}

static void hooks_on_node_gpu(void *user, const dalic_node_t *node, int64_t iteration,
                              int64_t gpu_ns)
{
	dalic_stats_node_t *sn = dalic_stats_node_of(user, node);
	if (!sn)
		return;
	atomic_fetch_add_explicit(&sn->gpu_ns, gpu_ns, memory_order_relaxed);
	atomic_fetch_add_explicit(&sn->gpu_runs, 1, memory_order_relaxed);
}

static void hooks_on_work_chunk(void *user, const dalic_node_t *node, int64_t iteration, int thread,
                          int first, int count, int64_t t_start, int64_t t_end, int64_t cpu_ns)
{
	dalic_stats_t *s = user;
	dalic_stats_node_t *sn = dalic_stats_node_of(s, node);
	dalic_stats_layout_t *L = atomic_load_explicit(&s->layout, memory_order_relaxed);
	if (sn && thread >= 0 && thread < L->num_workers) {
		int64_t busy = t_end - t_start;
		dalic_stats_wstate_t *w = &L->workers[thread];
		atomic_fetch_add_explicit(&w->busy_ns, busy, memory_order_relaxed);
		atomic_fetch_add_explicit(&w->cpu_ns, cpu_ns, memory_order_relaxed);
		atomic_fetch_add_explicit(&w->chunks, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&w->samples, count, memory_order_relaxed);
		atomic_fetch_add_explicit(&L->worker_node_ns[thread * L->num_nodes + node->index],
		                          busy, memory_order_relaxed);
		atomic_fetch_add_explicit(&sn->cpu_ns, cpu_ns, memory_order_relaxed);
		atomic_fetch_add_explicit(&sn->work_ns, busy, memory_order_relaxed);
	}
	hooks_trace_cpu(s, DALIC_TRACE_CHUNK, node->index, thread, first, count, iteration, t_start,
	                t_end, cpu_ns);
}

/* The hand-offs of an iteration: whichever of two neighbouring stages reports second records
 * the gap between them (the executor reports a stage before passing the batch on, so in
 * practice the later stage). Once per stage and iteration, so a mutex is cheap here. */
static void hooks_stage_handoff(dalic_stats_t *s, int stage, int64_t iteration, int64_t t_start,
                                int64_t t_end)
{
	dalic_stats_layout_t *L = atomic_load_explicit(&s->layout, memory_order_relaxed);
	if (!L || iteration < 0)
		return;
	int prev = stage - 1, next = stage + 1;
	while (prev >= 0 && L->stage_nodes[prev] == 0)
		prev--;
	while (next < DALIC_NUM_STAGES && L->stage_nodes[next] == 0)
		next++;
	pthread_mutex_lock(&s->iter_lock);
	dalic_stats_iter_t *it = &s->iters[iteration % DALIC_STATS_ITER_RING];
	if (it->iteration != iteration) {
		memset(it, 0, sizeof *it);
		it->iteration = iteration;
	}
	it->t0[stage] = t_start;
	it->t1[stage] = t_end;
	it->have[stage] = true;
	if (prev >= 0 && it->have[prev] && t_start >= it->t1[prev])
		dalic_hist_record(&s->stage_wait[stage], t_start - it->t1[prev]);
	if (next < DALIC_NUM_STAGES && it->have[next] && it->t0[next] >= t_end)
		dalic_hist_record(&s->stage_wait[next], it->t0[next] - t_end);
	pthread_mutex_unlock(&s->iter_lock);
}

static void hooks_on_stage_run(void *user, int stage, int64_t iteration, int64_t t_start, int64_t t_end)
{
	dalic_stats_t *s = user;
	if (stage < 0 || stage >= DALIC_NUM_STAGES)
		return;
	dalic_hist_record(&s->stage_time[stage], t_end - t_start);
	hooks_stage_handoff(s, stage, iteration, t_start, t_end);
	hooks_touch(s, t_start, t_end);
	hooks_trace(s, DALIC_TRACE_STAGE, stage, 0, 0, 0, iteration, t_start, t_end);
}

static void hooks_on_iteration_ready(void *user, int64_t iteration, int64_t t_scheduled, int64_t t_ready)
{
	dalic_stats_t *s = user;
	atomic_fetch_add_explicit(&s->iterations, 1, memory_order_relaxed);
	dalic_hist_record(&s->iter_time, t_ready - t_scheduled);
	int64_t prev = atomic_exchange_explicit(&s->last_ready, t_ready, memory_order_relaxed);
	if (prev > 0 && t_ready >= prev)
		dalic_hist_record(&s->iter_interval, t_ready - prev);
	hooks_touch(s, t_scheduled, t_ready);
	dalic_stats_trend_tick(s, t_ready);
	hooks_trace(s, DALIC_TRACE_ITERATION, 0, 0, 0, 0, iteration, t_scheduled, t_ready);
}

/* DALI's GetMaxSizes: contiguous batches report ceil(bytes / samples), per-sample batches
 * their largest sample (for capacity: the largest sample buffer). A CPU operator's packed
 * batch keeps the per-sample meaning (the largest tensor, docs/stats.md): its largest sample,
 * and for capacity that or the average capacity when larger. */
static void hooks_per_sample_max(const dalic_batch_t *b, size_t nbytes, size_t cap, int64_t *real,
                           int64_t *reserved)
{
	int n = b->num_samples;
	*real = *reserved = 0;
	if (n <= 0)
		return;
	if (b->contiguous) {
		*real = (int64_t)((nbytes + (size_t)n - 1) / (size_t)n);
		*reserved = (int64_t)((cap + (size_t)n - 1) / (size_t)n);
		if (b->packed) {
			*real = (int64_t)dalic_batch_max_sample_bytes(b);
			if (*real > *reserved)
				*reserved = *real;
		}
		return;
	}
	for (int i = 0; i < n; i++) {
		size_t bytes = dalic_batch_sample_bytes(b, i);
		/* a borrowed sample has no buffer of its own here: its size is what it holds */
		size_t c = b->borrowed[i] ? bytes : b->samples[i].capacity;
		if ((int64_t)bytes > *real)
			*real = (int64_t)bytes;
		if ((int64_t)c > *reserved)
			*reserved = (int64_t)c;
	}
}

/* Reserved bytes of an output: its capacity, and what its borrowed samples hold (they have
 * no buffer here; as for per-sample storage, their size is what they reserve). A
 * MakeContiguous passing its input through stands for the producer's buffer, and DALI
 * reports the producer's figures for it. */
static size_t hooks_reserved(const dalic_batch_t *b)
{
	if (b->shares)
		b = b->shares;
	size_t cap = dalic_batch_capacity(b);
	if (!b->contiguous)
		return cap;
	for (int i = 0; i < b->num_samples; i++)
		if (b->borrowed[i])
			cap += dalic_batch_sample_bytes(b, i);
	return cap;
}

static void hooks_count_allocations(dalic_stats_out_t *o, const dalic_mem_counter_t *c, int64_t iteration)
{
	int64_t a = atomic_load_explicit(&c->allocations, memory_order_relaxed);
	int64_t bytes = atomic_load_explicit(&c->bytes_allocated, memory_order_relaxed);
	atomic_store_explicit(&o->seen_live,
	                      atomic_load_explicit(&c->bytes_live, memory_order_relaxed),
	                      memory_order_relaxed);
	int64_t da = a - atomic_exchange_explicit(&o->seen_allocs, a, memory_order_relaxed);
	int64_t db = bytes - atomic_exchange_explicit(&o->seen_bytes, bytes, memory_order_relaxed);
	atomic_store_explicit(&o->last_allocs, da, memory_order_relaxed);
	atomic_store_explicit(&o->last_bytes, db, memory_order_relaxed);
	atomic_store_explicit(&o->last_iteration, iteration, memory_order_relaxed);
	dalic_atomic_max(&o->max_allocs, da);
	if (da > 0)
		dalic_atomic_max(&o->last_alloc_iteration, iteration);
}

static bool hooks_is_split_merge(const dalic_node_t *node)
{
	const char *name = node->schema->name;
	return !strcmp(name, "_conditional__Split") || !strcmp(name, "_conditional__Merge");
}

static void hooks_on_output_memory(void *user, const dalic_node_t *node, int output,
                             const dalic_batch_t *b, int64_t iteration)
{
	dalic_stats_t *s = user;
	dalic_stats_node_t *sn = dalic_stats_node_of(s, node);
	if (!sn || output < 0 || output >= sn->num_outputs || !b)
		return;
	dalic_stats_out_t *o = &sn->outputs[output];
	if (sn->reader && output == 0) { /* the trend's reader MB/s and files/s */
		atomic_fetch_add_explicit(&sn->out_bytes, (int64_t)dalic_batch_nbytes(b),
		                          memory_order_relaxed);
		atomic_fetch_add_explicit(&sn->out_files, b->num_samples, memory_order_relaxed);
	}
	atomic_store_explicit(&o->memory_kind, (int)b->mem, memory_order_relaxed);
	atomic_store_explicit(&o->contiguous, b->contiguous, memory_order_relaxed);
	dalic_stats_layout_t *L = atomic_load_explicit(&s->layout, memory_order_relaxed);
	if (L->memory_stats) {
		size_t nbytes = dalic_batch_nbytes(b), cap = hooks_reserved(b);
		int64_t max_real, max_reserved;
		hooks_per_sample_max(b, nbytes, cap, &max_real, &max_reserved);
		dalic_atomic_max(&o->real, (int64_t)nbytes);
		dalic_atomic_max(&o->reserved, (int64_t)cap);
		dalic_atomic_max(&o->max_real, max_real);
		dalic_atomic_max(&o->max_reserved, max_reserved);
		/* DALI 2.4 stores every batch contiguously, so it always reports the average; an
		 * empty batch (a branch no sample took) divides by zero there and reports 2^63,
		 * kept here as INT64_MAX (2^63 once written as a JSON number) — except for the
		 * conditionals' split and merge, whose empty outputs it does not count */
		size_t n = (size_t)b->num_samples;
		if (n || !hooks_is_split_merge(node)) {
			dalic_atomic_max(&o->max_real_dali24,
			                 n ? (int64_t)((nbytes + n - 1) / n) : INT64_MAX);
			dalic_atomic_max(&o->max_reserved_dali24,
			                 n ? (int64_t)((cap + n - 1) / n) : INT64_MAX);
		}
	}
	if (b->owner)
		hooks_count_allocations(o, b->owner, iteration);
}

static void hooks_on_buffer_growth(void *user, const dalic_node_t *node, int output, int64_t iteration,
                             int sample, const char *source, size_t old_capacity,
                             size_t new_capacity)
{
	dalic_stats_t *s = user;
	dalic_stats_node_t *sn = dalic_stats_node_of(s, node);
	if (!sn)
		return;
	if (output >= 0 && output < sn->num_outputs)
		atomic_fetch_add_explicit(&sn->outputs[output].growth, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&s->growth_total, 1, memory_order_relaxed);
	int64_t t = dalic_clock_ns() - atomic_load_explicit(&s->t0, memory_order_relaxed);
	pthread_mutex_lock(&s->lock);
	int cap = s->opts.growth_history;
	dalic_stats_grec_t *g = &s->growth[(s->growth_head + s->growth_count) % cap];
	if (s->growth_count < cap)
		s->growth_count++;
	else
		s->growth_head = (s->growth_head + 1) % cap;
	g->iteration = iteration;
	g->t = t;
	g->op = sn->name;
	g->output = output;
	g->sample = sample;
	g->has_source = source != NULL;
	if (source) {
		/* keep the tail of long paths: the file name is what people look for */
		size_t len = strlen(source);
		const char *tail =
		    len < sizeof g->source ? source : source + len - (sizeof g->source - 1);
		memcpy(g->source, tail, strlen(tail) + 1);
	}
	g->old_capacity = (int64_t)old_capacity;
	g->new_capacity = (int64_t)new_capacity;
	pthread_mutex_unlock(&s->lock);
}

static void hooks_on_queue_level(void *user, int queue, int occupancy, int depth, int64_t t)
{
	dalic_stats_t *s = user;
	if (queue < 0 || queue >= DALIC_STATS_QUEUES)
		return;
	dalic_stats_qstate_t *q = &s->queues[queue];
	int64_t t0 = atomic_load_explicit(&s->t0, memory_order_relaxed);
	pthread_mutex_lock(&q->lock);
	if (!q->present) {
		q->present = true;
		q->first_t = q->last_t = t;
	}
	if (t > q->last_t) {
		q->integral += (double)q->occupancy * (double)(t - q->last_t);
		q->last_t = t;
	}
	q->occupancy = occupancy;
	q->depth = depth;
	if (occupancy > q->max_occupancy)
		q->max_occupancy = occupancy;
	q->changes++;
	dalic_stats_queue_sample_t *smp = &q->ring[(q->head + q->count) % q->cap];
	if (q->count < q->cap)
		q->count++;
	else
		q->head = (q->head + 1) % q->cap;
	smp->t_ns = t - t0;
	smp->occupancy = occupancy;
	pthread_mutex_unlock(&q->lock);
	hooks_trace(s, DALIC_TRACE_QUEUE, queue, 0, occupancy, depth, -1, t, t);
}

static void hooks_on_wait(void *user, int kind, int64_t t_start, int64_t t_end)
{
	dalic_stats_t *s = user;
	if (kind < 0 || kind >= DALIC_STATS_WAITS)
		return;
	dalic_hist_record(&s->waits[kind], t_end - t_start);
	hooks_touch(s, t_start, t_end);
	hooks_trace(s, DALIC_TRACE_WAIT, kind, 0, 0, 0, -1, t_start, t_end);
}

/* Rare (damaged data): the entry is copied into the collector's log, which allocates. */
static void hooks_on_warning(void *user, const dalic_node_t *node, const dalic_warning_t *w)
{
	dalic_stats_t *s = user;
	dalic_stats_node_t *sn = dalic_stats_node_of(s, node);
	if (sn)
		atomic_fetch_add_explicit(&sn->warnings, 1, memory_order_relaxed);
	dalic_warnlog_add(s->warnings, w);
}

void dalic_stats_observer(dalic_stats_t *s, dalic_observer_t *obs)
{
	*obs = (dalic_observer_t){
	    .user = s,
	    .node_run = hooks_on_node_run,
	    .node_gpu = hooks_on_node_gpu,
	    .work_chunk = hooks_on_work_chunk,
	    .stage_run = hooks_on_stage_run,
	    .iteration_ready = hooks_on_iteration_ready,
	    .output_memory = hooks_on_output_memory,
	    .buffer_growth = hooks_on_buffer_growth,
	    .queue_level = hooks_on_queue_level,
	    .wait = hooks_on_wait,
	    .warning = hooks_on_warning,
	};
}
