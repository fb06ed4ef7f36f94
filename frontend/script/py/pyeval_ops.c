/*
 * Python operators on values: truth, unary operators, arithmetic and comparison (64-bit
 * ints with overflow detected, floats, str / list / tuple concatenation and repetition, dict
 * union). A host value's type handles the operators it defines (DALI: ArithmeticGenericOp on
 * data nodes); an opaque operand makes an opaque result so display-only code can run past
 * values dalic does not model. Attribute / item access and calls are in pyeval_access.c.
 */
#include "frontend/script/py/pyeval.h"
#include "frontend/script/py/pyset.h"

#include "frontend/script/py/pyclass.h"

#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyfmt.h"

#include <math.h>
#include <string.h>

int dalic_pyeval_truth(pyinterp_t *I, const pynode_t *at, pyval_t *v, bool *out)
{
	switch (v->kind) {
	case PV_NONE:
		*out = false;
		return DALIC_OK;
	case PV_BOOL:
		*out = v->b;
		return DALIC_OK;
	case PV_INT:
		*out = v->i != 0;
		return DALIC_OK;
	case PV_FLOAT:
		*out = v->f != 0;
		return DALIC_OK;
	case PV_STR:
		*out = v->str.len > 0;
		return DALIC_OK;
	case PV_TUPLE:
		*out = v->tuple.n > 0;
		return DALIC_OK;
	case PV_LIST:
		*out = v->list->n > 0;
		return DALIC_OK;
	case PV_DICT:
		*out = dalic_pydict_len(v->dict) > 0;
		return DALIC_OK;
	case PV_HOST:
		if (v->host.type->truth)
			return v->host.type->truth(I, at, v, out);
		*out = true;
		return DALIC_OK;
	case PV_OPAQUE:
		return dalic_pyeval_opaque_error(I, at, v, "cannot decide the truth value");
	case PV_UNDEF:
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "NameError: '%s' is not defined",
		                          v->undef.name);
	case PV_INSTANCE: {
		bool found;
		return dalic_pyclass_truth(I, at, v, out, &found);
	}
	default:
		*out = true;
		return DALIC_OK;
	}
}

/* ---- arithmetic on Python values ------------------------------------------------------ */

static int pyeval_overflow(pyinterp_t *I, const pynode_t *at)
{
	return dalic_pyeval_limit(I, at, "integer overflow (dalic supports 64-bit integers)");
}

int dalic_pyeval_unary(pyinterp_t *I, const pynode_t *at, pyunary_t op, pyval_t *v, pyval_t **out)
{
	if (v->kind == PV_OPAQUE) {
		*out = v;
		return DALIC_OK;
	}
	const pytype_t *t = v->kind == PV_HOST ? v->host.type : NULL;
	if (op == U_NOT) {
		if (t && t->flow && t->flow(I, v))
			return t->flow_not(I, at, v, out);
		bool b;
		DALIC_TRY(dalic_pyeval_truth(I, at, v, &b));
		*out = dalic_pyval_bool(!b);
		return DALIC_OK;
	}
	if (t && t->unary)
		return t->unary(I, at, op, v, out);
	if (v->kind == PV_BOOL || v->kind == PV_INT) {
		int64_t x = v->kind == PV_BOOL ? v->b : v->i;
		if (op == U_NEG && x == INT64_MIN)
			return pyeval_overflow(I, at);
		*out = dalic_pyval_int(I->a, op == U_NEG ? -x : op == U_POS ? x : ~x);
	} else if (v->kind == PV_FLOAT && op != U_INVERT) {
		*out = dalic_pyval_float(I->a, op == U_NEG ? -v->f : v->f);
	} else {
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: bad operand type for unary %s: '%s'",
		                          op == U_NEG   ? "-"
		                          : op == U_POS ? "+"
		                                        : "~",
		                          dalic_pyval_type_name(v));
	}
	return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
}

static int pyeval_int_op(pyinterp_t *I, const pynode_t *at, pyop_t op, int64_t a, int64_t b,
                         pyval_t **out)
{
	int64_t r;
	switch (op) {
	case OP_PLUS:
		if (__builtin_add_overflow(a, b, &r))
			return pyeval_overflow(I, at);
		break;
	case OP_MINUS:
		if (__builtin_sub_overflow(a, b, &r))
			return pyeval_overflow(I, at);
		break;
	case OP_STAR:
		if (__builtin_mul_overflow(a, b, &r))
			return pyeval_overflow(I, at);
		break;
	case OP_SLASH:
		if (!b)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "ZeroDivisionError: division by zero");
		*out = dalic_pyval_float(I->a, (double)a / (double)b);
		return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
	case OP_DSLASH:
	case OP_PERCENT:
		if (!b)
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "ZeroDivisionError: integer division or modulo by zero");
		if (a == INT64_MIN && b == -1)
			return pyeval_overflow(I, at);
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
				return dalic_pyeval_error(
				    I, at, DALIC_EINVAL,
				    "ZeroDivisionError: 0.0 cannot be raised to a negative "
				    "power");
			*out = dalic_pyval_float(I->a, pow((double)a, (double)b));
			return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
		}
		r = 1;
		for (int64_t base = a, e = b; e; e >>= 1) {
			if ((e & 1) && __builtin_mul_overflow(r, base, &r))
				return pyeval_overflow(I, at);
			if (e > 1 && __builtin_mul_overflow(base, base, &base))
				return pyeval_overflow(I, at);
		}
		break;
	case OP_LSHIFT:
		if (b < 0)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "ValueError: negative shift count");
		if (b >= 63 || (a && (a > (INT64_MAX >> b) || a < (INT64_MIN >> b))))
			return a ? pyeval_overflow(I, at)
			         : (*out = dalic_pyval_int(I->a, 0), DALIC_OK);
		r = (int64_t)((uint64_t)a << b);
		break;
	case OP_RSHIFT:
		if (b < 0)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "ValueError: negative shift count");
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
	*out = dalic_pyval_int(I->a, r);
	return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
}

static int pyeval_float_op(pyinterp_t *I, const pynode_t *at, pyop_t op, double a, double b,
                           pyval_t **out)
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
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "ZeroDivisionError: float division by zero");
		r = a / b;
		break;
	case OP_DSLASH:
	case OP_PERCENT:
		if (b == 0)
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL, "ZeroDivisionError: float %s",
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
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "ZeroDivisionError: 0.0 cannot be raised to a negative power");
		r = pow(a, b);
		break;
	default:
		return 1;
	}
	*out = dalic_pyval_float(I->a, r);
	return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
}

static int pyeval_seq_repeat(pyinterp_t *I, const pynode_t *at, pyval_t *seq, int64_t times,
                             pyval_t **out)
{
	if (times < 0)
		times = 0;
	if (seq->kind == PV_STR) {
		if (seq->str.len && times > (int64_t)(PY_MAX_STR_LEN / seq->str.len))
			return dalic_pyeval_limit(I, at, "string repetition too large");
		size_t n = seq->str.len * (size_t)times;
		char *s = dalic_pyarena_alloc(I->a, n + 1);
		if (!s)
			return dalic_pyeval_oom(I, at);
		for (int64_t i = 0; i < times; i++)
			memcpy(s + (size_t)i * seq->str.len, seq->str.s, seq->str.len);
		*out = dalic_pyval_new(I->a, PV_STR);
		if (!*out)
			return dalic_pyeval_oom(I, at);
		(*out)->str.s = s;
		(*out)->str.len = n;
		return DALIC_OK;
	}
	pyval_t **items = seq->kind == PV_LIST ? seq->list->items : seq->tuple.items;
	int n = seq->kind == PV_LIST ? seq->list->n : seq->tuple.n;
	if (n && times > (1 << 24) / n)
		return dalic_pyeval_limit(I, at, "sequence repetition too large");
	int total = n * (int)times;
	pyval_t *r =
	    seq->kind == PV_LIST ? dalic_pyval_list(I->a, total) : dalic_pyval_tuple(I->a, total);
	if (!r)
		return dalic_pyeval_oom(I, at);
	for (int64_t t = 0; t < times; t++)
		for (int i = 0; i < n; i++) {
			if (seq->kind == PV_LIST) {
				if (dalic_pyval_list_append(I->a, r, items[i]))
					return dalic_pyeval_oom(I, at);
			} else {
				r->tuple.items[t * n + i] = items[i];
			}
		}
	*out = r;
	return DALIC_OK;
}

static int pyeval_seq_concat(pyinterp_t *I, const pynode_t *at, pyval_t *l, pyval_t *r,
                             pyval_t **out)
{
	if (l->kind == PV_STR) {
		size_t n = l->str.len + r->str.len;
		if (n > PY_MAX_STR_LEN)
			return dalic_pyeval_limit(
			    I, at, "MemoryError: string of %zu bytes (dalic's limit: %zu)", n,
			    PY_MAX_STR_LEN);
		char *s = dalic_pyarena_alloc(I->a, n + 1);
		*out = dalic_pyval_new(I->a, PV_STR);
		if (!s || !*out)
			return dalic_pyeval_oom(I, at);
		memcpy(s, l->str.s, l->str.len);
		memcpy(s + l->str.len, r->str.s, r->str.len);
		(*out)->str.s = s;
		(*out)->str.len = n;
		return DALIC_OK;
	}
	if (l->kind == PV_LIST) {
		pyval_t *res = dalic_pyval_list(I->a, l->list->n + r->list->n);
		if (!res)
			return dalic_pyeval_oom(I, at);
		for (int i = 0; i < l->list->n; i++)
			if (dalic_pyval_list_append(I->a, res, l->list->items[i]))
				return dalic_pyeval_oom(I, at);
		for (int i = 0; i < r->list->n; i++)
			if (dalic_pyval_list_append(I->a, res, r->list->items[i]))
				return dalic_pyeval_oom(I, at);
		*out = res;
		return DALIC_OK;
	}
	pyval_t *res = dalic_pyval_tuple(I->a, l->tuple.n + r->tuple.n);
	if (!res)
		return dalic_pyeval_oom(I, at);
	memcpy(res->tuple.items, l->tuple.items, sizeof(pyval_t *) * (size_t)l->tuple.n);
	memcpy(res->tuple.items + l->tuple.n, r->tuple.items,
	       sizeof(pyval_t *) * (size_t)r->tuple.n);
	*out = res;
	return DALIC_OK;
}

int dalic_pyeval_binop(pyinterp_t *I, const pynode_t *at, pyop_t op, pyval_t *l, pyval_t *r,
                       pyval_t **out)
{
	if (l->kind == PV_OPAQUE || r->kind == PV_OPAQUE) {
		*out = l->kind == PV_OPAQUE ? l : r;
		return DALIC_OK;
	}
	const pytype_t *lt = l->kind == PV_HOST ? l->host.type : NULL;
	const pytype_t *rt = r->kind == PV_HOST ? r->host.type : NULL;
	int rc = PY_NOT_HANDLED;
	if (lt && lt->binop)
		rc = lt->binop(I, at, op, l, r, out);
	if (rc == PY_NOT_HANDLED && rt && rt != lt && rt->binop)
		rc = rt->binop(I, at, op, l, r, out);
	if (rc != PY_NOT_HANDLED)
		return rc;
	if (!lt && !rt) {
		int64_t a, b;
		if (dalic_pyval_as_int(l, &a) && dalic_pyval_as_int(r, &b)) {
			/* bool op bool stays bool for the bitwise operators */
			if (l->kind == PV_BOOL && r->kind == PV_BOOL &&
			    (op == OP_AMP || op == OP_PIPE || op == OP_CARET)) {
				*out = dalic_pyval_bool(op == OP_AMP    ? (a & b)
				                        : op == OP_PIPE ? (a | b)
				                                        : (a ^ b));
				return DALIC_OK;
			}
			int rc = pyeval_int_op(I, at, op, a, b, out);
			if (rc <= 0)
				return rc;
		} else if (dalic_pyval_is_number(l) && dalic_pyval_is_number(r)) {
			int rc = pyeval_float_op(I, at, op, dalic_pyval_as_double(l),
			                         dalic_pyval_as_double(r), out);
			if (rc <= 0)
				return rc;
		} else if (op == OP_PLUS && l->kind == r->kind &&
		           (l->kind == PV_STR || l->kind == PV_LIST || l->kind == PV_TUPLE)) {
			return pyeval_seq_concat(I, at, l, r, out);
		} else if (op == OP_STAR &&
		           (l->kind == PV_STR || l->kind == PV_LIST || l->kind == PV_TUPLE) &&
		           dalic_pyval_as_int(r, &b)) {
			return pyeval_seq_repeat(I, at, l, b, out);
		} else if (op == OP_STAR &&
		           (r->kind == PV_STR || r->kind == PV_LIST || r->kind == PV_TUPLE) &&
		           dalic_pyval_as_int(l, &a)) {
			return pyeval_seq_repeat(I, at, r, a, out);
		} else if (op == OP_PERCENT && l->kind == PV_STR) {
			return dalic_pyfmt_percent(I, at, l, r, out);
		} else if (op == OP_PIPE && l->kind == PV_DICT && r->kind == PV_DICT) {
			pyval_t *d = dalic_pyval_dict(I->a), *k, *v;
			if (!d)
				return dalic_pyeval_oom(I, at);
			for (int it = 0; dalic_pydict_next(l->dict, &it, &k, &v);)
				if (dalic_pydict_set(I->a, d->dict, k, v))
					return dalic_pyeval_oom(I, at);
			for (int it = 0; dalic_pydict_next(r->dict, &it, &k, &v);)
				if (dalic_pydict_set(I->a, d->dict, k, v))
					return dalic_pyeval_oom(I, at);
			*out = d;
			return DALIC_OK;
		}
	}
	return dalic_pyeval_error(
	    I, at, DALIC_EINVAL, "TypeError: unsupported operand type(s) for %s: '%s' and '%s'",
	    dalic_pylex_op_text(op), dalic_pyval_type_name(l), dalic_pyval_type_name(r));
}

/* ---- comparison ----------------------------------------------------------------------- */

static const char *pyeval_cmp_text(pycmp_t op)
{
	static const char *t[] = {"==", "!=", "<", "<=", ">", ">=", "in", "not in", "is", "is not"};
	return t[op];
}

/* Three-way ordering of Python values; false when they are not orderable (or nested past
 * any sensible depth). */
static bool pyeval_order_d(const pyval_t *l, const pyval_t *r, int *c, int depth);

static bool pyeval_order(const pyval_t *l, const pyval_t *r, int *c)
{
	return pyeval_order_d(l, r, c, 0);
}

static bool pyeval_order_d(const pyval_t *l, const pyval_t *r, int *c, int depth)
{
	if (depth > 100)
		return false;
	if (dalic_pyval_is_number(l) && dalic_pyval_is_number(r)) {
		double a = dalic_pyval_as_double(l), b = dalic_pyval_as_double(r);
		int64_t x, y;
		if (l->kind != PV_FLOAT && r->kind != PV_FLOAT) {
			x = l->kind == PV_BOOL ? l->b : l->i;
			y = r->kind == PV_BOOL ? r->b : r->i;
			*c = x < y ? -1 : x > y;
		} else {
			*c = a < b ? -1 : a > b ? 1 : 0;
		}
		return true;
	}
	if (l->kind != r->kind)
		return false;
	if (l->kind == PV_STR) {
		size_t n = l->str.len < r->str.len ? l->str.len : r->str.len;
		int m = memcmp(l->str.s, r->str.s, n);
		*c =
		    m ? (m < 0 ? -1 : 1) : (l->str.len < r->str.len ? -1 : l->str.len > r->str.len);
		return true;
	}
	if (l->kind == PV_TUPLE || l->kind == PV_LIST) {
		pyval_t **a = l->kind == PV_LIST ? l->list->items : l->tuple.items;
		pyval_t **b = r->kind == PV_LIST ? r->list->items : r->tuple.items;
		int na = l->kind == PV_LIST ? l->list->n : l->tuple.n;
		int nb = r->kind == PV_LIST ? r->list->n : r->tuple.n;
		for (int i = 0; i < na && i < nb; i++) {
			if (dalic_pyval_equal(a[i], b[i]))
				continue;
			return pyeval_order_d(a[i], b[i], c, depth + 1);
		}
		*c = na < nb ? -1 : na > nb;
		return true;
	}
	return false;
}

int dalic_pyeval_compare(pyinterp_t *I, const pynode_t *at, pycmp_t op, pyval_t *l, pyval_t *r,
                         pyval_t **out)
{
	if (l->kind == PV_OPAQUE || r->kind == PV_OPAQUE) {
		*out = l->kind == PV_OPAQUE ? l : r;
		return DALIC_OK;
	}
	if (op == CMP_IS || op == CMP_ISNOT) {
		/* singletons and objects compare by identity; numbers and strings are values */
		bool same = l == r;
		if (!same && l->kind == r->kind) {
			switch (l->kind) {
			case PV_NONE:
			case PV_BOOL:
			case PV_ELLIPSIS:
			case PV_FUNC:
			case PV_CLASS:
			case PV_INSTANCE:
			case PV_MODULE:
			case PV_BUILTIN:
			case PV_BOUND:
				same = dalic_pyval_equal(l, r);
				break;
			case PV_HOST:
				same = l->host.type == r->host.type &&
				       (l->host.type->is_by_value ? dalic_pyval_equal(l, r)
				                                  : l->host.data == r->host.data);
				break;
			default:
				break;
			}
		}
		*out = dalic_pyval_bool(same == (op == CMP_IS));
		return DALIC_OK;
	}
	if (l->kind == PV_INSTANCE || r->kind == PV_INSTANCE) {
		bool found;
		DALIC_TRY(dalic_pyclass_compare(I, at, op, l, r, out, &found));
		if (found)
			return DALIC_OK;
	}
	if (op == CMP_IN || op == CMP_NOTIN) {
		bool found = false;
		if (r->kind == PV_STR && l->kind == PV_STR) {
			found =
			    l->str.len == 0 || (l->str.len <= r->str.len &&
			                        memmem(r->str.s, r->str.len, l->str.s, l->str.len));
		} else if (r->kind == PV_DICT) {
			found = dalic_pydict_get(r->dict, l) != NULL;
		} else if (dalic_pyval_is(r, &dalic_pyset_type)) {
			DALIC_TRY(dalic_pyset_has(I, at, r, l, &found));
		} else if (r->kind == PV_LIST || r->kind == PV_TUPLE) {
			pyval_t **items = r->kind == PV_LIST ? r->list->items : r->tuple.items;
			int n = r->kind == PV_LIST ? r->list->n : r->tuple.n;
			for (int i = 0; i < n && !found; i++)
				found = dalic_pyval_equal(l, items[i]);
		} else {
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL, "TypeError: argument of type '%s' is not iterable",
			    dalic_pyval_type_name(r));
		}
		*out = dalic_pyval_bool(found == (op == CMP_IN));
		return DALIC_OK;
	}
	const pytype_t *lt = l->kind == PV_HOST ? l->host.type : NULL;
	const pytype_t *rt = r->kind == PV_HOST ? r->host.type : NULL;
	int rc = PY_NOT_HANDLED;
	if (lt && lt->compare)
		rc = lt->compare(I, at, op, l, r, out);
	if (rc == PY_NOT_HANDLED && rt && rt != lt && rt->compare)
		rc = rt->compare(I, at, op, l, r, out);
	if (rc != PY_NOT_HANDLED)
		return rc;
	if (op == CMP_EQ || op == CMP_NE) {
		*out = dalic_pyval_bool(dalic_pyval_equal(l, r) == (op == CMP_EQ));
		return DALIC_OK;
	}
	int c;
	if (!pyeval_order(l, r, &c))
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "TypeError: '%s' not supported between instances of '%s' and '%s'",
		    pyeval_cmp_text(op), dalic_pyval_type_name(l), dalic_pyval_type_name(r));
	bool res = op == CMP_LT ? c < 0 : op == CMP_LE ? c <= 0 : op == CMP_GT ? c > 0 : c >= 0;
	*out = dalic_pyval_bool(res);
	return DALIC_OK;
}
