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
		return *out ? DALIC_OK : serr_oom(I, at);                                          \
	} while (0)

spipe_t *sp_of(const sv_t *v)
{
	return v && v->kind == SV_INSTANCE ? v->inst->pipe : NULL;
}

int sp_push_current(sinterp_t *I, const snode_t *at, spipe_t *p)
{
	if (I->ncurrent == (int)(sizeof I->current / sizeof *I->current))
		return serr(I, at, DALIC_EUNSUPPORTED, "pipelines nested too deeply");
	I->current[I->ncurrent++] = p;
	I->tracing++;
	return DALIC_OK;
}

void sp_pop_current(sinterp_t *I)
{
	I->ncurrent--;
	I->tracing--;
}

void sp_note_binding(sinterp_t *I, sframe_t *F, const char *name, sv_t *value)
{
	spipe_t *p = sp_of(value);
	if (!p)
		return;
	bool global = F->kind == FR_MODULE;
	/* the first module-level name wins; a function-local name only until one exists */
	if (!p->var_name || (global && !p->var_global)) {
		p->var_name = name;
		p->var_global = global;
	}
}

int sp_new_pipe(sinterp_t *I, const snode_t *at, const char *def_name, sv_t *obj, spipe_t **out)
{
	spipe_t *p = script_arena_alloc(I->a, sizeof *p);
	if (!p)
		return serr_oom(I, at);
	if (I->npipes == I->cappipes) {
		int cap = I->cappipes ? I->cappipes * 2 : 4;
		spipe_t **v = realloc(I->pipes, sizeof *v * (size_t)cap);
		if (!v)
			return serr_oom(I, at);
		I->pipes = v;
		I->cappipes = cap;
	}
	p->def = dalic_graphdef_new(NULL);
	if (!p->def)
		return serr_oom(I, at);
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

int sp_new_object(sinterp_t *I, const snode_t *at, sv_t **out)
{
	sv_t *obj = sv_new(I->a, SV_INSTANCE);
	if (!obj || !(obj->inst = script_arena_alloc(I->a, sizeof *obj->inst)) ||
	    !(obj->inst->attrs = svdict_new(I->a)))
		return serr_oom(I, at);
	obj->inst->cls = I->pipeline_cls;
	*out = obj;
	return DALIC_OK;
}

/* Pipeline.__init__(self, batch_size, num_threads, ...) */
static int m_init(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	sargs_t a = *args;
	if (!self) { /* Pipeline.__init__(self, ...) called on the class */
		if (!a.npos || a.pos[0]->kind != SV_INSTANCE || !a.pos[0]->inst->cls->pipeline)
			return serr(I, at, DALIC_EINVAL,
			            "TypeError: Pipeline.__init__() needs a Pipeline object as its "
			            "first argument");
		self = a.pos[0];
		a.pos++;
		a.npos--;
	}
	if (a.npos > SP_POSITIONAL_PARAMS)
		return serr(I, at, DALIC_EINVAL,
		            "TypeError: Pipeline.__init__() takes at most %d positional arguments",
		            SP_POSITIONAL_PARAMS + 1);
	const char **names = script_arena_alloc(I->a, sizeof *names * (size_t)(a.npos + a.nkw + 1));
	sv_t **vals = script_arena_alloc(I->a, sizeof *vals * (size_t)(a.npos + a.nkw + 1));
	if (!names || !vals)
		return serr_oom(I, at);
	int n = 0;
	for (int i = 0; i < a.npos; i++) {
		names[n] = sp_ctor_params[i];
		vals[n++] = a.pos[i];
	}
	for (int i = 0; i < a.nkw; i++) {
		for (int k = 0; k < a.npos; k++)
			if (!strcmp(sp_ctor_params[k], a.kwnames[i]))
				return serr(
				    I, at, DALIC_EINVAL,
				    "TypeError: Pipeline.__init__() got multiple values for "
				    "argument '%s'",
				    a.kwnames[i]);
		names[n] = a.kwnames[i];
		vals[n++] = a.kwvals[i];
	}
	spipe_t *p = self->inst->pipe;
	I->creating++;
	int rc = DALIC_OK;
	if (!p) {
		svclass_t *cls = self->inst->cls;
		rc = sp_new_pipe(I, at, cls == I->pipeline_cls ? "Pipeline" : cls->name, self, &p);
	}
	if (!rc)
		rc = sp_apply_params(I, at, p, names, vals, n);
	I->creating--;
	*out = sv_none();
	return rc;
}

/* ---- outputs -------------------------------------------------------------------------- */

static void clear_outputs(dalic_graphdef_t *g)
{
	for (int i = 0; i < g->num_outputs; i++) {
		free(g->outputs[i].name);
		free(g->outputs[i].device);
		free(g->outputs[i].arg_name);
		free(g->outputs[i].layout);
	}
	g->num_outputs = 0;
}

static bool contains_node(const sv_t *v, int depth)
{
	if (v->kind == SV_NODE || depth > 100)
		return v->kind == SV_NODE;
	sv_t **items = v->kind == SV_LIST    ? v->list->items
	               : v->kind == SV_TUPLE ? v->tuple.items
	                                     : NULL;
	int n = v->kind == SV_LIST ? v->list->n : v->kind == SV_TUPLE ? v->tuple.n : 0;
	for (int i = 0; i < n; i++)
		if (contains_node(items[i], depth + 1))
			return true;
	return false;
}

static int per_output(sinterp_t *I, const snode_t *at, spipe_t *p, sv_t *list, bool dtype)
{
	if (!list)
		return DALIC_OK;
	int n = list->kind == SV_LIST ? list->list->n : list->tuple.n;
	sv_t **items = list->kind == SV_LIST ? list->list->items : list->tuple.items;
	if (n != p->def->num_outputs)
		return serr(I, at, DALIC_EINVAL,
		            "ValueError: Lengths of provided output descriptions do not match. "
		            "Expected %d, got %d.",
		            p->def->num_outputs, n);
	for (int i = 0; i < n; i++) {
		dalic_io_t *o = &p->def->outputs[i];
		int v = -1;
		TRY(dtype ? sp_dtype_param(I, at, items[i], &v)
		          : sp_ndim_param(I, at, items[i], &v));
		if (dalic_graphdef_set_output_desc(p->def, i, dtype ? v : o->dtype,
		                                   dtype ? o->ndim : v, o->layout))
			return serr_relocate(I, at, DALIC_EINVAL);
	}
	return DALIC_OK;
}

static int set_outputs(sinterp_t *I, const snode_t *at, spipe_t *p, sv_t **outs, int n)
{
	clear_outputs(p->def);
	bool pushed = !I->ncurrent || I->current[I->ncurrent - 1] != p;
	if (pushed)
		TRY(sp_push_current(I, at, p));
	int rc = DALIC_OK;
	for (int i = 0; !rc && i < n; i++) {
		sv_t *v = outs[i];
		if (v->kind != SV_NODE) {
			if ((v->kind == SV_LIST || v->kind == SV_TUPLE) && contains_node(v, 0)) {
				rc = serr(
				    I, at, DALIC_EINVAL,
				    "TypeError: Illegal pipeline output type. The output %d "
				    "contains a nested `DataNode`. Missing list/tuple expansion "
				    "(*) is the likely cause.",
				    i);
				break;
			}
			if (v->kind == SV_OPAQUE) {
				rc = serr_opaque(I, at, v, "pipeline output");
				break;
			}
			/* Python values become CPU constants */
			rc = so_constant_node(I, at, v->kind == SV_SCONST ? v->sconst.value : v,
			                      v->kind == SV_SCONST ? v->sconst.dtype : -1, "cpu",
			                      &v);
			if (rc)
				break;
		} else if (v->node.pipe != p) {
			rc = serr(I, at, DALIC_EGRAPH,
			          "DataNode \"%s\" is an output of another pipeline", v->node.name);
			break;
		}
		if (dalic_graphdef_add_output(p->def, v->node.name, v->node.device))
			rc = serr_relocate(I, at, DALIC_EINVAL);
	}
	if (pushed)
		sp_pop_current(I);
	TRY(rc);
	TRY(per_output(I, at, p, p->output_dtype, true));
	TRY(per_output(I, at, p, p->output_ndim, false));
	p->outputs_set = true;
	return DALIC_OK;
}

static int m_set_outputs(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args,
                         sv_t **out)
{
	if (args->nkw)
		return serr(I, at, DALIC_EINVAL,
		            "TypeError: set_outputs() takes no keyword arguments");
	*out = sv_none();
	return set_outputs(I, at, self->inst->pipe, args->pos, args->npos);
}

/* Outputs of a pipeline function / define_graph: tuple, list (define_graph), one value. */
int sp_outputs_of(sinterp_t *I, const snode_t *at, spipe_t *p, sv_t *r, bool lists)
{
	if (r->kind == SV_TUPLE)
		return set_outputs(I, at, p, r->tuple.items, r->tuple.n);
	if (lists && r->kind == SV_LIST)
		return set_outputs(I, at, p, r->list->items, r->list->n);
	if (r->kind == SV_NONE)
		return set_outputs(I, at, p, NULL, 0);
	return set_outputs(I, at, p, &r, 1);
}

/* ---- define_graph subclasses ---------------------------------------------------------- */

static int trace_define_graph(sinterp_t *I, const snode_t *at, spipe_t *p)
{
	if (p->traced || p->tracing || p->outputs_set)
		return DALIC_OK;
	sv_t *dg = sx_class_lookup(p->object->inst->cls, "define_graph", NULL);
	if (!dg || dg->kind != SV_FUNC)
		return DALIC_OK;
	p->tracing = true;
	TRY(sp_push_current(I, at, p));
	sv_t *r;
	sargs_t none = {0};
	int rc = sx_call_function(I, at, dg->func, p->object, &none, &r);
	if (!rc)
		rc = sp_outputs_of(I, at, p, r, true);
	sp_pop_current(I);
	p->tracing = false;
	p->traced = true;
	return rc;
}

int sp_finish(sinterp_t *I)
{
	for (int i = 0; i < I->npipes; i++) {
		spipe_t *p = I->pipes[i];
		snode_t at = {.line = p->line, .col = p->col};
		TRY(trace_define_graph(I, &at, p));
	}
	return DALIC_OK;
}

/* build(), run() and the like: the graph must exist; results are not computed here */
static int m_runlike(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(trace_define_graph(I, at, self->inst->pipe));
	RET(sv_opaque(I->a, "pipeline results"));
}

static int m_build(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(trace_define_graph(I, at, self->inst->pipe));
	RET(sv_none());
}

static int m_define_graph(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args,
                          sv_t **out)
{
	return serr(
	    I, at, DALIC_EINVAL,
	    "NotImplementedError: define_graph() must be overridden by Pipeline subclasses");
}

static int m_current(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	RET(I->ncurrent ? I->current[I->ncurrent - 1]->object : sv_none());
}

static int m_enter(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	RET(self);
}

/* ---- DataNode methods ----------------------------------------------------------------- */

static int n_gpu(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	if (args->npos || args->nkw)
		return serr(I, at, DALIC_EINVAL, "TypeError: gpu() takes no arguments");
	return sa_to_device(I, at, self, "gpu", out);
}

static int n_cpu(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	if (args->npos || args->nkw)
		return serr(I, at, DALIC_EINVAL, "TypeError: cpu() takes no arguments");
	return sa_to_device(I, at, self, "cpu", out);
}

static int n_fn(sinterp_t *I, const snode_t *at, sv_t *self, const char *path, const sargs_t *args,
                const char *key, sv_t **out)
{
	int n = args->nkw + (key ? 1 : 0);
	const char **names = script_arena_alloc(I->a, sizeof *names * (size_t)(n + 1));
	sv_t **vals = script_arena_alloc(I->a, sizeof *vals * (size_t)(n + 1));
	if (!names || !vals)
		return serr_oom(I, at);
	int k = 0;
	if (key) {
		names[k] = "key";
		if (!(vals[k++] = sv_cstr(I->a, key)))
			return serr_oom(I, at);
	}
	for (int i = 0; i < args->nkw; i++) {
		names[k] = args->kwnames[i];
		vals[k++] = args->kwvals[i];
	}
	sargs_t a = {.pos = &self, .npos = 1, .kwnames = names, .kwvals = vals, .nkw = k};
	return so_call_fn(I, at, path, &a, out);
}

static int n_shape(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	if (args->npos)
		return serr(I, at, DALIC_EINVAL, "TypeError: shape() takes keyword arguments only");
	return n_fn(I, at, self, "_shape", args, NULL, out);
}

static int n_property(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	if (args->npos != 1 || args->pos[0]->kind != SV_STR)
		return serr(I, at, DALIC_EINVAL, "TypeError: property() takes the property name");
	sargs_t rest = {.kwnames = args->kwnames, .kwvals = args->kwvals, .nkw = args->nkw};
	return n_fn(I, at, self, "get_property", &rest, args->pos[0]->str.s, out);
}

static int n_source_info(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args,
                         sv_t **out)
{
	sargs_t rest = {.kwnames = args->kwnames, .kwvals = args->kwvals, .nkw = args->nkw};
	return n_fn(I, at, self, "get_property", &rest, "source_info", out);
}

/* node.get(): in DALI's debug mode, the node's TensorList of the current iteration. dalic
 * traces once and debug mode replays print() records each iteration, so get() marks the
 * node for printing its values. */
static int n_get(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	if (args->npos || args->nkw)
		return serr(I, at, DALIC_EINVAL, "TypeError: get() takes no arguments");
	if (!self->node.pipe || !self->node.pipe->def->debug)
		return serr(I, at, DALIC_EINVAL,
		            "DataNode.get() is available in debug mode only "
		            "(@pipeline_def(debug=True))");
	sv_t *v = sv_node(I->a, self->node.name, self->node.device, self->node.pipe);
	if (!v)
		return serr_oom(I, at);
	v->node.get = true;
	RET(v);
}

/* ---- attribute lookup ----------------------------------------------------------------- */

static const struct {
	const char *name;
	sbuiltin_fn fn;
} pipe_methods[] = {
    {"__init__", m_init},
    {"set_outputs", m_set_outputs},
    {"build", m_build},
    {"define_graph", m_define_graph},
    {"__enter__", m_enter},
    {"run", m_runlike},
    {"schedule_run", m_runlike},
    {"outputs", m_runlike},
    {"share_outputs", m_runlike},
    {"release_outputs", m_runlike},
    {"feed_input", m_runlike},
    {"reset", m_runlike},
    {"serialize", m_runlike},
    {"save_graph_to_dot_file", m_runlike},
    {"epoch_size", m_runlike},
    {"reader_meta", m_runlike},
    {"executor_statistics", m_runlike},
    {"iter_setup", m_runlike},
    {"empty", m_runlike},
    {"checkpoint", m_runlike},
    {"start_py_workers", m_runlike},
    {"__exit__", m_runlike},
};

int sp_getattr(sinterp_t *I, const snode_t *at, sv_t *obj, const char *name, sv_t **out)
{
	*out = NULL;
	if (obj->kind == SV_NODE) {
		sbuiltin_fn fn = !strcmp(name, "gpu")           ? n_gpu
		                 : !strcmp(name, "cpu")         ? n_cpu
		                 : !strcmp(name, "shape")       ? n_shape
		                 : !strcmp(name, "property")    ? n_property
		                 : !strcmp(name, "source_info") ? n_source_info
		                 : !strcmp(name, "get")         ? n_get
		                                                : NULL;
		if (fn)
			RET(sb_make(I, name, fn, obj, NULL));
		return DALIC_OK;
	}
	if (obj->kind == SV_CLASS) {
		if (!strcmp(name, "current"))
			RET(sb_make(I, name, m_current, NULL, NULL));
		if (!strcmp(name, "__init__"))
			RET(sb_make(I, name, m_init, NULL, NULL));
		return DALIC_OK;
	}
	for (size_t i = 0; i < sizeof pipe_methods / sizeof *pipe_methods; i++)
		if (!strcmp(pipe_methods[i].name, name)) {
			if (!obj->inst->pipe && pipe_methods[i].fn != m_init)
				return serr(I, at, DALIC_EINVAL,
				            "RuntimeError: Pipeline.__init__() was not called for "
				            "this %s object",
				            obj->inst->cls->name);
			RET(sb_make(I, name, pipe_methods[i].fn, obj, NULL));
		}
	if (obj->inst->pipe)
		return sp_param_attr(I, at, obj->inst->pipe, name, out);
	return DALIC_OK;
}

int sp_init(sinterp_t *I)
{
	svclass_t *c = script_arena_alloc(I->a, sizeof *c);
	if (!c || !(c->attrs = svdict_new(I->a)))
		return DALIC_ENOMEM;
	c->name = "Pipeline";
	c->pipeline = true;
	I->pipeline_cls = c;
	return DALIC_OK;
}
