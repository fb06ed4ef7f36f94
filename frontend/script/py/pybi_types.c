/*
 * Python's built-in types and introspection for pipeline scripts: the constructors int,
 * float, str, bool, list, tuple, dict (also usable with isinstance), type(), isinstance,
 * callable, super, getattr / hasattr / setattr, repr, format, divmod, pow, ord, chr,
 * and stand-ins for I/O
 * built-ins (open, input...) that return opaque values.
 */
#include "frontend/script/py/pybi.h"

#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyclass.h"
#include "frontend/script/py/pyexc.h"
#include "frontend/script/py/pyexec.h"
#include "frontend/script/py/pyiter.h"
#include "frontend/script/py/pyfmt.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* tags of the built-in types (isinstance, type()) carried in builtin.data */
enum { TT_NONE, TT_INT, TT_FLOAT, TT_STR, TT_BOOL, TT_LIST, TT_TUPLE, TT_DICT, TT_OBJECT };

#define TAG(t) ((void *)(intptr_t)(t))

/* ---- type constructors ---------------------------------------------------------------- */

static int pybi_parse_int_text(pyinterp_t *I, const pynode_t *at, const pyval_t *s, int base,
                               pyval_t **out)
{
	char buf[80];
	snprintf(buf, sizeof buf, "%.*s", (int)(s->str.len < 79 ? s->str.len : 79), s->str.s);
	char *p = buf, *end;
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	long long v = strtoll(p, &end, base);
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	if (end == p || *end)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL, "ValueError: invalid literal for int() with base %d: '%s'",
		    base, buf);
	PYEVAL_RET(dalic_pyval_int(I->a, v));
}

static int pybi_construct(pyinterp_t *I, const pynode_t *at, int tag, const pyargs_t *args,
                          pyval_t **out)
{
	pyval_t *v = args->npos ? args->pos[0] : NULL;
	if (v && v->kind == PV_OPAQUE)
		return dalic_pybi_opaque_result(I, at, "conversion", out);
	if (v && v->kind == PV_HOST && v->host.type->scalar && v->host.type->scalar(v))
		v = v->host.type->scalar(v);
	switch (tag) {
	case TT_INT:
		DALIC_TRY(args->nkw ? DALIC_OK : dalic_pybi_nargs(I, at, "int", args, 0, 2));
		if (!v)
			PYEVAL_RET(dalic_pyval_int(I->a, 0));
		if (args->npos == 2 || v->kind == PV_STR) {
			int64_t base = 10;
			if (args->npos == 2 && !dalic_pyval_as_int(args->pos[1], &base))
				return dalic_pyeval_error(I, at, DALIC_EINVAL,
				                          "TypeError: int() base must be an int");
			if (v->kind != PV_STR)
				return dalic_pyeval_error(
				    I, at, DALIC_EINVAL,
				    "TypeError: int() can't convert non-string with explicit "
				    "base");
			return pybi_parse_int_text(I, at, v, (int)base, out);
		}
		if (v->kind == PV_INT || v->kind == PV_BOOL)
			PYEVAL_RET(dalic_pyval_int(I->a, v->kind == PV_BOOL ? v->b : v->i));
		if (v->kind == PV_FLOAT) {
			if (!(fabs(v->f) < 9.2e18))
				return dalic_pyeval_error(
				    I, at, DALIC_EINVAL,
				    "OverflowError: cannot convert float to integer");
			PYEVAL_RET(dalic_pyval_int(I->a, (int64_t)v->f));
		}
		int64_t index;
		if (v->kind == PV_HOST && v->host.type->index && v->host.type->index(v, &index))
			PYEVAL_RET(dalic_pyval_int(I->a, index));
		break;
	case TT_FLOAT:
		DALIC_TRY(dalic_pybi_nargs(I, at, "float", args, 0, 1));
		if (!v)
			PYEVAL_RET(dalic_pyval_float(I->a, 0));
		if (dalic_pyval_is_number(v))
			PYEVAL_RET(dalic_pyval_float(I->a, dalic_pyval_as_double(v)));
		if (v->kind == PV_STR) {
			char buf[80], *end;
			snprintf(buf, sizeof buf, "%.*s", (int)(v->str.len < 79 ? v->str.len : 79),
			         v->str.s);
			double d = strtod(buf, &end);
			if (end == buf || *end)
				return dalic_pyeval_error(
				    I, at, DALIC_EINVAL,
				    "ValueError: could not convert string to float: '%s'", buf);
			PYEVAL_RET(dalic_pyval_float(I->a, d));
		}
		break;
	case TT_STR:
		if (!v)
			PYEVAL_RET(dalic_pyval_cstr(I->a, ""));
		return dalic_pyeval_str(I, at, v, false, out);
	case TT_BOOL: {
		if (!v)
			PYEVAL_RET(dalic_pyval_false());
		bool t;
		DALIC_TRY(dalic_pyeval_truth(I, at, v, &t));
		PYEVAL_RET(dalic_pyval_bool(t));
	}
	case TT_LIST:
	case TT_TUPLE: {
		DALIC_TRY(dalic_pybi_nargs(I, at, tag == TT_LIST ? "list" : "tuple", args, 0, 1));
		pyval_t **items = NULL;
		int n = 0;
		if (v)
			DALIC_TRY(dalic_pybi_items(I, at, v, &items, &n));
		if (tag == TT_TUPLE)
			PYEVAL_RET(dalic_pybi_tuple(I, items, n));
		pyval_t *l = dalic_pyval_list(I->a, n);
		if (!l)
			return dalic_pyeval_oom(I, at);
		for (int i = 0; i < n; i++)
			if (dalic_pyval_list_append(I->a, l, items[i]))
				return dalic_pyeval_oom(I, at);
		PYEVAL_RET(l);
	}
	case TT_DICT: {
		pyval_t *d = dalic_pyval_dict(I->a);
		if (!d)
			return dalic_pyeval_oom(I, at);
		if (v && v->kind == PV_DICT) {
			pyval_t *k, *x;
			for (int it = 0; dalic_pydict_next(v->dict, &it, &k, &x);)
				if (dalic_pydict_set(I->a, d->dict, k, x))
					return dalic_pyeval_oom(I, at);
		} else if (v) {
			pyval_t **items;
			int n;
			DALIC_TRY(dalic_pybi_items(I, at, v, &items, &n));
			for (int i = 0; i < n; i++) {
				pyval_t **pair;
				int m;
				DALIC_TRY(dalic_pybi_items(I, at, items[i], &pair, &m));
				if (m != 2)
					return dalic_pyeval_error(
					    I, at, DALIC_EINVAL,
					    "ValueError: dictionary update sequence element "
					    "#%d has length %d; 2 is required",
					    i, m);
				if (dalic_pydict_set(I->a, d->dict, pair[0], pair[1]))
					return dalic_pyeval_error(I, at, DALIC_EINVAL,
					                          "TypeError: unhashable type");
			}
		}
		for (int i = 0; i < args->nkw; i++)
			if (dalic_pydict_set_str(I->a, d->dict, args->kwnames[i], args->kwvals[i]))
				return dalic_pyeval_oom(I, at);
		PYEVAL_RET(d);
	}
	case TT_OBJECT:
		PYEVAL_RET(dalic_pyval_opaque(I->a, "object()"));
	}
	return dalic_pyeval_error(I, at, DALIC_EINVAL, "TypeError: cannot convert '%s'",
	                          v ? dalic_pyval_type_name(v) : "");
}

#define CTOR(fname, tag)                                                                           \
	static int fname(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,   \
	                 pyval_t **out)                                                            \
	{                                                                                          \
		return pybi_construct(I, at, tag, args, out);                                      \
	}
CTOR(pybi_int, TT_INT)
CTOR(pybi_float, TT_FLOAT)
CTOR(pybi_str, TT_STR)
CTOR(pybi_bool, TT_BOOL)
CTOR(pybi_list, TT_LIST)
CTOR(pybi_tuple, TT_TUPLE)
CTOR(pybi_dict, TT_DICT)

static int pybi_object(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                       pyval_t **out)
{
	PYEVAL_RET(dalic_pyval_opaque(I->a, "object()"));
}

static int pybi_none_type(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	PYEVAL_RET(dalic_pyval_none());
}

static const struct {
	const char *name;
	pycfn_t fn;
} type_ctors[] = {
    [TT_NONE] = {"NoneType", pybi_none_type}, [TT_INT] = {"int", pybi_int},
    [TT_FLOAT] = {"float", pybi_float},       [TT_STR] = {"str", pybi_str},
    [TT_BOOL] = {"bool", pybi_bool},          [TT_LIST] = {"list", pybi_list},
    [TT_TUPLE] = {"tuple", pybi_tuple},       [TT_DICT] = {"dict", pybi_dict},
    [TT_OBJECT] = {"object", pybi_object},
};

static pyval_t *pybi_type_value(pyinterp_t *I, int tag)
{
	return dalic_pybi_make(I, type_ctors[tag].name, type_ctors[tag].fn, NULL, TAG(tag));
}

static int pybi_tag_of(const pyval_t *v)
{
	switch (v->kind) {
	case PV_NONE:
		return TT_NONE;
	case PV_INT:
		return TT_INT;
	case PV_FLOAT:
		return TT_FLOAT;
	case PV_STR:
		return TT_STR;
	case PV_BOOL:
		return TT_BOOL;
	case PV_LIST:
		return TT_LIST;
	case PV_TUPLE:
		return TT_TUPLE;
	case PV_DICT:
		return TT_DICT;
	default:
		return TT_OBJECT;
	}
}

static bool pybi_is_type_value(const pyval_t *t)
{
	if (t->kind != PV_BUILTIN)
		return false;
	for (size_t i = 0; i < sizeof type_ctors / sizeof *type_ctors; i++)
		if (t->builtin.fn == type_ctors[i].fn)
			return true;
	return false;
}

static int pybi_type(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                     pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "type", args, 1, 1));
	pyval_t *v = args->pos[0];
	if (v->kind == PV_INSTANCE) {
		pyval_t *c = dalic_pyval_new(I->a, PV_CLASS);
		if (c)
			c->cls = v->inst->cls;
		PYEVAL_RET(c);
	}
	if (v->kind == PV_OPAQUE)
		PYEVAL_RET(v);
	if (v->kind == PV_HOST) {
		/* named after the host type; isinstance(x, type(v)) works through type_of */
		pyval_t *t = dalic_pybi_make(I, dalic_pyval_type_name(v), pybi_object, NULL,
		                             TAG(TT_OBJECT));
		if (t)
			t->builtin.type_of = v->host.type;
		PYEVAL_RET(t);
	}
	PYEVAL_RET(pybi_type_value(I, pybi_tag_of(v)));
}

/* ---- introspection -------------------------------------------------------------------- */

static int pybi_instance_of(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t *t, bool *res)
{
	*res = false;
	if (t->kind == PV_TUPLE) {
		for (int i = 0; i < t->tuple.n && !*res; i++)
			DALIC_TRY(pybi_instance_of(I, at, v, t->tuple.items[i], res));
		return DALIC_OK;
	}
	if (t->kind == PV_CLASS) {
		*res = dalic_pyclass_is_object(t->cls) ||
		       (v->kind == PV_INSTANCE && dalic_pyexec_is_subclass(v->inst->cls, t->cls));
		return DALIC_OK;
	}
	if (pybi_is_type_value(t)) {
		int tag = (int)(intptr_t)t->builtin.data;
		*res = tag == TT_OBJECT || pybi_tag_of(v) == tag ||
		       (tag == TT_INT && v->kind == PV_BOOL);
		return DALIC_OK;
	}
	if (t->kind == PV_BUILTIN && t->builtin.type_of) {
		*res = dalic_pyval_is(v, t->builtin.type_of);
		return DALIC_OK;
	}
	if (t->kind == PV_OPAQUE)
		return DALIC_OK;
	return dalic_pyeval_error(
	    I, at, DALIC_EINVAL,
	    "TypeError: isinstance() arg 2 must be a type, a tuple of types, or a union");
}

static int pybi_isinstance(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "isinstance", args, 2, 2));
	if (args->pos[0]->kind == PV_OPAQUE)
		PYEVAL_RET(args->pos[0]);
	bool r;
	DALIC_TRY(pybi_instance_of(I, at, args->pos[0], args->pos[1], &r));
	PYEVAL_RET(dalic_pyval_bool(r));
}

static int pybi_callable(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                         pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "callable", args, 1, 1));
	pyval_t *v = args->pos[0];
	pyval_kind_t k = v->kind;
	PYEVAL_RET(dalic_pyval_bool(k == PV_FUNC || k == PV_BUILTIN || k == PV_BOUND ||
	                            k == PV_CLASS || k == PV_OPAQUE ||
	                            (k == PV_HOST && v->host.type->call)));
}

static int pybi_super(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                      pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "super", args, 0, 2));
	pyval_t *s = dalic_pyval_new(I->a, PV_SUPER);
	if (!s)
		return dalic_pyeval_oom(I, at);
	if (args->npos == 2) {
		if (args->pos[0]->kind != PV_CLASS)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "TypeError: super() argument 1 must be a type");
		s->super.cls = args->pos[0]->cls;
		s->super.self = args->pos[1];
	} else {
		pyframe_t *f = I->frame;
		if (!f || !f->func || !f->func->owner || !f->self)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "RuntimeError: super(): no arguments");
		s->super.cls = f->func->owner;
		s->super.self = f->self;
	}
	PYEVAL_RET(s);
}

/* The attribute, or *out NULL when there is none or reading it raises AttributeError (what
 * getattr() with a default and hasattr() see). */
static int pybi_getattr_or_null(pyinterp_t *I, const pynode_t *at, pyval_t *obj, const char *name,
                                pyval_t **out)
{
	int rc = dalic_pyeval_getattr_opt(I, at, obj, name, out);
	if (rc < 0 && dalic_pyexc_pending_is(I, "AttributeError")) {
		dalic_pyexc_clear(I);
		*out = NULL;
		return DALIC_OK;
	}
	return rc;
}

static int pybi_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                        pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "getattr", args, 2, 3));
	if (args->pos[1]->kind != PV_STR)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: attribute name must be string");
	if (args->npos == 2)
		return dalic_pyeval_getattr(I, at, args->pos[0], args->pos[1]->str.s, out);
	DALIC_TRY(pybi_getattr_or_null(I, at, args->pos[0], args->pos[1]->str.s, out));
	if (!*out)
		*out = args->pos[2];
	return DALIC_OK;
}

static int pybi_hasattr(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                        pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "hasattr", args, 2, 2));
	if (args->pos[1]->kind != PV_STR)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: attribute name must be string");
	pyval_t *v;
	DALIC_TRY(pybi_getattr_or_null(I, at, args->pos[0], args->pos[1]->str.s, &v));
	PYEVAL_RET(dalic_pyval_bool(v != NULL));
}

static int pybi_setattr(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                        pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "setattr", args, 3, 3));
	if (args->pos[1]->kind != PV_STR)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: attribute name must be string");
	*out = dalic_pyval_none();
	return dalic_pyeval_setattr(I, at, args->pos[0], args->pos[1]->str.s, args->pos[2]);
}

static int pybi_repr(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                     pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "repr", args, 1, 1));
	return dalic_pyeval_str(I, at, args->pos[0], true, out);
}

static int pybi_format(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                       pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "format", args, 1, 2));
	const char *spec =
	    args->npos == 2 && args->pos[1]->kind == PV_STR ? args->pos[1]->str.s : "";
	pybuf_t b = {0};
	int rc = dalic_pyfmt_spec(I, at, args->pos[0], spec, &b);
	if (!rc)
		*out = b.oom ? NULL : dalic_pyval_str(I->a, b.s ? b.s : "", b.n);
	dalic_pybuf_free(&b);
	return rc ? rc : *out ? DALIC_OK : dalic_pyeval_oom(I, at);
}

static int pybi_divmod(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                       pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "divmod", args, 2, 2));
	pyval_t *pair[2];
	DALIC_TRY(dalic_pyeval_binop(I, at, OP_DSLASH, args->pos[0], args->pos[1], &pair[0]));
	DALIC_TRY(dalic_pyeval_binop(I, at, OP_PERCENT, args->pos[0], args->pos[1], &pair[1]));
	PYEVAL_RET(dalic_pybi_tuple(I, pair, 2));
}

static int pybi_pow(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                    pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "pow", args, 2, 2));
	return dalic_pyeval_binop(I, at, OP_DSTAR, args->pos[0], args->pos[1], out);
}

static int pybi_ord(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                    pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "ord", args, 1, 1));
	pyval_t *v = args->pos[0];
	if (v->kind != PV_STR)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "TypeError: ord() expected string of length 1, but %s found",
		    dalic_pyval_type_name(v));
	const unsigned char *s = (const unsigned char *)v->str.s;
	size_t chars = dalic_pybuf_utf8_chars(v->str.s, v->str.len);
	if (chars != 1 || v->str.len > 4) /* (more bytes: not UTF-8) */
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: ord() expected a character, but string of "
		                          "length %zu found",
		                          chars);
	int n = (int)v->str.len;
	int64_t c = n == 1 ? s[0] : s[0] & (0x7F >> n);
	for (int i = 1; i < n; i++)
		c = c << 6 | (s[i] & 0x3F);
	PYEVAL_RET(dalic_pyval_int(I->a, c));
}

static int pybi_chr(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                    pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "chr", args, 1, 1));
	int64_t c;
	if (!dalic_pyval_as_int(args->pos[0], &c))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: 'chr' requires an integer, not '%s'",
		                          dalic_pyval_type_name(args->pos[0]));
	if (c < 0 || c > 0x10FFFF)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "ValueError: chr() arg not in range(0x110000)");
	if (c >= 0xD800 && c <= 0xDFFF) /* UTF-8 text cannot hold a lone surrogate */
		return dalic_pyeval_limit(I, at, "chr() of a surrogate is not supported");
	char u[4];
	PYEVAL_RET(dalic_pyval_str(I->a, u, (size_t)dalic_pybuf_utf8_encode(u, (uint32_t)c)));
}

static int pybi_opaque(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                       pyval_t **out)
{
	PYEVAL_RET(dalic_pyval_opaque(I->a, "I/O or process control"));
}

/* ---- registration --------------------------------------------------------------------- */

int dalic_pybi_open_types(pyinterp_t *I)
{
	static const pyreg_t fns[] = {
	    {"isinstance", pybi_isinstance},
	    {"callable", pybi_callable},
	    {"super", pybi_super},
	    {"getattr", pybi_getattr},
	    {"hasattr", pybi_hasattr},
	    {"setattr", pybi_setattr},
	    {"repr", pybi_repr},
	    {"format", pybi_format},
	    {"divmod", pybi_divmod},
	    {"pow", pybi_pow},
	    {"ord", pybi_ord},
	    {"chr", pybi_chr},
	    {"type", pybi_type},
	    {"open", pybi_opaque},
	    {"input", pybi_opaque},
	    {"exit", pybi_opaque},
	    {"quit", pybi_opaque},
	    {"id", pybi_opaque},
	    {NULL, NULL},
	};
	DALIC_TRY(dalic_pybi_register(I, I->builtins, fns, false));
	for (int t = TT_INT; t <= TT_OBJECT; t++) {
		pyval_t *v = pybi_type_value(I, t);
		if (!v || dalic_pydict_set_str(I->a, I->builtins, type_ctors[t].name, v))
			return DALIC_ENOMEM;
	}
	DALIC_TRY(dalic_pyclass_open(I));
	DALIC_TRY(dalic_pyiter_open_builtins(I));
	return dalic_pyexc_open(I);
}
