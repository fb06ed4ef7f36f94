/*
 * The script evaluator's shared state and the entry points its parts offer each other.
 * Layout of the front end (frontend/script*):
 *   script.c               entry points: load a file, pick a pipeline
 *   script_lexer.c, script_parse_*.c, script_scope.c, script_names.c, script_liveness.c
 *                          tokens, syntax tree, scope facts, liveness for conditionals
 *   script_value.c, script_repr.c       runtime values, dicts, str() / repr()
 *   script_eval.c          expressions, names and scopes, calls, assignment targets
 *   script_pyops.c         operators on Python values
 *   script_access.c        attributes, items, calls, iteration
 *   script_exec.c          statements, functions, classes
 *   script_builtins.c, script_types.c, script_methods.c, script_format.c
 *                          built-ins, built-in types and their methods, formatting
 *   script_modules.c       imports; nvidia.dali, fn, ops, types, math, os namespaces
 *   script_ops.c, script_constant.c     operator calls bound to the registry, constants
 *   script_arith.c         arithmetic / math functions / indexing on DataNodes
 *   script_cond.c          `if` / and / or / not on DataNodes (split / merge lowering)
 *   script_pipeline.c, script_pipedef.c, script_params.c
 *                          Pipeline objects, @pipeline_def, parameters, outputs
 * Status convention: functions return DALIC_OK, a negative DALIC_E* code after a located
 * error was recorded, or (statements only) a positive control-flow signal.
 */
#ifndef DALIC_FRONTEND_SCRIPT_INTERP_H
#define DALIC_FRONTEND_SCRIPT_INTERP_H

#include "engine/graphdef.h"
#include "frontend/script/py/pyval.h"

/* statement control flow */
enum { SX_RETURN = 1, SX_BREAK = 2, SX_CONTINUE = 3 };

#define SCRIPT_MAX_CALL_DEPTH 150
#define SCRIPT_MAX_LOOP_ITERATIONS 100000
#define SCRIPT_MAX_STEPS 5000000L
#define SCRIPT_ARENA_BUDGET ((size_t)1 << 30)
/* C stack the evaluator may use below its entry point (deep calls of deeply nested
 * expressions); well inside the 8 MiB main-thread and default pthread stacks */
#define SCRIPT_STACK_BUDGET ((size_t)3 << 20)

typedef enum { FR_MODULE, FR_FUNCTION, FR_CLASS, FR_SCOPE } sframe_kind_t;

struct sframe {
	sframe_kind_t kind;
	svdict_t *locals;
	/* which names are local (functions: from the def's facts; lambdas and comprehensions:
	 * their parameters / targets) and which are declared global */
	const char *const *lnames;
	int nlnames;
	const char *const *gnames;
	int ngnames;
	sframe_t *parent; /* lexically enclosing frame */
	svfunc_t *func;   /* function being run (super()) */
	sv_t *self;       /* its first argument (super()) */
	svclass_t *cls;   /* class being defined (FR_CLASS) */
	/* AutoGraph's return variables, merged when a return sits in an `if` on a DataNode */
	sv_t *retval;
	sv_t *do_return;
	int cond_branches; /* > 0 while running a branch of an `if` on a DataNode */
};

typedef struct scond scond_t;

struct spipe {
	dalic_graphdef_t *def;
	const char *var_name; /* first variable bound to it */
	bool var_global;
	const char *def_name; /* pipeline function / class name, "Pipeline" for plain objects */
	int index;            /* creation order */
	bool conditionals;
	bool exec_dynamic; /* DALI's dynamic executor (GPU -> CPU transitions) */
	const char *dynamic_off_reason;
	bool outputs_set; /* set_outputs called / pipeline function returned */
	bool traced;      /* define_graph traced (subclasses) */
	bool tracing;
	sv_t *object;                     /* the Pipeline object */
	sv_t *output_dtype, *output_ndim; /* list forms, applied per output */
	scond_t *cond;
	int line, col; /* where it was created */
};

struct sinterp {
	script_arena_t *a;
	const script_src_t *src;
	script_module_t *mod;
	sframe_t *globals;
	svdict_t *builtins;
	svdict_t *modules; /* imported module values by dotted name */
	svclass_t *pipeline_cls;
	spipe_t **pipes;
	int npipes, cappipes;
	spipe_t *current[32]; /* Pipeline.current() stack */
	int ncurrent;
	int tracing;          /* > 0 while a pipeline definition runs */
	int creating;         /* > 0 while a pipeline object is being created */
	int depth;            /* call depth */
	int loops;            /* loop bodies being run (no statement skipping inside) */
	uintptr_t stack_base; /* C stack address when the load started */
	long steps;
	bool star_opaque;    /* `from <unknown module> import *` happened */
	bool fatal;          /* an error happened while a pipeline was created or traced */
	sframe_t *frame;     /* frame running now (super()) */
	char *first_skipped; /* first error of a skipped module-level statement (malloc) */
	FILE *out;           /* print() destination */
};

/* ---- errors (script_eval.c) ---- */
int serr(sinterp_t *I, const snode_t *at, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Locates the engine's current error message at `at`. */
int serr_relocate(sinterp_t *I, const snode_t *at, int code);
int serr_oom(sinterp_t *I, const snode_t *at);
/* Error for using an opaque value where dalic needs to know it. */
int serr_opaque(sinterp_t *I, const snode_t *at, const sv_t *v, const char *where);

/* ---- expressions (script_eval.c) ---- */
int se_eval(sinterp_t *I, sframe_t *F, const snode_t *e, sv_t **out);
/* Values `from`.. of an and / or chain (right-nested as AutoGraph rewrites it). */
int se_boolop_from(sinterp_t *I, sframe_t *F, const snode_t *node, int from, sv_t **out);
int se_truth(sinterp_t *I, const snode_t *at, sv_t *v, bool *out);
int se_binop(sinterp_t *I, const snode_t *at, script_op_t op, sv_t *l, sv_t *r, sv_t **out);
int se_compare(sinterp_t *I, const snode_t *at, scmp_t op, sv_t *l, sv_t *r, sv_t **out);
int se_getattr(sinterp_t *I, const snode_t *at, sv_t *obj, const char *name, sv_t **out);
/* Like se_getattr but *out = NULL (no error) when the attribute does not exist. */
int se_getattr_opt(sinterp_t *I, const snode_t *at, sv_t *obj, const char *name, sv_t **out);
int se_setattr(sinterp_t *I, const snode_t *at, sv_t *obj, const char *name, sv_t *value);
int se_getitem(sinterp_t *I, const snode_t *at, sv_t *obj, sv_t *index, sv_t **out);
int se_setitem(sinterp_t *I, const snode_t *at, sv_t *obj, sv_t *index, sv_t *value);
int se_call(sinterp_t *I, const snode_t *at, sv_t *fn, const sargs_t *args, sv_t **out);
int se_call1(sinterp_t *I, const snode_t *at, sv_t *fn, sv_t *arg, sv_t **out);
/* Items of an iterable (list, tuple, str, dict keys, range...). Opaque: *opaque = true. */
int se_iterate(sinterp_t *I, const snode_t *at, sv_t *v, sv_t ***items, int *n, bool *opaque);
int se_assign(sinterp_t *I, sframe_t *F, const snode_t *target, sv_t *value);
int se_lookup(sinterp_t *I, sframe_t *F, const snode_t *at, const char *name, sv_t **out);
int se_store(sinterp_t *I, sframe_t *F, const snode_t *at, const char *name, sv_t *value);
/* str(v) / repr(v) into the arena. */
int se_str(sinterp_t *I, const snode_t *at, sv_t *v, bool repr, sv_t **out);
/* Counts one evaluation step; fails when the script runs away. */
int se_step(sinterp_t *I, const snode_t *at);
/* The keyword argument `name` of args, or NULL. */
sv_t *sargs_kw(const sargs_t *args, const char *name);
/* Checks positional/keyword counts of a built-in call; `spec` names the parameters in order
 * ("x, y=None"); fills vals[] (NULL for absent optional ones). */
int sargs_parse(sinterp_t *I, const snode_t *at, const char *fname, const sargs_t *args,
                const char *const *names, int nrequired, int nnames, sv_t **vals);

/* ---- statements, functions, classes (script_exec.c) ---- */
int sx_block(sinterp_t *I, sframe_t *F, const snode_list_t *b);
int sx_module(sinterp_t *I);
int sx_call_function(sinterp_t *I, const snode_t *at, svfunc_t *f, sv_t *self, const sargs_t *args,
                     sv_t **out);
int sx_instantiate(sinterp_t *I, const snode_t *at, svclass_t *cls, const sargs_t *args,
                   sv_t **out);
/* Attribute of a class along its bases (NULL when absent). */
sv_t *sx_class_lookup(svclass_t *cls, const char *name, svclass_t **found_in);
bool sx_is_subclass(const svclass_t *cls, const svclass_t *base);
sframe_t *sx_new_frame(sinterp_t *I, sframe_kind_t kind, sframe_t *parent);

/* ---- built-ins (script_builtins.c, script_types.c) ---- */
int sb_init(sinterp_t *I);
int sb_init_types(sinterp_t *I);
/* Argument count checks for built-ins ("f() takes at most 2 arguments (3 given)"). */
int sb_nargs(sinterp_t *I, const snode_t *at, const char *f, const sargs_t *args, int lo, int hi);
int sb_no_kwargs(sinterp_t *I, const snode_t *at, const char *f, const sargs_t *args);
bool sb_any_opaque(const sargs_t *args);
/* *out = an opaque value standing for the result of f(...). */
int sb_opaque_result(sinterp_t *I, const snode_t *at, const char *f, sv_t **out);
/* Items of an iterable; an opaque iterable is an error. */
int sb_items(sinterp_t *I, const snode_t *at, sv_t *v, sv_t ***items, int *n);
sv_t *sb_tuple(sinterp_t *I, sv_t **items, int n);
/* Bound method `name` of a built-in value (str, list, dict, tuple), or *out = NULL. */
int sb_method(sinterp_t *I, const snode_t *at, sv_t *self, const char *name, sv_t **out);
sv_t *sb_make(sinterp_t *I, const char *name, sbuiltin_fn fn, sv_t *self, void *data);
/* Exception class by name (ValueError...), created on first use. */
svclass_t *sb_exception_class(sinterp_t *I, const char *name);

/* ---- formatting (script_format.c) ---- */
int sf_format_spec(sinterp_t *I, const snode_t *at, sv_t *v, const char *spec, sbuf_t *out);
int sf_str_format(sinterp_t *I, const snode_t *at, sv_t *fmt, const sargs_t *args, sv_t **out);
int sf_percent(sinterp_t *I, const snode_t *at, sv_t *fmt, sv_t *args, sv_t **out);

/* ---- modules (script_modules.c) ---- */
int sm_init(sinterp_t *I);
/* `import a.b.c`: *top gets module a, *leaf module a.b.c. */
int sm_import(sinterp_t *I, const snode_t *at, const char *dotted, sv_t **top, sv_t **leaf);
/* Attribute of a module value (opaque modules make opaque values). */
int sm_getattr(sinterp_t *I, const snode_t *at, sv_t *mod, const char *name, sv_t **out);

/* ---- operators (script_ops.c) ---- */
typedef struct sopcall {
	const dalic_schema_t *schema;
	const char *module, *display; /* _module / _display_name */
	const char *api_name;         /* "nvidia.dali.fn.resize", for messages */
	bool ops_api;                 /* default device cpu, not automatic */
	sv_t **inputs;
	int ninputs;
	const char **kwnames;
	sv_t **kwvals;
	int nkw;
} sopcall_t;

/* Adds the operator to the current pipeline; *out is a DataNode, a list of them, or an empty
 * list (no outputs). */
int so_invoke(sinterp_t *I, const snode_t *at, const sopcall_t *c, sv_t **out);
/* Calls fn.<path> (or ops object) with script arguments. */
int so_call_fn(sinterp_t *I, const snode_t *at, const char *path, const sargs_t *args, sv_t **out);
int so_ops_construct(sinterp_t *I, const snode_t *at, const char *path, const sargs_t *args,
                     sv_t **out);
int so_ops_call(sinterp_t *I, const snode_t *at, sv_t *opobj, const sargs_t *args, sv_t **out);
/* types.Constant(value, dtype, shape, layout, device, **kwargs) semantics; device NULL
 * allowed; returns a ScalarConstant when DALI would. */
int so_types_constant(sinterp_t *I, const snode_t *at, const sargs_t *args, sv_t **out);
/* A Constant operator node holding `value` (scalar or flat list); dtype < 0 = inferred. */
int so_constant_node(sinterp_t *I, const snode_t *at, sv_t *value, int dtype, const char *device,
                     sv_t **out);
/* The pipeline operators are added to now, or an error naming `what`. */
int so_current_pipe(sinterp_t *I, const snode_t *at, const char *what, spipe_t **out);
/* Argument value of a script value (bool, int, float, str, enum, lists of them). */
int so_to_value(sinterp_t *I, const snode_t *at, const char *op, const char *arg, sv_t *v,
                dalic_value_t *out);

/* ---- DataNode arithmetic (script_arith.c) ---- */
/* expression_desc op name for a binary operator, or NULL when DataNodes do not support it */
const char *sa_binop_name(script_op_t op);
const char *sa_cmp_name(scmp_t op);
int sa_arith(sinterp_t *I, const snode_t *at, const char *name, sv_t **inputs, int n, sv_t **out);
int sa_subscript(sinterp_t *I, const snode_t *at, sv_t *node, sv_t *index, sv_t **out);
/* DataNode.gpu() / .cpu() */
int sa_to_device(sinterp_t *I, const snode_t *at, sv_t *node, const char *device, sv_t **out);
/* nvidia.dali.math module members */
int sa_math_module(sinterp_t *I, sv_t *mod);

/* ---- conditionals (script_cond.c) ---- */
int sc_new(sinterp_t *I, spipe_t *p);
/* AutoGraph's `ld`: a DataNode read from a variable, split to the current scope. */
int sc_load(sinterp_t *I, const snode_t *at, sv_t *v, sv_t **out);
/* Inputs of an operator: split to the current scope. */
int sc_preprocess(sinterp_t *I, const snode_t *at, sv_t *node, sv_t **out);
/* Registers operator outputs in the current (or global) scope. */
int sc_register(sinterp_t *I, sv_t *outputs, bool global_scope);
int sc_if(sinterp_t *I, sframe_t *F, const snode_t *s, sv_t *pred);
/* `a and ...` / `a or ...` (N_BOOLOP node, values from index `next` on evaluated lazily)
 * with a DataNode `a`. */
int sc_and_or(sinterp_t *I, sframe_t *F, const snode_t *node, int next, sv_t *a, sv_t **out);
int sc_not(sinterp_t *I, const snode_t *at, sv_t *v, sv_t **out);

/* ---- pipelines (script_pipeline.c, script_pipedef.c, script_params.c) ---- */
#define SP_POSITIONAL_PARAMS 11            /* Pipeline.__init__ parameters that may be positional */
extern const char *const sp_ctor_params[]; /* NULL-terminated, positional ones first */
bool sp_is_ctor_param(const char *name);
/* Applies keyword parameters in order to p's definition, then DALI's checks. */
int sp_apply_params(sinterp_t *I, const snode_t *at, spipe_t *p, const char *const *names,
                    sv_t *const *vals, int n);
int sp_dtype_param(sinterp_t *I, const snode_t *at, sv_t *v, int *out);
int sp_ndim_param(sinterp_t *I, const snode_t *at, sv_t *v, int *out);
/* Pipeline parameters read as attributes (pipe.batch_size...); *out NULL when not one. */
int sp_param_attr(sinterp_t *I, const snode_t *at, spipe_t *p, const char *name, sv_t **out);
/* A new Pipeline object (not yet a pipeline) and the pipeline behind an object. */
int sp_new_object(sinterp_t *I, const snode_t *at, sv_t **out);
int sp_new_pipe(sinterp_t *I, const snode_t *at, const char *def_name, sv_t *obj, spipe_t **out);
/* Outputs from a pipeline function's / define_graph's return value. */
int sp_outputs_of(sinterp_t *I, const snode_t *at, spipe_t *p, sv_t *r, bool lists);
int sp_init(sinterp_t *I);
/* pipeline_def / experimental.pipeline_def built-ins */
sv_t *sp_pipeline_def_builtin(sinterp_t *I, bool experimental);
int sp_call_pipedef(sinterp_t *I, const snode_t *at, sv_t *pipedef, const sargs_t *args,
                    sv_t **out);
/* Pipeline object of a value (NULL when it is not one). */
spipe_t *sp_of(const sv_t *v);
/* Called when a variable is bound (names pipelines). */
void sp_note_binding(sinterp_t *I, sframe_t *F, const char *name, sv_t *value);
int sp_push_current(sinterp_t *I, const snode_t *at, spipe_t *p);
void sp_pop_current(sinterp_t *I);
/* Traces define_graph of subclass pipelines not traced yet (end of script). */
int sp_finish(sinterp_t *I);
/* Built-in attribute of a Pipeline object (methods, parameters), *out NULL when absent. */
int sp_getattr(sinterp_t *I, const snode_t *at, sv_t *obj, const char *name, sv_t **out);

#endif
