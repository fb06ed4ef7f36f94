/*
 * Python's set (see pyset.h): a host value whose data is a pydict_t of the elements (values
 * None), so hashing and equality are the dict's.
 */
#include "frontend/script/py/pyset.h"

#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pybuf.h"
#include "frontend/script/py/pycall.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyiter.h"

#include <string.h>

static pydict_t *pyset_d(const pyval_t *v)
{
	return v->host.data;
}

static bool pyset_is(const pyval_t *v)
{
	return dalic_pyval_is(v, &dalic_pyset_type);
}

pyval_t *dalic_pyset_new(pyinterp_t *I)
{
	pydict_t *d = dalic_pydict_new(I->a);
	return d ? dalic_pyval_host(I->a, &dalic_pyset_type, d) : NULL;
}

static int pyset_hashable(pyinterp_t *I, const pynode_t *at, const pyval_t *v)
{
	if (!dalic_pyval_hashable(v))
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "TypeError: unhashable type: '%s'",
		                          dalic_pyval_type_name(v));
	return DALIC_OK;
}

/* A sealed call (pycall.h) may change only the sets it made. */
static int pyset_writable(pyinterp_t *I, const pynode_t *at, const pyval_t *set)
{
	return I->sealed ? dalic_pycall_check_write(I, at, pyset_d(set), "a set") : DALIC_OK;
}

int dalic_pyset_add(pyinterp_t *I, const pynode_t *at, pyval_t *set, pyval_t *v)
{
	DALIC_TRY(pyset_hashable(I, at, v));
	if (dalic_pydict_set(I->a, pyset_d(set), v, dalic_pyval_none()))
		return dalic_pyeval_oom(I, at);
	return DALIC_OK;
}

int dalic_pyset_has(pyinterp_t *I, const pynode_t *at, pyval_t *set, pyval_t *v, bool *out)
{
	DALIC_TRY(pyset_hashable(I, at, v));
	*out = dalic_pydict_get(pyset_d(set), v) != NULL;
	return DALIC_OK;
}

/* Adds every item of an iterable. */
static int pyset_add_all(pyinterp_t *I, const pynode_t *at, pyval_t *set, pyval_t *it)
{
	pyval_t **items;
	int n;
	if (pyset_is(it)) {
		pyval_t *k, *v;
		for (int i = 0; dalic_pydict_next(pyset_d(it), &i, &k, &v);)
			DALIC_TRY(dalic_pyset_add(I, at, set, k));
		return DALIC_OK;
	}
	DALIC_TRY(dalic_pyiter_drain(I, at, it, &items, &n));
	for (int i = 0; i < n; i++)
		DALIC_TRY(dalic_pyset_add(I, at, set, items[i]));
	return DALIC_OK;
}

static int pyset_copy_of(pyinterp_t *I, const pynode_t *at, pyval_t *src, pyval_t **out)
{
	if (!(*out = dalic_pyset_new(I)))
		return dalic_pyeval_oom(I, at);
	return pyset_add_all(I, at, *out, src);
}

/* The elements of x kept (or dropped) by membership in y: & and - . */
static int pyset_filter(pyinterp_t *I, const pynode_t *at, pyval_t *x, pyval_t *y, bool keep,
                        pyval_t **out)
{
	if (!(*out = dalic_pyset_new(I)))
		return dalic_pyeval_oom(I, at);
	pyval_t *k, *v;
	for (int i = 0; dalic_pydict_next(pyset_d(x), &i, &k, &v);)
		if ((dalic_pydict_get(pyset_d(y), k) != NULL) == keep)
			DALIC_TRY(dalic_pyset_add(I, at, *out, k));
	return DALIC_OK;
}

static bool pyset_subset(const pyval_t *x, const pyval_t *y)
{
	pyval_t *k, *v;
	for (int i = 0; dalic_pydict_next(pyset_d(x), &i, &k, &v);)
		if (!dalic_pydict_get(pyset_d(y), k))
			return false;
	return true;
}

/* x op y for two sets. */
static int pyset_combine(pyinterp_t *I, const pynode_t *at, pyop_t op, pyval_t *x, pyval_t *y,
                         pyval_t **out)
{
	switch (op) {
	case OP_PIPE:
	case OP_PIPEEQ:
		DALIC_TRY(pyset_copy_of(I, at, x, out));
		return pyset_add_all(I, at, *out, y);
	case OP_AMP:
	case OP_AMPEQ:
		return pyset_filter(I, at, x, y, true, out);
	case OP_MINUS:
	case OP_MINUSEQ:
		return pyset_filter(I, at, x, y, false, out);
	case OP_CARET:
	case OP_CARETEQ: {
		pyval_t *b;
		DALIC_TRY(pyset_filter(I, at, x, y, false, out));
		DALIC_TRY(pyset_filter(I, at, y, x, false, &b));
		return pyset_add_all(I, at, *out, b);
	}
	default:
		return PY_NOT_HANDLED;
	}
}

static int pyset_binop(pyinterp_t *I, const pynode_t *at, pyop_t op, pyval_t *l, pyval_t *r,
                       pyval_t **out)
{
	if (!pyset_is(l) || !pyset_is(r))
		return PY_NOT_HANDLED;
	return pyset_combine(I, at, op, l, r, out);
}

static int pyset_compare(pyinterp_t *I, const pynode_t *at, pycmp_t op, pyval_t *l, pyval_t *r,
                         pyval_t **out)
{
	if (!pyset_is(l) || !pyset_is(r))
		return PY_NOT_HANDLED;
	int nl = dalic_pydict_len(pyset_d(l)), nr = dalic_pydict_len(pyset_d(r));
	bool res;
	switch (op) {
	case CMP_EQ:
	case CMP_NE:
		res = (nl == nr && pyset_subset(l, r)) == (op == CMP_EQ);
		break;
	case CMP_LE:
		res = pyset_subset(l, r);
		break;
	case CMP_LT:
		res = nl < nr && pyset_subset(l, r);
		break;
	case CMP_GE:
		res = pyset_subset(r, l);
		break;
	case CMP_GT:
		res = nr < nl && pyset_subset(r, l);
		break;
	default:
		return PY_NOT_HANDLED;
	}
	PYEVAL_RET(dalic_pyval_bool(res));
}

static bool pyset_equal(const pyval_t *x, const pyval_t *y)
{
	return dalic_pydict_len(pyset_d(x)) == dalic_pydict_len(pyset_d(y)) && pyset_subset(x, y);
}

static int pyset_items(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t ***items, int *n)
{
	*n = dalic_pydict_len(pyset_d(v));
	if (!(*items = dalic_pyarena_alloc(I->a, sizeof **items * (size_t)(*n + 1))))
		return dalic_pyeval_oom(I, at);
	pyval_t *k, *val;
	int j = 0;
	for (int i = 0; dalic_pydict_next(pyset_d(v), &i, &k, &val);)
		(*items)[j++] = k;
	return DALIC_OK;
}

static int pyset_len(pyinterp_t *I, const pynode_t *at, pyval_t *v, int64_t *out)
{
	(void)I;
	(void)at;
	*out = dalic_pydict_len(pyset_d(v));
	return DALIC_OK;
}

static int pyset_truth(pyinterp_t *I, const pynode_t *at, pyval_t *v, bool *out)
{
	(void)I;
	(void)at;
	*out = dalic_pydict_len(pyset_d(v)) > 0;
	return DALIC_OK;
}

static void pyset_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	(void)repr;
	if (!dalic_pydict_len(pyset_d(v))) {
		dalic_pybuf_puts(b, "set()");
		return;
	}
	dalic_pybuf_puts(b, "{");
	pyval_t *k, *val;
	bool first = true;
	for (int i = 0; dalic_pydict_next(pyset_d(v), &i, &k, &val); first = false) {
		if (!first)
			dalic_pybuf_puts(b, ", ");
		dalic_pyval_format(b, k, true);
	}
	dalic_pybuf_puts(b, "}");
}

/* ---- methods --------------------------------------------------------------------------- */

static int pyset_nargs(pyinterp_t *I, const pynode_t *at, const char *m, const pyargs_t *args,
                       int lo, int hi)
{
	return dalic_pybi_nargs(I, at, m, args, lo, hi);
}

static int pyset_m_add(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                       pyval_t **out)
{
	DALIC_TRY(pyset_nargs(I, at, "add", args, 1, 1));
	DALIC_TRY(pyset_writable(I, at, self));
	*out = dalic_pyval_none();
	return dalic_pyset_add(I, at, self, args->pos[0]);
}

static int pyset_m_remove_or_discard(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                     const pyargs_t *args, bool strict, pyval_t **out)
{
	DALIC_TRY(pyset_nargs(I, at, strict ? "remove" : "discard", args, 1, 1));
	DALIC_TRY(pyset_writable(I, at, self));
	DALIC_TRY(pyset_hashable(I, at, args->pos[0]));
	if (!dalic_pydict_del(pyset_d(self), args->pos[0]) && strict) {
		pybuf_t b = {0};
		dalic_pyval_format(&b, args->pos[0], true);
		int rc = dalic_pyeval_error(I, at, DALIC_EINVAL, "KeyError: %s", b.s ? b.s : "");
		dalic_pybuf_free(&b);
		return rc;
	}
	*out = dalic_pyval_none();
	return DALIC_OK;
}

static int pyset_m_remove(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	return pyset_m_remove_or_discard(I, at, self, args, true, out);
}

static int pyset_m_discard(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	return pyset_m_remove_or_discard(I, at, self, args, false, out);
}

static int pyset_m_pop(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                       pyval_t **out)
{
	DALIC_TRY(pyset_nargs(I, at, "pop", args, 0, 0));
	DALIC_TRY(pyset_writable(I, at, self));
	pyval_t *k, *v;
	int i = 0;
	if (!dalic_pydict_next(pyset_d(self), &i, &k, &v))
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "KeyError: 'pop from an empty set'");
	dalic_pydict_del(pyset_d(self), k);
	*out = k;
	return DALIC_OK;
}

static int pyset_m_clear(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                         pyval_t **out)
{
	DALIC_TRY(pyset_nargs(I, at, "clear", args, 0, 0));
	DALIC_TRY(pyset_writable(I, at, self));
	pydict_t *d = dalic_pydict_new(I->a);
	if (!d)
		return dalic_pyeval_oom(I, at);
	self->host.data = d;
	*out = dalic_pyval_none();
	return DALIC_OK;
}

static int pyset_m_copy(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                        pyval_t **out)
{
	DALIC_TRY(pyset_nargs(I, at, "copy", args, 0, 0));
	return pyset_copy_of(I, at, self, out);
}

static int pyset_m_update(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	DALIC_TRY(pyset_nargs(I, at, "update", args, 0, 64));
	DALIC_TRY(pyset_writable(I, at, self));
	for (int i = 0; i < args->npos; i++)
		DALIC_TRY(pyset_add_all(I, at, self, args->pos[i]));
	*out = dalic_pyval_none();
	return DALIC_OK;
}

/* union / intersection / difference / symmetric_difference take any iterables. */
static int pyset_m_combine(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           const char *name, pyop_t op, pyval_t **out)
{
	DALIC_TRY(pyset_nargs(I, at, name, args, op == OP_CARET ? 1 : 0, op == OP_CARET ? 1 : 64));
	DALIC_TRY(pyset_copy_of(I, at, self, out));
	for (int i = 0; i < args->npos; i++) {
		pyval_t *other, *res;
		DALIC_TRY(pyset_copy_of(I, at, args->pos[i], &other));
		DALIC_TRY(pyset_combine(I, at, op, *out, other, &res));
		*out = res;
	}
	return DALIC_OK;
}

static int pyset_m_union(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                         pyval_t **out)
{
	return pyset_m_combine(I, at, self, args, "union", OP_PIPE, out);
}

static int pyset_m_intersection(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                const pyargs_t *args, pyval_t **out)
{
	return pyset_m_combine(I, at, self, args, "intersection", OP_AMP, out);
}

static int pyset_m_difference(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                              const pyargs_t *args, pyval_t **out)
{
	return pyset_m_combine(I, at, self, args, "difference", OP_MINUS, out);
}

static int pyset_m_symmetric_difference(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                        const pyargs_t *args, pyval_t **out)
{
	return pyset_m_combine(I, at, self, args, "symmetric_difference", OP_CARET, out);
}

/* issubset / issuperset / isdisjoint against any iterable. */
static int pyset_m_relation(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            const char *name, pyval_t **out)
{
	DALIC_TRY(pyset_nargs(I, at, name, args, 1, 1));
	pyval_t *other, *both;
	DALIC_TRY(pyset_copy_of(I, at, args->pos[0], &other));
	bool res;
	if (!strcmp(name, "issubset")) {
		res = pyset_subset(self, other);
	} else if (!strcmp(name, "issuperset")) {
		res = pyset_subset(other, self);
	} else {
		DALIC_TRY(pyset_filter(I, at, self, other, true, &both));
		res = dalic_pydict_len(pyset_d(both)) == 0;
	}
	PYEVAL_RET(dalic_pyval_bool(res));
}

static int pyset_m_issubset(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	return pyset_m_relation(I, at, self, args, "issubset", out);
}

static int pyset_m_issuperset(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                              const pyargs_t *args, pyval_t **out)
{
	return pyset_m_relation(I, at, self, args, "issuperset", out);
}

static int pyset_m_isdisjoint(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                              const pyargs_t *args, pyval_t **out)
{
	return pyset_m_relation(I, at, self, args, "isdisjoint", out);
}

static const pyreg_t pyset_methods[] = {
    {"add", pyset_m_add},
    {"remove", pyset_m_remove},
    {"discard", pyset_m_discard},
    {"pop", pyset_m_pop},
    {"clear", pyset_m_clear},
    {"copy", pyset_m_copy},
    {"update", pyset_m_update},
    {"union", pyset_m_union},
    {"intersection", pyset_m_intersection},
    {"difference", pyset_m_difference},
    {"symmetric_difference", pyset_m_symmetric_difference},
    {"issubset", pyset_m_issubset},
    {"issuperset", pyset_m_issuperset},
    {"isdisjoint", pyset_m_isdisjoint},
    {NULL, NULL},
};

static int pyset_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
                         pyval_t **out)
{
	*out = NULL;
	for (const pyreg_t *m = pyset_methods; m->name; m++)
		if (!strcmp(m->name, name))
			PYEVAL_RET(dalic_pybi_make(I, m->name, m->fn, v, NULL));
	return dalic_pybi_dunder_attr(I, at, v, name, out);
}

const pytype_t dalic_pyset_type = {
    .name = "set",
    .format = pyset_format,
    .equal = pyset_equal,
    .unhashable = true,
    .getattr = pyset_getattr,
    .binop = pyset_binop,
    .compare = pyset_compare,
    .truth = pyset_truth,
    .items = pyset_items,
    .len = pyset_len,
};

/* ---- the built-in ------------------------------------------------------------------------ */

static int pyset_builtin(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                         pyval_t **out)
{
	(void)self;
	DALIC_TRY(dalic_pybi_nargs(I, at, "set", args, 0, 1));
	if (!(*out = dalic_pyset_new(I)))
		return dalic_pyeval_oom(I, at);
	return args->npos ? pyset_add_all(I, at, *out, args->pos[0]) : DALIC_OK;
}

int dalic_pyset_open(pyinterp_t *I)
{
	pyval_t *b = dalic_pybi_make(I, "set", pyset_builtin, NULL, NULL);
	if (!b)
		return DALIC_ENOMEM;
	b->builtin.type_of = &dalic_pyset_type; /* isinstance(x, set) */
	return dalic_pydict_set_str(I->a, I->builtins, "set", b);
}
