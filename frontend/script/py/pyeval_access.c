/*
 * Attribute and item access, calls and iteration on evaluator values: instances look in
 * their own attributes, then their class and its bases (functions become bound methods),
 * then Pipeline's built-in members; modules and operator namespaces resolve lazily; items
 * follow Python's indexing and slicing rules; a DataNode subscript lowers to DALI's
 * subscript operators. Calls dispatch on the callee's kind with a bounded depth.
 */
#include "frontend/script/py/pystate.h"

#include <string.h>

#define TRY(x)                                                                                     \
	do {                                                                                       \
		int rc_ = (x);                                                                     \
		if (rc_)                                                                           \
			return rc_;                                                                \
	} while (0)

static bool as_int(const sv_t *v, int64_t *x)
{
	if (v->kind == SV_INT)
		*x = v->i;
	else if (v->kind == SV_BOOL)
		*x = v->b;
	else
		return false;
	return true;
}

/* ---- attributes ----------------------------------------------------------------------- */

static int bind_method(sinterp_t *I, const snode_t *at, sv_t *self, sv_t *fn, sv_t **out)
{
	if (fn->kind != SV_FUNC) {
		*out = fn;
		return DALIC_OK;
	}
	sv_t *b = sv_new(I->a, SV_BOUND);
	if (!b)
		return serr_oom(I, at);
	b->bound.self = self;
	b->bound.func = fn;
	*out = b;
	return DALIC_OK;
}

int se_getattr_opt(sinterp_t *I, const snode_t *at, sv_t *obj, const char *name, sv_t **out)
{
	*out = NULL;
	sv_t *v;
	switch (obj->kind) {
	case SV_OPAQUE:
		*out = sv_opaque(I->a, script_arena_printf(I->a, "%s.%s", obj->opaque.what, name));
		return *out ? DALIC_OK : serr_oom(I, at);
	case SV_MODULE:
		return sm_getattr(I, at, obj, name, out);
	case SV_OPFN: {
		sv_t *f = sv_new(I->a, SV_OPFN);
		if (!f)
			return serr_oom(I, at);
		f->opfn.ops_api = obj->opfn.ops_api;
		f->opfn.path = *obj->opfn.path
		                   ? script_arena_printf(I->a, "%s.%s", obj->opfn.path, name)
		                   : script_arena_strdup(I->a, name);
		if (!f->opfn.path)
			return serr_oom(I, at);
		*out = f;
		return DALIC_OK;
	}
	case SV_INSTANCE: {
		if ((v = svdict_get_str(obj->inst->attrs, name))) {
			*out = v;
			return DALIC_OK;
		}
		if ((v = sx_class_lookup(obj->inst->cls, name, NULL)))
			return bind_method(I, at, obj, v, out);
		if (obj->inst->cls->pipeline)
			TRY(sp_getattr(I, at, obj, name, out));
		if (!*out && obj->inst->cls->opaque_base)
			*out = sv_opaque(
			    I->a, script_arena_printf(I->a, "%s.%s", obj->inst->cls->name, name));
		return DALIC_OK;
	}
	case SV_CLASS:
		if ((v = sx_class_lookup(obj->cls, name, NULL))) {
			*out = v;
			return DALIC_OK;
		}
		if (!strcmp(name, "__name__")) {
			*out = sv_cstr(I->a, obj->cls->name);
			return *out ? DALIC_OK : serr_oom(I, at);
		}
		if (obj->cls->pipeline)
			TRY(sp_getattr(I, at, obj, name, out));
		if (!*out && obj->cls->opaque_base)
			*out = sv_opaque(I->a,
			                 script_arena_printf(I->a, "%s.%s", obj->cls->name, name));
		return DALIC_OK;
	case SV_SUPER: {
		svclass_t *c = obj->super.cls;
		for (int i = 0; i < c->nbases && !*out; i++) {
			if ((v = sx_class_lookup(c->bases[i], name, NULL)))
				TRY(bind_method(I, at, obj->super.self, v, out));
			else if (c->bases[i]->pipeline)
				TRY(sp_getattr(I, at, obj->super.self, name, out));
			else if (c->bases[i]->opaque_base || !strcmp(c->bases[i]->name, "object")) {
				if (!strcmp(name, "__init__"))
					*out = sb_make(I, "__init__", NULL, NULL, NULL);
			}
		}
		return DALIC_OK;
	}
	case SV_NODE:
		if (!strcmp(name, "name")) {
			*out = sv_cstr(I->a, obj->node.name);
		} else if (!strcmp(name, "device")) {
			*out = sv_cstr(I->a, obj->node.device);
		} else {
			return sp_getattr(I, at, obj, name, out);
		}
		return *out ? DALIC_OK : serr_oom(I, at);
	case SV_ENUM:
		if (!strcmp(name, "name"))
			*out = sv_cstr(I->a, sv_enum_name(obj->en.type, obj->en.value));
		else if (!strcmp(name, "value"))
			*out = sv_int(I->a, obj->en.value);
		else
			return DALIC_OK;
		return *out ? DALIC_OK : serr_oom(I, at);
	case SV_SCONST:
		if (!strcmp(name, "value"))
			*out = obj->sconst.value;
		else if (!strcmp(name, "dtype"))
			*out = sv_enum(I->a, ENUM_DTYPE, obj->sconst.dtype);
		else
			return DALIC_OK;
		return *out ? DALIC_OK : serr_oom(I, at);
	case SV_FUNC:
		if (!strcmp(name, "__name__")) {
			*out = sv_cstr(I->a, obj->func->name);
			return *out ? DALIC_OK : serr_oom(I, at);
		}
		return DALIC_OK;
	case SV_PIPEDEF:
		if (!strcmp(name, "_is_pipeline_def"))
			*out = sv_true();
		else if (!strcmp(name, "__name__"))
			*out = sv_cstr(I->a, obj->pipedef.func->func->name);
		return DALIC_OK;
	case SV_STR:
	case SV_LIST:
	case SV_TUPLE:
	case SV_DICT:
	case SV_INT:
	case SV_FLOAT:
		return sb_method(I, at, obj, name, out);
	default:
		return DALIC_OK;
	}
}

int se_getattr(sinterp_t *I, const snode_t *at, sv_t *obj, const char *name, sv_t **out)
{
	TRY(se_getattr_opt(I, at, obj, name, out));
	if (*out)
		return DALIC_OK;
	if (obj->kind == SV_MODULE)
		return serr(I, at, DALIC_EINVAL,
		            "AttributeError: module '%s' has no attribute '%s'", obj->mod->name,
		            name);
	if (obj->kind == SV_CLASS)
		return serr(I, at, DALIC_EINVAL,
		            "AttributeError: type object '%s' has no attribute '%s'",
		            obj->cls->name, name);
	return serr(I, at, DALIC_EINVAL, "AttributeError: '%s' object has no attribute '%s'",
	            sv_type_name(obj), name);
}

int se_setattr(sinterp_t *I, const snode_t *at, sv_t *obj, const char *name, sv_t *value)
{
	svdict_t *d = NULL;
	switch (obj->kind) {
	case SV_OPAQUE:
		return DALIC_OK;
	case SV_INSTANCE:
		d = obj->inst->attrs;
		break;
	case SV_CLASS:
		d = obj->cls->attrs;
		break;
	case SV_MODULE:
		d = obj->mod->attrs;
		break;
	default:
		return serr(I, at, DALIC_EINVAL,
		            "AttributeError: '%s' object attribute '%s' is read-only",
		            sv_type_name(obj), name);
	}
	return svdict_set_str(I->a, d, name, value) ? serr_oom(I, at) : DALIC_OK;
}

/* ---- items ---------------------------------------------------------------------------- */

static int index_of(sinterp_t *I, const snode_t *at, sv_t *idx, int n, const char *what, int *out)
{
	int64_t i;
	if (!as_int(idx, &i))
		return serr(I, at, DALIC_EINVAL,
		            "TypeError: %s indices must be integers or slices, not %s", what,
		            sv_type_name(idx));
	if (i < 0)
		i += n;
	if (i < 0 || i >= n)
		return serr(I, at, DALIC_EINVAL, "IndexError: %s index out of range", what);
	*out = (int)i;
	return DALIC_OK;
}

/* Python's slice.indices(): start, stop, step for a sequence of length n. */
static int slice_range(sinterp_t *I, const snode_t *at, sv_t *s, int n, int64_t *start,
                       int64_t *stop, int64_t *step)
{
	int64_t st = 1;
	if (s->slice.step->kind != SV_NONE && !as_int(s->slice.step, &st))
		return serr(I, at, DALIC_EINVAL,
		            "TypeError: slice indices must be integers or None");
	if (st == 0)
		return serr(I, at, DALIC_EINVAL, "ValueError: slice step cannot be zero");
	int64_t lo = st > 0 ? 0 : n - 1, hi = st > 0 ? n : -1;
	int64_t v;
	if (s->slice.lo->kind != SV_NONE) {
		if (!as_int(s->slice.lo, &v))
			return serr(I, at, DALIC_EINVAL,
			            "TypeError: slice indices must be integers or None");
		if (v < 0)
			v += n;
		lo = st > 0 ? (v < 0 ? 0 : v > n ? n : v) : (v < 0 ? -1 : v >= n ? n - 1 : v);
	}
	if (s->slice.hi->kind != SV_NONE) {
		if (!as_int(s->slice.hi, &v))
			return serr(I, at, DALIC_EINVAL,
			            "TypeError: slice indices must be integers or None");
		if (v < 0)
			v += n;
		hi = st > 0 ? (v < 0 ? 0 : v > n ? n : v) : (v < -1 ? -1 : v >= n ? n - 1 : v);
	}
	*start = lo;
	*stop = hi;
	*step = st;
	return DALIC_OK;
}

int se_getitem(sinterp_t *I, const snode_t *at, sv_t *obj, sv_t *idx, sv_t **out)
{
	switch (obj->kind) {
	case SV_OPAQUE:
		*out = obj;
		return DALIC_OK;
	case SV_NODE:
		return sa_subscript(I, at, obj, idx, out);
	case SV_DICT: {
		sv_t *v = svdict_get(obj->dict, idx);
		if (v) {
			*out = v;
			return DALIC_OK;
		}
		if (!sv_hashable(idx))
			return serr(I, at, DALIC_EINVAL, "TypeError: unhashable type: '%s'",
			            sv_type_name(idx));
		sv_t *r;
		TRY(se_str(I, at, idx, true, &r));
		return serr(I, at, DALIC_EINVAL, "KeyError: %s", r->str.s);
	}
	case SV_LIST:
	case SV_TUPLE:
	case SV_STR: {
		bool is_str = obj->kind == SV_STR;
		int n = is_str                 ? (int)obj->str.len
		        : obj->kind == SV_LIST ? obj->list->n
		                               : obj->tuple.n;
		sv_t **items = obj->kind == SV_LIST ? obj->list->items : obj->tuple.items;
		const char *what = is_str ? "string" : obj->kind == SV_LIST ? "list" : "tuple";
		if (idx->kind == SV_SLICE) {
			int64_t a = 0, b = 0, s = 1;
			TRY(slice_range(I, at, idx, n, &a, &b, &s));
			int count = 0;
			for (int64_t i = a; s > 0 ? i < b : i > b; i += s)
				count++;
			if (is_str) {
				char *buf = script_arena_alloc(I->a, (size_t)count + 1);
				*out = sv_new(I->a, SV_STR);
				if (!buf || !*out)
					return serr_oom(I, at);
				int k = 0;
				for (int64_t i = a; s > 0 ? i < b : i > b; i += s)
					buf[k++] = obj->str.s[i];
				(*out)->str.s = buf;
				(*out)->str.len = (size_t)count;
				return DALIC_OK;
			}
			sv_t *r =
			    obj->kind == SV_LIST ? sv_list(I->a, count) : sv_tuple(I->a, count);
			if (!r)
				return serr_oom(I, at);
			int k = 0;
			for (int64_t i = a; s > 0 ? i < b : i > b; i += s) {
				if (obj->kind == SV_LIST) {
					if (sv_list_append(I->a, r, items[i]))
						return serr_oom(I, at);
				} else {
					r->tuple.items[k++] = items[i];
				}
			}
			*out = r;
			return DALIC_OK;
		}
		int i;
		TRY(index_of(I, at, idx, n, what, &i));
		*out = is_str ? sv_str(I->a, obj->str.s + i, 1) : items[i];
		return *out ? DALIC_OK : serr_oom(I, at);
	}
	default:
		return serr(I, at, DALIC_EINVAL, "TypeError: '%s' object is not subscriptable",
		            sv_type_name(obj));
	}
}

int se_setitem(sinterp_t *I, const snode_t *at, sv_t *obj, sv_t *idx, sv_t *value)
{
	if (obj->kind == SV_OPAQUE)
		return DALIC_OK;
	if (obj->kind == SV_DICT) {
		int rc = svdict_set(I->a, obj->dict, idx, value);
		if (rc == DALIC_EINVAL)
			return serr(I, at, rc, "TypeError: unhashable type: '%s'",
			            sv_type_name(idx));
		return rc ? serr_oom(I, at) : DALIC_OK;
	}
	if (obj->kind == SV_LIST && idx->kind != SV_SLICE) {
		int i;
		TRY(index_of(I, at, idx, obj->list->n, "list assignment", &i));
		obj->list->items[i] = value;
		return DALIC_OK;
	}
	return serr(I, at, DALIC_EINVAL, "TypeError: '%s' object does not support item assignment",
	            sv_type_name(obj));
}

/* ---- calls and iteration -------------------------------------------------------------- */

int se_call(sinterp_t *I, const snode_t *at, sv_t *fn, const sargs_t *args, sv_t **out)
{
	if (I->depth >= SCRIPT_MAX_CALL_DEPTH)
		return serr(I, at, DALIC_EUNSUPPORTED,
		            "RecursionError: maximum call depth (%d) exceeded",
		            SCRIPT_MAX_CALL_DEPTH);
	I->depth++;
	int rc;
	switch (fn->kind) {
	case SV_FUNC:
		rc = sx_call_function(I, at, fn->func, NULL, args, out);
		break;
	case SV_BOUND:
		rc = sx_call_function(I, at, fn->bound.func->func, fn->bound.self, args, out);
		break;
	case SV_BUILTIN:
		if (!fn->builtin.fn) { /* object.__init__ and the like: accept and ignore */
			*out = sv_none();
			rc = DALIC_OK;
		} else {
			rc = fn->builtin.fn(I, at, fn->builtin.self, args, out);
		}
		break;
	case SV_CLASS:
		rc = sx_instantiate(I, at, fn->cls, args, out);
		break;
	case SV_OPFN:
		rc = fn->opfn.ops_api ? so_ops_construct(I, at, fn->opfn.path, args, out)
		                      : so_call_fn(I, at, fn->opfn.path, args, out);
		break;
	case SV_OPOBJ:
		rc = so_ops_call(I, at, fn, args, out);
		break;
	case SV_PIPEDEF:
		rc = sp_call_pipedef(I, at, fn, args, out);
		break;
	case SV_OPAQUE:
		*out = sv_opaque(I->a, script_arena_printf(I->a, "%s()", fn->opaque.what));
		rc = *out ? DALIC_OK : serr_oom(I, at);
		break;
	default:
		rc = serr(I, at, DALIC_EINVAL, "TypeError: '%s' object is not callable",
		          sv_type_name(fn));
	}
	I->depth--;
	return rc;
}

int se_iterate(sinterp_t *I, const snode_t *at, sv_t *v, sv_t ***items, int *n, bool *opaque)
{
	*opaque = false;
	switch (v->kind) {
	case SV_LIST:
		*items = v->list->items;
		*n = v->list->n;
		return DALIC_OK;
	case SV_TUPLE:
		*items = v->tuple.items;
		*n = v->tuple.n;
		return DALIC_OK;
	case SV_OPAQUE:
		*opaque = true;
		*items = NULL;
		*n = 0;
		return DALIC_OK;
	case SV_DICT: {
		int len = svdict_len(v->dict), k = 0;
		sv_t **keys = script_arena_alloc(I->a, sizeof *keys * (size_t)(len + 1));
		if (!keys)
			return serr_oom(I, at);
		sv_t *key;
		for (int it = 0; svdict_next(v->dict, &it, &key, NULL);)
			keys[k++] = key;
		*items = keys;
		*n = len;
		return DALIC_OK;
	}
	case SV_STR: {
		/* one item per UTF-8 character */
		sv_t **chars = script_arena_alloc(I->a, sizeof *chars * (v->str.len + 1));
		if (!chars)
			return serr_oom(I, at);
		int k = 0;
		for (size_t i = 0; i < v->str.len;) {
			size_t j = i + 1;
			while (j < v->str.len && ((unsigned char)v->str.s[j] & 0xC0) == 0x80)
				j++;
			if (!(chars[k++] = sv_str(I->a, v->str.s + i, j - i)))
				return serr_oom(I, at);
			i = j;
		}
		*items = chars;
		*n = k;
		return DALIC_OK;
	}
	case SV_NODE:
		return serr(I, at, DALIC_EINVAL,
		            "TypeError: 'DataNode' object is not iterable (a DataNode stands for a "
		            "whole batch; its samples exist only when the pipeline runs)");
	default:
		return serr(I, at, DALIC_EINVAL, "TypeError: '%s' object is not iterable",
		            sv_type_name(v));
	}
}
