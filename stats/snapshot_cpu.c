/*
 * CPU accounting in a snapshot: the workers' busy and CPU time (from the chunk hooks), each
 * operator's CPU time, the process's getrusage since the collector started, and the sentence
 * that says whether more threads would help. Busy is wall time inside chunks; CPU is the
 * thread clock over the same chunks, so a worker blocked in sleep or I/O is busy but not on
 * a CPU — the two together tell "cores saturated" from "threads waiting".
 */
#include "stats/collector.h"

#include "engine/clock.h"
#include "engine/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Thresholds on the workers' mean busy share and on CPU per busy second. */
#define CPU_BUSY_SHARE 0.85
#define CPU_IDLE_SHARE 0.5
#define CPU_ON_CPU_SHARE 0.5

static void snapshot_cpu_workers(const dalic_stats_layout_t *L, dalic_stats_snapshot_t *snap)
{
	double wall_ns = snap->wall_s * 1e9, busy = 0, cpu = 0, share = 0;
	for (int w = 0; w < L->num_workers; w++) {
		const dalic_stats_wstate_t *ws = &L->workers[w];
		dalic_stats_worker_t *d = &snap->workers[w];
		d->chunks = atomic_load(&ws->chunks);
		d->samples = atomic_load(&ws->samples);
		d->busy_ns = atomic_load(&ws->busy_ns);
		d->cpu_ns = atomic_load(&ws->cpu_ns);
		d->busy_share = wall_ns > 0 ? (double)d->busy_ns / wall_ns : 0;
		if (d->busy_share > 1)
			d->busy_share = 1;
		d->idle_share = 1 - d->busy_share;
		d->cpu_share = d->busy_ns > 0 ? (double)d->cpu_ns / (double)d->busy_ns : 0;
		if (d->cpu_share > 1)
			d->cpu_share = 1;
		d->top_operator = -1;
		int64_t best = 0;
		for (int i = 0; i < L->num_nodes; i++) {
			int64_t t = atomic_load(&L->worker_node_ns[w * L->num_nodes + i]);
			if (t > best) {
				best = t;
				d->top_operator = i;
			}
		}
		d->top_operator_share = d->busy_ns > 0 ? (double)best / (double)d->busy_ns : 0;
		busy += (double)d->busy_ns;
		cpu += (double)d->cpu_ns;
		share += d->busy_share;
	}
	snap->workers_busy_share = L->num_workers > 0 ? share / L->num_workers : 0;
	snap->workers_cpu_share = busy > 0 ? cpu / busy : 0;
	if (snap->workers_cpu_share > 1)
		snap->workers_cpu_share = 1;
}

static void snapshot_cpu_process(dalic_stats_t *s, dalic_stats_snapshot_t *snap)
{
	int64_t user, sys, t;
	pthread_mutex_lock(&s->lock);
	bool frozen = s->ru_t_end > 0;
	user = s->ru_user_end;
	sys = s->ru_sys_end;
	t = s->ru_t_end;
	pthread_mutex_unlock(&s->lock);
	if (!frozen) {
		dalic_stats_rusage(&user, &sys);
		t = dalic_clock_ns();
	}
	int64_t t0 = atomic_load(&s->t0);
	snap->process_user_s = (double)(user - atomic_load(&s->ru_user0)) * 1e-9;
	snap->process_sys_s = (double)(sys - atomic_load(&s->ru_sys0)) * 1e-9;
	if (snap->process_user_s < 0) /* reset raced with the end: say nothing rather than lie */
		snap->process_user_s = 0;
	if (snap->process_sys_s < 0)
		snap->process_sys_s = 0;
	snap->process_elapsed_s = t > t0 ? (double)(t - t0) * 1e-9 : 0;
	if (snap->process_elapsed_s > 0)
		snap->process_cores =
		    (snap->process_user_s + snap->process_sys_s) / snap->process_elapsed_s;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	snap->online_cpus = n > 0 ? (int)n : 0;
}

static bool snapshot_cpu_is_reader(const dalic_stats_operator_t *op)
{
	return strstr(op->op, "readers__") || strstr(op->op, "Reader");
}

/* The sentence on the workers. Idle workers point at the slowest operator that is not
 * theirs: the time it spends outside the pool (a reader, a batch operator) is what bounds. */
static char *snapshot_cpu_verdict(const dalic_stats_snapshot_t *snap)
{
	int64_t chunks = 0;
	int busy_workers = 0;
	for (int w = 0; w < snap->num_workers; w++) {
		chunks += snap->workers[w].chunks;
		busy_workers += snap->workers[w].busy_share >= CPU_BUSY_SHARE;
	}
	if (!chunks || snap->wall_s <= 0)
		return strdup("");
	double busy = snap->workers_busy_share;
	if (busy >= CPU_BUSY_SHARE && snap->workers_cpu_share >= CPU_ON_CPU_SHARE)
		return dalic_stats_format("CPU-bound: %d of %d workers busy %.0f%%", busy_workers,
		                           snap->num_workers, 100 * busy);
	if (busy >= CPU_BUSY_SHARE)
		return dalic_stats_format(
		    "%d of %d workers busy %.0f%% but on a CPU only %.0f%% of that time: they wait "
		    "inside operators (sleep, I/O, locks) or for a core; more threads help only "
		    "if cores are free",
		    busy_workers, snap->num_workers, 100 * busy, 100 * snap->workers_cpu_share);
	if (1 - busy >= CPU_IDLE_SHARE) {
		int b = -1;
		int64_t best = 0;
		for (int i = 0; i < snap->num_operators; i++) {
			const dalic_stats_operator_t *op = &snap->operators[i];
			int64_t outside = op->time.total_ns - op->work_ns / snap->num_workers;
			if (outside > best) {
				best = outside;
				b = i;
			}
		}
		if (b < 0)
			return dalic_stats_format("workers idle %.0f%%: more threads will not help",
			                           100 * (1 - busy));
		const dalic_stats_operator_t *op = &snap->operators[b];
		if (snapshot_cpu_is_reader(op))
			return dalic_stats_format("workers idle %.0f%%: more threads will not help; "
			                           "the reader (%s) is the bottleneck",
			                           100 * (1 - busy), op->name);
		return dalic_stats_format("workers idle %.0f%%: more threads will not help; "
		                           "%s (%s, outside the worker pool) is the bottleneck",
		                           100 * (1 - busy), op->name, op->op);
	}
	return dalic_stats_format("workers busy %.0f%%, on a CPU %.0f%% of that", 100 * busy,
	                           100 * snap->workers_cpu_share);
}

int dalic_stats_snapshot_cpu(dalic_stats_t *s, const dalic_stats_layout_t *L,
                             dalic_stats_snapshot_t *snap)
{
	snapshot_cpu_process(s, snap);
	if (L) {
		for (int i = 0; i < L->num_nodes && i < snap->num_operators; i++) {
			snap->operators[i].cpu_ns = atomic_load(&L->nodes[i].cpu_ns);
			snap->operators[i].work_ns = atomic_load(&L->nodes[i].work_ns);
		}
		snap->workers = calloc((size_t)L->num_workers, sizeof *snap->workers);
		if (!snap->workers)
			return DALIC_ENOMEM;
		snap->num_workers = L->num_workers;
		snapshot_cpu_workers(L, snap);
	}
	snap->cpu_verdict = snapshot_cpu_verdict(snap);
	return snap->cpu_verdict ? DALIC_OK : DALIC_ENOMEM;
}
