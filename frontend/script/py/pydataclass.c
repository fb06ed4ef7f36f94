/*
 * The dataclasses module (see pystdlib.h). @dataclass reads the class body's annotations
 * (pyclass_annotate) in order, after the fields of dataclass bases, and keeps them as
 * Field objects in the class's __dataclass_fields__; the generated __init__, __repr__,
 * __eq__ and ordering methods are built-ins that find the fields through the class of the
 * instance they are called on, so a plain subclass inherits them as in Python.
 */
#include "frontend/script/py/pystdlib.h"

#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pyclass.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyexec.h"

#include <string.h>

typedef struct pydc_field {
	const char *name;
	pyval_t *def, *factory; /* NULL when absent */
	bool init, repr, compare;
} pydc_field_t;

static const pytype_t pydc_field_type;

static pydc_field_t *pydc_field(const pyval_t *v)
{
	return dalic_pyval_is(v, &pydc_field_type) ? v->host.data : NULL;
}

static int pydc_field_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
                              pyval_t **out)
{
	pydc_field_t *f = pydc_field(v);
	*out = NULL;
	if (!strcmp(name, "name"))
		PYEVAL_RET(f->name ? dalic_pyval_cstr(I->a, f->name) : dalic_pyval_none());
	if (!strcmp(name, "default"))
		*out = f->def ? f->def : dalic_pyval_none();
	else if (!strcmp(name, "default_factory"))
		*out = f->factory ? f->factory : dalic_pyval_none();
	else if (!strcmp(name, "init") || !strcmp(name, "repr") || !strcmp(name, "compare"))
		*out = dalic_pyval_bool(name[0] == 'i' ? f->init : name[0] == 'r' ? f->repr : f->compare);
	return DALIC_OK;
}

static void pydc_field_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	dalic_pybuf_printf(b, "Field(name='%s')", pydc_field(v)->name ? pydc_field(v)->name : "");
}

static const pytype_t pydc_field_type = {
    .name = "Field",
    .format = pydc_field_format,
    .getattr = pydc_field_getattr,
};

static pyval_t *pydc_new_field(pyinterp_t *I, pydc_field_t **out)
{
	pydc_field_t *f = dalic_pyarena_alloc(I->a, sizeof *f);
	if (!f)
		return NULL;
	f->init = f->repr = f->compare = true;
	*out = f;
	return dalic_pyval_host(I->a, &pydc_field_type, f);
}

/* field(default=..., default_factory=..., init=, repr=, compare=, hash=, metadata=, kw_only=) */
static int pydc_field_fn(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                         pyval_t **out)
{
	static const char *const names[] = {"default", "default_factory", "init", "repr",
	                                    "compare", "hash",            "metadata", "kw_only"};
	pyval_t *v[8];
	DALIC_TRY(dalic_pyeval_parse_args(I, at, "field", args, names, 0, 8, v));
	if (v[0] && v[1])
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "ValueError: cannot specify both default and "
		                          "default_factory");
	pydc_field_t *f;
	pyval_t *fv = pydc_new_field(I, &f);
	if (!fv)
		return dalic_pyeval_oom(I, at);
	f->def = v[0];
	f->factory = v[1];
	bool *flags[] = {&f->init, &f->repr, &f->compare};
	for (int i = 0; i < 3; i++)
		if (v[2 + i])
			DALIC_TRY(dalic_pyeval_truth(I, at, v[2 + i], flags[i]));
	*out = fv;
	return DALIC_OK;
}

/* __dataclass_fields__ of the class of v (an instance or a class), or NULL */
static pydict_t *pydc_fields_of(const pyval_t *v)
{
	pyclass_t *c = v->kind == PV_CLASS ? v->cls : v->kind == PV_INSTANCE ? v->inst->cls : NULL;
	pyval_t *d = c ? dalic_pyexec_class_lookup(c, "__dataclass_fields__", NULL) : NULL;
	return d && d->kind == PV_DICT ? d->dict : NULL;
}

/* ---- generated methods ------------------------------------------------------------------ */

static int pydc_init(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                     pyval_t **out)
{
	pydict_t *fields = pydc_fields_of(self);
	int npos = 0, used = 0;
	pyval_t *k, *fv;
	for (int it = 0; dalic_pydict_next(fields, &it, &k, &fv);) {
		pydc_field_t *f = pydc_field(fv);
		pyval_t *v = NULL;
		if (f->init) {
			if (npos < args->npos)
				v = args->pos[npos++];
			pyval_t *kw = dalic_pyeval_kwarg(args, f->name);
			if (kw && v)
				return dalic_pyeval_error(
				    I, at, DALIC_EINVAL,
				    "TypeError: __init__() got multiple values for argument '%s'",
				    f->name);
			if (kw) {
				v = kw;
				used++;
			}
		}
		if (!v && f->factory)
			DALIC_TRY(dalic_pyeval_call(I, at, f->factory, &(pyargs_t){0}, &v));
		if (!v)
			v = f->def;
		if (!v)
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: %s.__init__() missing 1 required argument: '%s'",
			    self->inst->cls->name, f->name);
		if (dalic_pydict_set_str(I->a, self->inst->attrs, f->name, v))
			return dalic_pyeval_oom(I, at);
	}
	if (npos < args->npos)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: %s.__init__() takes %d positional arguments but "
		                          "%d were given",
		                          self->inst->cls->name, npos + 1, args->npos + 1);
	if (used < args->nkw)
		for (int i = 0; i < args->nkw; i++)
			if (!dalic_pydict_get_str(fields, args->kwnames[i]))
				return dalic_pyeval_error(I, at, DALIC_EINVAL,
				                          "TypeError: %s.__init__() got an unexpected "
				                          "keyword argument '%s'",
				                          self->inst->cls->name, args->kwnames[i]);
	bool found;
	DALIC_TRY(dalic_pyclass_dunder(I, at, self, "__post_init__", NULL, 0, out, &found));
	*out = dalic_pyval_none();
	return DALIC_OK;
}

static int pydc_repr(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                     pyval_t **out)
{
	pybuf_t b = {0};
	dalic_pybuf_printf(&b, "%s(", self->inst->cls->name);
	pyval_t *k, *fv;
	int n = 0, rc = DALIC_OK;
	for (int it = 0; !rc && dalic_pydict_next(pydc_fields_of(self), &it, &k, &fv);) {
		pydc_field_t *f = pydc_field(fv);
		pyval_t *v = dalic_pydict_get_str(self->inst->attrs, f->name), *r;
		if (!f->repr || !v)
			continue;
		rc = dalic_pyeval_str(I, at, v, true, &r);
		if (!rc)
			dalic_pybuf_printf(&b, "%s%s=%s", n++ ? ", " : "", f->name, r->str.s);
	}
	dalic_pybuf_puts(&b, ")");
	if (!rc)
		*out = b.oom ? NULL : dalic_pyval_str(I->a, b.s, b.n);
	dalic_pybuf_free(&b);
	return rc ? rc : *out ? DALIC_OK : dalic_pyeval_oom(I, at);
}

/* The compared fields of v as a tuple. */
static int pydc_astuple(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t **out)
{
	pyval_t *l = dalic_pyval_list(I->a, 4), *k, *fv;
	if (!l)
		return dalic_pyeval_oom(I, at);
	for (int it = 0; dalic_pydict_next(pydc_fields_of(v), &it, &k, &fv);) {
		pydc_field_t *f = pydc_field(fv);
		pyval_t *x = dalic_pydict_get_str(v->inst->attrs, f->name);
		if (f->compare && dalic_pyval_list_append(I->a, l, x ? x : dalic_pyval_none()))
			return dalic_pyeval_oom(I, at);
	}
	PYEVAL_RET(dalic_pybi_tuple(I, l->list->items, l->list->n));
}

/* __eq__, __lt__, __le__, __gt__, __ge__: field tuples of two instances of one class */
static int pydc_compare(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                        pyval_t **out, pycmp_t op)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "comparison", args, 1, 1));
	pyval_t *o = args->pos[0], *a, *b;
	if (o->kind != PV_INSTANCE || o->inst->cls != self->inst->cls) {
		if (op == CMP_EQ)
			PYEVAL_RET(dalic_pyval_bool(self == o));
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: comparison not supported between instances of "
		                          "'%s' and '%s'",
		                          self->inst->cls->name, dalic_pyval_type_name(o));
	}
	DALIC_TRY(pydc_astuple(I, at, self, &a));
	DALIC_TRY(pydc_astuple(I, at, o, &b));
	return dalic_pyeval_compare(I, at, op, a, b, out);
}

#define PYDC_CMP(fname, op)                                                                        \
	static int fname(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,   \
	                 pyval_t **out)                                                            \
	{                                                                                          \
		return pydc_compare(I, at, self, args, out, op);                                   \
	}
PYDC_CMP(pydc_eq, CMP_EQ)
PYDC_CMP(pydc_lt, CMP_LT)
PYDC_CMP(pydc_le, CMP_LE)
PYDC_CMP(pydc_gt, CMP_GT)
PYDC_CMP(pydc_ge, CMP_GE)

/* ---- @dataclass ------------------------------------------------------------------------- */

/* Fields of the dataclass bases, then the class's own annotated names. */
static int pydc_collect(pyinterp_t *I, const pynode_t *at, pyclass_t *c, pyval_t *fields)
{
	for (int i = c->nbases - 1; i >= 0; i--) {
		pyval_t *bf = dalic_pyexec_class_lookup(c->bases[i], "__dataclass_fields__", NULL), *k,
		        *v;
		for (int it = 0; bf && bf->kind == PV_DICT && dalic_pydict_next(bf->dict, &it, &k, &v);)
			if (dalic_pydict_set(I->a, fields->dict, k, v))
				return dalic_pyeval_oom(I, at);
	}
	pyval_t *ann = dalic_pydict_get_str(c->attrs, "__annotations__"), *k, *head;
	for (int it = 0; ann && ann->kind == PV_DICT && dalic_pydict_next(ann->dict, &it, &k, &head);) {
		if (!strcmp(head->str.s, "ClassVar") || !strcmp(head->str.s, "InitVar"))
			continue;
		pyval_t *cur = dalic_pydict_get_str(c->attrs, k->str.s), *fv = cur;
		pydc_field_t *f = cur ? pydc_field(cur) : NULL;
		if (!f) {
			if (!(fv = pydc_new_field(I, &f)))
				return dalic_pyeval_oom(I, at);
			f->def = cur;
		}
		if (f->def && (f->def->kind == PV_LIST || f->def->kind == PV_DICT))
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "ValueError: mutable default %s for field %s is not allowed: use "
			    "default_factory",
			    dalic_pyval_type_name(f->def), k->str.s);
		f->name = k->str.s;
		/* the class attribute becomes the default (or goes away) */
		if (f->def ? dalic_pydict_set_str(I->a, c->attrs, f->name, f->def)
		           : (dalic_pydict_del(c->attrs, k), 0))
			return dalic_pyeval_oom(I, at);
		if (dalic_pydict_set(I->a, fields->dict, k, fv))
			return dalic_pyeval_oom(I, at);
	}
	return DALIC_OK;
}

static int pydc_set_method(pyinterp_t *I, const pynode_t *at, pyclass_t *c, const char *name,
                           pycfn_t fn, bool only_if_absent)
{
	if (only_if_absent && dalic_pydict_get_str(c->attrs, name))
		return DALIC_OK; /* the class's own definition wins, as in Python */
	pyval_t *m = dalic_pybi_make(I, name, fn, NULL, NULL);
	if (!m)
		return dalic_pyeval_oom(I, at);
	m->builtin.method = true;
	return dalic_pydict_set_str(I->a, c->attrs, name, m) ? dalic_pyeval_oom(I, at) : DALIC_OK;
}

/* the options of @dataclass(...), in builtin.self of the decorator it returns */
typedef struct pydc_opts {
	bool init, repr, eq, order, frozen;
} pydc_opts_t;

static int pydc_apply(pyinterp_t *I, const pynode_t *at, pyval_t *cv, const pydc_opts_t *o,
                      pyval_t **out)
{
	if (cv->kind != PV_CLASS)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: @dataclass decorates a class, not '%s'",
		                          dalic_pyval_type_name(cv));
	pyclass_t *c = cv->cls;
	pyval_t *fields = dalic_pyval_dict(I->a);
	if (!fields)
		return dalic_pyeval_oom(I, at);
	DALIC_TRY(pydc_collect(I, at, c, fields));
	if (dalic_pydict_set_str(I->a, c->attrs, "__dataclass_fields__", fields))
		return dalic_pyeval_oom(I, at);
	if (o->init)
		DALIC_TRY(pydc_set_method(I, at, c, "__init__", pydc_init, true));
	if (o->repr)
		DALIC_TRY(pydc_set_method(I, at, c, "__repr__", pydc_repr, true));
	if (o->eq)
		DALIC_TRY(pydc_set_method(I, at, c, "__eq__", pydc_eq, true));
	if (o->order) {
		static const struct {
			const char *name;
			pycfn_t fn;
		} ord[] = {{"__lt__", pydc_lt}, {"__le__", pydc_le}, {"__gt__", pydc_gt}, {"__ge__", pydc_ge}};
		for (int i = 0; i < 4; i++)
			DALIC_TRY(pydc_set_method(I, at, c, ord[i].name, ord[i].fn, false));
	}
	c->frozen |= o->frozen;
	*out = cv;
	return DALIC_OK;
}

static int pydc_deco_with_opts(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                               const pyargs_t *args, pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "dataclass", args, 1, 1));
	return pydc_apply(I, at, args->pos[0], self->builtin.data, out);
}

static int pydc_dataclass(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	static const char *const names[] = {"cls",    "init",        "repr",     "eq",
	                                    "order",  "unsafe_hash", "frozen",   "match_args",
	                                    "kw_only", "slots"};
	pyval_t *v[10];
	DALIC_TRY(dalic_pyeval_parse_args(I, at, "dataclass", args, names, 0, 10, v));
	pydc_opts_t *o = dalic_pyarena_alloc(I->a, sizeof *o);
	if (!o)
		return dalic_pyeval_oom(I, at);
	bool *flags[] = {&o->init, &o->repr, &o->eq, &o->order, NULL, &o->frozen};
	for (int i = 0; i < 6; i++) {
		if (!flags[i])
			continue;
		*flags[i] = i < 3; /* init, repr and eq default to True */
		if (v[1 + i])
			DALIC_TRY(dalic_pyeval_truth(I, at, v[1 + i], flags[i]));
	}
	if (v[0])
		return pydc_apply(I, at, v[0], o, out);
	PYEVAL_RET(dalic_pybi_make_self(I, "dataclass", pydc_deco_with_opts, o));
}

/* ---- fields, asdict, replace, is_dataclass ----------------------------------------------- */

static int pydc_need(pyinterp_t *I, const pynode_t *at, const char *fname, pyval_t *v,
                     pydict_t **fields)
{
	*fields = pydc_fields_of(v);
	if (!*fields)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: %s() should be called on dataclass instances",
		                          fname);
	return DALIC_OK;
}

static int pydc_fields_fn(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "fields", args, 1, 1));
	pydict_t *fields;
	DALIC_TRY(pydc_need(I, at, "fields", args->pos[0], &fields));
	pyval_t *l = dalic_pyval_list(I->a, 4), *k, *fv;
	if (!l)
		return dalic_pyeval_oom(I, at);
	for (int it = 0; dalic_pydict_next(fields, &it, &k, &fv);)
		if (dalic_pyval_list_append(I->a, l, fv))
			return dalic_pyeval_oom(I, at);
	PYEVAL_RET(dalic_pybi_tuple(I, l->list->items, l->list->n));
}

static int pydc_asdict_value(pyinterp_t *I, const pynode_t *at, pyval_t *v, int depth,
                             pyval_t **out)
{
	if (depth > 64)
		return dalic_pyeval_limit(I, at, "asdict() of data nested more than 64 levels deep");
	pydict_t *fields = v->kind == PV_INSTANCE ? pydc_fields_of(v) : NULL;
	if (fields) {
		pyval_t *d = dalic_pyval_dict(I->a), *k, *fv, *x;
		if (!d)
			return dalic_pyeval_oom(I, at);
		for (int it = 0; dalic_pydict_next(fields, &it, &k, &fv);) {
			pyval_t *cur = dalic_pydict_get_str(v->inst->attrs, k->str.s);
			DALIC_TRY(pydc_asdict_value(I, at, cur ? cur : dalic_pyval_none(), depth + 1, &x));
			if (dalic_pydict_set(I->a, d->dict, k, x))
				return dalic_pyeval_oom(I, at);
		}
		*out = d;
		return DALIC_OK;
	}
	if (v->kind == PV_LIST || v->kind == PV_TUPLE) {
		int n = v->kind == PV_LIST ? v->list->n : v->tuple.n;
		pyval_t **items = v->kind == PV_LIST ? v->list->items : v->tuple.items;
		pyval_t *r = v->kind == PV_LIST ? dalic_pyval_list(I->a, n) : dalic_pyval_tuple(I->a, n);
		if (!r)
			return dalic_pyeval_oom(I, at);
		for (int i = 0; i < n; i++) {
			pyval_t *x;
			DALIC_TRY(pydc_asdict_value(I, at, items[i], depth + 1, &x));
			if (v->kind == PV_TUPLE)
				r->tuple.items[i] = x;
			else if (dalic_pyval_list_append(I->a, r, x))
				return dalic_pyeval_oom(I, at);
		}
		*out = r;
		return DALIC_OK;
	}
	*out = v;
	return DALIC_OK;
}

static int pydc_asdict(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                       pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "asdict", args, 1, 1));
	pydict_t *fields;
	DALIC_TRY(pydc_need(I, at, "asdict", args->pos[0], &fields));
	return pydc_asdict_value(I, at, args->pos[0], 0, out);
}

static int pydc_replace(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                        pyval_t **out)
{
	if (args->npos != 1)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: replace() takes one dataclass instance");
	pyval_t *obj = args->pos[0], *k, *fv;
	pydict_t *fields;
	DALIC_TRY(pydc_need(I, at, "replace", obj, &fields));
	int cap = dalic_pydict_len(fields) + args->nkw + 1, n = 0;
	const char **names = dalic_pyarena_alloc(I->a, sizeof *names * (size_t)cap);
	pyval_t **vals = dalic_pyarena_alloc(I->a, sizeof *vals * (size_t)cap);
	if (!names || !vals)
		return dalic_pyeval_oom(I, at);
	for (int it = 0; dalic_pydict_next(fields, &it, &k, &fv);) {
		pyval_t *v = dalic_pyeval_kwarg(args, k->str.s);
		if (!v)
			v = dalic_pydict_get_str(obj->inst->attrs, k->str.s);
		if (pydc_field(fv)->init && v) {
			names[n] = k->str.s;
			vals[n++] = v;
		}
	}
	for (int i = 0; i < args->nkw; i++)
		if (!dalic_pydict_get_str(fields, args->kwnames[i]))
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "TypeError: replace() got an unexpected field '%s'",
			                          args->kwnames[i]);
	pyargs_t a = {.kwnames = names, .kwvals = vals, .nkw = n};
	return dalic_pyexec_instantiate(I, at, obj->inst->cls, &a, out);
}

static int pydc_is_dataclass(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                             const pyargs_t *args, pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "is_dataclass", args, 1, 1));
	PYEVAL_RET(dalic_pyval_bool(pydc_fields_of(args->pos[0]) != NULL));
}

int dalic_pydataclass_module(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	static const pyreg_t fns[] = {
	    {"dataclass", pydc_dataclass}, {"field", pydc_field_fn},
	    {"fields", pydc_fields_fn},    {"asdict", pydc_asdict},
	    {"replace", pydc_replace},     {"is_dataclass", pydc_is_dataclass},
	    {NULL, NULL},
	};
	pyval_t *m = dalic_pymod_new(I, name, false);
	pyval_t *frozen = dalic_pydict_get_str(I->builtins, "FrozenInstanceError");
	if (!m || dalic_pybi_register(I, m->mod->attrs, fns, false) ||
	    dalic_pymod_set(I, m, "FrozenInstanceError", frozen) ||
	    dalic_pymod_set(I, m, "MISSING", dalic_pyval_opaque(I->a, "dataclasses.MISSING")))
		return dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}
