/*
 * Runtime values (see script_value.h): constructors, the insertion-ordered dict with
 * Python's key equality (1 == 1.0 == True hash alike), equality, type names and str / repr
 * formatting — including Python's shortest round-trip float repr and DALI's DataNode repr.
 */
#include "frontend/script_value.h"

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

bool sv_hashable(const sv_t *v)
{
	switch (v->kind) {
	case SV_LIST:
	case SV_DICT:
	case SV_SLICE: return false;
	case SV_TUPLE:
		for (int i = 0; i < v->tuple.n; i++)
			if (!sv_hashable(v->tuple.items[i]))
				return false;
		return true;
	default: return true;
	}
}

static uint64_t hash_of(const sv_t *v)
{
	switch (v->kind) {
	case SV_NONE: return 0x1234567;
	case SV_BOOL: return mix((uint64_t)v->b);
	case SV_INT: return mix((uint64_t)v->i);
	case SV_FLOAT:
		if (v->f == floor(v->f) && fabs(v->f) < 9.2e18)
			return mix((uint64_t)(int64_t)v->f);
		{
			uint64_t bits;
			memcpy(&bits, &v->f, sizeof bits);
			return mix(bits);
		}
	case SV_STR: return fnv(v->str.s, v->str.len);
	case SV_TUPLE: {
		uint64_t h = 0x345678;
		for (int i = 0; i < v->tuple.n; i++)
			h = mix(h ^ hash_of(v->tuple.items[i])) + (uint64_t)i;
		return h;
	}
	case SV_ENUM: return mix((uint64_t)v->en.type * 1000003u + (uint64_t)v->en.value);
	case SV_NODE: return fnv(v->node.name, strlen(v->node.name)) ^ (v->node.device[0] == 'g');
	case SV_OPFN: return fnv(v->opfn.path, strlen(v->opfn.path)) ^ v->opfn.ops_api;
	case SV_FUNC: return mix((uint64_t)(uintptr_t)v->func);
	case SV_CLASS: return mix((uint64_t)(uintptr_t)v->cls);
	case SV_INSTANCE: return mix((uint64_t)(uintptr_t)v->inst);
	case SV_MODULE: return mix((uint64_t)(uintptr_t)v->mod);
	case SV_BUILTIN: return mix((uint64_t)(uintptr_t)v->builtin.fn);
	case SV_BOUND: return mix((uint64_t)(uintptr_t)v->bound.self);
	default: return mix((uint64_t)(uintptr_t)v); /* identity */
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
	case SV_BOOL: return v->b;
	case SV_INT: return (double)v->i;
	case SV_FLOAT: return v->f;
	default: return 0;
	}
}

bool sv_equal(const sv_t *x, const sv_t *y)
{
	if (x == y)
		return true;
	if (sv_is_number(x) && sv_is_number(y)) {
		if (x->kind != SV_FLOAT && y->kind != SV_FLOAT)
			return (x->kind == SV_BOOL ? x->b : x->i) == (y->kind == SV_BOOL ? y->b : y->i);
		return sv_as_double(x) == sv_as_double(y);
	}
	if (x->kind != y->kind)
		return false;
	switch (x->kind) {
	case SV_NONE:
	case SV_ELLIPSIS: return true;
	case SV_STR: return x->str.len == y->str.len && !memcmp(x->str.s, y->str.s, x->str.len);
	case SV_TUPLE:
		if (x->tuple.n != y->tuple.n)
			return false;
		for (int i = 0; i < x->tuple.n; i++)
			if (!sv_equal(x->tuple.items[i], y->tuple.items[i]))
				return false;
		return true;
	case SV_LIST:
		if (x->list->n != y->list->n)
			return false;
		for (int i = 0; i < x->list->n; i++)
			if (!sv_equal(x->list->items[i], y->list->items[i]))
				return false;
		return true;
	case SV_DICT: {
		if (svdict_len(x->dict) != svdict_len(y->dict))
			return false;
		sv_t *k, *v;
		for (int it = 0; svdict_next(x->dict, &it, &k, &v);) {
			sv_t *w = svdict_get(y->dict, k);
			if (!w || !sv_equal(v, w))
				return false;
		}
		return true;
	}
	case SV_ENUM: return x->en.type == y->en.type && x->en.value == y->en.value;
	case SV_NODE:
		return !strcmp(x->node.name, y->node.name) && !strcmp(x->node.device, y->node.device);
	case SV_OPFN: return x->opfn.ops_api == y->opfn.ops_api && !strcmp(x->opfn.path, y->opfn.path);
	/* identity of the payload: several sv_t may wrap one function, class or object */
	case SV_FUNC: return x->func == y->func;
	case SV_CLASS: return x->cls == y->cls;
	case SV_INSTANCE: return x->inst == y->inst;
	case SV_MODULE: return x->mod == y->mod;
	case SV_BUILTIN: return x->builtin.fn == y->builtin.fn && x->builtin.self == y->builtin.self &&
				x->builtin.data == y->builtin.data;
	case SV_BOUND: return x->bound.self == y->bound.self && x->bound.func == y->bound.func;
	default: return false;
	}
}

const char *sv_type_name(const sv_t *v)
{
	switch (v->kind) {
	case SV_NONE: return "NoneType";
	case SV_BOOL: return "bool";
	case SV_INT: return "int";
	case SV_FLOAT: return "float";
	case SV_STR: return "str";
	case SV_TUPLE: return "tuple";
	case SV_LIST: return "list";
	case SV_DICT: return "dict";
	case SV_SLICE: return "slice";
	case SV_ELLIPSIS: return "ellipsis";
	case SV_FUNC:
	case SV_PIPEDEF: return "function";
	case SV_BUILTIN: return "builtin_function_or_method";
	case SV_BOUND: return "method";
	case SV_CLASS: return "type";
	case SV_INSTANCE: return v->inst->cls->name;
	case SV_SUPER: return "super";
	case SV_MODULE: return "module";
	case SV_OPFN: return "function";
	case SV_OPOBJ: return v->opobj.display;
	case SV_NODE: return "DataNode";
	case SV_ENUM:
		return v->en.type == ENUM_DTYPE ? "DALIDataType"
		       : v->en.type == ENUM_IMAGE ? "DALIImageType" : "DALIInterpType";
	case SV_SCONST: return "ScalarConstant";
	case SV_OPAQUE: return "object";
	case SV_UNDEF: return "Undefined";
	}
	return "object";
}

/* ---- formatting ----------------------------------------------------------------------- */

void sbuf_put(sbuf_t *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		while (cap < b->n + n + 1)
			cap *= 2;
		char *ns = realloc(b->s, cap);
		if (!ns) {
			b->oom = true;
			return;
		}
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
}

void sbuf_puts(sbuf_t *b, const char *s)
{
	sbuf_put(b, s, strlen(s));
}

void sbuf_printf(sbuf_t *b, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof tmp) {
		sbuf_put(b, tmp, (size_t)n);
		return;
	}
	char *big = malloc((size_t)n + 1);
	if (!big) {
		b->oom = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sbuf_put(b, big, (size_t)n);
	free(big);
}

void sbuf_free(sbuf_t *b)
{
	free(b->s);
	memset(b, 0, sizeof *b);
}

void sv_float_repr(char *buf, size_t n, double f)
{
	if (isnan(f)) {
		snprintf(buf, n, "nan");
		return;
	}
	if (isinf(f)) {
		snprintf(buf, n, f < 0 ? "-inf" : "inf");
		return;
	}
	char tmp[64];
	int prec = 1;
	for (; prec <= 17; prec++) {
		snprintf(tmp, sizeof tmp, "%.*e", prec - 1, f);
		if (strtod(tmp, NULL) == f)
			break;
	}
	/* tmp is [-]d[.ddd]e[+-]XX: collect the significant digits and the exponent */
	char digits[32];
	int nd = 0, exp10 = 0;
	bool neg = false;
	const char *p = tmp;
	if (*p == '-') {
		neg = true;
		p++;
	}
	for (; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9' && nd < 31)
			digits[nd++] = *p;
	if (*p == 'e')
		exp10 = atoi(p + 1);
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	digits[nd] = 0;
	char out[64];
	int k = 0;
	if (neg)
		out[k++] = '-';
	if (exp10 >= -4 && exp10 < 16) {
		if (exp10 >= 0) {
			for (int i = 0; i <= exp10; i++)
				out[k++] = i < nd ? digits[i] : '0';
			out[k++] = '.';
			if (nd > exp10 + 1)
				for (int i = exp10 + 1; i < nd; i++)
					out[k++] = digits[i];
			else
				out[k++] = '0';
		} else {
			out[k++] = '0';
			out[k++] = '.';
			for (int i = 0; i < -exp10 - 1; i++)
				out[k++] = '0';
			for (int i = 0; i < nd; i++)
				out[k++] = digits[i];
		}
		out[k] = 0;
	} else {
		out[k++] = digits[0];
		if (nd > 1) {
			out[k++] = '.';
			for (int i = 1; i < nd; i++)
				out[k++] = digits[i];
		}
		snprintf(out + k, sizeof out - (size_t)k, "e%c%02d", exp10 < 0 ? '-' : '+',
			 exp10 < 0 ? -exp10 : exp10);
	}
	snprintf(buf, n, "%s", out);
}

const char *sv_enum_name(int type, int64_t value)
{
	static const char *images[] = {"RGB", "BGR", "GRAY", "YCbCr", "ANY_DATA"};
	static const char *interps[] = {"INTERP_NN", "INTERP_LINEAR", "INTERP_CUBIC",
					"INTERP_LANCZOS3", "INTERP_TRIANGULAR", "INTERP_GAUSSIAN"};
	if (type == ENUM_DTYPE)
		return dalic_dtype_name((dalic_dtype_t)value);
	if (type == ENUM_IMAGE)
		return value >= 0 && value < 5 ? images[value] : "?";
	return value >= 0 && value < 6 ? interps[value] : "?";
}

static void str_repr(sbuf_t *b, const char *s, size_t n)
{
	bool has_single = memchr(s, '\'', n) != NULL, has_double = memchr(s, '"', n) != NULL;
	char q = has_single && !has_double ? '"' : '\'';
	sbuf_put(b, &q, 1);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\\')
			sbuf_puts(b, "\\\\");
		else if (c == (unsigned char)q)
			sbuf_printf(b, "\\%c", q);
		else if (c == '\n')
			sbuf_puts(b, "\\n");
		else if (c == '\r')
			sbuf_puts(b, "\\r");
		else if (c == '\t')
			sbuf_puts(b, "\\t");
		else if (c < 0x20 || c == 0x7f)
			sbuf_printf(b, "\\x%02x", c);
		else
			sbuf_put(b, (const char *)&s[i], 1);
	}
	sbuf_put(b, &q, 1);
}

static void seq_format(sbuf_t *b, sv_t *const *items, int n, const char *open, const char *close,
		       bool tuple)
{
	sbuf_puts(b, open);
	for (int i = 0; i < n; i++) {
		if (i)
			sbuf_puts(b, ", ");
		sv_format(b, items[i], true);
	}
	if (tuple && n == 1)
		sbuf_puts(b, ",");
	sbuf_puts(b, close);
}

void sv_format(sbuf_t *b, const sv_t *v, bool repr)
{
	char tmp[64];
	switch (v->kind) {
	case SV_NONE: sbuf_puts(b, "None"); return;
	case SV_BOOL: sbuf_puts(b, v->b ? "True" : "False"); return;
	case SV_INT: sbuf_printf(b, "%lld", (long long)v->i); return;
	case SV_FLOAT: sv_float_repr(tmp, sizeof tmp, v->f); sbuf_puts(b, tmp); return;
	case SV_STR:
		if (repr)
			str_repr(b, v->str.s, v->str.len);
		else
			sbuf_put(b, v->str.s, v->str.len);
		return;
	case SV_TUPLE: seq_format(b, v->tuple.items, v->tuple.n, "(", ")", true); return;
	case SV_LIST: seq_format(b, v->list->items, v->list->n, "[", "]", false); return;
	case SV_DICT: {
		sbuf_puts(b, "{");
		sv_t *k, *val;
		bool first = true;
		for (int it = 0; svdict_next(v->dict, &it, &k, &val);) {
			if (!first)
				sbuf_puts(b, ", ");
			first = false;
			sv_format(b, k, true);
			sbuf_puts(b, ": ");
			sv_format(b, val, true);
		}
		sbuf_puts(b, "}");
		return;
	}
	case SV_SLICE:
		sbuf_puts(b, "slice(");
		sv_format(b, v->slice.lo, true);
		sbuf_puts(b, ", ");
		sv_format(b, v->slice.hi, true);
		sbuf_puts(b, ", ");
		sv_format(b, v->slice.step, true);
		sbuf_puts(b, ")");
		return;
	case SV_ELLIPSIS: sbuf_puts(b, "Ellipsis"); return;
	case SV_FUNC: sbuf_printf(b, "<function %s>", v->func->name); return;
	case SV_PIPEDEF:
		sbuf_printf(b, "<function %s>", v->pipedef.func->func->name);
		return;
	case SV_BUILTIN: sbuf_printf(b, "<built-in function %s>", v->builtin.name); return;
	case SV_BOUND:
		sbuf_printf(b, "<bound method %s.%s>", sv_type_name(v->bound.self),
			    v->bound.func->kind == SV_FUNC ? v->bound.func->func->name : "?");
		return;
	case SV_CLASS:
		sbuf_printf(b, "<class '%s%s'>", v->cls->pipeline && !v->cls->nbases
							 ? "nvidia.dali.pipeline."
							 : "__main__.",
			    v->cls->name);
		return;
	case SV_INSTANCE:
		if (v->inst->cls->exception && !repr) {
			sbuf_puts(b, v->inst->message ? v->inst->message : "");
			return;
		}
		sbuf_printf(b, "<__main__.%s object>", v->inst->cls->name);
		return;
	case SV_SUPER: sbuf_puts(b, "<super object>"); return;
	case SV_MODULE: sbuf_printf(b, "<module '%s'>", v->mod->name); return;
	case SV_OPFN:
		sbuf_printf(b, "<function nvidia.dali.%s.%s>", v->opfn.ops_api ? "ops" : "fn",
			    v->opfn.path);
		return;
	case SV_OPOBJ:
		sbuf_printf(b, "<%s.%s object>", v->opobj.module, v->opobj.display);
		return;
	case SV_NODE:
		sbuf_printf(b, "DataNode(name=\"%s\", device=\"%s\")", v->node.name, v->node.device);
		return;
	case SV_ENUM: {
		const char *cls = sv_type_name(v);
		if (repr)
			sbuf_printf(b, "<%s.%s: %lld>", cls, sv_enum_name(v->en.type, v->en.value),
				    (long long)v->en.value);
		else
			sbuf_printf(b, "%s.%s", cls, sv_enum_name(v->en.type, v->en.value));
		return;
	}
	case SV_SCONST:
		sv_format(b, v->sconst.value, true);
		if (!repr)
			sbuf_printf(b, ":DALIDataType.%s", dalic_dtype_name((dalic_dtype_t)v->sconst.dtype));
		return;
	case SV_OPAQUE: sbuf_printf(b, "<%s>", v->opaque.what); return;
	case SV_UNDEF: sbuf_printf(b, "<undefined %s>", v->undef.name); return;
	}
}
