/*
 * The operator implementation interface. An operator file reads like a form: schema first,
 * then setup (output dtypes and shapes, so buffers can be sized before any data is written),
 * then run. Operators never modify their inputs.
 *
 * Lifecycle, per operator instance in a built pipeline:
 *   init(ctx)                  once; parse scalar arguments into ctx->state
 *   per iteration:
 *     setup(ctx, ws)           set dtype / ndim / layout / shapes of ws->outputs[]
 *     (the executor allocates output storage, unless setup borrowed samples)
 *     run_sample(ctx, ws, i, t) for each sample i, in parallel on worker thread t, or
 *     run(ctx, ws)             the whole batch on the calling thread
 *   fini(ctx)                  free ctx->state contents (the struct itself is freed for you)
 * Errors: return dalic_op_fail(ctx, ws, sample, ...) — it names the instance, the sample and
 * the sample's source file.
 */
#ifndef DALIC_ENGINE_KERNEL_H
#define DALIC_ENGINE_KERNEL_H

#include "engine/batch.h"
#include "engine/rng.h"
#include "engine/schema.h"

typedef struct dalic_op_ctx dalic_op_ctx_t;
struct dalic_ckpt_reader;
struct dalic_ckpt_trace;

typedef struct dalic_ws {
	int batch_size;
	int64_t iteration;
	int num_inputs;
	const dalic_batch_t *const *inputs;
	int num_outputs;
	dalic_batch_t *const *outputs;
	/* Argument inputs by name (NULL when the argument was given as a scalar). */
	int num_arg_inputs;
	const char *const *arg_input_names;
	const dalic_batch_t *const *arg_inputs;
} dalic_ws_t;

struct dalic_kernel {
	size_t state_size; /* bytes of zeroed state allocated for ctx->state */
	int (*init)(dalic_op_ctx_t *ctx);
	int (*setup)(dalic_op_ctx_t *ctx, const dalic_ws_t *ws);
	int (*run_sample)(dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int sample, int thread);
	int (*run)(dalic_op_ctx_t *ctx, const dalic_ws_t *ws);
	void (*fini)(dalic_op_ctx_t *ctx);
	/* Readers: epoch size and sharding facts. */
	int (*reader_meta)(dalic_op_ctx_t *ctx, dalic_reader_meta_t *out);
	/* Return to the state right after init (restart with the same seed). */
	int (*reset)(dalic_op_ctx_t *ctx);
	/* Readers with checkpoints (engine/checkpoint.h): the loader snapshot after the last
	 * batch produced, restoring one, and moving `batches` full batches on without reading
	 * (a seek). Readers without them refuse enable_checkpointing and seek by running. */
	int (*ckpt_save)(dalic_op_ctx_t *ctx, struct dalic_ckpt_reader *out);
	int (*ckpt_restore)(dalic_op_ctx_t *ctx, const struct dalic_ckpt_reader *st);
	int (*skip)(dalic_op_ctx_t *ctx, int64_t batches);
};

/* Per-instance context, created at build. Fields are read-only to kernels except `state`. */
struct dalic_op_ctx {
	const dalic_schema_t *schema;
	const dalic_opdef_t *def;
	const char *inst;     /* instance name */
	int device;           /* DALIC_DEV_CPU / GPU / MIXED */
	bool emulated;        /* gpu/mixed running on the CPU */
	int max_batch_size;
	int num_threads;
	uint64_t seed;        /* the op's seed (explicit or derived from the pipeline seed) */
	dalic_philox_t rng;   /* random operators' master generator: use dalic_op_rng() */
	void *state;
	/* Resolved arguments, parallel to the schema's args then the common args. */
	int num_args;
	const dalic_arg_schema_t **arg_schemas;
	dalic_value_t *arg_values; /* set value or default; kind NONE when absent */
	bool *arg_given;
	/* Opaque to kernels: the pipeline's context (stats, source names). */
	void *engine;
	/* Opaque to kernels: where dalic_op_warn records (engine/warnings.h), set per run. */
	struct dalic_warn_sink *warn;
	/* The pipeline has enable_checkpointing (readers shuffle per epoch as DALI does then). */
	bool checkpointing;
	/* Opaque to kernels: the per-iteration states kept for checkpoints (NULL: none). */
	struct dalic_ckpt_trace *trace;
};

/* Argument access. The name must be in the schema (a misspelt name is a bug: it aborts with
 * a message). Values are the given ones or the schema default. */
const dalic_value_t *dalic_arg(const dalic_op_ctx_t *ctx, const char *name);
bool dalic_arg_given(const dalic_op_ctx_t *ctx, const char *name);
int64_t dalic_arg_int(const dalic_op_ctx_t *ctx, const char *name);
double dalic_arg_float(const dalic_op_ctx_t *ctx, const char *name);
bool dalic_arg_bool(const dalic_op_ctx_t *ctx, const char *name);
const char *dalic_arg_string(const dalic_op_ctx_t *ctx, const char *name); /* NULL if None */
/* The argument-input batch of a tensor argument, or NULL if given as a scalar / not given. */
const dalic_batch_t *dalic_arg_input(const dalic_ws_t *ws, const char *name);
/* Per-sample value of a tensor argument: element 0 of the argument input's sample, else the
 * scalar argument. Fails (naming op, argument and sample) on an empty or non-numeric sample. */
int dalic_arg_float_at(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name,
		       int sample, double *out);
/* Up to `max` elements of a per-sample tensor argument (or of the list argument); *n gets the
 * count. */
int dalic_arg_floats_at(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, const char *name,
			int sample, double *out, int max, int *n);

/* The generator of `sample` in this run of a random operator (DALI's GetSampleRNG): the
 * master advanced by sample * 65537 sequences. The engine advances the master by the batch
 * size after each run; see "Random operators" in docs/writing-an-operator.md. */
static inline dalic_philox_t dalic_op_rng(const dalic_op_ctx_t *ctx, int sample)
{
	return dalic_rng_for_sample(&ctx->rng, sample);
}

/* Formats an error naming the instance, schema, sample (if >= 0) and the sample's source file
 * (taken from the first input, if any). Returns DALIC_EOP. */
int dalic_op_fail(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int sample, const char *fmt,
		  ...) __attribute__((format(printf, 4, 5)));

/* A data-quality warning for `sample`, which the operator still produces (a codec's warning
 * for damaged data it decoded anyway): recorded in the pipeline's warnings log with the
 * instance, iteration, sample and source, `repeats` times the same message. Thread-safe:
 * per-sample work calls it from pool workers. */
void dalic_op_warn(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int sample, long repeats,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* A sample the operator cannot produce because its data is bad (a file the decoder refuses).
 * In a run this is dalic_op_fail — the pipeline stops, as in DALI. In a scan
 * (dalic_pipeline_make_scan) it is recorded in the warnings log as an error and DALIC_OK is
 * returned: the operator makes that sample empty and goes on. */
int dalic_op_sample_error(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int sample,
			  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* True in a scan (see dalic_op_sample_error). */
bool dalic_op_scanning(const dalic_op_ctx_t *ctx);

#endif
