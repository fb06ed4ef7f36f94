/*
 * Pipelines: `Pipeline(...)` objects filled inside `with pipe:` and finished by
 * `set_outputs(...)`, Pipeline subclasses whose define_graph is traced when the script builds
 * or runs them (or at the end of the script), and @pipeline_def functions (sdpipe_def.c);
 * the parameters DALI's Pipeline constructor takes (sdpipe_params.c). Pipeline is a class
 * of the core whose methods are built-ins and whose instances keep their sdpipe_t as
 * native data.
 */
#ifndef DALIC_FRONTEND_SCRIPT_DALI_SDPIPE_H
#define DALIC_FRONTEND_SCRIPT_DALI_SDPIPE_H

#include "engine/graphdef.h"
#include "frontend/script/dali/sdali.h"
#include "frontend/script/dali/sdcond.h"

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

/* ---- Pipeline objects (sdpipe.c) ---- */
/* The Pipeline class, with its methods. */
pyclass_t *dalic_sdpipe_class(pyinterp_t *I);
/* A new Pipeline object (not yet a pipeline) and the pipeline behind an object. */
int dalic_sdpipe_new_object(pyinterp_t *I, const pynode_t *at, pyval_t **out);
int dalic_sdpipe_new(pyinterp_t *I, const pynode_t *at, const char *def_name, pyval_t *obj,
                     sdpipe_t **out);
/* The pipeline of a Pipeline object (NULL when v is not one or __init__ did not run). */
sdpipe_t *dalic_sdpipe_of(pyinterp_t *I, const pyval_t *v);
/* Outputs from a pipeline function's / define_graph's return value. */
int dalic_sdpipe_outputs_of(pyinterp_t *I, const pynode_t *at, sdpipe_t *p, pyval_t *r, bool lists);
/* The pipeline definitions of the script run inside push / pop. */
int dalic_sdpipe_push(pyinterp_t *I, const pynode_t *at, sdpipe_t *p);
void dalic_sdpipe_pop(pyinterp_t *I);
/* Traces define_graph of p if it is a subclass pipeline not traced yet. */
int dalic_sdpipe_trace(pyinterp_t *I, const pynode_t *at, sdpipe_t *p);
/* A variable was bound: names the pipeline an object is. */
void dalic_sdpipe_note_binding(pyinterp_t *I, pyframe_t *F, const char *name, pyval_t *value);

/* ---- @pipeline_def (sdpipe_def.c) ---- */
/* pipeline_def / experimental.pipeline_def built-ins */
pyval_t *dalic_sdpipe_def_builtin(pyinterp_t *I, bool experimental);
/* Calling a @pipeline_def function: creates and traces a pipeline. */
int dalic_sdpipe_call_def(pyinterp_t *I, const pynode_t *at, pyval_t *pipedef, const pyargs_t *args,
                          pyval_t **out);

/* ---- pipelines a module defines but does not build (sdpipe_build.c) ---- */
typedef struct sddefined {
	const char *name;   /* the module-level name bound to it ("Cls.method" for a method) */
	pyval_t *value;     /* a @pipeline_def function or a Pipeline subclass, or a factory */
	const char *method; /* a factory class's method that makes the pipeline, or NULL */
	bool factory;       /* a plain function / class that makes one (sdfactory.c) */
} sddefined_t;

typedef struct sdbuild {
	const char **names; /* --arg names and values */
	pyval_t **values;
	int nargs;
	const dalic_pipeline_params_t *params; /* the caller's flags (NULL: none) */
	unsigned fields;
} sdbuild_t;

/* The defined pipelines that built none while the module ran, in definition order; then
 * the factories, all of them (factories "all") or only when nothing else is defined. */
int dalic_sdpipe_defined(pyinterp_t *I, sddefined_t **out, int *n, int factories);
enum { SDPIPE_FACTORIES_NONE, SDPIPE_FACTORIES_FALLBACK, SDPIPE_FACTORIES_ALL };
/* Builds d: calls the function or instantiates the class with b's arguments. */
int dalic_sdpipe_build_defined(pyinterp_t *I, const sddefined_t *d, const sdbuild_t *b,
                               sdpipe_t **out);

/* Keyword arguments from b for a call of fn (its parameters from `from` on); a parameter
 * named like a Pipeline flag is filled from it unless takes_pipeline_params. */
int dalic_sdpipe_build_kwargs(pyinterp_t *I, const pynode_t *at, const char *what,
                              const pyfunc_t *fn, int from, bool takes_pipeline_params,
                              const sdbuild_t *b, pyargs_t *args);
/* Calls the @pipeline_def function v with b's arguments. */
int dalic_sdpipe_build_pipedef(pyinterp_t *I, pyval_t *v, const sdbuild_t *b);
/* ---- factories: plain functions and classes that make a pipeline (sdfactory.c) ---- */
/* Appends the module's factories to *out (n used of cap, the array regrown in the arena). */
int dalic_sdfactory_find(pyinterp_t *I, sddefined_t **out, int *n, int *cap);
/* The first `mod.SomethingPipeline(...)` call in the module's functions and classes whose
 * `mod` is a module dalic cannot import (a pipeline of another file), or NULL. */
const pynode_t *dalic_sdfactory_foreign(pyinterp_t *I);
/* Calls / instantiates the factory d (then its method) with b's arguments. */
int dalic_sdfactory_build(pyinterp_t *I, const sddefined_t *d, const sdbuild_t *b);
/* ---- parameters (sdpipe_params.c) ---- */
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

#endif
