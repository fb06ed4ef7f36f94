/*
 * Expression evaluation: names with Python's scoping (locals decided statically per
 * function, enclosing functions, module globals, built-ins), literals and displays with
 * star-unpacking, f-strings, calls with *args / **kwargs, lambdas, comprehensions, and
 * assignment targets with tuple unpacking; chains of operators, attributes, calls and
 * subscripts are in pyeval_chain.c, the operators themselves in pyeval_ops.c, attribute /
 * item access in pyeval_access.c. A host type may take over reads of variables holding its
 * values (flow_load: DALI's conditionals split data nodes that way).
 */
#include "frontend/script/py/pyeval.h"

#include "frontend/script/py/pycall.h"
#include "frontend/script/py/pyclass.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyexc.h"
#include "frontend/script/py/pyexec.h"
#include "frontend/script/py/pyfmt.h"
#include "frontend/script/py/pygen.h"
#include "frontend/script/py/pyiter.h"
#include "frontend/script/py/pyscope.h"
#include "frontend/script/py/pyset.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors --------------------------------------------------------------------------- */

/* Errors while the host is strict (a pipeline is being built) stop the load; others may only
 * stop the module-level statement that raised them (display code, see pyexec.c). */
static void pyeval_note_fatal(pyinterp_t *I, int code)
{
	if (code == DALIC_ENOMEM || (I->hooks && I->hooks->strict && I->hooks->strict(I)))
		I->fatal = true;
}

int dalic_pyeval_error(pyinterp_t *I, const pynode_t *at, int code, const char *fmt, ...)
{
	pyeval_note_fatal(I, code);
	I->keep_error = false;
	char msg[DALIC_ERRMSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	int rc = dalic_pysrc_error(I->src, at ? at->line : 1, at ? at->col : 1, code, "%s", msg);
	dalic_pyexc_note(I, msg);
	return rc;
}

int dalic_pyeval_limit(pyinterp_t *I, const pynode_t *at, const char *fmt, ...)
{
	I->fatal = true;
	I->exc = NULL;
	va_list ap;
	va_start(ap, fmt);
	int rc = dalic_pysrc_verror(I->src, at ? at->line : 1, at ? at->col : 1, DALIC_EUNSUPPORTED,
	                            fmt, ap);
	va_end(ap);
	return rc;
}

int dalic_pyeval_relocate(pyinterp_t *I, const pynode_t *at, int code)
{
	pyeval_note_fatal(I, code);
	I->exc = NULL;
	return dalic_pysrc_relocate(I->src, at ? at->line : 1, at ? at->col : 1, code);
}

int dalic_pyeval_oom(pyinterp_t *I, const pynode_t *at)
{
	return dalic_pyeval_error(I, at, DALIC_ENOMEM, "out of memory while evaluating the script");
}

int dalic_pyeval_opaque_error(pyinterp_t *I, const pynode_t *at, const pyval_t *v,
                              const char *where)
{
	return dalic_pyeval_error(
	    I, at, DALIC_EUNSUPPORTED,
	    "%s: '%s' comes from code dalic does not evaluate (only nvidia.dali and the "
	    "Python subset of pipeline definitions are supported)",
	    where, v->opaque.what);
}

int dalic_pyeval_step(pyinterp_t *I, const pynode_t *at)
{
	uintptr_t here = (uintptr_t)__builtin_frame_address(0);
	if (I->stack_base > here && I->stack_base - here > PY_STACK_BUDGET)
		return dalic_pyeval_limit(
		    I, at, "RecursionError: the script nests calls and expressions too deeply");
	if (++I->steps > PY_MAX_STEPS)
		return dalic_pyeval_limit(
		    I, at, "the script runs too long (more than %ld evaluation steps)",
		    PY_MAX_STEPS);
	return DALIC_OK;
}

/* ---- names ---------------------------------------------------------------------------- */

static bool pyeval_is_local(const pyframe_t *f, const char *name)
{
	return dalic_pyscope_set_has((pynameset_t){(const char **)f->lnames, f->nlnames}, name);
}

static bool pyeval_is_declared_global(const pyframe_t *f, const char *name)
{
	return dalic_pyscope_set_has((pynameset_t){(const char **)f->gnames, f->ngnames}, name);
}

static int pyeval_lookup_global(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	pyval_t *v = dalic_pydict_get_str(I->globals->locals, name);
	if (!v)
		v = dalic_pydict_get_str(I->builtins, name);
	if (v) {
		*out = v;
		return DALIC_OK;
	}
	pyval_t *line = I->skipped ? dalic_pydict_get_str(I->skipped, name) : NULL;
	if (line)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "NameError: name '%s' is not defined (the statement at line "
		    "%lld that sets it failed and was skipped)",
		    name, (long long)line->i);
	if (I->star_opaque) {
		/* a name that may come from `from <module dalic does not know> import *` */
		*out = dalic_pyval_opaque(I->a, dalic_pyarena_strdup(I->a, name));
		return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
	}
	return dalic_pyeval_error(I, at, DALIC_EINVAL, "NameError: name '%s' is not defined", name);
}

int dalic_pyeval_lookup(pyinterp_t *I, pyframe_t *F, const pynode_t *at, const char *name,
                        pyval_t **out)
{
	pyval_t *v;
	if (F->kind == FR_CLASS) {
		if ((v = dalic_pydict_get_str(F->locals, name))) {
			*out = v;
			return DALIC_OK;
		}
	} else if (F->kind != FR_MODULE) {
		if (pyeval_is_declared_global(F, name))
			return pyeval_lookup_global(I, at, name, out);
		if (pyeval_is_local(F, name)) {
			if ((v = dalic_pydict_get_str(F->locals, name))) {
				*out = v;
				return DALIC_OK;
			}
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "UnboundLocalError: cannot access local variable '%s' where it "
			    "is not associated with a value",
			    name);
		}
	}
	/* enclosing function scopes (class bodies are not visible from nested functions) */
	for (pyframe_t *f = F->parent; f && f->kind != FR_MODULE; f = f->parent) {
		if (f->kind == FR_CLASS)
			continue;
		if (pyeval_is_local(f, name)) {
			if ((v = dalic_pydict_get_str(f->locals, name))) {
				*out = v;
				return DALIC_OK;
			}
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "NameError: cannot access free variable '%s' where it is not "
			    "associated with a value in enclosing scope",
			    name);
		}
	}
	return pyeval_lookup_global(I, at, name, out);
}

int dalic_pyeval_store(pyinterp_t *I, pyframe_t *F, const pynode_t *at, const char *name,
                       pyval_t *value)
{
	pyframe_t *target = F;
	/* a named expression inside a comprehension binds in the enclosing function */
	while (target->kind == FR_SCOPE && !pyeval_is_local(target, name) && target->parent)
		target = target->parent;
	if (target->kind != FR_MODULE && target->kind != FR_CLASS &&
	    pyeval_is_declared_global(target, name))
		target = I->globals;
	else if (target->kind == FR_FUNCTION && !pyeval_is_local(target, name)) {
		/* `nonlocal`: the nearest enclosing function that owns the name */
		for (pyframe_t *f = target->parent; f && f->kind != FR_MODULE; f = f->parent)
			if (f->kind != FR_CLASS && pyeval_is_local(f, name)) {
				target = f;
				break;
			}
	}
	if (I->sealed)
		DALIC_TRY(dalic_pycall_check_write(
		    I, at, target->locals, target->kind == FR_MODULE ? "a global variable" : "a variable"));
	if (I->hooks && I->hooks->bind)
		I->hooks->bind(I, target, name, value);
	return dalic_pydict_set_str(I->a, target->locals, name, value) ? dalic_pyeval_oom(I, at)
	                                                               : DALIC_OK;
}

/* ---- argument helpers ------------------------------------------------------------------ */

pyval_t *dalic_pyeval_kwarg(const pyargs_t *args, const char *name)
{
	for (int i = 0; i < args->nkw; i++)
		if (!strcmp(args->kwnames[i], name))
			return args->kwvals[i];
	return NULL;
}

int dalic_pyeval_parse_args(pyinterp_t *I, const pynode_t *at, const char *fname,
                            const pyargs_t *args, const char *const *names, int nrequired,
                            int nnames, pyval_t **vals)
{
	if (args->npos > nnames)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: %s() takes at most %d argument%s (%d given)",
		                          fname, nnames, nnames == 1 ? "" : "s", args->npos);
	for (int i = 0; i < nnames; i++)
		vals[i] = i < args->npos ? args->pos[i] : NULL;
	for (int k = 0; k < args->nkw; k++) {
		int i = 0;
		while (i < nnames && strcmp(names[i], args->kwnames[k]))
			i++;
		if (i == nnames)
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: %s() got an unexpected keyword argument '%s'", fname,
			    args->kwnames[k]);
		if (vals[i])
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: %s() got multiple values for argument '%s'", fname,
			    names[i]);
		vals[i] = args->kwvals[k];
	}
	for (int i = 0; i < nrequired; i++)
		if (!vals[i])
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "TypeError: %s() missing required argument '%s'",
			                          fname, names[i]);
	return DALIC_OK;
}

int dalic_pyeval_str(pyinterp_t *I, const pynode_t *at, pyval_t *v, bool repr, pyval_t **out)
{
	if (v->kind == PV_STR && !repr) {
		*out = v;
		return DALIC_OK;
	}
	if (v->kind == PV_INSTANCE) {
		bool found;
		DALIC_TRY(dalic_pyclass_str(I, at, v, repr, out, &found));
		if (found)
			return DALIC_OK;
	}
	pybuf_t b = {0};
	pyclass_fmt_t ctx = {I, at};
	dalic_pyclass_format_hook(&b, &ctx);
	dalic_pyval_format(&b, v, repr);
	int failed = b.failed;
	*out = b.oom || failed ? NULL : dalic_pyval_str(I->a, b.s ? b.s : "", b.n);
	dalic_pybuf_free(&b);
	return failed ? failed : *out ? DALIC_OK : dalic_pyeval_oom(I, at);
}

/* ---- displays ------------------------------------------------------------------------- */

/* Appends the values of elts (with *starred expansion) to list `acc`. */
static int pyeval_eval_elts(pyinterp_t *I, pyframe_t *F, const pynode_list_t *elts, pyval_t *acc)
{
	for (int i = 0; i < elts->n; i++) {
		const pynode_t *e = elts->v[i];
		pyval_t *v;
		if (e->kind == N_STARRED) {
			DALIC_TRY(dalic_pyeval_expr(I, F, e->starred.value, &v));
			pyval_t **items;
			int n;
			bool opaque;
			DALIC_TRY(dalic_pyeval_iterate(I, e, v, false, &items, &n, &opaque));
			if (opaque)
				return dalic_pyeval_opaque_error(I, e, v, "cannot unpack");
			for (int k = 0; k < n; k++)
				if (dalic_pyval_list_append(I->a, acc, items[k]))
					return dalic_pyeval_oom(I, e);
			continue;
		}
		DALIC_TRY(dalic_pyeval_expr(I, F, e, &v));
		if (dalic_pyval_list_append(I->a, acc, v))
			return dalic_pyeval_oom(I, e);
	}
	return DALIC_OK;
}

static int pyeval_eval_dict(pyinterp_t *I, pyframe_t *F, const pynode_t *e, pyval_t **out)
{
	pyval_t *d = dalic_pyval_dict(I->a);
	if (!d)
		return dalic_pyeval_oom(I, e);
	for (int i = 0; i < e->dict.values.n; i++) {
		const pynode_t *kn = e->dict.keys.v[i], *vn = e->dict.values.v[i];
		pyval_t *k = NULL, *v;
		if (kn)
			DALIC_TRY(dalic_pyeval_expr(I, F, kn, &k));
		DALIC_TRY(dalic_pyeval_expr(I, F, vn, &v));
		if (!kn) {
			if (v->kind != PV_DICT)
				return dalic_pyeval_error(I, vn, DALIC_EINVAL,
				                          "TypeError: '%s' object is not a mapping",
				                          dalic_pyval_type_name(v));
			pyval_t *ik, *iv;
			for (int it = 0; dalic_pydict_next(v->dict, &it, &ik, &iv);)
				if (dalic_pydict_set(I->a, d->dict, ik, iv))
					return dalic_pyeval_oom(I, vn);
			continue;
		}
		int rc = dalic_pydict_set(I->a, d->dict, k, v);
		if (rc == DALIC_EINVAL)
			return dalic_pyeval_error(I, kn, DALIC_EINVAL,
			                          "TypeError: unhashable type: '%s'",
			                          dalic_pyval_type_name(k));
		if (rc)
			return dalic_pyeval_oom(I, kn);
	}
	*out = d;
	return DALIC_OK;
}

static int pyeval_eval_fstring(pyinterp_t *I, pyframe_t *F, const pynode_t *e, pyval_t **out)
{
	pybuf_t b = {0};
	int rc = DALIC_OK;
	for (int i = 0; !rc && i < e->parts.n; i++) {
		const pynode_t *p = e->parts.v[i];
		if (p->kind == N_STR) {
			dalic_pybuf_put(&b, p->str.s, p->str.len);
			continue;
		}
		pyval_t *v, *spec = NULL;
		rc = dalic_pyeval_expr(I, F, p->fvalue.value, &v);
		if (!rc && v->kind == PV_OPAQUE)
			rc = dalic_pyeval_opaque_error(I, p, v, "cannot format");
		if (!rc && p->fvalue.conv)
			rc = dalic_pyeval_str(I, p, v, p->fvalue.conv != 's', &v);
		if (!rc && p->fvalue.spec)
			rc = pyeval_eval_fstring(I, F, p->fvalue.spec, &spec);
		if (!rc)
			rc = dalic_pyfmt_spec(I, p, v, spec ? spec->str.s : "", &b);
	}
	if (!rc)
		*out = b.oom ? NULL : dalic_pyval_str(I->a, b.s ? b.s : "", b.n);
	dalic_pybuf_free(&b);
	if (!rc && !*out)
		rc = dalic_pyeval_oom(I, e);
	return rc;
}

/* ---- functions and comprehensions ----------------------------------------------------- */

static int pyeval_eval_lambda(pyinterp_t *I, pyframe_t *F, const pynode_t *e, pyval_t **out)
{
	pyfunc_t *f = dalic_pyarena_alloc(I->a, sizeof *f);
	pyval_t *v = dalic_pyval_new(I->a, PV_FUNC);
	if (!f || !v)
		return dalic_pyeval_oom(I, e);
	f->name = "<lambda>";
	f->params = &e->lambda.params;
	pyfunc_info_t *info = dalic_pyarena_alloc(I->a, sizeof *info);
	if (!info)
		return dalic_pyeval_oom(I, e);
	bool ok = true;
	pynameset_t names = {0};
	for (int i = 0; i < e->lambda.params.n; i++)
		names = dalic_pyscope_set_add(I->a, names, e->lambda.params.v[i].name, &ok);
	if (!ok)
		return dalic_pyeval_oom(I, e);
	info->locals = names.v;
	info->nlocals = names.n;
	f->info = info;
	f->expr = e->lambda.body;
	f->closure = F;
	f->node = e;
	f->globals = I->globals;
	f->src = I->src;
	f->defaults = dalic_pyarena_alloc(I->a, sizeof(pyval_t *) * (size_t)(f->params->n + 1));
	if (!f->defaults)
		return dalic_pyeval_oom(I, e);
	for (int i = 0; i < f->params->n; i++)
		if (f->params->v[i].def)
			DALIC_TRY(dalic_pyeval_expr(I, F, f->params->v[i].def, &f->defaults[i]));
	v->func = f;
	*out = v;
	return DALIC_OK;
}

/* {a, b} and {x for ...}: a set of the values in order. */
static int pyeval_to_set(pyinterp_t *I, const pynode_t *e, pyval_t **items, int n,
                         pyval_t **out)
{
	if (!(*out = dalic_pyset_new(I)))
		return dalic_pyeval_oom(I, e);
	for (int i = 0; i < n; i++)
		DALIC_TRY(dalic_pyset_add(I, e, *out, items[i]));
	return DALIC_OK;
}

/* One `for` level of a comprehension; at the innermost level the element goes into acc,
 * or is yielded when acc is NULL (a lazy generator expression). Iteration is lazy, so a
 * comprehension over an endless generator stops where its consumer stops. */
static int pyeval_comp_level(pyinterp_t *I, pyframe_t *C, const pynode_t *e, int level,
                             pyval_t *acc, pyval_t *first_iter)
{
	if (level == e->comp.ngens) {
		pyval_t *v;
		if (e->kind == N_DICTCOMP) {
			pyval_t *k;
			DALIC_TRY(dalic_pyeval_expr(I, C, e->comp.elt, &k));
			DALIC_TRY(dalic_pyeval_expr(I, C, e->comp.value, &v));
			int rc = dalic_pydict_set(I->a, acc->dict, k, v);
			if (rc == DALIC_EINVAL)
				return dalic_pyeval_error(I, e->comp.elt, rc,
				                          "TypeError: unhashable type: '%s'",
				                          dalic_pyval_type_name(k));
			return rc ? dalic_pyeval_oom(I, e) : DALIC_OK;
		}
		DALIC_TRY(dalic_pyeval_expr(I, C, e->comp.elt, &v));
		if (!acc) {
			pyval_t *sent;
			return dalic_pygen_yield(I, e, v, &sent);
		}
		return dalic_pyval_list_append(I->a, acc, v) ? dalic_pyeval_oom(I, e) : DALIC_OK;
	}
	const pycomp_t *g = &e->comp.gens[level];
	pyval_t *itv = first_iter;
	if (level > 0)
		DALIC_TRY(dalic_pyeval_expr(I, C, g->iter, &itv));
	pyiter_t it;
	bool opaque, done;
	DALIC_TRY(dalic_pyiter_open(I, g->iter, itv, &it, &opaque));
	if (opaque)
		return dalic_pyeval_opaque_error(I, g->iter, itv, "cannot iterate");
	for (long count = 0;; count++) {
		pyval_t *item;
		DALIC_TRY(dalic_pyiter_next(I, g->iter, &it, &item, &done));
		if (done)
			break;
		if (count >= PY_MAX_LOOP_ITERATIONS)
			return dalic_pyeval_limit(I, e, "comprehension runs more than %d iterations",
			                          PY_MAX_LOOP_ITERATIONS);
		DALIC_TRY(dalic_pyeval_step(I, e));
		DALIC_TRY(dalic_pyeval_assign(I, C, g->target, item));
		bool keep = true;
		for (int k = 0; keep && k < g->ifs.n; k++) {
			pyval_t *c;
			DALIC_TRY(dalic_pyeval_expr(I, C, g->ifs.v[k], &c));
			DALIC_TRY(dalic_pyeval_truth(I, g->ifs.v[k], c, &keep));
		}
		if (keep)
			DALIC_TRY(pyeval_comp_level(I, C, e, level + 1, acc, NULL));
	}
	return DALIC_OK;
}

int dalic_pyeval_comprehension(pyinterp_t *I, pyframe_t *C, const pynode_t *e, pyval_t *first,
                               pyval_t *acc)
{
	return pyeval_comp_level(I, C, e, 0, acc, first);
}

static int pyeval_eval_comprehension(pyinterp_t *I, pyframe_t *F, const pynode_t *e, pyval_t **out)
{
	/* the first iterable is evaluated in the enclosing scope, the rest in the new one */
	pyval_t *first;
	DALIC_TRY(dalic_pyeval_expr(I, F, e->comp.gens[0].iter, &first));
	pyframe_t *C = dalic_pyexec_new_frame(I, FR_SCOPE, F);
	if (!C)
		return dalic_pyeval_oom(I, e);
	bool ok = true;
	pynameset_t targets = {0};
	for (int i = 0; i < e->comp.ngens; i++)
		targets = dalic_pyscope_target_names(I->a, e->comp.gens[i].target, targets, &ok);
	if (!ok)
		return dalic_pyeval_oom(I, e);
	C->lnames = targets.v;
	C->nlnames = targets.n;
	/* a generator expression over a generator or iterator stays lazy (it may never end) */
	if (e->kind == N_GENEXP && dalic_pyiter_is_lazy(I, first))
		return dalic_pygen_new_expr(I, e, C, first, out);
	pyval_t *acc = e->kind == N_DICTCOMP ? dalic_pyval_dict(I->a) : dalic_pyval_list(I->a, 8);
	if (!acc)
		return dalic_pyeval_oom(I, e);
	DALIC_TRY(pyeval_comp_level(I, C, e, 0, acc, first));
	if (e->kind == N_GENEXP) /* computed at once, handed out one value at a time */
		acc = dalic_pyiter_over(I, acc->list->items, acc->list->n, "generator");
	if (e->kind == N_SETCOMP)
		return pyeval_to_set(I, e, acc->list->items, acc->list->n, out);
	if (!(*out = acc))
		return dalic_pyeval_oom(I, e);
	return DALIC_OK;
}

/* ---- calls ---------------------------------------------------------------------------- */

/* Whether `name` is among the keyword names so far; `seen` indexes them once a call has
 * many (a call with 20k keyword arguments stays linear). */
static int pyeval_kw_seen(pyinterp_t *I, const pynode_t *at, pydict_t **seen, const char **names,
                          int nkw, const char *name, bool *dup)
{
	if (!*seen && nkw >= 16) {
		if (!(*seen = dalic_pydict_new(I->a)))
			return dalic_pyeval_oom(I, at);
		for (int j = 0; j < nkw; j++)
			if (dalic_pydict_set_str(I->a, *seen, names[j], dalic_pyval_true()))
				return dalic_pyeval_oom(I, at);
	}
	if (*seen) {
		*dup = dalic_pydict_get_str(*seen, name) != NULL;
		if (!*dup && dalic_pydict_set_str(I->a, *seen, name, dalic_pyval_true()))
			return dalic_pyeval_oom(I, at);
		return DALIC_OK;
	}
	*dup = false;
	for (int j = 0; j < nkw && !*dup; j++)
		*dup = !strcmp(names[j], name);
	return DALIC_OK;
}

int dalic_pyeval_call_expr(pyinterp_t *I, pyframe_t *F, const pynode_t *e, pyval_t *fn,
                           pyval_t **out)
{
	pydict_t *seen = NULL;
	bool dup;
	if (I->hooks && I->hooks->call) {
		/* the host may take the call before its arguments are evaluated */
		bool taken = false;
		int rc = I->hooks->call(I, F, e, fn, &taken, out);
		if (rc || taken)
			return rc;
	}
	pyval_t *pos = dalic_pyval_list(I->a, e->call.args.n);
	if (!pos)
		return dalic_pyeval_oom(I, e);
	DALIC_TRY(pyeval_eval_elts(I, F, &e->call.args, pos));
	int cap = e->call.kwargs.n + 4, nkw = 0;
	const char **names = dalic_pyarena_alloc(I->a, sizeof *names * (size_t)cap);
	pyval_t **vals = dalic_pyarena_alloc(I->a, sizeof *vals * (size_t)cap);
	if (!names || !vals)
		return dalic_pyeval_oom(I, e);
	for (int i = 0; i < e->call.kwargs.n; i++) {
		const pynode_t *k = e->call.kwargs.v[i];
		pyval_t *v;
		DALIC_TRY(dalic_pyeval_expr(I, F, k->kw.value, &v));
		if (k->kw.arg) {
			DALIC_TRY(pyeval_kw_seen(I, k, &seen, names, nkw, k->kw.arg, &dup));
			if (dup)
				return dalic_pyeval_error(
				    I, k, DALIC_EINVAL,
				    "SyntaxError: keyword argument repeated: %s", k->kw.arg);
			names[nkw] = k->kw.arg;
			vals[nkw++] = v;
			continue;
		}
		if (v->kind == PV_OPAQUE)
			return dalic_pyeval_opaque_error(I, k, v,
			                                 "cannot unpack keyword arguments");
		if (v->kind != PV_DICT)
			return dalic_pyeval_error(
			    I, k, DALIC_EINVAL,
			    "TypeError: argument after ** must be a mapping, not %s",
			    dalic_pyval_type_name(v));
		pyval_t *dk, *dv;
		for (int it = 0; dalic_pydict_next(v->dict, &it, &dk, &dv);) {
			if (dk->kind != PV_STR)
				return dalic_pyeval_error(I, k, DALIC_EINVAL,
				                          "TypeError: keywords must be strings");
			if (nkw == cap) {
				cap *= 2;
				const char **nn =
				    dalic_pyarena_alloc(I->a, sizeof *nn * (size_t)cap);
				pyval_t **nv = dalic_pyarena_alloc(I->a, sizeof *nv * (size_t)cap);
				if (!nn || !nv)
					return dalic_pyeval_oom(I, k);
				memcpy(nn, names, sizeof *nn * (size_t)nkw);
				memcpy(nv, vals, sizeof *nv * (size_t)nkw);
				names = nn;
				vals = nv;
			}
			DALIC_TRY(pyeval_kw_seen(I, k, &seen, names, nkw, dk->str.s, &dup));
			if (dup)
				return dalic_pyeval_error(
				    I, k, DALIC_EINVAL,
				    "TypeError: got multiple values for keyword "
				    "argument '%s'",
				    dk->str.s);
			names[nkw] = dk->str.s;
			vals[nkw++] = dv;
		}
	}
	pyargs_t args = {.pos = pos->list->items,
	                 .npos = pos->list->n,
	                 .kwnames = names,
	                 .kwvals = vals,
	                 .nkw = nkw};
	return dalic_pyeval_call(I, e, fn, &args, out);
}

int dalic_pyeval_call1(pyinterp_t *I, const pynode_t *at, pyval_t *fn, pyval_t *arg, pyval_t **out)
{
	pyargs_t args = {.pos = &arg, .npos = 1};
	return dalic_pyeval_call(I, at, fn, &args, out);
}

/* ---- boolean operators ---------------------------------------------------------------- */

int dalic_pyeval_boolop_from(pyinterp_t *I, pyframe_t *F, const pynode_t *node, int from,
                             pyval_t **out)
{
	const pynode_list_t *vals = &node->boolop.values;
	for (int k = from;; k++) {
		pyval_t *v;
		DALIC_TRY(dalic_pyeval_expr(I, F, vals->v[k], &v));
		if (k == vals->n - 1 || v->kind == PV_OPAQUE) {
			*out = v;
			return DALIC_OK;
		}
		if (v->kind == PV_HOST && v->host.type->flow && v->host.type->flow(I, v))
			return v->host.type->flow_boolop(I, F, node, k + 1, v, out);
		bool t;
		DALIC_TRY(dalic_pyeval_truth(I, vals->v[k], v, &t));
		if (t == (node->boolop.op == B_OR)) {
			*out = v;
			return DALIC_OK;
		}
	}
}

/* ---- the evaluator -------------------------------------------------------------------- */

int dalic_pyeval_subscript_index(pyinterp_t *I, pyframe_t *F, const pynode_t *e, pyval_t **out)
{
	if (e->kind == N_SLICE) {
		pyval_t *s = dalic_pyval_new(I->a, PV_SLICE);
		if (!s)
			return dalic_pyeval_oom(I, e);
		s->slice.lo = s->slice.hi = s->slice.step = dalic_pyval_none();
		if (e->slice.lo)
			DALIC_TRY(dalic_pyeval_expr(I, F, e->slice.lo, &s->slice.lo));
		if (e->slice.hi)
			DALIC_TRY(dalic_pyeval_expr(I, F, e->slice.hi, &s->slice.hi));
		if (e->slice.step)
			DALIC_TRY(dalic_pyeval_expr(I, F, e->slice.step, &s->slice.step));
		*out = s;
		return DALIC_OK;
	}
	if (e->kind == N_TUPLE) {
		pyval_t *t = dalic_pyval_tuple(I->a, e->elts.n);
		if (!t)
			return dalic_pyeval_oom(I, e);
		for (int i = 0; i < e->elts.n; i++)
			DALIC_TRY(
			    dalic_pyeval_subscript_index(I, F, e->elts.v[i], &t->tuple.items[i]));
		*out = t;
		return DALIC_OK;
	}
	return dalic_pyeval_expr(I, F, e, out);
}

int dalic_pyeval_expr(pyinterp_t *I, pyframe_t *F, const pynode_t *e, pyval_t **out)
{
	DALIC_TRY(dalic_pyeval_step(I, e));
	pyval_t *v, *w;
	switch (e->kind) {
	case N_NAME:
		DALIC_TRY(dalic_pyeval_lookup(I, F, e, e->name, &v));
		if (v->kind == PV_HOST && v->host.type->flow && v->host.type->flow(I, v))
			return v->host.type->flow_load(I, e, v, out);
		*out = v;
		return DALIC_OK;
	case N_NONE:
		*out = dalic_pyval_none();
		return DALIC_OK;
	case N_BOOL:
		*out = dalic_pyval_bool(e->b);
		return DALIC_OK;
	case N_INT:
		*out = dalic_pyval_int(I->a, e->i);
		break;
	case N_FLOAT:
		*out = dalic_pyval_float(I->a, e->f);
		break;
	case N_STR:
		*out = dalic_pyval_str(I->a, e->str.s, e->str.len);
		break;
	case N_FSTRING:
		return pyeval_eval_fstring(I, F, e, out);
	case N_ELLIPSIS:
		*out = dalic_pyval_new(I->a, PV_ELLIPSIS);
		break;
	case N_TUPLE:
	case N_LIST:
		v = dalic_pyval_list(I->a, e->elts.n);
		if (!v)
			return dalic_pyeval_oom(I, e);
		DALIC_TRY(pyeval_eval_elts(I, F, &e->elts, v));
		if (e->kind == N_LIST) {
			*out = v;
			return DALIC_OK;
		}
		w = dalic_pyval_tuple(I->a, v->list->n);
		if (!w)
			return dalic_pyeval_oom(I, e);
		memcpy(w->tuple.items, v->list->items, sizeof(pyval_t *) * (size_t)v->list->n);
		*out = w;
		return DALIC_OK;
	case N_SET:
		v = dalic_pyval_list(I->a, e->elts.n);
		if (!v)
			return dalic_pyeval_oom(I, e);
		DALIC_TRY(pyeval_eval_elts(I, F, &e->elts, v));
		return pyeval_to_set(I, e, v->list->items, v->list->n, out);
	case N_DICT:
		return pyeval_eval_dict(I, F, e, out);
	case N_BINOP:
	case N_CALL:
	case N_ATTR:
	case N_SUBSCRIPT:
		return dalic_pyeval_chain(I, F, e, out);
	case N_UNARY:
		DALIC_TRY(dalic_pyeval_expr(I, F, e->unary.operand, &v));
		return dalic_pyeval_unary(I, e, e->unary.op, v, out);
	case N_BOOLOP:
		return dalic_pyeval_boolop_from(I, F, e, 0, out);
	case N_COMPARE: {
		DALIC_TRY(dalic_pyeval_expr(I, F, e->cmp.left, &v));
		for (int i = 0; i < e->cmp.rest.n; i++) {
			DALIC_TRY(dalic_pyeval_expr(I, F, e->cmp.rest.v[i], &w));
			pyval_t *r;
			DALIC_TRY(dalic_pyeval_compare(I, e, e->cmp.ops[i], v, w, &r));
			if (i == e->cmp.rest.n - 1 || r->kind == PV_OPAQUE) {
				*out = r;
				return DALIC_OK;
			}
			bool t;
			DALIC_TRY(dalic_pyeval_truth(I, e, r, &t));
			if (!t) {
				*out = r;
				return DALIC_OK;
			}
			v = w;
		}
		return DALIC_OK;
	}
	case N_SLICE:
		return dalic_pyeval_subscript_index(I, F, e, out);
	case N_STARRED:
		return dalic_pyeval_error(I, e, DALIC_EINVAL,
		                          "SyntaxError: can't use starred expression here");
	case N_LAMBDA:
		return pyeval_eval_lambda(I, F, e, out);
	case N_IFEXP: {
		DALIC_TRY(dalic_pyeval_expr(I, F, e->ifexp.test, &v));
		if (v->kind == PV_OPAQUE) {
			*out = v;
			return DALIC_OK;
		}
		bool t;
		DALIC_TRY(dalic_pyeval_truth(I, e->ifexp.test, v, &t));
		return dalic_pyeval_expr(I, F, t ? e->ifexp.body : e->ifexp.orelse, out);
	}
	case N_LISTCOMP:
	case N_SETCOMP:
	case N_DICTCOMP:
	case N_GENEXP:
		return pyeval_eval_comprehension(I, F, e, out);
	case N_NAMEDEXPR:
		DALIC_TRY(dalic_pyeval_expr(I, F, e->named.value, &v));
		DALIC_TRY(dalic_pyeval_store(I, F, e->named.target, e->named.target->name, v));
		*out = v;
		return DALIC_OK;
	case N_YIELD:
		v = dalic_pyval_none();
		if (e->yield.value)
			DALIC_TRY(dalic_pyeval_expr(I, F, e->yield.value, &v));
		return dalic_pygen_yield(I, e, v, out);
	case N_YIELDFROM:
		DALIC_TRY(dalic_pyeval_expr(I, F, e->yield.value, &v));
		return dalic_pygen_yield_from(I, e, v, out);
	case N_KEYWORD:
	case N_FVALUE:
	default:
		return dalic_pyeval_error(I, e, DALIC_EPARSE,
		                          "internal error: unexpected %s in an expression",
		                          dalic_pyast_kind_name(e->kind));
	}
	return *out ? DALIC_OK : dalic_pyeval_oom(I, e);
}

/* ---- assignment ----------------------------------------------------------------------- */

int dalic_pyeval_assign(pyinterp_t *I, pyframe_t *F, const pynode_t *t, pyval_t *value)
{
	switch (t->kind) {
	case N_NAME:
		return dalic_pyeval_store(I, F, t, t->name, value);
	case N_ATTR: {
		pyval_t *obj;
		DALIC_TRY(dalic_pyeval_expr(I, F, t->attr.value, &obj));
		return dalic_pyeval_setattr(I, t, obj, t->attr.attr, value);
	}
	case N_SUBSCRIPT: {
		pyval_t *obj, *idx;
		DALIC_TRY(dalic_pyeval_expr(I, F, t->sub.value, &obj));
		DALIC_TRY(dalic_pyeval_subscript_index(I, F, t->sub.index, &idx));
		return dalic_pyeval_setitem(I, t, obj, idx, value);
	}
	case N_TUPLE:
	case N_LIST: {
		pyval_t **items;
		int n;
		bool opaque;
		DALIC_TRY(dalic_pyeval_iterate(I, t, value, true, &items, &n, &opaque));
		int star = -1, ntargets = t->elts.n;
		for (int i = 0; i < ntargets; i++)
			if (t->elts.v[i]->kind == N_STARRED)
				star = i;
		if (opaque) {
			for (int i = 0; i < ntargets; i++) {
				const pynode_t *sub = t->elts.v[i];
				DALIC_TRY(dalic_pyeval_assign(
				    I, F, sub->kind == N_STARRED ? sub->starred.value : sub,
				    value));
			}
			return DALIC_OK;
		}
		if (star < 0 && n != ntargets)
			return dalic_pyeval_error(
			    I, t, DALIC_EINVAL,
			    n < ntargets ? "ValueError: not enough values to unpack "
			                   "(expected %d, got %d)"
			                 : "ValueError: too many values to unpack (expected %d, "
			                   "got %d)",
			    ntargets, n);
		if (star >= 0 && n < ntargets - 1)
			return dalic_pyeval_error(
			    I, t, DALIC_EINVAL,
			    "ValueError: not enough values to unpack (expected at least %d, "
			    "got %d)",
			    ntargets - 1, n);
		int k = 0;
		for (int i = 0; i < ntargets; i++) {
			const pynode_t *sub = t->elts.v[i];
			if (i == star) {
				int take = n - (ntargets - 1);
				pyval_t *rest = dalic_pyval_list(I->a, take);
				if (!rest)
					return dalic_pyeval_oom(I, t);
				for (int j = 0; j < take; j++)
					if (dalic_pyval_list_append(I->a, rest, items[k++]))
						return dalic_pyeval_oom(I, t);
				DALIC_TRY(dalic_pyeval_assign(I, F, sub->starred.value, rest));
			} else {
				DALIC_TRY(dalic_pyeval_assign(I, F, sub, items[k++]));
			}
		}
		return DALIC_OK;
	}
	case N_STARRED:
		return dalic_pyeval_error(
		    I, t, DALIC_EINVAL,
		    "SyntaxError: starred assignment target must be in a list or tuple");
	default:
		return dalic_pyeval_error(I, t, DALIC_EINVAL, "SyntaxError: cannot assign to %s",
		                          dalic_pyast_kind_name(t->kind));
	}
}
