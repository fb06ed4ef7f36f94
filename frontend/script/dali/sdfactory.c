/*
 * Pipeline factories: module-level plain functions and plain classes that make a pipeline
 * when called (Jasper's `class DaliPipeline: def __init__(...): ... @pipeline_def def
 * pipe(): ...; self.pipe = pipe(...)`, UNet3P's function returning a @pipeline_def function,
 * a loader class whose method builds one). Found by reading their code, never by running
 * it: a body makes a pipeline when it calls `Pipeline(...)`, decorates a def with
 * `pipeline_def`, or calls a module-level pipeline function, Pipeline subclass or another
 * factory (through `self.method(...)` and `super().method(...)` too). Built with --arg
 * values like the definitions of sdpipe_build.c; a factory that returns a @pipeline_def
 * function has it called with the --arg values the factory does not take.
 */
#include "frontend/script/dali/sdpipe.h"

#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyeval.h"
#include "frontend/script/py/pyexec.h"

#include <string.h>

#define SDFACTORY_DEPTH 24

/* A function's answer, once scanned (with the class `self.` meant): each body is read once,
 * however many paths reach it. */
typedef struct sdfactory_memo {
	const pyfunc_t *f;
	const pyclass_t *cls;
	bool makes;
} sdfactory_memo_t;

typedef struct sdfactory_scan {
	pyinterp_t *I;
	pyclass_t *cls; /* the class whose methods `self.` reaches, or NULL */
	const pyfunc_t *stack[SDFACTORY_DEPTH];
	int depth;
	sdfactory_memo_t *memo;
	int nmemo, capmemo;
	const pynode_t *foreign; /* first `mod.XPipeline(...)` of a module dalic cannot import */
} sdfactory_scan_t;

static bool sdfactory_func_makes(sdfactory_scan_t *s, pyclass_t *cls, const pyfunc_t *f);
static bool sdfactory_list_makes(sdfactory_scan_t *s, const pynode_list_t *l);
static bool sdfactory_node_makes(sdfactory_scan_t *s, const pynode_t *n);

static const char *sdfactory_tail_name(const pynode_t *e)
{
	if (e && e->kind == N_CALL)
		e = e->call.func;
	if (!e)
		return NULL;
	return e->kind == N_NAME ? e->name : e->kind == N_ATTR ? e->attr.attr : NULL;
}

static bool sdfactory_is_subclass(pyinterp_t *I, const pyval_t *v)
{
	sdstate_t *S = dalic_sdali_state(I);
	return v->kind == PV_CLASS && dalic_pyexec_is_subclass(v->cls, S->pipeline_cls);
}

/* A module-level value that makes a pipeline when called. */
static bool sdfactory_value_makes(sdfactory_scan_t *s, const pyval_t *v)
{
	if (!v)
		return false;
	if (dalic_sdval_pipedef(v) || sdfactory_is_subclass(s->I, v))
		return true;
	if (v->kind == PV_FUNC && v->func->body)
		return sdfactory_func_makes(s, NULL, v->func);
	if (v->kind == PV_CLASS) {
		pyval_t *init = dalic_pyexec_class_lookup(v->cls, "__init__", NULL);
		return init && init->kind == PV_FUNC && sdfactory_func_makes(s, v->cls, init->func);
	}
	return false;
}

/* A method of s->cls (or of its bases, for super()) that makes a pipeline. */
static bool sdfactory_method_makes(sdfactory_scan_t *s, const char *name, bool super)
{
	pyclass_t *cls = s->cls;
	if (!cls)
		return false;
	for (int i = super ? 0 : -1; i < (super ? cls->nbases : 0); i++) {
		pyclass_t *from = i < 0 ? cls : cls->bases[i];
		pyval_t *m = dalic_pyexec_class_lookup(from, name, NULL);
		if (m && m->kind == PV_FUNC && sdfactory_func_makes(s, cls, m->func))
			return true;
	}
	return false;
}

static bool sdfactory_call_makes(sdfactory_scan_t *s, const pynode_t *n)
{
	const pynode_t *fn = n->call.func;
	const char *tail = sdfactory_tail_name(fn);
	if (tail && !strcmp(tail, "Pipeline"))
		return true;
	if (fn->kind == N_NAME)
		return sdfactory_value_makes(s,
		                             dalic_pydict_get_str(s->I->globals->locals, fn->name));
	if (fn->kind != N_ATTR)
		return false;
	const pynode_t *recv = fn->attr.value;
	size_t tl = strlen(fn->attr.attr);
	if (!s->foreign && recv->kind == N_NAME && tl >= 8 &&
	    !strcmp(fn->attr.attr + tl - 8, "Pipeline")) {
		pyval_t *m = dalic_pydict_get_str(s->I->globals->locals, recv->name);
		if (m && (m->kind == PV_OPAQUE || (m->kind == PV_MODULE && m->mod->opaque)))
			s->foreign = n;
	}
	if (recv->kind == N_NAME && !strcmp(recv->name, "self"))
		return sdfactory_method_makes(s, fn->attr.attr, false);
	if (recv->kind == N_CALL && recv->call.func->kind == N_NAME &&
	    !strcmp(recv->call.func->name, "super"))
		return sdfactory_method_makes(s, fn->attr.attr, true);
	return false;
}

static bool sdfactory_def_makes(sdfactory_scan_t *s, const pynode_t *n)
{
	for (int i = 0; i < n->def.decorators.n; i++) {
		const char *d = sdfactory_tail_name(n->def.decorators.v[i]);
		if (d && !strcmp(d, "pipeline_def"))
			return true;
	}
	return sdfactory_list_makes(s, &n->def.decorators) || sdfactory_list_makes(s, &n->def.body);
}

static bool sdfactory_comp_makes(sdfactory_scan_t *s, const pynode_t *n)
{
	if (sdfactory_node_makes(s, n->comp.elt) || sdfactory_node_makes(s, n->comp.value))
		return true;
	for (int i = 0; i < n->comp.ngens; i++)
		if (sdfactory_node_makes(s, n->comp.gens[i].iter) ||
		    sdfactory_list_makes(s, &n->comp.gens[i].ifs))
			return true;
	return false;
}

static bool sdfactory_try_makes(sdfactory_scan_t *s, const pynode_t *n)
{
	for (int i = 0; i < n->try_.nhandlers; i++)
		if (sdfactory_list_makes(s, &n->try_.handlers[i].body))
			return true;
	return sdfactory_list_makes(s, &n->try_.body) || sdfactory_list_makes(s, &n->try_.orelse) ||
	       sdfactory_list_makes(s, &n->try_.finalbody);
}

#define SDF_N(x) sdfactory_node_makes(s, (x))
#define SDF_L(x) sdfactory_list_makes(s, &(x))

static bool sdfactory_node_makes(sdfactory_scan_t *s, const pynode_t *n)
{
	if (!n)
		return false;
	switch (n->kind) {
	case N_CALL:
		return sdfactory_call_makes(s, n) || SDF_N(n->call.func) || SDF_L(n->call.args) ||
		       SDF_L(n->call.kwargs);
	case N_KEYWORD:
		return SDF_N(n->kw.value);
	case N_FSTRING:
		return SDF_L(n->parts);
	case N_FVALUE:
		return SDF_N(n->fvalue.value);
	case N_TUPLE:
	case N_LIST:
	case N_SET:
		return SDF_L(n->elts);
	case N_DICT:
		return SDF_L(n->dict.keys) || SDF_L(n->dict.values);
	case N_BINOP:
		return SDF_N(n->bin.left) || SDF_N(n->bin.right);
	case N_UNARY:
		return SDF_N(n->unary.operand);
	case N_BOOLOP:
		return SDF_L(n->boolop.values);
	case N_COMPARE:
		return SDF_N(n->cmp.left) || SDF_L(n->cmp.rest);
	case N_ATTR:
		return SDF_N(n->attr.value);
	case N_SUBSCRIPT:
		return SDF_N(n->sub.value) || SDF_N(n->sub.index);
	case N_STARRED:
		return SDF_N(n->starred.value);
	case N_LAMBDA:
		return SDF_N(n->lambda.body);
	case N_IFEXP:
		return SDF_N(n->ifexp.test) || SDF_N(n->ifexp.body) || SDF_N(n->ifexp.orelse);
	case N_LISTCOMP:
	case N_SETCOMP:
	case N_DICTCOMP:
	case N_GENEXP:
		return sdfactory_comp_makes(s, n);
	case N_NAMEDEXPR:
		return SDF_N(n->named.value);
	case N_YIELD:
	case N_YIELDFROM:
		return SDF_N(n->yield.value);
	case S_EXPR:
		return SDF_N(n->expr.value);
	case S_ASSIGN:
		return SDF_N(n->assign.value);
	case S_AUGASSIGN:
		return SDF_N(n->aug.value);
	case S_ANNASSIGN:
		return SDF_N(n->ann.value);
	case S_IF:
		return SDF_N(n->if_.test) || SDF_L(n->if_.body) || SDF_L(n->if_.orelse);
	case S_FOR:
		return SDF_N(n->for_.iter) || SDF_L(n->for_.body) || SDF_L(n->for_.orelse);
	case S_WHILE:
		return SDF_N(n->while_.test) || SDF_L(n->while_.body) || SDF_L(n->while_.orelse);
	case S_RETURN:
		return SDF_N(n->ret.value);
	case S_DEF:
		return sdfactory_def_makes(s, n);
	case S_CLASS:
		return SDF_L(n->cls.bases) || SDF_L(n->cls.body);
	case S_WITH:
		return SDF_L(n->with.items) || SDF_L(n->with.body);
	case S_RAISE:
		return SDF_N(n->raise.exc);
	case S_TRY:
		return sdfactory_try_makes(s, n);
	default:
		return false; /* names, constants, imports, pass, global... */
	}
}

#undef SDF_N
#undef SDF_L

static bool sdfactory_list_makes(sdfactory_scan_t *s, const pynode_list_t *l)
{
	for (int i = 0; i < l->n; i++)
		if (sdfactory_node_makes(s, l->v[i]))
			return true;
	return false;
}

static bool sdfactory_func_makes(sdfactory_scan_t *s, pyclass_t *cls, const pyfunc_t *f)
{
	if (!f->body || s->depth >= SDFACTORY_DEPTH)
		return false;
	for (int i = 0; i < s->depth; i++)
		if (s->stack[i] == f)
			return false; /* recursion: the first visit answers */
	for (int i = 0; i < s->nmemo; i++)
		if (s->memo[i].f == f && s->memo[i].cls == cls)
			return s->memo[i].makes;
	pyclass_t *outer = s->cls;
	s->cls = cls;
	s->stack[s->depth++] = f;
	bool r = sdfactory_list_makes(s, f->body);
	s->depth--;
	s->cls = outer;
	if (s->nmemo == s->capmemo) { /* out of memory only costs a rescan */
		int nc = s->capmemo * 2 + 16;
		sdfactory_memo_t *m = dalic_pyarena_alloc(s->I->a, sizeof *m * (size_t)nc);
		if (!m)
			return r;
		if (s->nmemo)
			memcpy(m, s->memo, sizeof *m * (size_t)s->nmemo);
		s->memo = m;
		s->capmemo = nc;
	}
	s->memo[s->nmemo++] = (sdfactory_memo_t){.f = f, .cls = cls, .makes = r};
	return r;
}

/* ---- finding them ----------------------------------------------------------------------- */

static int sdfactory_add(pyinterp_t *I, sddefined_t **v, int *n, int *cap, const char *name,
                         pyval_t *value, const char *method)
{
	if (*n == *cap) {
		int nc = *cap * 2 + 8;
		sddefined_t *nv = dalic_pyarena_alloc(I->a, sizeof *nv * (size_t)nc);
		if (!nv)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		if (*n)
			memcpy(nv, *v, sizeof *nv * (size_t)*n);
		*v = nv;
		*cap = nc;
	}
	const char *full = method ? dalic_pyarena_printf(I->a, "%s.%s", name, method) : name;
	if (!full)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	(*v)[(*n)++] =
	    (sddefined_t){.name = full, .value = value, .method = method, .factory = true};
	return DALIC_OK;
}

/* A class: itself when __init__ makes the pipeline, else each method that makes one. */
static int sdfactory_find_class(sdfactory_scan_t *s, const char *name, pyval_t *v,
                                sddefined_t **out, int *n, int *cap)
{
	pyval_t *init = dalic_pyexec_class_lookup(v->cls, "__init__", NULL);
	if (init && init->kind == PV_FUNC && sdfactory_func_makes(s, v->cls, init->func))
		return sdfactory_add(s->I, out, n, cap, name, v, NULL);
	pyval_t *k, *m;
	for (int it = 0; dalic_pydict_next(v->cls->attrs, &it, &k, &m);)
		if (m->kind == PV_FUNC && k->kind == PV_STR && strncmp(k->str.s, "__", 2) &&
		    sdfactory_func_makes(s, v->cls, m->func))
			DALIC_TRY(sdfactory_add(s->I, out, n, cap, name, v, k->str.s));
	return DALIC_OK;
}

static int sdfactory_scan_module(pyinterp_t *I, sdfactory_scan_t *s, sddefined_t **out, int *n,
                                 int *cap)
{
	pyval_t *k, *v;
	for (int it = 0; dalic_pydict_next(I->globals->locals, &it, &k, &v);) {
		if (k->kind != PV_STR || dalic_sdval_pipedef(v) || sdfactory_is_subclass(I, v))
			continue;
		bool dup = false;
		for (int i = 0; i < *n && !dup; i++)
			dup = (*out)[i].value == v;
		if (dup)
			continue;
		if (v->kind == PV_FUNC && v->func->body && sdfactory_func_makes(s, NULL, v->func))
			DALIC_TRY(sdfactory_add(I, out, n, cap, k->str.s, v, NULL));
		else if (v->kind == PV_CLASS && !v->cls->exception)
			DALIC_TRY(sdfactory_find_class(s, k->str.s, v, out, n, cap));
	}
	return DALIC_OK;
}

int dalic_sdfactory_find(pyinterp_t *I, sddefined_t **out, int *n, int *cap)
{
	sdfactory_scan_t s = {.I = I};
	return sdfactory_scan_module(I, &s, out, n, cap);
}

const pynode_t *dalic_sdfactory_foreign(pyinterp_t *I)
{
	sdfactory_scan_t s = {.I = I};
	sddefined_t *v = NULL;
	int n = 0, cap = 0;
	return sdfactory_scan_module(I, &s, &v, &n, &cap) ? NULL : s.foreign;
}

/* ---- building them ---------------------------------------------------------------------- */

static bool sdfactory_takes(const pyfunc_t *f, int from, const char *name)
{
	for (int i = from; f && i < f->params->n; i++) {
		const pyparam_t *p = &f->params->v[i];
		if (p->kind == P_VARKW ||
		    ((p->kind == P_NORMAL || p->kind == P_KWONLY) && !strcmp(p->name, name)))
			return true;
	}
	return false;
}

/* The --arg values f takes (all of them when it takes **kwargs), marked used; with f NULL,
 * those no call used. */
static int sdfactory_subset(pyinterp_t *I, const sdbuild_t *b, const pyfunc_t *f, int from,
                            bool *used, sdbuild_t *sub)
{
	*sub = *b;
	sub->nargs = 0;
	sub->names = dalic_pyarena_alloc(I->a, sizeof *sub->names * (size_t)(b->nargs + 1));
	sub->values = dalic_pyarena_alloc(I->a, sizeof *sub->values * (size_t)(b->nargs + 1));
	if (!sub->names || !sub->values)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int i = 0; i < b->nargs; i++) {
		if (f ? !sdfactory_takes(f, from, b->names[i]) : used[i])
			continue;
		sub->names[sub->nargs] = b->names[i];
		sub->values[sub->nargs++] = b->values[i];
		used[i] = true;
	}
	return DALIC_OK;
}

static int sdfactory_call(pyinterp_t *I, const pynode_t *at, const char *what, pyval_t *fn,
                          const pyfunc_t *f, int from, const sdbuild_t *b, bool *used,
                          pyval_t **out)
{
	sdbuild_t sub;
	pyargs_t args = {0};
	if (f) { /* (a class without __init__ takes no arguments) */
		DALIC_TRY(sdfactory_subset(I, b, f, from, used, &sub));
		DALIC_TRY(dalic_sdpipe_build_kwargs(I, at, what, f, from, false, &sub, &args));
	}
	return dalic_pyeval_call(I, at, fn, &args, out);
}

static const pyfunc_t *sdfactory_func_of(const pyval_t *v)
{
	if (!v)
		return NULL;
	if (v->kind == PV_FUNC)
		return v->func;
	if (v->kind == PV_BOUND)
		return v->bound.func->func;
	return NULL;
}

/* The factory's result when it made no pipeline itself: a @pipeline_def function is called
 * with the --arg values left over (and the Pipeline flags). */
static int sdfactory_finish(pyinterp_t *I, const pynode_t *at, const sddefined_t *d, bool made,
                            pyval_t *r, const sdbuild_t *b, bool *used)
{
	sdbuild_t rest;
	DALIC_TRY(sdfactory_subset(I, b, NULL, 0, used, &rest));
	if (!made && r && dalic_sdval_pipedef(r))
		return dalic_sdpipe_build_pipedef(I, r, &rest);
	if (rest.nargs)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "--arg %s: %s has no parameter '%s'",
		                          rest.names[0], d->name, rest.names[0]);
	return DALIC_OK;
}

static bool sdfactory_varkw(const pyfunc_t *f)
{
	for (int i = 0; f && i < f->params->n; i++)
		if (f->params->v[i].kind == P_VARKW)
			return true;
	return false;
}

/* An __init__(self, **kwargs) handing them to its base's: the base's required parameters are
 * the class's, named before the call as for any factory (Jasper's DaliTritonPipeline). */
static int sdfactory_check_bases(pyinterp_t *I, pyclass_t *cls, const pyfunc_t *f,
                                 const sdbuild_t *b, bool *used)
{
	for (int depth = 0; sdfactory_varkw(f) && cls->nbases && depth < SDFACTORY_DEPTH; depth++) {
		cls = cls->bases[0];
		pyval_t *init = dalic_pyexec_class_lookup(cls, "__init__", NULL);
		if (!init || init->kind != PV_FUNC)
			return DALIC_OK;
		f = init->func;
		const char *what = dalic_pyarena_printf(I->a, "%s.__init__", cls->name);
		sdbuild_t sub;
		pyargs_t args;
		if (!what)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		DALIC_TRY(sdfactory_subset(I, b, f, 1, used, &sub));
		DALIC_TRY(dalic_sdpipe_build_kwargs(I, f->node, what, f, 1, false, &sub, &args));
	}
	return DALIC_OK;
}

int dalic_sdfactory_build(pyinterp_t *I, const sddefined_t *d, const sdbuild_t *b)
{
	bool *used = dalic_pyarena_alloc(I->a, sizeof *used * (size_t)(b->nargs + 1));
	if (!used)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	memset(used, 0, sizeof *used * (size_t)(b->nargs + 1));
	pynode_t line1 = {.line = 1, .col = 1};
	pyval_t *r = NULL;
	sdstate_t *S = dalic_sdali_state(I);
	int before = S->npipes, rc;
	if (d->value->kind == PV_FUNC) {
		const pyfunc_t *f = d->value->func;
		rc = sdfactory_call(I, f->node, f->name, d->value, f, 0, b, used, &r);
	} else {
		pyval_t *init = dalic_pyexec_class_lookup(d->value->cls, "__init__", NULL);
		const pyfunc_t *f = init && init->kind == PV_FUNC ? init->func : NULL;
		const char *what = dalic_pyarena_printf(I->a, "%s.__init__", d->value->cls->name);
		if (!what)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		DALIC_TRY(sdfactory_check_bases(I, d->value->cls, f, b, used));
		rc = sdfactory_call(I, f ? f->node : &line1, what, d->value, f, 1, b, used, &r);
		pyval_t *m = NULL;
		if (!rc && d->method)
			rc = dalic_pyeval_getattr(I, &line1, r, d->method, &m);
		if (!rc && d->method) {
			const pyfunc_t *mf = sdfactory_func_of(m);
			rc = sdfactory_call(I, mf ? mf->node : &line1, d->name, m, mf, 1, b, used,
			                    &r);
		}
	}
	if (rc)
		return rc;
	return sdfactory_finish(I, d->value->kind == PV_FUNC ? d->value->func->node : &line1, d,
	                        S->npipes > before, r, b, used);
}
