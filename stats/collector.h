/*
 * The collector's private state, shared by the hooks (hooks.c), the life cycle
 * (collector.c), the snapshot (snapshot.c) and the trace exporter.
 *
 * Layout: per-node state is an array indexed like the built graph's nodes, created once —
 * when the collector is created on a built pipeline, or on the first hook / snapshot after
 * the build — and published through an atomic pointer, so hooks find it without a lock.
 * Everything the hooks update afterwards is an atomic, a histogram, a ring, or (queues,
 * growth events: a few times per iteration) a field behind a mutex held for a few stores.
 */
#ifndef DALIC_STATS_COLLECTOR_H
#define DALIC_STATS_COLLECTOR_H

#include "dalic_stats.h"
#include "engine/graph.h"
#include "engine/observer.h"
#include "engine/warnings.h"
#include "stats/histogram.h"
#include "stats/trace_ring.h"

#include <pthread.h>
#include <stdatomic.h>

typedef struct dalic_stats_out {
	char *name;
	bool gpu;
	int64_t hint;
	_Atomic int memory_kind; /* -1 until seen */
	_Atomic int contiguous;
	/* executor_statistics, running maxima */
	_Atomic int64_t real, max_real, reserved, max_reserved;
	/* DALI 2.4's figures (its legacy executor's batches are contiguous): ceil(bytes / n) */
	_Atomic int64_t max_real_dali24, max_reserved_dali24;
	/* the output's allocation counter as seen by the last hook, and at the last reset */
	_Atomic int64_t seen_allocs, seen_bytes, seen_live;
	_Atomic int64_t base_allocs, base_bytes;
	_Atomic int64_t last_allocs, last_bytes, last_iteration;
	_Atomic int64_t max_allocs, last_alloc_iteration;
	_Atomic int64_t growth;
} dalic_stats_out_t;

typedef struct dalic_stats_node {
	const dalic_node_t *node;
	char *name, *op, *key;
	int stage;
	bool internal;
	int num_outputs;
	dalic_stats_out_t *outputs;
	dalic_hist_t time;
	_Atomic int64_t warnings; /* data-quality warnings it reported (issue 20) */
	_Atomic int64_t cpu_ns;   /* stage thread (node_run) + every chunk's thread CPU */
	_Atomic int64_t work_ns;  /* wall time of its chunks, all workers together */
	_Atomic int64_t gpu_ns, gpu_runs; /* kernels on a device (observer node_gpu) */
	bool emulated;                    /* gpu/mixed on the CPU path */
	bool reader;
	_Atomic int64_t out_bytes, out_files; /* readers: output 0's bytes and samples */
} dalic_stats_node_t;

/* One pool worker index (the submitter borrowing an idle worker's index counts as it). */
typedef struct dalic_stats_wstate {
	_Atomic int64_t busy_ns, cpu_ns, chunks, samples;
} dalic_stats_wstate_t;

typedef struct dalic_stats_layout {
	int num_nodes;
	dalic_stats_node_t *nodes;
	int stage_nodes[DALIC_NUM_STAGES];
	int sample_node; /* producer of pipeline output 0; its batch counts samples */
	dalic_pipeline_params_t params;
	bool memory_stats, emulated, uses_gpu;
	int num_workers;
	dalic_stats_wstate_t *workers;
	_Atomic int64_t *worker_node_ns; /* [worker * num_nodes + node]: busy time per operator */
} dalic_stats_layout_t;

typedef struct dalic_stats_qstate {
	pthread_mutex_t lock;
	bool present;
	int depth, occupancy, max_occupancy;
	int64_t changes;
	int64_t first_t, last_t; /* span of the occupancy integral */
	double integral;         /* occupancy x ns */
	dalic_stats_queue_sample_t *ring;
	int cap, head, count;
} dalic_stats_qstate_t;

#define DALIC_STATS_SOURCE_MAX 256
#define DALIC_STATS_ITER_RING 64

/* When each stage of a recent iteration ran, to measure the hand-offs between stages. */
typedef struct dalic_stats_iter {
	int64_t iteration;
	int64_t t0[DALIC_NUM_STAGES], t1[DALIC_NUM_STAGES];
	bool have[DALIC_NUM_STAGES];
} dalic_stats_iter_t;

typedef struct dalic_stats_grec {
	int64_t iteration, t;
	const char *op; /* borrowed from the layout */
	int output, sample;
	bool has_source;
	char source[DALIC_STATS_SOURCE_MAX];
	int64_t old_capacity, new_capacity;
} dalic_stats_grec_t;

struct dalic_stats {
	dalic_pipeline_t *pipe;         /* NULL once the pipeline was destroyed */
	dalic_pipeline_params_t params; /* as at creation, for snapshots before the build */
	dalic_stats_options_t opts;
	pthread_mutex_t lock; /* layout creation and the growth ring */
	_Atomic(dalic_stats_layout_t *) layout;
	_Atomic int64_t t0; /* creation or last reset, CLOCK_MONOTONIC ns */
	_Atomic int64_t first_t, last_t;
	dalic_hist_t stage_time[DALIC_NUM_STAGES];
	dalic_hist_t stage_wait[DALIC_NUM_STAGES]; /* previous stage's end -> this one's start */
	pthread_mutex_t iter_lock;                 /* iters: one stage_run per stage and iteration */
	dalic_stats_iter_t iters[DALIC_STATS_ITER_RING];
	dalic_hist_t iter_time, iter_interval;
	dalic_hist_t waits[DALIC_STATS_WAITS];
	_Atomic int64_t last_ready;
	_Atomic int64_t iterations, samples;
	dalic_stats_qstate_t queues[DALIC_STATS_QUEUES];
	dalic_stats_grec_t *growth; /* ring of opts.growth_history */
	int growth_head, growth_count;
	_Atomic int64_t growth_total;
	dalic_trace_ring_t trace;
	bool tracing;
	_Atomic int64_t unknown;
	dalic_warnlog_t *warnings; /* every warning seen since creation or reset */
	/* process CPU (getrusage) at creation or reset, and frozen when the pipeline goes */
	_Atomic int64_t ru_user0, ru_sys0;
	int64_t ru_user_end, ru_sys_end, ru_t_end; /* under lock; ru_t_end 0 while it runs */
	/* the trend (trend.c): points under trend_lock, taken by the iteration_ready hook */
	pthread_mutex_t trend_lock;
	_Atomic int64_t trend_next; /* time of the next point, ns; 0: the next iteration */
	int64_t trend_interval;     /* ns; doubles at each downsampling */
	int trend_count, trend_nodes;
	dalic_stats_trend_point_t *trend;
	int64_t *trend_ops; /* [point * trend_nodes + node], allocated with the first point */
};

/* The trend (trend.c): allocate, forget, take a point if one is due at `now` (a hook), copy
 * into a snapshot, free. */
int dalic_stats_trend_init(dalic_stats_t *s);
void dalic_stats_trend_reset(dalic_stats_t *s);
void dalic_stats_trend_tick(dalic_stats_t *s, int64_t now);
int dalic_stats_trend_copy(dalic_stats_t *s, dalic_stats_snapshot_t *snap);
void dalic_stats_trend_free(dalic_stats_t *s);

/* Fills the snapshot's CPU accounting (snapshot_cpu.c); after the operators are copied and
 * before the verdict, which quotes snap->cpu_verdict. */
int dalic_stats_snapshot_cpu(dalic_stats_t *s, const dalic_stats_layout_t *L,
                             dalic_stats_snapshot_t *snap);
/* A new string (NULL when out of memory) printed like printf: the verdicts' sentences. */
char *dalic_stats_format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The process's user and system CPU time so far (getrusage), ns. */
void dalic_stats_rusage(int64_t *user_ns, int64_t *sys_ns);

/* The layout, created on first use once the pipeline is built; NULL before. */
dalic_stats_layout_t *dalic_stats_layout(dalic_stats_t *s);
/* The per-node state for a node reported by a hook, or NULL (counted) if unknown. */
dalic_stats_node_t *dalic_stats_node_of(dalic_stats_t *s, const dalic_node_t *node);
/* The observer whose hooks update `s` (hooks.c). */
void dalic_stats_observer(dalic_stats_t *s, dalic_observer_t *obs);

#endif
