/*
 * Pipeline objects and the three ways DALI scripts define them: a `@pipeline_def` function
 * called to create the pipeline (the function is traced at once, inside the new pipeline, as
 * DALI does), a `Pipeline(...)` object filled inside `with pipe:` and finished by
 * `pipe.set_outputs(...)`, and a Pipeline subclass whose `define_graph` is traced when the
 * script builds or runs it (or at the end of the script). Parameters come from the
 * decorator, then from the call that creates the pipeline (later wins), with DALI's
 * validation messages; methods that run the pipeline return opaque values so display code
 * after them is skipped. DataNode methods (.gpu(), .cpu(), .shape()...) live here too.
 */
#include "frontend/script_interp.h"

#include "engine/dtype.h"
#include "engine/error.h"

#include <stdlib.h>
#include <string.h>

#define TRY(x)                                                                                 \
	do {                                                                                   \
		int rc_ = (x);                                                                 \
		if (rc_)                                                                       \
			return rc_;                                                            \
	} while (0)
#define RET(v)                                                                                 \
	do {                                                                                   \
		*out = (v);                                                                    \
		return *out ? DALIC_OK : serr_oom(I, at);                                      \
	} while (0)

/* Pipeline.__init__ parameters: positional order first, then keyword-only ones */
static const char *const ctor_params[] = {
	"batch_size", "num_threads", "device_id", "seed", "exec_pipelined", "prefetch_queue_depth",
	"exec_async", "bytes_per_sample", "set_affinity", "max_streams",
	"default_cuda_stream_priority",
	/* keyword-only */
	"enable_memory_stats", "enable_checkpointing", "checkpoint", "py_num_workers",
	"py_start_method", "py_callback_pickler", "output_dtype", "output_ndim", "output_layout",
	"exec_dynamic", "experimental_exec_dynamic", NULL};
#define N_POSITIONAL_PARAMS 11

static bool is_ctor_param(const char *name)
{
	for (int i = 0; ctor_params[i]; i++)
		if (!strcmp(ctor_params[i], name))
			return true;
	return false;
}

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

/* ---- parameters ----------------------------------------------------------------------- */

static int want_int(sinterp_t *I, const snode_t *at, const char *name, sv_t *v, int64_t *out)
{
	if (v->kind == SV_INT || v->kind == SV_BOOL) {
		*out = v->kind == SV_BOOL ? v->b : v->i;
		return DALIC_OK;
	}
	if (v->kind == SV_OPAQUE)
		return serr_opaque(I, at, v, name);
	return serr(I, at, DALIC_EINVAL, "TypeError: pipeline parameter `%s` must be an int, not %s",
		    name, sv_type_name(v));
}

static int want_bool(sinterp_t *I, const snode_t *at, const char *name, sv_t *v, bool *out)
{
	if (v->kind == SV_OPAQUE)
		return serr_opaque(I, at, v, name);
	return se_truth(I, at, v, out);
}

static int dtype_param(sinterp_t *I, const snode_t *at, sv_t *v, int *out)
{
	if (v->kind == SV_NONE) {
		*out = DALIC_NO_TYPE;
		return DALIC_OK;
	}
	if (v->kind != SV_ENUM || v->en.type != ENUM_DTYPE)
		return serr(I, at, DALIC_EINVAL,
			    "TypeError: `output_dtype` must be either: a value from "
			    "nvidia.dali.types.DALIDataType, a list of these or None. Found type %s.",
			    sv_type_name(v));
	if (v->en.value == DALIC_NO_TYPE)
		return serr(I, at, DALIC_EINVAL,
			    "ValueError: `output_dtype` can't be a types.NO_TYPE. Found "
			    "DALIDataType.NO_TYPE.");
	*out = (int)v->en.value;
	return DALIC_OK;
}

static int ndim_param(sinterp_t *I, const snode_t *at, sv_t *v, int *out)
{
	if (v->kind == SV_NONE) {
		*out = -1;
		return DALIC_OK;
	}
	if (v->kind != SV_INT || v->i < 0)
		return serr(I, at, DALIC_EINVAL,
			    "ValueError: `output_ndim` must be a non-negative int, a list of these "
			    "or None");
	*out = (int)v->i;
	return DALIC_OK;
}

static int set_param(sinterp_t *I, const snode_t *at, spipe_t *p, const char *name, sv_t *v,
		     int *dynamic)
{
	dalic_pipeline_params_t *pp = &p->def->params;
	int64_t x;
	bool b;
	if (!strcmp(name, "batch_size")) {
		TRY(want_int(I, at, name, v, &x));
		pp->batch_size = x > INT32_MAX ? INT32_MAX : (int)x;
	} else if (!strcmp(name, "num_threads")) {
		TRY(want_int(I, at, name, v, &x));
		pp->num_threads = x > 4096 ? 4096 : (int)x;
	} else if (!strcmp(name, "device_id")) {
		if (v->kind == SV_NONE) {
			pp->device_id = DALIC_CPU_ONLY_DEVICE_ID;
		} else {
			TRY(want_int(I, at, name, v, &x));
			pp->device_id = (int)x;
		}
	} else if (!strcmp(name, "seed")) {
		if (v->kind == SV_NONE) {
			pp->seed = -1;
		} else {
			TRY(want_int(I, at, name, v, &x));
			pp->seed = x < 0 ? -1 : x;
		}
	} else if (!strcmp(name, "exec_pipelined")) {
		TRY(want_bool(I, at, name, v, &pp->exec_pipelined));
	} else if (!strcmp(name, "exec_async")) {
		TRY(want_bool(I, at, name, v, &pp->exec_async));
	} else if (!strcmp(name, "set_affinity")) {
		TRY(want_bool(I, at, name, v, &pp->set_affinity));
	} else if (!strcmp(name, "enable_memory_stats")) {
		TRY(want_bool(I, at, name, v, &pp->enable_memory_stats));
	} else if (!strcmp(name, "bytes_per_sample")) {
		TRY(want_int(I, at, name, v, &pp->bytes_per_sample));
	} else if (!strcmp(name, "prefetch_queue_depth")) {
		if (v->kind == SV_INT) {
			pp->separated_queues = false;
			pp->prefetch_cpu = pp->prefetch_gpu = v->i > 1024 ? 1024 : (int)v->i;
		} else if (v->kind == SV_DICT) {
			sv_t *cpu = svdict_get_str(v->dict, "cpu_size");
			sv_t *gpu = svdict_get_str(v->dict, "gpu_size");
			if (!cpu || !gpu)
				return serr(I, at, DALIC_EINVAL,
					    "KeyError: prefetch_queue_depth needs 'cpu_size' and "
					    "'gpu_size'");
			int64_t c, g;
			TRY(want_int(I, at, "cpu_size", cpu, &c));
			TRY(want_int(I, at, "gpu_size", gpu, &g));
			pp->separated_queues = true;
			pp->prefetch_cpu = c > 1024 ? 1024 : (int)c;
			pp->prefetch_gpu = g > 1024 ? 1024 : (int)g;
		} else if (v->kind == SV_OPAQUE) {
			return serr_opaque(I, at, v, name);
		} else {
			return serr(I, at, DALIC_EINVAL,
				    "TypeError: Expected prefetch_queue_depth to be either int or "
				    "Dict[int, int]");
		}
	} else if (!strcmp(name, "output_dtype")) {
		if (v->kind == SV_LIST || v->kind == SV_TUPLE) {
			int n = v->kind == SV_LIST ? v->list->n : v->tuple.n;
			sv_t **items = v->kind == SV_LIST ? v->list->items : v->tuple.items;
			for (int i = 0; i < n; i++) {
				int d;
				TRY(dtype_param(I, at, items[i], &d));
			}
			p->output_dtype = v;
			pp->output_dtype = DALIC_NO_TYPE;
		} else {
			TRY(dtype_param(I, at, v, &pp->output_dtype));
			p->output_dtype = NULL;
		}
	} else if (!strcmp(name, "output_ndim")) {
		if (v->kind == SV_LIST || v->kind == SV_TUPLE) {
			int n = v->kind == SV_LIST ? v->list->n : v->tuple.n;
			sv_t **items = v->kind == SV_LIST ? v->list->items : v->tuple.items;
			for (int i = 0; i < n; i++) {
				int d;
				TRY(ndim_param(I, at, items[i], &d));
			}
			p->output_ndim = v;
			pp->output_ndim = -1;
		} else {
			TRY(ndim_param(I, at, v, &pp->output_ndim));
			p->output_ndim = NULL;
		}
	} else if (!strcmp(name, "exec_dynamic") || !strcmp(name, "experimental_exec_dynamic")) {
		if (v->kind != SV_NONE) {
			TRY(want_bool(I, at, name, v, &b));
			*dynamic = b;
		}
	}
	/* max_streams, checkpointing, Python worker settings, output_layout: no effect here */
	return DALIC_OK;
}

/* Applies keyword parameters in order; DALI's checks on the result. */
static int apply_params(sinterp_t *I, const snode_t *at, spipe_t *p, const char *const *names,
			sv_t *const *vals, int n)
{
	int dynamic = -1;
	for (int i = 0; i < n; i++) {
		if (!is_ctor_param(names[i]))
			return serr(I, at, DALIC_EINVAL,
				    "TypeError: Pipeline.__init__() got an unexpected keyword argument "
				    "'%s'",
				    names[i]);
		TRY(set_param(I, at, p, names[i], vals[i], &dynamic));
	}
	dalic_pipeline_params_t *pp = &p->def->params;
	if (pp->separated_queues && !pp->exec_async)
		return serr(I, at, DALIC_EINVAL,
			    "ValueError: `exec_async` must not evaluate to `False` when using "
			    "separated queues.");
	/* DALI's dynamic executor (needed for GPU -> CPU) is the default when it can run */
	bool possible = pp->exec_async && pp->exec_pipelined && !pp->separated_queues;
	p->exec_dynamic = dynamic < 0 ? possible : dynamic && possible;
	p->dynamic_off_reason = pp->separated_queues ? "is not compatible with separated CPU/GPU queues"
				: !(pp->exec_async && pp->exec_pipelined)
					? "requires `exec_async` and `exec_pipelined` to be enabled"
					: "was explicitly disabled in this pipeline";
	return DALIC_OK;
}

static int new_pipe(sinterp_t *I, const snode_t *at, const char *def_name, sv_t *obj,
		    spipe_t **out)
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

static int new_pipeline_object(sinterp_t *I, const snode_t *at, sv_t **out)
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
	if (a.npos > N_POSITIONAL_PARAMS)
		return serr(I, at, DALIC_EINVAL,
			    "TypeError: Pipeline.__init__() takes at most %d positional arguments",
			    N_POSITIONAL_PARAMS + 1);
	const char **names = script_arena_alloc(I->a, sizeof *names * (size_t)(a.npos + a.nkw + 1));
	sv_t **vals = script_arena_alloc(I->a, sizeof *vals * (size_t)(a.npos + a.nkw + 1));
	if (!names || !vals)
		return serr_oom(I, at);
	int n = 0;
	for (int i = 0; i < a.npos; i++) {
		names[n] = ctor_params[i];
		vals[n++] = a.pos[i];
	}
	for (int i = 0; i < a.nkw; i++) {
		for (int k = 0; k < a.npos; k++)
			if (!strcmp(ctor_params[k], a.kwnames[i]))
				return serr(I, at, DALIC_EINVAL,
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
		rc = new_pipe(I, at, cls == I->pipeline_cls ? "Pipeline" : cls->name, self, &p);
	}
	if (!rc)
		rc = apply_params(I, at, p, names, vals, n);
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

static bool contains_node(const sv_t *v)
{
	if (v->kind == SV_NODE)
		return true;
	sv_t **items = v->kind == SV_LIST ? v->list->items : v->kind == SV_TUPLE ? v->tuple.items : NULL;
	int n = v->kind == SV_LIST ? v->list->n : v->kind == SV_TUPLE ? v->tuple.n : 0;
	for (int i = 0; i < n; i++)
		if (contains_node(items[i]))
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
		TRY(dtype ? dtype_param(I, at, items[i], &v) : ndim_param(I, at, items[i], &v));
		if (dalic_graphdef_set_output_desc(p->def, i, dtype ? v : o->dtype, dtype ? o->ndim : v,
						   o->layout))
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
			if ((v->kind == SV_LIST || v->kind == SV_TUPLE) && contains_node(v)) {
				rc = serr(I, at, DALIC_EINVAL,
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
					      v->kind == SV_SCONST ? v->sconst.dtype : -1, "cpu", &v);
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
static int outputs_of(sinterp_t *I, const snode_t *at, spipe_t *p, sv_t *r, bool lists)
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
		rc = outputs_of(I, at, p, r, true);
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
static int m_runlike(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args,
		     sv_t **out)
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
	return serr(I, at, DALIC_EINVAL,
		    "NotImplementedError: define_graph() must be overridden by Pipeline subclasses");
}

static int m_current(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args,
		     sv_t **out)
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

static int n_fn(sinterp_t *I, const snode_t *at, sv_t *self, const char *path,
		const sargs_t *args, const char *key, sv_t **out)
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

static int n_property(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args,
		      sv_t **out)
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

/* ---- attribute lookup ----------------------------------------------------------------- */

static int param_attr(sinterp_t *I, const snode_t *at, spipe_t *p, const char *name, sv_t **out)
{
	const dalic_pipeline_params_t *pp = &p->def->params;
	*out = NULL;
	if (!strcmp(name, "batch_size") || !strcmp(name, "max_batch_size"))
		*out = sv_int(I->a, pp->batch_size);
	else if (!strcmp(name, "num_threads"))
		*out = sv_int(I->a, pp->num_threads);
	else if (!strcmp(name, "device_id"))
		*out = pp->device_id == DALIC_CPU_ONLY_DEVICE_ID ? sv_none()
								 : sv_int(I->a, pp->device_id);
	else if (!strcmp(name, "seed"))
		*out = sv_int(I->a, pp->seed);
	else if (!strcmp(name, "exec_pipelined"))
		*out = sv_bool(pp->exec_pipelined);
	else if (!strcmp(name, "exec_async"))
		*out = sv_bool(pp->exec_async);
	else if (!strcmp(name, "set_affinity"))
		*out = sv_bool(pp->set_affinity);
	else if (!strcmp(name, "enable_memory_stats"))
		*out = sv_bool(pp->enable_memory_stats);
	else if (!strcmp(name, "exec_dynamic"))
		*out = sv_bool(p->exec_dynamic);
	else if (!strcmp(name, "prefetch_queue_depth"))
		*out = sv_int(I->a, pp->prefetch_cpu);
	else
		return DALIC_OK;
	return *out ? DALIC_OK : serr_oom(I, at);
}

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
		sbuiltin_fn fn = !strcmp(name, "gpu")		  ? n_gpu
				 : !strcmp(name, "cpu")		  ? n_cpu
				 : !strcmp(name, "shape")	  ? n_shape
				 : !strcmp(name, "property")	  ? n_property
				 : !strcmp(name, "source_info") ? n_source_info
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
		return param_attr(I, at, obj->inst->pipe, name, out);
	return DALIC_OK;
}

/* ---- @pipeline_def -------------------------------------------------------------------- */

static int make_pipedef(sinterp_t *I, const snode_t *at, sv_t *func, svdict_t *kwargs,
			bool experimental, sv_t **out)
{
	if (func->kind != SV_FUNC)
		return serr(I, at, DALIC_EINVAL,
			    "TypeError: @pipeline_def decorates a function, not %s",
			    sv_type_name(func));
	sv_t *pd = sv_new(I->a, SV_PIPEDEF);
	if (!pd)
		return serr_oom(I, at);
	pd->pipedef.func = func;
	pd->pipedef.kwargs = kwargs;
	pd->pipedef.experimental = experimental;
	*out = pd;
	return DALIC_OK;
}

static int deco_with_args(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args,
			  sv_t **out)
{
	if (args->npos != 1 || args->nkw)
		return serr(I, at, DALIC_EINVAL,
			    "TypeError: the pipeline_def(...) decorator takes one function");
	/* self is (keyword arguments of the decorator, experimental) */
	return make_pipedef(I, at, args->pos[0], self->tuple.items[0]->dict,
			    self->tuple.items[1]->b, out);
}

static int pipeline_def_fn(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args,
			   sv_t **out)
{
	bool experimental = self && self->builtin.data;
	svdict_t *kw = svdict_new(I->a);
	if (!kw)
		return serr_oom(I, at);
	for (int i = 0; i < args->nkw; i++)
		if (svdict_set_str(I->a, kw, args->kwnames[i], args->kwvals[i]))
			return serr_oom(I, at);
	if (args->npos == 1)
		return make_pipedef(I, at, args->pos[0], kw, experimental, out);
	if (args->npos > 1)
		return serr(I, at, DALIC_EINVAL, "TypeError: pipeline_def() takes one function");
	/* @pipeline_def(...): a decorator remembering the arguments */
	sv_t *state = sv_tuple(I->a, 2), *kwv = sv_new(I->a, SV_DICT);
	if (!state || !kwv)
		return serr_oom(I, at);
	kwv->dict = kw;
	state->tuple.items[0] = kwv;
	state->tuple.items[1] = sv_bool(experimental);
	RET(sb_make(I, "pipeline_def", deco_with_args, state, NULL));
}

sv_t *sp_pipeline_def_builtin(sinterp_t *I, bool experimental)
{
	sv_t *b = sb_make(I, "pipeline_def", pipeline_def_fn, NULL, experimental ? (void *)1 : NULL);
	if (b)
		b->builtin.self = b; /* lets pipeline_def_fn see whether it is the experimental one */
	return b;
}

static bool fn_has_param(const svfunc_t *f, const char *name)
{
	for (int i = 0; i < f->params->n; i++)
		if ((f->params->v[i].kind == P_NORMAL || f->params->v[i].kind == P_KWONLY) &&
		    !strcmp(f->params->v[i].name, name))
			return true;
	return false;
}

static int call_pipedef(sinterp_t *I, const snode_t *at, sv_t *pd, const sargs_t *args,
			sv_t **out);

int sp_call_pipedef(sinterp_t *I, const snode_t *at, sv_t *pd, const sargs_t *args, sv_t **out)
{
	I->creating++; /* errors from here on are about the pipeline: they stop the load */
	int rc = call_pipedef(I, at, pd, args, out);
	I->creating--;
	return rc;
}

static int call_pipedef(sinterp_t *I, const snode_t *at, sv_t *pd, const sargs_t *args,
			sv_t **out)
{
	svfunc_t *f = pd->pipedef.func->func;
	for (int i = 0; i < f->params->n; i++)
		if (f->params->v[i].kind == P_VARKW)
			return serr(I, at, DALIC_EINVAL,
				    "TypeError: Using variadic keyword argument `**%s` in a  "
				    "graph-defining function is not allowed.",
				    f->params->v[i].name);
	svdict_t *dk = pd->pipedef.kwargs;
	int cap = svdict_len(dk) + args->nkw + 1, np = 0, nf = 0;
	const char **pnames = script_arena_alloc(I->a, sizeof *pnames * (size_t)cap);
	sv_t **pvals = script_arena_alloc(I->a, sizeof *pvals * (size_t)cap);
	const char **fnames = script_arena_alloc(I->a, sizeof *fnames * (size_t)cap);
	sv_t **fvals = script_arena_alloc(I->a, sizeof *fvals * (size_t)cap);
	if (!pnames || !pvals || !fnames || !fvals)
		return serr_oom(I, at);
	bool conditionals = false, debug = false;
	sv_t *k, *v;
	/* decorator arguments first, then the call's: later wins */
	for (int it = 0; svdict_next(dk, &it, &k, &v);) {
		if (!strcmp(k->str.s, "enable_conditionals"))
			TRY(se_truth(I, at, v, &conditionals));
		else if (!strcmp(k->str.s, "debug"))
			TRY(se_truth(I, at, v, &debug));
		else {
			pnames[np] = k->str.s;
			pvals[np++] = v;
		}
	}
	for (int i = 0; i < args->nkw; i++) {
		const char *name = args->kwnames[i];
		if (fn_has_param(f, name)) {
			fnames[nf] = name;
			fvals[nf++] = args->kwvals[i];
		} else if (!strcmp(name, "enable_conditionals")) {
			TRY(se_truth(I, at, args->kwvals[i], &conditionals));
		} else if (!strcmp(name, "debug")) {
			TRY(se_truth(I, at, args->kwvals[i], &debug));
		} else if (is_ctor_param(name)) {
			pnames[np] = name;
			pvals[np++] = args->kwvals[i];
		} else {
			return serr(I, at, DALIC_EINVAL,
				    "TypeError: %s() got an unexpected keyword argument '%s' (neither "
				    "a parameter of the function nor of Pipeline)",
				    f->name, name);
		}
	}
	sv_t *obj = NULL;
	spipe_t *p;
	TRY(new_pipeline_object(I, at, &obj));
	int rc = new_pipe(I, at, f->name, obj, &p);
	if (!rc)
		rc = apply_params(I, at, p, pnames, pvals, np);
	if (!rc) {
		p->def->debug = debug;
		p->conditionals = conditionals;
		if (conditionals && sc_new(I, p))
			rc = serr_oom(I, at);
	}
	if (!rc)
		rc = sp_push_current(I, at, p);
	if (!rc) {
		for (int i = 0; !rc && p->cond && i < args->npos; i++)
			if (args->pos[i]->kind == SV_NODE)
				rc = sc_register(I, args->pos[i], false);
		sargs_t fa = {.pos = args->pos, .npos = args->npos, .kwnames = fnames,
			      .kwvals = fvals, .nkw = nf};
		sv_t *r = NULL;
		if (!rc)
			rc = se_call(I, at, pd->pipedef.func, &fa, &r);
		if (!rc)
			rc = outputs_of(I, at, p, r, false);
		sp_pop_current(I);
	}
	if (!rc)
		*out = obj;
	return rc;
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
