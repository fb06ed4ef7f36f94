/*
 * @pipeline_def (and nvidia.dali.pipeline.experimental.pipeline_def): the decorator, with or
 * without arguments, and the call that creates a pipeline from the decorated function —
 * keyword arguments split between the function's own parameters and Pipeline's (decorator
 * values first, the call's win), `enable_conditionals` and `debug` taken out, then the
 * function is traced inside the new pipeline and its return value becomes the outputs.
 */
#include "frontend/script/py/pystate.h"

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
	sv_t *b =
	    sb_make(I, "pipeline_def", pipeline_def_fn, NULL, experimental ? (void *)1 : NULL);
	if (b)
		b->builtin.self =
		    b; /* lets pipeline_def_fn see whether it is the experimental one */
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

static int call_pipedef(sinterp_t *I, const snode_t *at, sv_t *pd, const sargs_t *args, sv_t **out);

int sp_call_pipedef(sinterp_t *I, const snode_t *at, sv_t *pd, const sargs_t *args, sv_t **out)
{
	I->creating++; /* errors from here on are about the pipeline: they stop the load */
	int rc = call_pipedef(I, at, pd, args, out);
	I->creating--;
	return rc;
}

static int call_pipedef(sinterp_t *I, const snode_t *at, sv_t *pd, const sargs_t *args, sv_t **out)
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
		} else if (sp_is_ctor_param(name)) {
			pnames[np] = name;
			pvals[np++] = args->kwvals[i];
		} else {
			return serr(
			    I, at, DALIC_EINVAL,
			    "TypeError: %s() got an unexpected keyword argument '%s' (neither "
			    "a parameter of the function nor of Pipeline)",
			    f->name, name);
		}
	}
	sv_t *obj = NULL;
	spipe_t *p;
	TRY(sp_new_object(I, at, &obj));
	int rc = sp_new_pipe(I, at, f->name, obj, &p);
	if (!rc)
		rc = sp_apply_params(I, at, p, pnames, pvals, np);
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
		sargs_t fa = {.pos = args->pos,
		              .npos = args->npos,
		              .kwnames = fnames,
		              .kwvals = fvals,
		              .nkw = nf};
		sv_t *r = NULL;
		if (!rc)
			rc = se_call(I, at, pd->pipedef.func, &fa, &r);
		if (!rc)
			rc = sp_outputs_of(I, at, p, r, false);
		sp_pop_current(I);
	}
	if (!rc)
		*out = obj;
	return rc;
}
