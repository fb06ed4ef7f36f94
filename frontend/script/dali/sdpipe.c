/*
 * Pipeline objects (see sdpipe.h): the Pipeline class, whose methods are built-ins of the
 * core and whose instances keep their sdpipe_t as native data; `with pipe:` through its
 * __enter__ / __exit__; outputs as DALI takes them (Python values become CPU constants,
 * nested DataNodes are the "missing list/tuple expansion" error); define_graph of subclasses
 * traced when the script builds or runs them, or at the end of the script. Methods that run
 * a pipeline return opaque values so display code after them is skipped.
 */
#include "frontend/script/dali/sdpipe.h"

#include "frontend/script/py/pyio.h"

#include "frontend/script/dali/sdconst.h"
#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyexec.h"

#include <stdlib.h>
#include <string.h>

sdpipe_t *dalic_sdpipe_of(pyinterp_t *I, const pyval_t *v)
{
	sdstate_t *S = dalic_sdali_state(I);
	if (!v || v->kind != PV_INSTANCE ||
	    !dalic_pyexec_is_subclass(v->inst->cls, S->pipeline_cls))
		return NULL;
	return v->inst->native;
}

/* The pipeline of the object a method runs on; an error when __init__ did not run. */
static int sdpipe_self(pyinterp_t *I, const pynode_t *at, pyval_t *self, sdpipe_t **out)
{
	*out = dalic_sdpipe_of(I, self);
	if (*out)
		return DALIC_OK;
	if (self->kind != PV_INSTANCE)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "TypeError: a Pipeline method needs a Pipeline object, not %s",
		    dalic_pyval_type_name(self));
	return dalic_pyeval_error(I, at, DALIC_EINVAL,
	                          "RuntimeError: Pipeline.__init__() was not called for this %s "
	                          "object",
	                          self->inst->cls->name);
}

int dalic_sdpipe_push(pyinterp_t *I, const pynode_t *at, sdpipe_t *p)
{
	sdstate_t *S = dalic_sdali_state(I);
	if (S->ncurrent == SDALI_MAX_CURRENT)
		return dalic_pyeval_limit(I, at, "pipelines nested too deeply");
	S->current[S->ncurrent++] = p;
	S->tracing++;
	return DALIC_OK;
}

void dalic_sdpipe_pop(pyinterp_t *I)
{
	sdstate_t *S = dalic_sdali_state(I);
	S->ncurrent--;
	S->tracing--;
}

void dalic_sdpipe_note_binding(pyinterp_t *I, pyframe_t *F, const char *name, pyval_t *value)
{
	sdpipe_t *p = dalic_sdpipe_of(I, value);
	if (!p)
		return;
	bool global = F->kind == FR_MODULE;
	/* the first module-level name wins; a function-local name only until one exists */
	if (!p->var_name || (global && !p->var_global)) {
		p->var_name = name;
		p->var_global = global;
	}
}

int dalic_sdpipe_new(pyinterp_t *I, const pynode_t *at, const char *def_name, pyval_t *obj,
                     sdpipe_t **out)
{
	sdstate_t *S = dalic_sdali_state(I);
	sdpipe_t *p = dalic_pyarena_alloc(I->a, sizeof *p);
	if (!p)
		return dalic_pyeval_oom(I, at);
	if (S->npipes == S->cappipes) {
		int cap = S->cappipes ? S->cappipes * 2 : 4;
		sdpipe_t **v = realloc(S->pipes, sizeof *v * (size_t)cap);
		if (!v)
			return dalic_pyeval_oom(I, at);
		S->pipes = v;
		S->cappipes = cap;
	}
	p->def = dalic_graphdef_new(NULL);
	if (!p->def)
		return dalic_pyeval_oom(I, at);
	S->pipes[S->npipes++] = p;
	p->index = S->npipes - 1;
	p->def_name = def_name;
	p->object = obj;
	p->line = at ? at->line : 1;
	p->col = at ? at->col : 1;
	p->exec_dynamic = true;
	obj->inst->native = p;
	*out = p;
	return DALIC_OK;
}

int dalic_sdpipe_new_object(pyinterp_t *I, const pynode_t *at, pyval_t **out)
{
	*out = dalic_pyexec_new_instance(I, dalic_sdali_state(I)->pipeline_cls);
	return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
}

/* Pipeline.__init__(self, batch_size, num_threads, ...) */
static int sdpipe_meth_init(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	sdstate_t *S = dalic_sdali_state(I);
	pyargs_t a = *args;
	if (self->kind != PV_INSTANCE ||
	    !dalic_pyexec_is_subclass(self->inst->cls, S->pipeline_cls))
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "TypeError: Pipeline.__init__() needs a Pipeline object as "
		    "its first argument");
	if (a.npos > SDPIPE_POSITIONAL_PARAMS)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "TypeError: Pipeline.__init__() takes at most %d positional arguments",
		    SDPIPE_POSITIONAL_PARAMS + 1);
	const char **names =
	    dalic_pyarena_alloc(I->a, sizeof *names * (size_t)(a.npos + a.nkw + 1));
	pyval_t **vals = dalic_pyarena_alloc(I->a, sizeof *vals * (size_t)(a.npos + a.nkw + 1));
	if (!names || !vals)
		return dalic_pyeval_oom(I, at);
	int n = 0;
	for (int i = 0; i < a.npos; i++) {
		names[n] = dalic_sdpipe_ctor_params[i];
		vals[n++] = a.pos[i];
	}
	for (int i = 0; i < a.nkw; i++) {
		for (int k = 0; k < a.npos; k++)
			if (!strcmp(dalic_sdpipe_ctor_params[k], a.kwnames[i]))
				return dalic_pyeval_error(
				    I, at, DALIC_EINVAL,
				    "TypeError: Pipeline.__init__() got multiple values for "
				    "argument '%s'",
				    a.kwnames[i]);
		names[n] = a.kwnames[i];
		vals[n++] = a.kwvals[i];
	}
	sdpipe_t *p = self->inst->native;
	S->creating++;
	int rc = DALIC_OK;
	if (!p) {
		pyclass_t *cls = self->inst->cls;
		rc = dalic_sdpipe_new(I, at, cls == S->pipeline_cls ? "Pipeline" : cls->name, self,
		                      &p);
	}
	if (!rc)
		rc = dalic_sdpipe_apply_params(I, at, p, names, vals, n);
	S->creating--;
	*out = dalic_pyval_none();
	return rc;
}

/* ---- outputs -------------------------------------------------------------------------- */

static void sdpipe_clear_outputs(dalic_graphdef_t *g)
{
	for (int i = 0; i < g->num_outputs; i++) {
		free(g->outputs[i].name);
		free(g->outputs[i].device);
		free(g->outputs[i].arg_name);
		free(g->outputs[i].layout);
	}
	g->num_outputs = 0;
}

static bool sdpipe_contains_node(const pyval_t *v, int depth)
{
	if (dalic_sdval_node(v) || depth > 100)
		return dalic_sdval_node(v) != NULL;
	pyval_t **items = v->kind == PV_LIST    ? v->list->items
	                  : v->kind == PV_TUPLE ? v->tuple.items
	                                        : NULL;
	int n = v->kind == PV_LIST ? v->list->n : v->kind == PV_TUPLE ? v->tuple.n : 0;
	for (int i = 0; i < n; i++)
		if (sdpipe_contains_node(items[i], depth + 1))
			return true;
	return false;
}

static int sdpipe_per_output(pyinterp_t *I, const pynode_t *at, sdpipe_t *p, pyval_t *list,
                             bool dtype)
{
	if (!list)
		return DALIC_OK;
	int n = list->kind == PV_LIST ? list->list->n : list->tuple.n;
	pyval_t **items = list->kind == PV_LIST ? list->list->items : list->tuple.items;
	if (n != p->def->num_outputs)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "ValueError: Lengths of provided output descriptions do not match. "
		    "Expected %d, got %d.",
		    p->def->num_outputs, n);
	for (int i = 0; i < n; i++) {
		dalic_io_t *o = &p->def->outputs[i];
		int v = -1;
		DALIC_TRY(dtype ? dalic_sdpipe_dtype_param(I, at, items[i], &v)
		                : dalic_sdpipe_ndim_param(I, at, items[i], &v));
		if (dalic_graphdef_set_output_desc(p->def, i, dtype ? v : o->dtype,
		                                   dtype ? o->ndim : v, o->layout))
			return dalic_pyeval_relocate(I, at, DALIC_EINVAL);
	}
	return DALIC_OK;
}

static int sdpipe_set_outputs(pyinterp_t *I, const pynode_t *at, sdpipe_t *p, pyval_t **outs, int n)
{
	sdpipe_clear_outputs(p->def);
	bool pushed = dalic_sdali_current(I) != p;
	if (pushed)
		DALIC_TRY(dalic_sdpipe_push(I, at, p));
	int rc = DALIC_OK;
	for (int i = 0; !rc && i < n; i++) {
		pyval_t *v = outs[i];
		sdnode_t *n = dalic_sdval_node(v);
		if (!n) {
			if ((v->kind == PV_LIST || v->kind == PV_TUPLE) &&
			    sdpipe_contains_node(v, 0)) {
				rc = dalic_pyeval_error(
				    I, at, DALIC_EINVAL,
				    "TypeError: Illegal pipeline output type. The output %d "
				    "contains a nested `DataNode`. Missing list/tuple expansion "
				    "(*) is the likely cause.",
				    i);
				break;
			}
			if (v->kind == PV_OPAQUE) {
				rc = dalic_pyeval_opaque_error(I, at, v, "pipeline output");
				break;
			}
			/* Python values become CPU constants */
			sdsconst_t *c = dalic_sdval_sconst(v);
			rc = dalic_sdconst_output_node(I, at, c ? c->value : v, c ? c->dtype : -1,
			                               &v);
			if (rc)
				break;
			n = dalic_sdval_node(v);
		} else if (n->pipe != p) {
			rc = dalic_pyeval_error(I, at, DALIC_EGRAPH,
			                        "DataNode \"%s\" is an output of another pipeline",
			                        n->name);
			break;
		}
		if (dalic_graphdef_add_output(p->def, n->name, n->device))
			rc = dalic_pyeval_relocate(I, at, DALIC_EINVAL);
	}
	if (pushed)
		dalic_sdpipe_pop(I);
	DALIC_TRY(rc);
	DALIC_TRY(sdpipe_per_output(I, at, p, p->output_dtype, true));
	DALIC_TRY(sdpipe_per_output(I, at, p, p->output_ndim, false));
	p->outputs_set = true;
	return DALIC_OK;
}

static int sdpipe_meth_set_outputs(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                   const pyargs_t *args, pyval_t **out)
{
	if (args->nkw)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: set_outputs() takes no keyword arguments");
	sdpipe_t *p;
	DALIC_TRY(sdpipe_self(I, at, self, &p));
	*out = dalic_pyval_none();
	return sdpipe_set_outputs(I, at, p, args->pos, args->npos);
}

/* Outputs of a pipeline function / define_graph: tuple, list (define_graph), one value. */
int dalic_sdpipe_outputs_of(pyinterp_t *I, const pynode_t *at, sdpipe_t *p, pyval_t *r, bool lists)
{
	if (r->kind == PV_TUPLE)
		return sdpipe_set_outputs(I, at, p, r->tuple.items, r->tuple.n);
	if (lists && r->kind == PV_LIST)
		return sdpipe_set_outputs(I, at, p, r->list->items, r->list->n);
	if (r->kind == PV_NONE)
		return sdpipe_set_outputs(I, at, p, NULL, 0);
	return sdpipe_set_outputs(I, at, p, &r, 1);
}

/* ---- define_graph subclasses ---------------------------------------------------------- */

int dalic_sdpipe_trace(pyinterp_t *I, const pynode_t *at, sdpipe_t *p)
{
	if (p->traced || p->tracing || p->outputs_set)
		return DALIC_OK;
	pyval_t *dg = dalic_pyexec_class_lookup(p->object->inst->cls, "define_graph", NULL);
	if (!dg || dg->kind != PV_FUNC)
		return DALIC_OK;
	p->tracing = true;
	DALIC_TRY(dalic_sdpipe_push(I, at, p));
	pyval_t *r;
	pyargs_t none = {0};
	int rc = dalic_pyexec_call_function(I, at, dg->func, p->object, &none, &r);
	if (!rc)
		rc = dalic_sdpipe_outputs_of(I, at, p, r, true);
	dalic_sdpipe_pop(I);
	p->tracing = false;
	p->traced = true;
	return rc;
}

/* ---- methods -------------------------------------------------------------------------- */

/* build(), run() and the like: the graph must exist; results are not computed here */
static int sdpipe_meth_runlike(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                               const pyargs_t *args, pyval_t **out)
{
	sdpipe_t *p;
	DALIC_TRY(sdpipe_self(I, at, self, &p));
	DALIC_TRY(dalic_sdpipe_trace(I, at, p));
	PYEVAL_RET(dalic_pyval_opaque(I->a, "pipeline results"));
}

/* serialize(): the graph is dalic's to write (`dalic serialize`); writing it to a file from
 * the script is refused like any write (pyio.c), never skipped in silence. */
static int sdpipe_meth_serialize(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                 const pyargs_t *args, pyval_t **out)
{
	if (dalic_pyeval_kwarg(args, "filename"))
		return dalic_pyio_refuse(I, at, "Pipeline.serialize(filename=...)",
		                         "a pipeline script reads files, never writes them; `dalic "
		                         "serialize MODULE -o FILE` writes the pipeline");
	return sdpipe_meth_runlike(I, at, self, args, out);
}

static int sdpipe_meth_build(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                             pyval_t **out)
{
	sdpipe_t *p;
	DALIC_TRY(sdpipe_self(I, at, self, &p));
	DALIC_TRY(dalic_sdpipe_trace(I, at, p));
	PYEVAL_RET(dalic_pyval_none());
}

static int sdpipe_meth_define_graph(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                    const pyargs_t *args, pyval_t **out)
{
	return dalic_pyeval_error(
	    I, at, DALIC_EINVAL,
	    "NotImplementedError: define_graph() must be overridden by Pipeline subclasses");
}

/* Pipeline.current(): a static method */
static int sdpipe_current(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	sdpipe_t *p = dalic_sdali_current(I);
	PYEVAL_RET(p ? p->object : dalic_pyval_none());
}

/* `with pipe:` — operators created in the block go to this pipeline */
static int sdpipe_meth_enter(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                             pyval_t **out)
{
	sdpipe_t *p;
	DALIC_TRY(sdpipe_self(I, at, self, &p));
	DALIC_TRY(dalic_sdpipe_push(I, at, p));
	PYEVAL_RET(self);
}

static int sdpipe_meth_exit(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	sdpipe_t *p;
	DALIC_TRY(sdpipe_self(I, at, self, &p));
	if (dalic_sdali_current(I) == p)
		dalic_sdpipe_pop(I);
	PYEVAL_RET(dalic_pyval_none());
}

/* Pipeline parameters read as attributes (pipe.batch_size) */
static int sdpipe_meth_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                               const pyargs_t *args, pyval_t **out)
{
	if (args->npos != 1 || args->nkw || args->pos[0]->kind != PV_STR)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: __getattr__() takes an attribute name");
	sdpipe_t *p = dalic_sdpipe_of(I, self);
	*out = NULL;
	return p ? dalic_sdpipe_param_attr(I, at, p, args->pos[0]->str.s, out) : DALIC_OK;
}

pyclass_t *dalic_sdpipe_class(pyinterp_t *I)
{
	static const pyreg_t methods[] = {
	    {"__init__", sdpipe_meth_init},
	    {"__getattr__", sdpipe_meth_getattr},
	    {"set_outputs", sdpipe_meth_set_outputs},
	    {"build", sdpipe_meth_build},
	    {"define_graph", sdpipe_meth_define_graph},
	    {"__enter__", sdpipe_meth_enter},
	    {"__exit__", sdpipe_meth_exit},
	    {"run", sdpipe_meth_runlike},
	    {"schedule_run", sdpipe_meth_runlike},
	    {"outputs", sdpipe_meth_runlike},
	    {"share_outputs", sdpipe_meth_runlike},
	    {"release_outputs", sdpipe_meth_runlike},
	    {"feed_input", sdpipe_meth_runlike},
	    {"reset", sdpipe_meth_runlike},
	    {"serialize", sdpipe_meth_serialize},
	    {"save_graph_to_dot_file", sdpipe_meth_runlike},
	    {"epoch_size", sdpipe_meth_runlike},
	    {"reader_meta", sdpipe_meth_runlike},
	    {"executor_statistics", sdpipe_meth_runlike},
	    {"iter_setup", sdpipe_meth_runlike},
	    {"empty", sdpipe_meth_runlike},
	    {"checkpoint", sdpipe_meth_runlike},
	    {"start_py_workers", sdpipe_meth_runlike},
	    {NULL, NULL},
	};
	static const pyreg_t statics[] = {{"current", sdpipe_current}, {NULL, NULL}};
	pyclass_t *c = dalic_pyexec_new_class(I, "Pipeline", "nvidia.dali.pipeline");
	if (!c || dalic_pybi_register(I, c->attrs, methods, true) ||
	    dalic_pybi_register(I, c->attrs, statics, false))
		return NULL;
	return c;
}
