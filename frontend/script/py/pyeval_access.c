/*
 * Attribute and item access, calls and iteration on values: instances look in their own
 * attributes, then their class and its bases (functions and built-in methods become bound
 * methods), then a built-in `__getattr__` of a host class; modules resolve lazily; items
 * follow Python's indexing and slicing rules; host values answer through their type's hooks.
 * Calls dispatch on the callee's kind with a bounded depth.
 */
#include "frontend/script/py/pyeval.h"

#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pycall.h"
#include "frontend/script/py/pyclass.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyexec.h"
#include "frontend/script/py/pyiter.h"
#include "frontend/script/py/pymod.h"

#include <string.h>

/* ---- attributes ----------------------------------------------------------------------- */

/* A built-in __getattr__ along the class's bases answers what the class does not define
 * (host classes: Pipeline's parameters); *out stays NULL when it has no answer. */
static int pyeval_native_getattr(pyinterp_t *I, const pynode_t *at, pyclass_t *cls, pyval_t *obj,
                                 const char *name, pyval_t **out)
{
	pyval_t *ga = dalic_pyexec_class_lookup(cls, "__getattr__", NULL);
	if (!ga || ga->kind != PV_BUILTIN)
		return DALIC_OK;
	pyval_t *key = dalic_pyval_cstr(I->a, name);
	if (!key)
		return dalic_pyeval_oom(I, at);
	pyargs_t args = {.pos = &key, .npos = 1};
	return ga->builtin.fn(I, at, obj, &args, out);
}

int dalic_pyeval_getattr_opt(pyinterp_t *I, const pynode_t *at, pyval_t *obj, const char *name,
                             pyval_t **out)
{
	*out = NULL;
	pyval_t *v;
	switch (obj->kind) {
	case PV_OPAQUE:
		*out = dalic_pyval_opaque(
		    I->a, dalic_pyarena_printf(I->a, "%s.%s", obj->opaque.what, name));
		return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
	case PV_MODULE:
		return dalic_pymod_getattr(I, at, obj, name, out);
	case PV_INSTANCE: {
		pyclass_t *in = NULL;
		pyval_t *cv = dalic_pyexec_class_lookup(obj->inst->cls, name, &in);
		/* data descriptors (property) win over the instance's own attributes */
		if (cv && cv->kind == PV_HOST && cv->host.type->set)
			return dalic_pyclass_bind(I, at, cv, obj, in, out);
		if ((v = dalic_pydict_get_str(obj->inst->attrs, name))) {
			*out = v;
			return DALIC_OK;
		}
		if (cv)
			return dalic_pyclass_bind(I, at, cv, obj, in, out);
		DALIC_TRY(dalic_pyclass_special_attr(I, at, obj, name, out));
		if (!*out && (v = dalic_pyclass_object_attr(I, name)))
			return dalic_pyclass_bind(I, at, v, obj, NULL, out);
		if (!*out)
			DALIC_TRY(pyeval_native_getattr(I, at, obj->inst->cls, obj, name, out));
		if (!*out && obj->inst->cls->opaque_base)
			*out = dalic_pyval_opaque(
			    I->a, dalic_pyarena_printf(I->a, "%s.%s", obj->inst->cls->name, name));
		return DALIC_OK;
	}
	case PV_CLASS: {
		pyclass_t *in = NULL;
		if ((v = dalic_pyexec_class_lookup(obj->cls, name, &in)))
			return dalic_pyclass_bind(I, at, v, NULL, obj->cls, out);
		DALIC_TRY(dalic_pyclass_special_attr(I, at, obj, name, out));
		if (!*out)
			*out = dalic_pyclass_object_attr(I, name);
		if (!*out && obj->cls->opaque_base)
			*out = dalic_pyval_opaque(
			    I->a, dalic_pyarena_printf(I->a, "%s.%s", obj->cls->name, name));
		return DALIC_OK;
	}
	case PV_SUPER: {
		pyclass_t *c = obj->super.cls, *in = NULL;
		bool opaque_base = false;
		for (int i = 0; i < c->nbases && !*out; i++) {
			if ((v = dalic_pyexec_class_lookup(c->bases[i], name, &in)))
				DALIC_TRY(dalic_pyclass_bind(I, at, v, obj->super.self, in, out));
			else
				DALIC_TRY(pyeval_native_getattr(I, at, c->bases[i], obj->super.self,
				                                name, out));
			opaque_base |= c->bases[i]->opaque_base;
		}
		if (!*out && (v = dalic_pyclass_object_attr(I, name)))
			DALIC_TRY(dalic_pyclass_bind(I, at, v, obj->super.self, NULL, out));
		if (!*out && opaque_base && !strcmp(name, "__init__"))
			*out = dalic_pybi_make(I, "__init__", NULL, NULL, NULL);
		return DALIC_OK;
	}
	case PV_HOST:
		if (obj->host.type->getattr)
			return obj->host.type->getattr(I, at, obj, name, out);
		return DALIC_OK;
	case PV_FUNC:
	case PV_BUILTIN:
		if (!strcmp(name, "__name__") || !strcmp(name, "__qualname__")) {
			*out = dalic_pyval_cstr(I->a, obj->kind == PV_FUNC ? obj->func->name
			                                                   : obj->builtin.name);
			return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
		}
		return DALIC_OK;
	case PV_STR:
	case PV_LIST:
	case PV_TUPLE:
	case PV_DICT:
	case PV_INT:
	case PV_FLOAT:
		return dalic_pybi_method(I, at, obj, name, out);
	default:
		return DALIC_OK;
	}
}

int dalic_pyeval_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *obj, const char *name,
                         pyval_t **out)
{
	DALIC_TRY(dalic_pyeval_getattr_opt(I, at, obj, name, out));
	if (*out)
		return DALIC_OK;
	if (obj->kind == PV_MODULE && obj->mod->subset)
		return dalic_pyeval_error(I, at, DALIC_EUNSUPPORTED,
		                          "AttributeError: module '%s' has no attribute '%s' (%s "
		                          "models part of it: docs/scripts.md)",
		                          obj->mod->name, name, obj->mod->subset);
	if (obj->kind == PV_MODULE)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "AttributeError: module '%s' has no attribute '%s'",
		                          obj->mod->name, name);
	if (obj->kind == PV_CLASS)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "AttributeError: type object '%s' has no attribute '%s'",
		                          obj->cls->name, name);
	return dalic_pyeval_error(I, at, DALIC_EINVAL,
	                          "AttributeError: '%s' object has no attribute '%s'",
	                          dalic_pyval_type_name(obj), name);
}

int dalic_pyeval_setattr(pyinterp_t *I, const pynode_t *at, pyval_t *obj, const char *name,
                         pyval_t *value)
{
	pydict_t *d = NULL;
	switch (obj->kind) {
	case PV_OPAQUE:
		return DALIC_OK;
	case PV_INSTANCE: {
		bool taken;
		DALIC_TRY(dalic_pyclass_set_descriptor(I, at, obj, name, value, &taken));
		if (taken)
			return DALIC_OK;
		if (obj->inst->cls->frozen)
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "FrozenInstanceError: cannot assign to field '%s'", name);
		d = obj->inst->attrs;
		break;
	}
	case PV_CLASS:
		d = obj->cls->attrs;
		break;
	case PV_MODULE:
		d = obj->mod->attrs;
		break;
	default:
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "AttributeError: '%s' object attribute '%s' is read-only",
		                          dalic_pyval_type_name(obj), name);
	}
	if (I->sealed)
		DALIC_TRY(dalic_pycall_check_write(I, at, d, "an attribute of an object"));
	return dalic_pydict_set_str(I->a, d, name, value) ? dalic_pyeval_oom(I, at) : DALIC_OK;
}

/* ---- items ---------------------------------------------------------------------------- */

static int pyeval_index_of(pyinterp_t *I, const pynode_t *at, pyval_t *idx, int n, const char *what,
                           int *out)
{
	int64_t i;
	if (!dalic_pyval_as_int(idx, &i))
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL, "TypeError: %s indices must be integers or slices, not %s",
		    what, dalic_pyval_type_name(idx));
	if (i < 0)
		i += n;
	if (i < 0 || i >= n)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "IndexError: %s index out of range",
		                          what);
	*out = (int)i;
	return DALIC_OK;
}

/* Python's slice.indices(): start, stop, step for a sequence of length n. */
static int pyeval_slice_range(pyinterp_t *I, const pynode_t *at, pyval_t *s, int n, int64_t *start,
                              int64_t *stop, int64_t *step)
{
	int64_t st = 1;
	if (s->slice.step->kind != PV_NONE && !dalic_pyval_as_int(s->slice.step, &st))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: slice indices must be integers or None");
	if (st == 0)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "ValueError: slice step cannot be zero");
	int64_t lo = st > 0 ? 0 : n - 1, hi = st > 0 ? n : -1;
	int64_t v;
	if (s->slice.lo->kind != PV_NONE) {
		if (!dalic_pyval_as_int(s->slice.lo, &v))
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: slice indices must be integers or None");
		if (v < 0)
			v += n;
		lo = st > 0 ? (v < 0 ? 0 : v > n ? n : v) : (v < 0 ? -1 : v >= n ? n - 1 : v);
	}
	if (s->slice.hi->kind != PV_NONE) {
		if (!dalic_pyval_as_int(s->slice.hi, &v))
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
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

int dalic_pyeval_getitem(pyinterp_t *I, const pynode_t *at, pyval_t *obj, pyval_t *idx,
                         pyval_t **out)
{
	switch (obj->kind) {
	case PV_OPAQUE:
		*out = obj;
		return DALIC_OK;
	case PV_DICT: {
		pyval_t *v = dalic_pydict_get(obj->dict, idx);
		if (v) {
			*out = v;
			return DALIC_OK;
		}
		if (!dalic_pyval_hashable(idx))
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "TypeError: unhashable type: '%s'",
			                          dalic_pyval_type_name(idx));
		pyval_t *r;
		DALIC_TRY(dalic_pyeval_str(I, at, idx, true, &r));
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "KeyError: %s", r->str.s);
	}
	case PV_LIST:
	case PV_TUPLE:
	case PV_STR: {
		bool is_str = obj->kind == PV_STR;
		int n = is_str                 ? (int)obj->str.len
		        : obj->kind == PV_LIST ? obj->list->n
		                               : obj->tuple.n;
		pyval_t **items = obj->kind == PV_LIST ? obj->list->items : obj->tuple.items;
		const char *what = is_str ? "string" : obj->kind == PV_LIST ? "list" : "tuple";
		if (idx->kind == PV_SLICE) {
			int64_t a = 0, b = 0, s = 1;
			DALIC_TRY(pyeval_slice_range(I, at, idx, n, &a, &b, &s));
			int count = 0;
			for (int64_t i = a; s > 0 ? i < b : i > b; i += s)
				count++;
			if (is_str) {
				char *buf = dalic_pyarena_alloc(I->a, (size_t)count + 1);
				*out = dalic_pyval_new(I->a, PV_STR);
				if (!buf || !*out)
					return dalic_pyeval_oom(I, at);
				int k = 0;
				for (int64_t i = a; s > 0 ? i < b : i > b; i += s)
					buf[k++] = obj->str.s[i];
				(*out)->str.s = buf;
				(*out)->str.len = (size_t)count;
				return DALIC_OK;
			}
			pyval_t *r = obj->kind == PV_LIST ? dalic_pyval_list(I->a, count)
			                                  : dalic_pyval_tuple(I->a, count);
			if (!r)
				return dalic_pyeval_oom(I, at);
			int k = 0;
			for (int64_t i = a; s > 0 ? i < b : i > b; i += s) {
				if (obj->kind == PV_LIST) {
					if (dalic_pyval_list_append(I->a, r, items[i]))
						return dalic_pyeval_oom(I, at);
				} else {
					r->tuple.items[k++] = items[i];
				}
			}
			*out = r;
			return DALIC_OK;
		}
		int i;
		DALIC_TRY(pyeval_index_of(I, at, idx, n, what, &i));
		*out = is_str ? dalic_pyval_str(I->a, obj->str.s + i, 1) : items[i];
		return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
	}
	case PV_HOST:
		if (obj->host.type->getitem)
			return obj->host.type->getitem(I, at, obj, idx, out);
		/* fall through */
	default: {
		bool found;
		DALIC_TRY(dalic_pyclass_dunder(I, at, obj, "__getitem__", &idx, 1, out, &found));
		if (found)
			return DALIC_OK;
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: '%s' object is not subscriptable",
		                          dalic_pyval_type_name(obj));
	}
	}
}

int dalic_pyeval_setitem(pyinterp_t *I, const pynode_t *at, pyval_t *obj, pyval_t *idx,
                         pyval_t *value)
{
	if (obj->kind == PV_OPAQUE)
		return DALIC_OK;
	if (I->sealed && (obj->kind == PV_DICT || obj->kind == PV_LIST))
		DALIC_TRY(dalic_pycall_check_write(I, at,
		                                   obj->kind == PV_DICT ? (void *)obj->dict
		                                                        : (void *)obj->list,
		                                   obj->kind == PV_DICT ? "a dict" : "a list"));
	if (obj->kind == PV_DICT) {
		int rc = dalic_pydict_set(I->a, obj->dict, idx, value);
		if (rc == DALIC_EINVAL)
			return dalic_pyeval_error(I, at, rc, "TypeError: unhashable type: '%s'",
			                          dalic_pyval_type_name(idx));
		return rc ? dalic_pyeval_oom(I, at) : DALIC_OK;
	}
	if (obj->kind == PV_LIST && idx->kind != PV_SLICE) {
		int i;
		DALIC_TRY(pyeval_index_of(I, at, idx, obj->list->n, "list assignment", &i));
		obj->list->items[i] = value;
		return DALIC_OK;
	}
	if (obj->kind == PV_HOST && obj->host.type->setitem)
		return obj->host.type->setitem(I, at, obj, idx, value);
	pyval_t *kv[2] = {idx, value}, *r;
	bool found;
	DALIC_TRY(dalic_pyclass_dunder(I, at, obj, "__setitem__", kv, 2, &r, &found));
	if (found)
		return DALIC_OK;
	return dalic_pyeval_error(I, at, DALIC_EINVAL,
	                          "TypeError: '%s' object does not support item assignment",
	                          dalic_pyval_type_name(obj));
}

/* ---- calls and iteration -------------------------------------------------------------- */

int dalic_pyeval_call(pyinterp_t *I, const pynode_t *at, pyval_t *fn, const pyargs_t *args,
                      pyval_t **out)
{
	if (I->depth >= PY_MAX_CALL_DEPTH)
		return dalic_pyeval_limit(I, at, "RecursionError: maximum call depth (%d) exceeded",
		                          PY_MAX_CALL_DEPTH);
	I->depth++;
	int rc;
	switch (fn->kind) {
	case PV_FUNC:
		rc = dalic_pyexec_call_function(I, at, fn->func, NULL, args, out);
		break;
	case PV_BOUND:
		rc = dalic_pyexec_call_function(I, at, fn->bound.func->func, fn->bound.self, args,
		                                out);
		break;
	case PV_BUILTIN:
		if (!fn->builtin.fn) { /* object.__init__ and the like: accept and ignore */
			*out = dalic_pyval_none();
			rc = DALIC_OK;
		} else if (fn->builtin.method && !fn->builtin.self) {
			/* a method read through its class: Class.method(obj, ...) */
			pyargs_t rest = *args;
			if (!rest.npos) {
				rc = dalic_pyeval_error(
				    I, at, DALIC_EINVAL,
				    "TypeError: unbound method %s() needs an argument",
				    fn->builtin.name);
				break;
			}
			rest.pos++;
			rest.npos--;
			rc = fn->builtin.fn(I, at, args->pos[0], &rest, out);
		} else {
			rc = fn->builtin.fn(I, at, fn->builtin.self, args, out);
		}
		break;
	case PV_CLASS:
		rc = dalic_pyexec_instantiate(I, at, fn->cls, args, out);
		break;
	case PV_INSTANCE: {
		pyval_t *call;
		rc = dalic_pyeval_getattr_opt(I, at, fn, "__call__", &call);
		if (!rc && call)
			rc = dalic_pyeval_call(I, at, call, args, out);
		else if (!rc)
			rc = dalic_pyeval_error(I, at, DALIC_EINVAL,
			                        "TypeError: '%s' object is not callable",
			                        dalic_pyval_type_name(fn));
		break;
	}
	case PV_HOST:
		if (fn->host.type->call) {
			rc = fn->host.type->call(I, at, fn, args, out);
			break;
		}
		rc = dalic_pyeval_error(I, at, DALIC_EINVAL,
		                        "TypeError: '%s' object is not callable",
		                        dalic_pyval_type_name(fn));
		break;
	case PV_OPAQUE:
		/* while a pipeline is defined nothing may be dropped: calling what dalic does not
		 * evaluate is an error there (display code elsewhere stays opaque) */
		if (I->hooks && I->hooks->strict && I->hooks->strict(I)) {
			rc = dalic_pyeval_opaque_error(I, at, fn, "call");
			break;
		}
		*out =
		    dalic_pyval_opaque(I->a, dalic_pyarena_printf(I->a, "%s()", fn->opaque.what));
		rc = *out ? DALIC_OK : dalic_pyeval_oom(I, at);
		break;
	default:
		rc = dalic_pyeval_error(I, at, DALIC_EINVAL,
		                        "TypeError: '%s' object is not callable",
		                        dalic_pyval_type_name(fn));
	}
	I->depth--;
	return rc;
}

int dalic_pyeval_iterate(pyinterp_t *I, const pynode_t *at, pyval_t *v, bool unpack,
                         pyval_t ***items, int *n, bool *opaque)
{
	*opaque = false;
	switch (v->kind) {
	case PV_LIST:
		*items = v->list->items;
		*n = v->list->n;
		return DALIC_OK;
	case PV_TUPLE:
		*items = v->tuple.items;
		*n = v->tuple.n;
		return DALIC_OK;
	case PV_OPAQUE:
		*opaque = true;
		*items = NULL;
		*n = 0;
		return DALIC_OK;
	case PV_DICT: {
		int len = dalic_pydict_len(v->dict), k = 0;
		pyval_t **keys = dalic_pyarena_alloc(I->a, sizeof *keys * (size_t)(len + 1));
		if (!keys)
			return dalic_pyeval_oom(I, at);
		pyval_t *key;
		for (int it = 0; dalic_pydict_next(v->dict, &it, &key, NULL);)
			keys[k++] = key;
		*items = keys;
		*n = len;
		return DALIC_OK;
	}
	case PV_STR: {
		/* one item per UTF-8 character */
		pyval_t **chars = dalic_pyarena_alloc(I->a, sizeof *chars * (v->str.len + 1));
		if (!chars)
			return dalic_pyeval_oom(I, at);
		int k = 0;
		for (size_t i = 0; i < v->str.len;) {
			size_t j = i + 1;
			while (j < v->str.len && ((unsigned char)v->str.s[j] & 0xC0) == 0x80)
				j++;
			if (!(chars[k++] = dalic_pyval_str(I->a, v->str.s + i, j - i)))
				return dalic_pyeval_oom(I, at);
			i = j;
		}
		*items = chars;
		*n = k;
		return DALIC_OK;
	}
	case PV_INSTANCE:
		return dalic_pyiter_drain(I, at, v, items, n);
	case PV_HOST:
		if (dalic_pyiter_is_lazy(I, v)) /* generators, iterators */
			return dalic_pyiter_drain(I, at, v, items, n);
		if (v->host.type->items)
			return v->host.type->items(I, at, v, items, n);
		if (v->host.type->iterate)
			return v->host.type->iterate(I, at, v, unpack);
		/* fall through */
	default:
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: '%s' object is not iterable",
		                          dalic_pyval_type_name(v));
	}
}
