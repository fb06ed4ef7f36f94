/*
 * Generator objects (see pygen.h): each owns a coroutine from its first resume until its
 * body ends; while it runs, I->gen points at it, and the interpreter counters of the side
 * that is not running wait in the generator.
 */
#include "frontend/script/py/pygen.h"

#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pycall.h"
#include "frontend/script/py/pycoro.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyexc.h"
#include "frontend/script/py/pyexec.h"
#include "frontend/script/py/pyiter.h"

#include <string.h>

enum { PYGEN_CREATED, PYGEN_SUSPENDED, PYGEN_RUNNING, PYGEN_DONE };

struct pygen {
	pyinterp_t *I;
	const char *name;
	/* a generator function's call ... */
	pyfunc_t *func;
	pyframe_t *frame;
	/* ... or a generator expression over a lazy iterable */
	const pynode_t *expr;
	pyval_t *first;
	pycoro_t *co;
	int state;
	bool closing;
	uint64_t exit_hash; /* message of the GeneratorExit close() raised at the yield */
	pyval_t *value; /* yielded out, or sent in */
	pyval_t *retval;
	int rc; /* status the body ended with */
	/* the generator's side while it waits (relative to its resumer for depth and loops) */
	int depth, loops;
	pyframe_t *at_frame;
	pyval_t *handling;
	struct pygen *next_live, *prev_live;
};

static pygen_t *pygen_of(const pyval_t *v)
{
	return dalic_pyval_is(v, &dalic_pygen_type) ? v->host.data : NULL;
}

/* ---- the coroutine body --------------------------------------------------------------- */

static void pygen_body(void *arg)
{
	pygen_t *g = arg;
	pyinterp_t *I = g->I;
	if (g->func) {
		int rc = dalic_pyexec_block(I, g->frame, g->func->body);
		if (rc == PYEXEC_RETURN)
			rc = DALIC_OK;
		if (rc < 0 && !I->fatal && dalic_pyexc_pending_is(I, "StopIteration"))
			/* PEP 479: a StopIteration escaping the body would end the loop silently */
			rc = dalic_pyeval_error(I, g->func->node, DALIC_EINVAL,
			                        "RuntimeError: generator raised StopIteration");
		g->retval = g->frame->retval->kind == PV_UNDEF ? dalic_pyval_none() : g->frame->retval;
		g->rc = rc < 0 ? rc : DALIC_OK;
	} else {
		g->rc = dalic_pyeval_comprehension(I, g->frame, g->expr, g->first, NULL);
		g->retval = dalic_pyval_none();
	}
}

/* ---- switching ------------------------------------------------------------------------ */

static void pygen_unlink(pyinterp_t *I, pygen_t *g)
{
	if (g->prev_live)
		g->prev_live->next_live = g->next_live;
	else if (I->live_gens == g)
		I->live_gens = g->next_live;
	if (g->next_live)
		g->next_live->prev_live = g->prev_live;
	g->next_live = g->prev_live = NULL;
	I->nlive_gens--;
}

static int pygen_start(pyinterp_t *I, const pynode_t *at, pygen_t *g)
{
	if (I->nlive_gens >= PYGEN_MAX_LIVE)
		return dalic_pyeval_limit(I, at,
		                          "more than %d generators are started and unfinished at "
		                          "once",
		                          PYGEN_MAX_LIVE);
	if (!(g->co = dalic_pycoro_new(pygen_body, g)))
		return dalic_pyeval_oom(I, at);
	g->next_live = I->live_gens;
	if (I->live_gens)
		I->live_gens->prev_live = g;
	I->live_gens = g;
	I->nlive_gens++;
	return DALIC_OK;
}

int dalic_pygen_resume(pyinterp_t *I, const pynode_t *at, pyval_t *gv, pyval_t *sent,
                       pyval_t **out, bool *done)
{
	pygen_t *g = pygen_of(gv);
	*done = false;
	if (I->sealed) /* a generator of the module would change under a sealed call */
		DALIC_TRY(dalic_pycall_check_write(I, at, g, "a generator"));
	if (g->state == PYGEN_RUNNING)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "ValueError: generator already executing");
	if (g->state == PYGEN_DONE) {
		*done = true;
		*out = dalic_pyval_none();
		return DALIC_OK;
	}
	if (g->state == PYGEN_CREATED && sent->kind != PV_NONE)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: can't send non-None value to a just-started "
		                          "generator");
	if (!g->co)
		DALIC_TRY(pygen_start(I, at, g));
	/* the resumer's side waits on this C stack */
	int depth = I->depth, loops = I->loops;
	pyframe_t *frame = I->frame;
	pyval_t *handling = I->handling;
	pygen_t *outer = I->gen;
	uintptr_t stack_base = I->stack_base;
	I->depth = depth + g->depth;
	I->loops = g->loops;
	I->frame = g->at_frame ? g->at_frame : g->frame;
	I->handling = g->handling;
	I->gen = g;
	I->stack_base = dalic_pycoro_stack_top(g->co);
	g->value = sent;
	g->state = PYGEN_RUNNING;
	bool finished = dalic_pycoro_resume(g->co);
	g->depth = I->depth - depth;
	g->loops = I->loops;
	g->at_frame = I->frame;
	g->handling = I->handling;
	I->depth = depth;
	I->loops = loops;
	I->frame = frame;
	I->handling = handling;
	I->gen = outer;
	I->stack_base = stack_base;
	if (!finished) {
		g->state = PYGEN_SUSPENDED;
		*out = g->value;
		return DALIC_OK;
	}
	g->state = PYGEN_DONE;
	pygen_unlink(I, g);
	dalic_pycoro_free(g->co);
	g->co = NULL;
	*done = true;
	*out = g->retval;
	return g->rc;
}

int dalic_pygen_yield(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t **sent)
{
	pygen_t *g = I->gen;
	if (!g || !g->co)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "SyntaxError: 'yield' outside a generator");
	g->value = v;
	dalic_pycoro_yield(g->co);
	if (g->closing) {
		/* close(): unwind, running finally blocks; no except clause takes it */
		int rc = dalic_pyeval_limit(I, at, "GeneratorExit");
		g->exit_hash = dalic_pyval_hash_str(dalic_last_error(), strlen(dalic_last_error()));
		return rc;
	}
	*sent = g->value;
	return DALIC_OK;
}

int dalic_pygen_yield_from(pyinterp_t *I, const pynode_t *at, pyval_t *it, pyval_t **out)
{
	pyiter_t iter;
	bool opaque;
	DALIC_TRY(dalic_pyiter_open(I, at, it, &iter, &opaque));
	if (opaque)
		return dalic_pyeval_opaque_error(I, at, it, "cannot yield from");
	for (;;) {
		pyval_t *v, *sent;
		bool done;
		DALIC_TRY(dalic_pyiter_next(I, at, &iter, &v, &done));
		if (done)
			break;
		DALIC_TRY(dalic_pygen_yield(I, at, v, &sent));
	}
	pygen_t *sub = pygen_of(it);
	*out = sub && sub->retval ? sub->retval : dalic_pyval_none();
	return DALIC_OK;
}

void dalic_pygen_close_new(pyinterp_t *I, const pyarena_mark_t *m)
{
	for (pygen_t *g = I->live_gens, *n; g; g = n) {
		n = g->next_live;
		if (!dalic_pyarena_is_new(I->a, m, g))
			continue;
		pygen_unlink(I, g);
		dalic_pycoro_free(g->co);
		g->co = NULL;
		g->state = PYGEN_DONE;
	}
}

/* ---- the collector's part (pygc.c) ---------------------------------------------------- */

int dalic_pygen_gc_take(pyinterp_t *I, pygen_t **gens)
{
	int n = 0;
	for (pygen_t *g = I->live_gens, *next; g; g = next) {
		next = g->next_live;
		g->next_live = g->prev_live = NULL;
		gens[n++] = g;
	}
	I->live_gens = NULL;
	I->nlive_gens = 0;
	return n;
}

static void pygen_gc_scan(void *a, const void *p, size_t n)
{
	dalic_pyarena_gc_scan(a, p, n);
}

void dalic_pygen_gc_mark(pyinterp_t *I, pygen_t **gens, bool *done, int n)
{
	/* a suspended body's stack is part of its generator: scanned once the generator is
	 * reached, which may reach other generators in turn */
	for (bool more = true; more;) {
		more = false;
		for (int i = 0; i < n; i++) {
			if (done[i] || !dalic_pyarena_gc_live(I->a, gens[i]))
				continue;
			done[i] = more = true;
			if (gens[i]->co)
				dalic_pycoro_scan(gens[i]->co, pygen_gc_scan, I->a);
		}
	}
}

void dalic_pygen_gc_give_back(pyinterp_t *I, pygen_t **gens, const bool *live, int n)
{
	for (int i = n - 1; i >= 0; i--) {
		pygen_t *g = gens[i];
		if (!live[i]) {
			/* nothing reaches it any more: its body never resumes (dropped unfinished) */
			dalic_pycoro_free(g->co);
			g->co = NULL;
			continue;
		}
		g->next_live = I->live_gens;
		if (I->live_gens)
			I->live_gens->prev_live = g;
		I->live_gens = g;
		I->nlive_gens++;
	}
}

void dalic_pygen_close_all(pyinterp_t *I)
{
	while (I->live_gens) {
		pygen_t *g = I->live_gens;
		pygen_unlink(I, g);
		dalic_pycoro_free(g->co);
		g->co = NULL;
		g->state = PYGEN_DONE;
	}
}

/* ---- objects -------------------------------------------------------------------------- */

static pygen_t *pygen_alloc(pyinterp_t *I, const char *name)
{
	pygen_t *g = dalic_pyarena_alloc(I->a, sizeof *g);
	if (g) {
		g->I = I;
		g->name = name;
	}
	return g;
}

int dalic_pygen_new(pyinterp_t *I, const pynode_t *at, pyfunc_t *f, pyframe_t *fr,
                    pyval_t **out)
{
	pygen_t *g = pygen_alloc(I, f->name);
	if (!g)
		return dalic_pyeval_oom(I, at);
	g->func = f;
	g->frame = fr;
	PYEVAL_RET(dalic_pyval_host(I->a, &dalic_pygen_type, g));
}

int dalic_pygen_new_expr(pyinterp_t *I, const pynode_t *e, pyframe_t *C, pyval_t *first,
                         pyval_t **out)
{
	pygen_t *g = pygen_alloc(I, "<genexpr>");
	if (!g)
		return dalic_pyeval_oom(I, e);
	g->expr = e;
	g->frame = C;
	g->first = first;
	const pynode_t *at = e;
	PYEVAL_RET(dalic_pyval_host(I->a, &dalic_pygen_type, g));
}

static int pygen_meth_send(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "send", args, 1, 1));
	bool done;
	DALIC_TRY(dalic_pygen_resume(I, at, self->builtin.data, args->pos[0], out, &done));
	if (done)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "StopIteration");
	return DALIC_OK;
}

static int pygen_meth_next(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "__next__", args, 0, 0));
	return dalic_pyiter_next_of(I, at, self->builtin.data, out);
}

static int pygen_meth_iter(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	*out = self->builtin.data;
	return DALIC_OK;
}

static int pygen_meth_close(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                            const pyargs_t *args, pyval_t **out)
{
	pygen_t *g = pygen_of(self->builtin.data);
	*out = dalic_pyval_none();
	if (g->state == PYGEN_CREATED)
		g->state = PYGEN_DONE;
	if (g->state != PYGEN_SUSPENDED)
		return DALIC_OK;
	g->closing = true;
	bool done, fatal = I->fatal;
	pyval_t *r;
	int rc = dalic_pygen_resume(I, at, self->builtin.data, dalic_pyval_none(), &r, &done);
	if (!done)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "RuntimeError: generator ignored GeneratorExit");
	const char *m = dalic_last_error();
	if (rc < 0 && g->exit_hash == dalic_pyval_hash_str(m, strlen(m))) {
		/* the GeneratorExit raised at the yield came back: closed as asked */
		I->fatal = fatal;
		dalic_pyexc_clear(I);
		return DALIC_OK;
	}
	return rc;
}

static int pygen_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
                         pyval_t **out)
{
	static const pyreg_t methods[] = {{"send", pygen_meth_send},
	                                  {"__next__", pygen_meth_next},
	                                  {"__iter__", pygen_meth_iter},
	                                  {"close", pygen_meth_close},
	                                  {NULL, NULL}};
	*out = NULL;
	for (const pyreg_t *m = methods; m->name; m++)
		if (!strcmp(m->name, name))
			PYEVAL_RET(dalic_pybi_make_self(I, m->name, m->fn, v));
	if (!strcmp(name, "__name__"))
		PYEVAL_RET(dalic_pyval_cstr(I->a, pygen_of(v)->name));
	return DALIC_OK;
}

static void pygen_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	dalic_pybuf_printf(b, "<generator object %s>", pygen_of(v)->name);
}

const pytype_t dalic_pygen_type = {
    .name = "generator",
    .format = pygen_format,
    .getattr = pygen_getattr,
};
