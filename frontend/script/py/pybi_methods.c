/*
 * Methods of the built-in types: str (format, join, split, strip, replace, startswith...),
 * list (append, extend, insert, pop, index...), dict (get, items, keys, values, update,
 * pop...) and tuple (index, count). sb_method() returns the method bound to its receiver.
 */
#include "frontend/script/py/pystate.h"

#include <ctype.h>
#include <string.h>

#define TRY(x)                                                                                     \
	do {                                                                                       \
		int rc_ = (x);                                                                     \
		if (rc_)                                                                           \
			return rc_;                                                                \
	} while (0)
#define RET(v)                                                                                     \
	do {                                                                                       \
		*out = (v);                                                                        \
		return *out ? DALIC_OK : serr_oom(I, at);                                          \
	} while (0)

static int want(sinterp_t *I, const snode_t *at, const char *m, const sargs_t *args, int lo, int hi)
{
	if (args->nkw)
		return serr(I, at, DALIC_EINVAL, "TypeError: %s() takes no keyword arguments", m);
	if (args->npos < lo || args->npos > hi)
		return serr(I, at, DALIC_EINVAL,
		            "TypeError: %s() takes %d to %d arguments (%d given)", m, lo, hi,
		            args->npos);
	return DALIC_OK;
}

static int want_str(sinterp_t *I, const snode_t *at, const char *m, const sv_t *v)
{
	if (v->kind != SV_STR)
		return serr(I, at, DALIC_EINVAL, "TypeError: %s() argument must be str, not %s", m,
		            sv_type_name(v));
	return DALIC_OK;
}

/* ---- str ------------------------------------------------------------------------------ */

static int m_format(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	return sf_str_format(I, at, self, args, out);
}

static int m_join(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(want(I, at, "join", args, 1, 1));
	sv_t **items;
	int n;
	bool opaque;
	TRY(se_iterate(I, at, args->pos[0], &items, &n, &opaque));
	if (opaque)
		RET(args->pos[0]);
	sbuf_t b = {0};
	for (int i = 0; i < n; i++) {
		if (items[i]->kind != SV_STR) {
			sbuf_free(&b);
			return serr(I, at, DALIC_EINVAL,
			            "TypeError: sequence item %d: expected str instance, %s found",
			            i, sv_type_name(items[i]));
		}
		if (i)
			sbuf_put(&b, self->str.s, self->str.len);
		sbuf_put(&b, items[i]->str.s, items[i]->str.len);
	}
	*out = b.oom ? NULL : sv_str(I->a, b.s ? b.s : "", b.n);
	sbuf_free(&b);
	return *out ? DALIC_OK : serr_oom(I, at);
}

static int m_split(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(want(I, at, "split", args, 0, 2));
	sv_t *sep = args->npos ? args->pos[0] : NULL;
	int64_t maxsplit = -1;
	if (args->npos == 2 && args->pos[1]->kind == SV_INT)
		maxsplit = args->pos[1]->i;
	sv_t *l = sv_list(I->a, 4);
	if (!l)
		return serr_oom(I, at);
	const char *s = self->str.s, *end = s + self->str.len;
	if (!sep || sep->kind == SV_NONE) {
		while (s < end) {
			while (s < end && isspace((unsigned char)*s))
				s++;
			if (s >= end)
				break;
			const char *e = s;
			if (maxsplit >= 0 && l->list->n >= maxsplit)
				e = end;
			else
				while (e < end && !isspace((unsigned char)*e))
					e++;
			sv_t *part = sv_str(I->a, s, (size_t)(e - s));
			if (!part || sv_list_append(I->a, l, part))
				return serr_oom(I, at);
			s = e;
		}
		RET(l);
	}
	TRY(want_str(I, at, "split", sep));
	if (!sep->str.len)
		return serr(I, at, DALIC_EINVAL, "ValueError: empty separator");
	for (;;) {
		const char *e = (maxsplit < 0 || l->list->n < maxsplit)
		                    ? memmem(s, (size_t)(end - s), sep->str.s, sep->str.len)
		                    : NULL;
		sv_t *part = sv_str(I->a, s, (size_t)((e ? e : end) - s));
		if (!part || sv_list_append(I->a, l, part))
			return serr_oom(I, at);
		if (!e)
			break;
		s = e + sep->str.len;
	}
	RET(l);
}

static int strip(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, bool left,
                 bool right, sv_t **out)
{
	TRY(want(I, at, "strip", args, 0, 1));
	const char *chars = " \t\n\r\v\f";
	if (args->npos && args->pos[0]->kind != SV_NONE) {
		TRY(want_str(I, at, "strip", args->pos[0]));
		chars = args->pos[0]->str.s;
	}
	const char *s = self->str.s, *e = s + self->str.len;
	while (left && s < e && strchr(chars, *s))
		s++;
	while (right && e > s && strchr(chars, e[-1]))
		e--;
	RET(sv_str(I->a, s, (size_t)(e - s)));
}

static int m_strip(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	return strip(I, at, self, args, true, true, out);
}

static int m_lstrip(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	return strip(I, at, self, args, true, false, out);
}

static int m_rstrip(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	return strip(I, at, self, args, false, true, out);
}

static int change_case(sinterp_t *I, const snode_t *at, sv_t *self, bool upper, sv_t **out)
{
	sv_t *r = sv_str(I->a, self->str.s, self->str.len);
	if (!r)
		return serr_oom(I, at);
	for (char *p = (char *)r->str.s; *p; p++)
		*p = (char)(upper ? toupper((unsigned char)*p) : tolower((unsigned char)*p));
	RET(r);
}

static int m_upper(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(want(I, at, "upper", args, 0, 0));
	return change_case(I, at, self, true, out);
}

static int m_lower(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(want(I, at, "lower", args, 0, 0));
	return change_case(I, at, self, false, out);
}

static int affix(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, bool prefix,
                 sv_t **out)
{
	TRY(want(I, at, prefix ? "startswith" : "endswith", args, 1, 1));
	sv_t *p = args->pos[0];
	sv_t **cands = &p;
	int n = 1;
	if (p->kind == SV_TUPLE) {
		cands = p->tuple.items;
		n = p->tuple.n;
	}
	for (int i = 0; i < n; i++) {
		TRY(want_str(I, at, prefix ? "startswith" : "endswith", cands[i]));
		size_t k = cands[i]->str.len;
		if (k <= self->str.len &&
		    !memcmp(prefix ? self->str.s : self->str.s + self->str.len - k, cands[i]->str.s,
		            k))
			RET(sv_true());
	}
	RET(sv_false());
}

static int m_startswith(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args,
                        sv_t **out)
{
	return affix(I, at, self, args, true, out);
}

static int m_endswith(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	return affix(I, at, self, args, false, out);
}

static int m_replace(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(want(I, at, "replace", args, 2, 3));
	sv_t *old = args->pos[0], *new = args->pos[1];
	TRY(want_str(I, at, "replace", old));
	TRY(want_str(I, at, "replace", new));
	int64_t count = args->npos == 3 && args->pos[2]->kind == SV_INT ? args->pos[2]->i : -1;
	if (!old->str.len)
		RET(self);
	sbuf_t b = {0};
	const char *s = self->str.s, *end = s + self->str.len;
	while (s < end) {
		const char *e =
		    count ? memmem(s, (size_t)(end - s), old->str.s, old->str.len) : NULL;
		if (!e)
			break;
		sbuf_put(&b, s, (size_t)(e - s));
		sbuf_put(&b, new->str.s, new->str.len);
		s = e + old->str.len;
		if (count > 0)
			count--;
	}
	sbuf_put(&b, s, (size_t)(end - s));
	*out = b.oom ? NULL : sv_str(I->a, b.s ? b.s : "", b.n);
	sbuf_free(&b);
	return *out ? DALIC_OK : serr_oom(I, at);
}

static int m_find(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(want(I, at, "find", args, 1, 1));
	TRY(want_str(I, at, "find", args->pos[0]));
	const char *e =
	    memmem(self->str.s, self->str.len, args->pos[0]->str.s, args->pos[0]->str.len);
	RET(sv_int(I->a, e ? e - self->str.s : -1));
}

/* ---- list / tuple --------------------------------------------------------------------- */

static int m_append(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(want(I, at, "append", args, 1, 1));
	if (sv_list_append(I->a, self, args->pos[0]))
		return serr_oom(I, at);
	RET(sv_none());
}

static int m_extend(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(want(I, at, "extend", args, 1, 1));
	sv_t **items;
	int n;
	bool opaque;
	TRY(se_iterate(I, at, args->pos[0], &items, &n, &opaque));
	if (opaque)
		return serr_opaque(I, at, args->pos[0], "cannot extend a list with");
	for (int i = 0; i < n; i++)
		if (sv_list_append(I->a, self, items[i]))
			return serr_oom(I, at);
	RET(sv_none());
}

static int m_insert(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(want(I, at, "insert", args, 2, 2));
	if (args->pos[0]->kind != SV_INT)
		return serr(I, at, DALIC_EINVAL, "TypeError: list indices must be integers");
	int64_t i = args->pos[0]->i, n = self->list->n;
	if (i < 0)
		i = i + n < 0 ? 0 : i + n;
	if (i > n)
		i = n;
	if (sv_list_append(I->a, self, args->pos[1]))
		return serr_oom(I, at);
	memmove(&self->list->items[i + 1], &self->list->items[i], sizeof(sv_t *) * (size_t)(n - i));
	self->list->items[i] = args->pos[1];
	RET(sv_none());
}

static int m_pop(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	if (self->kind == SV_DICT) {
		TRY(want(I, at, "pop", args, 1, 2));
		sv_t *v = svdict_get(self->dict, args->pos[0]);
		if (!v) {
			if (args->npos == 2)
				RET(args->pos[1]);
			return serr(I, at, DALIC_EINVAL, "KeyError");
		}
		svdict_del(self->dict, args->pos[0]);
		RET(v);
	}
	TRY(want(I, at, "pop", args, 0, 1));
	int64_t n = self->list->n, i = n - 1;
	if (args->npos && args->pos[0]->kind == SV_INT)
		i = args->pos[0]->i < 0 ? args->pos[0]->i + n : args->pos[0]->i;
	if (i < 0 || i >= n)
		return serr(I, at, DALIC_EINVAL,
		            "IndexError: pop from empty list or index out of range");
	sv_t *v = self->list->items[i];
	memmove(&self->list->items[i], &self->list->items[i + 1],
	        sizeof(sv_t *) * (size_t)(n - i - 1));
	self->list->n--;
	RET(v);
}

static int seq_items(sv_t *self, sv_t ***items)
{
	*items = self->kind == SV_LIST ? self->list->items : self->tuple.items;
	return self->kind == SV_LIST ? self->list->n : self->tuple.n;
}

static int m_index(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(want(I, at, "index", args, 1, 1));
	sv_t **items;
	int n = seq_items(self, &items);
	for (int i = 0; i < n; i++)
		if (sv_equal(items[i], args->pos[0]))
			RET(sv_int(I->a, i));
	return serr(I, at, DALIC_EINVAL, "ValueError: value is not in %s", sv_type_name(self));
}

static int m_count(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(want(I, at, "count", args, 1, 1));
	sv_t **items;
	int n = seq_items(self, &items), c = 0;
	for (int i = 0; i < n; i++)
		c += sv_equal(items[i], args->pos[0]);
	RET(sv_int(I->a, c));
}

static int m_copy(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(want(I, at, "copy", args, 0, 0));
	if (self->kind == SV_DICT) {
		sv_t *d = sv_dict(I->a), *k, *v;
		if (!d)
			return serr_oom(I, at);
		for (int it = 0; svdict_next(self->dict, &it, &k, &v);)
			if (svdict_set(I->a, d->dict, k, v))
				return serr_oom(I, at);
		RET(d);
	}
	sv_t *l = sv_list(I->a, self->list->n);
	if (!l)
		return serr_oom(I, at);
	for (int i = 0; i < self->list->n; i++)
		if (sv_list_append(I->a, l, self->list->items[i]))
			return serr_oom(I, at);
	RET(l);
}

static int m_reverse(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(want(I, at, "reverse", args, 0, 0));
	for (int i = 0, j = self->list->n - 1; i < j; i++, j--) {
		sv_t *t = self->list->items[i];
		self->list->items[i] = self->list->items[j];
		self->list->items[j] = t;
	}
	RET(sv_none());
}

static int m_clear(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(want(I, at, "clear", args, 0, 0));
	if (self->kind == SV_LIST) {
		self->list->n = 0;
	} else {
		sv_t *k;
		for (int it = 0; svdict_next(self->dict, &it, &k, NULL);)
			svdict_del(self->dict, k);
	}
	RET(sv_none());
}

/* ---- dict ----------------------------------------------------------------------------- */

static int m_get(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(want(I, at, "get", args, 1, 2));
	sv_t *v = svdict_get(self->dict, args->pos[0]);
	RET(v ? v : args->npos == 2 ? args->pos[1] : sv_none());
}

static int m_setdefault(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args,
                        sv_t **out)
{
	TRY(want(I, at, "setdefault", args, 1, 2));
	sv_t *v = svdict_get(self->dict, args->pos[0]);
	if (v)
		RET(v);
	v = args->npos == 2 ? args->pos[1] : sv_none();
	TRY(se_setitem(I, at, self, args->pos[0], v));
	RET(v);
}

static int dict_view(sinterp_t *I, const snode_t *at, sv_t *self, int which, sv_t **out)
{
	sv_t *l = sv_list(I->a, svdict_len(self->dict)), *k, *v;
	if (!l)
		return serr_oom(I, at);
	for (int it = 0; svdict_next(self->dict, &it, &k, &v);) {
		sv_t *item = which == 0 ? k : which == 1 ? v : sv_tuple(I->a, 2);
		if (!item)
			return serr_oom(I, at);
		if (which == 2) {
			item->tuple.items[0] = k;
			item->tuple.items[1] = v;
		}
		if (sv_list_append(I->a, l, item))
			return serr_oom(I, at);
	}
	RET(l);
}

static int m_keys(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(want(I, at, "keys", args, 0, 0));
	return dict_view(I, at, self, 0, out);
}

static int m_values(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(want(I, at, "values", args, 0, 0));
	return dict_view(I, at, self, 1, out);
}

static int m_items(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(want(I, at, "items", args, 0, 0));
	return dict_view(I, at, self, 2, out);
}

static int m_update(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	if (args->npos > 1)
		return serr(I, at, DALIC_EINVAL, "TypeError: update expected at most 1 argument");
	sv_t *k, *v;
	if (args->npos) {
		if (args->pos[0]->kind != SV_DICT)
			return serr(I, at, DALIC_EINVAL, "TypeError: update() needs a dict");
		for (int it = 0; svdict_next(args->pos[0]->dict, &it, &k, &v);)
			if (svdict_set(I->a, self->dict, k, v))
				return serr_oom(I, at);
	}
	for (int i = 0; i < args->nkw; i++)
		if (svdict_set_str(I->a, self->dict, args->kwnames[i], args->kwvals[i]))
			return serr_oom(I, at);
	RET(sv_none());
}

/* ---- lookup --------------------------------------------------------------------------- */

typedef struct method {
	const char *name;
	sbuiltin_fn fn;
} method_t;

static const method_t str_methods[] = {
    {"format", m_format},
    {"join", m_join},
    {"split", m_split},
    {"strip", m_strip},
    {"lstrip", m_lstrip},
    {"rstrip", m_rstrip},
    {"upper", m_upper},
    {"lower", m_lower},
    {"startswith", m_startswith},
    {"endswith", m_endswith},
    {"replace", m_replace},
    {"find", m_find},
    {0},
};
static const method_t list_methods[] = {
    {"append", m_append}, {"extend", m_extend},
    {"insert", m_insert}, {"pop", m_pop},
    {"index", m_index},   {"count", m_count},
    {"copy", m_copy},     {"reverse", m_reverse},
    {"clear", m_clear},   {0},
};
static const method_t tuple_methods[] = {{"index", m_index}, {"count", m_count}, {0}};
static const method_t dict_methods[] = {
    {"get", m_get},       {"keys", m_keys},
    {"values", m_values}, {"items", m_items},
    {"update", m_update}, {"pop", m_pop},
    {"copy", m_copy},     {"setdefault", m_setdefault},
    {"clear", m_clear},   {0},
};

int sb_method(sinterp_t *I, const snode_t *at, sv_t *self, const char *name, sv_t **out)
{
	const method_t *table = self->kind == SV_STR     ? str_methods
	                        : self->kind == SV_LIST  ? list_methods
	                        : self->kind == SV_TUPLE ? tuple_methods
	                        : self->kind == SV_DICT  ? dict_methods
	                                                 : NULL;
	*out = NULL;
	for (const method_t *m = table; m && m->name; m++)
		if (!strcmp(m->name, name)) {
			*out = sb_make(I, m->name, m->fn, self, NULL);
			return *out ? DALIC_OK : serr_oom(I, at);
		}
	return DALIC_OK;
}
