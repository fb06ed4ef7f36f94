/*
 * Statements, functions and classes. Module-level code runs like Python with one
 * difference that makes display-only code harmless: outside pipeline creation, a statement
 * that fails (typically it uses results of pipe.run(), matplotlib, argparse...) is skipped
 * and the first such failure is remembered for the "no pipeline" message; errors raised
 * while a pipeline is created or traced always stop the load. Loops over values dalic does
 * not model are skipped the same way. Loop iterations and call depth are bounded so no
 * script can hang or exhaust the stack.
 */
#include "frontend/script/py/pystate.h"

#include "engine/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRY(x)                                                                                     \
	do {                                                                                       \
		int rc_ = (x);                                                                     \
		if (rc_)                                                                           \
			return rc_;                                                                \
	} while (0)

static int stmt(sinterp_t *I, sframe_t *F, const snode_t *s);

static bool outside_pipelines(const sinterp_t *I)
{
	return !I->tracing && !I->creating;
}

sframe_t *sx_new_frame(sinterp_t *I, sframe_kind_t kind, sframe_t *parent)
{
	sframe_t *f = script_arena_alloc(I->a, sizeof *f);
	if (!f)
		return NULL;
	f->kind = kind;
	f->parent = parent;
	f->locals = svdict_new(I->a);
	f->retval = sv_new(I->a, SV_UNDEF);
	if (!f->locals || !f->retval)
		return NULL;
	f->retval->undef.name = "retval_";
	f->do_return = sv_false();
	return f;
}

int sx_block(sinterp_t *I, sframe_t *F, const snode_list_t *b)
{
	for (int i = 0; i < b->n; i++) {
		int rc = stmt(I, F, b->v[i]);
		/* a failing statement in a loop fails the whole loop, which may then be skipped:
		 * skipping inside would run a loop that cannot progress to its iteration cap */
		if (rc < 0 && !I->fatal && outside_pipelines(I) && !I->loops) {
			/* display code: skip the statement, keep the first reason */
			if (!I->first_skipped)
				I->first_skipped = strdup(dalic_last_error());
			continue;
		}
		if (rc)
			return rc;
	}
	return DALIC_OK;
}

/* ---- functions ------------------------------------------------------------------------ */

static int bind_args(sinterp_t *I, const snode_t *at, svfunc_t *f, sframe_t *fr, sv_t *self,
                     const sargs_t *args)
{
	const sparams_t *ps = f->params;
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
	sv_t **vals = script_arena_alloc(I->a, sizeof *vals * (size_t)(ps->n + 1));
	if (!vals)
		return serr_oom(I, at);
	sv_t *extra = NULL;
	for (int k = 0; k < npos; k++) {
		sv_t *v = self ? (k == 0 ? self : args->pos[k - 1]) : args->pos[k];
		if (k < nnormal) {
			vals[k] = v;
			continue;
		}
		if (varargs < 0)
			return serr(
			    I, at, DALIC_EINVAL,
			    "TypeError: %s() takes %d positional argument%s but %d %s given",
			    f->name, nnormal, nnormal == 1 ? "" : "s", npos,
			    npos == 1 ? "was" : "were");
		if (!extra && !(extra = sv_list(I->a, npos - k)))
			return serr_oom(I, at);
		if (sv_list_append(I->a, extra, v))
			return serr_oom(I, at);
	}
	sv_t *kwdict = NULL;
	for (int k = 0; k < args->nkw; k++) {
		int i = 0;
		while (i < ps->n && (ps->v[i].kind == P_VARARGS || ps->v[i].kind == P_VARKW ||
		                     strcmp(ps->v[i].name, args->kwnames[k])))
			i++;
		if (i < ps->n) {
			if (vals[i])
				return serr(I, at, DALIC_EINVAL,
				            "TypeError: %s() got multiple values for argument '%s'",
				            f->name, ps->v[i].name);
			vals[i] = args->kwvals[k];
			continue;
		}
		if (varkw < 0)
			return serr(I, at, DALIC_EINVAL,
			            "TypeError: %s() got an unexpected keyword argument '%s'",
			            f->name, args->kwnames[k]);
		if (!kwdict && !(kwdict = sv_dict(I->a)))
			return serr_oom(I, at);
		if (svdict_set_str(I->a, kwdict->dict, args->kwnames[k], args->kwvals[k]))
			return serr_oom(I, at);
	}
	for (int i = 0; i < ps->n; i++) {
		const sparam_t *p = &ps->v[i];
		sv_t *v = vals[i];
		if (p->kind == P_VARARGS) {
			int n = extra ? extra->list->n : 0;
			v = sv_tuple(I->a, n);
			if (!v)
				return serr_oom(I, at);
			if (n)
				memcpy(v->tuple.items, extra->list->items,
				       sizeof(sv_t *) * (size_t)n);
		} else if (p->kind == P_VARKW) {
			v = kwdict ? kwdict : sv_dict(I->a);
			if (!v)
				return serr_oom(I, at);
		} else if (!v) {
			v = f->defaults[i];
			if (!v)
				return serr(
				    I, at, DALIC_EINVAL,
				    "TypeError: %s() missing 1 required %sargument: '%s'", f->name,
				    p->kind == P_KWONLY ? "keyword-only " : "positional ", p->name);
		}
		if (svdict_set_str(I->a, fr->locals, p->name, v))
			return serr_oom(I, at);
	}
	fr->self = npos ? (self ? self : args->pos[0]) : NULL;
	return DALIC_OK;
}

int sx_call_function(sinterp_t *I, const snode_t *at, svfunc_t *f, sv_t *self, const sargs_t *args,
                     sv_t **out)
{
	sframe_t *fr = sx_new_frame(I, f->body ? FR_FUNCTION : FR_SCOPE, f->closure);
	if (!fr)
		return serr_oom(I, at);
	fr->func = f;
	fr->lnames = f->info->locals;
	fr->nlnames = f->info->nlocals;
	fr->gnames = f->info->globals;
	fr->ngnames = f->info->nglobals;
	TRY(bind_args(I, at, f, fr, self, args));
	sframe_t *saved = I->frame;
	I->frame = fr;
	int rc;
	if (f->expr) {
		rc = se_eval(I, fr, f->expr, out);
	} else {
		rc = sx_block(I, fr, f->body);
		if (rc == SX_RETURN)
			rc = DALIC_OK;
		if (!rc)
			*out = fr->retval->kind == SV_UNDEF ? sv_none() : fr->retval;
	}
	I->frame = saved;
	return rc;
}

/* ---- classes -------------------------------------------------------------------------- */

sv_t *sx_class_lookup(svclass_t *cls, const char *name, svclass_t **found_in)
{
	sv_t *v = svdict_get_str(cls->attrs, name);
	if (v) {
		if (found_in)
			*found_in = cls;
		return v;
	}
	for (int i = 0; i < cls->nbases; i++)
		if ((v = sx_class_lookup(cls->bases[i], name, found_in)))
			return v;
	return NULL;
}

bool sx_is_subclass(const svclass_t *cls, const svclass_t *base)
{
	if (cls == base)
		return true;
	for (int i = 0; i < cls->nbases; i++)
		if (sx_is_subclass(cls->bases[i], base))
			return true;
	return false;
}

int sx_instantiate(sinterp_t *I, const snode_t *at, svclass_t *cls, const sargs_t *args, sv_t **out)
{
	sv_t *obj = sv_new(I->a, SV_INSTANCE);
	if (!obj || !(obj->inst = script_arena_alloc(I->a, sizeof *obj->inst)) ||
	    !(obj->inst->attrs = svdict_new(I->a)))
		return serr_oom(I, at);
	obj->inst->cls = cls;
	if (cls->exception) {
		sv_t *msg = NULL;
		if (args->npos)
			TRY(se_str(I, at, args->pos[0], false, &msg));
		obj->inst->message = msg ? msg->str.s : "";
		*out = obj;
		return DALIC_OK;
	}
	sv_t *init = sx_class_lookup(cls, "__init__", NULL), *r;
	if (init && init->kind == SV_FUNC) {
		TRY(sx_call_function(I, at, init->func, obj, args, &r));
	} else if (cls->pipeline) {
		TRY(sp_getattr(I, at, obj, "__init__", &init));
		TRY(se_call(I, at, init, args, &r));
	} else if ((args->npos || args->nkw) && !cls->opaque_base) {
		return serr(I, at, DALIC_EINVAL, "TypeError: %s() takes no arguments", cls->name);
	}
	*out = obj;
	return DALIC_OK;
}

static int class_stmt(sinterp_t *I, sframe_t *F, const snode_t *s)
{
	svclass_t *cls = script_arena_alloc(I->a, sizeof *cls);
	if (!cls || !(cls->attrs = svdict_new(I->a)))
		return serr_oom(I, s);
	cls->name = s->cls.name;
	cls->bases = script_arena_alloc(I->a, sizeof *cls->bases * (size_t)(s->cls.bases.n + 1));
	if (!cls->bases)
		return serr_oom(I, s);
	for (int i = 0; i < s->cls.bases.n; i++) {
		sv_t *b;
		TRY(se_eval(I, F, s->cls.bases.v[i], &b));
		if (b->kind == SV_OPAQUE) {
			cls->opaque_base = true;
			continue;
		}
		if (b->kind != SV_CLASS)
			return serr(I, s->cls.bases.v[i], DALIC_EINVAL,
			            "TypeError: a class can only derive from classes, not '%s'",
			            sv_type_name(b));
		cls->bases[cls->nbases++] = b->cls;
		cls->pipeline |= b->cls->pipeline;
		cls->exception |= b->cls->exception;
		cls->opaque_base |= b->cls->opaque_base;
	}
	sframe_t *body = sx_new_frame(I, FR_CLASS, F);
	if (!body)
		return serr_oom(I, s);
	body->locals = cls->attrs;
	body->func = F->func;
	body->cls = cls; /* functions defined in this body are its methods */
	TRY(sx_block(I, body, &s->cls.body));
	sv_t *v = sv_new(I->a, SV_CLASS);
	if (!v)
		return serr_oom(I, s);
	v->cls = cls;
	for (int i = s->cls.decorators.n - 1; i >= 0; i--) {
		sv_t *d;
		TRY(se_eval(I, F, s->cls.decorators.v[i], &d));
		TRY(se_call1(I, s->cls.decorators.v[i], d, v, &v));
	}
	return se_store(I, F, s, s->cls.name, v);
}

static int def_stmt(sinterp_t *I, sframe_t *F, const snode_t *s)
{
	/* decorator expressions are evaluated before the function exists */
	int nd = s->def.decorators.n;
	sv_t **decos = script_arena_alloc(I->a, sizeof *decos * (size_t)(nd + 1));
	svfunc_t *f = script_arena_alloc(I->a, sizeof *f);
	sv_t *v = sv_new(I->a, SV_FUNC);
	if (!decos || !f || !v)
		return serr_oom(I, s);
	for (int i = 0; i < nd; i++)
		TRY(se_eval(I, F, s->def.decorators.v[i], &decos[i]));
	f->name = s->def.name;
	f->params = &s->def.params;
	f->body = &s->def.body;
	f->info = s->def.info;
	f->closure = F;
	f->node = s;
	if (F->kind == FR_CLASS)
		f->owner = F->cls;
	f->defaults = script_arena_alloc(I->a, sizeof(sv_t *) * (size_t)(f->params->n + 1));
	if (!f->defaults)
		return serr_oom(I, s);
	for (int i = 0; i < f->params->n; i++)
		if (f->params->v[i].def)
			TRY(se_eval(I, F, f->params->v[i].def, &f->defaults[i]));
	v->func = f;
	for (int i = nd - 1; i >= 0; i--)
		TRY(se_call1(I, s->def.decorators.v[i], decos[i], v, &v));
	return se_store(I, F, s, s->def.name, v);
}

/* ---- imports -------------------------------------------------------------------------- */

static int import_stmt(sinterp_t *I, sframe_t *F, const snode_t *s)
{
	for (int i = 0; i < s->import.n; i++) {
		const salias_t *al = &s->import.names[i];
		snode_t at = {.line = al->line, .col = al->col};
		sv_t *top, *leaf;
		TRY(sm_import(I, &at, al->name, &top, &leaf));
		if (al->asname) {
			TRY(se_store(I, F, &at, al->asname, leaf));
		} else {
			const char *dot = strchr(al->name, '.');
			const char *first =
			    dot ? script_arena_strndup(I->a, al->name, (size_t)(dot - al->name))
			        : al->name;
			if (!first)
				return serr_oom(I, &at);
			TRY(se_store(I, F, &at, first, top));
		}
	}
	return DALIC_OK;
}

static int from_stmt(sinterp_t *I, sframe_t *F, const snode_t *s)
{
	sv_t *mod, *top;
	if (s->from.level > 0) {
		/* relative imports refer to the user's package, which dalic does not load */
		mod = sv_opaque(I->a, script_arena_printf(I->a, "%.*s%s", s->from.level,
		                                          "..........", s->from.module));
		if (!mod)
			return serr_oom(I, s);
	} else {
		TRY(sm_import(I, s, s->from.module, &top, &mod));
	}
	if (!s->from.names) {
		if (mod->kind != SV_MODULE || mod->mod->opaque) {
			I->star_opaque = true;
			return DALIC_OK;
		}
		sv_t *k, *v;
		for (int it = 0; svdict_next(mod->mod->attrs, &it, &k, &v);)
			if (k->str.s[0] != '_')
				TRY(se_store(I, F, s, k->str.s, v));
		return DALIC_OK;
	}
	for (int i = 0; i < s->from.n; i++) {
		const salias_t *al = &s->from.names[i];
		snode_t at = {.line = al->line, .col = al->col};
		sv_t *v;
		if (mod->kind == SV_OPAQUE) {
			TRY(se_getattr(I, &at, mod, al->name, &v));
		} else {
			TRY(se_getattr_opt(I, &at, mod, al->name, &v));
			if (!v) {
				char *sub =
				    script_arena_printf(I->a, "%s.%s", s->from.module, al->name);
				if (!sub)
					return serr_oom(I, &at);
				sv_t *t;
				TRY(sm_import(I, &at, sub, &t, &v));
			}
		}
		TRY(se_store(I, F, &at, al->asname ? al->asname : al->name, v));
	}
	return DALIC_OK;
}

/* ---- control flow --------------------------------------------------------------------- */

static int loop_guard(sinterp_t *I, const snode_t *s, long *iterations)
{
	if (++*iterations > SCRIPT_MAX_LOOP_ITERATIONS)
		return serr(I, s, DALIC_EUNSUPPORTED, "loop runs more than %d iterations",
		            SCRIPT_MAX_LOOP_ITERATIONS);
	return se_step(I, s);
}

static int for_stmt(sinterp_t *I, sframe_t *F, const snode_t *s)
{
	sv_t *it;
	TRY(se_eval(I, F, s->for_.iter, &it));
	sv_t **items;
	int n;
	bool opaque;
	TRY(se_iterate(I, s->for_.iter, it, &items, &n, &opaque));
	if (opaque) {
		if (outside_pipelines(I))
			return DALIC_OK; /* display code iterating over run results */
		return serr_opaque(I, s->for_.iter, it, "cannot iterate");
	}
	long count = 0;
	for (int i = 0; i < n; i++) {
		TRY(loop_guard(I, s, &count));
		TRY(se_assign(I, F, s->for_.target, items[i]));
		I->loops++;
		int rc = sx_block(I, F, &s->for_.body);
		I->loops--;
		if (rc == SX_BREAK)
			return DALIC_OK;
		if (rc == SX_CONTINUE)
			continue;
		if (rc)
			return rc;
	}
	return sx_block(I, F, &s->for_.orelse);
}

static int while_stmt(sinterp_t *I, sframe_t *F, const snode_t *s)
{
	long count = 0;
	for (;;) {
		sv_t *t;
		TRY(se_eval(I, F, s->while_.test, &t));
		if (t->kind == SV_OPAQUE) {
			if (outside_pipelines(I))
				return DALIC_OK;
			return serr_opaque(I, s->while_.test, t,
			                   "cannot decide the loop condition");
		}
		bool go;
		TRY(se_truth(I, s->while_.test, t, &go));
		if (!go)
			break;
		TRY(loop_guard(I, s, &count));
		I->loops++;
		int rc = sx_block(I, F, &s->while_.body);
		I->loops--;
		if (rc == SX_BREAK)
			return DALIC_OK;
		if (rc == SX_CONTINUE)
			continue;
		if (rc)
			return rc;
	}
	return sx_block(I, F, &s->while_.orelse);
}

static int if_stmt(sinterp_t *I, sframe_t *F, const snode_t *s)
{
	sv_t *t;
	TRY(se_eval(I, F, s->if_.test, &t));
	if (t->kind == SV_NODE && I->tracing && I->current[I->ncurrent - 1]->conditionals)
		return sc_if(I, F, s, t);
	if (t->kind == SV_OPAQUE) {
		if (outside_pipelines(I))
			return DALIC_OK;
		return serr_opaque(I, s->if_.test, t, "cannot decide the condition");
	}
	bool go;
	TRY(se_truth(I, s->if_.test, t, &go));
	return sx_block(I, F, go ? &s->if_.body : &s->if_.orelse);
}

static int with_stmt(sinterp_t *I, sframe_t *F, const snode_t *s)
{
	int pushed = 0, rc = DALIC_OK;
	for (int i = 0; !rc && i < s->with.items.n; i++) {
		sv_t *v;
		rc = se_eval(I, F, s->with.items.v[i], &v);
		if (rc)
			break;
		spipe_t *p = sp_of(v);
		if (p) {
			rc = sp_push_current(I, s->with.items.v[i], p);
			if (rc)
				break;
			pushed++;
		}
		if (s->with.vars.v[i])
			rc = se_assign(I, F, s->with.vars.v[i], v);
	}
	if (!rc)
		rc = sx_block(I, F, &s->with.body);
	while (pushed--)
		sp_pop_current(I);
	return rc;
}

/* Whether the pending error is of the Python exception type `type` (by name: messages read
 * "file:line:col: ValueError: ..."), for `except` clauses. */
static bool error_matches(sv_t *type)
{
	if (!type)
		return true;
	if (type->kind != SV_CLASS)
		return false;
	const char *name = type->cls->name;
	if (!strcmp(name, "Exception") || !strcmp(name, "BaseException"))
		return true;
	char pat[96];
	snprintf(pat, sizeof pat, ": %s:", name);
	return strstr(dalic_last_error(), pat) != NULL;
}

static int try_stmt(sinterp_t *I, sframe_t *F, const snode_t *s)
{
	int rc = sx_block(I, F, &s->try_.body);
	if (rc < 0 && !I->fatal) {
		for (int i = 0; i < s->try_.nhandlers; i++) {
			const shandler_t *h = &s->try_.handlers[i];
			sv_t *type = NULL;
			if (h->type && se_eval(I, F, h->type, &type))
				return I->fatal ? -1 : rc;
			bool match = false;
			if (type && type->kind == SV_TUPLE) {
				for (int k = 0; k < type->tuple.n && !match; k++)
					match = error_matches(type->tuple.items[k]);
			} else {
				match = error_matches(type);
			}
			if (!match)
				continue;
			if (h->name) {
				sv_t *msg = sv_cstr(I->a, dalic_last_error());
				if (!msg)
					return serr_oom(I, s);
				TRY(se_store(I, F, s, h->name, msg));
			}
			dalic_error_clear();
			rc = sx_block(I, F, &h->body);
			break;
		}
	} else if (!rc) {
		rc = sx_block(I, F, &s->try_.orelse);
	}
	if (s->try_.finalbody.n) {
		int frc = sx_block(I, F, &s->try_.finalbody);
		if (frc)
			return frc;
	}
	return rc;
}

static int raise_stmt(sinterp_t *I, sframe_t *F, const snode_t *s)
{
	if (!s->raise.exc)
		return serr(I, s, DALIC_EINVAL, "RuntimeError: No active exception to reraise");
	sv_t *e;
	TRY(se_eval(I, F, s->raise.exc, &e));
	if (e->kind == SV_CLASS)
		return serr(I, s, DALIC_EINVAL, "%s", e->cls->name);
	if (e->kind == SV_INSTANCE && e->inst->cls->exception)
		return serr(I, s, DALIC_EINVAL, "%s: %s", e->inst->cls->name,
		            e->inst->message ? e->inst->message : "");
	if (e->kind == SV_OPAQUE)
		return serr_opaque(I, s, e, "raise");
	return serr(I, s, DALIC_EINVAL, "TypeError: exceptions must derive from BaseException");
}

static int aug_assign(sinterp_t *I, sframe_t *F, const snode_t *s)
{
	const snode_t *t = s->aug.target;
	sv_t *value, *cur, *res, *obj = NULL, *idx = NULL;
	if (t->kind == N_NAME) {
		TRY(se_lookup(I, F, t, t->name, &cur));
	} else if (t->kind == N_ATTR) {
		TRY(se_eval(I, F, t->attr.value, &obj));
		TRY(se_getattr(I, t, obj, t->attr.attr, &cur));
	} else {
		TRY(se_eval(I, F, t->sub.value, &obj));
		TRY(se_eval(I, F, t->sub.index, &idx));
		TRY(se_getitem(I, t, obj, idx, &cur));
	}
	TRY(se_eval(I, F, s->aug.value, &value));
	if (cur->kind == SV_LIST && s->aug.op == OP_PLUS) {
		/* list += iterable extends in place */
		sv_t **items;
		int n;
		bool opaque;
		TRY(se_iterate(I, s, value, &items, &n, &opaque));
		if (opaque)
			return serr_opaque(I, s, value, "cannot extend a list with");
		for (int i = 0; i < n; i++)
			if (sv_list_append(I->a, cur, items[i]))
				return serr_oom(I, s);
		res = cur;
	} else {
		TRY(se_binop(I, s, s->aug.op, cur, value, &res));
	}
	if (t->kind == N_NAME)
		return se_store(I, F, t, t->name, res);
	if (t->kind == N_ATTR)
		return se_setattr(I, t, obj, t->attr.attr, res);
	return se_setitem(I, t, obj, idx, res);
}

static int del_stmt(sinterp_t *I, sframe_t *F, const snode_t *s)
{
	for (int i = 0; i < s->del.targets.n; i++) {
		const snode_t *t = s->del.targets.v[i];
		if (t->kind == N_NAME) {
			sv_t *key = sv_cstr(I->a, t->name);
			if (!key)
				return serr_oom(I, t);
			if (!svdict_del(F->locals, key))
				return serr(I, t, DALIC_EINVAL,
				            "NameError: name '%s' is not defined", t->name);
		} else if (t->kind == N_SUBSCRIPT) {
			sv_t *obj, *idx;
			TRY(se_eval(I, F, t->sub.value, &obj));
			TRY(se_eval(I, F, t->sub.index, &idx));
			if (obj->kind == SV_DICT) {
				if (!svdict_del(obj->dict, idx))
					return serr(I, t, DALIC_EINVAL, "KeyError");
			} else if (obj->kind == SV_LIST && idx->kind == SV_INT) {
				int64_t k = idx->i < 0 ? idx->i + obj->list->n : idx->i;
				if (k < 0 || k >= obj->list->n)
					return serr(
					    I, t, DALIC_EINVAL,
					    "IndexError: list assignment index out of range");
				memmove(&obj->list->items[k], &obj->list->items[k + 1],
				        sizeof(sv_t *) * (size_t)(obj->list->n - k - 1));
				obj->list->n--;
			} else if (obj->kind != SV_OPAQUE) {
				return serr(I, t, DALIC_EINVAL,
				            "TypeError: '%s' object doesn't support item deletion",
				            sv_type_name(obj));
			}
		} else if (t->kind == N_ATTR) {
			sv_t *obj;
			TRY(se_eval(I, F, t->attr.value, &obj));
			sv_t *key = sv_cstr(I->a, t->attr.attr);
			if (!key)
				return serr_oom(I, t);
			if (obj->kind == SV_INSTANCE)
				svdict_del(obj->inst->attrs, key);
		}
	}
	return DALIC_OK;
}

static int stmt(sinterp_t *I, sframe_t *F, const snode_t *s)
{
	TRY(se_step(I, s));
	sv_t *v;
	switch (s->kind) {
	case S_EXPR:
		return se_eval(I, F, s->expr.value, &v);
	case S_ASSIGN:
		TRY(se_eval(I, F, s->assign.value, &v));
		for (int i = 0; i < s->assign.targets.n; i++)
			TRY(se_assign(I, F, s->assign.targets.v[i], v));
		return DALIC_OK;
	case S_AUGASSIGN:
		return aug_assign(I, F, s);
	case S_ANNASSIGN:
		if (!s->ann.value)
			return DALIC_OK;
		TRY(se_eval(I, F, s->ann.value, &v));
		return se_assign(I, F, s->ann.target, v);
	case S_IF:
		return if_stmt(I, F, s);
	case S_FOR:
		return for_stmt(I, F, s);
	case S_WHILE:
		return while_stmt(I, F, s);
	case S_BREAK:
		return SX_BREAK;
	case S_CONTINUE:
		return SX_CONTINUE;
	case S_PASS:
	case S_GLOBAL:
	case S_NONLOCAL:
		return DALIC_OK;
	case S_RETURN:
		v = sv_none();
		if (s->ret.value)
			TRY(se_eval(I, F, s->ret.value, &v));
		F->retval = v;
		F->do_return = sv_true();
		return SX_RETURN;
	case S_DEF:
		return def_stmt(I, F, s);
	case S_CLASS:
		return class_stmt(I, F, s);
	case S_IMPORT:
		return import_stmt(I, F, s);
	case S_IMPORTFROM:
		return from_stmt(I, F, s);
	case S_WITH:
		return with_stmt(I, F, s);
	case S_DEL:
		return del_stmt(I, F, s);
	case S_ASSERT: {
		TRY(se_eval(I, F, s->assert_.test, &v));
		if (v->kind == SV_OPAQUE)
			return outside_pipelines(I)
			           ? DALIC_OK
			           : serr_opaque(I, s, v, "cannot check the assertion");
		bool ok;
		TRY(se_truth(I, s->assert_.test, v, &ok));
		if (ok)
			return DALIC_OK;
		sv_t *msg = NULL;
		if (s->assert_.msg) {
			TRY(se_eval(I, F, s->assert_.msg, &msg));
			TRY(se_str(I, s, msg, false, &msg));
		}
		return serr(I, s, DALIC_EINVAL, "AssertionError%s%s", msg ? ": " : "",
		            msg ? msg->str.s : "");
	}
	case S_RAISE:
		return raise_stmt(I, F, s);
	case S_TRY:
		return try_stmt(I, F, s);
	default:
		return serr(I, s, DALIC_EPARSE, "internal error: unexpected %s",
		            script_node_kind_name(s->kind));
	}
}

int sx_module(sinterp_t *I)
{
	I->frame = I->globals;
	return sx_block(I, I->globals, &I->mod->body);
}
