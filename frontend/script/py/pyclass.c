/*
 * Classes (see pyclass.h): the root class `object`, the descriptor types, binding, special
 * attributes and the special methods of user classes.
 */
#include "frontend/script/py/pyclass.h"

#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pycall.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyexec.h"

#include <string.h>

/* ---- object --------------------------------------------------------------------------- */

bool dalic_pyclass_is_object(const pyclass_t *c)
{
	return c && !c->nbases && c->module && !strcmp(c->module, "builtins") &&
	       !strcmp(c->name, "object");
}

pyval_t *dalic_pyclass_object_attr(pyinterp_t *I, const char *name)
{
	pyval_t *o = dalic_pydict_get_str(I->builtins, "object");
	return o && o->kind == PV_CLASS ? dalic_pydict_get_str(o->cls->attrs, name) : NULL;
}

/* object.__init__(self, ...): nothing to do (instantiation checks stray arguments) */
static int pyclass_object_init(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                               const pyargs_t *args, pyval_t **out)
{
	*out = dalic_pyval_none();
	return DALIC_OK;
}

/* object.__new__(cls, ...): an instance whose __init__ has not run */
static int pyclass_object_new(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                              const pyargs_t *args, pyval_t **out)
{
	if (!args->npos || args->pos[0]->kind != PV_CLASS)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: object.__new__(X): X is not a type object");
	PYEVAL_RET(dalic_pyexec_new_instance(I, args->pos[0]->cls));
}

/* object.__setattr__(self, name, value): the instance's own attribute, bypassing frozen
 * dataclasses and properties (what their __init__ / __post_init__ rely on) */
static int pyclass_object_setattr(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                  const pyargs_t *args, pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "__setattr__", args, 2, 2));
	if (args->pos[0]->kind != PV_STR)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: attribute name must be string");
	*out = dalic_pyval_none();
	if (self->kind != PV_INSTANCE)
		return dalic_pyeval_setattr(I, at, self, args->pos[0]->str.s, args->pos[1]);
	if (I->sealed)
		DALIC_TRY(dalic_pycall_check_write(I, at, self->inst->attrs, "an attribute of an object"));
	if (dalic_pydict_set_str(I->a, self->inst->attrs, args->pos[0]->str.s, args->pos[1]))
		return dalic_pyeval_oom(I, at);
	return DALIC_OK;
}

/* ---- classmethod, staticmethod, property ------------------------------------------------ */

enum { PYCLASS_CLASSMETHOD, PYCLASS_STATICMETHOD, PYCLASS_PROPERTY };

typedef struct pyclass_desc {
	int kind;
	pyval_t *func; /* classmethod / staticmethod: the function; property: the getter */
	pyval_t *fset, *fdel;
} pyclass_desc_t;

static const pytype_t pyclass_desc_type, pyclass_property_type;

static pyclass_desc_t *pyclass_desc(const pyval_t *v)
{
	return dalic_pyval_is(v, &pyclass_desc_type) || dalic_pyval_is(v, &pyclass_property_type)
	           ? v->host.data
	           : NULL;
}

static pyval_t *pyclass_class_value(pyinterp_t *I, pyclass_t *cls)
{
	pyval_t *c = dalic_pyval_new(I->a, PV_CLASS);
	if (c)
		c->cls = cls;
	return c;
}

static int pyclass_desc_get(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t *obj,
                            pyclass_t *cls, pyval_t **out)
{
	pyclass_desc_t *d = pyclass_desc(v);
	if (d->kind == PYCLASS_STATICMETHOD) {
		*out = d->func;
		return DALIC_OK;
	}
	if (d->kind == PYCLASS_CLASSMETHOD) {
		pyval_t *c = pyclass_class_value(I, obj ? obj->inst->cls : cls);
		pyval_t *b = dalic_pyval_new(I->a, PV_BOUND);
		if (!c || !b)
			return dalic_pyeval_oom(I, at);
		if (d->func->kind != PV_FUNC)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "TypeError: classmethod of a '%s' is not supported",
			                          dalic_pyval_type_name(d->func));
		b->bound.self = c;
		b->bound.func = d->func;
		*out = b;
		return DALIC_OK;
	}
	if (!obj) {
		*out = v; /* the property object itself */
		return DALIC_OK;
	}
	if (!d->func || d->func->kind == PV_NONE)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "AttributeError: property of '%s' object has no getter",
		                          dalic_pyval_type_name(obj));
	return dalic_pyeval_call1(I, at, d->func, obj, out);
}

static int pyclass_property_set(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t *obj,
                                pyval_t *value)
{
	pyclass_desc_t *d = pyclass_desc(v);
	if (!d->fset || d->fset->kind == PV_NONE)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "AttributeError: property of '%s' object has no setter",
		                          dalic_pyval_type_name(obj));
	pyval_t *args[2] = {obj, value}, *r;
	pyargs_t a = {.pos = args, .npos = 2};
	return dalic_pyeval_call(I, at, d->fset, &a, &r);
}

static int pyclass_new_desc(pyinterp_t *I, const pynode_t *at, int kind, pyval_t *func,
                            pyval_t *fset, pyval_t *fdel, pyval_t **out)
{
	pyclass_desc_t *d = dalic_pyarena_alloc(I->a, sizeof *d);
	if (!d)
		return dalic_pyeval_oom(I, at);
	d->kind = kind;
	d->func = func;
	d->fset = fset;
	d->fdel = fdel;
	PYEVAL_RET(dalic_pyval_host(
	    I->a, kind == PYCLASS_PROPERTY ? &pyclass_property_type : &pyclass_desc_type, d));
}

/* prop.setter / prop.getter / prop.deleter: a copy of the property with one accessor */
static int pyclass_property_with(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                 const pyargs_t *args, pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, self->builtin.name, args, 1, 1));
	const pyclass_desc_t *d = pyclass_desc(self->builtin.data);
	pyval_t *f = args->pos[0];
	const char *which = self->builtin.name;
	return pyclass_new_desc(I, at, PYCLASS_PROPERTY, which[0] == 'g' ? f : d->func,
	                        which[0] == 's' ? f : d->fset, which[0] == 'd' ? f : d->fdel, out);
}

static int pyclass_property_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v,
                                    const char *name, pyval_t **out)
{
	*out = NULL;
	pyclass_desc_t *d = pyclass_desc(v);
	if (!strcmp(name, "setter") || !strcmp(name, "getter") || !strcmp(name, "deleter")) {
		PYEVAL_RET(dalic_pybi_make_self(I, name, pyclass_property_with, v));
	}
	if (!strcmp(name, "fget"))
		*out = d->func ? d->func : dalic_pyval_none();
	else if (!strcmp(name, "fset"))
		*out = d->fset ? d->fset : dalic_pyval_none();
	else if (!strcmp(name, "__doc__"))
		*out = dalic_pyval_none();
	return DALIC_OK;
}

static int pyclass_desc_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
                                pyval_t **out)
{
	*out = NULL;
	if (!strcmp(name, "__func__"))
		*out = pyclass_desc(v)->func;
	return DALIC_OK;
}

/* staticmethod(f)(...) works in class bodies too (Python 3.10) */
static int pyclass_desc_call(pyinterp_t *I, const pynode_t *at, pyval_t *v, const pyargs_t *args,
                             pyval_t **out)
{
	pyclass_desc_t *d = pyclass_desc(v);
	if (d->kind != PYCLASS_STATICMETHOD)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: 'classmethod' object is not callable");
	return dalic_pyeval_call(I, at, d->func, args, out);
}

static const char *pyclass_desc_type_name(const pyval_t *v)
{
	return pyclass_desc(v)->kind == PYCLASS_CLASSMETHOD ? "classmethod" : "staticmethod";
}

static const pytype_t pyclass_desc_type = {
    .name = "staticmethod",
    .type_name = pyclass_desc_type_name,
    .getattr = pyclass_desc_getattr,
    .call = pyclass_desc_call,
    .get = pyclass_desc_get,
};

static const pytype_t pyclass_property_type = {
    .name = "property",
    .getattr = pyclass_property_getattr,
    .get = pyclass_desc_get,
    .set = pyclass_property_set,
};

static int pyclass_classmethod(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                               const pyargs_t *args, pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "classmethod", args, 1, 1));
	return pyclass_new_desc(I, at, PYCLASS_CLASSMETHOD, args->pos[0], NULL, NULL, out);
}

static int pyclass_staticmethod(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                const pyargs_t *args, pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "staticmethod", args, 1, 1));
	return pyclass_new_desc(I, at, PYCLASS_STATICMETHOD, args->pos[0], NULL, NULL, out);
}

static int pyclass_property(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	const char *names[] = {"fget", "fset", "fdel", "doc"};
	pyval_t *v[4];
	DALIC_TRY(dalic_pyeval_parse_args(I, at, "property", args, names, 0, 4, v));
	return pyclass_new_desc(I, at, PYCLASS_PROPERTY, v[0], v[1], v[2], out);
}

/* ---- binding and special attributes ------------------------------------------------------ */

int dalic_pyclass_bind(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t *obj,
                       pyclass_t *cls, pyval_t **out)
{
	if (v->kind == PV_HOST && v->host.type->get)
		return v->host.type->get(I, at, v, obj, cls, out);
	if (!obj) {
		*out = v;
		return DALIC_OK;
	}
	if (v->kind == PV_BUILTIN && v->builtin.method && !v->builtin.self) {
		pyval_t *b = dalic_pyval_new(I->a, PV_BUILTIN);
		if (!b)
			return dalic_pyeval_oom(I, at);
		b->builtin = v->builtin;
		b->builtin.self = obj;
		*out = b;
		return DALIC_OK;
	}
	if (v->kind != PV_FUNC) {
		*out = v;
		return DALIC_OK;
	}
	pyval_t *b = dalic_pyval_new(I->a, PV_BOUND);
	if (!b)
		return dalic_pyeval_oom(I, at);
	b->bound.self = obj;
	b->bound.func = v;
	*out = b;
	return DALIC_OK;
}

static int pyclass_bases_tuple(pyinterp_t *I, const pynode_t *at, pyclass_t *c, pyval_t **out)
{
	pyval_t *t = dalic_pyval_tuple(I->a, c->nbases);
	if (!t)
		return dalic_pyeval_oom(I, at);
	for (int i = 0; i < c->nbases; i++)
		if (!(t->tuple.items[i] = pyclass_class_value(I, c->bases[i])))
			return dalic_pyeval_oom(I, at);
	*out = t;
	return DALIC_OK;
}

int dalic_pyclass_special_attr(pyinterp_t *I, const pynode_t *at, pyval_t *obj, const char *name,
                               pyval_t **out)
{
	*out = NULL;
	if (name[0] != '_' || name[1] != '_')
		return DALIC_OK;
	pyclass_t *c = obj->kind == PV_CLASS ? obj->cls : obj->inst->cls;
	if (!strcmp(name, "__dict__")) {
		/* the live attribute table, as Python's instance __dict__ */
		pyval_t *d = dalic_pyval_new(I->a, PV_DICT);
		if (d)
			d->dict = obj->kind == PV_CLASS ? c->attrs : obj->inst->attrs;
		PYEVAL_RET(d);
	}
	if (!strcmp(name, "__class__"))
		PYEVAL_RET(obj->kind == PV_CLASS ? dalic_pydict_get_str(I->builtins, "type")
		                                 : pyclass_class_value(I, c));
	if (obj->kind != PV_CLASS)
		return DALIC_OK;
	if (!strcmp(name, "__name__") || !strcmp(name, "__qualname__"))
		PYEVAL_RET(dalic_pyval_cstr(I->a, c->name));
	if (!strcmp(name, "__module__"))
		PYEVAL_RET(dalic_pyval_cstr(I->a, c->module ? c->module : "__main__"));
	if (!strcmp(name, "__doc__")) {
		*out = dalic_pyval_none();
		return DALIC_OK;
	}
	if (!strcmp(name, "__bases__"))
		return pyclass_bases_tuple(I, at, c, out);
	return DALIC_OK;
}

int dalic_pyclass_annotate(pyinterp_t *I, pyclass_t *cls, const pynode_t *s)
{
	pyval_t *ann = dalic_pydict_get_str(cls->attrs, "__annotations__");
	if (!ann || ann->kind != PV_DICT) {
		if (!(ann = dalic_pyval_dict(I->a)) ||
		    dalic_pydict_set_str(I->a, cls->attrs, "__annotations__", ann))
			return dalic_pyeval_oom(I, s);
	}
	/* the leading name: ClassVar[int] -> "ClassVar", typing.ClassVar -> "ClassVar" */
	const pynode_t *a = s->ann.annotation;
	while (a && (a->kind == N_SUBSCRIPT || a->kind == N_CALL))
		a = a->kind == N_SUBSCRIPT ? a->sub.value : a->call.func;
	const char *head = !a                  ? ""
	                   : a->kind == N_NAME ? a->name
	                   : a->kind == N_ATTR ? a->attr.attr
	                   : a->kind == N_STR  ? a->str.s
	                                       : "";
	pyval_t *h = dalic_pyval_cstr(I->a, head);
	if (!h || dalic_pydict_set_str(I->a, ann->dict, s->ann.target->name, h))
		return dalic_pyeval_oom(I, s);
	return DALIC_OK;
}

pyval_t *dalic_pyclass_user_new(pyclass_t *cls)
{
	pyval_t *n = dalic_pyexec_class_lookup(cls, "__new__", NULL);
	if (n && pyclass_desc(n) && pyclass_desc(n)->kind == PYCLASS_STATICMETHOD)
		n = pyclass_desc(n)->func;
	return n && n->kind == PV_FUNC ? n : NULL;
}

int dalic_pyclass_set_descriptor(pyinterp_t *I, const pynode_t *at, pyval_t *obj,
                                 const char *name, pyval_t *value, bool *taken)
{
	*taken = false;
	pyval_t *d = dalic_pyexec_class_lookup(obj->inst->cls, name, NULL);
	if (!d || d->kind != PV_HOST || !d->host.type->set)
		return DALIC_OK;
	*taken = true;
	return d->host.type->set(I, at, d, obj, value);
}

int dalic_pyclass_dunder(pyinterp_t *I, const pynode_t *at, pyval_t *obj, const char *name,
                         pyval_t **args, int nargs, pyval_t **out, bool *found)
{
	*found = false;
	if (obj->kind != PV_INSTANCE)
		return DALIC_OK;
	pyclass_t *in;
	pyval_t *m = dalic_pyexec_class_lookup(obj->inst->cls, name, &in);
	if (!m || (m->kind != PV_FUNC && !(m->kind == PV_BUILTIN && m->builtin.method) &&
	           !(m->kind == PV_HOST && m->host.type->get)))
		return DALIC_OK;
	*found = true;
	pyval_t *bound;
	DALIC_TRY(dalic_pyclass_bind(I, at, m, obj, in, &bound));
	pyargs_t a = {.pos = args, .npos = nargs};
	return dalic_pyeval_call(I, at, bound, &a, out);
}

int dalic_pyclass_compare(pyinterp_t *I, const pynode_t *at, pycmp_t op, pyval_t *l, pyval_t *r,
                          pyval_t **out, bool *found)
{
	/* l.__op__(r), then the reflected r.__rop__(l) */
	static const char *const names[] = {"__eq__", "__ne__", "__lt__", "__le__",
	                                    "__gt__", "__ge__"};
	static const pycmp_t reflected[] = {CMP_EQ, CMP_NE, CMP_GT, CMP_GE, CMP_LT, CMP_LE};
	*found = false;
	if (op == CMP_IN || op == CMP_NOTIN) {
		DALIC_TRY(dalic_pyclass_dunder(I, at, r, "__contains__", &l, 1, out, found));
		if (*found && op == CMP_NOTIN) {
			bool t;
			DALIC_TRY(dalic_pyeval_truth(I, at, *out, &t));
			*out = dalic_pyval_bool(!t);
		}
		return DALIC_OK;
	}
	if (op > CMP_GE)
		return DALIC_OK;
	DALIC_TRY(dalic_pyclass_dunder(I, at, l, names[op], &r, 1, out, found));
	if (!*found)
		DALIC_TRY(dalic_pyclass_dunder(I, at, r, names[reflected[op]], &l, 1, out, found));
	if (!*found && op == CMP_NE) {
		/* __ne__ defaults to the negation of __eq__ */
		DALIC_TRY(dalic_pyclass_compare(I, at, CMP_EQ, l, r, out, found));
		if (*found) {
			bool t;
			DALIC_TRY(dalic_pyeval_truth(I, at, *out, &t));
			*out = dalic_pyval_bool(!t);
		}
	}
	return DALIC_OK;
}

int dalic_pyclass_truth(pyinterp_t *I, const pynode_t *at, pyval_t *v, bool *out, bool *found)
{
	pyval_t *r;
	DALIC_TRY(dalic_pyclass_dunder(I, at, v, "__bool__", NULL, 0, &r, found));
	if (*found) {
		if (r->kind != PV_BOOL)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "TypeError: __bool__ should return bool, returned %s",
			                          dalic_pyval_type_name(r));
		*out = r->b;
		return DALIC_OK;
	}
	int64_t n;
	DALIC_TRY(dalic_pyclass_len(I, at, v, &n, found));
	*out = !*found || n > 0;
	return DALIC_OK;
}

int dalic_pyclass_len(pyinterp_t *I, const pynode_t *at, pyval_t *v, int64_t *out, bool *found)
{
	pyval_t *r;
	DALIC_TRY(dalic_pyclass_dunder(I, at, v, "__len__", NULL, 0, &r, found));
	if (!*found)
		return DALIC_OK;
	if (!dalic_pyval_as_int(r, out))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: '%s' object cannot be interpreted as an integer",
		                          dalic_pyval_type_name(r));
	if (*out < 0)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "ValueError: __len__() should return >= 0");
	return DALIC_OK;
}

int dalic_pyclass_str(pyinterp_t *I, const pynode_t *at, pyval_t *v, bool repr, pyval_t **out,
                      bool *found)
{
	*found = false;
	if (!repr)
		DALIC_TRY(dalic_pyclass_dunder(I, at, v, "__str__", NULL, 0, out, found));
	if (!*found)
		DALIC_TRY(dalic_pyclass_dunder(I, at, v, "__repr__", NULL, 0, out, found));
	if (*found && (*out)->kind != PV_STR)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: __%s__ returned non-string (type %s)",
		                          repr ? "repr" : "str", dalic_pyval_type_name(*out));
	return DALIC_OK;
}

static bool pyclass_user_format(pybuf_t *b, const void *v, bool repr)
{
	pyclass_fmt_t *c = b->user_ctx;
	pyval_t *s;
	bool found;
	int rc = dalic_pyclass_str(c->I, c->at, (pyval_t *)v, repr, &s, &found);
	if (rc) {
		b->failed = rc;
		return true;
	}
	if (found)
		dalic_pybuf_put(b, s->str.s, s->str.len);
	return found;
}

void dalic_pyclass_format_hook(pybuf_t *b, pyclass_fmt_t *ctx)
{
	b->user_format = pyclass_user_format;
	b->user_ctx = ctx;
}

/* ---- issubclass, vars --------------------------------------------------------------------- */

static int pyclass_issubclass(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                              const pyargs_t *args, pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "issubclass", args, 2, 2));
	pyval_t *c = args->pos[0], *t = args->pos[1];
	if (c->kind == PV_OPAQUE || t->kind == PV_OPAQUE)
		return dalic_pybi_opaque_result(I, at, "issubclass", out);
	if (c->kind != PV_CLASS)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: issubclass() arg 1 must be a class");
	bool r = false;
	int n = t->kind == PV_TUPLE ? t->tuple.n : 1;
	for (int i = 0; i < n && !r; i++) {
		pyval_t *b = t->kind == PV_TUPLE ? t->tuple.items[i] : t;
		if (b->kind != PV_CLASS)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "TypeError: issubclass() arg 2 must be a class, "
			                          "a tuple of classes, or a union");
		r = dalic_pyclass_is_object(b->cls) || dalic_pyexec_is_subclass(c->cls, b->cls);
	}
	PYEVAL_RET(dalic_pyval_bool(r));
}

static int pyclass_vars(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                        pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "vars", args, 1, 1));
	pyval_t *v = args->pos[0];
	if (v->kind == PV_INSTANCE || v->kind == PV_CLASS)
		return dalic_pyclass_special_attr(I, at, v, "__dict__", out);
	if (v->kind == PV_MODULE) {
		pyval_t *d = dalic_pyval_new(I->a, PV_DICT);
		if (d)
			d->dict = v->mod->attrs;
		PYEVAL_RET(d);
	}
	if (v->kind == PV_OPAQUE)
		return dalic_pybi_opaque_result(I, at, "vars", out);
	return dalic_pyeval_error(I, at, DALIC_EINVAL,
	                          "TypeError: vars() argument must have __dict__ attribute");
}

int dalic_pyclass_open(pyinterp_t *I)
{
	pyclass_t *obj = dalic_pyexec_new_class(I, "object", "builtins");
	pyval_t *ov = obj ? pyclass_class_value(I, obj) : NULL;
	pyval_t *nw = dalic_pybi_make(I, "__new__", pyclass_object_new, NULL, NULL);
	if (!ov || !nw || dalic_pydict_set_str(I->a, I->builtins, "object", ov) ||
	    dalic_pydict_set_str(I->a, obj->attrs, "__new__", nw))
		return DALIC_ENOMEM;
	static const pyreg_t methods[] = {{"__init__", pyclass_object_init},
	                                  {"__setattr__", pyclass_object_setattr},
	                                  {NULL, NULL}};
	DALIC_TRY(dalic_pybi_register(I, obj->attrs, methods, true));
	static const pyreg_t fns[] = {
	    {"classmethod", pyclass_classmethod}, {"staticmethod", pyclass_staticmethod},
	    {"property", pyclass_property},       {"issubclass", pyclass_issubclass},
	    {"vars", pyclass_vars},               {NULL, NULL},
	};
	return dalic_pybi_register(I, I->builtins, fns, false);
}
