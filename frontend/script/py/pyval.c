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

static sv_t none_v = {.kind = SV_NONE};
static sv_t true_v = {.kind = SV_BOOL, .b = true};
static sv_t false_v = {.kind = SV_BOOL, .b = false};

sv_t *sv_none(void)
{
	return &none_v;
}

sv_t *sv_true(void)
{
	return &true_v;
}

sv_t *sv_false(void)
{
	return &false_v;
}

sv_t *sv_bool(bool b)
{
	return b ? &true_v : &false_v;
}

sv_t *sv_new(script_arena_t *a, sv_kind_t kind)
{
	sv_t *v = script_arena_alloc(a, sizeof *v);
	if (v)
		v->kind = kind;
	return v;
}

sv_t *sv_int(script_arena_t *a, int64_t i)
{
	sv_t *v = sv_new(a, SV_INT);
	if (v)
		v->i = i;
	return v;
}

sv_t *sv_float(script_arena_t *a, double f)
{
	sv_t *v = sv_new(a, SV_FLOAT);
	if (v)
		v->f = f;
	return v;
}

sv_t *sv_str(script_arena_t *a, const char *s, size_t len)
{
	sv_t *v = sv_new(a, SV_STR);
	if (!v)
		return NULL;
	char *c = script_arena_strndup(a, s, len);
	if (!c)
		return NULL;
	v->str.s = c;
	v->str.len = len;
	return v;
}

sv_t *sv_cstr(script_arena_t *a, const char *s)
{
	return sv_str(a, s, strlen(s));
}

sv_t *sv_tuple(script_arena_t *a, int n)
{
	sv_t *v = sv_new(a, SV_TUPLE);
	if (!v)
		return NULL;
	v->tuple.items = script_arena_alloc(a, sizeof(sv_t *) * (size_t)(n ? n : 1));
	if (!v->tuple.items)
		return NULL;
	v->tuple.n = n;
	return v;
}

sv_t *sv_list(script_arena_t *a, int cap)
{
	sv_t *v = sv_new(a, SV_LIST);
	if (!v)
		return NULL;
	v->list = script_arena_alloc(a, sizeof *v->list);
	if (!v->list)
		return NULL;
	cap = cap < 4 ? 4 : cap;
	v->list->items = script_arena_alloc(a, sizeof(sv_t *) * (size_t)cap);
	if (!v->list->items)
		return NULL;
	v->list->cap = cap;
	return v;
}

int sv_list_append(script_arena_t *a, sv_t *list, sv_t *item)
{
	svlist_t *l = list->list;
	if (l->n == l->cap) {
		int cap = l->cap * 2;
		sv_t **items = script_arena_alloc(a, sizeof *items * (size_t)cap);
		if (!items)
			return DALIC_ENOMEM;
		memcpy(items, l->items, sizeof *items * (size_t)l->n);
		l->items = items;
		l->cap = cap;
	}
	l->items[l->n++] = item;
	return DALIC_OK;
}

sv_t *sv_dict(script_arena_t *a)
{
	sv_t *v = sv_new(a, SV_DICT);
	if (!v)
		return NULL;
	v->dict = svdict_new(a);
	return v->dict ? v : NULL;
}

sv_t *sv_opaque(script_arena_t *a, const char *what)
{
	sv_t *v = sv_new(a, SV_OPAQUE);
	if (v)
		v->opaque.what = what;
	return v;
}

sv_t *sv_enum(script_arena_t *a, int type, int64_t value)
{
	sv_t *v = sv_new(a, SV_ENUM);
	if (v) {
		v->en.type = type;
		v->en.value = value;
	}
	return v;
}

sv_t *sv_node(script_arena_t *a, const char *name, const char *device, spipe_t *pipe)
{
	sv_t *v = sv_new(a, SV_NODE);
	if (!v)
		return NULL;
	v->node.name = name;
	v->node.device = device;
	v->node.pipe = pipe;
	return v;
}

/* ---- dict ----------------------------------------------------------------------------- */

struct svdict {
	sv_t **keys, **vals; /* keys[i] == NULL: deleted */
	uint64_t *hashes;
	int n, cap, live;
	int32_t *index; /* open addressing over entry positions, -1 = empty */
	int icap;
};

static uint64_t fnv(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

/* Nesting bound of the recursive walks over values: a script can build arbitrarily deep
 * or self-referencing containers, and none of them may exhaust the C stack. */
#define MAX_VALUE_DEPTH 100

static bool hashable_d(const sv_t *v, int depth)
{
	switch (v->kind) {
	case SV_LIST:
	case SV_DICT:
	case SV_SLICE:
		return false;
	case SV_TUPLE:
		if (depth > MAX_VALUE_DEPTH)
			return false;
		for (int i = 0; i < v->tuple.n; i++)
			if (!hashable_d(v->tuple.items[i], depth + 1))
				return false;
		return true;
	default:
		return true;
	}
}

bool sv_hashable(const sv_t *v)
{
	return hashable_d(v, 0);
}

/* Only called on hashable values, whose tuples are at most MAX_VALUE_DEPTH deep. */
static uint64_t hash_of(const sv_t *v)
{
	switch (v->kind) {
	case SV_NONE:
		return 0x1234567;
	case SV_BOOL:
		return mix((uint64_t)v->b);
	case SV_INT:
		return mix((uint64_t)v->i);
	case SV_FLOAT:
		if (v->f == floor(v->f) && fabs(v->f) < 9.2e18)
			return mix((uint64_t)(int64_t)v->f);
		{
			uint64_t bits;
			memcpy(&bits, &v->f, sizeof bits);
			return mix(bits);
		}
	case SV_STR:
		return fnv(v->str.s, v->str.len);
	case SV_TUPLE: {
		uint64_t h = 0x345678;
		for (int i = 0; i < v->tuple.n; i++)
			h = mix(h ^ hash_of(v->tuple.items[i])) + (uint64_t)i;
		return h;
	}
	case SV_ENUM:
		return mix((uint64_t)v->en.type * 1000003u + (uint64_t)v->en.value);
	case SV_NODE:
		return fnv(v->node.name, strlen(v->node.name)) ^ (v->node.device[0] == 'g');
	case SV_OPFN:
		return fnv(v->opfn.path, strlen(v->opfn.path)) ^ v->opfn.ops_api;
	case SV_FUNC:
		return mix((uint64_t)(uintptr_t)v->func);
	case SV_CLASS:
		return mix((uint64_t)(uintptr_t)v->cls);
	case SV_INSTANCE:
		return mix((uint64_t)(uintptr_t)v->inst);
	case SV_MODULE:
		return mix((uint64_t)(uintptr_t)v->mod);
	case SV_BUILTIN:
		return mix((uint64_t)(uintptr_t)v->builtin.fn);
	case SV_BOUND:
		return mix((uint64_t)(uintptr_t)v->bound.self);
	default:
		return mix((uint64_t)(uintptr_t)v); /* identity */
	}
}

svdict_t *svdict_new(script_arena_t *a)
{
	return script_arena_alloc(a, sizeof(svdict_t));
}

static int find_slot(const svdict_t *d, const sv_t *key, uint64_t h, bool *found)
{
	int mask = d->icap - 1;
	for (int i = (int)(h & (uint64_t)mask);; i = (i + 1) & mask) {
		int32_t e = d->index[i];
		if (e < 0) {
			*found = false;
			return i;
		}
		if (d->keys[e] && d->hashes[e] == h && sv_equal(d->keys[e], key)) {
			*found = true;
			return i;
		}
	}
}

static int rebuild_index(script_arena_t *a, svdict_t *d, int icap)
{
	int32_t *idx = script_arena_alloc(a, sizeof *idx * (size_t)icap);
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

int svdict_set(script_arena_t *a, svdict_t *d, sv_t *key, sv_t *value)
{
	if (!sv_hashable(key))
		return DALIC_EINVAL;
	uint64_t h = hash_of(key);
	if (d->icap) {
		bool found;
		int slot = find_slot(d, key, h, &found);
		if (found) {
			d->vals[d->index[slot]] = value;
			return DALIC_OK;
		}
	}
	if (d->n == d->cap) {
		int cap = d->cap ? d->cap * 2 : 8;
		sv_t **k = script_arena_alloc(a, sizeof *k * (size_t)cap);
		sv_t **v = script_arena_alloc(a, sizeof *v * (size_t)cap);
		uint64_t *hs = script_arena_alloc(a, sizeof *hs * (size_t)cap);
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
		return rebuild_index(a, d, d->icap ? d->icap * 2 : 16);
	bool found;
	int slot = find_slot(d, key, h, &found);
	d->index[slot] = d->n - 1;
	return DALIC_OK;
}

sv_t *svdict_get(const svdict_t *d, const sv_t *key)
{
	if (!d->icap || !sv_hashable(key))
		return NULL;
	bool found;
	int slot = find_slot(d, key, hash_of(key), &found);
	return found ? d->vals[d->index[slot]] : NULL;
}

sv_t *svdict_get_str(const svdict_t *d, const char *key)
{
	if (!d->icap)
		return NULL;
	size_t n = strlen(key);
	uint64_t h = fnv(key, n);
	int mask = d->icap - 1;
	for (int i = (int)(h & (uint64_t)mask);; i = (i + 1) & mask) {
		int32_t e = d->index[i];
		if (e < 0)
			return NULL;
		const sv_t *k = d->keys[e];
		if (k && d->hashes[e] == h && k->kind == SV_STR && k->str.len == n &&
		    !memcmp(k->str.s, key, n))
			return d->vals[e];
	}
}

int svdict_set_str(script_arena_t *a, svdict_t *d, const char *key, sv_t *value)
{
	sv_t *k = sv_cstr(a, key);
	return k ? svdict_set(a, d, k, value) : DALIC_ENOMEM;
}

bool svdict_del(svdict_t *d, const sv_t *key)
{
	if (!d->icap || !sv_hashable(key))
		return false;
	bool found;
	int slot = find_slot(d, key, hash_of(key), &found);
	if (!found)
		return false;
	/* the index keeps pointing at the tombstone so probe chains stay intact */
	d->keys[d->index[slot]] = NULL;
	d->live--;
	return true;
}

int svdict_len(const svdict_t *d)
{
	return d->live;
}

bool svdict_next(const svdict_t *d, int *it, sv_t **key, sv_t **value)
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

bool sv_is_number(const sv_t *v)
{
	return v->kind == SV_BOOL || v->kind == SV_INT || v->kind == SV_FLOAT;
}

double sv_as_double(const sv_t *v)
{
	switch (v->kind) {
	case SV_BOOL:
		return v->b;
	case SV_INT:
		return (double)v->i;
	case SV_FLOAT:
		return v->f;
	default:
		return 0;
	}
}

static bool equal_d(const sv_t *x, const sv_t *y, int depth);

bool sv_equal(const sv_t *x, const sv_t *y)
{
	return equal_d(x, y, 0);
}

static bool equal_d(const sv_t *x, const sv_t *y, int depth)
{
	if (x == y)
		return true;
	if (depth > MAX_VALUE_DEPTH)
		return false; /* Python would raise RecursionError; "different" is safe here */
	if (sv_is_number(x) && sv_is_number(y)) {
		if (x->kind != SV_FLOAT && y->kind != SV_FLOAT)
			return (x->kind == SV_BOOL ? x->b : x->i) ==
			       (y->kind == SV_BOOL ? y->b : y->i);
		return sv_as_double(x) == sv_as_double(y);
	}
	if (x->kind != y->kind)
		return false;
	switch (x->kind) {
	case SV_NONE:
	case SV_ELLIPSIS:
		return true;
	case SV_STR:
		return x->str.len == y->str.len && !memcmp(x->str.s, y->str.s, x->str.len);
	case SV_TUPLE:
		if (x->tuple.n != y->tuple.n)
			return false;
		for (int i = 0; i < x->tuple.n; i++)
			if (!equal_d(x->tuple.items[i], y->tuple.items[i], depth + 1))
				return false;
		return true;
	case SV_LIST:
		if (x->list->n != y->list->n)
			return false;
		for (int i = 0; i < x->list->n; i++)
			if (!equal_d(x->list->items[i], y->list->items[i], depth + 1))
				return false;
		return true;
	case SV_DICT: {
		if (svdict_len(x->dict) != svdict_len(y->dict))
			return false;
		sv_t *k, *v;
		for (int it = 0; svdict_next(x->dict, &it, &k, &v);) {
			sv_t *w = svdict_get(y->dict, k);
			if (!w || !equal_d(v, w, depth + 1))
				return false;
		}
		return true;
	}
	case SV_ENUM:
		return x->en.type == y->en.type && x->en.value == y->en.value;
	case SV_NODE:
		return !strcmp(x->node.name, y->node.name) &&
		       !strcmp(x->node.device, y->node.device);
	case SV_OPFN:
		return x->opfn.ops_api == y->opfn.ops_api && !strcmp(x->opfn.path, y->opfn.path);
	/* identity of the payload: several sv_t may wrap one function, class or object */
	case SV_FUNC:
		return x->func == y->func;
	case SV_CLASS:
		return x->cls == y->cls;
	case SV_INSTANCE:
		return x->inst == y->inst;
	case SV_MODULE:
		return x->mod == y->mod;
	case SV_BUILTIN:
		return x->builtin.fn == y->builtin.fn && x->builtin.self == y->builtin.self &&
		       x->builtin.data == y->builtin.data;
	case SV_BOUND:
		return x->bound.self == y->bound.self && x->bound.func == y->bound.func;
	default:
		return false;
	}
}

const char *sv_type_name(const sv_t *v)
{
	switch (v->kind) {
	case SV_NONE:
		return "NoneType";
	case SV_BOOL:
		return "bool";
	case SV_INT:
		return "int";
	case SV_FLOAT:
		return "float";
	case SV_STR:
		return "str";
	case SV_TUPLE:
		return "tuple";
	case SV_LIST:
		return "list";
	case SV_DICT:
		return "dict";
	case SV_SLICE:
		return "slice";
	case SV_ELLIPSIS:
		return "ellipsis";
	case SV_FUNC:
	case SV_PIPEDEF:
		return "function";
	case SV_BUILTIN:
		return "builtin_function_or_method";
	case SV_BOUND:
		return "method";
	case SV_CLASS:
		return "type";
	case SV_INSTANCE:
		return v->inst->cls->name;
	case SV_SUPER:
		return "super";
	case SV_MODULE:
		return "module";
	case SV_OPFN:
		return "function";
	case SV_OPOBJ:
		return v->opobj.display;
	case SV_NODE:
		return "DataNode";
	case SV_ENUM:
		return v->en.type == ENUM_DTYPE   ? "DALIDataType"
		       : v->en.type == ENUM_IMAGE ? "DALIImageType"
		                                  : "DALIInterpType";
	case SV_SCONST:
		return "ScalarConstant";
	case SV_OPAQUE:
		return "object";
	case SV_UNDEF:
		return "Undefined";
	}
	return "object";
}
