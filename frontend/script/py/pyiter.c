/*
 * The iteration protocol (see pyiter.h): iterators over items as a host type, the lazy
 * sources (generators, iterator objects, __getitem__ sequences), iter() and next().
 */
#include "frontend/script/py/pyiter.h"

#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pyclass.h"
#include "frontend/script/py/pyexc.h"
#include "frontend/script/py/pyexec.h"
#include "frontend/script/py/pygen.h"

#include <string.h>

/* ---- iterators over items ------------------------------------------------------------- */

typedef struct pyiter_items {
	pyval_t **items;
	int n, i;
	const char *type_name;
} pyiter_items_t;

static const pytype_t pyiter_items_type;

static pyiter_items_t *pyiter_items(const pyval_t *v)
{
	return dalic_pyval_is(v, &pyiter_items_type) ? v->host.data : NULL;
}

pyval_t *dalic_pyiter_over(pyinterp_t *I, pyval_t **items, int n, const char *type_name)
{
	pyiter_items_t *it = dalic_pyarena_alloc(I->a, sizeof *it);
	if (!it)
		return NULL;
	it->items = items;
	it->n = n;
	it->type_name = type_name;
	return dalic_pyval_host(I->a, &pyiter_items_type, it);
}

static const char *pyiter_items_type_name(const pyval_t *v)
{
	return pyiter_items(v)->type_name;
}

static void pyiter_items_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	dalic_pybuf_printf(b, "<%s object>", pyiter_items(v)->type_name);
}

static int pyiter_meth_next(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "__next__", args, 0, 0));
	return dalic_pyiter_next_of(I, at, self->builtin.data, out);
}

static int pyiter_meth_iter(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	*out = self->builtin.data;
	return DALIC_OK;
}

static int pyiter_items_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
                                pyval_t **out)
{
	*out = NULL;
	if (!strcmp(name, "__next__"))
		PYEVAL_RET(dalic_pybi_make_self(I, name, pyiter_meth_next, v));
	if (!strcmp(name, "__iter__"))
		PYEVAL_RET(dalic_pybi_make_self(I, name, pyiter_meth_iter, v));
	return DALIC_OK;
}

static const pytype_t pyiter_items_type = {
    .name = "iterator",
    .type_name = pyiter_items_type_name,
    .format = pyiter_items_format,
    .getattr = pyiter_items_getattr,
};

/* ---- the protocol --------------------------------------------------------------------- */

static bool pyiter_has(const pyval_t *v, const char *name)
{
	return v->kind == PV_INSTANCE && dalic_pyexec_class_lookup(v->inst->cls, name, NULL);
}

bool dalic_pyiter_is_lazy(pyinterp_t *I, const pyval_t *v)
{
	return dalic_pyval_is(v, &dalic_pygen_type) || pyiter_items(v) ||
	       pyiter_has(v, "__next__") || pyiter_has(v, "__iter__") ||
	       pyiter_has(v, "__getitem__");
}

int dalic_pyiter_open(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyiter_t *it, bool *opaque)
{
	memset(it, 0, sizeof *it);
	*opaque = false;
	DALIC_TRY(dalic_pyeval_step(I, at)); /* __iter__ returning new iterables goes round here */
	if (dalic_pyval_is(v, &dalic_pygen_type) || pyiter_items(v)) {
		it->lazy = v;
		return DALIC_OK;
	}
	if (v->kind == PV_INSTANCE) {
		bool found;
		pyval_t *r;
		DALIC_TRY(dalic_pyclass_dunder(I, at, v, "__iter__", NULL, 0, &r, &found));
		if (found && r != v)
			return dalic_pyiter_open(I, at, r, it, opaque);
		if (found || pyiter_has(v, "__next__")) {
			it->lazy = v;
			return DALIC_OK;
		}
		if (pyiter_has(v, "__getitem__")) {
			it->lazy = v;
			it->by_index = true;
			return DALIC_OK;
		}
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "TypeError: '%s' object is not iterable",
		                          dalic_pyval_type_name(v));
	}
	return dalic_pyeval_iterate(I, at, v, false, &it->items, &it->n, opaque);
}

/* The next value of a lazy iterator; the end is StopIteration (or IndexError for the
 * sequence protocol) raised by its method, or the generator's return. */
static int pyiter_next_lazy(pyinterp_t *I, const pynode_t *at, pyiter_t *it, pyval_t **out,
                            bool *done)
{
	pyval_t *v = it->lazy;
	*done = false;
	*out = NULL; /* a method's StopIteration leaves no value (next() reads *out after it) */
	pyiter_items_t *items = pyiter_items(v);
	if (items) {
		*done = items->i >= items->n;
		*out = *done ? NULL : items->items[items->i++];
		return DALIC_OK;
	}
	if (dalic_pyval_is(v, &dalic_pygen_type))
		return dalic_pygen_resume(I, at, v, dalic_pyval_none(), out, done);
	bool found;
	int rc;
	if (it->by_index) {
		pyval_t *ix = dalic_pyval_int(I->a, it->index++);
		if (!ix)
			return dalic_pyeval_oom(I, at);
		rc = dalic_pyclass_dunder(I, at, v, "__getitem__", &ix, 1, out, &found);
	} else {
		rc = dalic_pyclass_dunder(I, at, v, "__next__", NULL, 0, out, &found);
		if (!rc && !found)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "TypeError: '%s' object is not an iterator",
			                          dalic_pyval_type_name(v));
	}
	if (rc < 0 && (dalic_pyexc_pending_is(I, "StopIteration") ||
	               (it->by_index && dalic_pyexc_pending_is(I, "IndexError")))) {
		dalic_pyexc_clear(I);
		*done = true;
		return DALIC_OK;
	}
	return rc;
}

int dalic_pyiter_next(pyinterp_t *I, const pynode_t *at, pyiter_t *it, pyval_t **out, bool *done)
{
	if (it->lazy)
		return pyiter_next_lazy(I, at, it, out, done);
	*done = it->i >= it->n;
	*out = *done ? NULL : it->items[it->i++];
	return DALIC_OK;
}

int dalic_pyiter_drain(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t ***items, int *n)
{
	pyiter_t it;
	bool opaque, done;
	DALIC_TRY(dalic_pyiter_open(I, at, v, &it, &opaque));
	if (opaque)
		return dalic_pyeval_opaque_error(I, at, v, "cannot iterate");
	if (!it.lazy) {
		*items = it.items + it.i;
		*n = it.n - it.i;
		return DALIC_OK;
	}
	pyval_t *acc = dalic_pyval_list(I->a, 8), *x;
	if (!acc)
		return dalic_pyeval_oom(I, at);
	for (;;) {
		DALIC_TRY(dalic_pyeval_step(I, at));
		DALIC_TRY(pyiter_next_lazy(I, at, &it, &x, &done));
		if (done)
			break;
		if (acc->list->n >= PY_MAX_LOOP_ITERATIONS)
			return dalic_pyeval_limit(I, at,
			                          "taking more than %d values from an iterator at once "
			                          "(it may never end: iterate it in a loop with break)",
			                          PY_MAX_LOOP_ITERATIONS);
		if (dalic_pyval_list_append(I->a, acc, x))
			return dalic_pyeval_oom(I, at);
	}
	*items = acc->list->items;
	*n = acc->list->n;
	return DALIC_OK;
}

int dalic_pyiter_next_of(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t **out)
{
	if (!dalic_pyval_is(v, &dalic_pygen_type) && !pyiter_items(v) && !pyiter_has(v, "__next__"))
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "TypeError: '%s' object is not an iterator",
		                          dalic_pyval_type_name(v));
	pyiter_t it = {.lazy = v};
	bool done;
	DALIC_TRY(pyiter_next_lazy(I, at, &it, out, &done));
	if (!done)
		return DALIC_OK;
	if (*out && (*out)->kind != PV_NONE) { /* a generator's return value */
		pyval_t *r;
		DALIC_TRY(dalic_pyeval_str(I, at, *out, true, &r));
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "StopIteration: %s", r->str.s);
	}
	return dalic_pyeval_error(I, at, DALIC_EINVAL, "StopIteration");
}

/* ---- iter(), next() ------------------------------------------------------------------- */

static int pyiter_iter(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                       pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "iter", args, 1, 1));
	pyval_t *v = args->pos[0];
	if (v->kind == PV_OPAQUE)
		return dalic_pybi_opaque_result(I, at, "iter", out);
	pyiter_t it;
	bool opaque;
	DALIC_TRY(dalic_pyiter_open(I, at, v, &it, &opaque));
	if (it.lazy && !it.by_index) {
		*out = it.lazy;
		return DALIC_OK;
	}
	if (it.lazy) { /* a __getitem__ sequence: its items, taken now */
		pyval_t **items;
		int n;
		DALIC_TRY(dalic_pyiter_drain(I, at, v, &items, &n));
		PYEVAL_RET(dalic_pyiter_over(I, items, n, "iterator"));
	}
	const char *name = v->kind == PV_LIST    ? "list_iterator"
	                   : v->kind == PV_TUPLE ? "tuple_iterator"
	                   : v->kind == PV_DICT  ? "dict_keyiterator"
	                   : v->kind == PV_STR   ? "str_iterator"
	                                         : "iterator";
	PYEVAL_RET(dalic_pyiter_over(I, it.items, it.n, name));
}

static int pyiter_next_fn(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "next", args, 1, 2));
	pyval_t *v = args->pos[0];
	if (v->kind == PV_OPAQUE)
		return dalic_pybi_opaque_result(I, at, "next", out);
	int rc = dalic_pyiter_next_of(I, at, v, out);
	if (rc < 0 && args->npos == 2 && dalic_pyexc_pending_is(I, "StopIteration")) {
		dalic_pyexc_clear(I);
		*out = args->pos[1];
		return DALIC_OK;
	}
	return rc;
}

int dalic_pyiter_open_builtins(pyinterp_t *I)
{
	static const pyreg_t fns[] = {{"iter", pyiter_iter}, {"next", pyiter_next_fn}, {NULL, NULL}};
	return dalic_pybi_register(I, I->builtins, fns, false);
}
