/*
 * Python built-in functions that pipeline scripts use: print, len, range, enumerate, zip,
 * min / max / sum / abs / round, sorted / reversed / any / all / map / filter, and the
 * helpers C libraries share (pybi.h). Types, introspection and exceptions are in
 * pybi_types.c, methods of built-in types in pybi_methods.c. print() fails on arguments
 * dalic does not model (display of run results: skipped at module level, with a warning)
 * and lets the host take the others first (DALI's debug pipelines record them).
 */
#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pyset.h"

#include "frontend/script/py/pyclass.h"
#include "frontend/script/py/pydict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

pyval_t *dalic_pybi_make_self(pyinterp_t *I, const char *name, pycfn_t fn, void *data)
{
	pyval_t *v = dalic_pybi_make(I, name, fn, NULL, data);
	if (v)
		v->builtin.self = v;
	return v;
}

int dalic_pybi_register(pyinterp_t *I, pydict_t *d, const pyreg_t *regs, bool methods)
{
	for (const pyreg_t *r = regs; r->name; r++) {
		pyval_t *v = dalic_pybi_make(I, r->name, r->fn, NULL, NULL);
		if (!v)
			return DALIC_ENOMEM;
		v->builtin.method = methods;
		DALIC_TRY(dalic_pydict_set_str(I->a, d, r->name, v));
	}
	return DALIC_OK;
}

pyval_t *dalic_pybi_make(pyinterp_t *I, const char *name, pycfn_t fn, pyval_t *self, void *data)
{
	pyval_t *v = dalic_pyval_new(I->a, PV_BUILTIN);
	if (v) {
		v->builtin.name = name;
		v->builtin.fn = fn;
		v->builtin.self = self;
		v->builtin.data = data;
	}
	return v;
}

int dalic_pybi_no_kwargs(pyinterp_t *I, const pynode_t *at, const char *f, const pyargs_t *args)
{
	if (args->nkw)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: %s() takes no keyword arguments", f);
	return DALIC_OK;
}

int dalic_pybi_nargs(pyinterp_t *I, const pynode_t *at, const char *f, const pyargs_t *args, int lo,
                     int hi)
{
	DALIC_TRY(dalic_pybi_no_kwargs(I, at, f, args));
	if (args->npos < lo || args->npos > hi)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: %s() takes %s%d argument%s (%d given)", f,
		                          lo == hi          ? "exactly "
		                          : args->npos < lo ? "at least "
		                                            : "at most ",
		                          args->npos < lo ? lo : hi,
		                          (args->npos < lo ? lo : hi) == 1 ? "" : "s", args->npos);
	return DALIC_OK;
}

bool dalic_pybi_any_opaque(const pyargs_t *args)
{
	for (int i = 0; i < args->npos; i++)
		if (args->pos[i]->kind == PV_OPAQUE)
			return true;
	for (int i = 0; i < args->nkw; i++)
		if (args->kwvals[i]->kind == PV_OPAQUE)
			return true;
	return false;
}

int dalic_pybi_opaque_result(pyinterp_t *I, const pynode_t *at, const char *f, pyval_t **out)
{
	PYEVAL_RET(dalic_pyval_opaque(I->a, dalic_pyarena_printf(I->a, "%s(...)", f)));
}

/* ---- print ---------------------------------------------------------------------------- */

static int pybi_print(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                      pyval_t **out)
{
	*out = dalic_pyval_none();
	pyval_t *sep = dalic_pyeval_kwarg(args, "sep"), *end = dalic_pyeval_kwarg(args, "end"),
	        *file = dalic_pyeval_kwarg(args, "file");
	for (int i = 0; i < args->nkw; i++)
		if (strcmp(args->kwnames[i], "sep") && strcmp(args->kwnames[i], "end") &&
		    strcmp(args->kwnames[i], "file") && strcmp(args->kwnames[i], "flush"))
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: '%s' is an invalid keyword argument for print()",
			    args->kwnames[i]);
	/* results dalic does not compute (pipe.run() outputs): at module level the statement
	 * is skipped with a warning, inside a pipeline definition it is an error */
	for (int i = 0; i < args->npos; i++)
		if (args->pos[i]->kind == PV_OPAQUE)
			return dalic_pyeval_opaque_error(I, at, args->pos[i], "print()");
	if (I->hooks && I->hooks->print) {
		bool taken = false;
		int rc = I->hooks->print(I, at, args, &taken);
		if (rc || taken)
			return rc;
	}
	FILE *f = file && file->kind != PV_NONE ? stderr : I->out;
	pybuf_t b = {0};
	pyclass_fmt_t ctx = {I, at};
	dalic_pyclass_format_hook(&b, &ctx);
	for (int i = 0; i < args->npos; i++) {
		pyval_t *v = args->pos[i];
		if (i)
			dalic_pyval_format(&b,
			                   sep && sep->kind == PV_STR
			                       ? sep
			                       : &(pyval_t){.kind = PV_STR, .str = {" ", 1}},
			                   false);
		dalic_pyval_format(&b, v, false);
	}
	if (end && end->kind == PV_STR)
		dalic_pybuf_put(&b, end->str.s, end->str.len);
	else
		dalic_pybuf_puts(&b, "\n");
	if (b.oom || b.failed) {
		int rc = b.failed;
		dalic_pybuf_free(&b);
		return rc ? rc : dalic_pyeval_oom(I, at);
	}
	fwrite(b.s, 1, b.n, f);
	fflush(f);
	dalic_pybuf_free(&b);
	return DALIC_OK;
}

/* ---- sequences ------------------------------------------------------------------------ */

static int pybi_len(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                    pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "len", args, 1, 1));
	pyval_t *v = args->pos[0];
	int64_t n;
	switch (v->kind) {
	case PV_STR:
		n = 0;
		for (size_t i = 0; i < v->str.len; i++)
			n += ((unsigned char)v->str.s[i] & 0xC0) != 0x80;
		break;
	case PV_LIST:
		n = v->list->n;
		break;
	case PV_TUPLE:
		n = v->tuple.n;
		break;
	case PV_DICT:
		n = dalic_pydict_len(v->dict);
		break;
	case PV_OPAQUE:
		return dalic_pybi_opaque_result(I, at, "len", out);
	case PV_HOST:
		if (v->host.type->len) {
			DALIC_TRY(v->host.type->len(I, at, v, &n));
			break;
		}
		/* fall through */
	default: {
		bool found = false;
		DALIC_TRY(dalic_pyclass_len(I, at, v, &n, &found));
		if (found)
			break;
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: object of type '%s' has no len()",
		                          dalic_pyval_type_name(v));
	}
	}
	PYEVAL_RET(dalic_pyval_int(I->a, n));
}

static int pybi_range(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                      pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "range", args, 1, 3));
	if (dalic_pybi_any_opaque(args))
		return dalic_pybi_opaque_result(I, at, "range", out);
	int64_t v[3] = {0, 0, 1};
	for (int i = 0; i < args->npos; i++)
		if (!dalic_pyval_as_int(args->pos[i], &v[args->npos == 1 ? 1 : i]))
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: '%s' object cannot be interpreted as an integer",
			    dalic_pyval_type_name(args->pos[i]));
	if (v[2] == 0)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "ValueError: range() arg 3 must not be zero");
	int64_t count = v[2] > 0 ? (v[1] > v[0] ? (v[1] - v[0] + v[2] - 1) / v[2] : 0)
	                         : (v[0] > v[1] ? (v[0] - v[1] - v[2] - 1) / -v[2] : 0);
	if (count > PY_MAX_LOOP_ITERATIONS)
		return dalic_pyeval_limit(I, at, "range() with more than %d items",
		                          PY_MAX_LOOP_ITERATIONS);
	pyval_t *l = dalic_pyval_list(I->a, (int)count);
	if (!l)
		return dalic_pyeval_oom(I, at);
	for (int64_t i = 0; i < count; i++) {
		pyval_t *x = dalic_pyval_int(I->a, v[0] + i * v[2]);
		if (!x || dalic_pyval_list_append(I->a, l, x))
			return dalic_pyeval_oom(I, at);
	}
	PYEVAL_RET(l);
}

int dalic_pybi_items(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t ***items, int *n)
{
	bool opaque;
	DALIC_TRY(dalic_pyeval_iterate(I, at, v, false, items, n, &opaque));
	if (opaque)
		return dalic_pyeval_opaque_error(I, at, v, "cannot iterate");
	return DALIC_OK;
}

pyval_t *dalic_pybi_tuple(pyinterp_t *I, pyval_t **items, int n)
{
	pyval_t *t = dalic_pyval_tuple(I->a, n);
	if (t && n)
		memcpy(t->tuple.items, items, sizeof(pyval_t *) * (size_t)n);
	return t;
}

static int pybi_enumerate(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	const char *names[] = {"iterable", "start"};
	pyval_t *v[2];
	DALIC_TRY(dalic_pyeval_parse_args(I, at, "enumerate", args, names, 1, 2, v));
	if (v[0]->kind == PV_OPAQUE)
		PYEVAL_RET(v[0]);
	int64_t start = 0;
	if (v[1] && !dalic_pyval_as_int(v[1], &start))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: enumerate() start must be an integer");
	pyval_t **items;
	int n;
	DALIC_TRY(dalic_pybi_items(I, at, v[0], &items, &n));
	pyval_t *l = dalic_pyval_list(I->a, n);
	if (!l)
		return dalic_pyeval_oom(I, at);
	for (int i = 0; i < n; i++) {
		pyval_t *pair[2] = {dalic_pyval_int(I->a, start + i), items[i]};
		pyval_t *t = pair[0] ? dalic_pybi_tuple(I, pair, 2) : NULL;
		if (!t || dalic_pyval_list_append(I->a, l, t))
			return dalic_pyeval_oom(I, at);
	}
	PYEVAL_RET(l);
}

static int pybi_zip(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                    pyval_t **out)
{
	DALIC_TRY(dalic_pybi_no_kwargs(I, at, "zip", args));
	if (dalic_pybi_any_opaque(args))
		return dalic_pybi_opaque_result(I, at, "zip", out);
	int k = args->npos, len = -1;
	pyval_t ***items = dalic_pyarena_alloc(I->a, sizeof *items * (size_t)(k + 1));
	int *ns = dalic_pyarena_alloc(I->a, sizeof *ns * (size_t)(k + 1));
	if (!items || !ns)
		return dalic_pyeval_oom(I, at);
	for (int i = 0; i < k; i++) {
		DALIC_TRY(dalic_pybi_items(I, at, args->pos[i], &items[i], &ns[i]));
		if (len < 0 || ns[i] < len)
			len = ns[i];
	}
	pyval_t *l = dalic_pyval_list(I->a, len < 0 ? 0 : len);
	if (!l)
		return dalic_pyeval_oom(I, at);
	for (int j = 0; j < len; j++) {
		pyval_t *t = dalic_pyval_tuple(I->a, k);
		if (!t)
			return dalic_pyeval_oom(I, at);
		for (int i = 0; i < k; i++)
			t->tuple.items[i] = items[i][j];
		if (dalic_pyval_list_append(I->a, l, t))
			return dalic_pyeval_oom(I, at);
	}
	PYEVAL_RET(l);
}

static int pybi_call_key(pyinterp_t *I, const pynode_t *at, pyval_t *key, pyval_t *v, pyval_t **out)
{
	if (!key || key->kind == PV_NONE) {
		*out = v;
		return DALIC_OK;
	}
	return dalic_pyeval_call1(I, at, key, v, out);
}

static int pybi_less(pyinterp_t *I, const pynode_t *at, pyval_t *a, pyval_t *b, bool *lt)
{
	pyval_t *r;
	DALIC_TRY(dalic_pyeval_compare(I, at, CMP_LT, a, b, &r));
	return dalic_pyeval_truth(I, at, r, lt);
}

static int pybi_minmax(pyinterp_t *I, const pynode_t *at, const pyargs_t *args, bool want_max,
                       pyval_t **out)
{
	const char *f = want_max ? "max" : "min";
	pyval_t *key = dalic_pyeval_kwarg(args, "key"), *def = dalic_pyeval_kwarg(args, "default");
	if (dalic_pybi_any_opaque(args))
		return dalic_pybi_opaque_result(I, at, f, out);
	pyval_t **items = args->pos;
	int n = args->npos;
	if (n == 1)
		DALIC_TRY(dalic_pybi_items(I, at, args->pos[0], &items, &n));
	if (n == 0) {
		if (def)
			PYEVAL_RET(def);
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "ValueError: %s() arg is an empty sequence", f);
	}
	pyval_t *best = items[0], *best_key;
	DALIC_TRY(pybi_call_key(I, at, key, best, &best_key));
	for (int i = 1; i < n; i++) {
		pyval_t *k;
		DALIC_TRY(pybi_call_key(I, at, key, items[i], &k));
		bool lt;
		DALIC_TRY(want_max ? pybi_less(I, at, best_key, k, &lt)
		                   : pybi_less(I, at, k, best_key, &lt));
		if (lt) {
			best = items[i];
			best_key = k;
		}
	}
	PYEVAL_RET(best);
}

static int pybi_min(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                    pyval_t **out)
{
	return pybi_minmax(I, at, args, false, out);
}

static int pybi_max(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                    pyval_t **out)
{
	return pybi_minmax(I, at, args, true, out);
}

static int pybi_sum(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                    pyval_t **out)
{
	const char *names[] = {"iterable", "start"};
	pyval_t *v[2];
	DALIC_TRY(dalic_pyeval_parse_args(I, at, "sum", args, names, 1, 2, v));
	if (v[0]->kind == PV_OPAQUE)
		PYEVAL_RET(v[0]);
	pyval_t **items;
	int n;
	DALIC_TRY(dalic_pybi_items(I, at, v[0], &items, &n));
	pyval_t *acc = v[1] ? v[1] : dalic_pyval_int(I->a, 0);
	if (!acc)
		return dalic_pyeval_oom(I, at);
	for (int i = 0; i < n; i++)
		DALIC_TRY(dalic_pyeval_binop(I, at, OP_PLUS, acc, items[i], &acc));
	PYEVAL_RET(acc);
}

static int pybi_abs(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                    pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "abs", args, 1, 1));
	pyval_t *v = args->pos[0];
	if (v->kind == PV_OPAQUE)
		PYEVAL_RET(v);
	if (v->kind == PV_INT || v->kind == PV_BOOL) {
		int64_t x = v->kind == PV_BOOL ? v->b : v->i;
		if (x == INT64_MIN)
			return dalic_pyeval_limit(
			    I, at, "integer overflow (dalic supports 64-bit integers)");
		PYEVAL_RET(dalic_pyval_int(I->a, x < 0 ? -x : x));
	}
	if (v->kind == PV_FLOAT)
		PYEVAL_RET(dalic_pyval_float(I->a, fabs(v->f)));
	return dalic_pyeval_error(I, at, DALIC_EINVAL,
	                          "TypeError: bad operand type for abs(): '%s'",
	                          dalic_pyval_type_name(v));
}

static int pybi_round(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                      pyval_t **out)
{
	const char *names[] = {"number", "ndigits"};
	pyval_t *v[2];
	DALIC_TRY(dalic_pyeval_parse_args(I, at, "round", args, names, 1, 2, v));
	if (v[0]->kind == PV_OPAQUE)
		PYEVAL_RET(v[0]);
	if (!dalic_pyval_is_number(v[0]))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: type %s doesn't define __round__ method",
		                          dalic_pyval_type_name(v[0]));
	if (!v[1] || v[1]->kind == PV_NONE) {
		double r =
		    nearbyint(dalic_pyval_as_double(v[0])); /* round half to even, like Python */
		if (!(fabs(r) < 9.2e18))
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "OverflowError: cannot convert to integer");
		PYEVAL_RET(dalic_pyval_int(I->a, (int64_t)r));
	}
	int64_t nd;
	if (!dalic_pyval_as_int(v[1], &nd))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: ndigits must be an integer");
	if (v[0]->kind != PV_FLOAT)
		PYEVAL_RET(v[0]);
	char buf[64];
	snprintf(buf, sizeof buf, "%.*f", (int)(nd < 0 ? 0 : nd > 30 ? 30 : nd), v[0]->f);
	PYEVAL_RET(dalic_pyval_float(I->a, strtod(buf, NULL)));
}

static int pybi_sorted(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                       pyval_t **out)
{
	const char *names[] = {"iterable", "key", "reverse"};
	pyval_t *v[3];
	DALIC_TRY(dalic_pyeval_parse_args(I, at, "sorted", args, names, 1, 3, v));
	if (v[0]->kind == PV_OPAQUE)
		PYEVAL_RET(v[0]);
	pyval_t **items;
	int n;
	DALIC_TRY(dalic_pybi_items(I, at, v[0], &items, &n));
	bool rev = false;
	if (v[2])
		DALIC_TRY(dalic_pyeval_truth(I, at, v[2], &rev));
	pyval_t *l = dalic_pyval_list(I->a, n);
	pyval_t **keys = dalic_pyarena_alloc(I->a, sizeof *keys * (size_t)(n + 1));
	if (!l || !keys)
		return dalic_pyeval_oom(I, at);
	/* stable insertion sort: script lists are short */
	for (int i = 0; i < n; i++) {
		pyval_t *k;
		DALIC_TRY(pybi_call_key(I, at, v[1], items[i], &k));
		if (dalic_pyval_list_append(I->a, l, items[i]))
			return dalic_pyeval_oom(I, at);
		int j = i;
		while (j > 0) {
			bool lt;
			DALIC_TRY(rev ? pybi_less(I, at, keys[j - 1], k, &lt)
			              : pybi_less(I, at, k, keys[j - 1], &lt));
			if (!lt)
				break;
			keys[j] = keys[j - 1];
			l->list->items[j] = l->list->items[j - 1];
			j--;
		}
		keys[j] = k;
		l->list->items[j] = items[i];
	}
	PYEVAL_RET(l);
}

static int pybi_reversed(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                         pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "reversed", args, 1, 1));
	if (args->pos[0]->kind == PV_OPAQUE)
		PYEVAL_RET(args->pos[0]);
	pyval_t **items;
	int n;
	DALIC_TRY(dalic_pybi_items(I, at, args->pos[0], &items, &n));
	pyval_t *l = dalic_pyval_list(I->a, n);
	if (!l)
		return dalic_pyeval_oom(I, at);
	for (int i = n - 1; i >= 0; i--)
		if (dalic_pyval_list_append(I->a, l, items[i]))
			return dalic_pyeval_oom(I, at);
	PYEVAL_RET(l);
}

static int pybi_any_all(pyinterp_t *I, const pynode_t *at, const pyargs_t *args, bool all,
                        pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, all ? "all" : "any", args, 1, 1));
	if (args->pos[0]->kind == PV_OPAQUE)
		PYEVAL_RET(args->pos[0]);
	pyval_t **items;
	int n;
	DALIC_TRY(dalic_pybi_items(I, at, args->pos[0], &items, &n));
	for (int i = 0; i < n; i++) {
		bool t;
		DALIC_TRY(dalic_pyeval_truth(I, at, items[i], &t));
		if (t != all)
			PYEVAL_RET(dalic_pyval_bool(!all));
	}
	PYEVAL_RET(dalic_pyval_bool(all));
}

static int pybi_any(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                    pyval_t **out)
{
	return pybi_any_all(I, at, args, false, out);
}

static int pybi_all(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                    pyval_t **out)
{
	return pybi_any_all(I, at, args, true, out);
}

static int pybi_map(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                    pyval_t **out)
{
	if (args->npos < 2)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: map() must have at least two arguments.");
	if (dalic_pybi_any_opaque(args))
		return dalic_pybi_opaque_result(I, at, "map", out);
	pyargs_t rest = {.pos = args->pos + 1, .npos = args->npos - 1};
	pyval_t *zipped;
	DALIC_TRY(pybi_zip(I, at, NULL, &rest, &zipped));
	pyval_t *l = dalic_pyval_list(I->a, zipped->list->n);
	if (!l)
		return dalic_pyeval_oom(I, at);
	for (int i = 0; i < zipped->list->n; i++) {
		pyval_t *t = zipped->list->items[i], *r;
		pyargs_t a = {.pos = t->tuple.items, .npos = t->tuple.n};
		DALIC_TRY(dalic_pyeval_call(I, at, args->pos[0], &a, &r));
		if (dalic_pyval_list_append(I->a, l, r))
			return dalic_pyeval_oom(I, at);
	}
	PYEVAL_RET(l);
}

static int pybi_filter(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                       pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "filter", args, 2, 2));
	if (dalic_pybi_any_opaque(args))
		return dalic_pybi_opaque_result(I, at, "filter", out);
	pyval_t **items;
	int n;
	DALIC_TRY(dalic_pybi_items(I, at, args->pos[1], &items, &n));
	pyval_t *l = dalic_pyval_list(I->a, n);
	if (!l)
		return dalic_pyeval_oom(I, at);
	for (int i = 0; i < n; i++) {
		pyval_t *r = items[i];
		if (args->pos[0]->kind != PV_NONE)
			DALIC_TRY(dalic_pyeval_call1(I, at, args->pos[0], items[i], &r));
		bool keep;
		DALIC_TRY(dalic_pyeval_truth(I, at, r, &keep));
		if (keep && dalic_pyval_list_append(I->a, l, items[i]))
			return dalic_pyeval_oom(I, at);
	}
	PYEVAL_RET(l);
}

/* ---- registration --------------------------------------------------------------------- */

int dalic_pybi_open(pyinterp_t *I)
{
	static const pyreg_t fns[] = {
	    {"print", pybi_print},
	    {"len", pybi_len},
	    {"range", pybi_range},
	    {"enumerate", pybi_enumerate},
	    {"zip", pybi_zip},
	    {"min", pybi_min},
	    {"max", pybi_max},
	    {"sum", pybi_sum},
	    {"abs", pybi_abs},
	    {"round", pybi_round},
	    {"sorted", pybi_sorted},
	    {"reversed", pybi_reversed},
	    {"any", pybi_any},
	    {"all", pybi_all},
	    {"map", pybi_map},
	    {"filter", pybi_filter},
	    {NULL, NULL},
	};
	I->builtins = dalic_pydict_new(I->a);
	if (!I->builtins)
		return DALIC_ENOMEM;
	DALIC_TRY(dalic_pybi_register(I, I->builtins, fns, false));
	DALIC_TRY(dalic_pyset_open(I));
	return dalic_pybi_open_types(I);
}
