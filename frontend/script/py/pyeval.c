/*
 * Expression evaluation: names with Python's scoping (locals decided statically per
 * function, enclosing functions, module globals, built-ins), literals and displays with
 * star-unpacking, f-strings, calls with *args / **kwargs, lambdas, comprehensions, and
 * assignment targets with tuple unpacking. Operators and attribute / item access live in
 * script_pyops.c. With conditionals enabled, reading a variable that holds a DataNode goes
 * through the condition stack like AutoGraph's `ld`, which is what splits outer values for
 * use inside a branch.
 */
#include "frontend/script/py/pystate.h"

#include "engine/error.h"
#include "frontend/script/py/pyscope.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define TRY(x)                                                                                     \
	do {                                                                                       \
		int rc_ = (x);                                                                     \
		if (rc_)                                                                           \
			return rc_;                                                                \
	} while (0)

/* ---- errors --------------------------------------------------------------------------- */

/* Errors raised while a pipeline is being created or traced stop the load; others may only
 * stop the module-level statement that raised them (display code, see script_exec.c). */
static void note_fatal(sinterp_t *I, int code)
{
	if (I->creating || I->tracing || code == DALIC_ENOMEM)
		I->fatal = true;
}

int serr(sinterp_t *I, const snode_t *at, int code, const char *fmt, ...)
{
	note_fatal(I, code);
	va_list ap;
	va_start(ap, fmt);
	int rc = script_error_vat(I->src, at ? at->line : 1, at ? at->col : 1, code, fmt, ap);
	va_end(ap);
	return rc;
}

int serr_relocate(sinterp_t *I, const snode_t *at, int code)
{
	note_fatal(I, code);
	return script_error_relocate(I->src, at ? at->line : 1, at ? at->col : 1, code);
}

int serr_oom(sinterp_t *I, const snode_t *at)
{
	return serr(I, at, DALIC_ENOMEM, "out of memory while evaluating the script");
}

int serr_opaque(sinterp_t *I, const snode_t *at, const sv_t *v, const char *where)
{
	return serr(I, at, DALIC_EUNSUPPORTED,
	            "%s: '%s' comes from code dalic does not evaluate (only nvidia.dali and the "
	            "Python subset of pipeline definitions are supported)",
	            where, v->opaque.what);
}

int se_step(sinterp_t *I, const snode_t *at)
{
	uintptr_t here = (uintptr_t)__builtin_frame_address(0);
	if (I->stack_base > here && I->stack_base - here > SCRIPT_STACK_BUDGET)
		return serr(I, at, DALIC_EUNSUPPORTED,
		            "RecursionError: the script nests calls and expressions too deeply");
	if (++I->steps > SCRIPT_MAX_STEPS)
		return serr(I, at, DALIC_EUNSUPPORTED,
		            "the script runs too long (more than %ld evaluation steps)",
		            SCRIPT_MAX_STEPS);
	return DALIC_OK;
}

/* ---- names ---------------------------------------------------------------------------- */

static bool in_names(const char *const *v, int n, const char *name)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = (lo + hi) / 2, c = strcmp(v[mid], name);
		if (!c)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static bool is_local(const sframe_t *f, const char *name)
{
	return in_names(f->lnames, f->nlnames, name);
}

static bool is_declared_global(const sframe_t *f, const char *name)
{
	return in_names(f->gnames, f->ngnames, name);
}

static int lookup_global(sinterp_t *I, const snode_t *at, const char *name, sv_t **out)
{
	sv_t *v = svdict_get_str(I->globals->locals, name);
	if (!v)
		v = svdict_get_str(I->builtins, name);
	if (v) {
		*out = v;
		return DALIC_OK;
	}
	if (I->star_opaque) {
		/* a name that may come from `from <module dalic does not know> import *` */
		*out = sv_opaque(I->a, script_arena_strdup(I->a, name));
		return *out ? DALIC_OK : serr_oom(I, at);
	}
	return serr(I, at, DALIC_EINVAL, "NameError: name '%s' is not defined", name);
}

int se_lookup(sinterp_t *I, sframe_t *F, const snode_t *at, const char *name, sv_t **out)
{
	sv_t *v;
	if (F->kind == FR_CLASS) {
		if ((v = svdict_get_str(F->locals, name))) {
			*out = v;
			return DALIC_OK;
		}
	} else if (F->kind != FR_MODULE) {
		if (is_declared_global(F, name))
			return lookup_global(I, at, name, out);
		if (is_local(F, name)) {
			if ((v = svdict_get_str(F->locals, name))) {
				*out = v;
				return DALIC_OK;
			}
			return serr(I, at, DALIC_EINVAL,
			            "UnboundLocalError: cannot access local variable '%s' where it "
			            "is not associated with a value",
			            name);
		}
	}
	/* enclosing function scopes (class bodies are not visible from nested functions) */
	for (sframe_t *f = F->parent; f && f->kind != FR_MODULE; f = f->parent) {
		if (f->kind == FR_CLASS)
			continue;
		if (is_local(f, name)) {
			if ((v = svdict_get_str(f->locals, name))) {
				*out = v;
				return DALIC_OK;
			}
			return serr(I, at, DALIC_EINVAL,
			            "NameError: cannot access free variable '%s' where it is not "
			            "associated with a value in enclosing scope",
			            name);
		}
	}
	return lookup_global(I, at, name, out);
}

int se_store(sinterp_t *I, sframe_t *F, const snode_t *at, const char *name, sv_t *value)
{
	sframe_t *target = F;
	/* a named expression inside a comprehension binds in the enclosing function */
	while (target->kind == FR_SCOPE && !is_local(target, name) && target->parent)
		target = target->parent;
	if (target->kind != FR_MODULE && target->kind != FR_CLASS &&
	    is_declared_global(target, name))
		target = I->globals;
	else if (target->kind == FR_FUNCTION && !is_local(target, name)) {
		/* `nonlocal`: the nearest enclosing function that owns the name */
		for (sframe_t *f = target->parent; f && f->kind != FR_MODULE; f = f->parent)
			if (f->kind != FR_CLASS && is_local(f, name)) {
				target = f;
				break;
			}
	}
	sp_note_binding(I, target, name, value);
	return svdict_set_str(I->a, target->locals, name, value) ? serr_oom(I, at) : DALIC_OK;
}

/* ---- argument helpers ------------------------------------------------------------------ */

sv_t *sargs_kw(const sargs_t *args, const char *name)
{
	for (int i = 0; i < args->nkw; i++)
		if (!strcmp(args->kwnames[i], name))
			return args->kwvals[i];
	return NULL;
}

int sargs_parse(sinterp_t *I, const snode_t *at, const char *fname, const sargs_t *args,
                const char *const *names, int nrequired, int nnames, sv_t **vals)
{
	if (args->npos > nnames)
		return serr(I, at, DALIC_EINVAL,
		            "TypeError: %s() takes at most %d argument%s (%d given)", fname, nnames,
		            nnames == 1 ? "" : "s", args->npos);
	for (int i = 0; i < nnames; i++)
		vals[i] = i < args->npos ? args->pos[i] : NULL;
	for (int k = 0; k < args->nkw; k++) {
		int i = 0;
		while (i < nnames && strcmp(names[i], args->kwnames[k]))
			i++;
		if (i == nnames)
			return serr(I, at, DALIC_EINVAL,
			            "TypeError: %s() got an unexpected keyword argument '%s'",
			            fname, args->kwnames[k]);
		if (vals[i])
			return serr(I, at, DALIC_EINVAL,
			            "TypeError: %s() got multiple values for argument '%s'", fname,
			            names[i]);
		vals[i] = args->kwvals[k];
	}
	for (int i = 0; i < nrequired; i++)
		if (!vals[i])
			return serr(I, at, DALIC_EINVAL,
			            "TypeError: %s() missing required argument '%s'", fname,
			            names[i]);
	return DALIC_OK;
}

int se_str(sinterp_t *I, const snode_t *at, sv_t *v, bool repr, sv_t **out)
{
	if (v->kind == SV_STR && !repr) {
		*out = v;
		return DALIC_OK;
	}
	sbuf_t b = {0};
	sv_format(&b, v, repr);
	*out = b.oom ? NULL : sv_str(I->a, b.s ? b.s : "", b.n);
	sbuf_free(&b);
	return *out ? DALIC_OK : serr_oom(I, at);
}

/* ---- displays ------------------------------------------------------------------------- */

/* Appends the values of elts (with *starred expansion) to list `acc`. */
static int eval_elts(sinterp_t *I, sframe_t *F, const snode_list_t *elts, sv_t *acc)
{
	for (int i = 0; i < elts->n; i++) {
		const snode_t *e = elts->v[i];
		sv_t *v;
		if (e->kind == N_STARRED) {
			TRY(se_eval(I, F, e->starred.value, &v));
			sv_t **items;
			int n;
			bool opaque;
			TRY(se_iterate(I, e, v, &items, &n, &opaque));
			if (opaque)
				return serr_opaque(I, e, v, "cannot unpack");
			for (int k = 0; k < n; k++)
				if (sv_list_append(I->a, acc, items[k]))
					return serr_oom(I, e);
			continue;
		}
		TRY(se_eval(I, F, e, &v));
		if (sv_list_append(I->a, acc, v))
			return serr_oom(I, e);
	}
	return DALIC_OK;
}

static int eval_dict(sinterp_t *I, sframe_t *F, const snode_t *e, sv_t **out)
{
	sv_t *d = sv_dict(I->a);
	if (!d)
		return serr_oom(I, e);
	for (int i = 0; i < e->dict.values.n; i++) {
		const snode_t *kn = e->dict.keys.v[i], *vn = e->dict.values.v[i];
		sv_t *k = NULL, *v;
		if (kn)
			TRY(se_eval(I, F, kn, &k));
		TRY(se_eval(I, F, vn, &v));
		if (!kn) {
			if (v->kind != SV_DICT)
				return serr(I, vn, DALIC_EINVAL,
				            "TypeError: '%s' object is not a mapping",
				            sv_type_name(v));
			sv_t *ik, *iv;
			for (int it = 0; svdict_next(v->dict, &it, &ik, &iv);)
				if (svdict_set(I->a, d->dict, ik, iv))
					return serr_oom(I, vn);
			continue;
		}
		int rc = svdict_set(I->a, d->dict, k, v);
		if (rc == DALIC_EINVAL)
			return serr(I, kn, DALIC_EINVAL, "TypeError: unhashable type: '%s'",
			            sv_type_name(k));
		if (rc)
			return serr_oom(I, kn);
	}
	*out = d;
	return DALIC_OK;
}

static int eval_fstring(sinterp_t *I, sframe_t *F, const snode_t *e, sv_t **out)
{
	sbuf_t b = {0};
	int rc = DALIC_OK;
	for (int i = 0; !rc && i < e->parts.n; i++) {
		const snode_t *p = e->parts.v[i];
		if (p->kind == N_STR) {
			sbuf_put(&b, p->str.s, p->str.len);
			continue;
		}
		sv_t *v, *spec = NULL;
		rc = se_eval(I, F, p->fvalue.value, &v);
		if (!rc && v->kind == SV_OPAQUE)
			rc = serr_opaque(I, p, v, "cannot format");
		if (!rc && p->fvalue.conv)
			rc = se_str(I, p, v, p->fvalue.conv != 's', &v);
		if (!rc && p->fvalue.spec)
			rc = eval_fstring(I, F, p->fvalue.spec, &spec);
		if (!rc)
			rc = sf_format_spec(I, p, v, spec ? spec->str.s : "", &b);
	}
	if (!rc)
		*out = b.oom ? NULL : sv_str(I->a, b.s ? b.s : "", b.n);
	sbuf_free(&b);
	if (!rc && !*out)
		rc = serr_oom(I, e);
	return rc;
}

/* ---- functions and comprehensions ----------------------------------------------------- */

static int eval_lambda(sinterp_t *I, sframe_t *F, const snode_t *e, sv_t **out)
{
	svfunc_t *f = script_arena_alloc(I->a, sizeof *f);
	sv_t *v = sv_new(I->a, SV_FUNC);
	if (!f || !v)
		return serr_oom(I, e);
	f->name = "<lambda>";
	f->params = &e->lambda.params;
	sfunc_info_t *info = script_arena_alloc(I->a, sizeof *info);
	if (!info)
		return serr_oom(I, e);
	bool ok = true;
	nset_t names = {0};
	for (int i = 0; i < e->lambda.params.n; i++)
		names = nset_add(I->a, names, e->lambda.params.v[i].name, &ok);
	if (!ok)
		return serr_oom(I, e);
	info->locals = names.v;
	info->nlocals = names.n;
	f->info = info;
	f->expr = e->lambda.body;
	f->closure = F;
	f->node = e;
	f->defaults = script_arena_alloc(I->a, sizeof(sv_t *) * (size_t)(f->params->n + 1));
	if (!f->defaults)
		return serr_oom(I, e);
	for (int i = 0; i < f->params->n; i++)
		if (f->params->v[i].def)
			TRY(se_eval(I, F, f->params->v[i].def, &f->defaults[i]));
	v->func = f;
	*out = v;
	return DALIC_OK;
}

static int comp_level(sinterp_t *I, sframe_t *C, const snode_t *e, int level, sv_t *acc,
                      sv_t *first_iter)
{
	if (level == e->comp.ngens) {
		sv_t *v;
		if (e->kind == N_DICTCOMP) {
			sv_t *k;
			TRY(se_eval(I, C, e->comp.elt, &k));
			TRY(se_eval(I, C, e->comp.value, &v));
			int rc = svdict_set(I->a, acc->dict, k, v);
			if (rc == DALIC_EINVAL)
				return serr(I, e->comp.elt, rc, "TypeError: unhashable type: '%s'",
				            sv_type_name(k));
			return rc ? serr_oom(I, e) : DALIC_OK;
		}
		TRY(se_eval(I, C, e->comp.elt, &v));
		return sv_list_append(I->a, acc, v) ? serr_oom(I, e) : DALIC_OK;
	}
	const scomp_t *g = &e->comp.gens[level];
	sv_t *it = first_iter;
	if (level > 0)
		TRY(se_eval(I, C, g->iter, &it));
	sv_t **items;
	int n;
	bool opaque;
	TRY(se_iterate(I, g->iter, it, &items, &n, &opaque));
	if (opaque)
		return serr_opaque(I, g->iter, it, "cannot iterate");
	for (int i = 0; i < n; i++) {
		TRY(se_step(I, e));
		TRY(se_assign(I, C, g->target, items[i]));
		bool keep = true;
		for (int k = 0; keep && k < g->ifs.n; k++) {
			sv_t *c;
			TRY(se_eval(I, C, g->ifs.v[k], &c));
			TRY(se_truth(I, g->ifs.v[k], c, &keep));
		}
		if (keep)
			TRY(comp_level(I, C, e, level + 1, acc, NULL));
	}
	return DALIC_OK;
}

static int eval_comprehension(sinterp_t *I, sframe_t *F, const snode_t *e, sv_t **out)
{
	if (e->kind == N_SETCOMP)
		return serr(I, e, DALIC_EUNSUPPORTED, "sets are not supported in pipeline scripts");
	/* the first iterable is evaluated in the enclosing scope, the rest in the new one */
	sv_t *first;
	TRY(se_eval(I, F, e->comp.gens[0].iter, &first));
	sframe_t *C = sx_new_frame(I, FR_SCOPE, F);
	if (!C)
		return serr_oom(I, e);
	bool ok = true;
	nset_t targets = {0};
	for (int i = 0; i < e->comp.ngens; i++)
		targets = script_target_names(I->a, e->comp.gens[i].target, targets, &ok);
	if (!ok)
		return serr_oom(I, e);
	C->lnames = targets.v;
	C->nlnames = targets.n;
	sv_t *acc = e->kind == N_DICTCOMP ? sv_dict(I->a) : sv_list(I->a, 8);
	if (!acc)
		return serr_oom(I, e);
	TRY(comp_level(I, C, e, 0, acc, first));
	if (e->kind == N_GENEXP) {
		/* generators are consumed at once; a tuple keeps them immutable like a list */
		sv_t *t = sv_tuple(I->a, acc->list->n);
		if (!t)
			return serr_oom(I, e);
		memcpy(t->tuple.items, acc->list->items, sizeof(sv_t *) * (size_t)acc->list->n);
		acc = t;
	}
	*out = acc;
	return DALIC_OK;
}

/* ---- calls ---------------------------------------------------------------------------- */

static int eval_call(sinterp_t *I, sframe_t *F, const snode_t *e, sv_t **out)
{
	sv_t *fn;
	TRY(se_eval(I, F, e->call.func, &fn));
	sv_t *pos = sv_list(I->a, e->call.args.n);
	if (!pos)
		return serr_oom(I, e);
	TRY(eval_elts(I, F, &e->call.args, pos));
	int cap = e->call.kwargs.n + 4, nkw = 0;
	const char **names = script_arena_alloc(I->a, sizeof *names * (size_t)cap);
	sv_t **vals = script_arena_alloc(I->a, sizeof *vals * (size_t)cap);
	if (!names || !vals)
		return serr_oom(I, e);
	for (int i = 0; i < e->call.kwargs.n; i++) {
		const snode_t *k = e->call.kwargs.v[i];
		sv_t *v;
		TRY(se_eval(I, F, k->kw.value, &v));
		if (k->kw.arg) {
			for (int j = 0; j < nkw; j++)
				if (!strcmp(names[j], k->kw.arg))
					return serr(I, k, DALIC_EINVAL,
					            "SyntaxError: keyword argument repeated: %s",
					            k->kw.arg);
			names[nkw] = k->kw.arg;
			vals[nkw++] = v;
			continue;
		}
		if (v->kind == SV_OPAQUE)
			return serr_opaque(I, k, v, "cannot unpack keyword arguments");
		if (v->kind != SV_DICT)
			return serr(I, k, DALIC_EINVAL,
			            "TypeError: argument after ** must be a mapping, not %s",
			            sv_type_name(v));
		sv_t *dk, *dv;
		for (int it = 0; svdict_next(v->dict, &it, &dk, &dv);) {
			if (dk->kind != SV_STR)
				return serr(I, k, DALIC_EINVAL,
				            "TypeError: keywords must be strings");
			if (nkw == cap) {
				cap *= 2;
				const char **nn =
				    script_arena_alloc(I->a, sizeof *nn * (size_t)cap);
				sv_t **nv = script_arena_alloc(I->a, sizeof *nv * (size_t)cap);
				if (!nn || !nv)
					return serr_oom(I, k);
				memcpy(nn, names, sizeof *nn * (size_t)nkw);
				memcpy(nv, vals, sizeof *nv * (size_t)nkw);
				names = nn;
				vals = nv;
			}
			for (int j = 0; j < nkw; j++)
				if (!strcmp(names[j], dk->str.s))
					return serr(I, k, DALIC_EINVAL,
					            "TypeError: got multiple values for keyword "
					            "argument '%s'",
					            dk->str.s);
			names[nkw] = dk->str.s;
			vals[nkw++] = dv;
		}
	}
	sargs_t args = {.pos = pos->list->items,
	                .npos = pos->list->n,
	                .kwnames = names,
	                .kwvals = vals,
	                .nkw = nkw};
	return se_call(I, e, fn, &args, out);
}

int se_call1(sinterp_t *I, const snode_t *at, sv_t *fn, sv_t *arg, sv_t **out)
{
	sargs_t args = {.pos = &arg, .npos = 1};
	return se_call(I, at, fn, &args, out);
}

/* ---- boolean operators ---------------------------------------------------------------- */

int se_boolop_from(sinterp_t *I, sframe_t *F, const snode_t *node, int from, sv_t **out)
{
	sv_t *v;
	TRY(se_eval(I, F, node->boolop.values.v[from], &v));
	if (from == node->boolop.values.n - 1) {
		*out = v;
		return DALIC_OK;
	}
	if (v->kind == SV_NODE && I->tracing && I->current[I->ncurrent - 1]->conditionals)
		return sc_and_or(I, F, node, from + 1, v, out);
	if (v->kind == SV_OPAQUE) {
		*out = v;
		return DALIC_OK;
	}
	bool t;
	TRY(se_truth(I, node->boolop.values.v[from], v, &t));
	if (t == (node->boolop.op == B_OR)) {
		*out = v;
		return DALIC_OK;
	}
	return se_boolop_from(I, F, node, from + 1, out);
}

/* ---- the evaluator -------------------------------------------------------------------- */

static int eval_subscript_index(sinterp_t *I, sframe_t *F, const snode_t *e, sv_t **out)
{
	if (e->kind == N_SLICE) {
		sv_t *s = sv_new(I->a, SV_SLICE);
		if (!s)
			return serr_oom(I, e);
		s->slice.lo = s->slice.hi = s->slice.step = sv_none();
		if (e->slice.lo)
			TRY(se_eval(I, F, e->slice.lo, &s->slice.lo));
		if (e->slice.hi)
			TRY(se_eval(I, F, e->slice.hi, &s->slice.hi));
		if (e->slice.step)
			TRY(se_eval(I, F, e->slice.step, &s->slice.step));
		*out = s;
		return DALIC_OK;
	}
	if (e->kind == N_TUPLE) {
		sv_t *t = sv_tuple(I->a, e->elts.n);
		if (!t)
			return serr_oom(I, e);
		for (int i = 0; i < e->elts.n; i++)
			TRY(eval_subscript_index(I, F, e->elts.v[i], &t->tuple.items[i]));
		*out = t;
		return DALIC_OK;
	}
	return se_eval(I, F, e, out);
}

int se_eval(sinterp_t *I, sframe_t *F, const snode_t *e, sv_t **out)
{
	TRY(se_step(I, e));
	sv_t *v, *w;
	switch (e->kind) {
	case N_NAME:
		TRY(se_lookup(I, F, e, e->name, &v));
		if (v->kind == SV_NODE && I->tracing && I->ncurrent &&
		    I->current[I->ncurrent - 1]->conditionals)
			return sc_load(I, e, v, out);
		*out = v;
		return DALIC_OK;
	case N_NONE:
		*out = sv_none();
		return DALIC_OK;
	case N_BOOL:
		*out = sv_bool(e->b);
		return DALIC_OK;
	case N_INT:
		*out = sv_int(I->a, e->i);
		break;
	case N_FLOAT:
		*out = sv_float(I->a, e->f);
		break;
	case N_STR:
		*out = sv_str(I->a, e->str.s, e->str.len);
		break;
	case N_FSTRING:
		return eval_fstring(I, F, e, out);
	case N_ELLIPSIS:
		*out = sv_new(I->a, SV_ELLIPSIS);
		break;
	case N_TUPLE:
	case N_LIST:
		v = sv_list(I->a, e->elts.n);
		if (!v)
			return serr_oom(I, e);
		TRY(eval_elts(I, F, &e->elts, v));
		if (e->kind == N_LIST) {
			*out = v;
			return DALIC_OK;
		}
		w = sv_tuple(I->a, v->list->n);
		if (!w)
			return serr_oom(I, e);
		memcpy(w->tuple.items, v->list->items, sizeof(sv_t *) * (size_t)v->list->n);
		*out = w;
		return DALIC_OK;
	case N_SET:
		return serr(I, e, DALIC_EUNSUPPORTED, "sets are not supported in pipeline scripts");
	case N_DICT:
		return eval_dict(I, F, e, out);
	case N_BINOP:
		TRY(se_eval(I, F, e->bin.left, &v));
		TRY(se_eval(I, F, e->bin.right, &w));
		return se_binop(I, e, e->bin.op, v, w, out);
	case N_UNARY: {
		TRY(se_eval(I, F, e->unary.operand, &v));
		if (v->kind == SV_OPAQUE) {
			*out = v;
			return DALIC_OK;
		}
		if (e->unary.op == U_NOT) {
			if (v->kind == SV_NODE && I->tracing &&
			    I->current[I->ncurrent - 1]->conditionals)
				return sc_not(I, e, v, out);
			bool t;
			TRY(se_truth(I, e, v, &t));
			*out = sv_bool(!t);
			return DALIC_OK;
		}
		if (v->kind == SV_NODE) {
			if (e->unary.op == U_POS) {
				*out = v;
				return DALIC_OK;
			}
			if (e->unary.op == U_NEG)
				return sa_arith(I, e, "minus", &v, 1, out);
			return serr(I, e, DALIC_EINVAL,
			            "TypeError: bad operand type for unary ~: 'DataNode'");
		}
		if (v->kind == SV_BOOL || v->kind == SV_INT) {
			int64_t x = v->kind == SV_BOOL ? v->b : v->i;
			if (e->unary.op == U_NEG && x == INT64_MIN)
				return serr(I, e, DALIC_EUNSUPPORTED,
				            "integer overflow (dalic supports 64-bit integers)");
			*out = sv_int(I->a, e->unary.op == U_NEG   ? -x
			                    : e->unary.op == U_POS ? x
			                                           : ~x);
			break;
		}
		if (v->kind == SV_FLOAT && e->unary.op != U_INVERT) {
			*out = sv_float(I->a, e->unary.op == U_NEG ? -v->f : v->f);
			break;
		}
		return serr(I, e, DALIC_EINVAL, "TypeError: bad operand type for unary %s: '%s'",
		            e->unary.op == U_NEG   ? "-"
		            : e->unary.op == U_POS ? "+"
		                                   : "~",
		            sv_type_name(v));
	}
	case N_BOOLOP:
		return se_boolop_from(I, F, e, 0, out);
	case N_COMPARE: {
		TRY(se_eval(I, F, e->cmp.left, &v));
		for (int i = 0; i < e->cmp.rest.n; i++) {
			TRY(se_eval(I, F, e->cmp.rest.v[i], &w));
			sv_t *r;
			TRY(se_compare(I, e, e->cmp.ops[i], v, w, &r));
			if (i == e->cmp.rest.n - 1 || r->kind == SV_OPAQUE) {
				*out = r;
				return DALIC_OK;
			}
			bool t;
			TRY(se_truth(I, e, r, &t));
			if (!t) {
				*out = r;
				return DALIC_OK;
			}
			v = w;
		}
		return DALIC_OK;
	}
	case N_CALL:
		return eval_call(I, F, e, out);
	case N_ATTR:
		TRY(se_eval(I, F, e->attr.value, &v));
		return se_getattr(I, e, v, e->attr.attr, out);
	case N_SUBSCRIPT:
		TRY(se_eval(I, F, e->sub.value, &v));
		TRY(eval_subscript_index(I, F, e->sub.index, &w));
		return se_getitem(I, e, v, w, out);
	case N_SLICE:
		return eval_subscript_index(I, F, e, out);
	case N_STARRED:
		return serr(I, e, DALIC_EINVAL, "SyntaxError: can't use starred expression here");
	case N_LAMBDA:
		return eval_lambda(I, F, e, out);
	case N_IFEXP: {
		TRY(se_eval(I, F, e->ifexp.test, &v));
		if (v->kind == SV_OPAQUE) {
			*out = v;
			return DALIC_OK;
		}
		bool t;
		TRY(se_truth(I, e->ifexp.test, v, &t));
		return se_eval(I, F, t ? e->ifexp.body : e->ifexp.orelse, out);
	}
	case N_LISTCOMP:
	case N_SETCOMP:
	case N_DICTCOMP:
	case N_GENEXP:
		return eval_comprehension(I, F, e, out);
	case N_NAMEDEXPR:
		TRY(se_eval(I, F, e->named.value, &v));
		TRY(se_store(I, F, e->named.target, e->named.target->name, v));
		*out = v;
		return DALIC_OK;
	case N_KEYWORD:
	case N_FVALUE:
	default:
		return serr(I, e, DALIC_EPARSE, "internal error: unexpected %s in an expression",
		            script_node_kind_name(e->kind));
	}
	return *out ? DALIC_OK : serr_oom(I, e);
}

/* ---- assignment ----------------------------------------------------------------------- */

int se_assign(sinterp_t *I, sframe_t *F, const snode_t *t, sv_t *value)
{
	switch (t->kind) {
	case N_NAME:
		return se_store(I, F, t, t->name, value);
	case N_ATTR: {
		sv_t *obj;
		TRY(se_eval(I, F, t->attr.value, &obj));
		return se_setattr(I, t, obj, t->attr.attr, value);
	}
	case N_SUBSCRIPT: {
		sv_t *obj, *idx;
		TRY(se_eval(I, F, t->sub.value, &obj));
		TRY(eval_subscript_index(I, F, t->sub.index, &idx));
		return se_setitem(I, t, obj, idx, value);
	}
	case N_TUPLE:
	case N_LIST: {
		sv_t **items;
		int n;
		bool opaque;
		if (value->kind == SV_NODE)
			return serr(I, t, DALIC_EINVAL,
			            "TypeError: cannot unpack non-iterable DataNode object (the "
			            "operator has a single output)");
		TRY(se_iterate(I, t, value, &items, &n, &opaque));
		int star = -1, ntargets = t->elts.n;
		for (int i = 0; i < ntargets; i++)
			if (t->elts.v[i]->kind == N_STARRED)
				star = i;
		if (opaque) {
			for (int i = 0; i < ntargets; i++) {
				const snode_t *sub = t->elts.v[i];
				TRY(se_assign(I, F,
				              sub->kind == N_STARRED ? sub->starred.value : sub,
				              value));
			}
			return DALIC_OK;
		}
		if (star < 0 && n != ntargets)
			return serr(I, t, DALIC_EINVAL,
			            n < ntargets
			                ? "ValueError: not enough values to unpack "
			                  "(expected %d, got %d)"
			                : "ValueError: too many values to unpack (expected %d, "
			                  "got %d)",
			            ntargets, n);
		if (star >= 0 && n < ntargets - 1)
			return serr(
			    I, t, DALIC_EINVAL,
			    "ValueError: not enough values to unpack (expected at least %d, "
			    "got %d)",
			    ntargets - 1, n);
		int k = 0;
		for (int i = 0; i < ntargets; i++) {
			const snode_t *sub = t->elts.v[i];
			if (i == star) {
				int take = n - (ntargets - 1);
				sv_t *rest = sv_list(I->a, take);
				if (!rest)
					return serr_oom(I, t);
				for (int j = 0; j < take; j++)
					if (sv_list_append(I->a, rest, items[k++]))
						return serr_oom(I, t);
				TRY(se_assign(I, F, sub->starred.value, rest));
			} else {
				TRY(se_assign(I, F, sub, items[k++]));
			}
		}
		return DALIC_OK;
	}
	case N_STARRED:
		return serr(I, t, DALIC_EINVAL,
		            "SyntaxError: starred assignment target must be in a list or tuple");
	default:
		return serr(I, t, DALIC_EINVAL, "SyntaxError: cannot assign to %s",
		            script_node_kind_name(t->kind));
	}
}
