/*
 * Pipeline objects: `Pipeline(...)` objects filled inside `with pipe:` and finished by
 * `pipe.set_outputs(...)`, Pipeline subclasses whose `define_graph` is traced when the script
 * builds or runs them (or at the end of the script), and the objects @pipeline_def creates
 * (script_pipedef.c). Outputs follow DALI: Python values become CPU constants, nested
 * DataNodes are the "missing list/tuple expansion" error. Methods that run a pipeline
 * return opaque values so display code after them is skipped. DataNode methods (.gpu(),
 * .cpu(), .shape()...) are here too.
 */
#include "frontend/script/py/pystate.h"

#include "engine/dtype.h"
#include "engine/error.h"

#include <stdlib.h>
#include <string.h>

#define TRY(x)                                                                                     \
	do {                                                                                       \
		int rc_ = (x);                                                                     \
		if (rc_)                                                                           \
			return rc_;                                                                \
	} while (0)
#define RET(v)                                                                                     \
	do {                                                                                       \
		*out = (v);                                                                        \
		return *out ? DALIC_OK : dalic_pyeval_oom(I, at);                                  \
	} while (0)

sdpipe_t *dalic_sdpipe_of(const pyval_t *v)
{
	return v && v->kind == PV_INSTANCE ? v->inst->pipe : NULL;
}

int dalic_sdpipe_push(pyinterp_t *I, const pynode_t *at, sdpipe_t *p)
{
	if (I->ncurrent == (int)(sizeof I->current / sizeof *I->current))
		return dalic_pyeval_error(I, at, DALIC_EUNSUPPORTED, "pipelines nested too deeply");
	I->current[I->ncurrent++] = p;
	I->tracing++;
	return DALIC_OK;
}

void dalic_sdpipe_pop(pyinterp_t *I)
{
	I->ncurrent--;
	I->tracing--;
}

void dalic_sdpipe_note_binding(pyinterp_t *I, pyframe_t *F, const char *name, pyval_t *value)
{
	sdpipe_t *p = dalic_sdpipe_of(value);
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
	sdpipe_t *p = dalic_pyarena_alloc(I->a, sizeof *p);
	if (!p)
		return dalic_pyeval_oom(I, at);
	if (I->npipes == I->cappipes) {
		int cap = I->cappipes ? I->cappipes * 2 : 4;
		sdpipe_t **v = realloc(I->pipes, sizeof *v * (size_t)cap);
		if (!v)
			return dalic_pyeval_oom(I, at);
		I->pipes = v;
		I->cappipes = cap;
	}
	p->def = dalic_graphdef_new(NULL);
	if (!p->def)
		return dalic_pyeval_oom(I, at);
	I->pipes[I->npipes++] = p;
	p->index = I->npipes - 1;
	p->def_name = def_name;
	p->object = obj;
	p->line = at ? at->line : 1;
	p->col = at ? at->col : 1;
	p->exec_dynamic = true;
	obj->inst->pipe = p;
	*out = p;
	return DALIC_OK;
}

int dalic_sdpipe_new_object(pyinterp_t *I, const pynode_t *at, pyval_t **out)
{
	pyval_t *obj = dalic_pyval_new(I->a, PV_INSTANCE);
	if (!obj || !(obj->inst = dalic_pyarena_alloc(I->a, sizeof *obj->inst)) ||
	    !(obj->inst->attrs = dalic_pydict_new(I->a)))
		return dalic_pyeval_oom(I, at);
	obj->inst->cls = I->pipeline_cls;
	*out = obj;
	return DALIC_OK;
}

/* Pipeline.__init__(self, batch_size, num_threads, ...) */
static int sdpipe_meth_init(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	pyargs_t a = *args;
	if (!self) { /* Pipeline.__init__(self, ...) called on the class */
		if (!a.npos || a.pos[0]->kind != PV_INSTANCE || !a.pos[0]->inst->cls->pipeline)
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: Pipeline.__init__() needs a Pipeline object as its "
			    "first argument");
		self = a.pos[0];
		a.pos++;
		a.npos--;
	}
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
	sdpipe_t *p = self->inst->pipe;
	I->creating++;
	int rc = DALIC_OK;
	if (!p) {
		pyclass_t *cls = self->inst->cls;
		rc = dalic_sdpipe_new(I, at, cls == I->pipeline_cls ? "Pipeline" : cls->name, self,
		                      &p);
	}
	if (!rc)
		rc = dalic_sdpipe_apply_params(I, at, p, names, vals, n);
	I->creating--;
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
	if (v->kind == PV_NODE || depth > 100)
		return v->kind == PV_NODE;
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
		TRY(dtype ? dalic_sdpipe_dtype_param(I, at, items[i], &v)
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
	bool pushed = !I->ncurrent || I->current[I->ncurrent - 1] != p;
	if (pushed)
		TRY(dalic_sdpipe_push(I, at, p));
	int rc = DALIC_OK;
	for (int i = 0; !rc && i < n; i++) {
		pyval_t *v = outs[i];
		if (v->kind != PV_NODE) {
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
			rc = dalic_sdconst_node(I, at, v->kind == PV_SCONST ? v->sconst.value : v,
			                        v->kind == PV_SCONST ? v->sconst.dtype : -1, "cpu",
			                        &v);
			if (rc)
				break;
		} else if (v->node.pipe != p) {
			rc = dalic_pyeval_error(I, at, DALIC_EGRAPH,
			                        "DataNode \"%s\" is an output of another pipeline",
			                        v->node.name);
			break;
		}
		if (dalic_graphdef_add_output(p->def, v->node.name, v->node.device))
			rc = dalic_pyeval_relocate(I, at, DALIC_EINVAL);
	}
	if (pushed)
		dalic_sdpipe_pop(I);
	TRY(rc);
	TRY(sdpipe_per_output(I, at, p, p->output_dtype, true));
	TRY(sdpipe_per_output(I, at, p, p->output_ndim, false));
	p->outputs_set = true;
	return DALIC_OK;
}

static int sdpipe_meth_set_outputs(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                   const pyargs_t *args, pyval_t **out)
{
	if (args->nkw)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: set_outputs() takes no keyword arguments");
	*out = dalic_pyval_none();
	return sdpipe_set_outputs(I, at, self->inst->pipe, args->pos, args->npos);
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

static int sdpipe_trace_define_graph(pyinterp_t *I, const pynode_t *at, sdpipe_t *p)
{
	if (p->traced || p->tracing || p->outputs_set)
		return DALIC_OK;
	pyval_t *dg = dalic_pyexec_class_lookup(p->object->inst->cls, "define_graph", NULL);
	if (!dg || dg->kind != PV_FUNC)
		return DALIC_OK;
	p->tracing = true;
	TRY(dalic_sdpipe_push(I, at, p));
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

int dalic_sdpipe_finish(pyinterp_t *I)
{
	for (int i = 0; i < I->npipes; i++) {
		sdpipe_t *p = I->pipes[i];
		pynode_t at = {.line = p->line, .col = p->col};
		TRY(sdpipe_trace_define_graph(I, &at, p));
	}
	return DALIC_OK;
}

/* build(), run() and the like: the graph must exist; results are not computed here */
static int sdpipe_meth_runlike(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                               const pyargs_t *args, pyval_t **out)
{
	TRY(sdpipe_trace_define_graph(I, at, self->inst->pipe));
	RET(dalic_pyval_opaque(I->a, "pipeline results"));
}

static int sdpipe_meth_build(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                             pyval_t **out)
{
	TRY(sdpipe_trace_define_graph(I, at, self->inst->pipe));
	RET(dalic_pyval_none());
}

static int sdpipe_meth_define_graph(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                    const pyargs_t *args, pyval_t **out)
{
	return dalic_pyeval_error(
	    I, at, DALIC_EINVAL,
	    "NotImplementedError: define_graph() must be overridden by Pipeline subclasses");
}

static int sdpipe_meth_current(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                               const pyargs_t *args, pyval_t **out)
{
	RET(I->ncurrent ? I->current[I->ncurrent - 1]->object : dalic_pyval_none());
}

static int sdpipe_meth_enter(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                             pyval_t **out)
{
	RET(self);
}

/* ---- DataNode methods ----------------------------------------------------------------- */

static int sdpipe_node_gpu(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	if (args->npos || args->nkw)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: gpu() takes no arguments");
	return dalic_sdarith_to_device(I, at, self, "gpu", out);
}

static int sdpipe_node_cpu(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	if (args->npos || args->nkw)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: cpu() takes no arguments");
	return dalic_sdarith_to_device(I, at, self, "cpu", out);
}

static int sdpipe_node_fn(pyinterp_t *I, const pynode_t *at, pyval_t *self, const char *path,
                          const pyargs_t *args, const char *key, pyval_t **out)
{
	int n = args->nkw + (key ? 1 : 0);
	const char **names = dalic_pyarena_alloc(I->a, sizeof *names * (size_t)(n + 1));
	pyval_t **vals = dalic_pyarena_alloc(I->a, sizeof *vals * (size_t)(n + 1));
	if (!names || !vals)
		return dalic_pyeval_oom(I, at);
	int k = 0;
	if (key) {
		names[k] = "key";
		if (!(vals[k++] = dalic_pyval_cstr(I->a, key)))
			return dalic_pyeval_oom(I, at);
	}
	for (int i = 0; i < args->nkw; i++) {
		names[k] = args->kwnames[i];
		vals[k++] = args->kwvals[i];
	}
	pyargs_t a = {.pos = &self, .npos = 1, .kwnames = names, .kwvals = vals, .nkw = k};
	return dalic_sdops_call_fn(I, at, path, &a, out);
}

static int sdpipe_node_shape(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                             pyval_t **out)
{
	if (args->npos)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: shape() takes keyword arguments only");
	return sdpipe_node_fn(I, at, self, "_shape", args, NULL, out);
}

static int sdpipe_node_property(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                const pyargs_t *args, pyval_t **out)
{
	if (args->npos != 1 || args->pos[0]->kind != PV_STR)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: property() takes the property name");
	pyargs_t rest = {.kwnames = args->kwnames, .kwvals = args->kwvals, .nkw = args->nkw};
	return sdpipe_node_fn(I, at, self, "get_property", &rest, args->pos[0]->str.s, out);
}

static int sdpipe_node_source_info(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                   const pyargs_t *args, pyval_t **out)
{
	pyargs_t rest = {.kwnames = args->kwnames, .kwvals = args->kwvals, .nkw = args->nkw};
	return sdpipe_node_fn(I, at, self, "get_property", &rest, "source_info", out);
}

/* node.get(): in DALI's debug mode, the node's TensorList of the current iteration. dalic
 * traces once and debug mode replays print() records each iteration, so get() marks the
 * node for printing its values. */
static int sdpipe_node_get(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	if (args->npos || args->nkw)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: get() takes no arguments");
	if (!self->node.pipe || !self->node.pipe->def->debug)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "DataNode.get() is available in debug mode only "
		                          "(@pipeline_def(debug=True))");
	pyval_t *v = dalic_sdval_node(I->a, self->node.name, self->node.device, self->node.pipe);
	if (!v)
		return dalic_pyeval_oom(I, at);
	v->node.get = true;
	RET(v);
}

/* ---- attribute lookup ----------------------------------------------------------------- */

static const struct {
	const char *name;
	pycfn_t fn;
} pipe_methods[] = {
    {"__init__", sdpipe_meth_init},
    {"set_outputs", sdpipe_meth_set_outputs},
    {"build", sdpipe_meth_build},
    {"define_graph", sdpipe_meth_define_graph},
    {"__enter__", sdpipe_meth_enter},
    {"run", sdpipe_meth_runlike},
    {"schedule_run", sdpipe_meth_runlike},
    {"outputs", sdpipe_meth_runlike},
    {"share_outputs", sdpipe_meth_runlike},
    {"release_outputs", sdpipe_meth_runlike},
    {"feed_input", sdpipe_meth_runlike},
    {"reset", sdpipe_meth_runlike},
    {"serialize", sdpipe_meth_runlike},
    {"save_graph_to_dot_file", sdpipe_meth_runlike},
    {"epoch_size", sdpipe_meth_runlike},
    {"reader_meta", sdpipe_meth_runlike},
    {"executor_statistics", sdpipe_meth_runlike},
    {"iter_setup", sdpipe_meth_runlike},
    {"empty", sdpipe_meth_runlike},
    {"checkpoint", sdpipe_meth_runlike},
    {"start_py_workers", sdpipe_meth_runlike},
    {"__exit__", sdpipe_meth_runlike},
};

int dalic_sdpipe_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *obj, const char *name,
                         pyval_t **out)
{
	*out = NULL;
	if (obj->kind == PV_NODE) {
		pycfn_t fn = !strcmp(name, "gpu")           ? sdpipe_node_gpu
		             : !strcmp(name, "cpu")         ? sdpipe_node_cpu
		             : !strcmp(name, "shape")       ? sdpipe_node_shape
		             : !strcmp(name, "property")    ? sdpipe_node_property
		             : !strcmp(name, "source_info") ? sdpipe_node_source_info
		             : !strcmp(name, "get")         ? sdpipe_node_get
		                                            : NULL;
		if (fn)
			RET(dalic_pybi_make(I, name, fn, obj, NULL));
		return DALIC_OK;
	}
	if (obj->kind == PV_CLASS) {
		if (!strcmp(name, "current"))
			RET(dalic_pybi_make(I, name, sdpipe_meth_current, NULL, NULL));
		if (!strcmp(name, "__init__"))
			RET(dalic_pybi_make(I, name, sdpipe_meth_init, NULL, NULL));
		return DALIC_OK;
	}
	for (size_t i = 0; i < sizeof pipe_methods / sizeof *pipe_methods; i++)
		if (!strcmp(pipe_methods[i].name, name)) {
			if (!obj->inst->pipe && pipe_methods[i].fn != sdpipe_meth_init)
				return dalic_pyeval_error(
				    I, at, DALIC_EINVAL,
				    "RuntimeError: Pipeline.__init__() was not called for "
				    "this %s object",
				    obj->inst->cls->name);
			RET(dalic_pybi_make(I, name, pipe_methods[i].fn, obj, NULL));
		}
	if (obj->inst->pipe)
		return dalic_sdpipe_param_attr(I, at, obj->inst->pipe, name, out);
	return DALIC_OK;
}

int dalic_sdpipe_open(pyinterp_t *I)
{
	pyclass_t *c = dalic_pyarena_alloc(I->a, sizeof *c);
	if (!c || !(c->attrs = dalic_pydict_new(I->a)))
		return DALIC_ENOMEM;
	c->name = "Pipeline";
	c->pipeline = true;
	I->pipeline_cls = c;
	return DALIC_OK;
}
