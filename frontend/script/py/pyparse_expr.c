/*
 * Expression parser: Python's precedence ladder from lambda / conditional expressions and
 * and / or / not, through comparisons and the binary operators, down to unary operators and
 * power (atoms and trailers are in pyparse_atom.c); parameter lists; tuple targets of
 * assignments and for loops.
 */
#include "frontend/script/py/pyparse.h"

#include "dalic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- operator precedence ------------------------------------------------------------- */

static int pyparse_factor(pyparser_t *p, pynode_t **out);

/* power: primary ["**" factor] */
static int pyparse_power(pyparser_t *p, pynode_t **out)
{
	pynode_t *base = NULL;
	DALIC_TRY(dalic_pyparse_primary(p, &base));
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

/* factor: ("+" | "-" | "~") factor | power */
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

/* level: operand (op operand)*   (left-associative; a loop) */
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

/* term: factor (("*" | "/" | "//" | "%" | "@") factor)* */
static int pyparse_term(pyparser_t *p, pynode_t **out)
{
	static const pyop_t ops[] = {OP_STAR, OP_SLASH, OP_DSLASH, OP_PERCENT, OP_AT, 0};
	return pyparse_binary_level(p, out, pyparse_factor, ops);
}

/* arith_expr: term (("+" | "-") term)* */
static int pyparse_arith(pyparser_t *p, pynode_t **out)
{
	static const pyop_t ops[] = {OP_PLUS, OP_MINUS, 0};
	return pyparse_binary_level(p, out, pyparse_term, ops);
}

/* shift_expr: arith_expr (("<<" | ">>") arith_expr)* */
static int pyparse_shift(pyparser_t *p, pynode_t **out)
{
	static const pyop_t ops[] = {OP_LSHIFT, OP_RSHIFT, 0};
	return pyparse_binary_level(p, out, pyparse_arith, ops);
}

/* and_expr: shift_expr ("&" shift_expr)* */
static int pyparse_bitand_(pyparser_t *p, pynode_t **out)
{
	static const pyop_t ops[] = {OP_AMP, 0};
	return pyparse_binary_level(p, out, pyparse_shift, ops);
}

/* xor_expr: and_expr ("^" and_expr)* */
static int pyparse_bitxor_(pyparser_t *p, pynode_t **out)
{
	static const pyop_t ops[] = {OP_CARET, 0};
	return pyparse_binary_level(p, out, pyparse_bitand_, ops);
}

/* expr: xor_expr ("|" xor_expr)* */
int dalic_pyparse_expr(pyparser_t *p, pynode_t **out)
{
	static const pyop_t ops[] = {OP_PIPE, 0};
	DALIC_TRY(dalic_pyparse_enter(p));
	int rc = pyparse_binary_level(p, out, pyparse_bitxor_, ops);
	dalic_pyparse_leave(p);
	return rc;
}

/* comp_op: "<" | ">" | "==" | ">=" | "<=" | "!=" | "in" | "not" "in" | "is" | "is" "not" */
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

/* comparison: expr (comp_op expr)* */
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

/* not_test: "not" not_test | comparison */
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

/* level: operand (keyword operand)* */
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

/* and_test: not_test ("and" not_test)* */
static int pyparse_and_test(pyparser_t *p, pynode_t **out)
{
	return pyparse_bool_level(p, out, pyparse_not_test, KW_AND, B_AND);
}

/* or_test: and_test ("or" and_test)* */
int dalic_pyparse_or_test(pyparser_t *p, pynode_t **out)
{
	return pyparse_bool_level(p, out, pyparse_and_test, KW_OR, B_OR);
}

/*
 * parameters: [parameter ("," parameter)* [","]]   (up to `close`)
 * parameter: NAME [":" test] ["=" test] | "*" [NAME [":" test]] | "**" NAME [":" test] | "/"
 *   (annotations only in a def)
 */
static int pyparse_param_cmp(const void *x, const void *y, void *params)
{
	const pyparam_t *v = params;
	int i = *(const int *)x, j = *(const int *)y;
	int c = strcmp(v[i].name, v[j].name);
	return c ? c : i - j;
}

/* A name given twice is an error at its second occurrence; sorted, not pairwise, so a
 * hostile 50k-parameter def stays fast. */
static int pyparse_unique_params(pyparser_t *p, const pyparams_t *ps)
{
	if (ps->n < 2)
		return DALIC_OK;
	int *order = dalic_pyarena_alloc(p->a, sizeof *order * (size_t)ps->n);
	if (!order)
		return DALIC_ENOMEM;
	for (int i = 0; i < ps->n; i++)
		order[i] = i;
	qsort_r(order, (size_t)ps->n, sizeof *order, pyparse_param_cmp, ps->v);
	int dup = -1;
	for (int k = 1; k < ps->n; k++)
		if (!strcmp(ps->v[order[k]].name, ps->v[order[k - 1]].name) &&
		    (dup < 0 || order[k] < dup))
			dup = order[k];
	if (dup < 0)
		return DALIC_OK;
	const pyparam_t *d = &ps->v[dup];
	return dalic_pysrc_error(p->src, d->line, d->col, DALIC_EPARSE,
	                         "duplicate argument '%s' in function definition", d->name);
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
	return pyparse_unique_params(p, out);
}

int dalic_pyparse_yield(pyparser_t *p, pynode_t **out)
{
	const pytoken_t *t = dalic_pyparse_next(p);
	if (!p->func_depth)
		return dalic_pyparse_error(p, t, "'yield' outside function");
	pynode_t *y;
	if (dalic_pyparse_accept_kw(p, KW_FROM)) {
		PYPARSE_NEW(y, N_YIELDFROM, t);
		DALIC_TRY(dalic_pyparse_test(p, &y->yield.value));
	} else {
		PYPARSE_NEW(y, N_YIELD, t);
		const pytoken_t *n = dalic_pyparse_peek(p);
		bool end = n->kind == TK_NEWLINE || n->kind == TK_EOF ||
		           (n->kind == TK_OP && (n->op == OP_RPAR || n->op == OP_SEMI ||
		                                 n->op == OP_ASSIGN));
		if (!end)
			DALIC_TRY(dalic_pyparse_star_expressions(p, &y->yield.value));
	}
	p->yields++;
	p->yield_line = t->line;
	p->yield_col = t->col;
	*out = y;
	return DALIC_OK;
}

int dalic_pyparse_no_yield_since(pyparser_t *p, const pynode_t *at, const char *where)
{
	if (!p->yields ||
	    (p->yield_line < at->line || (p->yield_line == at->line && p->yield_col < at->col)))
		return DALIC_OK;
	pynode_t y = {.line = p->yield_line, .col = p->yield_col};
	return dalic_pyparse_error_node(p, &y, "'yield' inside %s", where);
}

/* lambdef: "lambda" parameters ":" test */
static int pyparse_lambda(pyparser_t *p, pynode_t **out)
{
	const pytoken_t *t = dalic_pyparse_next(p);
	pynode_t *l;
	PYPARSE_NEW(l, N_LAMBDA, t);
	DALIC_TRY(dalic_pyparse_enter(p)); /* lambda: lambda: ... nests like parentheses */
	int rc = dalic_pyparse_params(p, &l->lambda.params, OP_COLON, false);
	if (!rc)
		rc = dalic_pyparse_expect_op(p, OP_COLON, "after the lambda parameters");
	p->func_depth++; /* a yield in it is refused below, not as outside a function */
	if (!rc)
		rc = dalic_pyparse_test(p, &l->lambda.body);
	p->func_depth--;
	if (!rc)
		rc = dalic_pyparse_no_yield_since(p, l, "a lambda");
	dalic_pyparse_leave(p);
	*out = l;
	return rc;
}

/* test: or_test ["if" or_test "else" test] | lambdef */
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

/* namedexpr_test: NAME ":=" test | test */
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

/* star_expressions: star_named_expression ("," star_named_expression)* [","] */
int dalic_pyparse_star_expressions(pyparser_t *p, pynode_t **out)
{
	const pytoken_t *start = dalic_pyparse_peek(p);
	pynode_t *first;
	DALIC_TRY(dalic_pyparse_star_or_named(p, &first));
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
		DALIC_TRY(dalic_pyparse_star_or_named(p, &e));
		DALIC_TRY(dalic_pyparse_list_push(p, &t->elts, e));
	}
	*out = t;
	return DALIC_OK;
}

/*
 * target_list: target ("," target)* [","]   (up to "in" or "=")
 * target: "*" expr | expr
 */
int dalic_pyparse_target_list(pyparser_t *p, pynode_t **out)
{
	const pytoken_t *start = dalic_pyparse_peek(p);
	pynode_t *first;
	if (dalic_pyparse_is_op(p, OP_STAR)) {
		DALIC_TRY(dalic_pyparse_star_or_named(p, &first));
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
			DALIC_TRY(dalic_pyparse_star_or_named(p, &e));
		} else {
			DALIC_TRY(dalic_pyparse_expr(p, &e));
		}
		DALIC_TRY(dalic_pyparse_list_push(p, &t->elts, e));
	}
	*out = t;
	return DALIC_OK;
}
