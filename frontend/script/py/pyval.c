/*
 * Runtime values (see script_value.h): constructors, the insertion-ordered dict with
 * Python's key equality (1 == 1.0 == True hash alike), equality and type names. Their
 * str / repr text is in script_repr.c.
 */
#include "frontend/script/py/pyval.h"

#include "dalic.h"
#include "engine/dtype.h"

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

pyval_t *dalic_sdval_enum(pyarena_t *a, int type, int64_t value)
{
	pyval_t *v = dalic_pyval_new(a, PV_ENUM);
	if (v) {
		v->en.type = type;
		v->en.value = value;
	}
	return v;
}

pyval_t *dalic_sdval_node(pyarena_t *a, const char *name, const char *device, sdpipe_t *pipe)
{
	pyval_t *v = dalic_pyval_new(a, PV_NODE);
	if (!v)
		return NULL;
	v->node.name = name;
	v->node.device = device;
	v->node.pipe = pipe;
	return v;
}

/* ---- dict ----------------------------------------------------------------------------- */

struct pydict {
	pyval_t **keys, **vals; /* keys[i] == NULL: deleted */
	uint64_t *hashes;
	int n, cap, live;
	int32_t *index; /* open addressing over entry positions, -1 = empty */
	int icap;
};

static uint64_t pyval_fnv(const char *s, size_t n)
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
static uint64_t pyval_hash_of(const pyval_t *v)
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
		return pyval_fnv(v->str.s, v->str.len);
	case PV_TUPLE: {
		uint64_t h = 0x345678;
		for (int i = 0; i < v->tuple.n; i++)
			h = pyval_mix(h ^ pyval_hash_of(v->tuple.items[i])) + (uint64_t)i;
		return h;
	}
	case PV_ENUM:
		return pyval_mix((uint64_t)v->en.type * 1000003u + (uint64_t)v->en.value);
	case PV_NODE:
		return pyval_fnv(v->node.name, strlen(v->node.name)) ^ (v->node.device[0] == 'g');
	case PV_OPFN:
		return pyval_fnv(v->opfn.path, strlen(v->opfn.path)) ^ v->opfn.ops_api;
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

pydict_t *dalic_pydict_new(pyarena_t *a)
{
	return dalic_pyarena_alloc(a, sizeof(pydict_t));
}

static int pyval_find_slot(const pydict_t *d, const pyval_t *key, uint64_t h, bool *found)
{
	int mask = d->icap - 1;
	for (int i = (int)(h & (uint64_t)mask);; i = (i + 1) & mask) {
		int32_t e = d->index[i];
		if (e < 0) {
			*found = false;
			return i;
		}
		if (d->keys[e] && d->hashes[e] == h && dalic_pyval_equal(d->keys[e], key)) {
			*found = true;
			return i;
		}
	}
}

static int pyval_rebuild_index(pyarena_t *a, pydict_t *d, int icap)
{
	int32_t *idx = dalic_pyarena_alloc(a, sizeof *idx * (size_t)icap);
	if (!idx)
		return DALIC_ENOMEM;
	memset(idx, 0xff, sizeof *idx * (size_t)icap);
	d->index = idx;
	d->icap = icap;
	for (int e = 0; e < d->n; e++) {
		if (!d->keys[e])
			continue;
		int mask = icap - 1, i = (int)(d->hashes[e] & (uint64_t)mask);
		while (idx[i] >= 0)
			i = (i + 1) & mask;
		idx[i] = e;
	}
	return DALIC_OK;
}

int dalic_pydict_set(pyarena_t *a, pydict_t *d, pyval_t *key, pyval_t *value)
{
	if (!dalic_pyval_hashable(key))
		return DALIC_EINVAL;
	uint64_t h = pyval_hash_of(key);
	if (d->icap) {
		bool found;
		int slot = pyval_find_slot(d, key, h, &found);
		if (found) {
			d->vals[d->index[slot]] = value;
			return DALIC_OK;
		}
	}
	if (d->n == d->cap) {
		int cap = d->cap ? d->cap * 2 : 8;
		pyval_t **k = dalic_pyarena_alloc(a, sizeof *k * (size_t)cap);
		pyval_t **v = dalic_pyarena_alloc(a, sizeof *v * (size_t)cap);
		uint64_t *hs = dalic_pyarena_alloc(a, sizeof *hs * (size_t)cap);
		if (!k || !v || !hs)
			return DALIC_ENOMEM;
		if (d->n) {
			memcpy(k, d->keys, sizeof *k * (size_t)d->n);
			memcpy(v, d->vals, sizeof *v * (size_t)d->n);
			memcpy(hs, d->hashes, sizeof *hs * (size_t)d->n);
		}
		d->keys = k;
		d->vals = v;
		d->hashes = hs;
		d->cap = cap;
	}
	d->keys[d->n] = key;
	d->vals[d->n] = value;
	d->hashes[d->n] = h;
	d->n++;
	d->live++;
	if ((d->n + 1) * 3 > d->icap * 2)
		return pyval_rebuild_index(a, d, d->icap ? d->icap * 2 : 16);
	bool found;
	int slot = pyval_find_slot(d, key, h, &found);
	d->index[slot] = d->n - 1;
	return DALIC_OK;
}

pyval_t *dalic_pydict_get(const pydict_t *d, const pyval_t *key)
{
	if (!d->icap || !dalic_pyval_hashable(key))
		return NULL;
	bool found;
	int slot = pyval_find_slot(d, key, pyval_hash_of(key), &found);
	return found ? d->vals[d->index[slot]] : NULL;
}

pyval_t *dalic_pydict_get_str(const pydict_t *d, const char *key)
{
	if (!d->icap)
		return NULL;
	size_t n = strlen(key);
	uint64_t h = pyval_fnv(key, n);
	int mask = d->icap - 1;
	for (int i = (int)(h & (uint64_t)mask);; i = (i + 1) & mask) {
		int32_t e = d->index[i];
		if (e < 0)
			return NULL;
		const pyval_t *k = d->keys[e];
		if (k && d->hashes[e] == h && k->kind == PV_STR && k->str.len == n &&
		    !memcmp(k->str.s, key, n))
			return d->vals[e];
	}
}

int dalic_pydict_set_str(pyarena_t *a, pydict_t *d, const char *key, pyval_t *value)
{
	pyval_t *k = dalic_pyval_cstr(a, key);
	return k ? dalic_pydict_set(a, d, k, value) : DALIC_ENOMEM;
}

bool dalic_pydict_del(pydict_t *d, const pyval_t *key)
{
	if (!d->icap || !dalic_pyval_hashable(key))
		return false;
	bool found;
	int slot = pyval_find_slot(d, key, pyval_hash_of(key), &found);
	if (!found)
		return false;
	/* the index keeps pointing at the tombstone so probe chains stay intact */
	d->keys[d->index[slot]] = NULL;
	d->live--;
	return true;
}

int dalic_pydict_len(const pydict_t *d)
{
	return d->live;
}

bool dalic_pydict_next(const pydict_t *d, int *it, pyval_t **key, pyval_t **value)
{
	while (*it < d->n) {
		int e = (*it)++;
		if (d->keys[e]) {
			*key = d->keys[e];
			if (value)
				*value = d->vals[e];
			return true;
		}
	}
	return false;
}

/* ---- semantics ------------------------------------------------------------------------ */

bool dalic_pyval_is_number(const pyval_t *v)
{
	return v->kind == PV_BOOL || v->kind == PV_INT || v->kind == PV_FLOAT;
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
	case PV_ENUM:
		return x->en.type == y->en.type && x->en.value == y->en.value;
	case PV_NODE:
		return !strcmp(x->node.name, y->node.name) &&
		       !strcmp(x->node.device, y->node.device);
	case PV_OPFN:
		return x->opfn.ops_api == y->opfn.ops_api && !strcmp(x->opfn.path, y->opfn.path);
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
	case PV_PIPEDEF:
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
	case PV_OPFN:
		return "function";
	case PV_OPOBJ:
		return v->opobj.display;
	case PV_NODE:
		return "DataNode";
	case PV_ENUM:
		return v->en.type == ENUM_DTYPE   ? "DALIDataType"
		       : v->en.type == ENUM_IMAGE ? "DALIImageType"
		                                  : "DALIInterpType";
	case PV_SCONST:
		return "ScalarConstant";
	case PV_OPAQUE:
		return "object";
	case PV_UNDEF:
		return "Undefined";
	}
	return "object";
}
