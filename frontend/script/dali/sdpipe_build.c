/*
 * Pipelines a module defines but never builds (the `pipelines.py` a training script imports):
 * @pipeline_def functions and Pipeline subclasses bound at module level that created no
 * pipeline while the module ran. dalic builds one the way its caller would: the function
 * called, or the class instantiated, with keyword arguments from `--arg` (DALI's Pipeline
 * parameters among them), defaults for the rest; a required parameter nobody gives is an
 * error naming it, except that a subclass's __init__ parameter named like one of Pipeline's
 * (batch_size, num_threads, device_id...) is filled from the matching command-line flag.
 */
#include "frontend/script/dali/sdpipe.h"

#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyexec.h"

#include <string.h>

static bool sdpipe_is_subclass(pyinterp_t *I, const pyval_t *v)
{
	sdstate_t *S = dalic_sdali_state(I);
	return v->kind == PV_CLASS && v->cls != S->pipeline_cls &&
	       dalic_pyexec_is_subclass(v->cls, S->pipeline_cls);
}

static const char *sdpipe_defined_name(const pyval_t *v)
{
	sdpipedef_t *d = dalic_sdval_pipedef(v);
	return d ? d->func->func->name : v->cls->name;
}

int dalic_sdpipe_defined(pyinterp_t *I, sddefined_t **out, int *n, int factories)
{
	sdstate_t *S = dalic_sdali_state(I);
	int cap = dalic_pydict_len(I->globals->locals) + 1;
	sddefined_t *v = dalic_pyarena_alloc(I->a, sizeof *v * (size_t)cap);
	if (!v)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	*n = 0;
	pyval_t *k, *val;
	for (int it = 0; dalic_pydict_next(I->globals->locals, &it, &k, &val);) {
		if (!dalic_sdval_pipedef(val) && !sdpipe_is_subclass(I, val))
			continue;
		const char *fname = sdpipe_defined_name(val);
		bool built = false, dup = false;
		for (int i = 0; i < S->npipes && !built; i++)
			built = S->pipes[i]->def_name && !strcmp(S->pipes[i]->def_name, fname);
		for (int i = 0; i < *n && !dup; i++)
			dup = v[i].value == val;
		if (built || dup)
			continue;
		v[*n] = (sddefined_t){.name = k->str.s, .value = val};
		(*n)++;
	}
	*out = v;
	if (factories == SDPIPE_FACTORIES_ALL || (factories == SDPIPE_FACTORIES_FALLBACK && !*n))
		DALIC_TRY(dalic_sdfactory_find(I, out, n, &cap));
	return DALIC_OK;
}

/* ---- building ------------------------------------------------------------------------- */

static int sdpipe_find_arg(const sdbuild_t *b, const char *name)
{
	for (int i = 0; i < b->nargs; i++)
		if (!strcmp(b->names[i], name))
			return i;
	return -1;
}

static bool sdpipe_param_named(const pyparams_t *ps, int from, const char *name)
{
	for (int i = from; i < ps->n; i++)
		if ((ps->v[i].kind == P_NORMAL || ps->v[i].kind == P_KWONLY) &&
		    !strcmp(ps->v[i].name, name))
			return true;
	return false;
}

/* A Pipeline parameter from the caller's flags, as a script value; NULL when not set. */
static pyval_t *sdpipe_flag_value(pyinterp_t *I, const sdbuild_t *b, const char *name)
{
	const dalic_pipeline_params_t *p = b->params;
	unsigned f = b->fields;
	if (!p)
		return NULL;
	if (!strcmp(name, "batch_size") && (f & DALIC_PARAM_BATCH_SIZE))
		return dalic_pyval_int(I->a, p->batch_size);
	if (!strcmp(name, "num_threads") && (f & DALIC_PARAM_NUM_THREADS))
		return dalic_pyval_int(I->a, p->num_threads);
	if (!strcmp(name, "device_id") && (f & DALIC_PARAM_DEVICE_ID))
		return p->device_id == DALIC_CPU_ONLY_DEVICE_ID ? dalic_pyval_none()
		                                                : dalic_pyval_int(I->a, p->device_id);
	if (!strcmp(name, "seed") && (f & DALIC_PARAM_SEED))
		return dalic_pyval_int(I->a, p->seed);
	if (!strcmp(name, "prefetch_queue_depth") && (f & DALIC_PARAM_PREFETCH) &&
	    !p->separated_queues)
		return dalic_pyval_int(I->a, p->prefetch_cpu);
	if (!strcmp(name, "exec_pipelined") && (f & DALIC_PARAM_EXEC_PIPELINED))
		return dalic_pyval_bool(p->exec_pipelined);
	if (!strcmp(name, "exec_async") && (f & DALIC_PARAM_EXEC_ASYNC))
		return dalic_pyval_bool(p->exec_async);
	return NULL;
}

static const char *sdpipe_flag_of(const char *name)
{
	static const char *const flags[][2] = {
	    {"batch_size", "--batch-size"},      {"num_threads", "--num-threads"},
	    {"device_id", "--device-id"},        {"seed", "--seed"},
	    {"prefetch_queue_depth", "--prefetch-queue-depth"},
	    {"exec_pipelined", "--exec-pipelined"}, {"exec_async", "--exec-async"},
	};
	for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
		if (!strcmp(flags[i][0], name))
			return flags[i][1];
	return NULL;
}

/* "data_dir, crop=224": the signature for messages */
static const char *sdpipe_signature(pyinterp_t *I, const pyfunc_t *f, int from)
{
	pybuf_t b = {0};
	for (int i = from; f && i < f->params->n; i++) {
		const pyparam_t *p = &f->params->v[i];
		dalic_pybuf_printf(&b, "%s%s%s", i > from ? ", " : "",
		                   p->kind == P_VARARGS ? "*" : p->kind == P_VARKW ? "**" : "", p->name);
		if (f->defaults && f->defaults[i]) {
			dalic_pybuf_puts(&b, "=");
			dalic_pyval_format(&b, f->defaults[i], true);
		}
	}
	char *s = b.oom ? NULL : dalic_pyarena_strndup(I->a, b.s ? b.s : "", b.n);
	dalic_pybuf_free(&b);
	return s ? s : "...";
}

/* Keyword arguments for a call of a function with parameters ps (from `from` on). */
int dalic_sdpipe_build_kwargs(pyinterp_t *I, const pynode_t *at, const char *what,
                              const pyfunc_t *fn, int from, bool takes_pipeline_params,
                              const sdbuild_t *b, pyargs_t *args)
{
	static const pyparams_t none = {0};
	const pyparams_t *ps = fn ? fn->params : &none;
	int cap = ps->n + b->nargs + 1;
	const char **names = dalic_pyarena_alloc(I->a, sizeof *names * (size_t)cap);
	pyval_t **vals = dalic_pyarena_alloc(I->a, sizeof *vals * (size_t)cap);
	if (!names || !vals)
		return dalic_pyeval_oom(I, at);
	int n = 0;
	bool varkw = false;
	for (int i = from; i < ps->n; i++)
		varkw |= ps->v[i].kind == P_VARKW;
	/* every --arg must name a parameter */
	for (int i = 0; i < b->nargs; i++) {
		const char *nm = b->names[i];
		bool ok = sdpipe_param_named(ps, from, nm) || varkw ||
		          (takes_pipeline_params &&
		           (dalic_sdpipe_is_ctor_param(nm) || !strcmp(nm, "enable_conditionals") ||
		            !strcmp(nm, "debug")));
		if (!ok)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "--arg %s: %s(%s) has no parameter '%s'%s", nm, what,
			                          sdpipe_signature(I, fn, from), nm,
			                          takes_pipeline_params ? " (nor has Pipeline)" : "");
		names[n] = nm;
		vals[n++] = b->values[i];
	}
	for (int i = from; i < ps->n; i++) {
		const pyparam_t *p = &ps->v[i];
		if ((p->kind != P_NORMAL && p->kind != P_KWONLY) || p->def ||
		    sdpipe_find_arg(b, p->name) >= 0)
			continue;
		pyval_t *flag = takes_pipeline_params ? NULL : sdpipe_flag_value(I, b, p->name);
		if (flag) {
			names[n] = p->name;
			vals[n++] = flag;
			continue;
		}
		const char *f = sdpipe_flag_of(p->name);
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "%s(%s) needs '%s': pass --arg %s=VALUE%s%s", what,
		                          sdpipe_signature(I, fn, from), p->name, p->name,
		                          f && !takes_pipeline_params ? " or " : "",
		                          f && !takes_pipeline_params ? f : "");
	}
	*args = (pyargs_t){.kwnames = names, .kwvals = vals, .nkw = n};
	return DALIC_OK;
}

int dalic_sdpipe_build_pipedef(pyinterp_t *I, pyval_t *v, const sdbuild_t *b)
{
	pyfunc_t *f = dalic_sdval_pipedef(v)->func->func;
	const pynode_t *at = f->node;
	pyargs_t args;
	DALIC_TRY(dalic_sdpipe_build_kwargs(I, at, f->name, f, 0, true, b, &args));
	pyval_t *obj;
	return dalic_sdpipe_call_def(I, at, v, &args, &obj);
}

static int sdpipe_build_class(pyinterp_t *I, pyval_t *v, const sdbuild_t *b)
{
	pyclass_t *cls = v->cls;
	pyval_t *init = dalic_pyexec_class_lookup(cls, "__init__", NULL);
	pynode_t line1 = {.line = 1, .col = 1};
	const pynode_t *at = init && init->kind == PV_FUNC ? init->func->node : &line1;
	pyargs_t args = {0};
	const char *what = dalic_pyarena_printf(I->a, "%s.__init__", cls->name);
	if (!what)
		return dalic_pyeval_oom(I, at);
	if (init && init->kind == PV_FUNC)
		DALIC_TRY(dalic_sdpipe_build_kwargs(I, at, what, init->func, 1, false, b, &args));
	else if (b->nargs) /* Pipeline's own __init__: --arg gives its parameters */
		DALIC_TRY(dalic_sdpipe_build_kwargs(I, at, what, NULL, 0, true, b, &args));
	sdstate_t *S = dalic_sdali_state(I);
	S->creating++; /* any error while building it stops the load */
	pyval_t *obj;
	int rc = dalic_pyexec_instantiate(I, at, cls, &args, &obj);
	sdpipe_t *p = rc ? NULL : dalic_sdpipe_of(I, obj);
	if (!rc && !p)
		rc = dalic_pyeval_error(I, at, DALIC_EINVAL,
		                        "RuntimeError: %s.__init__() did not call "
		                        "Pipeline.__init__ (super().__init__(...))",
		                        cls->name);
	if (!rc)
		rc = dalic_sdpipe_trace(I, at, p);
	S->creating--;
	return rc;
}

int dalic_sdpipe_build_defined(pyinterp_t *I, const sddefined_t *d, const sdbuild_t *b,
                               sdpipe_t **out)
{
	sdstate_t *S = dalic_sdali_state(I);
	int before = S->npipes;
	if (d->factory) {
		S->creating++; /* any error while building it stops the load */
		int rc = dalic_sdfactory_build(I, d, b);
		S->creating--;
		DALIC_TRY(rc);
	} else {
		DALIC_TRY(dalic_sdval_pipedef(d->value) ? dalic_sdpipe_build_pipedef(I, d->value, b)
		                                        : sdpipe_build_class(I, d->value, b));
	}
	if (S->npipes == before)
		return dalic_fail(DALIC_EINVAL, "%s created no pipeline", d->name);
	*out = S->pipes[before];
	if (d->factory) { /* a subclass made inside: its define_graph */
		pynode_t line1 = {.line = (*out)->line, .col = (*out)->col};
		DALIC_TRY(dalic_sdpipe_trace(I, &line1, *out));
	}
	if (!(*out)->var_name || d->factory)
		(*out)->var_name = d->name;
	return DALIC_OK;
}
