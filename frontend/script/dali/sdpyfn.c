/*
 * python_function (see sdpyfn.h): lending a script's function to the PythonFunction
 * operator, checking its body when the module has run, keeping the interpreter for the
 * definitions that use it, and calling it while the pipeline runs.
 */
#include "frontend/script/dali/sdpyfn.h"

#include "frontend/script/dali/sdfw.h"
#include "frontend/script/dali/sdops.h"
#include "frontend/script/dali/sdpipe.h"
#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pycall.h"
#include "frontend/script/py/pyexc.h"
#include "frontend/script/py/pyexec.h"
#include "frontend/script/py/pymod.h"
#include "frontend/script/py/pyscope.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool dalic_sdpyfn_is(const dalic_schema_t *s)
{
	return s && (!strcmp(s->name, "PythonFunction") || !strcmp(s->name, "TorchPythonFunction"));
}

static void sdpyfn_host_free(dalic_keep_t *k)
{
	sdpyhost_t *h = (sdpyhost_t *)k;
	for (sdpyfn_t *f = h->fns, *n; f; f = n) {
		n = f->next;
		dalic_callback_remove(f->id);
		free(f);
	}
	if (h->detached)
		dalic_pystate_close(&h->I);
	dalic_shared_release(h->shared);
	free(h->text);
	free(h->path);
	pthread_mutex_destroy(&h->lock);
	free(h);
}

/* The plain function a callable runs (a bound method's, a partial's, __call__'s), or NULL. */
static pyval_t *sdpyfn_underlying(pyinterp_t *I, pyval_t *v, int depth)
{
	if (depth > 8)
		return NULL;
	if (v->kind == PV_FUNC)
		return v;
	if (v->kind == PV_BOUND)
		return sdpyfn_underlying(I, v->bound.func, depth + 1);
	pyval_t *inner = NULL;
	if (v->kind == PV_INSTANCE)
		inner = dalic_pyexec_class_lookup(v->inst->cls, "__call__", NULL);
	else if (v->kind == PV_HOST && dalic_pyeval_getattr_opt(I, NULL, v, "func", &inner))
		inner = NULL; /* only functools.partial answers `func` */
	return inner ? sdpyfn_underlying(I, inner, depth + 1) : NULL;
}

/* ---- lending ---------------------------------------------------------------------------- */

static int sdpyfn_call(void *obj, const dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                       int num_outputs, dalic_cb_sample_t *out);

/* A function lent to operator `op` ("python_function") under a new id called by `call`. */
static int sdpyfn_new(pyinterp_t *I, const pynode_t *at, sdpipe_t *P, pyval_t *v,
                      const char *op, dalic_cb_call_fn call, sdpyfn_t **out)
{
	bool callable = v->kind == PV_FUNC || v->kind == PV_BOUND || v->kind == PV_BUILTIN ||
	                (v->kind == PV_HOST && v->host.type->call) ||
	                (v->kind == PV_INSTANCE &&
	                 dalic_pyexec_class_lookup(v->inst->cls, "__call__", NULL));
	if (!callable)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: %s: `%s` must be callable, not '%s'", op,
		                          call == sdpyfn_call ? "function" : "run_fn",
		                          dalic_pyval_type_name(v));
	sdstate_t *S = dalic_sdali_state(I);
	sdpyhost_t *h = S->pyhost;
	if (!h) {
		if (!(h = calloc(1, sizeof *h)))
			return dalic_pyeval_oom(I, at);
		h->keep.refs = 1; /* the load's own hold, dropped when it ends */
		h->keep.free = sdpyfn_host_free;
		pthread_mutex_init(&h->lock, NULL);
		S->pyhost = h;
	}
	sdpyfn_t *f = calloc(1, sizeof *f);
	if (!f)
		return dalic_pyeval_oom(I, at);
	f->next = h->fns;
	h->fns = f;
	f->host = h;
	f->func = v;
	f->op = op;
	f->line = at->line;
	f->col = at->col;
	pyval_t *u = sdpyfn_underlying(I, v, 0);
	snprintf(f->what, sizeof f->what, "%s '%s'", op,
	         u ? u->func->name : dalic_pyval_type_name(v));
	if (!(f->id = dalic_callback_add(call, f)))
		return dalic_pyeval_oom(I, at);
	if (P->def->keep != &h->keep) {
		dalic_keep_release(P->def->keep);
		P->def->keep = &h->keep;
		dalic_keep_retain(&h->keep);
	}
	*out = f;
	return DALIC_OK;
}

int dalic_sdpyfn_lend(pyinterp_t *I, const pynode_t *at, sdpipe_t *P, pyval_t *v,
                      pyval_t **out)
{
	sdpyfn_t *f;
	DALIC_TRY(sdpyfn_new(I, at, P, v, "python_function", sdpyfn_call, &f));
	PYEVAL_RET(dalic_pyval_int(I->a, f->id));
}

int dalic_sdnumba_lend(pyinterp_t *I, const pynode_t *at, sdpipe_t *P, pyval_t *run,
                       pyval_t *setup, pyval_t **out)
{
	sdpyfn_t *f;
	DALIC_TRY(sdpyfn_new(I, at, P, run, "numba_function", dalic_sdnumba_call, &f));
	f->setup = setup;
	PYEVAL_RET(dalic_pyval_int(I->a, f->id));
}

pyinterp_t *dalic_sdpyfn_enter(const sdpyfn_t *f)
{
	sdpyhost_t *h = f->host;
	if (!h->detached && !h->shared)
		return NULL;
	pthread_mutex_lock(h->shared ? h->shared_mu : (pthread_mutex_t *)&h->lock);
	return h->shared ? h->shared_I : (pyinterp_t *)&h->I;
}

void dalic_sdpyfn_leave(const sdpyfn_t *f)
{
	sdpyhost_t *h = f->host;
	pthread_mutex_unlock(h->shared ? h->shared_mu : (pthread_mutex_t *)&h->lock);
}

/* ---- checking the bodies ---------------------------------------------------------------- */

typedef struct sdpyfn_check {
	pyinterp_t *I;
	const sdpyfn_t *f;
	pyval_t *seen[32]; /* functions checked already (helpers called by the body) */
	int nseen;
} sdpyfn_check_t;

static int sdpyfn_refuse(sdpyfn_check_t *c, const pyfunc_t *fn, const char *fmt, const char *a,
                         const char *b)
{
	char detail[512];
	snprintf(detail, sizeof detail, fmt, a, b);
	pynode_t at = {.line = c->f->line, .col = c->f->col};
	return dalic_pyeval_error(c->I, &at, DALIC_EUNSUPPORTED,
	                          "%s: %s (in '%s', line %d); dalic runs %s bodies "
	                          "written in the Python subset of pipeline scripts, on data "
	                          "given as numpy arrays (docs/scripts-modules.md, %s)",
	                          c->f->what, detail, fn->name, fn->node ? fn->node->line : 0,
	                          c->f->op, c->f->op);
}

/* Statements that would change or load module state. */
static const pynode_t *sdpyfn_forbidden_stmt(const pynode_list_t *b)
{
	for (int i = 0; i < b->n; i++) {
		const pynode_t *s = b->v[i];
		switch (s->kind) {
		case S_GLOBAL:
		case S_NONLOCAL:
		case S_IMPORT:
		case S_IMPORTFROM:
			return s;
		default:
			break;
		}
		const pynode_list_t *subs[4] = {0};
		if (s->kind == S_IF) {
			subs[0] = &s->if_.body;
			subs[1] = &s->if_.orelse;
		} else if (s->kind == S_FOR) {
			subs[0] = &s->for_.body;
			subs[1] = &s->for_.orelse;
		} else if (s->kind == S_WHILE) {
			subs[0] = &s->while_.body;
			subs[1] = &s->while_.orelse;
		} else if (s->kind == S_WITH) {
			subs[0] = &s->with.body;
		} else if (s->kind == S_TRY) {
			subs[0] = &s->try_.body;
			subs[1] = &s->try_.orelse;
			subs[2] = &s->try_.finalbody;
			for (int h = 0; h < s->try_.nhandlers; h++) {
				const pynode_t *x = sdpyfn_forbidden_stmt(&s->try_.handlers[h].body);
				if (x)
					return x;
			}
		}
		for (int k = 0; k < 4 && subs[k]; k++) {
			const pynode_t *x = sdpyfn_forbidden_stmt(subs[k]);
			if (x)
				return x;
		}
	}
	return NULL;
}

static int sdpyfn_check_func(sdpyfn_check_t *c, pyval_t *fv, int depth);

/* A value the body reads from outside itself. */
static int sdpyfn_check_value(sdpyfn_check_t *c, const pyfunc_t *fn, const char *name,
                              pyval_t *v, int depth)
{
	if (v->kind == PV_OPAQUE)
		return sdpyfn_refuse(c, fn, "it uses '%s' (%s), which dalic does not evaluate", name,
		                     v->opaque.what);
	if (v->kind == PV_MODULE && v->mod->opaque && strcmp(v->mod->name, "numba"))
		return sdpyfn_refuse(c, fn, "it uses '%s' (the module %s, which dalic does not model)",
		                     name, v->mod->name);
	if (dalic_sdfw_is_module(v))
		return sdpyfn_refuse(c, fn, "it uses '%s' (%s: framework values are not evaluated)",
		                     name, dalic_pyval_type_name(v));
	if (dalic_sdval_node(v) || dalic_sdval_opfn(v) || dalic_sdval_opobj(v) ||
	    dalic_sdval_pipedef(v) || dalic_sdpipe_of(c->I, v))
		return sdpyfn_refuse(c, fn,
		                     "it uses '%s' (%s): DALI operators and pipelines do not run "
		                     "inside a python_function",
		                     name, dalic_pyval_type_name(v));
	if (v->kind == PV_FUNC || v->kind == PV_BOUND)
		return sdpyfn_check_func(c, v, depth + 1);
	return DALIC_OK;
}

/* The body of function fv: statements, then every outside name it reads. */
static int sdpyfn_check_func(sdpyfn_check_t *c, pyval_t *fv, int depth)
{
	pyval_t *u = sdpyfn_underlying(c->I, fv, 0);
	if (!u || depth > 8)
		return DALIC_OK;
	for (int i = 0; i < c->nseen; i++)
		if (c->seen[i]->func == u->func)
			return DALIC_OK;
	if (c->nseen < (int)(sizeof c->seen / sizeof *c->seen))
		c->seen[c->nseen++] = u;
	const pyfunc_t *fn = u->func;
	if (fn->info->generator)
		return sdpyfn_refuse(c, fn, "it is a generator (%s%s)", "yield", "");
	const pynode_t *bad = fn->body ? sdpyfn_forbidden_stmt(fn->body) : NULL;
	if (bad)
		return sdpyfn_refuse(c, fn, "it uses a `%s` statement (module state stays as the "
		                            "module left it)%s",
		                     bad->kind == S_GLOBAL      ? "global"
		                     : bad->kind == S_NONLOCAL  ? "nonlocal"
		                                                : "import",
		                     "");
	bool ok = true;
	pynameset_t used = fn->body ? dalic_pyscope_block_used_names(c->I->a, fn->body,
	                                                              (pynameset_t){0}, &ok)
	                            : dalic_pyscope_used_names(c->I->a, fn->expr, (pynameset_t){0},
	                                                       &ok);
	if (!ok)
		return dalic_pyeval_oom(c->I, NULL);
	/* names are looked up as the body will see them: a frame of its own (locals) under
	 * the one that defined it */
	pyframe_t *fr = dalic_pyexec_new_frame(c->I, FR_FUNCTION, fn->closure);
	if (!fr)
		return dalic_pyeval_oom(c->I, NULL);
	fr->lnames = fn->info->locals;
	fr->nlnames = fn->info->nlocals;
	fr->gnames = fn->info->globals;
	fr->ngnames = fn->info->nglobals;
	for (int i = 0; i < used.n; i++) {
		if (dalic_pyscope_set_has((pynameset_t){(const char **)fr->lnames, fr->nlnames},
		                          used.v[i]))
			continue;
		pyval_t *v;
		pynode_t at = {.line = fn->node ? fn->node->line : 1, .col = 1};
		if (dalic_pyeval_lookup(c->I, fr, &at, used.v[i], &v)) {
			dalic_pyexc_clear(c->I);
			return sdpyfn_refuse(c, fn, "it uses '%s', %s", used.v[i],
			                     "which is not defined when the module has run");
		}
		DALIC_TRY(sdpyfn_check_value(c, fn, used.v[i], v, depth));
	}
	return DALIC_OK;
}

int dalic_sdpyfn_check(pyinterp_t *I)
{
	sdpyhost_t *h = dalic_sdali_state(I)->pyhost;
	for (const sdpyfn_t *f = h ? h->fns : NULL; f; f = f->next) {
		sdpyfn_check_t c = {.I = I, .f = f};
		DALIC_TRY(sdpyfn_check_func(&c, f->func, 0));
		if (f->setup)
			DALIC_TRY(sdpyfn_check_func(&c, f->setup, 0));
	}
	return DALIC_OK;
}

/* ---- the load ends: the interpreter goes with the definitions ---------------------------- */

void dalic_sdpyfn_detach(sdstate_t *S)
{
	sdpyhost_t *h = S->pyhost;
	if (!h)
		return;
	S->pyhost = NULL;
	pyinterp_t *I = S->interp;
	h->text = strdup(I->src->text);
	h->path = strdup(I->src->path);
	if (h->text && h->path && I->a) {
		h->src = (pysrc_t){h->path, h->text, I->src->len};
		h->I = *I;
		h->I.src = &h->src;
		h->I.host = NULL;
		h->I.hooks = NULL;
		h->detached = true;
		/* the load's interpreter now owns nothing: closing it frees nothing of h's */
		I->a = NULL;
		I->first_skipped = NULL;
		I->live_gens = NULL;
		I->nlive_gens = 0;
		I->call = NULL;
	}
	dalic_keep_release(&h->keep);
}

void dalic_sdpyfn_share(sdstate_t *S, dalic_shared_t *rt, pthread_mutex_t *mu)
{
	sdpyhost_t *h = S->pyhost;
	if (!h)
		return;
	S->pyhost = NULL; /* not detached when the load closes: it is the runtime's */
	h->shared = dalic_shared_retain(rt);
	h->shared_I = S->interp;
	h->shared_mu = mu;
	dalic_keep_release(&h->keep); /* the load's own hold */
}

/* ---- calls while the pipeline runs ----------------------------------------------------- */

typedef struct sdpyfn_io {
	const sdpyfn_t *f;
	const dalic_ws_t *ws;
	int sample; /* -1: the whole batch */
	int num_outputs;
	dalic_dtype_t like; /* the inputs' common type (results of that kind keep it) */
	dalic_cb_sample_t *out;
} sdpyfn_io_t;

static int sdpyfn_args(pyinterp_t *I, void *ctx, pyargs_t *args)
{
	sdpyfn_io_t *io = ctx;
	const dalic_ws_t *ws = io->ws;
	pyval_t **pos = dalic_pyarena_alloc(I->a, sizeof *pos * (size_t)(ws->num_inputs + 1));
	if (!pos)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int k = 0; k < ws->num_inputs; k++) {
		if (io->sample >= 0) {
			DALIC_TRY(dalic_sdpyfn_to_py(I, NULL, ws->inputs[k], io->sample, &pos[k]));
			continue;
		}
		pyval_t *l = dalic_pyval_list(I->a, ws->batch_size);
		for (int s = 0; l && s < ws->batch_size; s++) {
			pyval_t *x;
			DALIC_TRY(dalic_sdpyfn_to_py(I, NULL, ws->inputs[k], s, &x));
			if (dalic_pyval_list_append(I->a, l, x))
				l = NULL;
		}
		if (!(pos[k] = l))
			return dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	args->pos = pos;
	args->npos = ws->num_inputs;
	return DALIC_OK;
}

/* Output o (of a tuple when there are several) of result r. */
static int sdpyfn_output(const sdpyfn_io_t *io, pyval_t *r, int o, pyval_t **out)
{
	if (io->num_outputs == 1) {
		*out = r;
		return DALIC_OK;
	}
	int n = r->kind == PV_TUPLE ? r->tuple.n : r->kind == PV_LIST ? r->list->n : -1;
	if (n != io->num_outputs)
		return dalic_fail(DALIC_EINVAL,
		                  "%s returned %s, not a tuple of num_outputs=%d outputs",
		                  io->f->what, dalic_pyval_type_name(r), io->num_outputs);
	*out = r->kind == PV_TUPLE ? r->tuple.items[o] : r->list->items[o];
	return DALIC_OK;
}

static int sdpyfn_take(pyinterp_t *I, void *ctx, pyval_t *r)
{
	sdpyfn_io_t *io = ctx;
	int n = io->ws->batch_size;
	if (!io->num_outputs)
		return DALIC_OK;
	for (int o = 0; o < io->num_outputs; o++) {
		pyval_t *v = NULL;
		DALIC_TRY(sdpyfn_output(io, r, o, &v));
		if (io->sample >= 0) {
			DALIC_TRY(dalic_sdpyfn_from_py(I, NULL, v, io->like, io->f->what,
			                               &io->out[o * n + io->sample]));
			continue;
		}
		int m = v->kind == PV_LIST ? v->list->n : v->kind == PV_TUPLE ? v->tuple.n : -1;
		if (m != n)
			return dalic_fail(DALIC_EINVAL,
			                  "%s (batch_processing) returned %s for output %d, not a list "
			                  "of %d samples",
			                  io->f->what, dalic_pyval_type_name(v), o, n);
		for (int s = 0; s < n; s++)
			DALIC_TRY(dalic_sdpyfn_from_py(
			    I, NULL, v->kind == PV_LIST ? v->list->items[s] : v->tuple.items[s],
			    io->like, io->f->what, &io->out[o * n + s]));
	}
	return DALIC_OK;
}

static int sdpyfn_call(void *obj, const dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                       int num_outputs, dalic_cb_sample_t *out)
{
	sdpyfn_t *f = obj;
	sdpyhost_t *h = f->host;
	if (!h->detached && !h->shared)
		return dalic_fail(DALIC_EUNSUPPORTED, "%s: the script's interpreter is not kept",
		                  f->what);
	pyinterp_t *I = h->shared ? h->shared_I : &h->I;
	pthread_mutex_t *mu = h->shared ? h->shared_mu : &h->lock;
	bool batch = dalic_arg_bool(ctx, "batch_processing");
	sdpyfn_io_t io = {.f = f, .ws = ws, .num_outputs = num_outputs, .out = out,
	                  .like = ws->num_inputs ? ws->inputs[0]->dtype : DALIC_NO_TYPE};
	for (int k = 1; k < ws->num_inputs; k++)
		if (ws->inputs[k]->dtype != io.like)
			io.like = DALIC_NO_TYPE;
	int rc = DALIC_OK;
	pthread_mutex_lock(mu);
	for (int s = batch ? -1 : 0; !rc && s < (batch ? 0 : ws->batch_size); s++) {
		io.sample = s;
		rc = dalic_pycall_run(I, f->func, f->what, sdpyfn_args, sdpyfn_take, &io);
		if (rc && s >= 0)
			dalic_fail_wrap(rc, "sample %d", s);
	}
	pthread_mutex_unlock(mu);
	return rc;
}

/* ---- the plugins -------------------------------------------------------------------------- */

static int sdpyfn_torch_fn(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	return dalic_sdops_plugin_call(I, at, false, "torch_python_function", args, out);
}

static int sdpyfn_torch_class(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                              const pyargs_t *args, pyval_t **out)
{
	return dalic_sdops_plugin_call(I, at, true, "TorchPythonFunction", args, out);
}

static int sdpyfn_open_module(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	/* opaque: the iterators and everything else of the plugin stay stand-ins */
	pyval_t *m = dalic_pymod_new(I, name, true), *sub;
	if (!m)
		return dalic_pyeval_oom(I, at);
	int rc = DALIC_OK;
	if (!strcmp(name, "nvidia.dali.plugin.pytorch")) {
		rc = dalic_pymod_set(I, m, "TorchPythonFunction",
		                     dalic_pybi_make(I, "TorchPythonFunction", sdpyfn_torch_class, NULL,
		                                     NULL));
		if (!rc && !(rc = dalic_pymod_get(I, at, "nvidia.dali.plugin.pytorch.fn", &sub)))
			rc = dalic_pymod_set(I, m, "fn", sub);
	} else if (!strcmp(name, "nvidia.dali.plugin.pytorch.fn")) {
		rc = dalic_pymod_set(I, m, "torch_python_function",
		                     dalic_pybi_make(I, "torch_python_function", sdpyfn_torch_fn, NULL,
		                                     NULL));
	} else {
		rc = dalic_sdnumba_module(I, at, name, m);
	}
	if (rc)
		return rc < 0 && rc != DALIC_ENOMEM ? rc : dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}

static const pymodreg_t sdpyfn_modules[] = {
    {"nvidia.dali.plugin.pytorch", sdpyfn_open_module},
    {"nvidia.dali.plugin.pytorch.fn", sdpyfn_open_module},
    {"nvidia.dali.plugin.numba", sdpyfn_open_module},
    {"nvidia.dali.plugin.numba.fn", sdpyfn_open_module},
    {"nvidia.dali.plugin.numba.fn.experimental", sdpyfn_open_module},
    {"numba", sdpyfn_open_module},
    {"nvidia.dali.plugin.numba.experimental", sdpyfn_open_module},
    {NULL, NULL},
};

int dalic_sdpyfn_open(pyinterp_t *I)
{
	return dalic_pymod_preload(I, sdpyfn_modules);
}
