/*
 * @pipeline_def (and nvidia.dali.pipeline.experimental.pipeline_def): the decorator, with or
 * without arguments, and the call that creates a pipeline from the decorated function —
 * keyword arguments split between the function's own parameters and Pipeline's (decorator
 * values first, the call's win), `enable_conditionals` and `debug` taken out, then the
 * function is traced inside the new pipeline and its return value becomes the outputs.
 */
#include "frontend/script/dali/sdpipe.h"

#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pydict.h"

#include <string.h>

/* ---- @pipeline_def -------------------------------------------------------------------- */

static int sdpipe_make_pipedef(pyinterp_t *I, const pynode_t *at, pyval_t *func, pydict_t *kwargs,
                               bool experimental, pyval_t **out)
{
	if (func->kind != PV_FUNC)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: @pipeline_def decorates a function, not %s",
		                          dalic_pyval_type_name(func));
	*out = dalic_sdval_new_pipedef(I->a, func, kwargs, experimental);
	return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
}

static int sdpipe_deco_with_args(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                 const pyargs_t *args, pyval_t **out)
{
	if (args->npos != 1 || args->nkw)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "TypeError: the pipeline_def(...) decorator takes one function");
	/* self is (keyword arguments of the decorator, experimental) */
	return sdpipe_make_pipedef(I, at, args->pos[0], self->tuple.items[0]->dict,
	                           self->tuple.items[1]->b, out);
}

static int sdpipe_pipeline_def_fn(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                  const pyargs_t *args, pyval_t **out)
{
	bool experimental = self && self->builtin.data;
	pydict_t *kw = dalic_pydict_new(I->a);
	if (!kw)
		return dalic_pyeval_oom(I, at);
	for (int i = 0; i < args->nkw; i++)
		if (dalic_pydict_set_str(I->a, kw, args->kwnames[i], args->kwvals[i]))
			return dalic_pyeval_oom(I, at);
	if (args->npos == 1)
		return sdpipe_make_pipedef(I, at, args->pos[0], kw, experimental, out);
	if (args->npos > 1)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: pipeline_def() takes one function");
	/* @pipeline_def(...): a decorator remembering the arguments */
	pyval_t *state = dalic_pyval_tuple(I->a, 2), *kwv = dalic_pyval_new(I->a, PV_DICT);
	if (!state || !kwv)
		return dalic_pyeval_oom(I, at);
	kwv->dict = kw;
	state->tuple.items[0] = kwv;
	state->tuple.items[1] = dalic_pyval_bool(experimental);
	PYEVAL_RET(dalic_pybi_make(I, "pipeline_def", sdpipe_deco_with_args, state, NULL));
}

pyval_t *dalic_sdpipe_def_builtin(pyinterp_t *I, bool experimental)
{
	pyval_t *b = dalic_pybi_make(I, "pipeline_def", sdpipe_pipeline_def_fn, NULL,
	                             experimental ? (void *)1 : NULL);
	if (b)
		b->builtin.self =
		    b; /* lets pipeline_def_fn see whether it is the experimental one */
	return b;
}

static bool sdpipe_fn_has_param(const pyfunc_t *f, const char *name)
{
	for (int i = 0; i < f->params->n; i++)
		if ((f->params->v[i].kind == P_NORMAL || f->params->v[i].kind == P_KWONLY) &&
		    !strcmp(f->params->v[i].name, name))
			return true;
	return false;
}

static int sdpipe_call_pipedef(pyinterp_t *I, const pynode_t *at, pyval_t *pd, const pyargs_t *args,
                               pyval_t **out);

static int sdpipe_prepend(pyinterp_t *I, const pynode_t *at, pyval_t *first, pyargs_t *a)
{
	pyval_t **pos = dalic_pyarena_alloc(I->a, sizeof *pos * (size_t)(a->npos + 1));
	if (!pos)
		return dalic_pyeval_oom(I, at);
	pos[0] = first;
	memcpy(pos + 1, a->pos, sizeof *pos * (size_t)a->npos);
	a->pos = pos;
	a->npos++;
	return DALIC_OK;
}

int dalic_sdpipe_call_def(pyinterp_t *I, const pynode_t *at, pyval_t *pd, const pyargs_t *args,
                          pyval_t **out)
{
	sdstate_t *S = dalic_sdali_state(I);
	S->creating++; /* errors from here on are about the pipeline: they stop the load */
	int rc = sdpipe_call_pipedef(I, at, pd, args, out);
	S->creating--;
	return rc;
}

static int sdpipe_call_pipedef(pyinterp_t *I, const pynode_t *at, pyval_t *pd, const pyargs_t *args,
                               pyval_t **out)
{
	sdpipedef_t *def = dalic_sdval_pipedef(pd);
	pyfunc_t *f = def->func->func;
	for (int i = 0; i < f->params->n; i++)
		if (f->params->v[i].kind == P_VARKW)
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: Using variadic keyword argument `**%s` in a  "
			    "graph-defining function is not allowed.",
			    f->params->v[i].name);
	pydict_t *dk = def->kwargs;
	int cap = dalic_pydict_len(dk) + args->nkw + 1, np = 0, nf = 0;
	const char **pnames = dalic_pyarena_alloc(I->a, sizeof *pnames * (size_t)cap);
	pyval_t **pvals = dalic_pyarena_alloc(I->a, sizeof *pvals * (size_t)cap);
	const char **fnames = dalic_pyarena_alloc(I->a, sizeof *fnames * (size_t)cap);
	pyval_t **fvals = dalic_pyarena_alloc(I->a, sizeof *fvals * (size_t)cap);
	if (!pnames || !pvals || !fnames || !fvals)
		return dalic_pyeval_oom(I, at);
	bool conditionals = false, debug = false;
	pyval_t *k, *v;
	/* decorator arguments first, then the call's: later wins */
	for (int it = 0; dalic_pydict_next(dk, &it, &k, &v);) {
		if (!strcmp(k->str.s, "enable_conditionals"))
			DALIC_TRY(dalic_pyeval_truth(I, at, v, &conditionals));
		else if (!strcmp(k->str.s, "debug"))
			DALIC_TRY(dalic_pyeval_truth(I, at, v, &debug));
		else {
			pnames[np] = k->str.s;
			pvals[np++] = v;
		}
	}
	for (int i = 0; i < args->nkw; i++) {
		const char *name = args->kwnames[i];
		if (sdpipe_fn_has_param(f, name)) {
			fnames[nf] = name;
			fvals[nf++] = args->kwvals[i];
		} else if (!strcmp(name, "enable_conditionals")) {
			DALIC_TRY(dalic_pyeval_truth(I, at, args->kwvals[i], &conditionals));
		} else if (!strcmp(name, "debug")) {
			DALIC_TRY(dalic_pyeval_truth(I, at, args->kwvals[i], &debug));
		} else if (dalic_sdpipe_is_ctor_param(name)) {
			pnames[np] = name;
			pvals[np++] = args->kwvals[i];
		} else {
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: %s() got an unexpected keyword argument '%s' (neither "
			    "a parameter of the function nor of Pipeline)",
			    f->name, name);
		}
	}
	pyval_t *obj = NULL;
	sdpipe_t *p;
	DALIC_TRY(dalic_sdpipe_new_object(I, at, &obj));
	int rc = dalic_sdpipe_new(I, at, f->name, obj, &p);
	if (!rc)
		rc = dalic_sdpipe_apply_params(I, at, p, pnames, pvals, np);
	if (!rc) {
		p->def->debug = debug;
		p->conditionals = conditionals;
		if (conditionals && dalic_sdcond_new(I, p))
			rc = dalic_pyeval_oom(I, at);
	}
	if (!rc)
		rc = dalic_sdpipe_push(I, at, p);
	if (!rc) {
		for (int i = 0; !rc && p->cond && i < args->npos; i++)
			if (dalic_sdval_node(args->pos[i]))
				rc = dalic_sdcond_register(I, args->pos[i], false);
		pyargs_t fa = {.pos = args->pos,
		               .npos = args->npos,
		               .kwnames = fnames,
		               .kwvals = fvals,
		               .nkw = nf};
		if (def->self && !rc) /* a bound @pipeline_def method: self comes first */
			rc = sdpipe_prepend(I, at, def->self, &fa);
		pyval_t *r = NULL;
		if (!rc)
			rc = dalic_pyeval_call(I, at, def->func, &fa, &r);
		if (!rc)
			rc = dalic_sdpipe_outputs_of(I, at, p, r, false);
		dalic_sdpipe_pop(I);
	}
	if (!rc)
		*out = obj;
	return rc;
}
