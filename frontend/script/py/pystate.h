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
enum { PYEXEC_RETURN = 1, PYEXEC_BREAK = 2, PYEXEC_CONTINUE = 3 };

#define PY_MAX_CALL_DEPTH 150
#define PY_MAX_LOOP_ITERATIONS 100000
#define PY_MAX_STEPS 5000000L
#define PY_ARENA_BUDGET ((size_t)1 << 30)
/* C stack the evaluator may use below its entry point (deep calls of deeply nested
 * expressions); well inside the 8 MiB main-thread and default pthread stacks */
#define PY_STACK_BUDGET ((size_t)3 << 20)

typedef enum { FR_MODULE, FR_FUNCTION, FR_CLASS, FR_SCOPE } pyframe_kind_t;

struct pyframe {
	pyframe_kind_t kind;
	pydict_t *locals;
	/* which names are local (functions: from the def's facts; lambdas and comprehensions:
	 * their parameters / targets) and which are declared global */
	const char *const *lnames;
	int nlnames;
	const char *const *gnames;
	int ngnames;
	pyframe_t *parent; /* lexically enclosing frame */
	pyfunc_t *func;    /* function being run (super()) */
	pyval_t *self;     /* its first argument (super()) */
	pyclass_t *cls;    /* class being defined (FR_CLASS) */
	/* AutoGraph's return variables, merged when a return sits in an `if` on a DataNode */
	pyval_t *retval;
	pyval_t *do_return;
	int cond_branches; /* > 0 while running a branch of an `if` on a DataNode */
};

typedef struct sdcond sdcond_t;

struct sdpipe {
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
	pyval_t *object;                     /* the Pipeline object */
	pyval_t *output_dtype, *output_ndim; /* list forms, applied per output */
	sdcond_t *cond;
	int line, col; /* where it was created */
};

struct pyinterp {
	pyarena_t *a;
	const pysrc_t *src;
	pyast_t *mod;
	pyframe_t *globals;
	pydict_t *builtins;
	pydict_t *modules; /* imported module values by dotted name */
	pyclass_t *pipeline_cls;
	sdpipe_t **pipes;
	int npipes, cappipes;
	sdpipe_t *current[32]; /* Pipeline.current() stack */
	int ncurrent;
	int tracing;          /* > 0 while a pipeline definition runs */
	int creating;         /* > 0 while a pipeline object is being created */
	int depth;            /* call depth */
	int loops;            /* loop bodies being run (no statement skipping inside) */
	uintptr_t stack_base; /* C stack address when the load started */
	long steps;
	bool star_opaque;    /* `from <unknown module> import *` happened */
	bool fatal;          /* an error happened while a pipeline was created or traced */
	pyframe_t *frame;    /* frame running now (super()) */
	char *first_skipped; /* first error of a skipped module-level statement (malloc) */
	FILE *out;           /* print() destination */
};

/* ---- errors (script_eval.c) ---- */
int dalic_pyeval_error(pyinterp_t *I, const pynode_t *at, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Locates the engine's current error message at `at`. */
int dalic_pyeval_relocate(pyinterp_t *I, const pynode_t *at, int code);
int dalic_pyeval_oom(pyinterp_t *I, const pynode_t *at);
/* Error for using an opaque value where dalic needs to know it. */
int dalic_pyeval_opaque_error(pyinterp_t *I, const pynode_t *at, const pyval_t *v,
                              const char *where);

/* ---- expressions (script_eval.c) ---- */
int dalic_pyeval_expr(pyinterp_t *I, pyframe_t *F, const pynode_t *e, pyval_t **out);
/* Values `from`.. of an and / or chain (right-nested as AutoGraph rewrites it). */
int dalic_pyeval_boolop_from(pyinterp_t *I, pyframe_t *F, const pynode_t *node, int from,
                             pyval_t **out);
int dalic_pyeval_truth(pyinterp_t *I, const pynode_t *at, pyval_t *v, bool *out);
int dalic_pyeval_binop(pyinterp_t *I, const pynode_t *at, pyop_t op, pyval_t *l, pyval_t *r,
                       pyval_t **out);
int dalic_pyeval_compare(pyinterp_t *I, const pynode_t *at, pycmp_t op, pyval_t *l, pyval_t *r,
                         pyval_t **out);
int dalic_pyeval_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *obj, const char *name,
                         pyval_t **out);
/* Like dalic_pyeval_getattr but *out = NULL (no error) when the attribute does not exist. */
int dalic_pyeval_getattr_opt(pyinterp_t *I, const pynode_t *at, pyval_t *obj, const char *name,
                             pyval_t **out);
int dalic_pyeval_setattr(pyinterp_t *I, const pynode_t *at, pyval_t *obj, const char *name,
                         pyval_t *value);
int dalic_pyeval_getitem(pyinterp_t *I, const pynode_t *at, pyval_t *obj, pyval_t *index,
                         pyval_t **out);
int dalic_pyeval_setitem(pyinterp_t *I, const pynode_t *at, pyval_t *obj, pyval_t *index,
                         pyval_t *value);
int dalic_pyeval_call(pyinterp_t *I, const pynode_t *at, pyval_t *fn, const pyargs_t *args,
                      pyval_t **out);
int dalic_pyeval_call1(pyinterp_t *I, const pynode_t *at, pyval_t *fn, pyval_t *arg, pyval_t **out);
/* Items of an iterable (list, tuple, str, dict keys, range...). Opaque: *opaque = true. */
int dalic_pyeval_iterate(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t ***items, int *n,
                         bool *opaque);
int dalic_pyeval_assign(pyinterp_t *I, pyframe_t *F, const pynode_t *target, pyval_t *value);
int dalic_pyeval_lookup(pyinterp_t *I, pyframe_t *F, const pynode_t *at, const char *name,
                        pyval_t **out);
int dalic_pyeval_store(pyinterp_t *I, pyframe_t *F, const pynode_t *at, const char *name,
                       pyval_t *value);
/* str(v) / repr(v) into the arena. */
int dalic_pyeval_str(pyinterp_t *I, const pynode_t *at, pyval_t *v, bool repr, pyval_t **out);
/* Counts one evaluation step; fails when the script runs away. */
int dalic_pyeval_step(pyinterp_t *I, const pynode_t *at);
/* The keyword argument `name` of args, or NULL. */
pyval_t *dalic_pyeval_kwarg(const pyargs_t *args, const char *name);
/* Checks positional/keyword counts of a built-in call; `spec` names the parameters in order
 * ("x, y=None"); fills vals[] (NULL for absent optional ones). */
int dalic_pyeval_parse_args(pyinterp_t *I, const pynode_t *at, const char *fname,
                            const pyargs_t *args, const char *const *names, int nrequired,
                            int nnames, pyval_t **vals);

/* ---- statements, functions, classes (script_exec.c) ---- */
int dalic_pyexec_block(pyinterp_t *I, pyframe_t *F, const pynode_list_t *b);
int dalic_pyexec_module(pyinterp_t *I);
int dalic_pyexec_call_function(pyinterp_t *I, const pynode_t *at, pyfunc_t *f, pyval_t *self,
                               const pyargs_t *args, pyval_t **out);
int dalic_pyexec_instantiate(pyinterp_t *I, const pynode_t *at, pyclass_t *cls,
                             const pyargs_t *args, pyval_t **out);
/* Attribute of a class along its bases (NULL when absent). */
pyval_t *dalic_pyexec_class_lookup(pyclass_t *cls, const char *name, pyclass_t **found_in);
bool dalic_pyexec_is_subclass(const pyclass_t *cls, const pyclass_t *base);
pyframe_t *dalic_pyexec_new_frame(pyinterp_t *I, pyframe_kind_t kind, pyframe_t *parent);

/* ---- built-ins (script_builtins.c, script_types.c) ---- */
int dalic_pybi_open(pyinterp_t *I);
int dalic_pybi_open_types(pyinterp_t *I);
/* Argument count checks for built-ins ("f() takes at most 2 arguments (3 given)"). */
int dalic_pybi_nargs(pyinterp_t *I, const pynode_t *at, const char *f, const pyargs_t *args, int lo,
                     int hi);
int dalic_pybi_no_kwargs(pyinterp_t *I, const pynode_t *at, const char *f, const pyargs_t *args);
bool dalic_pybi_any_opaque(const pyargs_t *args);
/* *out = an opaque value standing for the result of f(...). */
int dalic_pybi_opaque_result(pyinterp_t *I, const pynode_t *at, const char *f, pyval_t **out);
/* Items of an iterable; an opaque iterable is an error. */
int dalic_pybi_items(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t ***items, int *n);
pyval_t *dalic_pybi_tuple(pyinterp_t *I, pyval_t **items, int n);
/* Bound method `name` of a built-in value (str, list, dict, tuple), or *out = NULL. */
int dalic_pybi_method(pyinterp_t *I, const pynode_t *at, pyval_t *self, const char *name,
                      pyval_t **out);
pyval_t *dalic_pybi_make(pyinterp_t *I, const char *name, pycfn_t fn, pyval_t *self, void *data);
/* Exception class by name (ValueError...), created on first use. */
pyclass_t *dalic_pybi_exception_class(pyinterp_t *I, const char *name);

/* ---- formatting (script_format.c) ---- */
int dalic_pyfmt_spec(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *spec, pybuf_t *out);
int dalic_pyfmt_str_format(pyinterp_t *I, const pynode_t *at, pyval_t *fmt, const pyargs_t *args,
                           pyval_t **out);
int dalic_pyfmt_percent(pyinterp_t *I, const pynode_t *at, pyval_t *fmt, pyval_t *args,
                        pyval_t **out);

/* ---- modules (script_modules.c) ---- */
int dalic_pymod_open(pyinterp_t *I);
/* `import a.b.c`: *top gets module a, *leaf module a.b.c. */
int dalic_pymod_import(pyinterp_t *I, const pynode_t *at, const char *dotted, pyval_t **top,
                       pyval_t **leaf);
/* Attribute of a module value (opaque modules make opaque values). */
int dalic_pymod_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *mod, const char *name,
                        pyval_t **out);

/* ---- operators (script_ops.c) ---- */
typedef struct sdopcall {
	const dalic_schema_t *schema;
	const char *module, *display; /* _module / _display_name */
	const char *api_name;         /* "nvidia.dali.fn.resize", for messages */
	bool ops_api;                 /* default device cpu, not automatic */
	pyval_t **inputs;
	int ninputs;
	const char **kwnames;
	pyval_t **kwvals;
	int nkw;
} sdopcall_t;

/* Adds the operator to the current pipeline; *out is a DataNode, a list of them, or an empty
 * list (no outputs). */
int dalic_sdops_invoke(pyinterp_t *I, const pynode_t *at, const sdopcall_t *c, pyval_t **out);
/* Calls fn.<path> (or ops object) with script arguments. */
int dalic_sdops_call_fn(pyinterp_t *I, const pynode_t *at, const char *path, const pyargs_t *args,
                        pyval_t **out);
int dalic_sdops_construct(pyinterp_t *I, const pynode_t *at, const char *path, const pyargs_t *args,
                          pyval_t **out);
int dalic_sdops_call_object(pyinterp_t *I, const pynode_t *at, pyval_t *opobj, const pyargs_t *args,
                            pyval_t **out);
/* types.Constant(value, dtype, shape, layout, device, **kwargs) semantics; device NULL
 * allowed; returns a ScalarConstant when DALI would. */
int dalic_sdconst_types_constant(pyinterp_t *I, const pynode_t *at, const pyargs_t *args,
                                 pyval_t **out);
/* A Constant operator node holding `value` (scalar or flat list); dtype < 0 = inferred. */
int dalic_sdconst_node(pyinterp_t *I, const pynode_t *at, pyval_t *value, int dtype,
                       const char *device, pyval_t **out);
/* The pipeline operators are added to now, or an error naming `what`. */
int dalic_sdops_current_pipe(pyinterp_t *I, const pynode_t *at, const char *what, sdpipe_t **out);
/* Argument value of a script value (bool, int, float, str, enum, lists of them). */
int dalic_sdops_to_value(pyinterp_t *I, const pynode_t *at, const char *op, const char *arg,
                         pyval_t *v, dalic_value_t *out);

/* ---- DataNode arithmetic (script_arith.c) ---- */
/* expression_desc op name for a binary operator, or NULL when DataNodes do not support it */
const char *dalic_sdarith_binop_name(pyop_t op);
const char *dalic_sdarith_cmp_name(pycmp_t op);
int dalic_sdarith_op(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **inputs, int n,
                     pyval_t **out);
int dalic_sdarith_subscript(pyinterp_t *I, const pynode_t *at, pyval_t *node, pyval_t *index,
                            pyval_t **out);
/* DataNode.gpu() / .cpu() */
int dalic_sdarith_to_device(pyinterp_t *I, const pynode_t *at, pyval_t *node, const char *device,
                            pyval_t **out);
/* nvidia.dali.math module members */
int dalic_sdarith_math_module(pyinterp_t *I, pyval_t *mod);

/* ---- conditionals (script_cond.c) ---- */
int dalic_sdcond_new(pyinterp_t *I, sdpipe_t *p);
/* AutoGraph's `ld`: a DataNode read from a variable, split to the current scope. */
int dalic_sdcond_load(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t **out);
/* Inputs of an operator: split to the current scope. */
int dalic_sdcond_preprocess(pyinterp_t *I, const pynode_t *at, pyval_t *node, pyval_t **out);
/* Registers operator outputs in the current (or global) scope. */
int dalic_sdcond_register(pyinterp_t *I, pyval_t *outputs, bool global_scope);
int dalic_sdcond_if(pyinterp_t *I, pyframe_t *F, const pynode_t *s, pyval_t *pred);
/* `a and ...` / `a or ...` (N_BOOLOP node, values from index `next` on evaluated lazily)
 * with a DataNode `a`. */
int dalic_sdcond_and_or(pyinterp_t *I, pyframe_t *F, const pynode_t *node, int next, pyval_t *a,
                        pyval_t **out);
int dalic_sdcond_not(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t **out);

/* ---- pipelines (script_pipeline.c, script_pipedef.c, script_params.c) ---- */
#define SDPIPE_POSITIONAL_PARAMS 11 /* Pipeline.__init__ parameters that may be positional */
extern const char *const dalic_sdpipe_ctor_params[]; /* NULL-terminated, positional ones first */
bool dalic_sdpipe_is_ctor_param(const char *name);
/* Applies keyword parameters in order to p's definition, then DALI's checks. */
int dalic_sdpipe_apply_params(pyinterp_t *I, const pynode_t *at, sdpipe_t *p,
                              const char *const *names, pyval_t *const *vals, int n);
int dalic_sdpipe_dtype_param(pyinterp_t *I, const pynode_t *at, pyval_t *v, int *out);
int dalic_sdpipe_ndim_param(pyinterp_t *I, const pynode_t *at, pyval_t *v, int *out);
/* Pipeline parameters read as attributes (pipe.batch_size...); *out NULL when not one. */
int dalic_sdpipe_param_attr(pyinterp_t *I, const pynode_t *at, sdpipe_t *p, const char *name,
                            pyval_t **out);
/* A new Pipeline object (not yet a pipeline) and the pipeline behind an object. */
int dalic_sdpipe_new_object(pyinterp_t *I, const pynode_t *at, pyval_t **out);
int dalic_sdpipe_new(pyinterp_t *I, const pynode_t *at, const char *def_name, pyval_t *obj,
                     sdpipe_t **out);
/* Outputs from a pipeline function's / define_graph's return value. */
int dalic_sdpipe_outputs_of(pyinterp_t *I, const pynode_t *at, sdpipe_t *p, pyval_t *r, bool lists);
int dalic_sdpipe_open(pyinterp_t *I);
/* pipeline_def / experimental.pipeline_def built-ins */
pyval_t *dalic_sdpipe_def_builtin(pyinterp_t *I, bool experimental);
int dalic_sdpipe_call_def(pyinterp_t *I, const pynode_t *at, pyval_t *pipedef, const pyargs_t *args,
                          pyval_t **out);
/* Pipeline object of a value (NULL when it is not one). */
sdpipe_t *dalic_sdpipe_of(const pyval_t *v);
/* Called when a variable is bound (names pipelines). */
void dalic_sdpipe_note_binding(pyinterp_t *I, pyframe_t *F, const char *name, pyval_t *value);
int dalic_sdpipe_push(pyinterp_t *I, const pynode_t *at, sdpipe_t *p);
void dalic_sdpipe_pop(pyinterp_t *I);
/* Traces define_graph of subclass pipelines not traced yet (end of script). */
int dalic_sdpipe_finish(pyinterp_t *I);
/* Built-in attribute of a Pipeline object (methods, parameters), *out NULL when absent. */
int dalic_sdpipe_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *obj, const char *name,
                         pyval_t **out);

#endif
