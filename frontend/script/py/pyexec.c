/*
 * Statements, functions and classes (see pyexec.h). Module-level code runs like Python
 * except that a statement failing on a Python error is skipped (display code) unless the
 * host is strict or the failure is an interpreter limit. A failing statement in a loop
 * fails the whole loop. Loops over values dalic does not model are skipped the same way.
 * Loop iterations and call depth are bounded so no script can hang or exhaust the stack.
 */
#include "frontend/script/py/pyexec.h"

#include "frontend/script/py/pycall.h"
#include "frontend/script/py/pyclass.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyexc.h"
#include "frontend/script/py/pygen.h"
#include "frontend/script/py/pylibmod.h"
#include "frontend/script/py/pyiter.h"
#include "frontend/script/py/pymod.h"
#include "frontend/script/py/pyscope.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int pyexec_stmt(pyinterp_t *I, pyframe_t *F, const pynode_t *s);

/* Whether a failing statement may be skipped now (the host is not strict). */
static bool pyexec_lenient(pyinterp_t *I)
{
	return !(I->hooks && I->hooks->strict && I->hooks->strict(I));
}

pyframe_t *dalic_pyexec_new_frame(pyinterp_t *I, pyframe_kind_t kind, pyframe_t *parent)
{
	pyframe_t *f = dalic_pyarena_alloc(I->a, sizeof *f);
	if (!f)
		return NULL;
	f->kind = kind;
	f->parent = parent;
	f->locals = dalic_pydict_new(I->a);
	f->retval = dalic_pyval_new(I->a, PV_UNDEF);
	if (!f->locals || !f->retval)
		return NULL;
	f->retval->undef.name = "retval_";
	f->do_return = dalic_pyval_false();
	return f;
}

/* A skipped statement leaves none of its names behind: whatever it would have bound is
 * unbound, so a later use is a NameError naming the statement rather than a stale or
 * partial value. */
static int pyexec_skip(pyinterp_t *I, pyframe_t *F, pynode_t *s)
{
	if (!I->first_skipped)
		I->first_skipped = strdup(dalic_last_error());
	bool ok = true;
	pynameset_t names = dalic_pyscope_bound_names(I->a, &(pynode_list_t){&s, 1}, &ok);
	if (!ok)
		return dalic_pyeval_oom(I, s);
	if (names.n && !I->skipped && !(I->skipped = dalic_pydict_new(I->a)))
		return dalic_pyeval_oom(I, s);
	for (int i = 0; i < names.n; i++) {
		pyval_t *key = dalic_pyval_cstr(I->a, names.v[i]),
		        *line = dalic_pyval_int(I->a, s->line);
		if (!key || !line || dalic_pydict_set(I->a, I->skipped, key, line))
			return dalic_pyeval_oom(I, s);
		dalic_pydict_del(F->locals, key);
	}
	return DALIC_OK;
}

/* `if __name__ == "__main__":` (either operand order) */
static bool pyexec_is_main_guard(const pynode_t *s)
{
	if (s->kind != S_IF || s->if_.test->kind != N_COMPARE || s->if_.test->cmp.rest.n != 1 ||
	    s->if_.test->cmp.ops[0] != CMP_EQ)
		return false;
	const pynode_t *a = s->if_.test->cmp.left, *b = s->if_.test->cmp.rest.v[0];
	if (a->kind == N_STR) {
		const pynode_t *t = a;
		a = b;
		b = t;
	}
	return a->kind == N_NAME && !strcmp(a->name, "__name__") && b->kind == N_STR &&
	       !strcmp(b->str.s, "__main__");
}

/* The module's __main__ block is its driver (argparse, serializing to a file, showing
 * results): as in Python, its first failing statement ends it. When that is a Python error or
 * a refused effect, not a pipeline definition or a limit, the load goes on with the pipelines
 * created so far or those the module defines, and says so (script.c). */
static bool pyexec_skip_main(pyinterp_t *I, const pynode_t *s, int rc)
{
	if (rc >= 0 || rc == DALIC_ENOMEM || I->loops || !pyexec_is_main_guard(s) ||
	    !pyexec_lenient(I) || (I->fatal && !I->refused) || I->main_skipped)
		return false;
	if (!(I->main_skipped = strdup(dalic_last_error())))
		return false;
	I->main_line = s->line;
	I->fatal = I->refused = I->keep_error = false;
	dalic_pyexc_clear(I);
	return true;
}

int dalic_pyexec_block(pyinterp_t *I, pyframe_t *F, const pynode_list_t *b)
{
	for (int i = 0; i < b->n; i++) {
		bool guard = F->kind == FR_MODULE && !I->in_main && pyexec_is_main_guard(b->v[i]);
		I->in_main += guard; /* its statements are not skipped one by one: see below */
		int rc = pyexec_stmt(I, F, b->v[i]);
		I->in_main -= guard;
		if (guard && pyexec_skip_main(I, b->v[i], rc)) {
			bool had = I->first_skipped != NULL; /* the main block has its own note */
			DALIC_TRY(pyexec_skip(I, F, b->v[i]));
			if (!had) {
				free(I->first_skipped);
				I->first_skipped = NULL;
			}
			continue;
		}
		/* a failing statement in a loop fails the whole loop, which may then be skipped:
		 * skipping inside would run a loop that cannot progress to its iteration cap */
		if (rc < 0 && !I->fatal && !I->keep_error && pyexec_lenient(I) && !I->loops &&
		    F->kind == FR_MODULE && !I->in_main && I->src == I->main_src) {
			/* display code: skip the statement, keep the first reason */
			DALIC_TRY(pyexec_skip(I, F, b->v[i]));
			continue;
		}
		if (rc)
			return rc;
	}
	return DALIC_OK;
}

/* ---- functions ------------------------------------------------------------------------ */

/* Index of the parameter a keyword names (ps->n when none); functions with many
 * parameters look it up in an index built on their first call. */
static int pyexec_param_index(pyinterp_t *I, const pynode_t *at, pyfunc_t *f, const char *name,
                              int *out)
{
	const pyparams_t *ps = f->params;
	/* (not while sealed: the index would be freed with the call, f would keep it) */
	if (ps->n > 16 && !f->param_index && !I->sealed) {
		if (!(f->param_index = dalic_pydict_new(I->a)))
			return dalic_pyeval_oom(I, at);
		for (int i = 0; i < ps->n; i++) {
			if (ps->v[i].kind == P_VARARGS || ps->v[i].kind == P_VARKW)
				continue;
			pyval_t *ix = dalic_pyval_int(I->a, i);
			if (!ix || dalic_pydict_set_str(I->a, f->param_index, ps->v[i].name, ix))
				return dalic_pyeval_oom(I, at);
		}
	}
	if (f->param_index) {
		pyval_t *ix = dalic_pydict_get_str(f->param_index, name);
		*out = ix ? (int)ix->i : ps->n;
		return DALIC_OK;
	}
	int i = 0;
	while (i < ps->n && (ps->v[i].kind == P_VARARGS || ps->v[i].kind == P_VARKW ||
	                     strcmp(ps->v[i].name, name)))
		i++;
	*out = i;
	return DALIC_OK;
}

static int pyexec_bind_args(pyinterp_t *I, const pynode_t *at, pyfunc_t *f, pyframe_t *fr,
                            pyval_t *self, const pyargs_t *args)
{
	const pyparams_t *ps = f->params;
	int npos = args->npos + (self ? 1 : 0);
	int varargs = -1, varkw = -1, nnormal = 0;
	for (int i = 0; i < ps->n; i++) {
		if (ps->v[i].kind == P_VARARGS)
			varargs = i;
		else if (ps->v[i].kind == P_VARKW)
			varkw = i;
		else if (ps->v[i].kind == P_NORMAL)
			nnormal++;
	}
	pyval_t **vals = dalic_pyarena_alloc(I->a, sizeof *vals * (size_t)(ps->n + 1));
	if (!vals)
		return dalic_pyeval_oom(I, at);
	pyval_t *extra = NULL;
	for (int k = 0; k < npos; k++) {
		pyval_t *v = self ? (k == 0 ? self : args->pos[k - 1]) : args->pos[k];
		if (k < nnormal) {
			vals[k] = v;
			continue;
		}
		if (varargs < 0)
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: %s() takes %d positional argument%s but %d %s given",
			    f->name, nnormal, nnormal == 1 ? "" : "s", npos,
			    npos == 1 ? "was" : "were");
		if (!extra && !(extra = dalic_pyval_list(I->a, npos - k)))
			return dalic_pyeval_oom(I, at);
		if (dalic_pyval_list_append(I->a, extra, v))
			return dalic_pyeval_oom(I, at);
	}
	pyval_t *kwdict = NULL;
	for (int k = 0; k < args->nkw; k++) {
		int i = 0;
		DALIC_TRY(pyexec_param_index(I, at, f, args->kwnames[k], &i));
		if (i < ps->n) {
			if (vals[i])
				return dalic_pyeval_error(
				    I, at, DALIC_EINVAL,
				    "TypeError: %s() got multiple values for argument '%s'",
				    f->name, ps->v[i].name);
			vals[i] = args->kwvals[k];
			continue;
		}
		if (varkw < 0)
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: %s() got an unexpected keyword argument '%s'", f->name,
			    args->kwnames[k]);
		if (!kwdict && !(kwdict = dalic_pyval_dict(I->a)))
			return dalic_pyeval_oom(I, at);
		if (dalic_pydict_set_str(I->a, kwdict->dict, args->kwnames[k], args->kwvals[k]))
			return dalic_pyeval_oom(I, at);
	}
	for (int i = 0; i < ps->n; i++) {
		const pyparam_t *p = &ps->v[i];
		pyval_t *v = vals[i];
		if (p->kind == P_VARARGS) {
			int n = extra ? extra->list->n : 0;
			v = dalic_pyval_tuple(I->a, n);
			if (!v)
				return dalic_pyeval_oom(I, at);
			if (n)
				memcpy(v->tuple.items, extra->list->items,
				       sizeof(pyval_t *) * (size_t)n);
		} else if (p->kind == P_VARKW) {
			v = kwdict ? kwdict : dalic_pyval_dict(I->a);
			if (!v)
				return dalic_pyeval_oom(I, at);
		} else if (!v) {
			v = f->defaults[i];
			if (!v)
				return dalic_pyeval_error(
				    I, at, DALIC_EINVAL,
				    "TypeError: %s() missing 1 required %sargument: '%s'", f->name,
				    p->kind == P_KWONLY ? "keyword-only " : "positional ", p->name);
		}
		if (dalic_pydict_set_str(I->a, fr->locals, p->name, v))
			return dalic_pyeval_oom(I, at);
	}
	fr->self = npos ? (self ? self : args->pos[0]) : NULL;
	return DALIC_OK;
}

int dalic_pyexec_call_function(pyinterp_t *I, const pynode_t *at, pyfunc_t *f, pyval_t *self,
                               const pyargs_t *args, pyval_t **out)
{
	pyframe_t *fr = dalic_pyexec_new_frame(I, f->body ? FR_FUNCTION : FR_SCOPE, f->closure);
	if (!fr)
		return dalic_pyeval_oom(I, at);
	fr->func = f;
	fr->lnames = f->info->locals;
	fr->nlnames = f->info->nlocals;
	fr->gnames = f->info->globals;
	fr->ngnames = f->info->nglobals;
	DALIC_TRY(pyexec_bind_args(I, at, f, fr, self, args));
	if (f->info->generator)
		return dalic_pygen_new(I, at, f, fr, out); /* the body runs at next() */
	pyframe_t *saved = I->frame;
	I->frame = fr;
	pylibmod_saved_t lib;
	dalic_pylibmod_enter(I, at, f, &lib);
	int rc;
	if (f->expr) {
		rc = dalic_pyeval_expr(I, fr, f->expr, out);
	} else {
		rc = dalic_pyexec_block(I, fr, f->body);
		if (rc == PYEXEC_RETURN)
			rc = DALIC_OK;
		if (!rc)
			*out = fr->retval->kind == PV_UNDEF ? dalic_pyval_none() : fr->retval;
	}
	I->frame = saved;
	return dalic_pylibmod_leave(I, at, &lib, rc);
}

/* ---- classes -------------------------------------------------------------------------- */

pyval_t *dalic_pyexec_class_lookup(pyclass_t *cls, const char *name, pyclass_t **found_in)
{
	pyval_t *v = dalic_pydict_get_str(cls->attrs, name);
	if (v) {
		if (found_in)
			*found_in = cls;
		return v;
	}
	for (int i = 0; i < cls->nbases; i++)
		if ((v = dalic_pyexec_class_lookup(cls->bases[i], name, found_in)))
			return v;
	return NULL;
}

bool dalic_pyexec_is_subclass(const pyclass_t *cls, const pyclass_t *base)
{
	if (cls == base)
		return true;
	for (int i = 0; i < cls->nbases; i++)
		if (dalic_pyexec_is_subclass(cls->bases[i], base))
			return true;
	return false;
}

pyval_t *dalic_pyexec_new_instance(pyinterp_t *I, pyclass_t *cls)
{
	pyval_t *obj = dalic_pyval_new(I->a, PV_INSTANCE);
	if (!obj || !(obj->inst = dalic_pyarena_alloc(I->a, sizeof *obj->inst)) ||
	    !(obj->inst->attrs = dalic_pydict_new(I->a)))
		return NULL;
	obj->inst->cls = cls;
	return obj;
}

pyclass_t *dalic_pyexec_new_class(pyinterp_t *I, const char *name, const char *module)
{
	pyclass_t *c = dalic_pyarena_alloc(I->a, sizeof *c);
	if (!c || !(c->attrs = dalic_pydict_new(I->a)))
		return NULL;
	c->name = name;
	c->module = module;
	return c;
}

int dalic_pyexec_instantiate(pyinterp_t *I, const pynode_t *at, pyclass_t *cls,
                             const pyargs_t *args, pyval_t **out)
{
	pyval_t *init = dalic_pyexec_class_lookup(cls, "__init__", NULL), *r, *obj;
	pyval_t *user_new = dalic_pyclass_user_new(cls);
	if (user_new) {
		/* __new__(cls, *args); __init__ runs only on an instance of cls */
		pyval_t **pos = dalic_pyarena_alloc(I->a, sizeof *pos * (size_t)(args->npos + 1));
		if (!pos || !(pos[0] = dalic_pyval_new(I->a, PV_CLASS)))
			return dalic_pyeval_oom(I, at);
		pos[0]->cls = cls;
		if (args->npos) /* NULL when empty */
			memcpy(pos + 1, args->pos, sizeof *pos * (size_t)args->npos);
		pyargs_t na = *args;
		na.pos = pos;
		na.npos++;
		DALIC_TRY(dalic_pyeval_call(I, at, user_new, &na, &obj));
		if (obj->kind != PV_INSTANCE || !dalic_pyexec_is_subclass(obj->inst->cls, cls) ||
		    !init || init->kind != PV_FUNC) {
			*out = obj;
			return DALIC_OK;
		}
		DALIC_TRY(dalic_pyexec_call_function(I, at, init->func, obj, args, &r));
		*out = obj;
		return DALIC_OK;
	}
	obj = dalic_pyexec_new_instance(I, cls);
	if (!obj)
		return dalic_pyeval_oom(I, at);
	if (cls->exception) {
		/* BaseException.__new__ keeps the arguments whatever a user __init__ does */
		pyclass_t *base = dalic_pyexc_class(I, "BaseException");
		pyval_t *base_init = base ? dalic_pydict_get_str(base->attrs, "__init__") : NULL;
		pyargs_t pos = {.pos = args->pos, .npos = args->npos};
		if (base_init)
			DALIC_TRY(base_init->builtin.fn(I, at, obj, &pos, &r));
		if (init == base_init) {
			*out = obj;
			return DALIC_OK;
		}
	}
	if (init && init->kind == PV_FUNC) {
		DALIC_TRY(dalic_pyexec_call_function(I, at, init->func, obj, args, &r));
	} else if (init && init->kind == PV_BUILTIN && init->builtin.fn) {
		DALIC_TRY(init->builtin.fn(I, at, obj, args, &r)); /* a host class's __init__ */
	} else if ((args->npos || args->nkw) && !cls->opaque_base) {
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "TypeError: %s() takes no arguments",
		                          cls->name);
	}
	*out = obj;
	return DALIC_OK;
}

static int pyexec_class_stmt(pyinterp_t *I, pyframe_t *F, const pynode_t *s)
{
	pyclass_t *cls = dalic_pyarena_alloc(I->a, sizeof *cls);
	if (!cls || !(cls->attrs = dalic_pydict_new(I->a)))
		return dalic_pyeval_oom(I, s);
	cls->name = s->cls.name;
	cls->bases = dalic_pyarena_alloc(I->a, sizeof *cls->bases * (size_t)(s->cls.bases.n + 1));
	if (!cls->bases)
		return dalic_pyeval_oom(I, s);
	for (int i = 0; i < s->cls.bases.n; i++) {
		pyval_t *b;
		DALIC_TRY(dalic_pyeval_expr(I, F, s->cls.bases.v[i], &b));
		if (b->kind == PV_OPAQUE) {
			cls->opaque_base = true;
			continue;
		}
		if (b->kind != PV_CLASS)
			return dalic_pyeval_error(
			    I, s->cls.bases.v[i], DALIC_EINVAL,
			    "TypeError: a class can only derive from classes, not '%s'",
			    dalic_pyval_type_name(b));
		if (dalic_pyclass_is_object(b->cls))
			continue; /* implied; lookups end at object's attributes (pyclass.h) */
		cls->bases[cls->nbases++] = b->cls;
		cls->exception |= b->cls->exception;
		cls->opaque_base |= b->cls->opaque_base;
	}
	pyframe_t *body = dalic_pyexec_new_frame(I, FR_CLASS, F);
	if (!body)
		return dalic_pyeval_oom(I, s);
	body->locals = cls->attrs;
	body->func = F->func;
	body->cls = cls; /* functions defined in this body are its methods */
	DALIC_TRY(dalic_pyexec_block(I, body, &s->cls.body));
	pyval_t *v = dalic_pyval_new(I->a, PV_CLASS);
	if (!v)
		return dalic_pyeval_oom(I, s);
	v->cls = cls;
	for (int i = s->cls.decorators.n - 1; i >= 0; i--) {
		pyval_t *d;
		DALIC_TRY(dalic_pyeval_expr(I, F, s->cls.decorators.v[i], &d));
		DALIC_TRY(dalic_pyeval_call1(I, s->cls.decorators.v[i], d, v, &v));
	}
	return dalic_pyeval_store(I, F, s, s->cls.name, v);
}

static int pyexec_def_stmt(pyinterp_t *I, pyframe_t *F, const pynode_t *s)
{
	/* decorator expressions are evaluated before the function exists */
	int nd = s->def.decorators.n;
	pyval_t **decos = dalic_pyarena_alloc(I->a, sizeof *decos * (size_t)(nd + 1));
	pyfunc_t *f = dalic_pyarena_alloc(I->a, sizeof *f);
	pyval_t *v = dalic_pyval_new(I->a, PV_FUNC);
	if (!decos || !f || !v)
		return dalic_pyeval_oom(I, s);
	for (int i = 0; i < nd; i++)
		DALIC_TRY(dalic_pyeval_expr(I, F, s->def.decorators.v[i], &decos[i]));
	f->name = s->def.name;
	f->params = &s->def.params;
	f->body = &s->def.body;
	f->info = s->def.info;
	f->closure = F;
	f->node = s;
	f->globals = I->globals;
	f->src = I->src;
	if (F->kind == FR_CLASS)
		f->owner = F->cls;
	f->defaults = dalic_pyarena_alloc(I->a, sizeof(pyval_t *) * (size_t)(f->params->n + 1));
	if (!f->defaults)
		return dalic_pyeval_oom(I, s);
	for (int i = 0; i < f->params->n; i++)
		if (f->params->v[i].def)
			DALIC_TRY(dalic_pyeval_expr(I, F, f->params->v[i].def, &f->defaults[i]));
	v->func = f;
	for (int i = nd - 1; i >= 0; i--)
		DALIC_TRY(dalic_pyeval_call1(I, s->def.decorators.v[i], decos[i], v, &v));
	return dalic_pyeval_store(I, F, s, s->def.name, v);
}

/* ---- imports -------------------------------------------------------------------------- */

static int pyexec_import_stmt(pyinterp_t *I, pyframe_t *F, const pynode_t *s)
{
	for (int i = 0; i < s->import.n; i++) {
		const pyalias_t *al = &s->import.names[i];
		pynode_t at = {.line = al->line, .col = al->col};
		pyval_t *top, *leaf;
		DALIC_TRY(dalic_pymod_import(I, &at, al->name, &top, &leaf));
		if (al->asname) {
			DALIC_TRY(dalic_pyeval_store(I, F, &at, al->asname, leaf));
		} else {
			const char *dot = strchr(al->name, '.');
			const char *first =
			    dot ? dalic_pyarena_strndup(I->a, al->name, (size_t)(dot - al->name))
			        : al->name;
			if (!first)
				return dalic_pyeval_oom(I, &at);
			DALIC_TRY(dalic_pyeval_store(I, F, &at, first, top));
		}
	}
	return DALIC_OK;
}

static int pyexec_from_stmt(pyinterp_t *I, pyframe_t *F, const pynode_t *s)
{
	pyval_t *mod, *top;
	if (s->from.level > 0) {
		/* relative imports refer to the user's package, which dalic does not load */
		mod = dalic_pyval_opaque(I->a, dalic_pyarena_printf(I->a, "%.*s%s", s->from.level,
		                                                    "..........", s->from.module));
		if (!mod)
			return dalic_pyeval_oom(I, s);
	} else {
		DALIC_TRY(dalic_pymod_import(I, s, s->from.module, &top, &mod));
	}
	if (!s->from.names) {
		if (mod->kind != PV_MODULE || mod->mod->opaque) {
			I->star_opaque = true;
			return DALIC_OK;
		}
		pyval_t *k, *v;
		for (int it = 0; dalic_pydict_next(mod->mod->attrs, &it, &k, &v);)
			if (k->str.s[0] != '_')
				DALIC_TRY(dalic_pyeval_store(I, F, s, k->str.s, v));
		return DALIC_OK;
	}
	for (int i = 0; i < s->from.n; i++) {
		const pyalias_t *al = &s->from.names[i];
		pynode_t at = {.line = al->line, .col = al->col};
		pyval_t *v;
		if (mod->kind == PV_OPAQUE) {
			DALIC_TRY(dalic_pyeval_getattr(I, &at, mod, al->name, &v));
		} else {
			DALIC_TRY(dalic_pyeval_getattr_opt(I, &at, mod, al->name, &v));
			if (!v) {
				char *sub =
				    dalic_pyarena_printf(I->a, "%s.%s", s->from.module, al->name);
				if (!sub)
					return dalic_pyeval_oom(I, &at);
				pyval_t *t;
				DALIC_TRY(dalic_pymod_import(I, &at, sub, &t, &v));
			}
		}
		DALIC_TRY(dalic_pyeval_store(I, F, &at, al->asname ? al->asname : al->name, v));
	}
	return DALIC_OK;
}

/* ---- control flow --------------------------------------------------------------------- */

static int pyexec_loop_guard(pyinterp_t *I, const pynode_t *s, long *iterations)
{
	if (++*iterations > PY_MAX_LOOP_ITERATIONS)
		return dalic_pyeval_limit(I, s, "loop runs more than %d iterations",
		                          PY_MAX_LOOP_ITERATIONS);
	return dalic_pyeval_step(I, s);
}

/* One pass of a loop body, with no statement skipping inside. *done when the loop ends
 * here: break (DALIC_OK, the else block skipped), return or an error (passed on). */
static int pyexec_iteration(pyinterp_t *I, pyframe_t *F, const pynode_list_t *body, bool *done)
{
	I->loops++;
	int rc = dalic_pyexec_block(I, F, body);
	I->loops--;
	*done = rc != DALIC_OK && rc != PYEXEC_CONTINUE;
	return rc == PYEXEC_BREAK || rc == PYEXEC_CONTINUE ? DALIC_OK : rc;
}

static int pyexec_for_stmt(pyinterp_t *I, pyframe_t *F, const pynode_t *s)
{
	pyval_t *itv;
	DALIC_TRY(dalic_pyeval_expr(I, F, s->for_.iter, &itv));
	pyiter_t it;
	bool opaque;
	DALIC_TRY(dalic_pyiter_open(I, s->for_.iter, itv, &it, &opaque));
	if (opaque) {
		if (pyexec_lenient(I))
			return DALIC_OK; /* display code iterating over run results */
		return dalic_pyeval_opaque_error(I, s->for_.iter, itv, "cannot iterate");
	}
	long count = 0;
	for (;;) {
		pyval_t *item;
		bool end, done;
		DALIC_TRY(dalic_pyiter_next(I, s->for_.iter, &it, &item, &end));
		if (end)
			break;
		DALIC_TRY(pyexec_loop_guard(I, s, &count));
		DALIC_TRY(dalic_pyeval_assign(I, F, s->for_.target, item));
		int rc = pyexec_iteration(I, F, &s->for_.body, &done);
		if (done)
			return rc;
	}
	return dalic_pyexec_block(I, F, &s->for_.orelse);
}

static int pyexec_while_stmt(pyinterp_t *I, pyframe_t *F, const pynode_t *s)
{
	long count = 0;
	for (;;) {
		pyval_t *t;
		DALIC_TRY(dalic_pyeval_expr(I, F, s->while_.test, &t));
		if (t->kind == PV_OPAQUE) {
			if (pyexec_lenient(I))
				return DALIC_OK;
			return dalic_pyeval_opaque_error(I, s->while_.test, t,
			                                 "cannot decide the loop condition");
		}
		bool go;
		DALIC_TRY(dalic_pyeval_truth(I, s->while_.test, t, &go));
		if (!go)
			break;
		DALIC_TRY(pyexec_loop_guard(I, s, &count));
		bool done;
		int rc = pyexec_iteration(I, F, &s->while_.body, &done);
		if (done)
			return rc;
	}
	return dalic_pyexec_block(I, F, &s->while_.orelse);
}

static int pyexec_if_stmt(pyinterp_t *I, pyframe_t *F, const pynode_t *s)
{
	for (;;) {
		pyval_t *t;
		DALIC_TRY(dalic_pyeval_expr(I, F, s->if_.test, &t));
		if (t->kind == PV_HOST && t->host.type->flow && t->host.type->flow(I, t))
			return t->host.type->flow_if(I, F, s, t);
		if (t->kind == PV_OPAQUE) {
			if (pyexec_lenient(I))
				return DALIC_OK;
			return dalic_pyeval_opaque_error(I, s->if_.test, t,
			                                 "cannot decide the condition");
		}
		bool go;
		DALIC_TRY(dalic_pyeval_truth(I, s->if_.test, t, &go));
		if (go)
			return dalic_pyexec_block(I, F, &s->if_.body);
		const pynode_list_t *e = &s->if_.orelse;
		if (e->n != 1 || e->v[0]->kind != S_IF)
			return dalic_pyexec_block(I, F, e);
		s = e->v[0]; /* elif: the chain runs in a loop, not one C frame per branch */
		DALIC_TRY(dalic_pyeval_step(I, s));
	}
}

static int pyexec_aug_assign(pyinterp_t *I, pyframe_t *F, const pynode_t *s)
{
	const pynode_t *t = s->aug.target;
	pyval_t *value, *cur, *res, *obj = NULL, *idx = NULL;
	if (t->kind == N_NAME) {
		DALIC_TRY(dalic_pyeval_lookup(I, F, t, t->name, &cur));
	} else if (t->kind == N_ATTR) {
		DALIC_TRY(dalic_pyeval_expr(I, F, t->attr.value, &obj));
		DALIC_TRY(dalic_pyeval_getattr(I, t, obj, t->attr.attr, &cur));
	} else {
		DALIC_TRY(dalic_pyeval_expr(I, F, t->sub.value, &obj));
		DALIC_TRY(dalic_pyeval_expr(I, F, t->sub.index, &idx));
		DALIC_TRY(dalic_pyeval_getitem(I, t, obj, idx, &cur));
	}
	DALIC_TRY(dalic_pyeval_expr(I, F, s->aug.value, &value));
	if (cur->kind == PV_LIST && s->aug.op == OP_PLUS) {
		/* list += iterable extends in place */
		if (I->sealed)
			DALIC_TRY(dalic_pycall_check_write(I, s, cur->list, "a list"));
		pyval_t **items;
		int n;
		bool opaque;
		DALIC_TRY(dalic_pyeval_iterate(I, s, value, false, &items, &n, &opaque));
		if (opaque)
			return dalic_pyeval_opaque_error(I, s, value, "cannot extend a list with");
		for (int i = 0; i < n; i++)
			if (dalic_pyval_list_append(I->a, cur, items[i]))
				return dalic_pyeval_oom(I, s);
		res = cur;
	} else {
		DALIC_TRY(dalic_pyeval_binop(I, s, s->aug.op, cur, value, &res));
	}
	if (t->kind == N_NAME)
		return dalic_pyeval_store(I, F, t, t->name, res);
	if (t->kind == N_ATTR)
		return dalic_pyeval_setattr(I, t, obj, t->attr.attr, res);
	return dalic_pyeval_setitem(I, t, obj, idx, res);
}

/* In a sealed call (pycall.h), `del` may only change what the call made. */
static int pyexec_check_del(pyinterp_t *I, pyframe_t *F, const pynode_t *t)
{
	if (t->kind == N_NAME)
		return dalic_pycall_check_write(I, t, F->locals, "a variable");
	pyval_t *obj;
	DALIC_TRY(dalic_pyeval_expr(I, F, t->kind == N_ATTR ? t->attr.value : t->sub.value, &obj));
	const void *target = obj->kind == PV_DICT       ? (void *)obj->dict
	                     : obj->kind == PV_LIST     ? (void *)obj->list
	                     : obj->kind == PV_INSTANCE ? (void *)obj->inst->attrs
	                                                : NULL;
	return target ? dalic_pycall_check_write(I, t, target, "a container") : DALIC_OK;
}

static int pyexec_del_stmt(pyinterp_t *I, pyframe_t *F, const pynode_t *s)
{
	for (int i = 0; i < s->del.targets.n; i++) {
		const pynode_t *t = s->del.targets.v[i];
		if (I->sealed)
			DALIC_TRY(pyexec_check_del(I, F, t));
		if (t->kind == N_NAME) {
			pyval_t *key = dalic_pyval_cstr(I->a, t->name);
			if (!key)
				return dalic_pyeval_oom(I, t);
			if (!dalic_pydict_del(F->locals, key))
				return dalic_pyeval_error(I, t, DALIC_EINVAL,
				                          "NameError: name '%s' is not defined",
				                          t->name);
		} else if (t->kind == N_SUBSCRIPT) {
			pyval_t *obj, *idx;
			DALIC_TRY(dalic_pyeval_expr(I, F, t->sub.value, &obj));
			DALIC_TRY(dalic_pyeval_expr(I, F, t->sub.index, &idx));
			if (obj->kind == PV_DICT) {
				if (!dalic_pydict_del(obj->dict, idx))
					return dalic_pyeval_error(I, t, DALIC_EINVAL, "KeyError");
			} else if (obj->kind == PV_LIST && idx->kind == PV_INT) {
				int64_t k = idx->i < 0 ? idx->i + obj->list->n : idx->i;
				if (k < 0 || k >= obj->list->n)
					return dalic_pyeval_error(
					    I, t, DALIC_EINVAL,
					    "IndexError: list assignment index out of range");
				memmove(&obj->list->items[k], &obj->list->items[k + 1],
				        sizeof(pyval_t *) * (size_t)(obj->list->n - k - 1));
				obj->list->n--;
			} else if (obj->kind != PV_OPAQUE) {
				return dalic_pyeval_error(
				    I, t, DALIC_EINVAL,
				    "TypeError: '%s' object doesn't support item deletion",
				    dalic_pyval_type_name(obj));
			}
		} else if (t->kind == N_ATTR) {
			pyval_t *obj;
			DALIC_TRY(dalic_pyeval_expr(I, F, t->attr.value, &obj));
			pyval_t *key = dalic_pyval_cstr(I->a, t->attr.attr);
			if (!key)
				return dalic_pyeval_oom(I, t);
			if (obj->kind == PV_INSTANCE)
				dalic_pydict_del(obj->inst->attrs, key);
		}
	}
	return DALIC_OK;
}

static int pyexec_stmt(pyinterp_t *I, pyframe_t *F, const pynode_t *s)
{
	DALIC_TRY(dalic_pyeval_step(I, s));
	pyval_t *v;
	switch (s->kind) {
	case S_EXPR:
		return dalic_pyeval_expr(I, F, s->expr.value, &v);
	case S_ASSIGN:
		DALIC_TRY(dalic_pyeval_expr(I, F, s->assign.value, &v));
		for (int i = 0; i < s->assign.targets.n; i++)
			DALIC_TRY(dalic_pyeval_assign(I, F, s->assign.targets.v[i], v));
		return DALIC_OK;
	case S_AUGASSIGN:
		return pyexec_aug_assign(I, F, s);
	case S_ANNASSIGN:
		if (F->kind == FR_CLASS && s->ann.target->kind == N_NAME)
			DALIC_TRY(dalic_pyclass_annotate(I, F->cls, s));
		if (!s->ann.value)
			return DALIC_OK;
		DALIC_TRY(dalic_pyeval_expr(I, F, s->ann.value, &v));
		return dalic_pyeval_assign(I, F, s->ann.target, v);
	case S_IF:
		return pyexec_if_stmt(I, F, s);
	case S_FOR:
		return pyexec_for_stmt(I, F, s);
	case S_WHILE:
		return pyexec_while_stmt(I, F, s);
	case S_BREAK:
		return PYEXEC_BREAK;
	case S_CONTINUE:
		return PYEXEC_CONTINUE;
	case S_PASS:
	case S_GLOBAL:
	case S_NONLOCAL:
		return DALIC_OK;
	case S_RETURN:
		v = dalic_pyval_none();
		if (s->ret.value)
			DALIC_TRY(dalic_pyeval_expr(I, F, s->ret.value, &v));
		F->retval = v;
		F->do_return = dalic_pyval_true();
		return PYEXEC_RETURN;
	case S_DEF:
		return pyexec_def_stmt(I, F, s);
	case S_CLASS:
		return pyexec_class_stmt(I, F, s);
	case S_IMPORT:
		return pyexec_import_stmt(I, F, s);
	case S_IMPORTFROM:
		return pyexec_from_stmt(I, F, s);
	case S_WITH:
		return dalic_pyexec_with_stmt(I, F, s);
	case S_DEL:
		return pyexec_del_stmt(I, F, s);
	case S_ASSERT: {
		DALIC_TRY(dalic_pyeval_expr(I, F, s->assert_.test, &v));
		if (v->kind == PV_OPAQUE)
			return pyexec_lenient(I) ? DALIC_OK
			                         : dalic_pyeval_opaque_error(
			                               I, s, v, "cannot check the assertion");
		bool ok;
		DALIC_TRY(dalic_pyeval_truth(I, s->assert_.test, v, &ok));
		if (ok)
			return DALIC_OK;
		pyval_t *msg = NULL;
		if (s->assert_.msg) {
			DALIC_TRY(dalic_pyeval_expr(I, F, s->assert_.msg, &msg));
			DALIC_TRY(dalic_pyeval_str(I, s, msg, false, &msg));
		}
		return dalic_pyeval_error(I, s, DALIC_EINVAL, "AssertionError%s%s", msg ? ": " : "",
		                          msg ? msg->str.s : "");
	}
	case S_RAISE:
		return dalic_pyexec_raise_stmt(I, F, s);
	case S_TRY:
		return dalic_pyexec_try_stmt(I, F, s);
	default:
		return dalic_pyeval_error(I, s, DALIC_EPARSE, "internal error: unexpected %s",
		                          dalic_pyast_kind_name(s->kind));
	}
}

int dalic_pyexec_module(pyinterp_t *I)
{
	I->frame = I->globals;
	return dalic_pyexec_block(I, I->globals, &I->mod->body);
}
