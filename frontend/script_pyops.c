/*
 * Python operators and protocols on evaluator values: truth, arithmetic and comparison
 * (64-bit ints with overflow detected, floats, str / list / tuple concatenation and
 * repetition), attribute and item access, calls and iteration. A DataNode operand hands the
 * operator to script_arith.c (DALI's ArithmeticGenericOp); an opaque operand makes an opaque
 * result so display-only code can run past values dalic does not model.
 */
#include "frontend/script_interp.h"

#include <math.h>
#include <string.h>

#define TRY(x)                                                                                 \
	do {                                                                                   \
		int rc_ = (x);                                                                 \
		if (rc_)                                                                       \
			return rc_;                                                            \
	} while (0)

static const char *DATANODE_BOOL_ERROR =
	"TypeError: \"DataNode\" was used in conditional context - it might have been used in "
	"truth evaluation for `if` statement, logical expression or cast to a boolean. To use "
	"conditional execution via `if` statements you need to specify `enable_conditionals=True` "
	"in `@nvidia.dali.pipeline_def` decorator. You can read more about conditional execution "
	"in specific section of the Pipeline documentation. Bool conversion can be achieved with "
	"the `cast` operator.";

int se_truth(sinterp_t *I, const snode_t *at, sv_t *v, bool *out)
{
	switch (v->kind) {
	case SV_NONE: *out = false; return DALIC_OK;
	case SV_BOOL: *out = v->b; return DALIC_OK;
	case SV_INT: *out = v->i != 0; return DALIC_OK;
	case SV_FLOAT: *out = v->f != 0; return DALIC_OK;
	case SV_STR: *out = v->str.len > 0; return DALIC_OK;
	case SV_TUPLE: *out = v->tuple.n > 0; return DALIC_OK;
	case SV_LIST: *out = v->list->n > 0; return DALIC_OK;
	case SV_DICT: *out = svdict_len(v->dict) > 0; return DALIC_OK;
	case SV_NODE: return serr(I, at, DALIC_EINVAL, "%s", DATANODE_BOOL_ERROR);
	case SV_SCONST: return se_truth(I, at, v->sconst.value, out);
	case SV_OPAQUE: return serr_opaque(I, at, v, "cannot decide the truth value");
	case SV_UNDEF:
		return serr(I, at, DALIC_EINVAL, "NameError: '%s' is not defined", v->undef.name);
	default: *out = true; return DALIC_OK;
	}
}

/* ---- arithmetic on Python values ------------------------------------------------------ */

static bool as_int(const sv_t *v, int64_t *x)
{
	if (v->kind == SV_INT)
		*x = v->i;
	else if (v->kind == SV_BOOL)
		*x = v->b;
	else
		return false;
	return true;
}

static int overflow(sinterp_t *I, const snode_t *at)
{
	return serr(I, at, DALIC_EUNSUPPORTED, "integer overflow (dalic supports 64-bit integers)");
}

static int int_op(sinterp_t *I, const snode_t *at, script_op_t op, int64_t a, int64_t b,
		  sv_t **out)
{
	int64_t r;
	switch (op) {
	case OP_PLUS:
		if (__builtin_add_overflow(a, b, &r))
			return overflow(I, at);
		break;
	case OP_MINUS:
		if (__builtin_sub_overflow(a, b, &r))
			return overflow(I, at);
		break;
	case OP_STAR:
		if (__builtin_mul_overflow(a, b, &r))
			return overflow(I, at);
		break;
	case OP_SLASH:
		if (!b)
			return serr(I, at, DALIC_EINVAL, "ZeroDivisionError: division by zero");
		*out = sv_float(I->a, (double)a / (double)b);
		return *out ? DALIC_OK : serr_oom(I, at);
	case OP_DSLASH:
	case OP_PERCENT:
		if (!b)
			return serr(I, at, DALIC_EINVAL,
				    "ZeroDivisionError: integer division or modulo by zero");
		if (a == INT64_MIN && b == -1)
			return overflow(I, at);
		{
			int64_t q = a / b, m = a % b;
			if (m && ((m < 0) != (b < 0))) { /* Python floors toward negative infinity */
				q--;
				m += b;
			}
			r = op == OP_DSLASH ? q : m;
		}
		break;
	case OP_DSTAR:
		if (b < 0) {
			if (!a)
				return serr(I, at, DALIC_EINVAL,
					    "ZeroDivisionError: 0.0 cannot be raised to a negative "
					    "power");
			*out = sv_float(I->a, pow((double)a, (double)b));
			return *out ? DALIC_OK : serr_oom(I, at);
		}
		r = 1;
		for (int64_t base = a, e = b; e; e >>= 1) {
			if ((e & 1) && __builtin_mul_overflow(r, base, &r))
				return overflow(I, at);
			if (e > 1 && __builtin_mul_overflow(base, base, &base))
				return overflow(I, at);
		}
		break;
	case OP_LSHIFT:
		if (b < 0)
			return serr(I, at, DALIC_EINVAL, "ValueError: negative shift count");
		if (b >= 63 || (a && (a > (INT64_MAX >> b) || a < (INT64_MIN >> b))))
			return a ? overflow(I, at) : (*out = sv_int(I->a, 0), DALIC_OK);
		r = (int64_t)((uint64_t)a << b);
		break;
	case OP_RSHIFT:
		if (b < 0)
			return serr(I, at, DALIC_EINVAL, "ValueError: negative shift count");
		r = b >= 64 ? (a < 0 ? -1 : 0) : a >> b;
		break;
	case OP_AMP: r = a & b; break;
	case OP_PIPE: r = a | b; break;
	case OP_CARET: r = a ^ b; break;
	default: return 1; /* not an int operator */
	}
	*out = sv_int(I->a, r);
	return *out ? DALIC_OK : serr_oom(I, at);
}

static int float_op(sinterp_t *I, const snode_t *at, script_op_t op, double a, double b,
		    sv_t **out)
{
	double r;
	switch (op) {
	case OP_PLUS: r = a + b; break;
	case OP_MINUS: r = a - b; break;
	case OP_STAR: r = a * b; break;
	case OP_SLASH:
		if (b == 0)
			return serr(I, at, DALIC_EINVAL, "ZeroDivisionError: float division by zero");
		r = a / b;
		break;
	case OP_DSLASH:
	case OP_PERCENT:
		if (b == 0)
			return serr(I, at, DALIC_EINVAL, "ZeroDivisionError: float %s",
				    op == OP_DSLASH ? "floor division by zero" : "modulo");
		if (op == OP_DSLASH) {
			r = floor(a / b);
		} else {
			r = fmod(a, b);
			if (r && ((r < 0) != (b < 0)))
				r += b;
		}
		break;
	case OP_DSTAR:
		if (a == 0 && b < 0)
			return serr(I, at, DALIC_EINVAL,
				    "ZeroDivisionError: 0.0 cannot be raised to a negative power");
		r = pow(a, b);
		break;
	default: return 1;
	}
	*out = sv_float(I->a, r);
	return *out ? DALIC_OK : serr_oom(I, at);
}

static int seq_repeat(sinterp_t *I, const snode_t *at, sv_t *seq, int64_t times, sv_t **out)
{
	if (times < 0)
		times = 0;
	if (seq->kind == SV_STR) {
		if (seq->str.len && times > (int64_t)((1 << 28) / seq->str.len))
			return serr(I, at, DALIC_EUNSUPPORTED, "string repetition too large");
		size_t n = seq->str.len * (size_t)times;
		char *s = script_arena_alloc(I->a, n + 1);
		if (!s)
			return serr_oom(I, at);
		for (int64_t i = 0; i < times; i++)
			memcpy(s + (size_t)i * seq->str.len, seq->str.s, seq->str.len);
		*out = sv_new(I->a, SV_STR);
		if (!*out)
			return serr_oom(I, at);
		(*out)->str.s = s;
		(*out)->str.len = n;
		return DALIC_OK;
	}
	sv_t **items = seq->kind == SV_LIST ? seq->list->items : seq->tuple.items;
	int n = seq->kind == SV_LIST ? seq->list->n : seq->tuple.n;
	if (n && times > (1 << 24) / n)
		return serr(I, at, DALIC_EUNSUPPORTED, "sequence repetition too large");
	int total = n * (int)times;
	sv_t *r = seq->kind == SV_LIST ? sv_list(I->a, total) : sv_tuple(I->a, total);
	if (!r)
		return serr_oom(I, at);
	for (int64_t t = 0; t < times; t++)
		for (int i = 0; i < n; i++) {
			if (seq->kind == SV_LIST) {
				if (sv_list_append(I->a, r, items[i]))
					return serr_oom(I, at);
			} else {
				r->tuple.items[t * n + i] = items[i];
			}
		}
	*out = r;
	return DALIC_OK;
}

static int seq_concat(sinterp_t *I, const snode_t *at, sv_t *l, sv_t *r, sv_t **out)
{
	if (l->kind == SV_STR) {
		size_t n = l->str.len + r->str.len;
		char *s = script_arena_alloc(I->a, n + 1);
		*out = sv_new(I->a, SV_STR);
		if (!s || !*out)
			return serr_oom(I, at);
		memcpy(s, l->str.s, l->str.len);
		memcpy(s + l->str.len, r->str.s, r->str.len);
		(*out)->str.s = s;
		(*out)->str.len = n;
		return DALIC_OK;
	}
	if (l->kind == SV_LIST) {
		sv_t *res = sv_list(I->a, l->list->n + r->list->n);
		if (!res)
			return serr_oom(I, at);
		for (int i = 0; i < l->list->n; i++)
			if (sv_list_append(I->a, res, l->list->items[i]))
				return serr_oom(I, at);
		for (int i = 0; i < r->list->n; i++)
			if (sv_list_append(I->a, res, r->list->items[i]))
				return serr_oom(I, at);
		*out = res;
		return DALIC_OK;
	}
	sv_t *res = sv_tuple(I->a, l->tuple.n + r->tuple.n);
	if (!res)
		return serr_oom(I, at);
	memcpy(res->tuple.items, l->tuple.items, sizeof(sv_t *) * (size_t)l->tuple.n);
	memcpy(res->tuple.items + l->tuple.n, r->tuple.items, sizeof(sv_t *) * (size_t)r->tuple.n);
	*out = res;
	return DALIC_OK;
}

int se_binop(sinterp_t *I, const snode_t *at, script_op_t op, sv_t *l, sv_t *r, sv_t **out)
{
	if (l->kind == SV_OPAQUE || r->kind == SV_OPAQUE) {
		*out = l->kind == SV_OPAQUE ? l : r;
		return DALIC_OK;
	}
	bool node = l->kind == SV_NODE || r->kind == SV_NODE ||
		    (l->kind == SV_SCONST && r->kind == SV_SCONST);
	if (node) {
		const char *name = sa_binop_name(op);
		if (name) {
			sv_t *in[2] = {l, r};
			return sa_arith(I, at, name, in, 2, out);
		}
	} else {
		if (l->kind == SV_SCONST)
			l = l->sconst.value;
		if (r->kind == SV_SCONST)
			r = r->sconst.value;
		int64_t a, b;
		if (as_int(l, &a) && as_int(r, &b)) {
			/* bool op bool stays bool for the bitwise operators */
			if (l->kind == SV_BOOL && r->kind == SV_BOOL &&
			    (op == OP_AMP || op == OP_PIPE || op == OP_CARET)) {
				*out = sv_bool(op == OP_AMP ? (a & b) : op == OP_PIPE ? (a | b) : (a ^ b));
				return DALIC_OK;
			}
			int rc = int_op(I, at, op, a, b, out);
			if (rc <= 0)
				return rc;
		} else if (sv_is_number(l) && sv_is_number(r)) {
			int rc = float_op(I, at, op, sv_as_double(l), sv_as_double(r), out);
			if (rc <= 0)
				return rc;
		} else if (op == OP_PLUS && l->kind == r->kind &&
			   (l->kind == SV_STR || l->kind == SV_LIST || l->kind == SV_TUPLE)) {
			return seq_concat(I, at, l, r, out);
		} else if (op == OP_STAR && (l->kind == SV_STR || l->kind == SV_LIST ||
					     l->kind == SV_TUPLE) && as_int(r, &b)) {
			return seq_repeat(I, at, l, b, out);
		} else if (op == OP_STAR && (r->kind == SV_STR || r->kind == SV_LIST ||
					     r->kind == SV_TUPLE) && as_int(l, &a)) {
			return seq_repeat(I, at, r, a, out);
		} else if (op == OP_PERCENT && l->kind == SV_STR) {
			return sf_percent(I, at, l, r, out);
		} else if (op == OP_PIPE && l->kind == SV_DICT && r->kind == SV_DICT) {
			sv_t *d = sv_dict(I->a), *k, *v;
			if (!d)
				return serr_oom(I, at);
			for (int it = 0; svdict_next(l->dict, &it, &k, &v);)
				if (svdict_set(I->a, d->dict, k, v))
					return serr_oom(I, at);
			for (int it = 0; svdict_next(r->dict, &it, &k, &v);)
				if (svdict_set(I->a, d->dict, k, v))
					return serr_oom(I, at);
			*out = d;
			return DALIC_OK;
		}
	}
	return serr(I, at, DALIC_EINVAL,
		    "TypeError: unsupported operand type(s) for %s: '%s' and '%s'",
		    script_op_text(op), sv_type_name(l), sv_type_name(r));
}

/* ---- comparison ----------------------------------------------------------------------- */

static const char *cmp_text(scmp_t op)
{
	static const char *t[] = {"==", "!=", "<", "<=", ">", ">=", "in", "not in", "is", "is not"};
	return t[op];
}

/* Three-way ordering of Python values; false when they are not orderable. */
static bool order(const sv_t *l, const sv_t *r, int *c)
{
	if (sv_is_number(l) && sv_is_number(r)) {
		double a = sv_as_double(l), b = sv_as_double(r);
		int64_t x, y;
		if (l->kind != SV_FLOAT && r->kind != SV_FLOAT) {
			x = l->kind == SV_BOOL ? l->b : l->i;
			y = r->kind == SV_BOOL ? r->b : r->i;
			*c = x < y ? -1 : x > y;
		} else {
			*c = a < b ? -1 : a > b ? 1 : 0;
		}
		return true;
	}
	if (l->kind != r->kind)
		return false;
	if (l->kind == SV_STR) {
		size_t n = l->str.len < r->str.len ? l->str.len : r->str.len;
		int m = memcmp(l->str.s, r->str.s, n);
		*c = m ? (m < 0 ? -1 : 1) : (l->str.len < r->str.len ? -1 : l->str.len > r->str.len);
		return true;
	}
	if (l->kind == SV_TUPLE || l->kind == SV_LIST) {
		sv_t **a = l->kind == SV_LIST ? l->list->items : l->tuple.items;
		sv_t **b = r->kind == SV_LIST ? r->list->items : r->tuple.items;
		int na = l->kind == SV_LIST ? l->list->n : l->tuple.n;
		int nb = r->kind == SV_LIST ? r->list->n : r->tuple.n;
		for (int i = 0; i < na && i < nb; i++) {
			if (sv_equal(a[i], b[i]))
				continue;
			return order(a[i], b[i], c);
		}
		*c = na < nb ? -1 : na > nb;
		return true;
	}
	return false;
}

int se_compare(sinterp_t *I, const snode_t *at, scmp_t op, sv_t *l, sv_t *r, sv_t **out)
{
	if (l->kind == SV_OPAQUE || r->kind == SV_OPAQUE) {
		*out = l->kind == SV_OPAQUE ? l : r;
		return DALIC_OK;
	}
	if (op == CMP_IS || op == CMP_ISNOT) {
		/* singletons and objects compare by identity; numbers and strings are values */
		bool same = l == r;
		if (!same && l->kind == r->kind) {
			switch (l->kind) {
			case SV_NONE:
			case SV_BOOL:
			case SV_ELLIPSIS:
			case SV_ENUM:
			case SV_FUNC:
			case SV_CLASS:
			case SV_INSTANCE:
			case SV_MODULE:
			case SV_BUILTIN:
			case SV_BOUND:
			case SV_OPFN: same = sv_equal(l, r); break;
			default: break;
			}
		}
		*out = sv_bool(same == (op == CMP_IS));
		return DALIC_OK;
	}
	if (op == CMP_IN || op == CMP_NOTIN) {
		bool found = false;
		if (r->kind == SV_STR && l->kind == SV_STR) {
			found = l->str.len == 0 || (l->str.len <= r->str.len &&
						    memmem(r->str.s, r->str.len, l->str.s, l->str.len));
		} else if (r->kind == SV_DICT) {
			found = svdict_get(r->dict, l) != NULL;
		} else if (r->kind == SV_LIST || r->kind == SV_TUPLE) {
			sv_t **items = r->kind == SV_LIST ? r->list->items : r->tuple.items;
			int n = r->kind == SV_LIST ? r->list->n : r->tuple.n;
			for (int i = 0; i < n && !found; i++)
				found = sv_equal(l, items[i]);
		} else {
			return serr(I, at, DALIC_EINVAL,
				    "TypeError: argument of type '%s' is not iterable",
				    sv_type_name(r));
		}
		*out = sv_bool(found == (op == CMP_IN));
		return DALIC_OK;
	}
	if (l->kind == SV_NODE || r->kind == SV_NODE) {
		sv_t *in[2] = {l, r};
		return sa_arith(I, at, sa_cmp_name(op), in, 2, out);
	}
	if (l->kind == SV_SCONST)
		l = l->sconst.value;
	if (r->kind == SV_SCONST)
		r = r->sconst.value;
	if (op == CMP_EQ || op == CMP_NE) {
		*out = sv_bool(sv_equal(l, r) == (op == CMP_EQ));
		return DALIC_OK;
	}
	int c;
	if (!order(l, r, &c))
		return serr(I, at, DALIC_EINVAL,
			    "TypeError: '%s' not supported between instances of '%s' and '%s'",
			    cmp_text(op), sv_type_name(l), sv_type_name(r));
	bool res = op == CMP_LT ? c < 0 : op == CMP_LE ? c <= 0 : op == CMP_GT ? c > 0 : c >= 0;
	*out = sv_bool(res);
	return DALIC_OK;
}

/* ---- attributes ----------------------------------------------------------------------- */

static int bind_method(sinterp_t *I, const snode_t *at, sv_t *self, sv_t *fn, sv_t **out)
{
	if (fn->kind != SV_FUNC) {
		*out = fn;
		return DALIC_OK;
	}
	sv_t *b = sv_new(I->a, SV_BOUND);
	if (!b)
		return serr_oom(I, at);
	b->bound.self = self;
	b->bound.func = fn;
	*out = b;
	return DALIC_OK;
}

int se_getattr_opt(sinterp_t *I, const snode_t *at, sv_t *obj, const char *name, sv_t **out)
{
	*out = NULL;
	sv_t *v;
	switch (obj->kind) {
	case SV_OPAQUE:
		*out = sv_opaque(I->a, script_arena_printf(I->a, "%s.%s", obj->opaque.what, name));
		return *out ? DALIC_OK : serr_oom(I, at);
	case SV_MODULE: return sm_getattr(I, at, obj, name, out);
	case SV_OPFN: {
		sv_t *f = sv_new(I->a, SV_OPFN);
		if (!f)
			return serr_oom(I, at);
		f->opfn.ops_api = obj->opfn.ops_api;
		f->opfn.path = *obj->opfn.path ? script_arena_printf(I->a, "%s.%s", obj->opfn.path,
								     name)
					       : script_arena_strdup(I->a, name);
		if (!f->opfn.path)
			return serr_oom(I, at);
		*out = f;
		return DALIC_OK;
	}
	case SV_INSTANCE: {
		if ((v = svdict_get_str(obj->inst->attrs, name))) {
			*out = v;
			return DALIC_OK;
		}
		if ((v = sx_class_lookup(obj->inst->cls, name, NULL)))
			return bind_method(I, at, obj, v, out);
		if (obj->inst->cls->pipeline)
			TRY(sp_getattr(I, at, obj, name, out));
		if (!*out && obj->inst->cls->opaque_base)
			*out = sv_opaque(I->a, script_arena_printf(I->a, "%s.%s",
								   obj->inst->cls->name, name));
		return DALIC_OK;
	}
	case SV_CLASS:
		if ((v = sx_class_lookup(obj->cls, name, NULL))) {
			*out = v;
			return DALIC_OK;
		}
		if (!strcmp(name, "__name__")) {
			*out = sv_cstr(I->a, obj->cls->name);
			return *out ? DALIC_OK : serr_oom(I, at);
		}
		if (obj->cls->pipeline)
			TRY(sp_getattr(I, at, obj, name, out));
		if (!*out && obj->cls->opaque_base)
			*out = sv_opaque(I->a, script_arena_printf(I->a, "%s.%s", obj->cls->name, name));
		return DALIC_OK;
	case SV_SUPER: {
		svclass_t *c = obj->super.cls;
		for (int i = 0; i < c->nbases && !*out; i++) {
			if ((v = sx_class_lookup(c->bases[i], name, NULL)))
				TRY(bind_method(I, at, obj->super.self, v, out));
			else if (c->bases[i]->pipeline)
				TRY(sp_getattr(I, at, obj->super.self, name, out));
			else if (c->bases[i]->opaque_base || !strcmp(c->bases[i]->name, "object")) {
				if (!strcmp(name, "__init__"))
					*out = sb_make(I, "__init__", NULL, NULL, NULL);
			}
		}
		return DALIC_OK;
	}
	case SV_NODE:
		if (!strcmp(name, "name")) {
			*out = sv_cstr(I->a, obj->node.name);
		} else if (!strcmp(name, "device")) {
			*out = sv_cstr(I->a, obj->node.device);
		} else {
			return sp_getattr(I, at, obj, name, out);
		}
		return *out ? DALIC_OK : serr_oom(I, at);
	case SV_ENUM:
		if (!strcmp(name, "name"))
			*out = sv_cstr(I->a, sv_enum_name(obj->en.type, obj->en.value));
		else if (!strcmp(name, "value"))
			*out = sv_int(I->a, obj->en.value);
		else
			return DALIC_OK;
		return *out ? DALIC_OK : serr_oom(I, at);
	case SV_SCONST:
		if (!strcmp(name, "value"))
			*out = obj->sconst.value;
		else if (!strcmp(name, "dtype"))
			*out = sv_enum(I->a, ENUM_DTYPE, obj->sconst.dtype);
		else
			return DALIC_OK;
		return *out ? DALIC_OK : serr_oom(I, at);
	case SV_FUNC:
		if (!strcmp(name, "__name__")) {
			*out = sv_cstr(I->a, obj->func->name);
			return *out ? DALIC_OK : serr_oom(I, at);
		}
		return DALIC_OK;
	case SV_PIPEDEF:
		if (!strcmp(name, "_is_pipeline_def"))
			*out = sv_true();
		else if (!strcmp(name, "__name__"))
			*out = sv_cstr(I->a, obj->pipedef.func->func->name);
		return DALIC_OK;
	case SV_STR:
	case SV_LIST:
	case SV_TUPLE:
	case SV_DICT:
	case SV_INT:
	case SV_FLOAT: return sb_method(I, at, obj, name, out);
	default: return DALIC_OK;
	}
}

int se_getattr(sinterp_t *I, const snode_t *at, sv_t *obj, const char *name, sv_t **out)
{
	TRY(se_getattr_opt(I, at, obj, name, out));
	if (*out)
		return DALIC_OK;
	if (obj->kind == SV_MODULE)
		return serr(I, at, DALIC_EINVAL,
			    "AttributeError: module '%s' has no attribute '%s'", obj->mod->name, name);
	if (obj->kind == SV_CLASS)
		return serr(I, at, DALIC_EINVAL,
			    "AttributeError: type object '%s' has no attribute '%s'", obj->cls->name,
			    name);
	return serr(I, at, DALIC_EINVAL, "AttributeError: '%s' object has no attribute '%s'",
		    sv_type_name(obj), name);
}

int se_setattr(sinterp_t *I, const snode_t *at, sv_t *obj, const char *name, sv_t *value)
{
	svdict_t *d = NULL;
	switch (obj->kind) {
	case SV_OPAQUE: return DALIC_OK;
	case SV_INSTANCE: d = obj->inst->attrs; break;
	case SV_CLASS: d = obj->cls->attrs; break;
	case SV_MODULE: d = obj->mod->attrs; break;
	default:
		return serr(I, at, DALIC_EINVAL,
			    "AttributeError: '%s' object attribute '%s' is read-only",
			    sv_type_name(obj), name);
	}
	return svdict_set_str(I->a, d, name, value) ? serr_oom(I, at) : DALIC_OK;
}

/* ---- items ---------------------------------------------------------------------------- */

static int index_of(sinterp_t *I, const snode_t *at, sv_t *idx, int n, const char *what,
		    int *out)
{
	int64_t i;
	if (!as_int(idx, &i))
		return serr(I, at, DALIC_EINVAL,
			    "TypeError: %s indices must be integers or slices, not %s", what,
			    sv_type_name(idx));
	if (i < 0)
		i += n;
	if (i < 0 || i >= n)
		return serr(I, at, DALIC_EINVAL, "IndexError: %s index out of range", what);
	*out = (int)i;
	return DALIC_OK;
}

/* Python's slice.indices(): start, stop, step for a sequence of length n. */
static int slice_range(sinterp_t *I, const snode_t *at, sv_t *s, int n, int64_t *start,
		       int64_t *stop, int64_t *step)
{
	int64_t st = 1;
	if (s->slice.step->kind != SV_NONE && !as_int(s->slice.step, &st))
		return serr(I, at, DALIC_EINVAL,
			    "TypeError: slice indices must be integers or None");
	if (st == 0)
		return serr(I, at, DALIC_EINVAL, "ValueError: slice step cannot be zero");
	int64_t lo = st > 0 ? 0 : n - 1, hi = st > 0 ? n : -1;
	int64_t v;
	if (s->slice.lo->kind != SV_NONE) {
		if (!as_int(s->slice.lo, &v))
			return serr(I, at, DALIC_EINVAL,
				    "TypeError: slice indices must be integers or None");
		if (v < 0)
			v += n;
		lo = st > 0 ? (v < 0 ? 0 : v > n ? n : v) : (v < 0 ? -1 : v >= n ? n - 1 : v);
	}
	if (s->slice.hi->kind != SV_NONE) {
		if (!as_int(s->slice.hi, &v))
			return serr(I, at, DALIC_EINVAL,
				    "TypeError: slice indices must be integers or None");
		if (v < 0)
			v += n;
		hi = st > 0 ? (v < 0 ? 0 : v > n ? n : v) : (v < -1 ? -1 : v >= n ? n - 1 : v);
	}
	*start = lo;
	*stop = hi;
	*step = st;
	return DALIC_OK;
}

int se_getitem(sinterp_t *I, const snode_t *at, sv_t *obj, sv_t *idx, sv_t **out)
{
	switch (obj->kind) {
	case SV_OPAQUE: *out = obj; return DALIC_OK;
	case SV_NODE: return sa_subscript(I, at, obj, idx, out);
	case SV_DICT: {
		sv_t *v = svdict_get(obj->dict, idx);
		if (v) {
			*out = v;
			return DALIC_OK;
		}
		if (!sv_hashable(idx))
			return serr(I, at, DALIC_EINVAL, "TypeError: unhashable type: '%s'",
				    sv_type_name(idx));
		sv_t *r;
		TRY(se_str(I, at, idx, true, &r));
		return serr(I, at, DALIC_EINVAL, "KeyError: %s", r->str.s);
	}
	case SV_LIST:
	case SV_TUPLE:
	case SV_STR: {
		bool is_str = obj->kind == SV_STR;
		int n = is_str ? (int)obj->str.len
			       : obj->kind == SV_LIST ? obj->list->n : obj->tuple.n;
		sv_t **items = obj->kind == SV_LIST ? obj->list->items : obj->tuple.items;
		const char *what = is_str ? "string" : obj->kind == SV_LIST ? "list" : "tuple";
		if (idx->kind == SV_SLICE) {
			int64_t a = 0, b = 0, s = 1;
			TRY(slice_range(I, at, idx, n, &a, &b, &s));
			int count = 0;
			for (int64_t i = a; s > 0 ? i < b : i > b; i += s)
				count++;
			if (is_str) {
				char *buf = script_arena_alloc(I->a, (size_t)count + 1);
				*out = sv_new(I->a, SV_STR);
				if (!buf || !*out)
					return serr_oom(I, at);
				int k = 0;
				for (int64_t i = a; s > 0 ? i < b : i > b; i += s)
					buf[k++] = obj->str.s[i];
				(*out)->str.s = buf;
				(*out)->str.len = (size_t)count;
				return DALIC_OK;
			}
			sv_t *r = obj->kind == SV_LIST ? sv_list(I->a, count) : sv_tuple(I->a, count);
			if (!r)
				return serr_oom(I, at);
			int k = 0;
			for (int64_t i = a; s > 0 ? i < b : i > b; i += s) {
				if (obj->kind == SV_LIST) {
					if (sv_list_append(I->a, r, items[i]))
						return serr_oom(I, at);
				} else {
					r->tuple.items[k++] = items[i];
				}
			}
			*out = r;
			return DALIC_OK;
		}
		int i;
		TRY(index_of(I, at, idx, n, what, &i));
		*out = is_str ? sv_str(I->a, obj->str.s + i, 1) : items[i];
		return *out ? DALIC_OK : serr_oom(I, at);
	}
	default:
		return serr(I, at, DALIC_EINVAL, "TypeError: '%s' object is not subscriptable",
			    sv_type_name(obj));
	}
}

int se_setitem(sinterp_t *I, const snode_t *at, sv_t *obj, sv_t *idx, sv_t *value)
{
	if (obj->kind == SV_OPAQUE)
		return DALIC_OK;
	if (obj->kind == SV_DICT) {
		int rc = svdict_set(I->a, obj->dict, idx, value);
		if (rc == DALIC_EINVAL)
			return serr(I, at, rc, "TypeError: unhashable type: '%s'", sv_type_name(idx));
		return rc ? serr_oom(I, at) : DALIC_OK;
	}
	if (obj->kind == SV_LIST && idx->kind != SV_SLICE) {
		int i;
		TRY(index_of(I, at, idx, obj->list->n, "list assignment", &i));
		obj->list->items[i] = value;
		return DALIC_OK;
	}
	return serr(I, at, DALIC_EINVAL, "TypeError: '%s' object does not support item assignment",
		    sv_type_name(obj));
}

/* ---- calls and iteration -------------------------------------------------------------- */

int se_call(sinterp_t *I, const snode_t *at, sv_t *fn, const sargs_t *args, sv_t **out)
{
	if (I->depth >= SCRIPT_MAX_CALL_DEPTH)
		return serr(I, at, DALIC_EUNSUPPORTED,
			    "RecursionError: maximum call depth (%d) exceeded", SCRIPT_MAX_CALL_DEPTH);
	I->depth++;
	int rc;
	switch (fn->kind) {
	case SV_FUNC: rc = sx_call_function(I, at, fn->func, NULL, args, out); break;
	case SV_BOUND:
		rc = sx_call_function(I, at, fn->bound.func->func, fn->bound.self, args, out);
		break;
	case SV_BUILTIN:
		if (!fn->builtin.fn) { /* object.__init__ and the like: accept and ignore */
			*out = sv_none();
			rc = DALIC_OK;
		} else {
			rc = fn->builtin.fn(I, at, fn->builtin.self, args, out);
		}
		break;
	case SV_CLASS: rc = sx_instantiate(I, at, fn->cls, args, out); break;
	case SV_OPFN:
		rc = fn->opfn.ops_api ? so_ops_construct(I, at, fn->opfn.path, args, out)
				      : so_call_fn(I, at, fn->opfn.path, args, out);
		break;
	case SV_OPOBJ: rc = so_ops_call(I, at, fn, args, out); break;
	case SV_PIPEDEF: rc = sp_call_pipedef(I, at, fn, args, out); break;
	case SV_OPAQUE:
		*out = sv_opaque(I->a, script_arena_printf(I->a, "%s()", fn->opaque.what));
		rc = *out ? DALIC_OK : serr_oom(I, at);
		break;
	default:
		rc = serr(I, at, DALIC_EINVAL, "TypeError: '%s' object is not callable",
			  sv_type_name(fn));
	}
	I->depth--;
	return rc;
}

int se_iterate(sinterp_t *I, const snode_t *at, sv_t *v, sv_t ***items, int *n, bool *opaque)
{
	*opaque = false;
	switch (v->kind) {
	case SV_LIST: *items = v->list->items; *n = v->list->n; return DALIC_OK;
	case SV_TUPLE: *items = v->tuple.items; *n = v->tuple.n; return DALIC_OK;
	case SV_OPAQUE: *opaque = true; *items = NULL; *n = 0; return DALIC_OK;
	case SV_DICT: {
		int len = svdict_len(v->dict), k = 0;
		sv_t **keys = script_arena_alloc(I->a, sizeof *keys * (size_t)(len + 1));
		if (!keys)
			return serr_oom(I, at);
		sv_t *key;
		for (int it = 0; svdict_next(v->dict, &it, &key, NULL);)
			keys[k++] = key;
		*items = keys;
		*n = len;
		return DALIC_OK;
	}
	case SV_STR: {
		/* one item per UTF-8 character */
		sv_t **chars = script_arena_alloc(I->a, sizeof *chars * (v->str.len + 1));
		if (!chars)
			return serr_oom(I, at);
		int k = 0;
		for (size_t i = 0; i < v->str.len;) {
			size_t j = i + 1;
			while (j < v->str.len && ((unsigned char)v->str.s[j] & 0xC0) == 0x80)
				j++;
			if (!(chars[k++] = sv_str(I->a, v->str.s + i, j - i)))
				return serr_oom(I, at);
			i = j;
		}
		*items = chars;
		*n = k;
		return DALIC_OK;
	}
	case SV_NODE:
		return serr(I, at, DALIC_EINVAL,
			    "TypeError: 'DataNode' object is not iterable (a DataNode stands for a "
			    "whole batch; its samples exist only when the pipeline runs)");
	default:
		return serr(I, at, DALIC_EINVAL, "TypeError: '%s' object is not iterable",
			    sv_type_name(v));
	}
}
