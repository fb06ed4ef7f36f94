/*
 * dalic — debug mode: an eager executor and a stepping / breakpoint / inspection session.
 *
 * A session runs a pipeline one operator at a time, in definition order, iteration by
 * iteration, with the same kernels as the full engine, and keeps the batch of every data node
 * so it can be inspected. It is what `dalic debug`, `dalic run --debug` and the TUI drive.
 *
 * Position. The session is always at (iteration, next_op): `next_op` indexes the operators in
 * execution order (dalic_debug_op_info). Opening or restarting puts it at (0, 0), nothing run.
 * When the last operator of iteration k has run the position is (k, num_ops): the iteration is
 * complete and every node holds iteration k's batch. The next operator to run is then the
 * first one of iteration k+1. A node that has not run yet in the current iteration still holds
 * the batch of the iteration it last ran in (dalic_debug_node says which).
 *
 * Running. Every run call (step, next, continue, goto) returns
 *   DALIC_OK    it stopped normally; dalic_debug_status() says why (step done, breakpoint,
 *               condition, interrupt, iteration limit),
 *   DALIC_EOP   an operator failed: the session stopped on it (status: operator, sample,
 *               source file; message in dalic_debug_last_error()); its inputs stay inspectable.
 *               The next run call abandons the failed iteration and goes on with the next one.
 *   DALIC_EEND  end of data (an input has no more batches); only restart/goto 0 go on,
 *   or another status for invalid arguments (nothing ran).
 *
 * Breakpoints. An operator breakpoint (instance "__Rotate_6" or schema/fn name "Rotate",
 * "rotate") stops before that operator runs; an iteration breakpoint stops before the first
 * operator of that iteration; a condition ("any NaN", "max > 1", "shape[0] > 1000",
 * "__Cast_4: min < 0 and mean > 3") is checked on the outputs of each operator right after it
 * ran and stops when any sample satisfies it. Resuming from a stop never re-triggers the same
 * breakpoint at the same position. `step` ignores operator and iteration breakpoints (it runs
 * exactly one operator) but reports conditions.
 *
 * Reproduction. restart() re-seeds every operator and resets readers and inputs, so the
 * iterations that follow reproduce the earlier ones exactly (external-source data given with
 * dalic_debug_feed_input is kept and replayed; source callbacks are called again with the same
 * iteration numbers and must return the same data).
 *
 * Threading: a session is driven by one thread; only dalic_debug_interrupt may be called from
 * another thread or a signal handler. Strings and batches returned are borrowed: valid until
 * the next run call, restart, goto or close unless stated otherwise.
 */
#ifndef DALIC_DEBUG_H
#define DALIC_DEBUG_H

#include "dalic.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dalic_debug dalic_debug_t;

/* ---- sessions ---------------------------------------------------------------------------- */
/* Opens a session on a copy of the pipeline's definition (the pipeline is only read; its fed
 * data is not taken over). Builds the graph and creates the operators. New: free with
 * dalic_debug_close. */
DALIC_API int dalic_debug_open(dalic_pipeline_t *p, dalic_debug_t **out);
DALIC_API void dalic_debug_close(dalic_debug_t *s);

/* External sources. Batches fed are copied and kept: the n-th batch fed is iteration n's, and
 * restart replays them; when they run out and no callback is set, the source reports end of
 * data. A callback (dalic_source_fn, see dalic.h) is asked for every iteration not fed. */
DALIC_API int dalic_debug_feed_input(dalic_debug_t *s, const char *name, dalic_dtype_t dtype, int ndim,
                           int batch, const int64_t *shapes, const void *data, const char *layout);
/* With the samples' source names, as dalic_pipeline_feed_input_sources. */
DALIC_API int dalic_debug_feed_input_sources(dalic_debug_t *s, const char *name,
                                             dalic_dtype_t dtype, int ndim, int batch,
                                             const int64_t *shapes, const void *data,
                                             const char *layout, const char *const *sources);
DALIC_API int dalic_debug_set_source(dalic_debug_t *s, const char *name, dalic_source_fn fn, void *user);

/* Where print() records of a debug=True script go (replayed every iteration in DALI's
 * formats). Default: stdout. `fn` NULL restores the default. `user` is borrowed. */
typedef void (*dalic_debug_print_fn)(void *user, const char *text);
DALIC_API void dalic_debug_set_print(dalic_debug_t *s, dalic_debug_print_fn fn, void *user);

/* ---- running ----------------------------------------------------------------------------- */
/* Runs the next operator (entering the next iteration when the current one is complete). */
DALIC_API int dalic_debug_step(dalic_debug_t *s);
/* Runs to the end of the current iteration, or through the whole next iteration when the
 * current one is complete. Stops early at breakpoints and errors. */
DALIC_API int dalic_debug_next(dalic_debug_t *s);
/* Runs until a breakpoint, an error, end of data, an interrupt, or until `max_iterations`
 * more iterations are complete (-1: no limit). */
DALIC_API int dalic_debug_continue(dalic_debug_t *s, int64_t max_iterations);
/* Goes to the start of iteration n (position (n, 0), nothing of n run): restarts when n is
 * behind, then runs the iterations before n without breakpoints and with prints muted. From
 * (0, 0) it moves the operators on without running them where the pipeline allows it
 * (dalic_pipeline_seek: no external sources, no conditionals). */
DALIC_API int dalic_debug_goto(dalic_debug_t *s, int64_t n);
/* Back to (0, 0): operators re-seeded and reset, inputs rewound, batches dropped. */
DALIC_API int dalic_debug_restart(dalic_debug_t *s);
/* Asks a running continue/next/goto to stop after the current operator (async-signal-safe). */
DALIC_API void dalic_debug_interrupt(dalic_debug_t *s);
/* Checkpoints (docs/checkpoints.md; the pipeline needs enable_checkpointing, as in DALI).
 * save: between iterations (nothing of the current one run), the operators' states as DALI
 * 2.4's checkpoint bytes in `path`; it restores with `dalic run --checkpoint` and in DALI.
 * load: restarts the session at the checkpoint's position (DALI's restore checks; on error the
 * session is back at iteration 0). */
DALIC_API int dalic_debug_checkpoint_save(dalic_debug_t *s, const char *path);
DALIC_API int dalic_debug_checkpoint_load(dalic_debug_t *s, const char *path);
/* The checkpoint save would write, as bytes (*buf: free()); the same refusals. */
DALIC_API int dalic_debug_checkpoint(dalic_debug_t *s, uint8_t **buf, size_t *len);

typedef enum {
	DALIC_DEBUG_STOP_NONE = 0,   /* nothing ran yet (opened or restarted) */
	DALIC_DEBUG_STOP_STEP,       /* the step / next / goto asked for is done */
	DALIC_DEBUG_STOP_BREAK_OP,   /* before an operator with a breakpoint */
	DALIC_DEBUG_STOP_BREAK_ITER, /* before the first operator of an iteration with a breakpoint
	                              */
	DALIC_DEBUG_STOP_COND,  /* a condition held on an output of the operator that just ran */
	DALIC_DEBUG_STOP_ERROR, /* an operator failed */
	DALIC_DEBUG_STOP_END,   /* end of data */
	DALIC_DEBUG_STOP_INTERRUPT, /* dalic_debug_interrupt */
	DALIC_DEBUG_STOP_LIMIT,     /* continue reached its iteration limit */
	DALIC_DEBUG_STOP_WARNING,   /* the operator that just ran reported a data-quality warning
	                               (a `break warning` breakpoint) */
} dalic_debug_stop_t;

typedef struct dalic_debug_status {
	int64_t iteration; /* current iteration (see Position above) */
	int next_op;       /* index of the next operator; == num_ops: iteration complete */
	int num_ops;
	const char *next_op_name; /* instance name, NULL when the iteration is complete */
	int64_t iterations_done;  /* iterations completed since open / restart */
	int batch_size;           /* samples in the current iteration (0 before its first op) */
	dalic_debug_stop_t stop;  /* why the last run call stopped */
	int break_id;             /* breakpoint that stopped it, or -1 */
	const char *stop_op;      /* operator of a BREAK_OP / COND / ERROR stop, else NULL */
	const char *stop_node;    /* data node a condition held on, else NULL */
	int stop_sample;          /* sample of a COND / ERROR stop, or -1 if unknown */
	const char *stop_source;  /* source file of that sample (reader data), or NULL */
	const char *stop_message; /* the warning of a WARNING stop, else NULL */
	/* DALI's epoch_idx (a checkpoint's pipeline_data): the loaded checkpoint's, plus each end
	 * of data the session went on past with more input */
	int64_t epoch_idx;
} dalic_debug_status_t;

DALIC_API void dalic_debug_status(const dalic_debug_t *s, dalic_debug_status_t *out);
/* Message of the last failure of this session (operator error, bad breakpoint, ...): "" if
 * none. Borrowed until the next call on the session. */
DALIC_API const char *dalic_debug_last_error(const dalic_debug_t *s);

/* ---- breakpoints --------------------------------------------------------------------------- */
/* Each returns the new breakpoint's id (> 0) in *id (may be NULL). `op` must name an operator
 * of the built graph by instance, schema or fn name; `expr` is parsed at once (errors name the
 * offending token). Copies its strings. */
DALIC_API int dalic_debug_break_op(dalic_debug_t *s, const char *op, int *id);
DALIC_API int dalic_debug_break_iter(dalic_debug_t *s, int64_t iteration, int *id);
DALIC_API int dalic_debug_break_cond(dalic_debug_t *s, const char *expr, int *id);
/* Stops after the first operator that reports a data-quality warning (issue 20: a damaged file
 * a decoder decoded anyway), at the first sample it warned about. */
DALIC_API int dalic_debug_break_warning(dalic_debug_t *s, int *id);
/* Deletes breakpoint `id`, or all of them when id <= 0. */
DALIC_API int dalic_debug_delete(dalic_debug_t *s, int id);

typedef enum {
	DALIC_DEBUG_BREAK_OP,
	DALIC_DEBUG_BREAK_ITER,
	DALIC_DEBUG_BREAK_COND,
	DALIC_DEBUG_BREAK_WARNING
} dalic_debug_break_kind_t;
typedef struct dalic_debug_break {
	int id;
	dalic_debug_break_kind_t kind;
	const char *text; /* operator name, iteration number or condition as given */
	int64_t hits;
} dalic_debug_break_t;
DALIC_API int dalic_debug_num_breaks(const dalic_debug_t *s);
/* i-th breakpoint in creation order. */
DALIC_API int dalic_debug_break_get(const dalic_debug_t *s, int i, dalic_debug_break_t *out);

/* The data-quality warnings the operators reported in this session (dalic_warning_t, dalic.h),
 * in the order they came; kept across restarts. Strings borrowed until the session closes. */
DALIC_API int64_t dalic_debug_num_warnings(const dalic_debug_t *s);
DALIC_API int dalic_debug_warning(const dalic_debug_t *s, int64_t i, dalic_warning_t *out);

/* ---- graph --------------------------------------------------------------------------------- */
typedef struct dalic_debug_op_info {
	const char *name;              /* instance name */
	const char *schema;            /* DALI schema name */
	const char *device;            /* "cpu" / "mixed" / "gpu" */
	bool internal;                 /* inserted by the build (copies, MakeContiguous) */
	bool emulated;                 /* gpu/mixed operator running on the CPU */
	int num_inputs;                /* regular inputs then argument inputs */
	const char *const *inputs;     /* data node names */
	const char *const *input_args; /* argument name per input, NULL for regular inputs */
	int num_outputs;
	const char *const *outputs;
	int64_t last_iteration; /* iteration it last ran in, -1 never */
	int64_t last_ns;        /* time of that run (setup + allocation + run) */
	int64_t total_ns;       /* all runs since open / restart */
	int64_t runs;
} dalic_debug_op_info_t;

DALIC_API int dalic_debug_num_ops(const dalic_debug_t *s);
/* Operator i in execution order. */
DALIC_API int dalic_debug_op_info(const dalic_debug_t *s, int i, dalic_debug_op_info_t *out);
/* Index of the operator with that instance name, or -1. */
DALIC_API int dalic_debug_find_op(const dalic_debug_t *s, const char *name);

/* Data nodes ("edges"): every operator output, named as in the definition. */
DALIC_API int dalic_debug_num_nodes(const dalic_debug_t *s);
DALIC_API const char *dalic_debug_node_name(const dalic_debug_t *s, int i);
/* The batch of data node `name` (a node name, an operator instance = its first output, or
 * "name_gpu"/"name_cpu" for one device of a node that exists on both), or NULL if unknown or
 * never produced. *iteration (may be NULL) gets the iteration the batch belongs to. Batches of
 * device memory are copied to host memory for reading. Borrowed. */
DALIC_API const dalic_batch_t *dalic_debug_node(dalic_debug_t *s, const char *name, int64_t *iteration);
/* Pipeline outputs of the current (complete) iteration. Borrowed. */
DALIC_API int dalic_debug_num_outputs(const dalic_debug_t *s);
DALIC_API const char *dalic_debug_output_name(const dalic_debug_t *s, int i);
DALIC_API const dalic_batch_t *dalic_debug_output(dalic_debug_t *s, int i);

/* ---- inspection (any batch, including those of the full engine) ------------------------------ */
typedef struct dalic_debug_stats {
	int64_t elements;           /* numeric elements counted */
	double min, max, mean, std; /* over finite values; NaN when there are none */
	int64_t nan_count, inf_count;
} dalic_debug_stats_t;
/* Statistics of sample `sample`, or of the whole batch when sample < 0. Non-numeric dtypes
 * give DALIC_EUNSUPPORTED. */
DALIC_API int dalic_debug_stats(const dalic_batch_t *b, int sample, dalic_debug_stats_t *out);

/* Values of sample `sample` as numpy prints them (np.array2string, DALI's edgeitems=2),
 * optionally sliced with numpy syntax: "0:2, 0:2", "1", ":, ::2, -1". New string: free(). */
DALIC_API int dalic_debug_format_sample(const dalic_batch_t *b, int sample, const char *slice, char **out);
/* DALI's repr of a batch: `TensorListCPU(\n    [[...]],\n    dtype=DALIDataType.FLOAT,\n
 * layout="HWC",\n    num_samples=2,\n    shape=[(2, 3), (2, 3)])`. When `node_name` is set,
 * the DataNodeDebug repr wrapping it (what print(node) shows in DALI's debug mode).
 * New string: free(). */
DALIC_API int dalic_debug_format_batch(const dalic_batch_t *b, const char *node_name, char **out);

/* An 8-bit image made from a sample for preview: HWC or CHW layouts (else a 2-D sample or a
 * 3-D one with <= 4 channels last); uint8 as is, floats scaled by 255 when all values are in
 * [0, 1], anything else clamped to [0, 255]. */
typedef struct dalic_debug_image {
	int width, height, channels; /* channels 1, 3 or 4 */
	unsigned char *pixels;       /* height * width * channels bytes, row-major HWC */
} dalic_debug_image_t;
/* New pixels: free with dalic_debug_image_free. DALIC_EUNSUPPORTED if not image-like. */
DALIC_API int dalic_debug_preview(const dalic_batch_t *b, int sample, dalic_debug_image_t *out);
DALIC_API void dalic_debug_image_free(dalic_debug_image_t *img);
/* Writes the preview of a sample: .png (libpng), .ppm or .pgm by the path's extension. */
DALIC_API int dalic_debug_save_image(const dalic_batch_t *b, int sample, const char *path);

/* ---- performance ----------------------------------------------------------------------------- */
typedef struct dalic_debug_perf {
	int64_t iterations;
	double debug_seconds; /* eager executor, inspection idle (no breakpoints) */
	double full_seconds;  /* the full engine, same definition, seed and inputs */
	double slowdown;      /* debug_seconds / full_seconds */
} dalic_debug_perf_t;
/* Runs `iterations` iterations of the session's pipeline twice — eagerly and with the full
 * engine — on fresh instances (the session's position is not touched) and times both. */
DALIC_API int dalic_debug_measure(dalic_debug_t *s, int64_t iterations, dalic_debug_perf_t *out);

/* ---- memory: mark / since (GStreamer's leaks-tracer checkpoints; stats/growth.h) ----------- */
typedef struct dalic_debug_growth {
	const char *op; /* operator instance name (borrowed until the next since or close) */
	int64_t bytes_live;      /* its outputs' buffers now minus at the mark (may be < 0) */
	int64_t growth_events;   /* output buffers that grew since the mark */
	int64_t allocations;     /* allocations its outputs made since the mark */
	int64_t allocated_bytes; /* and their bytes */
} dalic_debug_growth_t;
/* Keeps every operator's memory counters now (the eager engine's, summed over its outputs). */
DALIC_API int dalic_debug_mark(dalic_debug_t *s);
/* What grew since the mark, one row per operator in graph order, and the iterations completed
 * since (restarts do not reset either). DALIC_ESTATE without a mark. Rows are borrowed until
 * the next call of this function or close. */
DALIC_API int dalic_debug_since(dalic_debug_t *s, int64_t *iterations,
                                const dalic_debug_growth_t **rows, int *num_rows);

#ifdef __cplusplus
}
#endif
#endif
