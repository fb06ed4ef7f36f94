/*
 * Runtime values (see pyval.h): constructors, hashing with Python's key equality
 * (1 == 1.0 == True hash alike), equality and type names; host values defer to their type.
 * Their str / repr text is in pyval_repr.c, dicts in pydict.c.
 */
#include "frontend/script/py/pyval.h"

#include "dalic.h"
#include "frontend/script/py/pydict.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static pyval_t none_v = {.kind = PV_NONE};
static pyval_t true_v = {.kind = PV_BOOL, .b = true};
static pyval_t false_v = {.kind = PV_BOOL, .b = false};

pyval_t *dalic_pyval_none(void)
{
	return &none_v;
}

pyval_t *dalic_pyval_true(void)
{
	return &true_v;
}

pyval_t *dalic_pyval_false(void)
{
	return &false_v;
}

pyval_t *dalic_pyval_bool(bool b)
{
	return b ? &true_v : &false_v;
}

pyval_t *dalic_pyval_new(pyarena_t *a, pyval_kind_t kind)
{
	pyval_t *v = dalic_pyarena_alloc(a, sizeof *v);
	if (v)
		v->kind = kind;
	return v;
}

pyval_t *dalic_pyval_int(pyarena_t *a, int64_t i)
{
	pyval_t *v = dalic_pyval_new(a, PV_INT);
	if (v)
		v->i = i;
	return v;
}

pyval_t *dalic_pyval_float(pyarena_t *a, double f)
{
	pyval_t *v = dalic_pyval_new(a, PV_FLOAT);
	if (v)
		v->f = f;
	return v;
}

pyval_t *dalic_pyval_str(pyarena_t *a, const char *s, size_t len)
{
	pyval_t *v = dalic_pyval_new(a, PV_STR);
	if (!v)
		return NULL;
	char *c = dalic_pyarena_strndup(a, s, len);
	if (!c)
		return NULL;
	v->str.s = c;
	v->str.len = len;
	return v;
}

pyval_t *dalic_pyval_cstr(pyarena_t *a, const char *s)
{
	return dalic_pyval_str(a, s, strlen(s));
}

pyval_t *dalic_pyval_tuple(pyarena_t *a, int n)
{
	pyval_t *v = dalic_pyval_new(a, PV_TUPLE);
	if (!v)
		return NULL;
	v->tuple.items = dalic_pyarena_alloc(a, sizeof(pyval_t *) * (size_t)(n ? n : 1));
	if (!v->tuple.items)
		return NULL;
	v->tuple.n = n;
	return v;
}

pyval_t *dalic_pyval_list(pyarena_t *a, int cap)
{
	pyval_t *v = dalic_pyval_new(a, PV_LIST);
	if (!v)
		return NULL;
	v->list = dalic_pyarena_alloc(a, sizeof *v->list);
	if (!v->list)
		return NULL;
	cap = cap < 4 ? 4 : cap;
	v->list->items = dalic_pyarena_alloc(a, sizeof(pyval_t *) * (size_t)cap);
	if (!v->list->items)
		return NULL;
	v->list->cap = cap;
	return v;
}

int dalic_pyval_list_append(pyarena_t *a, pyval_t *list, pyval_t *item)
{
	pylist_t *l = list->list;
	if (l->n == l->cap) {
		int cap = l->cap * 2;
		pyval_t **items = dalic_pyarena_alloc(a, sizeof *items * (size_t)cap);
		if (!items)
			return DALIC_ENOMEM;
		memcpy(items, l->items, sizeof *items * (size_t)l->n);
		l->items = items;
		l->cap = cap;
	}
	l->items[l->n++] = item;
	return DALIC_OK;
}

pyval_t *dalic_pyval_dict(pyarena_t *a)
{
	pyval_t *v = dalic_pyval_new(a, PV_DICT);
	if (!v)
		return NULL;
	v->dict = dalic_pydict_new(a);
	return v->dict ? v : NULL;
}

pyval_t *dalic_pyval_opaque(pyarena_t *a, const char *what)
{
	pyval_t *v = dalic_pyval_new(a, PV_OPAQUE);
	if (v)
		v->opaque.what = what;
	return v;
}

pyval_t *dalic_pyval_host(pyarena_t *a, const pytype_t *t, void *data)
{
	pyval_t *v = dalic_pyval_new(a, PV_HOST);
	if (v) {
		v->host.type = t;
		v->host.data = data;
	}
	return v;
}

/* ---- hashing ------------------------------------------------------------------------- */

uint64_t dalic_pyval_hash_str(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

static uint64_t pyval_mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

/* Nesting bound of the recursive walks over values: a script can build arbitrarily deep
 * or self-referencing containers, and none of them may exhaust the C stack. */
#define MAX_VALUE_DEPTH 100

static bool pyval_hashable_d(const pyval_t *v, int depth)
{
	switch (v->kind) {
	case PV_LIST:
	case PV_DICT:
	case PV_SLICE:
		return false;
	case PV_HOST:
		return !v->host.type->unhashable;
	case PV_TUPLE:
		if (depth > MAX_VALUE_DEPTH)
			return false;
		for (int i = 0; i < v->tuple.n; i++)
			if (!pyval_hashable_d(v->tuple.items[i], depth + 1))
				return false;
		return true;
	default:
		return true;
	}
}

bool dalic_pyval_hashable(const pyval_t *v)
{
	return pyval_hashable_d(v, 0);
}

/* Only called on hashable values, whose tuples are at most MAX_VALUE_DEPTH deep. */
uint64_t dalic_pyval_hash(const pyval_t *v)
{
	switch (v->kind) {
	case PV_NONE:
		return 0x1234567;
	case PV_BOOL:
		return pyval_mix((uint64_t)v->b);
	case PV_INT:
		return pyval_mix((uint64_t)v->i);
	case PV_FLOAT:
		if (v->f == floor(v->f) && fabs(v->f) < 9.2e18)
			return pyval_mix((uint64_t)(int64_t)v->f);
		{
			uint64_t bits;
			memcpy(&bits, &v->f, sizeof bits);
			return pyval_mix(bits);
		}
	case PV_STR:
		return dalic_pyval_hash_str(v->str.s, v->str.len);
	case PV_TUPLE: {
		uint64_t h = 0x345678;
		for (int i = 0; i < v->tuple.n; i++)
			h = pyval_mix(h ^ dalic_pyval_hash(v->tuple.items[i])) + (uint64_t)i;
		return h;
	}
	case PV_HOST:
		return v->host.type->hash ? v->host.type->hash(v)
		                          : pyval_mix((uint64_t)(uintptr_t)v->host.data);
	case PV_FUNC:
		return pyval_mix((uint64_t)(uintptr_t)v->func);
	case PV_CLASS:
		return pyval_mix((uint64_t)(uintptr_t)v->cls);
	case PV_INSTANCE:
		return pyval_mix((uint64_t)(uintptr_t)v->inst);
	case PV_MODULE:
		return pyval_mix((uint64_t)(uintptr_t)v->mod);
	case PV_BUILTIN:
		return pyval_mix((uint64_t)(uintptr_t)v->builtin.fn);
	case PV_BOUND:
		return pyval_mix((uint64_t)(uintptr_t)v->bound.self);
	default:
		return pyval_mix((uint64_t)(uintptr_t)v); /* identity */
	}
}

/* ---- semantics ------------------------------------------------------------------------ */

bool dalic_pyval_is_number(const pyval_t *v)
{
	return v->kind == PV_BOOL || v->kind == PV_INT || v->kind == PV_FLOAT;
}

bool dalic_pyval_as_int(const pyval_t *v, int64_t *out)
{
	if (v->kind == PV_INT)
		*out = v->i;
	else if (v->kind == PV_BOOL)
		*out = v->b;
	else
		return false;
	return true;
}

double dalic_pyval_as_double(const pyval_t *v)
{
	switch (v->kind) {
	case PV_BOOL:
		return v->b;
	case PV_INT:
		return (double)v->i;
	case PV_FLOAT:
		return v->f;
	default:
		return 0;
	}
}

static bool pyval_equal_d(const pyval_t *x, const pyval_t *y, int depth);

bool dalic_pyval_equal(const pyval_t *x, const pyval_t *y)
{
	return pyval_equal_d(x, y, 0);
}

static bool pyval_equal_d(const pyval_t *x, const pyval_t *y, int depth)
{
	if (x == y)
		return true;
	if (depth > MAX_VALUE_DEPTH)
		return false; /* Python would raise RecursionError; "different" is safe here */
	if (dalic_pyval_is_number(x) && dalic_pyval_is_number(y)) {
		if (x->kind != PV_FLOAT && y->kind != PV_FLOAT)
			return (x->kind == PV_BOOL ? x->b : x->i) ==
			       (y->kind == PV_BOOL ? y->b : y->i);
		return dalic_pyval_as_double(x) == dalic_pyval_as_double(y);
	}
	if (x->kind != y->kind)
		return false;
	switch (x->kind) {
	case PV_NONE:
	case PV_ELLIPSIS:
		return true;
	case PV_STR:
		return x->str.len == y->str.len && !memcmp(x->str.s, y->str.s, x->str.len);
	case PV_TUPLE:
		if (x->tuple.n != y->tuple.n)
			return false;
		for (int i = 0; i < x->tuple.n; i++)
			if (!pyval_equal_d(x->tuple.items[i], y->tuple.items[i], depth + 1))
				return false;
		return true;
	case PV_LIST:
		if (x->list->n != y->list->n)
			return false;
		for (int i = 0; i < x->list->n; i++)
			if (!pyval_equal_d(x->list->items[i], y->list->items[i], depth + 1))
				return false;
		return true;
	case PV_DICT: {
		if (dalic_pydict_len(x->dict) != dalic_pydict_len(y->dict))
			return false;
		pyval_t *k, *v;
		for (int it = 0; dalic_pydict_next(x->dict, &it, &k, &v);) {
			pyval_t *w = dalic_pydict_get(y->dict, k);
			if (!w || !pyval_equal_d(v, w, depth + 1))
				return false;
		}
		return true;
	}
	case PV_HOST:
		if (x->host.type != y->host.type)
			return false;
		return x->host.type->equal ? x->host.type->equal(x, y)
		                           : x->host.data == y->host.data;
	/* identity of the payload: several pyval_t may wrap one function, class or object */
	case PV_FUNC:
		return x->func == y->func;
	case PV_CLASS:
		return x->cls == y->cls;
	case PV_INSTANCE:
		return x->inst == y->inst;
	case PV_MODULE:
		return x->mod == y->mod;
	case PV_BUILTIN:
		return x->builtin.fn == y->builtin.fn && x->builtin.self == y->builtin.self &&
		       x->builtin.data == y->builtin.data;
	case PV_BOUND:
		return x->bound.self == y->bound.self && x->bound.func == y->bound.func;
	default:
		return false;
	}
}

const char *dalic_pyval_type_name(const pyval_t *v)
{
	switch (v->kind) {
	case PV_NONE:
		return "NoneType";
	case PV_BOOL:
		return "bool";
	case PV_INT:
		return "int";
	case PV_FLOAT:
		return "float";
	case PV_STR:
		return "str";
	case PV_TUPLE:
		return "tuple";
	case PV_LIST:
		return "list";
	case PV_DICT:
		return "dict";
	case PV_SLICE:
		return "slice";
	case PV_ELLIPSIS:
		return "ellipsis";
	case PV_FUNC:
		return "function";
	case PV_BUILTIN:
		return "builtin_function_or_method";
	case PV_BOUND:
		return "method";
	case PV_CLASS:
		return "type";
	case PV_INSTANCE:
		return v->inst->cls->name;
	case PV_SUPER:
		return "super";
	case PV_MODULE:
		return "module";
	case PV_HOST:
		return v->host.type->type_name ? v->host.type->type_name(v) : v->host.type->name;
	case PV_OPAQUE:
		return "object";
	case PV_UNDEF:
		return "Undefined";
	}
	return "object";
}
