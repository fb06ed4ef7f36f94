/*
 * The trend: a point every trend_interval_ms for the whole run — iterations, samples, the
 * readers' bytes and files, bytes held by output buffers, process CPU and every operator's
 * time, all cumulative — so a slowdown after the first epoch or a memory ramp shows. Points
 * are taken by the iteration_ready hook when one is due (one atomic load per iteration
 * otherwise), so an idle pipeline adds none. Memory is bounded: when the array is full every
 * other point is dropped and the interval doubles; cumulative counters lose nothing but
 * resolution.
 */
#include "stats/collector.h"

#include "engine/error.h"

#include <stdlib.h>
#include <string.h>

int dalic_stats_trend_init(dalic_stats_t *s)
{
	if (s->opts.trend_interval_ms < 1)
		s->opts.trend_interval_ms = 1000;
	if (s->opts.trend_capacity < 4)
		s->opts.trend_capacity = 4;
	pthread_mutex_init(&s->trend_lock, NULL);
	s->trend_interval = (int64_t)s->opts.trend_interval_ms * 1000000;
	s->trend = calloc((size_t)s->opts.trend_capacity, sizeof *s->trend);
	return s->trend ? DALIC_OK : DALIC_ENOMEM;
}

void dalic_stats_trend_free(dalic_stats_t *s)
{
	free(s->trend);
	free(s->trend_ops);
	pthread_mutex_destroy(&s->trend_lock);
}

void dalic_stats_trend_reset(dalic_stats_t *s)
{
	pthread_mutex_lock(&s->trend_lock);
	s->trend_count = 0;
	s->trend_interval = (int64_t)s->opts.trend_interval_ms * 1000000;
	atomic_store(&s->trend_next, 0);
	pthread_mutex_unlock(&s->trend_lock);
}

/* Keeps points 0, 2, 4, ... (trend_lock held). */
static void trend_halve(dalic_stats_t *s)
{
	int n = 0;
	for (int i = 0; i < s->trend_count; i += 2, n++) {
		s->trend[n] = s->trend[i];
		if (s->trend_ops)
			memmove(&s->trend_ops[(size_t)n * s->trend_nodes],
			        &s->trend_ops[(size_t)i * s->trend_nodes],
			        (size_t)s->trend_nodes * sizeof *s->trend_ops);
	}
	s->trend_count = n;
	s->trend_interval *= 2;
}

/* Fills point `i` (trend_lock held). */
static void trend_take(dalic_stats_t *s, const dalic_stats_layout_t *L, int i, int64_t now)
{
	dalic_stats_trend_point_t *p = &s->trend[i];
	memset(p, 0, sizeof *p);
	p->t_s = (double)(now - atomic_load(&s->t0)) * 1e-9;
	p->iterations = atomic_load_explicit(&s->iterations, memory_order_relaxed);
	p->samples = atomic_load_explicit(&s->samples, memory_order_relaxed);
	int64_t user, sys;
	dalic_stats_rusage(&user, &sys);
	p->cpu_s = (double)(user - atomic_load(&s->ru_user0) + sys - atomic_load(&s->ru_sys0)) * 1e-9;
	for (int k = 0; k < L->num_nodes; k++) {
		const dalic_stats_node_t *n = &L->nodes[k];
		p->reader_bytes += atomic_load_explicit(&n->out_bytes, memory_order_relaxed);
		p->reader_files += atomic_load_explicit(&n->out_files, memory_order_relaxed);
		for (int o = 0; o < n->num_outputs; o++)
			p->bytes_live += atomic_load_explicit(&n->outputs[o].seen_live,
			                                      memory_order_relaxed);
		if (s->trend_ops && k < s->trend_nodes)
			s->trend_ops[(size_t)i * s->trend_nodes + k] =
			    atomic_load_explicit(&n->time.total, memory_order_relaxed);
	}
}

void dalic_stats_trend_tick(dalic_stats_t *s, int64_t now)
{
	int64_t next = atomic_load_explicit(&s->trend_next, memory_order_relaxed);
	if (now < next)
		return;
	dalic_stats_layout_t *L = atomic_load_explicit(&s->layout, memory_order_acquire);
	if (!L || pthread_mutex_trylock(&s->trend_lock))
		return; /* another thread is taking this point */
	next = atomic_load_explicit(&s->trend_next, memory_order_relaxed);
	if (now >= next) {
		if (!s->trend_ops && L->num_nodes > 0) {
			/* once per collector: the layout's size is known only now */
			s->trend_ops = calloc((size_t)s->opts.trend_capacity * (size_t)L->num_nodes,
			                      sizeof *s->trend_ops);
			s->trend_nodes = s->trend_ops ? L->num_nodes : 0;
		}
		if (s->trend_count == s->opts.trend_capacity)
			trend_halve(s);
		trend_take(s, L, s->trend_count++, now);
		/* points stay on the grid of the interval since the start */
		int64_t t0 = atomic_load(&s->t0), k = (now - t0) / s->trend_interval + 1;
		atomic_store_explicit(&s->trend_next, t0 + k * s->trend_interval,
		                      memory_order_relaxed);
	}
	pthread_mutex_unlock(&s->trend_lock);
}

int dalic_stats_trend_copy(dalic_stats_t *s, dalic_stats_snapshot_t *snap)
{
	pthread_mutex_lock(&s->trend_lock);
	int n = s->trend_count, rc = DALIC_OK;
	snap->trend_interval_s = (double)s->trend_interval * 1e-9;
	snap->trend = calloc((size_t)n + 1, sizeof *snap->trend);
	snap->trend_operator_ns =
	    calloc((size_t)n * (size_t)snap->num_operators + 1, sizeof *snap->trend_operator_ns);
	if (!snap->trend || !snap->trend_operator_ns) {
		rc = DALIC_ENOMEM;
	} else {
		memcpy(snap->trend, s->trend, (size_t)n * sizeof *snap->trend);
		for (int i = 0; s->trend_ops && i < n; i++)
			for (int k = 0; k < snap->num_operators && k < s->trend_nodes; k++)
				snap->trend_operator_ns[(size_t)i * snap->num_operators + k] =
				    s->trend_ops[(size_t)i * s->trend_nodes + k];
		snap->num_trend = n;
	}
	pthread_mutex_unlock(&s->trend_lock);
	return rc;
}
