/*
 * The graph definition: the one intermediate form every front end produces (C API, pipeline
 * scripts, DALI protobuf) and every consumer reads (graph build, protobuf writer, DOT writer).
 * It holds exactly what DALI's PipelineDef holds: pipeline parameters, operators in the order
 * they were added (schema name, instance name, device, inputs with device and argument-input
 * flag, typed arguments, logical id), and the declared pipeline outputs.
 *
 * Names: an operator added without a name is "__<Name>_<id>" where id counts operators in
 * call order from 0 (those the script front end creates with a name take none, as in DALI's
 * Python front end); a single output is named as the instance, N > 1 outputs "<inst>[i]".
 * Argument values are validated against the schema when set.
 */
#ifndef DALIC_ENGINE_GRAPHDEF_H
#define DALIC_ENGINE_GRAPHDEF_H

#include "dalic.h"
#include "engine/schema.h"
#include "engine/value.h"

#include <stdatomic.h>

typedef struct dalic_io {
	char *name;      /* data node name, without device suffix */
	char *device;    /* "cpu" / "gpu" requested (inputs) or produced (outputs); NULL = as
			    produced, resolved at build */
	bool is_arg;     /* argument input */
	char *arg_name;  /* when is_arg */
	int dtype;       /* declared (pipeline outputs only), DALIC_NO_TYPE = any */
	int ndim;        /* declared, -1 = any */
	char *layout;    /* declared, NULL = any */
} dalic_io_t;

typedef struct dalic_arg {
	char *name;
	dalic_value_t value; /* already converted to the schema's type */
} dalic_arg_t;

/* Where an operator was created in a script, for error messages (file may be NULL). */
typedef struct dalic_srcpos {
	const char *file; /* the definition's `source` (clones repoint it), or a string that
			     outlives the definition */
	int line, col;
} dalic_srcpos_t;

struct dalic_opdef {
	const dalic_schema_t *schema;
	/* the schema name serialized when it is not schema->name: DALI's deprecated schema the
	 * definition named ("ImageDecoder" for decoders__Image); static, NULL otherwise */
	const char *serial_name;
	char *inst;           /* instance name */
	char *device;         /* "cpu" / "gpu" / "mixed"; NULL = automatic until resolved */
	int id;               /* position among the operators added (unique) */
	int logical_id;       /* -1 = same as id at build */
	bool name_given;      /* user gave name= (preserve_name) */
	dalic_io_t *inputs;   /* regular inputs first, then argument inputs sorted by name */
	int num_inputs, num_regular_inputs;
	dalic_arg_t *args;
	int num_args;
	char **outputs;       /* output names, kept in step with inst and num_outputs */
	int num_outputs;
	dalic_srcpos_t pos;
	struct dalic_graphdef *graph;
	int source_batches; /* external sources: batches their Python source gives, -1 unknown
	                       (`dalic check` compares it with the prefetch depth) */
};

/* ---- what a front end attaches to a definition (graphdef_attach.c) ---- */

/* A reference-counted object: clones of a definition share what is attached to it. */
typedef struct dalic_shared dalic_shared_t;
struct dalic_shared {
	_Atomic int refs;
	void (*destroy)(dalic_shared_t *s);
};
/* refs = 1 */
void dalic_shared_init(dalic_shared_t *s, void (*destroy)(dalic_shared_t *s));
dalic_shared_t *dalic_shared_retain(dalic_shared_t *s);
void dalic_shared_release(dalic_shared_t *s); /* NULL is ignored */

/* What debug mode gives a front end that renders a print itself (dalic_debug_print_t.eval):
 * this iteration's batch of a data node, and debug mode's own text of a batch (a node's
 * DataNodeDebug repr when `node` is given, else the TensorList repr; malloc'd). */
typedef struct dalic_print_env {
	void *ctx;
	const struct dalic_batch *(*batch)(void *ctx, const char *node);
	char *(*format)(void *ctx, const struct dalic_batch *b, const char *node);
	/* a sample's text as DALI prints a TensorCPU */
	char *(*format_sample)(void *ctx, const struct dalic_batch *b, int i);
} dalic_print_env_t;

/* The live state a front end keeps with a definition (a script's interpreter). */
typedef struct dalic_runtime_class {
	/* The text of print record `index` for this iteration (malloc'd, with its newline). */
	int (*render_print)(dalic_shared_t *rt, int index, const dalic_print_env_t *env,
			    char **text);
	/* The external sources the runtime feeds itself (a script's Python `source=`): calls
	 * install(ctx, name, fn, user) for each, when a pipeline or a debug session is built from
	 * the definition. NULL: none. */
	int (*sources)(dalic_shared_t *rt, int batch_size,
		       int (*install)(void *ctx, const char *name, dalic_source_fn fn, void *user),
		       void *ctx);
} dalic_runtime_class_t;

/* A print() in a debug-mode pipeline function (`@pipeline_def(debug=True)`): debug mode
 * replays it every iteration with the node's value, as DALI's debug mode does. */
typedef struct dalic_debug_print {
	char *text;       /* literal text printed before the values (may be empty) */
	char **nodes;     /* data nodes printed, in order */
	int num_nodes;
	bool get;         /* print(node.get()) / np.array(...): values rather than the repr */
	dalic_srcpos_t pos;
	int eval;         /* >= 0: the definition's runtime renders it (its record number) */
} dalic_debug_print_t;

typedef struct dalic_graphdef {
	dalic_pipeline_params_t params;
	dalic_opdef_t **ops;
	int num_ops, cap_ops;
	dalic_io_t *outputs;
	int num_outputs, cap_outputs;
	int next_id;         /* the id in the next default name "__<Name>_<id>" */
	bool debug;          /* defined with debug=True: run in debug mode */
	char *source;        /* file the definition came from (script or .pb), or NULL */
	char *name;          /* pipeline name in its file, or NULL */
	dalic_debug_print_t *prints; /* debug-mode prints, in program order */
	int num_prints;
	char *strings_owner; /* unused slot for front ends */
	dalic_shared_t *runtime; /* a front end's live state, or NULL (one reference) */
	const dalic_runtime_class_t *runtime_cls;
	struct dalic_keep *keep; /* what the definition keeps alive (engine/callback.h), or NULL:
	                          * the script of its python_function operators */
} dalic_graphdef_t;

/* New empty definition with a copy of params. Free with dalic_graphdef_free. */
dalic_graphdef_t *dalic_graphdef_new(const dalic_pipeline_params_t *params);
void dalic_graphdef_free(dalic_graphdef_t *g);
/* Deep copy. New. */
dalic_graphdef_t *dalic_graphdef_clone(const dalic_graphdef_t *g);

/* Adds an operator by any of its names. *out borrowed (owned by g). */
int dalic_graphdef_add_op(dalic_graphdef_t *g, const char *op, const char *device,
			  dalic_opdef_t **out);
dalic_opdef_t *dalic_graphdef_find_op(const dalic_graphdef_t *g, const char *inst);
/* The operator producing data node `node` and its output index, or NULL. */
dalic_opdef_t *dalic_graphdef_producer(const dalic_graphdef_t *g, const char *node, int *out_idx);

/* The user's name (preserve_name). The operator keeps the id it took from the name counter. */
int dalic_graphdef_op_set_name(dalic_opdef_t *op, const char *name);
/* Names the newest operator as DALI's Python front end does when it creates one: the name
 * replaces the default, so the operator gives its id back (a named operator takes none).
 * `given`: the user's name= (preserve_name), or one the front end chose such as
 * "__Constant_detached_<n>". */
int dalic_graphdef_op_name_new(dalic_opdef_t *op, const char *name, bool given);
int dalic_graphdef_op_set_device(dalic_opdef_t *op, const char *device);
int dalic_graphdef_op_add_input(dalic_opdef_t *op, const char *node, const char *device);
int dalic_graphdef_op_add_arg_input(dalic_opdef_t *op, const char *arg, const char *node);
/* Validates against the schema and converts to its type; replaces an earlier value. */
int dalic_graphdef_op_set_arg(dalic_opdef_t *op, const char *arg, const dalic_value_t *v);
/* The given value (not the default), or NULL. */
const dalic_value_t *dalic_graphdef_op_arg(const dalic_opdef_t *op, const char *arg);
/* Recomputes outputs after an argument that changes the output count was set. */
int dalic_graphdef_op_refresh_outputs(dalic_opdef_t *op);

/* Records a debug-mode print (copies). */
int dalic_graphdef_add_print(dalic_graphdef_t *g, const char *text, int num_nodes,
			     const char *const *nodes, bool get, dalic_srcpos_t pos);

int dalic_graphdef_add_output(dalic_graphdef_t *g, const char *node, const char *device);
/* Sets the runtime (a new reference is taken; the old one is released). */
void dalic_graphdef_set_runtime(dalic_graphdef_t *g, dalic_shared_t *rt,
				const dalic_runtime_class_t *cls);
/* Releases the runtime (graphdef free); shares it with c (graphdef clone). */
void dalic_graphdef_attach_free(dalic_graphdef_t *g);
int dalic_graphdef_attach_copy(dalic_graphdef_t *c, const dalic_graphdef_t *g);
/* Removes every declared output (dalic_pipeline_make_scan declares its own). */
void dalic_graphdef_clear_outputs(dalic_graphdef_t *g);
int dalic_graphdef_set_output_desc(dalic_graphdef_t *g, int i, int dtype, int ndim,
				   const char *layout);

/* "cpu"/"gpu"/"mixed" -> DALIC_DEV_*, 0 if invalid. */
int dalic_graphdef_device_from_name(const char *name);
const char *dalic_graphdef_device_name(int dev);

#endif
