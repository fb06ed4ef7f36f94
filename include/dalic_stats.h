/*
 * dalic stats — public C API of the statistics collector.
 *
 * A collector watches one pipeline through the executor's observer hooks, in every executor
 * mode, and answers the questions DALI users ask: DALI's `executor_statistics` (per operator
 * output: real/reserved memory and their per-sample maxima) with a suggested
 * `bytes_per_sample_hint`; time per operator and per stage (mean, p50, p99, max, share) and
 * the bottleneck; whether the consumer waits for data (input-bound) or the pipeline waits for
 * a free queue slot; occupancy of each prefetch queue over time; allocations per iteration
 * and every buffer growth with the sample and source file that caused it.
 *
 * Threading: the hooks run on executor threads and only update atomics, per-node counters
 * and fixed-size rings; nothing is allocated per iteration and no lock is held for more than
 * a few stores. Readers never touch live engine state: dalic_stats_snapshot() copies the
 * numbers into a plain struct that the TUI and the CLI read at leisure, from any thread.
 *
 * Lifetime: create the collector for a pipeline before or after build, but before its first
 * run (the executor takes new hooks only while no iteration is in flight); the hooks are
 * installed with the pipeline and survive its build. Executor threads call the hooks until the
 * pipeline stops, and with the async executors iterations are still in flight after the
 * last run(), so the safe order at the end is: take the last snapshot, destroy the pipeline
 * (it joins every executor thread), call dalic_stats_pipeline_destroyed(), then export and
 * dalic_stats_destroy(). Destroying the collector while its pipeline lives removes the hooks,
 * which is valid only while no iteration is in flight (see dalic_stats_destroy).
 * Snapshots are independent of both: they own every string and array they hold.
 *
 * Every function that can fail returns DALIC_OK or a negative DALIC_E* code (dalic.h);
 * dalic_last_error() has the message.
 */
#ifndef DALIC_STATS_H
#define DALIC_STATS_H

#include "dalic.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the JSON document written by dalic_stats_write_json (docs/stats-schema.md). */
#define DALIC_STATS_SCHEMA_VERSION 3

typedef struct dalic_stats dalic_stats_t;

typedef struct dalic_stats_options {
	bool trace;         /* keep per-run events for dalic_stats_write_trace; default false */
	int trace_capacity; /* events kept, oldest dropped first; default 262144 */
	int queue_history;  /* occupancy samples kept per prefetch queue; default 1024 */
	int growth_history; /* buffer growth events kept (the last N); default 64 */
	/* the trend: a point every trend_interval_ms (default 1000) while iterations complete,
	 * at most trend_capacity points (default 600, at least 4): when full, every other
	 * point is dropped and the interval doubles, so a run of any length fits */
	int trend_interval_ms;
	int trend_capacity;
} dalic_stats_options_t;

/* Fills *o with the defaults above. */
DALIC_API void dalic_stats_options_init(dalic_stats_options_t *o);

/* Creates a collector for `p` and installs its observer hooks on the pipeline (beside any
 * other observers: tracers, other collectors). `opts` may be NULL (defaults; copied). `p` is borrowed until the
 * collector is destroyed or told dalic_stats_pipeline_destroyed(). New: free with
 * dalic_stats_destroy. executor_statistics are collected only
 * when the pipeline was created with enable_memory_stats (as in DALI), but in every executor
 * mode; everything else is always collected. */
DALIC_API int dalic_stats_create(dalic_pipeline_t *p, const dalic_stats_options_t *opts, dalic_stats_t **out);
/* Frees the collector. If it is still attached to a live pipeline it first removes its hooks,
 * which is valid only while no iteration is in flight: before the first run, or between
 * calls with a synchronous executor (exec_async=False). With the async executors destroy
 * the pipeline first and call dalic_stats_pipeline_destroyed(). NULL is ignored. */
DALIC_API void dalic_stats_destroy(dalic_stats_t *s);
/* Tells the collector that its pipeline was destroyed (dalic_pipeline_destroy stops every
 * executor thread, so no hook runs afterwards): it never touches the pipeline again. The
 * numbers stay; snapshots and exporters keep working. */
DALIC_API void dalic_stats_pipeline_destroyed(dalic_stats_t *s);
/* Forgets everything collected so far (timings, maxima, queues, events) — e.g. to drop the
 * warm-up iterations. Safe while the pipeline runs; an event racing the reset may land on
 * either side of it. */
DALIC_API void dalic_stats_reset(dalic_stats_t *s);

/* ---- snapshots --------------------------------------------------------------------------- */

/* A distribution of durations in nanoseconds. Percentiles come from a log-linear histogram
 * (16 buckets per power of two): within about 3% of the true value. All zero when count == 0. */
typedef struct dalic_stats_timing {
	int64_t count;
	int64_t total_ns;
	double mean_ns;
	int64_t min_ns, p50_ns, p90_ns, p99_ns, max_ns;
} dalic_stats_timing_t;

/* One operator output. */
typedef struct dalic_stats_output {
	char *name;      /* data node name */
	bool gpu;        /* device of the data node */
	dalic_mem_kind_t memory_kind; /* DALIC_MEM_NONE before the first run */
	bool contiguous; /* storage mode of the last batch seen */
	/* executor_statistics (DALI semantics, running maxima; 0 unless memory_stats) */
	int64_t real_memory_size;         /* bytes of the whole batch */
	int64_t max_real_memory_size;     /* per sample: the largest sample for a CPU
	                                     operator's output (packed) or per-sample
	                                     storage, else ceil(nbytes/n) */
	int64_t reserved_memory_size;     /* bytes allocated for the batch (capacity) */
	int64_t max_reserved_memory_size; /* per sample, as max_real but from capacity */
	/* What DALI 2.4's legacy executor reports instead (exec_dynamic=False): it stores every
	 * batch contiguously, so its per-sample figures are always ceil(bytes / samples) and
	 * ceil(capacity / samples), also for cpu outputs dalic reports per sample */
	int64_t max_real_memory_size_dali24;
	int64_t max_reserved_memory_size_dali24;
	int64_t hint;                     /* bytes_per_sample_hint in effect (0 = none) */
	int64_t suggested_hint;           /* = max_real_memory_size (DALI's advice); 0 unknown */
	/* allocations made for this output (all its buffers) */
	int64_t allocations; /* since the collector started (or reset) */
	int64_t bytes_allocated;
	int64_t last_allocations; /* in the last iteration this output was produced */
	int64_t last_bytes_allocated;
	int64_t max_allocations;           /* most in one iteration */
	int64_t last_allocation_iteration; /* -1 if none since start */
	int64_t bytes_live;                /* held now by this output's buffers */
	int64_t growth_events;             /* buffer growths of this output */
} dalic_stats_output_t;

typedef struct dalic_stats_operator {
	char *name;    /* instance name, e.g. "__Resize_3" */
	char *op;      /* schema name, e.g. "Resize" */
	char *key;     /* executor_statistics key "<STAGE>_<name>", e.g. "GPU___Resize_3" */
	dalic_stage_t stage;
	bool internal; /* inserted by the build (__MakeContiguous_*, __Copy_*) */
	dalic_stats_timing_t time; /* setup + allocation + run, per iteration */
	double share;              /* time.total_ns / sum of all stages' busy time, 0..1 */
	int num_outputs;
	dalic_stats_output_t *outputs;
	int64_t warnings; /* data-quality warnings it reported (issue 20) */
	/* CPU time (thread clocks): its stage thread's plus every worker's on its samples. With
	 * n workers it can reach n x time.total_ns; near 0 for an operator that waits (sleep,
	 * I/O, a device) */
	int64_t cpu_ns;
	int64_t work_ns; /* wall time of its per-sample chunks, all workers together */
	/* Runs of its CUDA kernels on a device (0 on the CPU path, emulated included) and their
	 * GPU time: the elapsed time between the events recorded around them on the stage's
	 * stream, summed over those runs */
	int64_t gpu_runs;
	int64_t gpu_ns;
	/* A gpu/mixed operator that runs its CPU kernel: every one when no GPU is present
	 * (emulated_device), and those without a CUDA kernel in the dispatch table when one is */
	bool emulated;
} dalic_stats_operator_t;

/* One thread-pool worker. Busy: running chunks of samples (a stage thread that helps with
 * its own job under an idle worker's index counts as that worker). */
typedef struct dalic_stats_worker {
	int64_t chunks, samples;
	int64_t busy_ns;     /* wall time running chunks */
	int64_t cpu_ns;      /* the thread's CPU time during those chunks */
	double busy_share;   /* busy_ns / wall, 0..1 */
	double idle_share;   /* 1 - busy_share */
	double cpu_share;    /* cpu_ns / busy_ns: on a CPU while busy (sleep and I/O lower it) */
	int top_operator;    /* index into operators it spent the most time on; -1 none */
	double top_operator_share; /* of its busy time */
} dalic_stats_worker_t;

typedef struct dalic_stats_stage {
	const char *name; /* "CPU", "MIXED", "GPU" (static) */
	bool present;     /* the graph has operators in this stage */
	int num_operators;
	dalic_stats_timing_t time; /* per iteration */
	double share;              /* of the sum of all stages' busy time, 0..1; stages sum to 1 */
	/* per iteration, from the end of the previous present stage (cpu -> mixed -> gpu) to this
	 * stage's start: the batch waited for this stage's thread or a free slot. Empty for the
	 * first present stage; the wait after the last one is waits[DALIC_STATS_WAIT_READY] */
	dalic_stats_timing_t wait_before;
} dalic_stats_stage_t;

typedef struct dalic_stats_queue_sample {
	int64_t t_ns;  /* since the collector started (or reset) */
	int occupancy; /* slots ready + in use */
} dalic_stats_queue_sample_t;

enum { DALIC_STATS_QUEUE_CPU = 0, DALIC_STATS_QUEUE_GPU = 1, DALIC_STATS_QUEUES = 2 };

typedef struct dalic_stats_queue {
	const char *name; /* "cpu", "gpu" (static) */
	bool present;     /* the executor reported this queue */
	int depth;
	int occupancy; /* last reported */
	int max_occupancy;
	double mean_occupancy; /* time-weighted over the samples' span */
	int64_t bytes;         /* held now by the output buffers of its stages (every slot) */
	int64_t changes;       /* occupancy reports seen */
	int num_samples;       /* oldest first, at most queue_history */
	dalic_stats_queue_sample_t *samples;
} dalic_stats_queue_t;

typedef struct dalic_stats_growth {
	int64_t iteration;
	int64_t t_ns; /* since the collector started (or reset) */
	char *op;     /* operator instance */
	int output;
	int sample;   /* the largest sample of the batch */
	char *source; /* its source file, or NULL */
	int64_t old_capacity, new_capacity;
} dalic_stats_growth_t;

/* One point of the trend. Counters are cumulative since the collector started (or reset):
 * a rate is the difference of two points over their t_s difference. */
typedef struct dalic_stats_trend_point {
	double t_s;                 /* since the collector started (or reset) */
	int64_t iterations, samples;
	int64_t reader_bytes;       /* bytes of the readers' first outputs (the encoded files) */
	int64_t reader_files;       /* samples the readers produced */
	int64_t bytes_live;         /* held by output buffers at that moment */
	double cpu_s;               /* process user + system CPU */
} dalic_stats_trend_point_t;

typedef enum {
	DALIC_STATS_VERDICT_UNKNOWN = 0,    /* not enough iterations */
	DALIC_STATS_VERDICT_INPUT_BOUND,    /* the consumer waits for data */
	DALIC_STATS_VERDICT_CONSUMER_BOUND, /* the pipeline waits for free queue slots */
	DALIC_STATS_VERDICT_BALANCED,
} dalic_stats_verdict_t;

enum {
	DALIC_STATS_WAIT_CONSUMER = 0,
	DALIC_STATS_WAIT_FREE_SLOT = 1,
	DALIC_STATS_WAIT_INPUT = 2,
	DALIC_STATS_WAIT_READY = 3, /* a ready iteration until the consumer took it */
	DALIC_STATS_WAITS = 4
};

typedef struct dalic_stats_snapshot {
	/* pipeline */
	int batch_size, num_threads;
	int prefetch_cpu, prefetch_gpu;
	bool separated_queues, exec_pipelined, exec_async;
	const char *executor_mode; /* "simple", "pipelined", "async pipelined", ... (static) */
	bool cpu_only;
	bool emulated_device; /* gpu/mixed stages run on the CPU */
	bool memory_stats;    /* enable_memory_stats: executor_statistics are filled */
	bool built;           /* the pipeline was built when the snapshot was taken */
	/* progress */
	int64_t iterations; /* iterations that became ready */
	int64_t samples;    /* samples in those iterations (pipeline output 0) */
	double wall_s;      /* first hook to last hook */
	double samples_per_second, iterations_per_second;
	dalic_stats_timing_t iteration_time;     /* scheduled -> ready, per iteration */
	dalic_stats_timing_t iteration_interval; /* between consecutive ready iterations */
	/* operators in execution order, stages */
	int num_operators;
	dalic_stats_operator_t *operators;
	dalic_stats_stage_t stages[3];
	int bottleneck_operator; /* index into operators with the most time; -1 none */
	int bottleneck_stage;    /* stage with the most time per iteration; -1 none */
	double overhead_share;   /* stage time not spent in operators (executor), 0..1 */
	/* waiting */
	dalic_stats_timing_t waits[DALIC_STATS_WAITS];
	bool consumer_wait_measured; /* false: synchronous executor, the caller ran every
	                                iteration itself, so iteration time counts as waiting */
	double consumer_wait_share;  /* consumer wait / wall */
	double free_slot_wait_share; /* free-slot wait / wall */
	double pipeline_utilization; /* busiest stage's busy time / wall, 0..1 */
	dalic_stats_verdict_t verdict;
	const char *verdict_name; /* "unknown", "input-bound", "consumer-bound", "balanced" */
	char *verdict_reason;     /* one sentence with the numbers */
	/* queues */
	dalic_stats_queue_t queues[DALIC_STATS_QUEUES];
	/* allocations, all outputs together */
	int64_t allocations, bytes_allocated;
	int64_t last_iteration_allocations, last_iteration_bytes; /* in the last iteration */
	int64_t last_allocation_iteration; /* -1 none: steady state since the start */
	int64_t bytes_live;                /* held by output buffers now */
	int64_t reserved_total;            /* sum of reserved_memory_size (memory_stats only) */
	/* buffer growth */
	int64_t growth_events; /* total seen */
	int num_growth;        /* kept, oldest first */
	dalic_stats_growth_t *growth;
	/* tracing */
	int64_t trace_events;   /* recorded since start */
	int64_t trace_dropped;  /* overwritten by newer ones */
	int64_t unknown_events; /* hook calls for nodes the collector did not know */
	/* data-quality warnings (dalic_warning_t, issue 20), in the order they came; strings
	 * owned by the snapshot. At most DALIC_STATS_MAX_WARNINGS are copied. */
	int64_t num_warnings;
	dalic_warning_t *warnings;
	int64_t warnings_dropped; /* seen but not copied (log full, or past the maximum) */
	/* CPU accounting: the worker pool (num_threads workers) over the wall time above */
	int num_workers;
	dalic_stats_worker_t *workers;
	double workers_busy_share; /* mean busy_share of the workers */
	double workers_cpu_share;  /* all workers' cpu_ns / busy_ns */
	/* the process (getrusage) since the collector started (or reset) until the snapshot, or
	 * until the pipeline was destroyed */
	double process_user_s, process_sys_s;
	double process_elapsed_s;
	double process_cores; /* (user + sys) / elapsed: cores kept busy on average */
	int online_cpus;      /* cores the machine has online */
	/* one sentence on the workers: "CPU-bound: 2 of 2 workers busy 97%", "workers idle 60%:
	 * ...", ...; also appended to an input-bound verdict_reason. Empty when no worker ran */
	char *cpu_verdict;
	/* the trend, oldest first; trend_operator_ns[i * num_operators + k]: operator k's
	 * cumulative time at point i */
	double trend_interval_s;
	int num_trend;
	dalic_stats_trend_point_t *trend;
	int64_t *trend_operator_ns;
} dalic_stats_snapshot_t;

#define DALIC_STATS_MAX_WARNINGS 100000

/* Copies the current numbers. New: free with dalic_stats_snapshot_free. Safe while the
 * pipeline runs; values of different operators may be a few events apart. */
DALIC_API int dalic_stats_snapshot(dalic_stats_t *s, dalic_stats_snapshot_t **out);
DALIC_API void dalic_stats_snapshot_free(dalic_stats_snapshot_t *snap);
/* The operator with instance name `name`, or NULL. Borrowed from snap. */
DALIC_API const dalic_stats_operator_t *dalic_stats_find_operator(const dalic_stats_snapshot_t *snap,
                                                        const char *name);

/* ---- exporters --------------------------------------------------------------------------- */

/* The stats JSON document (schema in docs/stats-schema.md, "schema_version" key), holding an
 * "executor_statistics" object keyed and valued as DALI's. New string: free with free(). */
DALIC_API char *dalic_stats_json(const dalic_stats_snapshot_t *snap);
/* Only DALI's executor_statistics dict as JSON ({} when memory stats are off). New: free(). */
DALIC_API char *dalic_stats_executor_statistics_json(const dalic_stats_snapshot_t *snap);
/* The JSON document to `f`, with a newline. */
DALIC_API int dalic_stats_write_json(const dalic_stats_snapshot_t *snap, FILE *f);
/* Plain-text report: sections of `key: value` lines (Redis INFO style). */
DALIC_API int dalic_stats_write_report(const dalic_stats_snapshot_t *snap, FILE *f);
/* Chrome trace-event JSON (opens in Perfetto / chrome://tracing) of the events kept: one
 * track per stage and per worker thread, the consumer's waits, queue occupancy counters.
 * DALIC_ESTATE if the collector was created without opts->trace. */
DALIC_API int dalic_stats_write_trace(dalic_stats_t *s, FILE *f);
/* The same, to a file path. */
DALIC_API int dalic_stats_save_trace(dalic_stats_t *s, const char *path);

/* ---- tracers and attach (docs/profiling.md) ------------------------------------------- */

/* Version of the attach protocol: one JSON object per line, {"attach_version", "pid", "seq",
 * "stats": <the document of dalic_stats_json>}. */
#define DALIC_STATS_ATTACH_VERSION 1

/* Attaches tracers chosen by name, separated by ';' or ',', to `p`: "stats" (a collector),
 * "trace" (the collector also keeps trace events), "nvtx" (NVTX ranges in a "dalic" domain:
 * DALIC_EUNSUPPORTED in a build without the CUDA toolkit), "none". Several run at once.
 * Tracers already attached stay; the pipeline then ignores DALIC_TRACERS, which otherwise
 * does the same at its first build. Call before the first run. At destroy, "stats" writes
 * its JSON to $DALIC_STATS_FILE when set, and "trace" its Chrome trace to $DALIC_TRACE_FILE
 * (default dalic-trace-PID-N.json). Unknown names: DALIC_EINVAL naming them. */
DALIC_API int dalic_tracers_attach(dalic_pipeline_t *p, const char *names);
/* The collector of p's "stats" tracer, or NULL. Borrowed: it lives as long as p. */
DALIC_API dalic_stats_t *dalic_tracers_stats(const dalic_pipeline_t *p);
/* Publishes p's stats snapshots on the Unix socket `path` (attaches "stats" if needed): a
 * server thread sends a snapshot every 500 ms (DALIC_STATS_INTERVAL_MS) to each connected
 * client (`dalic top PATH`). Sends never block: a client that does not read is dropped, so
 * no client can stall the pipeline. The server stops and removes `path` when p is
 * destroyed. Setting DALIC_STATS_SOCKET=PATH does this at the first build. Call before the
 * first run; DALIC_ESTATE if p already serves. */
DALIC_API int dalic_stats_serve(dalic_pipeline_t *p, const char *path);

#ifdef __cplusplus
}
#endif
#endif
