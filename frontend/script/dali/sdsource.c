/*
 * external_source(source=...) when the pipeline is defined (see sdsource.h): the source is
 * classified and checked as DALI's get_callback_from_source does, DALI's definition-time
 * calls are made (a generator function called, iter() of the iterable), and the group is
 * recorded with its pipeline for the runtime to install when a pipeline is built.
 */
#include "frontend/script/dali/sdsource.h"

#include "frontend/script/dali/sdpipe.h"
#include "frontend/script/dali/sdruntime.h"
#include "frontend/script/py/pyexc.h"
#include "frontend/script/py/pyexec.h"
#include "frontend/script/py/pygen.h"
#include "frontend/script/py/pyiter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The function a callable runs (a bound method's, a partial's, __call__'s), or NULL. */
static pyval_t *sdsource_function(pyinterp_t *I, pyval_t *v, int depth)
{
	if (depth > 8)
		return NULL;
	if (v->kind == PV_FUNC)
		return v;
	if (v->kind == PV_BOUND)
		return sdsource_function(I, v->bound.func, depth + 1);
	pyval_t *inner = NULL;
	if (v->kind == PV_INSTANCE)
		inner = dalic_pyexec_class_lookup(v->inst->cls, "__call__", NULL);
	else if (v->kind == PV_HOST && dalic_pyeval_getattr_opt(I, NULL, v, "func", &inner))
		inner = NULL; /* only functools.partial answers `func` */
	return inner ? sdsource_function(I, inner, depth + 1) : NULL;
}

/* DALI's _is_generator_function. */
static bool sdsource_is_genfunc(pyinterp_t *I, pyval_t *v)
{
	if (v->kind == PV_INSTANCE && !dalic_pyexec_class_lookup(v->inst->cls, "__call__", NULL))
		return false;
	pyval_t *f = sdsource_function(I, v, 0);
	return f && f->func->info && f->func->info->generator;
}

static bool sdsource_callable(pyval_t *v)
{
	return v->kind == PV_FUNC || v->kind == PV_BOUND || v->kind == PV_BUILTIN ||
	       v->kind == PV_CLASS || (v->kind == PV_HOST && v->host.type->call) ||
	       (v->kind == PV_INSTANCE &&
	        dalic_pyexec_class_lookup(v->inst->cls, "__call__", NULL));
}

/* DALI's _cycle_enabled: None / False / "no", True / "quiet", "raise". */
static int sdsource_cycle(pyinterp_t *I, const pynode_t *at, pyval_t *v, int *out)
{
	if (!v || v->kind == PV_NONE || (v->kind == PV_BOOL && !v->b) ||
	    (v->kind == PV_STR && !strcmp(v->str.s, "no"))) {
		*out = SDSRC_CYCLE_NO;
		return DALIC_OK;
	}
	if ((v->kind == PV_BOOL && v->b) || (v->kind == PV_STR && !strcmp(v->str.s, "quiet"))) {
		*out = SDSRC_CYCLE_QUIET;
		return DALIC_OK;
	}
	if (v->kind == PV_STR && !strcmp(v->str.s, "raise")) {
		*out = SDSRC_CYCLE_RAISE;
		return DALIC_OK;
	}
	pyval_t *r;
	DALIC_TRY(dalic_pyeval_str(I, at, v, true, &r));
	return dalic_pyeval_error(I, at, DALIC_EINVAL,
	                          "ValueError: Invalid value %s for the argument `cycle`. Valid "
	                          "values are\n  - \"no\", False or None - cycling disabled\n  - "
	                          "\"quiet\", True - quietly rewind the data\n  - \"raise\" - "
	                          "raise StopIteration on each rewind.",
	                          r->str.s);
}

/* DALI's accepted_arg_count: 0 or 1 positional parameters, no *args, **kwargs or
 * keyword-only ones. Callables dalic cannot see into (built-ins) take none. */
static int sdsource_arg_count(pyinterp_t *I, const pynode_t *at, pyval_t *v, int *out)
{
	*out = 0;
	pyval_t *f = sdsource_function(I, v, 0);
	if (!f || !f->func->params)
		return DALIC_OK;
	static const char msg[] = "TypeError: The `source` callable must accept either 0 or 1 "
	                          "positional arguments to indicate whether it accepts the batch "
	                          "or sample indexing information.";
	const pyparams_t *ps = f->func->params;
	int n = 0;
	for (int i = 0; i < ps->n; i++) {
		const pyparam_t *p = &ps->v[i];
		if (p->kind == P_VARARGS)
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "%s Found var-positional argument `*%s` which is not "
			    "allowed.",
			    msg, p->name);
		if (p->kind == P_VARKW)
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "%s Found var-keyword argument `**%s` which is not "
			    "allowed.",
			    msg, p->name);
		if (p->kind == P_KWONLY)
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "%s Found keyword-only argument `%s` which is not "
			    "allowed.",
			    msg, p->name);
		n++;
	}
	/* a method (bound, or an instance's __call__) takes self implicitly */
	if (v->kind == PV_BOUND || v->kind == PV_INSTANCE)
		n--;
	if (n < 0 || n > 1)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "%s Found more than one positional argument, which is not "
		    "allowed.",
		    msg);
	*out = n;
	return DALIC_OK;
}

/* iter(v) as Python's built-in: *out NULL (no error) when v is not iterable. */
static int sdsource_iter(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t **out)
{
	*out = NULL;
	bool lazy_kind = dalic_pyiter_is_lazy(I, v);
	if (!lazy_kind && v->kind != PV_LIST && v->kind != PV_TUPLE && v->kind != PV_DICT &&
	    v->kind != PV_STR &&
	    !(v->kind == PV_HOST && v->host.type->getitem && !sdsource_callable(v)))
		return DALIC_OK;
	pyiter_t it;
	bool opaque;
	DALIC_TRY(dalic_pyiter_open(I, at, v, &it, &opaque));
	if (opaque)
		return dalic_pyeval_opaque_error(I, at, v, "external_source: cannot iterate");
	if (it.lazy && !it.by_index) {
		*out = it.lazy;
		return DALIC_OK;
	}
	pyval_t **items = it.items;
	int n = it.n;
	if (it.lazy)
		DALIC_TRY(dalic_pyiter_drain(I, at, v, &items, &n));
	PYEVAL_RET(dalic_pyiter_over(I, items, n, "iterator"));
}

int dalic_sdsource_reiter(pyinterp_t *I, sdsource_t *src)
{
	pyval_t *v = src->source;
	if (src->kind == SDSRC_GENFUNC)
		DALIC_TRY(dalic_pyeval_call(I, &src->at, src->source, &(pyargs_t){0}, &v));
	DALIC_TRY(sdsource_iter(I, &src->at, v, &src->iter));
	if (!src->iter)
		return dalic_pyeval_error(I, &src->at, DALIC_EINVAL,
		                          "TypeError: '%s' object is not iterable",
		                          dalic_pyval_type_name(v));
	return DALIC_OK;
}

/* get_callback_from_source: kind, cycle, the iterator made now, the callable's arguments. */
static int sdsource_classify(pyinterp_t *I, sdsource_t *src, pyval_t *cycle_v)
{
	const pynode_t *at = &src->at;
	pyval_t *v = src->source;
	DALIC_TRY(sdsource_cycle(I, at, cycle_v, &src->cycle));
	bool genfunc = sdsource_is_genfunc(I, v);
	if (src->cycle != SDSRC_CYCLE_NO && dalic_pyval_is(v, &dalic_pygen_type))
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "TypeError: Cannot cycle through a generator - if the "
		    "generator is a result of calling a generator function, pass "
		    "that function instead as `source`.");
	src->kind = genfunc ? SDSRC_GENFUNC : SDSRC_ITERABLE;
	if (genfunc) {
		pyval_t *g;
		DALIC_TRY(dalic_pyeval_call(I, at, v, &(pyargs_t){0}, &g));
		DALIC_TRY(sdsource_iter(I, at, g, &src->iter));
	} else {
		DALIC_TRY(sdsource_iter(I, at, v, &src->iter));
	}
	if (src->iter)
		return DALIC_OK;
	/* not iterable: a callable */
	if (cycle_v && cycle_v->kind != PV_NONE)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "ValueError: The argument `cycle` can only be specified if "
		    "`source` is iterable.");
	if (!sdsource_callable(v))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: The `source` must be callable, iterable or a "
		                          "parameterless generator function.");
	src->kind = SDSRC_CALLABLE;
	int n;
	DALIC_TRY(sdsource_arg_count(I, at, v, &n));
	src->accepts_arg = n > 0;
	return DALIC_OK;
}

static pyval_t *sdsource_kwarg(const sdopcall_t *c, const char *name)
{
	for (int i = 0; i < c->nkw; i++)
		if (!strcmp(c->kwnames[i], name))
			return c->kwvals[i];
	return NULL;
}

static int sdsource_bool_arg(pyinterp_t *I, const pynode_t *at, const sdopcall_t *c,
                             const char *name, bool dflt, bool *out)
{
	pyval_t *v = sdsource_kwarg(c, name);
	if (!v || v->kind == PV_NONE) {
		*out = dflt;
		return DALIC_OK;
	}
	return dalic_pyeval_truth(I, at, v, out);
}

int dalic_sdsource_add(pyinterp_t *I, const pynode_t *at, struct sdpipe *P, const sdopcall_t *c,
                       pyval_t *out, int num_outputs)
{
	sdstate_t *S = dalic_sdali_state(I);
	sdsource_t *src = dalic_pyarena_alloc(I->a, sizeof *src);
	int n = num_outputs ? num_outputs : 1;
	if (!src || !(src->members = dalic_pyarena_alloc(I->a, sizeof *src->members * (size_t)n)))
		return dalic_pyeval_oom(I, at);
	src->pipe = P;
	src->source = sdsource_kwarg(c, "source");
	src->at = (pynode_t){.line = at->line, .col = at->col};
	src->num_outputs = n;
	src->tuple = num_outputs > 0;
	src->ended_at = -1;
	bool parallel;
	DALIC_TRY(sdsource_bool_arg(I, at, c, "parallel", false, &parallel));
	DALIC_TRY(sdsource_bool_arg(I, at, c, "batch", !parallel, &src->batch));
	DALIC_TRY(sdsource_bool_arg(I, at, c, "batch_info", false, &src->batch_info));
	for (int i = 0; i < n; i++) {
		const sdnode_t *node = dalic_sdval_node(num_outputs ? out->tuple.items[i] : out);
		if (!node)
			return dalic_pyeval_error(I, at, DALIC_ESTATE,
			                          "external_source: output %d is not a data node",
			                          i);
		src->members[i] = (sdsrc_member_t){.src = src, .name = node->name, .index = i};
	}
	src->what = dalic_pyarena_printf(I->a, "external_source '%s'%s", src->members[0].name,
	                                 n > 1 ? " (and the other outputs of its source)" : "");
	if (!src->what)
		return dalic_pyeval_oom(I, at);
	int rc = sdsource_classify(I, src, sdsource_kwarg(c, "cycle"));
	if (rc == DALIC_EUNSUPPORTED) {
		/* the source reaches code dalic does not model: not run (the load warns) */
		src->refused = dalic_pyarena_strdup(I->a, dalic_last_error());
		dalic_pyexc_clear(I);
		rc = src->refused ? DALIC_OK : dalic_pyeval_oom(I, at);
	}
	if (rc)
		return rc;
	if (parallel && src->kind == SDSRC_CALLABLE && !src->accepts_arg)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "TypeError: Callable passed to External Source in parallel mode (when "
		    "`parallel=True`) must accept exactly one argument: "
		    "`nvidia.dali.types.SampleInfo` if run with `batch=False` or either "
		    "`nvidia.dali.types.BatchInfo` or integer that represents the index of the "
		    "batch "
		    "within the epoch if `batch=True`. Got a callable that does not accept "
		    "arguments "
		    "instead.");
	if (parallel && src->kind != SDSRC_CALLABLE && !src->batch)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "TypeError: Parallel external source with %s must be run in a batch mode "
		    "(specify `batch=True` in the external source definition and make sure your "
		    "source returns batches)",
		    src->kind == SDSRC_ITERABLE ? "an iterable" : "a generator function");
	src->next = S->sources;
	S->sources = src;
	return DALIC_OK;
}

/* ---- the runtime installs them --------------------------------------------------------- */

int dalic_sdsource_install(dalic_shared_t *s, int batch_size,
                           int (*install)(void *ctx, const char *name, dalic_source_fn fn,
                                          void *user),
                           void *ctx)
{
	sdruntime_t *rt = (sdruntime_t *)s;
	sdstate_t *S = dalic_sdali_state(rt->I);
	int rc = DALIC_OK;
	pthread_mutex_lock(&rt->mu);
	for (sdsource_t *src = S->sources; src && !rc; src = src->next) {
		if (src->pipe != rt->pipe || src->refused)
			continue;
		src->rt = rt;
		src->batch_size = batch_size;
		src->restart = src->installs++ > 0;
		for (int i = 0; i < src->num_outputs && !rc; i++)
			rc = install(ctx, src->members[i].name, dalic_sdsource_run,
			             &src->members[i]);
	}
	pthread_mutex_unlock(&rt->mu);
	return rc;
}

void dalic_sdsource_free(sdstate_t *S)
{
	for (sdsource_t *src = S->sources; src; src = src->next) {
		for (int i = 0; src->out && i < src->num_outputs; i++) {
			free(src->out[i].shapes);
			free(src->out[i].data);
		}
		free(src->out);
		src->out = NULL;
	}
}
