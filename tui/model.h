/*
 * What the runner thread publishes for the UI thread to draw: plain, immutable, reference-
 * counted copies. The UI never sees a pipeline, a debug session or a batch — only these
 * structs and the stats snapshots (dalic_stats.h) — so drawing cannot race the engine.
 *
 * A model is replaced as a whole; the graph and the batch view inside it are shared between
 * consecutive models (a graph lives until the next build, a batch view until the next
 * extraction), so publishing 20 models a second copies a few hundred bytes, not images.
 */
#ifndef DALIC_TUI_MODEL_H
#define DALIC_TUI_MODEL_H

#include "dalic.h"
#include "dalic_stats.h"

#include <stdatomic.h>
#include <stdint.h>

typedef enum { TUI_ENGINE_FULL = 0, TUI_ENGINE_DEBUG = 1 } tui_engine_t;

/* ---- graph: operators and who feeds whom, from the built graph ---------------------------- */
typedef struct tui_gnode {
	char *name;    /* instance name */
	char *schema;  /* DALI schema name */
	int stage;     /* 0 cpu, 1 mixed, 2 gpu */
	bool internal; /* inserted by the build */
	int num_outputs;
	char **outputs; /* data node names */
} tui_gnode_t;

typedef struct tui_gedge {
	int from, to; /* node indices */
	bool arg;     /* argument input */
} tui_gedge_t;

typedef struct tui_graph {
	atomic_int refs;
	uint64_t generation; /* new for every build: layouts are cached by it */
	int num_nodes;
	tui_gnode_t *nodes; /* execution order */
	int num_edges;
	tui_gedge_t *edges;
	int num_outputs;
	char **outputs; /* pipeline outputs as the user named them */
} tui_graph_t;

tui_graph_t *dalic_tui_graph_new(int num_nodes, int num_edges, int num_outputs);
tui_graph_t *dalic_tui_graph_ref(tui_graph_t *g);
void dalic_tui_graph_unref(tui_graph_t *g);
/* Index of the node with that instance name, or -1. */
int dalic_tui_graph_find(const tui_graph_t *g, const char *name);

/* ---- batch: a window of samples of one data node ------------------------------------------ */
typedef struct tui_sample_view {
	int index;
	char shape[64]; /* "[480, 640, 3]" */
	bool has_stats;
	double min, max, mean;
	int64_t nan_count;
	int64_t elements;     /* numeric elements the statistics cover */
	char *source;         /* file it came from, or NULL */
	char *warning;        /* a data-quality warning of this iteration's sample, or NULL */
	int thumb_w, thumb_h; /* RGB8 thumbnail (images), or 0 */
	unsigned char *thumb;
	char *values; /* numpy-style values (non-images), or NULL */
} tui_sample_view_t;

typedef struct tui_batch_view {
	atomic_int refs;
	uint64_t id;    /* new per extraction: thumbnails are cached by it */
	char op[128];   /* operator whose output this is */
	char node[128]; /* data node shown */
	int output;     /* which output of op */
	int num_op_outputs;
	int64_t iteration;
	char dtype[16], layout[16], device[8];
	int num_samples;  /* in the batch */
	int first, count; /* the window extracted */
	tui_sample_view_t *samples;
	bool image;     /* samples have thumbnails */
	bool stretched; /* float images shown with min..max stretched to black..white */
	char note[200]; /* why nothing (or something else) is shown */
} tui_batch_view_t;

tui_batch_view_t *dalic_tui_batch_view_new(int count);
tui_batch_view_t *dalic_tui_batch_view_ref(tui_batch_view_t *b);
void dalic_tui_batch_view_unref(tui_batch_view_t *b);

/* ---- operator timings measured by the runner in the debug engine -------------------------- */
typedef struct tui_debug_op {
	int64_t runs;
	int64_t last_iteration;
	double mean_ns;
	int64_t p99_ns, last_ns;
	int64_t bytes; /* real bytes of its outputs' last batches */
} tui_debug_op_t;

/* ---- before / after numbers of a parameter change ----------------------------------------- */
typedef struct tui_measure {
	bool valid;
	double rate;      /* samples per second while running, 0 unknown */
	double iter_ms;   /* iteration interval p50 */
	int64_t reserved; /* executor_statistics reserved bytes, all outputs */
	int64_t buffers;  /* bytes held by output buffers */
	int64_t live;     /* host + pinned + device bytes allocated by the engine */
	int prefetch_cpu, prefetch_gpu, num_threads;
	bool separated;
	int64_t bytes_per_sample;
} tui_measure_t;

typedef struct tui_error {
	bool set;
	char op[128];     /* operator instance, "" when not an operator's error */
	int sample;       /* -1 unknown */
	char source[256]; /* file of that sample, "" unknown */
	char message[1024];
} tui_error_t;

#define TUI_TUNE_TEXT 2048
#define TUI_MAX_READERS 8
#define TUI_MAX_SINCE 48

/* A reader's position in the checkpoint of the current iteration (issue 27). */
typedef struct tui_reader_pos {
	char name[64];
	int32_t epoch, age; /* DALI's loader snapshot: epoch, samples returned since its start */
	int64_t epoch_size; /* samples per epoch of its shard (padded), 0 unknown */
} tui_reader_pos_t;

/* What an operator's outputs grew and allocated since the mark (issue 26, stats/growth.h). */
typedef struct tui_since_row {
	char name[64];
	int64_t bytes_live, growth_events, allocations, allocated_bytes;
} tui_since_row_t;

typedef struct tui_model {
	atomic_int refs;
	uint64_t done_seq; /* last command the runner finished */
	const char *path;  /* pipeline file (borrowed from the runner, lives as long) */
	tui_engine_t engine;
	bool running, built, ended;
	int64_t iteration; /* full: iterations received; debug: current iteration */
	int64_t iterations_done;
	int64_t epochs;      /* end-of-data resets seen */
	int next_op;         /* debug: index of the next operator, -1 full engine */
	int last_op;         /* debug: operator that ran last, -1 none */
	double rate;         /* samples per second, recent, while running */
	double run_seconds;  /* time spent running continuously since the build */
	int64_t run_samples; /* samples produced in that time */
	dalic_pipeline_params_t params;
	char executor[40];
	bool emulated;      /* gpu/mixed operators run on the CPU */
	bool tracing;       /* the collector records trace events */
	tui_graph_t *graph; /* NULL until the first build succeeds */
	int num_debug_ops;
	tui_debug_op_t *debug_ops; /* per graph node, debug engine only */
	tui_batch_view_t *batch;
	tui_error_t error;
	char notice[256]; /* last thing that happened, for the message line */
	bool has_compare;
	char change[160]; /* "prefetch_queue_depth 2 -> 3" */
	tui_measure_t before;
	int64_t mem_live[3]; /* dalic_mem_totals bytes_live, host / pinned / device */
	char tune[TUI_TUNE_TEXT]; /* the tune view's lines, "" when not shown */
	/* position (tui/runner_ckpt.c): DALI's epoch_idx and each reader's place, from the
	 * checkpoint of the current iteration; `position_note` says why there is none */
	bool has_position;
	int64_t epoch_idx;
	int num_readers;
	tui_reader_pos_t readers[TUI_MAX_READERS];
	char position_note[96];
	/* mark / since (tui/runner_mark.c): shown in OPERATORS while since_shown */
	bool marked, since_shown;
	int64_t mark_iteration, since_iterations;
	int num_since;
	tui_since_row_t since[TUI_MAX_SINCE];
} tui_model_t;

tui_model_t *dalic_tui_model_new(void);
tui_model_t *dalic_tui_model_ref(tui_model_t *m);
void dalic_tui_model_unref(tui_model_t *m);

/* The numbers compared before / after a change, from a model and its stats (may be NULL). */
void dalic_tui_measure_take(const tui_model_t *m, const dalic_stats_snapshot_t *s,
                            tui_measure_t *out);

/* Bytes as "1.5M", "230K", "812B"; "-" for negative (unknown). */
const char *dalic_tui_fmt_bytes(int64_t bytes, char buf[16]);
/* Nanoseconds as "1.23ms", "850us", "2.1s". */
const char *dalic_tui_fmt_ns(double ns, char buf[16]);

#endif
