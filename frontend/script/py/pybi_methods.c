/*
 * Methods of the built-in types: str (format, join, split, strip, replace, startswith...),
 * list (append, extend, insert, pop, index...), dict (get, items, keys, values, update,
 * pop...) and tuple (index, count). dalic_pybi_method() returns the method bound to its receiver.
 */
#include "frontend/script/py/pybi.h"

#include "frontend/script/py/pycall.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyfmt.h"

#include <ctype.h>
#include <string.h>

static int pybi_want(pyinterp_t *I, const pynode_t *at, const char *m, const pyargs_t *args, int lo,
                     int hi)
{
	if (args->nkw)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: %s() takes no keyword arguments", m);
	if (args->npos < lo || args->npos > hi)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: %s() takes %d to %d arguments (%d given)", m,
		                          lo, hi, args->npos);
	return DALIC_OK;
}

static int pybi_want_str(pyinterp_t *I, const pynode_t *at, const char *m, const pyval_t *v)
{
	if (v->kind != PV_STR)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: %s() argument must be str, not %s", m,
		                          dalic_pyval_type_name(v));
	return DALIC_OK;
}

/* ---- str ------------------------------------------------------------------------------ */

static int pybi_meth_format(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	return dalic_pyfmt_str_format(I, at, self, args, out);
}

static int pybi_meth_join(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, "join", args, 1, 1));
	pyval_t **items;
	int n;
	bool opaque;
	DALIC_TRY(dalic_pyeval_iterate(I, at, args->pos[0], false, &items, &n, &opaque));
	if (opaque)
		PYEVAL_RET(args->pos[0]);
	pybuf_t b = {0};
	for (int i = 0; i < n; i++) {
		if (items[i]->kind != PV_STR) {
			dalic_pybuf_free(&b);
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: sequence item %d: expected str instance, %s found", i,
			    dalic_pyval_type_name(items[i]));
		}
		if (i)
			dalic_pybuf_put(&b, self->str.s, self->str.len);
		dalic_pybuf_put(&b, items[i]->str.s, items[i]->str.len);
	}
	*out = b.oom ? NULL : dalic_pyval_str(I->a, b.s ? b.s : "", b.n);
	dalic_pybuf_free(&b);
	return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
}

static int pybi_meth_split(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, "split", args, 0, 2));
	pyval_t *sep = args->npos ? args->pos[0] : NULL;
	int64_t maxsplit = -1;
	if (args->npos == 2 && args->pos[1]->kind == PV_INT)
		maxsplit = args->pos[1]->i;
	pyval_t *l = dalic_pyval_list(I->a, 4);
	if (!l)
		return dalic_pyeval_oom(I, at);
	const char *s = self->str.s, *end = s + self->str.len;
	if (!sep || sep->kind == PV_NONE) {
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
			pyval_t *part = dalic_pyval_str(I->a, s, (size_t)(e - s));
			if (!part || dalic_pyval_list_append(I->a, l, part))
				return dalic_pyeval_oom(I, at);
			s = e;
		}
		PYEVAL_RET(l);
	}
	DALIC_TRY(pybi_want_str(I, at, "split", sep));
	if (!sep->str.len)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "ValueError: empty separator");
	for (;;) {
		const char *e = (maxsplit < 0 || l->list->n < maxsplit)
		                    ? memmem(s, (size_t)(end - s), sep->str.s, sep->str.len)
		                    : NULL;
		pyval_t *part = dalic_pyval_str(I->a, s, (size_t)((e ? e : end) - s));
		if (!part || dalic_pyval_list_append(I->a, l, part))
			return dalic_pyeval_oom(I, at);
		if (!e)
			break;
		s = e + sep->str.len;
	}
	PYEVAL_RET(l);
}

static int pybi_strip(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                      bool left, bool right, pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, "strip", args, 0, 1));
	const char *chars = " \t\n\r\v\f";
	if (args->npos && args->pos[0]->kind != PV_NONE) {
		DALIC_TRY(pybi_want_str(I, at, "strip", args->pos[0]));
		chars = args->pos[0]->str.s;
	}
	const char *s = self->str.s, *e = s + self->str.len;
	while (left && s < e && strchr(chars, *s))
		s++;
	while (right && e > s && strchr(chars, e[-1]))
		e--;
	PYEVAL_RET(dalic_pyval_str(I->a, s, (size_t)(e - s)));
}

static int pybi_meth_strip(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	return pybi_strip(I, at, self, args, true, true, out);
}

static int pybi_meth_lstrip(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	return pybi_strip(I, at, self, args, true, false, out);
}

static int pybi_meth_rstrip(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	return pybi_strip(I, at, self, args, false, true, out);
}

static int pybi_change_case(pyinterp_t *I, const pynode_t *at, pyval_t *self, bool upper,
                            pyval_t **out)
{
	pyval_t *r = dalic_pyval_str(I->a, self->str.s, self->str.len);
	if (!r)
		return dalic_pyeval_oom(I, at);
	for (char *p = (char *)r->str.s; *p; p++)
		*p = (char)(upper ? toupper((unsigned char)*p) : tolower((unsigned char)*p));
	PYEVAL_RET(r);
}

static int pybi_meth_upper(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, "upper", args, 0, 0));
	return pybi_change_case(I, at, self, true, out);
}

static int pybi_meth_lower(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, "lower", args, 0, 0));
	return pybi_change_case(I, at, self, false, out);
}

static int pybi_affix(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                      bool prefix, pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, prefix ? "startswith" : "endswith", args, 1, 1));
	pyval_t *p = args->pos[0];
	pyval_t **cands = &p;
	int n = 1;
	if (p->kind == PV_TUPLE) {
		cands = p->tuple.items;
		n = p->tuple.n;
	}
	for (int i = 0; i < n; i++) {
		DALIC_TRY(pybi_want_str(I, at, prefix ? "startswith" : "endswith", cands[i]));
		size_t k = cands[i]->str.len;
		if (k <= self->str.len &&
		    !memcmp(prefix ? self->str.s : self->str.s + self->str.len - k, cands[i]->str.s,
		            k))
			PYEVAL_RET(dalic_pyval_true());
	}
	PYEVAL_RET(dalic_pyval_false());
}

static int pybi_meth_startswith(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                const pyargs_t *args, pyval_t **out)
{
	return pybi_affix(I, at, self, args, true, out);
}

static int pybi_meth_endswith(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                              const pyargs_t *args, pyval_t **out)
{
	return pybi_affix(I, at, self, args, false, out);
}

static int pybi_meth_replace(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                             pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, "replace", args, 2, 3));
	pyval_t *old = args->pos[0], *new = args->pos[1];
	DALIC_TRY(pybi_want_str(I, at, "replace", old));
	DALIC_TRY(pybi_want_str(I, at, "replace", new));
	int64_t count = args->npos == 3 && args->pos[2]->kind == PV_INT ? args->pos[2]->i : -1;
	if (!old->str.len)
		PYEVAL_RET(self);
	pybuf_t b = {0};
	const char *s = self->str.s, *end = s + self->str.len;
	while (s < end) {
		const char *e =
		    count ? memmem(s, (size_t)(end - s), old->str.s, old->str.len) : NULL;
		if (!e)
			break;
		dalic_pybuf_put(&b, s, (size_t)(e - s));
		dalic_pybuf_put(&b, new->str.s, new->str.len);
		s = e + old->str.len;
		if (count > 0)
			count--;
	}
	dalic_pybuf_put(&b, s, (size_t)(end - s));
	*out = b.oom ? NULL : dalic_pyval_str(I->a, b.s ? b.s : "", b.n);
	dalic_pybuf_free(&b);
	return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
}

static int pybi_meth_find(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, "find", args, 1, 1));
	DALIC_TRY(pybi_want_str(I, at, "find", args->pos[0]));
	const char *e =
	    memmem(self->str.s, self->str.len, args->pos[0]->str.s, args->pos[0]->str.len);
	PYEVAL_RET(dalic_pyval_int(I->a, e ? e - self->str.s : -1));
}

/* ---- list / tuple --------------------------------------------------------------------- */

static int pybi_meth_append(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, "append", args, 1, 1));
	if (dalic_pyval_list_append(I->a, self, args->pos[0]))
		return dalic_pyeval_oom(I, at);
	PYEVAL_RET(dalic_pyval_none());
}

static int pybi_meth_extend(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, "extend", args, 1, 1));
	pyval_t **items;
	int n;
	bool opaque;
	DALIC_TRY(dalic_pyeval_iterate(I, at, args->pos[0], false, &items, &n, &opaque));
	if (opaque)
		return dalic_pyeval_opaque_error(I, at, args->pos[0], "cannot extend a list with");
	for (int i = 0; i < n; i++)
		if (dalic_pyval_list_append(I->a, self, items[i]))
			return dalic_pyeval_oom(I, at);
	PYEVAL_RET(dalic_pyval_none());
}

static int pybi_meth_insert(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, "insert", args, 2, 2));
	if (args->pos[0]->kind != PV_INT)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: list indices must be integers");
	int64_t i = args->pos[0]->i, n = self->list->n;
	if (i < 0)
		i = i + n < 0 ? 0 : i + n;
	if (i > n)
		i = n;
	if (dalic_pyval_list_append(I->a, self, args->pos[1]))
		return dalic_pyeval_oom(I, at);
	memmove(&self->list->items[i + 1], &self->list->items[i],
	        sizeof(pyval_t *) * (size_t)(n - i));
	self->list->items[i] = args->pos[1];
	PYEVAL_RET(dalic_pyval_none());
}

static int pybi_meth_pop(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                         pyval_t **out)
{
	if (self->kind == PV_DICT) {
		DALIC_TRY(pybi_want(I, at, "pop", args, 1, 2));
		pyval_t *v = dalic_pydict_get(self->dict, args->pos[0]);
		if (!v) {
			if (args->npos == 2)
				PYEVAL_RET(args->pos[1]);
			return dalic_pyeval_error(I, at, DALIC_EINVAL, "KeyError");
		}
		dalic_pydict_del(self->dict, args->pos[0]);
		PYEVAL_RET(v);
	}
	DALIC_TRY(pybi_want(I, at, "pop", args, 0, 1));
	int64_t n = self->list->n, i = n - 1;
	if (args->npos && args->pos[0]->kind == PV_INT)
		i = args->pos[0]->i < 0 ? args->pos[0]->i + n : args->pos[0]->i;
	if (i < 0 || i >= n)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "IndexError: pop from empty list or index out of range");
	pyval_t *v = self->list->items[i];
	memmove(&self->list->items[i], &self->list->items[i + 1],
	        sizeof(pyval_t *) * (size_t)(n - i - 1));
	self->list->n--;
	PYEVAL_RET(v);
}

static int pybi_seq_items(pyval_t *self, pyval_t ***items)
{
	*items = self->kind == PV_LIST ? self->list->items : self->tuple.items;
	return self->kind == PV_LIST ? self->list->n : self->tuple.n;
}

static int pybi_meth_index(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, "index", args, 1, 1));
	pyval_t **items;
	int n = pybi_seq_items(self, &items);
	for (int i = 0; i < n; i++)
		if (dalic_pyval_equal(items[i], args->pos[0]))
			PYEVAL_RET(dalic_pyval_int(I->a, i));
	return dalic_pyeval_error(I, at, DALIC_EINVAL, "ValueError: value is not in %s",
	                          dalic_pyval_type_name(self));
}

static int pybi_meth_count(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, "count", args, 1, 1));
	pyval_t **items;
	int n = pybi_seq_items(self, &items), c = 0;
	for (int i = 0; i < n; i++)
		c += dalic_pyval_equal(items[i], args->pos[0]);
	PYEVAL_RET(dalic_pyval_int(I->a, c));
}

static int pybi_meth_copy(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, "copy", args, 0, 0));
	if (self->kind == PV_DICT) {
		pyval_t *d = dalic_pyval_dict(I->a), *k, *v;
		if (!d)
			return dalic_pyeval_oom(I, at);
		for (int it = 0; dalic_pydict_next(self->dict, &it, &k, &v);)
			if (dalic_pydict_set(I->a, d->dict, k, v))
				return dalic_pyeval_oom(I, at);
		PYEVAL_RET(d);
	}
	pyval_t *l = dalic_pyval_list(I->a, self->list->n);
	if (!l)
		return dalic_pyeval_oom(I, at);
	for (int i = 0; i < self->list->n; i++)
		if (dalic_pyval_list_append(I->a, l, self->list->items[i]))
			return dalic_pyeval_oom(I, at);
	PYEVAL_RET(l);
}

static int pybi_meth_reverse(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                             pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, "reverse", args, 0, 0));
	for (int i = 0, j = self->list->n - 1; i < j; i++, j--) {
		pyval_t *t = self->list->items[i];
		self->list->items[i] = self->list->items[j];
		self->list->items[j] = t;
	}
	PYEVAL_RET(dalic_pyval_none());
}

static int pybi_meth_clear(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, "clear", args, 0, 0));
	if (self->kind == PV_LIST) {
		self->list->n = 0;
	} else {
		pyval_t *k;
		for (int it = 0; dalic_pydict_next(self->dict, &it, &k, NULL);)
			dalic_pydict_del(self->dict, k);
	}
	PYEVAL_RET(dalic_pyval_none());
}

/* ---- dict ----------------------------------------------------------------------------- */

static int pybi_meth_get(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                         pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, "get", args, 1, 2));
	pyval_t *v = dalic_pydict_get(self->dict, args->pos[0]);
	PYEVAL_RET(v ? v : args->npos == 2 ? args->pos[1] : dalic_pyval_none());
}

static int pybi_meth_setdefault(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                const pyargs_t *args, pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, "setdefault", args, 1, 2));
	pyval_t *v = dalic_pydict_get(self->dict, args->pos[0]);
	if (v)
		PYEVAL_RET(v);
	v = args->npos == 2 ? args->pos[1] : dalic_pyval_none();
	DALIC_TRY(dalic_pyeval_setitem(I, at, self, args->pos[0], v));
	PYEVAL_RET(v);
}

static int pybi_dict_view(pyinterp_t *I, const pynode_t *at, pyval_t *self, int which,
                          pyval_t **out)
{
	pyval_t *l = dalic_pyval_list(I->a, dalic_pydict_len(self->dict)), *k, *v;
	if (!l)
		return dalic_pyeval_oom(I, at);
	for (int it = 0; dalic_pydict_next(self->dict, &it, &k, &v);) {
		pyval_t *item = which == 0 ? k : which == 1 ? v : dalic_pyval_tuple(I->a, 2);
		if (!item)
			return dalic_pyeval_oom(I, at);
		if (which == 2) {
			item->tuple.items[0] = k;
			item->tuple.items[1] = v;
		}
		if (dalic_pyval_list_append(I->a, l, item))
			return dalic_pyeval_oom(I, at);
	}
	PYEVAL_RET(l);
}

static int pybi_meth_keys(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, "keys", args, 0, 0));
	return pybi_dict_view(I, at, self, 0, out);
}

static int pybi_meth_values(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, "values", args, 0, 0));
	return pybi_dict_view(I, at, self, 1, out);
}

static int pybi_meth_items(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, "items", args, 0, 0));
	return pybi_dict_view(I, at, self, 2, out);
}

static int pybi_meth_update(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	if (args->npos > 1)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: update expected at most 1 argument");
	pyval_t *k, *v;
	if (args->npos) {
		if (args->pos[0]->kind != PV_DICT)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "TypeError: update() needs a dict");
		for (int it = 0; dalic_pydict_next(args->pos[0]->dict, &it, &k, &v);)
			if (dalic_pydict_set(I->a, self->dict, k, v))
				return dalic_pyeval_oom(I, at);
	}
	for (int i = 0; i < args->nkw; i++)
		if (dalic_pydict_set_str(I->a, self->dict, args->kwnames[i], args->kwvals[i]))
			return dalic_pyeval_oom(I, at);
	PYEVAL_RET(dalic_pyval_none());
}

/* ---- the protocol methods of built-in containers ----------------------------------------- */

/* len(self) and the like through the built-ins, so every container answers as it does. */
static int pybi_dunder_builtin(pyinterp_t *I, const pynode_t *at, const char *m, const char *fn,
                               pyval_t *self, const pyargs_t *args, pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, m, args, 0, 0));
	pyval_t *f = dalic_pydict_get_str(I->builtins, fn);
	return f ? dalic_pyeval_call1(I, at, f, self, out) : dalic_pyeval_oom(I, at);
}

static int pybi_meth_dunder_len(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                const pyargs_t *args, pyval_t **out)
{
	return pybi_dunder_builtin(I, at, "__len__", "len", self, args, out);
}

static int pybi_meth_dunder_iter(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                 const pyargs_t *args, pyval_t **out)
{
	return pybi_dunder_builtin(I, at, "__iter__", "iter", self, args, out);
}

static int pybi_meth_dunder_contains(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                     const pyargs_t *args, pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, "__contains__", args, 1, 1));
	return dalic_pyeval_compare(I, at, CMP_IN, args->pos[0], self, out);
}

static int pybi_meth_dunder_getitem(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                    const pyargs_t *args, pyval_t **out)
{
	DALIC_TRY(pybi_want(I, at, "__getitem__", args, 1, 1));
	return dalic_pyeval_getitem(I, at, self, args->pos[0], out);
}

int dalic_pybi_dunder_attr(pyinterp_t *I, const pynode_t *at, pyval_t *self, const char *name,
                           pyval_t **out)
{
	static const struct {
		const char *name;
		pycfn_t fn;
	} dunders[] = {
	    {"__len__", pybi_meth_dunder_len},
	    {"__iter__", pybi_meth_dunder_iter},
	    {"__contains__", pybi_meth_dunder_contains},
	    {"__getitem__", pybi_meth_dunder_getitem},
	};
	*out = NULL;
	bool subscriptable = self->kind != PV_HOST || self->host.type->getitem;
	for (size_t i = 0; i < sizeof dunders / sizeof *dunders; i++)
		if (!strcmp(dunders[i].name, name) && (i < 3 || subscriptable)) {
			*out = dalic_pybi_make(I, name, dunders[i].fn, self, NULL);
			return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
		}
	return DALIC_OK;
}

/* ---- lookup --------------------------------------------------------------------------- */

typedef struct method {
	const char *name;
	pycfn_t fn;
} method_t;

static const method_t str_methods[] = {
    {"format", pybi_meth_format},
    {"join", pybi_meth_join},
    {"split", pybi_meth_split},
    {"strip", pybi_meth_strip},
    {"lstrip", pybi_meth_lstrip},
    {"rstrip", pybi_meth_rstrip},
    {"upper", pybi_meth_upper},
    {"lower", pybi_meth_lower},
    {"startswith", pybi_meth_startswith},
    {"endswith", pybi_meth_endswith},
    {"replace", pybi_meth_replace},
    {"find", pybi_meth_find},
    {0},
};
static const method_t list_methods[] = {
    {"append", pybi_meth_append}, {"extend", pybi_meth_extend},
    {"insert", pybi_meth_insert}, {"pop", pybi_meth_pop},
    {"index", pybi_meth_index},   {"count", pybi_meth_count},
    {"copy", pybi_meth_copy},     {"reverse", pybi_meth_reverse},
    {"clear", pybi_meth_clear},   {0},
};
static const method_t tuple_methods[] = {
    {"index", pybi_meth_index}, {"count", pybi_meth_count}, {0}};
static const method_t dict_methods[] = {
    {"get", pybi_meth_get},       {"keys", pybi_meth_keys},
    {"values", pybi_meth_values}, {"items", pybi_meth_items},
    {"update", pybi_meth_update}, {"pop", pybi_meth_pop},
    {"copy", pybi_meth_copy},     {"setdefault", pybi_meth_setdefault},
    {"clear", pybi_meth_clear},   {0},
};

int dalic_pybi_method(pyinterp_t *I, const pynode_t *at, pyval_t *self, const char *name,
                      pyval_t **out)
{
	const method_t *table = self->kind == PV_STR     ? str_methods
	                        : self->kind == PV_LIST  ? list_methods
	                        : self->kind == PV_TUPLE ? tuple_methods
	                        : self->kind == PV_DICT  ? dict_methods
	                                                 : NULL;
	*out = NULL;
	static const char *const mutating[] = {"append", "extend", "insert", "pop", "reverse",
	                                       "clear", "update", "setdefault", NULL};
	for (int i = 0; I->sealed && mutating[i] && (table == list_methods || table == dict_methods);
	     i++)
		if (!strcmp(mutating[i], name))
			DALIC_TRY(dalic_pycall_check_write(
			    I, at, self->kind == PV_LIST ? (void *)self->list : (void *)self->dict,
			    self->kind == PV_LIST ? "a list" : "a dict"));
	for (const method_t *m = table; m && m->name; m++)
		if (!strcmp(m->name, name)) {
			*out = dalic_pybi_make(I, m->name, m->fn, self, NULL);
			return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
		}
	return table ? dalic_pybi_dunder_attr(I, at, self, name, out) : DALIC_OK;
}
