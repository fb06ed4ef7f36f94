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
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the functions libdalic.so exports (the library is built with -fvisibility=hidden:
 * everything without it stays internal). */
#if defined(__GNUC__)
#define DALIC_API __attribute__((visibility("default")))
#else
#define DALIC_API
#endif

/* ---- version ------------------------------------------------------------------------------ */
#define DALIC_VERSION_MAJOR 0
#define DALIC_VERSION_MINOR 1
#define DALIC_VERSION_PATCH 0
/* One number that orders versions: (major << 16) | (minor << 8) | patch. */
#define DALIC_MAKE_VERSION(major, minor, patch) (((major) << 16) | ((minor) << 8) | (patch))
#define DALIC_VERSION_NUMBER                                                                       \
	DALIC_MAKE_VERSION(DALIC_VERSION_MAJOR, DALIC_VERSION_MINOR, DALIC_VERSION_PATCH)
#define DALIC_STRINGIFY_(x) #x
#define DALIC_STRINGIFY(x) DALIC_STRINGIFY_(x)
/* "0.1.0" */
#define DALIC_VERSION                                                                              \
	DALIC_STRINGIFY(DALIC_VERSION_MAJOR)                                                       \
	"." DALIC_STRINGIFY(DALIC_VERSION_MINOR) "." DALIC_STRINGIFY(DALIC_VERSION_PATCH)

/* DALIC_VERSION_NUMBER of the library linked at run time, to compare with the one of the
 * headers a program was compiled against. */
DALIC_API unsigned dalic_version(void);
/* The same as text ("0.1.0"). Static string. */
DALIC_API const char *dalic_version_string(void);

/* ---- status codes ----------------------------------------------------------------------- */
/* X(name, value, description): the one table the enum, dalic_strerror and dalic_err_name are
 * made from. Values never change; a new code takes the next negative value. */
#define DALIC_STATUS_MAP(X)                                                                        \
	X(OK, 0, "success")                                                                        \
	X(EINVAL, -1, "invalid argument")                         /* parameter or argument value */ \
	X(ENOMEM, -2, "out of memory")                            /* allocation failed */           \
	X(EUNKNOWN_OP, -3, "unknown operator")                    /* not in the registry */         \
	X(EUNKNOWN_ARG, -4, "unknown argument")                   /* not in the schema */           \
	X(EARG_TYPE, -5, "argument of the wrong type")                                              \
	X(EMISSING_ARG, -6, "missing required argument")                                            \
	X(EGRAPH, -7, "invalid pipeline graph")           /* names, devices, stage order, outputs */ \
	X(ESTATE, -8, "invalid call in the current pipeline state")                                 \
	X(EOP, -9, "operator failed")                             /* while running */               \
	X(EEND, -10, "end of data")                               /* no more iterations */          \
	X(EIO, -11, "input/output error")                         /* a file read or write failed */ \
	X(EPARSE, -12, "parse error")                     /* malformed script, protobuf or data */  \
	X(EUNSUPPORTED, -13, "not supported")                     /* valid in DALI, not in dalic */ \
	X(EDEVICE, -14, "device error")                           /* GPU not available or failed */ \
	X(EBROKEN, -15, "pipeline is no longer valid")            /* it failed earlier */           \
	X(EOUTPUT, -16, "output does not match its declaration")  /* dtype / ndim / layout */

#define DALIC_STATUS_ENUM_(name, value, text) DALIC_##name = (value),
typedef enum dalic_status { DALIC_STATUS_MAP(DALIC_STATUS_ENUM_) } dalic_status_t;
#undef DALIC_STATUS_ENUM_

/* Description of a status code ("invalid argument", ...). Static string, never NULL. */
DALIC_API const char *dalic_strerror(int status);
/* The code's name as spelled in C ("DALIC_EINVAL"), or "DALIC_E?" for a value that is not a
 * status. Static string, never NULL. */
DALIC_API const char *dalic_err_name(int status);
/* Full message of the last failure on this thread. Borrowed: valid until the next failing
 * dalic call on this thread. Empty string if none. */
DALIC_API const char *dalic_last_error(void);

/* The monotonic clock every timing in dalic reads (executor, stats, debug mode), in
 * nanoseconds; timestamps in stats snapshots come from it. */
DALIC_API int64_t dalic_clock_ns(void);

/* ---- data types (DALI's DALIDataType numbering, frozen for serialization) --------------- */
typedef enum dalic_dtype {
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
typedef enum dalic_image_type {
	DALIC_RGB = 0,
	DALIC_BGR = 1,
	DALIC_GRAY = 2,
	DALIC_YCbCr = 3,
	DALIC_ANY_DATA = 4,
} dalic_image_type_t;
typedef enum dalic_interp_type {
	DALIC_INTERP_NN = 0,
	DALIC_INTERP_LINEAR = 1,
	DALIC_INTERP_CUBIC = 2,
	DALIC_INTERP_LANCZOS3 = 3,
	DALIC_INTERP_TRIANGULAR = 4,
	DALIC_INTERP_GAUSSIAN = 5,
} dalic_interp_type_t;

/* Element size in bytes (0 for NO_TYPE / STRING). */
DALIC_API size_t dalic_dtype_size(dalic_dtype_t t);
/* DALI's name of a dtype: "UINT8", "FLOAT", ... Static string; "UNKNOWN" if invalid. */
DALIC_API const char *dalic_dtype_name(dalic_dtype_t t);

/* Memory kinds (dalic_mem_totals, stats). */
typedef enum dalic_mem_kind {
	DALIC_MEM_NONE = -1, /* no buffer yet */
	DALIC_MEM_HOST = 0,
	DALIC_MEM_PINNED = 1,
	DALIC_MEM_DEVICE = 2,
	DALIC_MEM_KINDS = 3, /* how many there are */
} dalic_mem_kind_t;

/* Executor stages, in execution order (DOT colours, stats keys "CPU_", "MIXED_", "GPU_"). */
typedef enum dalic_stage {
	DALIC_STAGE_NONE = -1, /* no stage */
	DALIC_STAGE_CPU = 0,
	DALIC_STAGE_MIXED = 1,
	DALIC_STAGE_GPU = 2,
	DALIC_NUM_STAGES = 3,
} dalic_stage_t;

/* ---- pipeline parameters ---------------------------------------------------------------- */
#define DALIC_CPU_ONLY_DEVICE_ID (-99999)
#define DALIC_MAX_NDIM 8

/* Room to grow: struct_size records the size the caller compiled against, so a library with
 * more fields fills the missing ones with their defaults and a caller with more fields than
 * the library knows is refused unless they are zero. Always start from
 * dalic_pipeline_params_init (it sets struct_size); new fields are only ever appended. */
typedef struct dalic_pipeline_params {
	size_t struct_size;     /* sizeof(dalic_pipeline_params_t) as compiled by the caller */
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
	dalic_dtype_t output_dtype; /* declared dtype of every output; DALIC_NO_TYPE = any */
	int output_ndim;        /* declared ndim of every output; -1 = any */
	/* Loading only (dalic_pipeline_load with DALIC_PARAM_SCRIPT_ARGS): arguments of the
	 * pipeline function or Pipeline subclass a script defines, "NAME=VALUE" with VALUE in
	 * Python literal syntax (`dalic --arg`). Borrowed for the load; no pipeline keeps them. */
	const char *const *script_args;
	int num_script_args;
	/* DALI's enable_checkpointing: operator states are traced so that
	 * dalic_pipeline_checkpoint works, and readers with shuffle_after_epoch shuffle each
	 * epoch from the original order (as DALI does in that mode). Default false. */
	bool enable_checkpointing;
} dalic_pipeline_params_t;

/* Fills the first `size` bytes of *p with DALI's defaults (batch_size 0 must still be set)
 * and sets p->struct_size = size. Call it through dalic_pipeline_params_init. */
DALIC_API void dalic_pipeline_params_init_sized(dalic_pipeline_params_t *p, size_t size);
#define dalic_pipeline_params_init(p) dalic_pipeline_params_init_sized((p), sizeof *(p))

/* Name of the executor the parameters select, as DALI's stats and docs spell it: "simple",
 * "pipelined", "async pipelined" or "async separated pipelined". Static string. */
DALIC_API const char *dalic_executor_mode_name(const dalic_pipeline_params_t *p);

/* ---- pipeline ---------------------------------------------------------------------------- */
typedef struct dalic_pipeline dalic_pipeline_t;
typedef struct dalic_op dalic_op_t;
typedef struct dalic_batch dalic_batch_t;

/* Creates an empty pipeline. Copies *params. New: free with dalic_pipeline_destroy. */
DALIC_API int dalic_pipeline_create(const dalic_pipeline_params_t *params, dalic_pipeline_t **out);
/* Stops all work, frees everything the pipeline owns. NULL is ignored. */
DALIC_API void dalic_pipeline_destroy(dalic_pipeline_t *p);
/* Borrowed: the pipeline's parameters as they are now (after any build-time resolution). */
DALIC_API const dalic_pipeline_params_t *dalic_pipeline_params(const dalic_pipeline_t *p);

/* Adds an operator. `op` is a schema name ("random__CoinFlip"), an fn name
 * ("random.coin_flip" or "fn.random.coin_flip") or a legacy alias ("CoinFlip").
 * `device` is "cpu", "gpu", "mixed" or NULL (automatic: gpu if any input is gpu).
 * *out is borrowed: valid until the pipeline is destroyed. The instance name is
 * "__<Name>_<n>" until dalic_op_set_name. */
DALIC_API int dalic_pipeline_add_op(dalic_pipeline_t *p, const char *op, const char *device,
			  dalic_op_t **out);
/* Sets the instance name (DALI's `name=`). Copies. */
DALIC_API int dalic_op_set_name(dalic_op_t *op, const char *name);
/* Appends a positional input: data node `node`, requested on `device` ("cpu"/"gpu", or NULL
 * for the device it is produced on — like DataNode.gpu()/.cpu()). Copies. */
DALIC_API int dalic_op_add_input(dalic_op_t *op, const char *node, const char *device);
/* Gives argument `arg` per sample from CPU data node `node` (an argument input). Copies. */
DALIC_API int dalic_op_set_arg_input(dalic_op_t *op, const char *arg, const char *node);
/* Scalar and list arguments, checked against the schema at once. Copies. */
DALIC_API int dalic_op_set_int(dalic_op_t *op, const char *arg, int64_t v);
DALIC_API int dalic_op_set_float(dalic_op_t *op, const char *arg, double v);
DALIC_API int dalic_op_set_bool(dalic_op_t *op, const char *arg, bool v);
DALIC_API int dalic_op_set_string(dalic_op_t *op, const char *arg, const char *v);
DALIC_API int dalic_op_set_ints(dalic_op_t *op, const char *arg, int n, const int64_t *v);
DALIC_API int dalic_op_set_floats(dalic_op_t *op, const char *arg, int n, const double *v);
DALIC_API int dalic_op_set_strings(dalic_op_t *op, const char *arg, int n, const char *const *v);
/* Instance name and output node names. Borrowed: valid until the name changes. */
DALIC_API const char *dalic_op_name(const dalic_op_t *op);
DALIC_API int dalic_op_num_outputs(const dalic_op_t *op);
DALIC_API const char *dalic_op_output(const dalic_op_t *op, int i);

/* Declares a pipeline output: data node `node` on `device` ("cpu"/"gpu"/NULL = as produced).
 * Outputs are numbered in the order they are added. Copies. */
DALIC_API int dalic_pipeline_add_output(dalic_pipeline_t *p, const char *node, const char *device);
/* Declared dtype / ndim / layout of output i (DALIC_NO_TYPE / -1 / NULL = any). Copies. */
DALIC_API int dalic_pipeline_set_output_desc(dalic_pipeline_t *p, int i, dalic_dtype_t dtype,
					     int ndim, const char *layout);

/* Validates and builds the graph (devices, stages, pruning, seeds). Optional: the first
 * run call builds. Errors name the operator and argument. */
DALIC_API int dalic_pipeline_build(dalic_pipeline_t *p);

/* Checks the graph as dalic_pipeline_build does (names, devices, stage order, arguments,
 * outputs) without creating operators or running anything. */
DALIC_API int dalic_pipeline_validate(dalic_pipeline_t *p);

/* ---- loading and saving definitions -------------------------------------------------------- */
/* Which members of dalic_pipeline_override_t.params apply (bit set). */
typedef enum dalic_param_field {
	DALIC_PARAM_BATCH_SIZE = 1u << 0,
	DALIC_PARAM_NUM_THREADS = 1u << 1,
	DALIC_PARAM_DEVICE_ID = 1u << 2,
	DALIC_PARAM_SEED = 1u << 3,
	DALIC_PARAM_PREFETCH = 1u << 4, /* prefetch_cpu, prefetch_gpu and separated_queues */
	DALIC_PARAM_EXEC_PIPELINED = 1u << 5,
	DALIC_PARAM_EXEC_ASYNC = 1u << 6,
	DALIC_PARAM_BYTES_PER_SAMPLE = 1u << 7,
	DALIC_PARAM_SET_AFFINITY = 1u << 8,
	DALIC_PARAM_MEMORY_STATS = 1u << 9,
	DALIC_PARAM_SCRIPT_ARGS = 1u << 10, /* script_args and num_script_args */
	DALIC_PARAM_CHECKPOINTING = 1u << 11, /* enable_checkpointing */
} dalic_param_field_t;

/* Parameters that replace those of a loaded definition: parameters come from the definition,
 * then the call that creates the pipeline in a script, then these (later wins). `params`
 * stays the last member so that it can grow (see dalic_pipeline_params_t). */
typedef struct dalic_pipeline_override {
	unsigned fields;                /* dalic_param_field_t bits */
	dalic_pipeline_params_t params; /* read only where `fields` says */
} dalic_pipeline_override_t;

/* No field set, params at their defaults. */
#define dalic_pipeline_override_init(o)                                                            \
	((o)->fields = 0, dalic_pipeline_params_init(&(o)->params))

/* Loads a pipeline definition: a pipeline script (`.py`: DALI's Python API, read without
 * Python; `pipeline_name` picks one of the pipelines it creates or defines — NULL: the first
 * it creates, or the only one it defines, calling that function or class with the
 * override's script_args), a serialized pipeline (`.pb`, or any file whose bytes are a
 * PipelineDef), or a built-in sample ("@coin", "@arith"; dalic_sample_name lists them).
 * `override` may be NULL. The pipeline is not built. New: free with dalic_pipeline_destroy.
 * Errors name the file (and line:column with a caret for scripts). */
DALIC_API int dalic_pipeline_load(const char *path, const char *pipeline_name,
				  const dalic_pipeline_override_t *override,
				  dalic_pipeline_t **out);
/* The same from serialized bytes (DALI's Pipeline.deserialize). Borrows buf. */
DALIC_API int dalic_pipeline_deserialize(const void *buf, size_t len,
					 const dalic_pipeline_override_t *override,
					 dalic_pipeline_t **out);
/* The bytes DALI's Pipeline.serialize() writes. Validates the graph first; a seed of -1 is
 * replaced by the concrete one the pipeline will use (DALI stores the seed it runs with).
 * *buf is new: free(). */
DALIC_API int dalic_pipeline_serialize(dalic_pipeline_t *p, void **buf, size_t *len);
/* True when the bytes parse as a serialized pipeline (DALI's daliIsDeserializable). */
DALIC_API bool dalic_is_serialized_pipeline(const void *buf, size_t len);
/* Writes a serialized pipeline as readable text to f: parameters, operators with inputs,
 * outputs and typed arguments, pipeline outputs — as the bytes hold them, before any
 * validation. DALIC_EPARSE if they do not parse, DALIC_EIO if writing fails. */
DALIC_API int dalic_serialized_describe(const void *buf, size_t len, FILE *f);
/* Where print() in pipeline scripts loaded afterwards on this thread writes (NULL: stdout),
 * so a program whose stdout carries data can send script output elsewhere. Borrowed: must
 * stay open while scripts load. */
DALIC_API void dalic_set_script_output(FILE *f);

/* `dalic check`: loads every pipeline the module at `path` (a script, or a .pb / @sample as
 * one pipeline) defines, with `override` applied (NULL: none), builds each as DALI would and
 * writes to f one line per problem, "file:line:col: error|warning: pipeline 'NAME': ...":
 * what DALI would refuse (load errors, graph errors, gpu operators or .gpu() in a CPU-only
 * pipeline) as errors, what would bite later (operators that cannot be serialized, a
 * prefetch depth deeper than an external source's batches, random operators without a
 * seed) as warnings. *pipelines gets
 * how many pipelines the module defines, *clean how many have no error. DALIC_OK whenever
 * the report could be written, findings or not. */
DALIC_API int dalic_check_module(const char *path, const dalic_pipeline_override_t *override,
				 FILE *f, int *pipelines, int *clean);

/* A new, unbuilt pipeline with the same definition as p (operators, arguments, outputs, fed
 * data excluded) and `params` (NULL: p's). New: free with dalic_pipeline_destroy. */
DALIC_API int dalic_pipeline_clone(const dalic_pipeline_t *p,
				   const dalic_pipeline_params_t *params, dalic_pipeline_t **out);
/* True when the definition asks to run in debug mode (`@pipeline_def(debug=True)`). */
DALIC_API bool dalic_pipeline_debug_requested(const dalic_pipeline_t *p);
/* The name of built-in sample i ("coin", loaded as "@coin"), NULL past the last. */
DALIC_API const char *dalic_sample_name(int i);
/* Its one-line description, NULL past the last. */
DALIC_API const char *dalic_sample_summary(int i);

/* Operators of the definition, in the order they were added. Borrowed, like
 * dalic_pipeline_add_op's; they can be changed until the pipeline is built. */
DALIC_API int dalic_pipeline_num_ops(const dalic_pipeline_t *p);
DALIC_API dalic_op_t *dalic_pipeline_op(dalic_pipeline_t *p, int i);
/* The operator with that instance name, or NULL. */
DALIC_API dalic_op_t *dalic_pipeline_find_op(dalic_pipeline_t *p, const char *name);
/* DALI schema name of the operator ("random__CoinFlip"). Static string. */
DALIC_API const char *dalic_op_schema(const dalic_op_t *op);

/* ---- the built graph ------------------------------------------------------------------------ */
/* What dalic_pipeline_build made of the definition: the operators that survived pruning plus
 * those the build inserts (transfers, one MakeContiguous per distinct output), in execution
 * order. Strings are borrowed until the pipeline is destroyed. */
typedef struct dalic_graph_op {
	const char *name;   /* instance name */
	const char *schema; /* DALI schema name */
	dalic_stage_t stage;
	bool internal;      /* inserted by the build */
	int num_inputs;     /* positional inputs, then argument inputs */
	int num_arg_inputs; /* of those, the argument inputs (the last ones) */
	int num_outputs;
} dalic_graph_op_t;

typedef struct dalic_graph_input {
	const char *node;  /* data node name */
	const char *arg;   /* argument name of an argument input, NULL for a positional one */
	bool gpu;          /* the data node's device */
	int producer;      /* index of the operator producing it, -1 if none */
} dalic_graph_input_t;

/* Number of operators of the built graph; 0 before build. */
DALIC_API int dalic_pipeline_graph_size(const dalic_pipeline_t *p);
DALIC_API int dalic_pipeline_graph_op(const dalic_pipeline_t *p, int i, dalic_graph_op_t *out);
/* Input k of operator i. */
DALIC_API int dalic_pipeline_graph_input(const dalic_pipeline_t *p, int i, int k,
					 dalic_graph_input_t *out);
/* Name of output k of operator i, NULL if out of range. */
DALIC_API const char *dalic_pipeline_graph_output(const dalic_pipeline_t *p, int i, int k);

/* Draws the graph as DALI's save_graph_to_dot_file does (builds the pipeline first): ".dot" /
 * ".gv" paths get DOT text, ".svg" / ".png" are laid out and rendered by Graphviz. */
typedef enum dalic_dot_flags {
	DALIC_DOT_SHOW_TENSORS = 1u << 0, /* a box per data node, labelled edges */
	DALIC_DOT_USE_COLORS = 1u << 1,   /* operators coloured by stage */
} dalic_dot_flags_t;
DALIC_API int dalic_pipeline_save_graph(dalic_pipeline_t *p, const char *path, unsigned flags);
/* The DOT text to f. */
DALIC_API int dalic_pipeline_write_dot(dalic_pipeline_t *p, FILE *f, unsigned flags);

/* ---- the operator registry ------------------------------------------------------------------ */
typedef struct dalic_op_schema {
	const char *name;   /* DALI schema name: "readers__File" */
	const char *fn;     /* fn API name ("readers.file"), or NULL */
	const char *doc;    /* one line, or NULL */
	const char *aliases[4]; /* legacy names, NULL-padded */
	bool cpu, gpu, mixed;   /* devices it runs on */
	int min_inputs, max_inputs;
	int num_outputs;
	bool outputs_vary;  /* the number of outputs depends on arguments */
	bool internal;      /* inserted by dalic, hidden from lists */
	int num_args;       /* its own arguments (seed included for random operators) */
	int num_common_args; /* those every operator accepts, after its own */
} dalic_op_schema_t;

typedef struct dalic_arg_info {
	const char *name;
	const char *type;          /* "int", "float or list of float", "DALIDataType", ... */
	const char *default_value; /* Python literal text; NULL when required */
	const char *help;
	bool per_sample;           /* may be given per sample as a CPU data node */
} dalic_arg_info_t;

/* Schemas are numbered 0 .. dalic_op_schema_count()-1 in name order. */
DALIC_API int dalic_op_schema_count(void);
/* Index of the schema with that schema name, fn name ("readers.file", "fn.readers.file") or
 * alias, or -1. */
DALIC_API int dalic_op_schema_find(const char *name);
DALIC_API int dalic_op_schema_get(int i, dalic_op_schema_t *out);
/* Argument k of schema i: its own first (num_args), then the common ones. */
DALIC_API int dalic_op_schema_arg(int i, int k, dalic_arg_info_t *out);
/* Whether schema i's gpu / mixed variant has a real CUDA kernel in this library (false for a
 * device it lacks). Without one, that variant runs the cpu kernel on the emulated device. */
DALIC_API bool dalic_op_schema_has_kernel(int i, dalic_stage_t device);
/* DALI's documentation page of schema i's fn API name; NULL for internal and private
 * operators or an invalid i. Static string. */
DALIC_API const char *dalic_op_schema_doc_url(int i);

/* ---- feeding external_source ------------------------------------------------------------- */
/* Feeds one batch to the external_source named `name`: `batch` samples of `dtype`, each with
 * `ndim` dims from `shapes` (batch*ndim values), data packed back to back. Copies. */
DALIC_API int dalic_pipeline_feed_input(dalic_pipeline_t *p, const char *name, dalic_dtype_t dtype,
			      int ndim, int batch, const int64_t *shapes, const void *data,
			      const char *layout);
/* As dalic_pipeline_feed_input, naming where each sample came from: `sources` holds `batch`
 * strings (a file name, a URL; NULL entries for none), or is NULL. The names travel with the
 * samples as a reader's file names do: errors name them and the workbench shows them. Copied;
 * each distinct name is kept once until the pipeline is destroyed. */
DALIC_API int dalic_pipeline_feed_input_sources(dalic_pipeline_t *p, const char *name,
					      dalic_dtype_t dtype, int ndim, int batch,
					      const int64_t *shapes, const void *data,
					      const char *layout, const char *const *sources);

/* A source callback fills one batch per call with dalic_feed_batch(), or returns DALIC_EEND
 * at the end of data (no more iterations are scheduled; those in flight still come out).
 * Another status fails the iteration; with DALIC_EOP the message dalic_last_error() holds
 * then is kept (dalic's own callbacks set it), prefixed with the source's name. */
typedef struct dalic_feed dalic_feed_t;
typedef int (*dalic_source_fn)(void *user, int64_t iteration, dalic_feed_t *feed);
/* Registers `fn` as the source of external_source `name`. `user` is borrowed. */
DALIC_API int dalic_pipeline_set_source(dalic_pipeline_t *p, const char *name, dalic_source_fn fn,
			      void *user);
/* Used inside a source callback; same layout as dalic_pipeline_feed_input. Copies. */
DALIC_API int dalic_feed_batch(dalic_feed_t *f, dalic_dtype_t dtype, int ndim, int batch,
		     const int64_t *shapes, const void *data, const char *layout);
/* dalic_feed_batch with the samples' source names (see dalic_pipeline_feed_input_sources). */
DALIC_API int dalic_feed_batch_sources(dalic_feed_t *f, dalic_dtype_t dtype, int ndim, int batch,
				     const int64_t *shapes, const void *data, const char *layout,
				     const char *const *sources);

/* ---- running ----------------------------------------------------------------------------- */
/* run = schedule_run + outputs. The first call fills the prefetch queues. */
DALIC_API int dalic_pipeline_run(dalic_pipeline_t *p);
/* Schedules one iteration (the first call prefetches). */
DALIC_API int dalic_pipeline_schedule_run(dalic_pipeline_t *p);
/* Waits for the oldest scheduled iteration and exposes its outputs until release. */
DALIC_API int dalic_pipeline_share_outputs(dalic_pipeline_t *p);
/* Returns the shared outputs' buffers to the queue. */
DALIC_API int dalic_pipeline_release_outputs(dalic_pipeline_t *p);
/* release_outputs (if any were shared) + share_outputs. */
DALIC_API int dalic_pipeline_outputs(dalic_pipeline_t *p);
/* After end of data: allows the pipeline to start the next epoch. */
DALIC_API int dalic_pipeline_reset(dalic_pipeline_t *p);

DALIC_API int dalic_pipeline_num_outputs(const dalic_pipeline_t *p);
/* Borrowed: valid until release_outputs / the next outputs call / destroy. */
DALIC_API const char *dalic_pipeline_output_name(const dalic_pipeline_t *p, int i);
DALIC_API const dalic_batch_t *dalic_pipeline_output(const dalic_pipeline_t *p, int i);

/* ---- reading a batch (borrowed pointers, valid as long as the batch) ---------------------- */
DALIC_API int dalic_batch_num_samples(const dalic_batch_t *b);
DALIC_API dalic_dtype_t dalic_batch_dtype(const dalic_batch_t *b);
DALIC_API int dalic_batch_ndim(const dalic_batch_t *b);
DALIC_API const char *dalic_batch_layout(const dalic_batch_t *b);
/* "cpu" or "gpu" ("gpu" data lives in host memory when devices are emulated). */
DALIC_API const char *dalic_batch_device(const dalic_batch_t *b);
/* Shape of sample i: dalic_batch_ndim() values. */
DALIC_API const int64_t *dalic_batch_shape(const dalic_batch_t *b, int i);
DALIC_API const void *dalic_batch_data(const dalic_batch_t *b, int i);
DALIC_API size_t dalic_batch_sample_bytes(const dalic_batch_t *b, int i);
/* Source of sample i (file path for reader data), or NULL. */
DALIC_API const char *dalic_batch_source(const dalic_batch_t *b, int i);

/* ---- data-quality warnings --------------------------------------------------------------- */
/* A sample an operator produced from damaged data — a codec's warning such as libjpeg's
 * "Corrupt JPEG data: bad Huffman code" for an image it decoded anyway, as DALI does — or, in
 * a scan (dalic_pipeline_make_scan), a sample it refused. The pipeline keeps every one in its
 * warnings log, in the order they came. */
typedef struct dalic_warning {
	const char *op;      /* operator instance name */
	const char *schema;  /* its DALI schema name ("decoders__Image") */
	int64_t iteration;
	int sample;          /* index in the batch */
	const char *source;  /* the sample's source (reader's file), NULL when unknown */
	int64_t record;      /* record within the source for readers of record files; -1 */
	const char *message; /* the codec's (or operator's) message */
	int64_t repeats;     /* times the same message came for this sample, >= 1 */
	bool error;          /* the sample was refused (scans only: a run stops instead) */
} dalic_warning_t;

/* Entries in the warnings log (the full engine's and debug mode's runs of this pipeline). */
DALIC_API int64_t dalic_pipeline_num_warnings(const dalic_pipeline_t *p);
/* Entry i, 0 <= i < dalic_pipeline_num_warnings(p); its strings are borrowed until the log is
 * cleared or the pipeline destroyed. DALIC_EINVAL when out of range. Thread-safe: may be
 * called while the pipeline runs. */
DALIC_API int dalic_pipeline_warning(const dalic_pipeline_t *p, int64_t i, dalic_warning_t *out);
/* Entries the log could not keep (past 4 Mi entries, or out of memory). */
DALIC_API int64_t dalic_pipeline_warnings_dropped(const dalic_pipeline_t *p);
/* Empties the log (invalidates borrowed strings). */
DALIC_API void dalic_pipeline_clear_warnings(dalic_pipeline_t *p);

/* Turns a loaded, unbuilt pipeline into its data scan: what reads and decodes the data, and
 * nothing else. Every image decoder (decoders.image, image_random_crop, image_crop,
 * image_slice) becomes a decoders.image of the whole image with the same input, output_type
 * and adjust_orientation; the pipeline outputs become those decoders' outputs, so everything
 * downstream is pruned; readers read every sample once (no shuffling, one shard); and a
 * sample a decoder refuses is recorded in the warnings log (error = true) instead of stopping
 * the pipeline. The decoders still decode the pixels (same work as training) but keep none
 * of them: their outputs are empty samples. Run it for an epoch (dalic_pipeline_reader_meta),
 * then read the log. DALIC_EINVAL when there is no image decoder to scan. */
DALIC_API int dalic_pipeline_make_scan(dalic_pipeline_t *p);

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
DALIC_API int dalic_pipeline_reader_meta(dalic_pipeline_t *p, const char *name, dalic_reader_meta_t *out);

/* ---- memory accounting ------------------------------------------------------------------- */
typedef struct dalic_mem_totals {
	int64_t allocations;   /* allocations made since start */
	int64_t frees;
	int64_t bytes_live;    /* bytes currently allocated */
	int64_t bytes_peak;
} dalic_mem_totals_t;
/* Process-wide totals for one memory kind (all zero for a value that is not a kind). */
DALIC_API void dalic_mem_totals(dalic_mem_kind_t kind, dalic_mem_totals_t *out);
/* The memory budget, process-wide, in bytes: every data allocation (batch buffers, kernel
 * scratch, decoder working memory, cached files; device memory only when emulated) counts
 * against it, and a request that would pass it fails with DALIC_ENOMEM before any memory is
 * touched, naming the operator, sample, file and size. Default: 75% of physical memory (or
 * of the cgroup limit when lower); the DALIC_MAX_MEMORY environment variable ("8G", "512M",
 * K/M/G/T are powers of 1024) replaces it. */
DALIC_API uint64_t dalic_mem_budget(void);
/* Replaces the budget (0 restores the default) for the allocations that follow; memory
 * already held stays, even when it is over the new budget. */
DALIC_API void dalic_mem_set_budget(uint64_t bytes);
/* Parses a size as DALIC_MAX_MEMORY and --max-memory take it: "123", "512K", "1.5G"
 * (suffixes K, M, G, T, optional "B"/"iB", powers of 1024). Returns 0, or -1 on malformed
 * text or a value over 2**63. */
DALIC_API int dalic_mem_parse_size(const char *s, uint64_t *out);

/* ---- checkpoints (DALI 2.4's Pipeline.checkpoint() bytes; docs/checkpoints.md) ---------- */
/* The state after the last consumed output (whatever was prefetched): a pipeline restored
 * from it produces the next output first. Needs enable_checkpointing and a built pipeline;
 * DALI's errors otherwise. *bytes is new: free(). */
DALIC_API int dalic_pipeline_checkpoint(dalic_pipeline_t *p, uint8_t **bytes, size_t *len);
/* The checkpoint to restore at build (DALI's `checkpoint=` parameter); bytes are copied,
 * `what` (a file name, may be NULL) names them in errors. Before build only; needs
 * enable_checkpointing. Parse errors come now, mismatches with the graph at build. */
DALIC_API int dalic_pipeline_set_checkpoint(dalic_pipeline_t *p, const void *bytes, size_t len,
					    const char *what);
/* Moves a built pipeline that has not run yet `n` iterations on without running them:
 * readers pick their samples without reading files, random operators advance their
 * generators. Where that cannot be done (external sources, conditionals, operators without
 * a way to skip) the iterations run instead; *ran_because (may be NULL) then gets a new
 * string naming those operators (free()), else NULL. The outputs that follow are those of
 * iteration n (plus a restored checkpoint's position). */
DALIC_API int dalic_pipeline_seek(dalic_pipeline_t *p, int64_t n, char **ran_because);
/* Outputs consumed so far (plus the restored checkpoint's `iter`): DALI's pipeline_data
 * "iter". */
DALIC_API int64_t dalic_pipeline_position(const dalic_pipeline_t *p);
/* Writes checkpoint bytes as text (per operator: kind and decoded state; where it resumes;
 * the iterator JSON) or as JSON to f. `what` names the bytes in errors. DALIC_EPARSE naming
 * the entry when they are not a DALI 2.4 checkpoint. */
DALIC_API int dalic_checkpoint_print(const void *buf, size_t len, const char *what, bool json,
				     FILE *f);

#ifdef __cplusplus
}
#endif
#endif
