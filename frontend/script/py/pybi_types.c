/*
 * Python's built-in types and introspection for pipeline scripts: the constructors int,
 * float, str, bool, list, tuple, dict (also usable with isinstance), type(), isinstance,
 * callable, super, getattr / hasattr / setattr, repr, format, divmod, pow, ord, chr,
 * staticmethod, the exception classes (raise / except by name), and stand-ins for I/O
 * built-ins (open, input...) that return opaque values.
 */
#include "frontend/script/py/pystate.h"

#include <math.h>
#include <stdlib.h>
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

/* tags of the built-in types (isinstance, type()) carried in builtin.data */
enum { TT_NONE, TT_INT, TT_FLOAT, TT_STR, TT_BOOL, TT_LIST, TT_TUPLE, TT_DICT, TT_OBJECT };

#define TAG(t) ((void *)(intptr_t)(t))

static bool as_i64(const sv_t *v, int64_t *x)
{
	if (v->kind == SV_INT)
		*x = v->i;
	else if (v->kind == SV_BOOL)
		*x = v->b;
	else
		return false;
	return true;
}

/* ---- type constructors ---------------------------------------------------------------- */

static int parse_int_text(sinterp_t *I, const snode_t *at, const sv_t *s, int base, sv_t **out)
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
		return serr(I, at, DALIC_EINVAL,
		            "ValueError: invalid literal for int() with base %d: '%s'", base, buf);
	RET(sv_int(I->a, v));
}

static int construct(sinterp_t *I, const snode_t *at, int tag, const sargs_t *args, sv_t **out)
{
	sv_t *v = args->npos ? args->pos[0] : NULL;
	if (v && v->kind == SV_OPAQUE)
		return sb_opaque_result(I, at, "conversion", out);
	if (v && v->kind == SV_SCONST)
		v = v->sconst.value;
	switch (tag) {
	case TT_INT:
		TRY(args->nkw ? DALIC_OK : sb_nargs(I, at, "int", args, 0, 2));
		if (!v)
			RET(sv_int(I->a, 0));
		if (args->npos == 2 || v->kind == SV_STR) {
			int64_t base = 10;
			if (args->npos == 2 && !as_i64(args->pos[1], &base))
				return serr(I, at, DALIC_EINVAL,
				            "TypeError: int() base must be an int");
			if (v->kind != SV_STR)
				return serr(
				    I, at, DALIC_EINVAL,
				    "TypeError: int() can't convert non-string with explicit "
				    "base");
			return parse_int_text(I, at, v, (int)base, out);
		}
		if (v->kind == SV_INT || v->kind == SV_BOOL)
			RET(sv_int(I->a, v->kind == SV_BOOL ? v->b : v->i));
		if (v->kind == SV_FLOAT) {
			if (!(fabs(v->f) < 9.2e18))
				return serr(I, at, DALIC_EINVAL,
				            "OverflowError: cannot convert float to integer");
			RET(sv_int(I->a, (int64_t)v->f));
		}
		if (v->kind == SV_ENUM)
			RET(sv_int(I->a, v->en.value));
		break;
	case TT_FLOAT:
		TRY(sb_nargs(I, at, "float", args, 0, 1));
		if (!v)
			RET(sv_float(I->a, 0));
		if (sv_is_number(v))
			RET(sv_float(I->a, sv_as_double(v)));
		if (v->kind == SV_STR) {
			char buf[80], *end;
			snprintf(buf, sizeof buf, "%.*s", (int)(v->str.len < 79 ? v->str.len : 79),
			         v->str.s);
			double d = strtod(buf, &end);
			if (end == buf || *end)
				return serr(I, at, DALIC_EINVAL,
				            "ValueError: could not convert string to float: '%s'",
				            buf);
			RET(sv_float(I->a, d));
		}
		break;
	case TT_STR:
		if (!v)
			RET(sv_cstr(I->a, ""));
		return se_str(I, at, v, false, out);
	case TT_BOOL: {
		if (!v)
			RET(sv_false());
		bool t;
		TRY(se_truth(I, at, v, &t));
		RET(sv_bool(t));
	}
	case TT_LIST:
	case TT_TUPLE: {
		TRY(sb_nargs(I, at, tag == TT_LIST ? "list" : "tuple", args, 0, 1));
		sv_t **items = NULL;
		int n = 0;
		if (v)
			TRY(sb_items(I, at, v, &items, &n));
		if (tag == TT_TUPLE)
			RET(sb_tuple(I, items, n));
		sv_t *l = sv_list(I->a, n);
		if (!l)
			return serr_oom(I, at);
		for (int i = 0; i < n; i++)
			if (sv_list_append(I->a, l, items[i]))
				return serr_oom(I, at);
		RET(l);
	}
	case TT_DICT: {
		sv_t *d = sv_dict(I->a);
		if (!d)
			return serr_oom(I, at);
		if (v && v->kind == SV_DICT) {
			sv_t *k, *x;
			for (int it = 0; svdict_next(v->dict, &it, &k, &x);)
				if (svdict_set(I->a, d->dict, k, x))
					return serr_oom(I, at);
		} else if (v) {
			sv_t **items;
			int n;
			TRY(sb_items(I, at, v, &items, &n));
			for (int i = 0; i < n; i++) {
				sv_t **pair;
				int m;
				TRY(sb_items(I, at, items[i], &pair, &m));
				if (m != 2)
					return serr(
					    I, at, DALIC_EINVAL,
					    "ValueError: dictionary update sequence element "
					    "#%d has length %d; 2 is required",
					    i, m);
				if (svdict_set(I->a, d->dict, pair[0], pair[1]))
					return serr(I, at, DALIC_EINVAL,
					            "TypeError: unhashable type");
			}
		}
		for (int i = 0; i < args->nkw; i++)
			if (svdict_set_str(I->a, d->dict, args->kwnames[i], args->kwvals[i]))
				return serr_oom(I, at);
		RET(d);
	}
	case TT_OBJECT:
		RET(sv_opaque(I->a, "object()"));
	}
	return serr(I, at, DALIC_EINVAL, "TypeError: cannot convert '%s'",
	            v ? sv_type_name(v) : "");
}

#define CTOR(fname, tag)                                                                           \
	static int fname(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args,         \
	                 sv_t **out)                                                               \
	{                                                                                          \
		return construct(I, at, tag, args, out);                                           \
	}
CTOR(b_int, TT_INT)
CTOR(b_float, TT_FLOAT)
CTOR(b_str, TT_STR)
CTOR(b_bool, TT_BOOL)
CTOR(b_list, TT_LIST)
CTOR(b_tuple, TT_TUPLE)
CTOR(b_dict, TT_DICT)

static int b_object(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	RET(sv_opaque(I->a, "object()"));
}

static int b_none_type(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	RET(sv_none());
}

static const struct {
	const char *name;
	sbuiltin_fn fn;
} type_ctors[] = {
    [TT_NONE] = {"NoneType", b_none_type}, [TT_INT] = {"int", b_int},
    [TT_FLOAT] = {"float", b_float},       [TT_STR] = {"str", b_str},
    [TT_BOOL] = {"bool", b_bool},          [TT_LIST] = {"list", b_list},
    [TT_TUPLE] = {"tuple", b_tuple},       [TT_DICT] = {"dict", b_dict},
    [TT_OBJECT] = {"object", b_object},
};

static sv_t *type_value(sinterp_t *I, int tag)
{
	return sb_make(I, type_ctors[tag].name, type_ctors[tag].fn, NULL, TAG(tag));
}

static int tag_of(const sv_t *v)
{
	switch (v->kind) {
	case SV_NONE:
		return TT_NONE;
	case SV_INT:
		return TT_INT;
	case SV_FLOAT:
		return TT_FLOAT;
	case SV_STR:
		return TT_STR;
	case SV_BOOL:
		return TT_BOOL;
	case SV_LIST:
		return TT_LIST;
	case SV_TUPLE:
		return TT_TUPLE;
	case SV_DICT:
		return TT_DICT;
	default:
		return TT_OBJECT;
	}
}

static bool is_type_value(const sv_t *t)
{
	if (t->kind != SV_BUILTIN)
		return false;
	for (size_t i = 0; i < sizeof type_ctors / sizeof *type_ctors; i++)
		if (t->builtin.fn == type_ctors[i].fn)
			return true;
	return false;
}

static int b_type(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(sb_nargs(I, at, "type", args, 1, 1));
	sv_t *v = args->pos[0];
	if (v->kind == SV_INSTANCE) {
		sv_t *c = sv_new(I->a, SV_CLASS);
		if (c)
			c->cls = v->inst->cls;
		RET(c);
	}
	if (v->kind == SV_OPAQUE)
		RET(v);
	RET(type_value(I, tag_of(v)));
}

/* ---- introspection -------------------------------------------------------------------- */

static int instance_of(sinterp_t *I, const snode_t *at, sv_t *v, sv_t *t, bool *res)
{
	*res = false;
	if (t->kind == SV_TUPLE) {
		for (int i = 0; i < t->tuple.n && !*res; i++)
			TRY(instance_of(I, at, v, t->tuple.items[i], res));
		return DALIC_OK;
	}
	if (t->kind == SV_CLASS) {
		*res = v->kind == SV_INSTANCE && sx_is_subclass(v->inst->cls, t->cls);
		return DALIC_OK;
	}
	if (is_type_value(t)) {
		int tag = (int)(intptr_t)t->builtin.data;
		*res =
		    tag == TT_OBJECT || tag_of(v) == tag || (tag == TT_INT && v->kind == SV_BOOL);
		return DALIC_OK;
	}
	if (t->kind == SV_BUILTIN && !strcmp(t->builtin.name, "DataNode")) {
		*res = v->kind == SV_NODE;
		return DALIC_OK;
	}
	if (t->kind == SV_OPAQUE)
		return DALIC_OK;
	return serr(I, at, DALIC_EINVAL,
	            "TypeError: isinstance() arg 2 must be a type, a tuple of types, or a union");
}

static int b_isinstance(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args,
                        sv_t **out)
{
	TRY(sb_nargs(I, at, "isinstance", args, 2, 2));
	if (args->pos[0]->kind == SV_OPAQUE)
		RET(args->pos[0]);
	bool r;
	TRY(instance_of(I, at, args->pos[0], args->pos[1], &r));
	RET(sv_bool(r));
}

static int b_callable(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(sb_nargs(I, at, "callable", args, 1, 1));
	sv_kind_t k = args->pos[0]->kind;
	RET(sv_bool(k == SV_FUNC || k == SV_BUILTIN || k == SV_BOUND || k == SV_CLASS ||
	            k == SV_OPFN || k == SV_OPOBJ || k == SV_PIPEDEF || k == SV_OPAQUE));
}

static int b_super(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(sb_nargs(I, at, "super", args, 0, 2));
	sv_t *s = sv_new(I->a, SV_SUPER);
	if (!s)
		return serr_oom(I, at);
	if (args->npos == 2) {
		if (args->pos[0]->kind != SV_CLASS)
			return serr(I, at, DALIC_EINVAL,
			            "TypeError: super() argument 1 must be a type");
		s->super.cls = args->pos[0]->cls;
		s->super.self = args->pos[1];
	} else {
		sframe_t *f = I->frame;
		if (!f || !f->func || !f->func->owner || !f->self)
			return serr(I, at, DALIC_EINVAL, "RuntimeError: super(): no arguments");
		s->super.cls = f->func->owner;
		s->super.self = f->self;
	}
	RET(s);
}

static int b_getattr(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(sb_nargs(I, at, "getattr", args, 2, 3));
	if (args->pos[1]->kind != SV_STR)
		return serr(I, at, DALIC_EINVAL, "TypeError: attribute name must be string");
	if (args->npos == 2)
		return se_getattr(I, at, args->pos[0], args->pos[1]->str.s, out);
	TRY(se_getattr_opt(I, at, args->pos[0], args->pos[1]->str.s, out));
	if (!*out)
		*out = args->pos[2];
	return DALIC_OK;
}

static int b_hasattr(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(sb_nargs(I, at, "hasattr", args, 2, 2));
	if (args->pos[1]->kind != SV_STR)
		return serr(I, at, DALIC_EINVAL, "TypeError: attribute name must be string");
	sv_t *v;
	TRY(se_getattr_opt(I, at, args->pos[0], args->pos[1]->str.s, &v));
	RET(sv_bool(v != NULL));
}

static int b_setattr(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(sb_nargs(I, at, "setattr", args, 3, 3));
	if (args->pos[1]->kind != SV_STR)
		return serr(I, at, DALIC_EINVAL, "TypeError: attribute name must be string");
	*out = sv_none();
	return se_setattr(I, at, args->pos[0], args->pos[1]->str.s, args->pos[2]);
}

static int b_repr(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(sb_nargs(I, at, "repr", args, 1, 1));
	return se_str(I, at, args->pos[0], true, out);
}

static int b_format(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(sb_nargs(I, at, "format", args, 1, 2));
	const char *spec =
	    args->npos == 2 && args->pos[1]->kind == SV_STR ? args->pos[1]->str.s : "";
	sbuf_t b = {0};
	int rc = sf_format_spec(I, at, args->pos[0], spec, &b);
	if (!rc)
		*out = b.oom ? NULL : sv_str(I->a, b.s ? b.s : "", b.n);
	sbuf_free(&b);
	return rc ? rc : *out ? DALIC_OK : serr_oom(I, at);
}

static int b_divmod(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(sb_nargs(I, at, "divmod", args, 2, 2));
	sv_t *pair[2];
	TRY(se_binop(I, at, OP_DSLASH, args->pos[0], args->pos[1], &pair[0]));
	TRY(se_binop(I, at, OP_PERCENT, args->pos[0], args->pos[1], &pair[1]));
	RET(sb_tuple(I, pair, 2));
}

static int b_pow(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(sb_nargs(I, at, "pow", args, 2, 2));
	return se_binop(I, at, OP_DSTAR, args->pos[0], args->pos[1], out);
}

static int b_ord(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(sb_nargs(I, at, "ord", args, 1, 1));
	sv_t *v = args->pos[0];
	if (v->kind != SV_STR || v->str.len != 1)
		return serr(I, at, DALIC_EINVAL, "TypeError: ord() expected a character");
	RET(sv_int(I->a, (unsigned char)v->str.s[0]));
}

static int b_chr(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(sb_nargs(I, at, "chr", args, 1, 1));
	int64_t c;
	if (!as_i64(args->pos[0], &c) || c < 0 || c > 127)
		return serr(I, at, DALIC_EUNSUPPORTED,
		            "chr() of values outside ASCII is not supported");
	char ch = (char)c;
	RET(sv_str(I->a, &ch, 1));
}

static int b_opaque(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	RET(sv_opaque(I->a, "I/O or process control"));
}

static int b_staticmethod(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args,
                          sv_t **out);

static int call_static(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	return se_call(I, at, self, args, out);
}

static int b_staticmethod(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args,
                          sv_t **out)
{
	TRY(sb_nargs(I, at, "staticmethod", args, 1, 1));
	/* a built-in wrapper is never bound to the instance it is read from */
	RET(sb_make(I, "staticmethod", call_static, args->pos[0], NULL));
}

/* ---- exceptions ----------------------------------------------------------------------- */

svclass_t *sb_exception_class(sinterp_t *I, const char *name)
{
	sv_t *v = svdict_get_str(I->builtins, name);
	if (v && v->kind == SV_CLASS)
		return v->cls;
	svclass_t *c = script_arena_alloc(I->a, sizeof *c);
	sv_t *cv = sv_new(I->a, SV_CLASS);
	if (!c || !cv || !(c->attrs = svdict_new(I->a)))
		return NULL;
	c->name = name;
	c->exception = true;
	cv->cls = c;
	if (strcmp(name, "BaseException")) {
		svclass_t *base =
		    sb_exception_class(I, !strcmp(name, "Exception")             ? "BaseException"
		                          : !strcmp(name, "ModuleNotFoundError") ? "ImportError"
		                          : !strcmp(name, "FileNotFoundError")   ? "OSError"
		                                                                 : "Exception");
		c->bases = script_arena_alloc(I->a, sizeof *c->bases);
		if (!base || !c->bases)
			return NULL;
		c->bases[0] = base;
		c->nbases = 1;
	}
	return svdict_set_str(I->a, I->builtins, name, cv) ? NULL : c;
}

/* ---- registration --------------------------------------------------------------------- */

int sb_init_types(sinterp_t *I)
{
	static const struct {
		const char *name;
		sbuiltin_fn fn;
	} fns[] = {
	    {"isinstance", b_isinstance},
	    {"callable", b_callable},
	    {"super", b_super},
	    {"getattr", b_getattr},
	    {"hasattr", b_hasattr},
	    {"setattr", b_setattr},
	    {"repr", b_repr},
	    {"format", b_format},
	    {"divmod", b_divmod},
	    {"pow", b_pow},
	    {"ord", b_ord},
	    {"chr", b_chr},
	    {"type", b_type},
	    {"open", b_opaque},
	    {"input", b_opaque},
	    {"exit", b_opaque},
	    {"quit", b_opaque},
	    {"iter", b_opaque},
	    {"next", b_opaque},
	    {"id", b_opaque},
	    {"staticmethod", b_staticmethod},
	};
	for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) {
		sv_t *v = sb_make(I, fns[i].name, fns[i].fn, NULL, NULL);
		if (!v || svdict_set_str(I->a, I->builtins, fns[i].name, v))
			return DALIC_ENOMEM;
	}
	for (int t = TT_INT; t <= TT_OBJECT; t++) {
		sv_t *v = type_value(I, t);
		if (!v || svdict_set_str(I->a, I->builtins, type_ctors[t].name, v))
			return DALIC_ENOMEM;
	}
	static const char *exceptions[] = {
	    "BaseException",     "Exception",
	    "ValueError",        "TypeError",
	    "RuntimeError",      "KeyError",
	    "IndexError",        "AttributeError",
	    "NameError",         "NotImplementedError",
	    "ImportError",       "ModuleNotFoundError",
	    "StopIteration",     "AssertionError",
	    "ZeroDivisionError", "OSError",
	    "FileNotFoundError", "KeyboardInterrupt",
	};
	for (size_t i = 0; i < sizeof exceptions / sizeof *exceptions; i++)
		if (!sb_exception_class(I, exceptions[i]))
			return DALIC_ENOMEM;
	return DALIC_OK;
}
