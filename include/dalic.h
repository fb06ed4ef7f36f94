/*
 * dalic — public C API.
 *
 * A data-loading pipeline engine that follows NVIDIA DALI's semantics: a Pipeline of
 * operators connected by named data nodes, run in stages cpu -> mixed -> gpu, with prefetch
 * queues and the run / schedule_run / share_outputs / release_outputs protocol.
 *
 * Rules that hold for every function here:
 *  - Every call that can fail returns an int status: DALIC_OK (0) or a negative DALIC_E*
 *    code. dalic_strerror() names the code; dalic_last_error() returns the full message of the
 *    last failure on the calling thread (operator instance, sample, source file).
 *  - A failing call leaves no side effect the caller must undo.
 *  - Ownership is stated per function: "new" (caller frees with the named function),
 *    "borrowed" (valid until the named event), "copies" (the library keeps its own copy).
 *  - One pipeline is driven by one thread at a time; different pipelines are independent.
 */
#ifndef DALIC_H
#define DALIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DALIC_VERSION "0.1.0"

/* ---- status codes ----------------------------------------------------------------------- */
enum {
	DALIC_OK = 0,
	DALIC_EINVAL = -1,        /* invalid parameter or argument value */
	DALIC_ENOMEM = -2,        /* allocation failed */
	DALIC_EUNKNOWN_OP = -3,   /* operator name not in the registry */
	DALIC_EUNKNOWN_ARG = -4,  /* argument not in the operator's schema */
	DALIC_EARG_TYPE = -5,     /* argument value of the wrong type */
	DALIC_EMISSING_ARG = -6,  /* required argument not given */
	DALIC_EGRAPH = -7,        /* invalid graph: names, devices, stage order, outputs */
	DALIC_ESTATE = -8,        /* call not valid in the pipeline's current state */
	DALIC_EOP = -9,           /* an operator failed while running */
	DALIC_EEND = -10,         /* end of data: no more iterations */
	DALIC_EIO = -11,          /* file could not be read or written */
	DALIC_EPARSE = -12,       /* malformed script, protobuf or data */
	DALIC_EUNSUPPORTED = -13, /* valid in DALI but not supported by dalic */
	DALIC_EDEVICE = -14,      /* device (GPU) not available or failed */
	DALIC_EBROKEN = -15,      /* pipeline failed earlier and can no longer be used */
	DALIC_EOUTPUT = -16,      /* output does not match its declared dtype / ndim / layout */
};

/* Name of a status code ("invalid argument", ...). Static string, never NULL. */
const char *dalic_strerror(int status);
/* Full message of the last failure on this thread. Borrowed: valid until the next failing
 * dalic call on this thread. Empty string if none. */
const char *dalic_last_error(void);

/* ---- data types (DALI's DALIDataType numbering, frozen for serialization) --------------- */
typedef enum {
	DALIC_NO_TYPE = -1,
	DALIC_UINT8 = 0,
	DALIC_UINT16 = 1,
	DALIC_UINT32 = 2,
	DALIC_UINT64 = 3,
	DALIC_INT8 = 4,
	DALIC_INT16 = 5,
	DALIC_INT32 = 6,
	DALIC_INT64 = 7,
	DALIC_FLOAT16 = 8,
	DALIC_FLOAT = 9,
	DALIC_FLOAT64 = 10,
	DALIC_BOOL = 11,
	DALIC_STRING = 12,
	DALIC_IMAGE_TYPE = 20,
	DALIC_DATA_TYPE = 21,
	DALIC_INTERP_TYPE = 22,
	DALIC_TENSOR_LAYOUT = 23,
} dalic_dtype_t;

/* DALIImageType and DALIInterpType, same numbers as DALI. */
enum { DALIC_RGB = 0, DALIC_BGR = 1, DALIC_GRAY = 2, DALIC_YCbCr = 3, DALIC_ANY_DATA = 4 };
enum {
	DALIC_INTERP_NN = 0,
	DALIC_INTERP_LINEAR = 1,
	DALIC_INTERP_CUBIC = 2,
	DALIC_INTERP_LANCZOS3 = 3,
	DALIC_INTERP_TRIANGULAR = 4,
	DALIC_INTERP_GAUSSIAN = 5,
};

/* Element size in bytes (0 for NO_TYPE / STRING). */
size_t dalic_dtype_size(dalic_dtype_t t);
/* DALI's name of a dtype: "UINT8", "FLOAT", ... Static string; "UNKNOWN" if invalid. */
const char *dalic_dtype_name(dalic_dtype_t t);

/* ---- pipeline parameters ---------------------------------------------------------------- */
#define DALIC_CPU_ONLY_DEVICE_ID (-99999)
#define DALIC_MAX_NDIM 8

typedef struct dalic_pipeline_params {
	int batch_size;         /* max batch size; required, > 0 */
	int num_threads;        /* per-sample worker threads; default 4 */
	int device_id;          /* GPU id, or DALIC_CPU_ONLY_DEVICE_ID; default 0 */
	int64_t seed;           /* pipeline seed; -1 = chosen from the clock */
	bool exec_pipelined;    /* default true */
	bool exec_async;        /* default true */
	bool separated_queues;  /* prefetch depths given as cpu/gpu sizes */
	int prefetch_cpu;       /* queue depth (uniform depth when !separated); default 2 */
	int prefetch_gpu;       /* default 2 */
	int64_t bytes_per_sample; /* pipeline-wide bytes_per_sample_hint; default 0 */
	bool set_affinity;
	bool enable_memory_stats;
	int output_dtype;       /* declared dtype of every output; DALIC_NO_TYPE = any */
	int output_ndim;        /* declared ndim of every output; -1 = any */
} dalic_pipeline_params_t;

/* Fills *p with DALI's defaults (batch_size 0 must still be set). */
void dalic_pipeline_params_init(dalic_pipeline_params_t *p);

/* ---- pipeline ---------------------------------------------------------------------------- */
typedef struct dalic_pipeline dalic_pipeline_t;
typedef struct dalic_op dalic_op_t;
typedef struct dalic_batch dalic_batch_t;

/* Creates an empty pipeline. Copies *params. New: free with dalic_pipeline_destroy. */
int dalic_pipeline_create(const dalic_pipeline_params_t *params, dalic_pipeline_t **out);
/* Stops all work, frees everything the pipeline owns. NULL is ignored. */
void dalic_pipeline_destroy(dalic_pipeline_t *p);
/* Borrowed: the pipeline's parameters as they are now (after any build-time resolution). */
const dalic_pipeline_params_t *dalic_pipeline_params(const dalic_pipeline_t *p);

/* Adds an operator. `op` is a schema name ("random__CoinFlip"), an fn name
 * ("random.coin_flip" or "fn.random.coin_flip") or a legacy alias ("CoinFlip").
 * `device` is "cpu", "gpu", "mixed" or NULL (automatic: gpu if any input is gpu).
 * *out is borrowed: valid until the pipeline is destroyed. The instance name is
 * "__<Name>_<n>" until dalic_op_set_name. */
int dalic_pipeline_add_op(dalic_pipeline_t *p, const char *op, const char *device,
			  dalic_op_t **out);
/* Sets the instance name (DALI's `name=`). Copies. */
int dalic_op_set_name(dalic_op_t *op, const char *name);
/* Appends a positional input: data node `node`, requested on `device` ("cpu"/"gpu", or NULL
 * for the device it is produced on — like DataNode.gpu()/.cpu()). Copies. */
int dalic_op_add_input(dalic_op_t *op, const char *node, const char *device);
/* Gives argument `arg` per sample from CPU data node `node` (an argument input). Copies. */
int dalic_op_set_arg_input(dalic_op_t *op, const char *arg, const char *node);
/* Scalar and list arguments, checked against the schema at once. Copies. */
int dalic_op_set_int(dalic_op_t *op, const char *arg, int64_t v);
int dalic_op_set_float(dalic_op_t *op, const char *arg, double v);
int dalic_op_set_bool(dalic_op_t *op, const char *arg, bool v);
int dalic_op_set_string(dalic_op_t *op, const char *arg, const char *v);
int dalic_op_set_ints(dalic_op_t *op, const char *arg, int n, const int64_t *v);
int dalic_op_set_floats(dalic_op_t *op, const char *arg, int n, const double *v);
int dalic_op_set_strings(dalic_op_t *op, const char *arg, int n, const char *const *v);
/* Instance name and output node names. Borrowed: valid until the name changes. */
const char *dalic_op_name(const dalic_op_t *op);
int dalic_op_num_outputs(const dalic_op_t *op);
const char *dalic_op_output(const dalic_op_t *op, int i);

/* Declares a pipeline output: data node `node` on `device` ("cpu"/"gpu"/NULL = as produced).
 * Outputs are numbered in the order they are added. Copies. */
int dalic_pipeline_add_output(dalic_pipeline_t *p, const char *node, const char *device);
/* Declared dtype / ndim / layout of output i (DALIC_NO_TYPE / -1 / NULL = any). Copies. */
int dalic_pipeline_set_output_desc(dalic_pipeline_t *p, int i, int dtype, int ndim,
				   const char *layout);

/* Validates and builds the graph (devices, stages, pruning, seeds). Optional: the first
 * run call builds. Errors name the operator and argument. */
int dalic_pipeline_build(dalic_pipeline_t *p);

/* ---- feeding external_source ------------------------------------------------------------- */
/* Feeds one batch to the external_source named `name`: `batch` samples of `dtype`, each with
 * `ndim` dims from `shapes` (batch*ndim values), data packed back to back. Copies. */
int dalic_pipeline_feed_input(dalic_pipeline_t *p, const char *name, dalic_dtype_t dtype,
			      int ndim, int batch, const int64_t *shapes, const void *data,
			      const char *layout);

/* A source callback fills one batch per call with dalic_feed_batch(), or returns DALIC_EEND
 * at the end of data (no more iterations are scheduled; those in flight still come out). */
typedef struct dalic_feed dalic_feed_t;
typedef int (*dalic_source_fn)(void *user, int64_t iteration, dalic_feed_t *feed);
/* Registers `fn` as the source of external_source `name`. `user` is borrowed. */
int dalic_pipeline_set_source(dalic_pipeline_t *p, const char *name, dalic_source_fn fn,
			      void *user);
/* Used inside a source callback; same layout as dalic_pipeline_feed_input. Copies. */
int dalic_feed_batch(dalic_feed_t *f, dalic_dtype_t dtype, int ndim, int batch,
		     const int64_t *shapes, const void *data, const char *layout);

/* ---- running ----------------------------------------------------------------------------- */
/* run = schedule_run + outputs. The first call fills the prefetch queues. */
int dalic_pipeline_run(dalic_pipeline_t *p);
/* Schedules one iteration (the first call prefetches). */
int dalic_pipeline_schedule_run(dalic_pipeline_t *p);
/* Waits for the oldest scheduled iteration and exposes its outputs until release. */
int dalic_pipeline_share_outputs(dalic_pipeline_t *p);
/* Returns the shared outputs' buffers to the queue. */
int dalic_pipeline_release_outputs(dalic_pipeline_t *p);
/* release_outputs (if any were shared) + share_outputs. */
int dalic_pipeline_outputs(dalic_pipeline_t *p);
/* After end of data: allows the pipeline to start the next epoch. */
int dalic_pipeline_reset(dalic_pipeline_t *p);

int dalic_pipeline_num_outputs(const dalic_pipeline_t *p);
/* Borrowed: valid until release_outputs / the next outputs call / destroy. */
const char *dalic_pipeline_output_name(const dalic_pipeline_t *p, int i);
const dalic_batch_t *dalic_pipeline_output(const dalic_pipeline_t *p, int i);

/* ---- reading a batch (borrowed pointers, valid as long as the batch) ---------------------- */
int dalic_batch_num_samples(const dalic_batch_t *b);
dalic_dtype_t dalic_batch_dtype(const dalic_batch_t *b);
int dalic_batch_ndim(const dalic_batch_t *b);
const char *dalic_batch_layout(const dalic_batch_t *b);
/* "cpu" or "gpu" ("gpu" data lives in host memory when devices are emulated). */
const char *dalic_batch_device(const dalic_batch_t *b);
/* Shape of sample i: dalic_batch_ndim() values. */
const int64_t *dalic_batch_shape(const dalic_batch_t *b, int i);
const void *dalic_batch_data(const dalic_batch_t *b, int i);
size_t dalic_batch_sample_bytes(const dalic_batch_t *b, int i);
/* Source of sample i (file path for reader data), or NULL. */
const char *dalic_batch_source(const dalic_batch_t *b, int i);

/* ---- reader metadata (DALI's reader_meta) ------------------------------------------------- */
typedef struct dalic_reader_meta {
	int64_t epoch_size;
	int64_t epoch_size_padded;
	int number_of_shards;
	int shard_id;
	bool pad_last_batch;
	bool stick_to_shard;
} dalic_reader_meta_t;
/* Metadata of reader instance `name`; DALIC_EINVAL if it is not a reader. */
int dalic_pipeline_reader_meta(dalic_pipeline_t *p, const char *name, dalic_reader_meta_t *out);

/* ---- memory accounting ------------------------------------------------------------------- */
typedef struct dalic_mem_totals {
	int64_t allocations;   /* allocations made since start */
	int64_t frees;
	int64_t bytes_live;    /* bytes currently allocated */
	int64_t bytes_peak;
} dalic_mem_totals_t;
/* Process-wide totals for memory kind 0=host, 1=pinned, 2=device. */
void dalic_mem_totals(int kind, dalic_mem_totals_t *out);
/* The memory budget, process-wide, in bytes: every data allocation (batch buffers, kernel
 * scratch, decoder working memory, cached files; device memory only when emulated) counts
 * against it, and a request that would pass it fails with DALIC_ENOMEM before any memory is
 * touched, naming the operator, sample, file and size. Default: 75% of physical memory (or
 * of the cgroup limit when lower); the DALIC_MAX_MEMORY environment variable ("8G", "512M",
 * K/M/G/T are powers of 1024) replaces it. */
uint64_t dalic_mem_budget(void);
/* Replaces the budget (0 restores the default) for the allocations that follow; memory
 * already held stays, even when it is over the new budget. */
void dalic_mem_set_budget(uint64_t bytes);

#ifdef __cplusplus
}
#endif
#endif
