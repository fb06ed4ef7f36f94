/*
 * Operator schemas (libvips-style): each operator declares itself once — DALI's schema name
 * and fn name, inputs, outputs, typed arguments with defaults and help, which arguments may be
 * given per sample, which devices it runs on — and that one declaration drives argument
 * validation, `dalic ops`, script binding, protobuf names and docs.
 *
 * A kernel file ends with
 *     DALIC_OPERATOR(random__CoinFlip) = { .name = "random__CoinFlip", ... };
 * at the start of a line; the Makefile collects those into the registry table.
 */
#ifndef DALIC_ENGINE_SCHEMA_H
#define DALIC_ENGINE_SCHEMA_H

#include "dalic.h"
#include "engine/value.h"

typedef enum {
	DALIC_ARG_INT,
	DALIC_ARG_FLOAT,
	DALIC_ARG_BOOL,
	DALIC_ARG_STRING,
	DALIC_ARG_DTYPE,       /* DALIDataType, stored as int64 */
	DALIC_ARG_IMAGE_TYPE,  /* DALIImageType, stored as int64 */
	DALIC_ARG_INTERP_TYPE, /* DALIInterpType, stored as int64 */
	DALIC_ARG_LAYOUT,      /* string */
	DALIC_ARG_INT_LIST,    /* a scalar given for a list is broadcast to a 1-list */
	DALIC_ARG_FLOAT_LIST,
	DALIC_ARG_BOOL_LIST,
	DALIC_ARG_STRING_LIST,
	DALIC_ARG_DTYPE_LIST,
	/* readers.tfrecord's features: one string per feature in the text form of
	 * kernels/common/tfrec_feature.h; the protobuf holds DALI's "TFRecord" Arguments */
	DALIC_ARG_TF_FEATURE_LIST,
} dalic_arg_type_t;

typedef struct dalic_arg_schema {
	const char *name;
	dalic_arg_type_t type;
	/* Default as Python literal text: "0.5", "[-1.0, 1.0]", "'default'", "INT32", "True".
	 * NULL = required; "None" = optional without a value. */
	const char *def;
	const char *help;
	bool tensor; /* may be given per sample as a CPU data node (argument input) */
} dalic_arg_schema_t;

enum { DALIC_DEV_CPU = 1, DALIC_DEV_GPU = 2, DALIC_DEV_MIXED = 4 };

typedef struct dalic_opdef dalic_opdef_t;
typedef struct dalic_kernel dalic_kernel_t;
struct dalic_feed_queue;

typedef struct dalic_schema {
	const char *name;        /* DALI schema name: "readers__File", "Resize" */
	const char *fn;          /* fn API name: "readers.file", "resize" */
	const char *aliases[4];  /* legacy names: "FileReader" */
	const char *module;      /* _module value: "nvidia.dali.fn.readers" (NULL = fn) */
	const char *doc;
	int min_inputs, max_inputs;
	int num_outputs;
	/* Optional: outputs depending on arguments (e.g. save_attrs adds one). */
	int (*outputs_for)(const dalic_opdef_t *def);
	unsigned devices;        /* DALIC_DEV_* the operator supports */
	bool random;             /* has a `seed` argument derived from the pipeline seed */
	bool no_prune;           /* never pruned (side effects) */
	bool is_reader;          /* answers reader_meta */
	bool is_input;           /* external input (fed from outside; batch size provider) */
	bool internal;           /* inserted by dalic (MakeContiguous, Copy); hidden in lists */
	bool passthrough;        /* outputs borrow input samples (no copy): the executor keeps
				    the inputs alive as long as the outputs */
	bool not_serializable;   /* DALI's !IsSerializable (python_function): serialize refuses */
	/* Streaming inputs (experimental.inputs.video): splits one fed sample, kept by the queue
	 * as blob `serial`, into the iterations it yields, pushed with dalic_feed_queue_push_plain;
	 * *iterations says how many (engine/feed.h). */
	int (*feed_split)(struct dalic_feed_queue *q, const dalic_opdef_t *def, int max_batch,
	                  uint64_t serial, const uint8_t *data, size_t n, int *iterations);
	const dalic_arg_schema_t *args; /* terminated by {0} */
	const dalic_kernel_t *cpu;  /* implementation; runs every device when emulated */
	const dalic_kernel_t *cuda; /* CUDA implementation when built */
} dalic_schema_t;

#define DALIC_OPERATOR(id) const dalic_schema_t dalic_schema_##id

/* Looks up by schema name, fn name (with or without "fn." / "nvidia.dali.fn."), or alias. */
const dalic_schema_t *dalic_schema_find(const char *name);
/* All schemas in name order, NULL-terminated. Borrowed (static). */
const dalic_schema_t *const *dalic_schema_all(void);
/* Argument lookup, including the common ones every operator accepts (device, preserve,
 * bytes_per_sample_hint, seed for random ops, _module, _display_name, preserve_name). */
const dalic_arg_schema_t *dalic_schema_arg(const dalic_schema_t *s, const char *arg);
/* Common args as a {0}-terminated table, for listing. */
const dalic_arg_schema_t *dalic_schema_common_args(void);
/* "File" for readers__File: the part after the last "__". */
const char *dalic_schema_short_name(const dalic_schema_t *s, char *buf, size_t n);
/* snake_case display name: last component of fn ("file" for readers.file). */
const char *dalic_schema_display_name(const dalic_schema_t *s);
/* Default of an argument parsed into *out (kind NONE for "None" / required). New value. */
int dalic_schema_arg_default(const dalic_arg_schema_t *a, dalic_value_t *out);
/* Converts v to the argument's type (int -> float, scalar -> list, dtype names -> int...).
 * Writes a new value to *out; errors name op and argument. */
int dalic_schema_arg_convert(const dalic_schema_t *s, const dalic_arg_schema_t *a,
                             const dalic_value_t *v, dalic_value_t *out);
/* Python-literal text parsing used for defaults and the command line. */
int dalic_schema_value_parse(dalic_arg_type_t t, const char *text, dalic_value_t *out);
const char *dalic_schema_arg_type_name(dalic_arg_type_t t);

#endif
