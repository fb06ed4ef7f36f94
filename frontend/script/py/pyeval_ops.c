/*
 * Python operators on evaluator values: truth, arithmetic and comparison (64-bit ints with
 * overflow detected, floats, str / list / tuple concatenation and repetition, dict union).
 * A DataNode operand hands the operator to script_arith.c (DALI's ArithmeticGenericOp); an
 * opaque operand makes an opaque result so display-only code can run past values dalic does
 * not model. Attribute / item access and calls are in script_access.c.
 */
#include "frontend/script/py/pystate.h"

#include <math.h>
#include <string.h>

#define TRY(x)                                                                                     \
	do {                                                                                       \
		int rc_ = (x);                                                                     \
		if (rc_)                                                                           \
			return rc_;                                                                \
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
	case SV_NONE:
		*out = false;
		return DALIC_OK;
	case SV_BOOL:
		*out = v->b;
		return DALIC_OK;
	case SV_INT:
		*out = v->i != 0;
		return DALIC_OK;
	case SV_FLOAT:
		*out = v->f != 0;
		return DALIC_OK;
	case SV_STR:
		*out = v->str.len > 0;
		return DALIC_OK;
	case SV_TUPLE:
		*out = v->tuple.n > 0;
		return DALIC_OK;
	case SV_LIST:
		*out = v->list->n > 0;
		return DALIC_OK;
	case SV_DICT:
		*out = svdict_len(v->dict) > 0;
		return DALIC_OK;
	case SV_NODE:
		return serr(I, at, DALIC_EINVAL, "%s", DATANODE_BOOL_ERROR);
	case SV_SCONST:
		return se_truth(I, at, v->sconst.value, out);
	case SV_OPAQUE:
		return serr_opaque(I, at, v, "cannot decide the truth value");
	case SV_UNDEF:
		return serr(I, at, DALIC_EINVAL, "NameError: '%s' is not defined", v->undef.name);
	default:
		*out = true;
		return DALIC_OK;
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

static int int_op(sinterp_t *I, const snode_t *at, script_op_t op, int64_t a, int64_t b, sv_t **out)
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
			if (m &&
			    ((m < 0) != (b < 0))) { /* Python floors toward negative infinity */
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
	case OP_AMP:
		r = a & b;
		break;
	case OP_PIPE:
		r = a | b;
		break;
	case OP_CARET:
		r = a ^ b;
		break;
	default:
		return 1; /* not an int operator */
	}
	*out = sv_int(I->a, r);
	return *out ? DALIC_OK : serr_oom(I, at);
}

static int float_op(sinterp_t *I, const snode_t *at, script_op_t op, double a, double b, sv_t **out)
{
	double r;
	switch (op) {
	case OP_PLUS:
		r = a + b;
		break;
	case OP_MINUS:
		r = a - b;
		break;
	case OP_STAR:
		r = a * b;
		break;
	case OP_SLASH:
		if (b == 0)
			return serr(I, at, DALIC_EINVAL,
			            "ZeroDivisionError: float division by zero");
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
	default:
		return 1;
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
				*out = sv_bool(op == OP_AMP    ? (a & b)
				               : op == OP_PIPE ? (a | b)
				                               : (a ^ b));
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
		} else if (op == OP_STAR &&
		           (l->kind == SV_STR || l->kind == SV_LIST || l->kind == SV_TUPLE) &&
		           as_int(r, &b)) {
			return seq_repeat(I, at, l, b, out);
		} else if (op == OP_STAR &&
		           (r->kind == SV_STR || r->kind == SV_LIST || r->kind == SV_TUPLE) &&
		           as_int(l, &a)) {
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

/* Three-way ordering of Python values; false when they are not orderable (or nested past
 * any sensible depth). */
static bool order_d(const sv_t *l, const sv_t *r, int *c, int depth);

static bool order(const sv_t *l, const sv_t *r, int *c)
{
	return order_d(l, r, c, 0);
}

static bool order_d(const sv_t *l, const sv_t *r, int *c, int depth)
{
	if (depth > 100)
		return false;
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
		*c =
		    m ? (m < 0 ? -1 : 1) : (l->str.len < r->str.len ? -1 : l->str.len > r->str.len);
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
			return order_d(a[i], b[i], c, depth + 1);
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
			case SV_OPFN:
				same = sv_equal(l, r);
				break;
			default:
				break;
			}
		}
		*out = sv_bool(same == (op == CMP_IS));
		return DALIC_OK;
	}
	if (op == CMP_IN || op == CMP_NOTIN) {
		bool found = false;
		if (r->kind == SV_STR && l->kind == SV_STR) {
			found =
			    l->str.len == 0 || (l->str.len <= r->str.len &&
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
