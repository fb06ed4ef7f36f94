/*
 * Expression parser: Python's precedence ladder from lambda / conditional expressions and
 * and / or / not, through comparisons and the binary operators, down to unary operators,
 * power, atoms and trailers (calls, subscripts with slices, attributes); displays and
 * comprehensions; parameter lists; tuple targets of assignments and for loops.
 */
#include "frontend/script/py/pyparse.h"

#include "dalic.h"

#include <stdio.h>
#include <string.h>

/* ---- atoms and displays -------------------------------------------------------------- */

static int pyparse_comprehension(pyparser_t *p, pynode_t *node)
{
	while (dalic_pyparse_is_kw(p, KW_FOR) || dalic_pyparse_is_kw(p, KW_ASYNC)) {
		if (dalic_pyparse_is_kw(p, KW_ASYNC))
			return dalic_pyparse_error(p, dalic_pyparse_peek(p),
			                           "async comprehensions are not supported");
		dalic_pyparse_next(p);
		pycomp_t *g = dalic_pyarena_alloc(p->a, sizeof *g * (size_t)(node->comp.ngens + 1));
		if (!g)
			return DALIC_ENOMEM;
		if (node->comp.ngens)
			memcpy(g, node->comp.gens, sizeof *g * (size_t)node->comp.ngens);
		node->comp.gens = g;
		pycomp_t *c = &g[node->comp.ngens++];
		DALIC_TRY(dalic_pyparse_target_list(p, &c->target));
		DALIC_TRY(dalic_pyparse_check_target(p, c->target, "comprehension"));
		if (!dalic_pyparse_accept_kw(p, KW_IN))
			return dalic_pyparse_error(p, dalic_pyparse_peek(p),
			                           "invalid syntax: expected 'in'");
		DALIC_TRY(dalic_pyparse_or_test(p, &c->iter));
		while (dalic_pyparse_is_kw(p, KW_IF)) {
			dalic_pyparse_next(p);
			pynode_t *cond;
			DALIC_TRY(dalic_pyparse_or_test(p, &cond));
			DALIC_TRY(dalic_pyparse_list_push(p, &c->ifs, cond));
		}
	}
	return DALIC_OK;
}

static int pyparse_star_or_named(pyparser_t *p, pynode_t **out)
{
	if (dalic_pyparse_is_op(p, OP_STAR)) {
		const pytoken_t *t = dalic_pyparse_next(p);
		pynode_t *s;
		PYPARSE_NEW(s, N_STARRED, t);
		DALIC_TRY(dalic_pyparse_expr(p, &s->starred.value));
		*out = s;
		return DALIC_OK;
	}
	return dalic_pyparse_namedexpr(p, out);
}

/* Rest of a tuple/list/set display after its first element; stops before `close`. */
static int pyparse_display_rest(pyparser_t *p, pynode_t *n, pyop_t close)
{
	while (dalic_pyparse_accept_op(p, OP_COMMA)) {
		if (dalic_pyparse_is_op(p, close))
			break;
		pynode_t *e;
		DALIC_TRY(pyparse_star_or_named(p, &e));
		DALIC_TRY(dalic_pyparse_list_push(p, &n->elts, e));
	}
	return DALIC_OK;
}

static int pyparse_paren(pyparser_t *p, pynode_t **out)
{
	const pytoken_t *open = dalic_pyparse_next(p);
	if (dalic_pyparse_accept_op(p, OP_RPAR)) {
		PYPARSE_NEW(*out, N_TUPLE, open);
		return DALIC_OK;
	}
	if (dalic_pyparse_is_kw(p, KW_YIELD))
		return dalic_pyparse_error(p, dalic_pyparse_peek(p),
		                           "'yield' is not supported in pipeline scripts");
	pynode_t *first;
	DALIC_TRY(pyparse_star_or_named(p, &first));
	if (dalic_pyparse_is_kw(p, KW_FOR)) {
		pynode_t *g;
		PYPARSE_NEW(g, N_GENEXP, open);
		g->comp.elt = first;
		DALIC_TRY(pyparse_comprehension(p, g));
		DALIC_TRY(dalic_pyparse_expect_op(p, OP_RPAR, "to close the generator expression"));
		*out = g;
		return DALIC_OK;
	}
	if (dalic_pyparse_is_op(p, OP_COMMA)) {
		pynode_t *t;
		PYPARSE_NEW(t, N_TUPLE, open);
		DALIC_TRY(dalic_pyparse_list_push(p, &t->elts, first));
		DALIC_TRY(pyparse_display_rest(p, t, OP_RPAR));
		DALIC_TRY(dalic_pyparse_expect_op(p, OP_RPAR, "to close the tuple"));
		*out = t;
		return DALIC_OK;
	}
	if (first->kind == N_STARRED)
		return dalic_pyparse_error_node(p, first, "cannot use starred expression here");
	DALIC_TRY(dalic_pyparse_expect_op(p, OP_RPAR, "to close the parenthesis"));
	*out = first;
	return DALIC_OK;
}

static int pyparse_list_display(pyparser_t *p, pynode_t **out)
{
	const pytoken_t *open = dalic_pyparse_next(p);
	pynode_t *l;
	PYPARSE_NEW(l, N_LIST, open);
	if (dalic_pyparse_accept_op(p, OP_RSQB)) {
		*out = l;
		return DALIC_OK;
	}
	pynode_t *first;
	DALIC_TRY(pyparse_star_or_named(p, &first));
	if (dalic_pyparse_is_kw(p, KW_FOR)) {
		l->kind = N_LISTCOMP;
		l->comp.elt = first;
		DALIC_TRY(pyparse_comprehension(p, l));
	} else {
		DALIC_TRY(dalic_pyparse_list_push(p, &l->elts, first));
		DALIC_TRY(pyparse_display_rest(p, l, OP_RSQB));
	}
	DALIC_TRY(dalic_pyparse_expect_op(p, OP_RSQB, "to close the list"));
	*out = l;
	return DALIC_OK;
}

static int pyparse_dict_or_set(pyparser_t *p, pynode_t **out)
{
	const pytoken_t *open = dalic_pyparse_next(p);
	pynode_t *d;
	PYPARSE_NEW(d, N_DICT, open);
	if (dalic_pyparse_accept_op(p, OP_RBRACE)) {
		*out = d;
		return DALIC_OK;
	}
	pynode_t *k = NULL, *v = NULL;
	if (dalic_pyparse_accept_op(p, OP_DSTAR)) {
		DALIC_TRY(dalic_pyparse_expr(p, &v));
	} else {
		DALIC_TRY(pyparse_star_or_named(p, &k));
		if (!dalic_pyparse_accept_op(p, OP_COLON)) {
			/* a set */
			if (dalic_pyparse_is_kw(p, KW_FOR)) {
				d->kind = N_SETCOMP;
				d->comp.elt = k;
				DALIC_TRY(pyparse_comprehension(p, d));
			} else {
				d->kind = N_SET;
				memset(&d->dict, 0, sizeof d->dict);
				DALIC_TRY(dalic_pyparse_list_push(p, &d->elts, k));
				DALIC_TRY(pyparse_display_rest(p, d, OP_RBRACE));
			}
			DALIC_TRY(dalic_pyparse_expect_op(p, OP_RBRACE, "to close the set"));
			*out = d;
			return DALIC_OK;
		}
		DALIC_TRY(dalic_pyparse_test(p, &v));
		if (dalic_pyparse_is_kw(p, KW_FOR)) {
			d->kind = N_DICTCOMP;
			d->comp.elt = k;
			d->comp.value = v;
			DALIC_TRY(pyparse_comprehension(p, d));
			DALIC_TRY(dalic_pyparse_expect_op(p, OP_RBRACE,
			                                  "to close the dict comprehension"));
			*out = d;
			return DALIC_OK;
		}
	}
	DALIC_TRY(dalic_pyparse_list_push(p, &d->dict.keys, k));
	DALIC_TRY(dalic_pyparse_list_push(p, &d->dict.values, v));
	while (dalic_pyparse_accept_op(p, OP_COMMA)) {
		if (dalic_pyparse_is_op(p, OP_RBRACE))
			break;
		k = NULL;
		if (dalic_pyparse_accept_op(p, OP_DSTAR)) {
			DALIC_TRY(dalic_pyparse_expr(p, &v));
		} else {
			DALIC_TRY(dalic_pyparse_test(p, &k));
			DALIC_TRY(dalic_pyparse_expect_op(p, OP_COLON, "after a dict key"));
			DALIC_TRY(dalic_pyparse_test(p, &v));
		}
		DALIC_TRY(dalic_pyparse_list_push(p, &d->dict.keys, k));
		DALIC_TRY(dalic_pyparse_list_push(p, &d->dict.values, v));
	}
	DALIC_TRY(dalic_pyparse_expect_op(p, OP_RBRACE, "to close the dict"));
	*out = d;
	return DALIC_OK;
}

static int pyparse_atom(pyparser_t *p, pynode_t **out)
{
	const pytoken_t *t = dalic_pyparse_peek(p);
	char buf[64];
	switch (t->kind) {
	case TK_NAME:
		switch (t->kw) {
		case KW_NONE:
			dalic_pyparse_next(p);
			PYPARSE_NEW(*out, N_NAME, t);
			(*out)->name = dalic_pyarena_strndup(p->a, t->text, (size_t)t->len);
			return (*out)->name ? DALIC_OK : DALIC_ENOMEM;
		case KW_NONE_:
			dalic_pyparse_next(p);
			PYPARSE_NEW(*out, N_NONE, t);
			return DALIC_OK;
		case KW_TRUE:
		case KW_FALSE:
			dalic_pyparse_next(p);
			PYPARSE_NEW(*out, N_BOOL, t);
			(*out)->b = t->kw == KW_TRUE;
			return DALIC_OK;
		case KW_AWAIT:
		case KW_YIELD:
			return dalic_pyparse_error(p, t,
			                           "'%s' is not supported in pipeline scripts",
			                           dalic_pylex_kw_text(t->kw));
		default:
			return dalic_pyparse_error(p, t, "invalid syntax: unexpected keyword '%s'",
			                           dalic_pylex_kw_text(t->kw));
		}
	case TK_INT:
		dalic_pyparse_next(p);
		PYPARSE_NEW(*out, N_INT, t);
		(*out)->i = t->ival;
		return DALIC_OK;
	case TK_FLOAT:
		dalic_pyparse_next(p);
		PYPARSE_NEW(*out, N_FLOAT, t);
		(*out)->f = t->fval;
		return DALIC_OK;
	case TK_STRING:
		return dalic_pyparse_strings(p, out);
	case TK_OP:
		switch (t->op) {
		case OP_LPAR:
			return pyparse_paren(p, out);
		case OP_LSQB:
			return pyparse_list_display(p, out);
		case OP_LBRACE:
			return pyparse_dict_or_set(p, out);
		case OP_ELLIPSIS:
			dalic_pyparse_next(p);
			PYPARSE_NEW(*out, N_ELLIPSIS, t);
			return DALIC_OK;
		default:
			break;
		}
		break;
	case TK_INDENT:
		return dalic_pyparse_error(p, t, "unexpected indent");
	default:
		break;
	}
	return dalic_pyparse_error(p, t, "invalid syntax: unexpected %s",
	                           dalic_pyparse_tok_desc(t, buf, sizeof buf));
}

/* ---- trailers: calls, subscripts, attributes ----------------------------------------- */

static int pyparse_call_args(pyparser_t *p, pynode_t *call)
{
	bool seen_kw = false;
	while (!dalic_pyparse_is_op(p, OP_RPAR)) {
		const pytoken_t *t = dalic_pyparse_peek(p);
		if (dalic_pyparse_accept_op(p, OP_STAR)) {
			pynode_t *s;
			PYPARSE_NEW(s, N_STARRED, t);
			DALIC_TRY(dalic_pyparse_test(p, &s->starred.value));
			DALIC_TRY(dalic_pyparse_list_push(p, &call->call.args, s));
		} else if (dalic_pyparse_accept_op(p, OP_DSTAR)) {
			pynode_t *k;
			PYPARSE_NEW(k, N_KEYWORD, t);
			DALIC_TRY(dalic_pyparse_test(p, &k->kw.value));
			DALIC_TRY(dalic_pyparse_list_push(p, &call->call.kwargs, k));
			seen_kw = true;
		} else if (t->kind == TK_NAME && !t->kw &&
		           dalic_pyparse_peek_at(p, 1)->kind == TK_OP &&
		           dalic_pyparse_peek_at(p, 1)->op == OP_ASSIGN) {
			dalic_pyparse_next(p);
			dalic_pyparse_next(p);
			pynode_t *k;
			PYPARSE_NEW(k, N_KEYWORD, t);
			k->kw.arg = dalic_pyarena_strndup(p->a, t->text, (size_t)t->len);
			if (!k->kw.arg)
				return DALIC_ENOMEM;
			DALIC_TRY(dalic_pyparse_test(p, &k->kw.value));
			DALIC_TRY(dalic_pyparse_list_push(p, &call->call.kwargs, k));
			seen_kw = true;
		} else {
			pynode_t *e;
			DALIC_TRY(dalic_pyparse_namedexpr(p, &e));
			if (dalic_pyparse_is_kw(p, KW_FOR)) {
				pynode_t *g;
				PYPARSE_NEW(g, N_GENEXP, t);
				g->comp.elt = e;
				DALIC_TRY(pyparse_comprehension(p, g));
				e = g;
			}
			if (seen_kw)
				return dalic_pyparse_error_node(
				    p, e, "positional argument follows keyword argument");
			DALIC_TRY(dalic_pyparse_list_push(p, &call->call.args, e));
		}
		if (!dalic_pyparse_accept_op(p, OP_COMMA))
			break;
	}
	return dalic_pyparse_expect_op(p, OP_RPAR, "to close the call");
}

static int pyparse_slice_item(pyparser_t *p, pynode_t **out)
{
	const pytoken_t *t = dalic_pyparse_peek(p);
	pynode_t *lo = NULL;
	if (!dalic_pyparse_is_op(p, OP_COLON)) {
		DALIC_TRY(pyparse_star_or_named(p, &lo));
		if (!dalic_pyparse_is_op(p, OP_COLON)) {
			*out = lo;
			return DALIC_OK;
		}
	}
	pynode_t *s;
	PYPARSE_NEW(s, N_SLICE, t);
	s->slice.lo = lo;
	dalic_pyparse_next(p); /* ':' */
	if (!dalic_pyparse_is_op(p, OP_COLON) && !dalic_pyparse_is_op(p, OP_COMMA) &&
	    !dalic_pyparse_is_op(p, OP_RSQB))
		DALIC_TRY(dalic_pyparse_test(p, &s->slice.hi));
	if (dalic_pyparse_accept_op(p, OP_COLON) && !dalic_pyparse_is_op(p, OP_COMMA) &&
	    !dalic_pyparse_is_op(p, OP_RSQB))
		DALIC_TRY(dalic_pyparse_test(p, &s->slice.step));
	*out = s;
	return DALIC_OK;
}

static int pyparse_subscript(pyparser_t *p, pynode_t **out)
{
	const pytoken_t *open = dalic_pyparse_next(p);
	pynode_t *first;
	DALIC_TRY(pyparse_slice_item(p, &first));
	if (dalic_pyparse_is_op(p, OP_COMMA)) {
		pynode_t *t;
		PYPARSE_NEW(t, N_TUPLE, open);
		DALIC_TRY(dalic_pyparse_list_push(p, &t->elts, first));
		while (dalic_pyparse_accept_op(p, OP_COMMA)) {
			if (dalic_pyparse_is_op(p, OP_RSQB))
				break;
			pynode_t *e;
			DALIC_TRY(pyparse_slice_item(p, &e));
			DALIC_TRY(dalic_pyparse_list_push(p, &t->elts, e));
		}
		first = t;
	}
	DALIC_TRY(dalic_pyparse_expect_op(p, OP_RSQB, "to close the subscript"));
	*out = first;
	return DALIC_OK;
}

static int pyparse_primary(pyparser_t *p, pynode_t **out)
{
	pynode_t *e = NULL;
	DALIC_TRY(pyparse_atom(p, &e));
	for (;;) {
		const pytoken_t *t = dalic_pyparse_peek(p);
		if (dalic_pyparse_is_op(p, OP_LPAR)) {
			dalic_pyparse_next(p);
			pynode_t *c;
			PYPARSE_NEW(c, N_CALL, t);
			c->line = e->line;
			c->col = e->col;
			c->call.func = e;
			DALIC_TRY(pyparse_call_args(p, c));
			e = c;
		} else if (dalic_pyparse_is_op(p, OP_LSQB)) {
			pynode_t *s;
			PYPARSE_NEW(s, N_SUBSCRIPT, t);
			s->line = e->line;
			s->col = e->col;
			s->sub.value = e;
			DALIC_TRY(pyparse_subscript(p, &s->sub.index));
			e = s;
		} else if (dalic_pyparse_is_op(p, OP_DOT)) {
			dalic_pyparse_next(p);
			const pytoken_t *name = dalic_pyparse_peek(p);
			if (name->kind != TK_NAME || name->kw)
				return dalic_pyparse_error(
				    p, name, "invalid syntax: expected an attribute name");
			dalic_pyparse_next(p);
			pynode_t *a;
			PYPARSE_NEW(a, N_ATTR, name);
			a->line =
			    e->line; /* like Python: the attribute expression starts at its value */
			a->col = e->col;
			a->attr.value = e;
			a->attr.attr = dalic_pyarena_strndup(p->a, name->text, (size_t)name->len);
			if (!a->attr.attr)
				return DALIC_ENOMEM;
			e = a;
		} else {
			break;
		}
	}
	*out = e;
	return DALIC_OK;
}

/* ---- operator precedence ------------------------------------------------------------- */

static int pyparse_factor(pyparser_t *p, pynode_t **out);

static int pyparse_power(pyparser_t *p, pynode_t **out)
{
	pynode_t *base = NULL;
	DALIC_TRY(pyparse_primary(p, &base));
	if (dalic_pyparse_is_op(p, OP_DSTAR)) {
		const pytoken_t *t = dalic_pyparse_next(p);
		pynode_t *b;
		PYPARSE_NEW(b, N_BINOP, t);
		b->line = base->line;
		b->col = base->col;
		b->bin.op = OP_DSTAR;
		b->bin.left = base;
		DALIC_TRY(dalic_pyparse_enter(p));
		int rc = pyparse_factor(p, &b->bin.right);
		dalic_pyparse_leave(p);
		DALIC_TRY(rc);
		base = b;
	}
	*out = base;
	return DALIC_OK;
}

static int pyparse_factor(pyparser_t *p, pynode_t **out)
{
	const pytoken_t *t = dalic_pyparse_peek(p);
	if (dalic_pyparse_is_op(p, OP_MINUS) || dalic_pyparse_is_op(p, OP_PLUS) ||
	    dalic_pyparse_is_op(p, OP_TILDE)) {
		dalic_pyparse_next(p);
		pynode_t *u;
		PYPARSE_NEW(u, N_UNARY, t);
		u->unary.op = t->op == OP_MINUS ? U_NEG : t->op == OP_PLUS ? U_POS : U_INVERT;
		DALIC_TRY(dalic_pyparse_enter(p));
		int rc = pyparse_factor(p, &u->unary.operand);
		dalic_pyparse_leave(p);
		DALIC_TRY(rc);
		*out = u;
		return DALIC_OK;
	}
	return pyparse_power(p, out);
}

typedef int (*level_fn)(pyparser_t *p, pynode_t **out);

/* Left-associative binary level: operand (op operand)*. */
static int pyparse_binary_level(pyparser_t *p, pynode_t **out, level_fn operand, const pyop_t *ops)
{
	pynode_t *left;
	DALIC_TRY(operand(p, &left));
	for (;;) {
		const pytoken_t *t = dalic_pyparse_peek(p);
		bool match = false;
		for (const pyop_t *o = ops; *o; o++)
			match |= t->kind == TK_OP && t->op == *o;
		if (!match)
			break;
		dalic_pyparse_next(p);
		pynode_t *b;
		PYPARSE_NEW(b, N_BINOP, t);
		b->line = left->line;
		b->col = left->col;
		b->bin.op = t->op;
		b->bin.left = left;
		DALIC_TRY(operand(p, &b->bin.right));
		left = b;
	}
	*out = left;
	return DALIC_OK;
}

static int pyparse_term(pyparser_t *p, pynode_t **out)
{
	static const pyop_t ops[] = {OP_STAR, OP_SLASH, OP_DSLASH, OP_PERCENT, OP_AT, 0};
	return pyparse_binary_level(p, out, pyparse_factor, ops);
}

static int pyparse_arith(pyparser_t *p, pynode_t **out)
{
	static const pyop_t ops[] = {OP_PLUS, OP_MINUS, 0};
	return pyparse_binary_level(p, out, pyparse_term, ops);
}

static int pyparse_shift(pyparser_t *p, pynode_t **out)
{
	static const pyop_t ops[] = {OP_LSHIFT, OP_RSHIFT, 0};
	return pyparse_binary_level(p, out, pyparse_arith, ops);
}

static int pyparse_bitand_(pyparser_t *p, pynode_t **out)
{
	static const pyop_t ops[] = {OP_AMP, 0};
	return pyparse_binary_level(p, out, pyparse_shift, ops);
}

static int pyparse_bitxor_(pyparser_t *p, pynode_t **out)
{
	static const pyop_t ops[] = {OP_CARET, 0};
	return pyparse_binary_level(p, out, pyparse_bitand_, ops);
}

int dalic_pyparse_expr(pyparser_t *p, pynode_t **out)
{
	static const pyop_t ops[] = {OP_PIPE, 0};
	DALIC_TRY(dalic_pyparse_enter(p));
	int rc = pyparse_binary_level(p, out, pyparse_bitxor_, ops);
	dalic_pyparse_leave(p);
	return rc;
}

static bool pyparse_comparison_op(pyparser_t *p, pycmp_t *op, int *ntok)
{
	const pytoken_t *t = dalic_pyparse_peek(p);
	*ntok = 1;
	if (t->kind == TK_OP) {
		switch (t->op) {
		case OP_EQ:
			*op = CMP_EQ;
			return true;
		case OP_NE:
			*op = CMP_NE;
			return true;
		case OP_LT:
			*op = CMP_LT;
			return true;
		case OP_LE:
			*op = CMP_LE;
			return true;
		case OP_GT:
			*op = CMP_GT;
			return true;
		case OP_GE:
			*op = CMP_GE;
			return true;
		default:
			return false;
		}
	}
	if (t->kind != TK_NAME)
		return false;
	if (t->kw == KW_IN) {
		*op = CMP_IN;
		return true;
	}
	if (t->kw == KW_NOT && dalic_pyparse_peek_at(p, 1)->kw == KW_IN &&
	    dalic_pyparse_peek_at(p, 1)->kind == TK_NAME) {
		*op = CMP_NOTIN;
		*ntok = 2;
		return true;
	}
	if (t->kw == KW_IS) {
		if (dalic_pyparse_peek_at(p, 1)->kind == TK_NAME &&
		    dalic_pyparse_peek_at(p, 1)->kw == KW_NOT) {
			*op = CMP_ISNOT;
			*ntok = 2;
		} else {
			*op = CMP_IS;
		}
		return true;
	}
	return false;
}

static int pyparse_comparison(pyparser_t *p, pynode_t **out)
{
	pynode_t *left;
	DALIC_TRY(dalic_pyparse_expr(p, &left));
	pycmp_t op;
	int ntok;
	if (!pyparse_comparison_op(p, &op, &ntok)) {
		*out = left;
		return DALIC_OK;
	}
	pynode_t *c;
	PYPARSE_NEW(c, N_COMPARE, dalic_pyparse_peek(p));
	c->line = left->line;
	c->col = left->col;
	c->cmp.left = left;
	int cap = 0;
	while (pyparse_comparison_op(p, &op, &ntok)) {
		for (int i = 0; i < ntok; i++)
			dalic_pyparse_next(p);
		if (c->cmp.rest.n == cap) {
			cap = cap ? cap * 2 : 4;
			pycmp_t *ops = dalic_pyarena_alloc(p->a, sizeof *ops * (size_t)cap);
			if (!ops)
				return DALIC_ENOMEM;
			if (c->cmp.rest.n)
				memcpy(ops, c->cmp.ops, sizeof *ops * (size_t)c->cmp.rest.n);
			c->cmp.ops = ops;
		}
		c->cmp.ops[c->cmp.rest.n] = op;
		pynode_t *r;
		DALIC_TRY(dalic_pyparse_expr(p, &r));
		DALIC_TRY(dalic_pyparse_list_push(p, &c->cmp.rest, r));
	}
	*out = c;
	return DALIC_OK;
}

static int pyparse_not_test(pyparser_t *p, pynode_t **out)
{
	if (dalic_pyparse_is_kw(p, KW_NOT)) {
		const pytoken_t *t = dalic_pyparse_next(p);
		pynode_t *u;
		PYPARSE_NEW(u, N_UNARY, t);
		u->unary.op = U_NOT;
		DALIC_TRY(dalic_pyparse_enter(p));
		int rc = pyparse_not_test(p, &u->unary.operand);
		dalic_pyparse_leave(p);
		DALIC_TRY(rc);
		*out = u;
		return DALIC_OK;
	}
	return pyparse_comparison(p, out);
}

static int pyparse_bool_level(pyparser_t *p, pynode_t **out, level_fn operand, pykw_t kw,
                              pyboolop_t op)
{
	pynode_t *first;
	DALIC_TRY(operand(p, &first));
	if (!dalic_pyparse_is_kw(p, kw)) {
		*out = first;
		return DALIC_OK;
	}
	pynode_t *b;
	PYPARSE_NEW(b, N_BOOLOP, dalic_pyparse_peek(p));
	b->line = first->line;
	b->col = first->col;
	b->boolop.op = op;
	DALIC_TRY(dalic_pyparse_list_push(p, &b->boolop.values, first));
	while (dalic_pyparse_accept_kw(p, kw)) {
		pynode_t *e;
		DALIC_TRY(operand(p, &e));
		DALIC_TRY(dalic_pyparse_list_push(p, &b->boolop.values, e));
	}
	*out = b;
	return DALIC_OK;
}

static int pyparse_and_test(pyparser_t *p, pynode_t **out)
{
	return pyparse_bool_level(p, out, pyparse_not_test, KW_AND, B_AND);
}

int dalic_pyparse_or_test(pyparser_t *p, pynode_t **out)
{
	return pyparse_bool_level(p, out, pyparse_and_test, KW_OR, B_OR);
}

int dalic_pyparse_params(pyparser_t *p, pyparams_t *out, pyop_t close, bool annotations)
{
	int cap = 0;
	bool seen_default = false, kwonly = false;
	while (!dalic_pyparse_is_op(p, close)) {
		const pytoken_t *t = dalic_pyparse_peek(p);
		int kind = kwonly ? P_KWONLY : P_NORMAL;
		if (dalic_pyparse_accept_op(p, OP_SLASH)) {
			if (!dalic_pyparse_accept_op(p, OP_COMMA))
				break;
			continue;
		}
		if (dalic_pyparse_accept_op(p, OP_STAR)) {
			kwonly = true;
			if (dalic_pyparse_is_op(p, OP_COMMA) || dalic_pyparse_is_op(p, close)) {
				if (!dalic_pyparse_accept_op(p, OP_COMMA))
					break;
				continue;
			}
			kind = P_VARARGS;
		} else if (dalic_pyparse_accept_op(p, OP_DSTAR)) {
			kind = P_VARKW;
		}
		const pytoken_t *name = dalic_pyparse_peek(p);
		if (name->kind != TK_NAME || name->kw)
			return dalic_pyparse_error(p, name,
			                           "invalid syntax: expected a parameter name");
		dalic_pyparse_next(p);
		if (out->n == cap) {
			cap = cap ? cap * 2 : 4;
			pyparam_t *v = dalic_pyarena_alloc(p->a, sizeof *v * (size_t)cap);
			if (!v)
				return DALIC_ENOMEM;
			if (out->n)
				memcpy(v, out->v, sizeof *v * (size_t)out->n);
			out->v = v;
		}
		pyparam_t *pa = &out->v[out->n++];
		memset(pa, 0, sizeof *pa);
		pa->name = dalic_pyarena_strndup(p->a, name->text, (size_t)name->len);
		if (!pa->name)
			return DALIC_ENOMEM;
		pa->kind = kind;
		pa->line = t->line;
		pa->col = t->col;
		for (int i = 0; i < out->n - 1; i++)
			if (!strcmp(out->v[i].name, pa->name))
				return dalic_pyparse_error(
				    p, name, "duplicate argument '%s' in function definition",
				    pa->name);
		if (annotations && dalic_pyparse_accept_op(p, OP_COLON)) {
			pynode_t *ann;
			DALIC_TRY(dalic_pyparse_test(p, &ann));
		}
		if (dalic_pyparse_accept_op(p, OP_ASSIGN)) {
			if (kind == P_VARARGS || kind == P_VARKW)
				return dalic_pyparse_error(
				    p, name,
				    "var-positional / var-keyword parameters cannot "
				    "have a default value");
			DALIC_TRY(dalic_pyparse_test(p, &pa->def));
			if (kind == P_NORMAL)
				seen_default = true;
		} else if (kind == P_NORMAL && seen_default) {
			return dalic_pyparse_error(
			    p, name,
			    "parameter without a default follows parameter with a "
			    "default");
		}
		if (kind == P_VARKW && !dalic_pyparse_is_op(p, close) &&
		    !(dalic_pyparse_is_op(p, OP_COMMA) &&
		      dalic_pyparse_peek_at(p, 1)->kind == TK_OP &&
		      dalic_pyparse_peek_at(p, 1)->op == close))
			return dalic_pyparse_error(p, dalic_pyparse_peek(p),
			                           "arguments cannot follow var-keyword argument");
		if (!dalic_pyparse_accept_op(p, OP_COMMA))
			break;
	}
	return DALIC_OK;
}

static int pyparse_lambda(pyparser_t *p, pynode_t **out)
{
	const pytoken_t *t = dalic_pyparse_next(p);
	pynode_t *l;
	PYPARSE_NEW(l, N_LAMBDA, t);
	DALIC_TRY(dalic_pyparse_enter(p)); /* lambda: lambda: ... nests like parentheses */
	int rc = dalic_pyparse_params(p, &l->lambda.params, OP_COLON, false);
	if (!rc)
		rc = dalic_pyparse_expect_op(p, OP_COLON, "after the lambda parameters");
	if (!rc)
		rc = dalic_pyparse_test(p, &l->lambda.body);
	dalic_pyparse_leave(p);
	*out = l;
	return rc;
}

int dalic_pyparse_test(pyparser_t *p, pynode_t **out)
{
	if (dalic_pyparse_is_kw(p, KW_LAMBDA))
		return pyparse_lambda(p, out);
	DALIC_TRY(dalic_pyparse_enter(p));
	pynode_t *e;
	int rc = dalic_pyparse_or_test(p, &e);
	if (!rc && dalic_pyparse_is_kw(p, KW_IF)) {
		const pytoken_t *t = dalic_pyparse_next(p);
		pynode_t *c = dalic_pyparse_node(p, N_IFEXP, t);
		if (!c)
			rc = DALIC_ENOMEM;
		if (!rc) {
			c->line = e->line;
			c->col = e->col;
			c->ifexp.body = e;
			rc = dalic_pyparse_or_test(p, &c->ifexp.test);
		}
		if (!rc && !dalic_pyparse_accept_kw(p, KW_ELSE))
			rc = dalic_pyparse_error(p, dalic_pyparse_peek(p),
			                         "invalid syntax: expected 'else' after 'if' "
			                         "expression");
		if (!rc)
			rc = dalic_pyparse_test(p, &c->ifexp.orelse);
		e = c;
	}
	dalic_pyparse_leave(p);
	*out = e;
	return rc;
}

int dalic_pyparse_namedexpr(pyparser_t *p, pynode_t **out)
{
	const pytoken_t *t = dalic_pyparse_peek(p);
	if (t->kind == TK_NAME && !t->kw && dalic_pyparse_peek_at(p, 1)->kind == TK_OP &&
	    dalic_pyparse_peek_at(p, 1)->op == OP_WALRUS) {
		dalic_pyparse_next(p);
		dalic_pyparse_next(p);
		pynode_t *n, *target;
		PYPARSE_NEW(n, N_NAMEDEXPR, t);
		PYPARSE_NEW(target, N_NAME, t);
		target->name = dalic_pyarena_strndup(p->a, t->text, (size_t)t->len);
		if (!target->name)
			return DALIC_ENOMEM;
		n->named.target = target;
		DALIC_TRY(dalic_pyparse_test(p, &n->named.value));
		*out = n;
		return DALIC_OK;
	}
	return dalic_pyparse_test(p, out);
}

int dalic_pyparse_star_expressions(pyparser_t *p, pynode_t **out)
{
	const pytoken_t *start = dalic_pyparse_peek(p);
	pynode_t *first;
	DALIC_TRY(pyparse_star_or_named(p, &first));
	if (!dalic_pyparse_is_op(p, OP_COMMA)) {
		*out = first;
		return DALIC_OK;
	}
	pynode_t *t;
	PYPARSE_NEW(t, N_TUPLE, start);
	DALIC_TRY(dalic_pyparse_list_push(p, &t->elts, first));
	while (dalic_pyparse_accept_op(p, OP_COMMA)) {
		const pytoken_t *n = dalic_pyparse_peek(p);
		if (n->kind == TK_NEWLINE || n->kind == TK_EOF ||
		    (n->kind == TK_OP &&
		     (n->op == OP_ASSIGN || n->op == OP_SEMI || n->op == OP_RPAR ||
		      n->op == OP_COLON || (n->op >= OP_PLUSEQ && n->op <= OP_CARETEQ))))
			break;
		pynode_t *e;
		DALIC_TRY(pyparse_star_or_named(p, &e));
		DALIC_TRY(dalic_pyparse_list_push(p, &t->elts, e));
	}
	*out = t;
	return DALIC_OK;
}

int dalic_pyparse_target_list(pyparser_t *p, pynode_t **out)
{
	const pytoken_t *start = dalic_pyparse_peek(p);
	pynode_t *first;
	if (dalic_pyparse_is_op(p, OP_STAR)) {
		DALIC_TRY(pyparse_star_or_named(p, &first));
	} else {
		DALIC_TRY(dalic_pyparse_expr(p, &first));
	}
	if (!dalic_pyparse_is_op(p, OP_COMMA)) {
		*out = first;
		return DALIC_OK;
	}
	pynode_t *t;
	PYPARSE_NEW(t, N_TUPLE, start);
	DALIC_TRY(dalic_pyparse_list_push(p, &t->elts, first));
	while (dalic_pyparse_accept_op(p, OP_COMMA)) {
		if (dalic_pyparse_is_kw(p, KW_IN) || dalic_pyparse_is_op(p, OP_ASSIGN))
			break;
		pynode_t *e;
		if (dalic_pyparse_is_op(p, OP_STAR)) {
			DALIC_TRY(pyparse_star_or_named(p, &e));
		} else {
			DALIC_TRY(dalic_pyparse_expr(p, &e));
		}
		DALIC_TRY(dalic_pyparse_list_push(p, &t->elts, e));
	}
	*out = t;
	return DALIC_OK;
}
