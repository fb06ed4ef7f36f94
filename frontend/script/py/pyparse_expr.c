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

static int comprehension(sparser_t *p, snode_t *node)
{
	while (sp_is_kw(p, KW_FOR) || sp_is_kw(p, KW_ASYNC)) {
		if (sp_is_kw(p, KW_ASYNC))
			return sp_error(p, sp_peek(p), "async comprehensions are not supported");
		sp_next(p);
		scomp_t *g = script_arena_alloc(p->a, sizeof *g * (size_t)(node->comp.ngens + 1));
		if (!g)
			return DALIC_ENOMEM;
		if (node->comp.ngens)
			memcpy(g, node->comp.gens, sizeof *g * (size_t)node->comp.ngens);
		node->comp.gens = g;
		scomp_t *c = &g[node->comp.ngens++];
		TRY(sp_target_list(p, &c->target));
		TRY(sp_check_target(p, c->target, "comprehension"));
		if (!sp_accept_kw(p, KW_IN))
			return sp_error(p, sp_peek(p), "invalid syntax: expected 'in'");
		TRY(sp_or_test(p, &c->iter));
		while (sp_is_kw(p, KW_IF)) {
			sp_next(p);
			snode_t *cond;
			TRY(sp_or_test(p, &cond));
			TRY(sp_list_push(p, &c->ifs, cond));
		}
	}
	return DALIC_OK;
}

static int star_or_named(sparser_t *p, snode_t **out)
{
	if (sp_is_op(p, OP_STAR)) {
		const script_token_t *t = sp_next(p);
		snode_t *s;
		NEW(s, N_STARRED, t);
		TRY(sp_expr(p, &s->starred.value));
		*out = s;
		return DALIC_OK;
	}
	return sp_namedexpr(p, out);
}

/* Rest of a tuple/list/set display after its first element; stops before `close`. */
static int display_rest(sparser_t *p, snode_t *n, script_op_t close)
{
	while (sp_accept_op(p, OP_COMMA)) {
		if (sp_is_op(p, close))
			break;
		snode_t *e;
		TRY(star_or_named(p, &e));
		TRY(sp_list_push(p, &n->elts, e));
	}
	return DALIC_OK;
}

static int paren(sparser_t *p, snode_t **out)
{
	const script_token_t *open = sp_next(p);
	if (sp_accept_op(p, OP_RPAR)) {
		NEW(*out, N_TUPLE, open);
		return DALIC_OK;
	}
	if (sp_is_kw(p, KW_YIELD))
		return sp_error(p, sp_peek(p), "'yield' is not supported in pipeline scripts");
	snode_t *first;
	TRY(star_or_named(p, &first));
	if (sp_is_kw(p, KW_FOR)) {
		snode_t *g;
		NEW(g, N_GENEXP, open);
		g->comp.elt = first;
		TRY(comprehension(p, g));
		TRY(sp_expect_op(p, OP_RPAR, "to close the generator expression"));
		*out = g;
		return DALIC_OK;
	}
	if (sp_is_op(p, OP_COMMA)) {
		snode_t *t;
		NEW(t, N_TUPLE, open);
		TRY(sp_list_push(p, &t->elts, first));
		TRY(display_rest(p, t, OP_RPAR));
		TRY(sp_expect_op(p, OP_RPAR, "to close the tuple"));
		*out = t;
		return DALIC_OK;
	}
	if (first->kind == N_STARRED)
		return sp_error_node(p, first, "cannot use starred expression here");
	TRY(sp_expect_op(p, OP_RPAR, "to close the parenthesis"));
	*out = first;
	return DALIC_OK;
}

static int list_display(sparser_t *p, snode_t **out)
{
	const script_token_t *open = sp_next(p);
	snode_t *l;
	NEW(l, N_LIST, open);
	if (sp_accept_op(p, OP_RSQB)) {
		*out = l;
		return DALIC_OK;
	}
	snode_t *first;
	TRY(star_or_named(p, &first));
	if (sp_is_kw(p, KW_FOR)) {
		l->kind = N_LISTCOMP;
		l->comp.elt = first;
		TRY(comprehension(p, l));
	} else {
		TRY(sp_list_push(p, &l->elts, first));
		TRY(display_rest(p, l, OP_RSQB));
	}
	TRY(sp_expect_op(p, OP_RSQB, "to close the list"));
	*out = l;
	return DALIC_OK;
}

static int dict_or_set(sparser_t *p, snode_t **out)
{
	const script_token_t *open = sp_next(p);
	snode_t *d;
	NEW(d, N_DICT, open);
	if (sp_accept_op(p, OP_RBRACE)) {
		*out = d;
		return DALIC_OK;
	}
	snode_t *k = NULL, *v = NULL;
	if (sp_accept_op(p, OP_DSTAR)) {
		TRY(sp_expr(p, &v));
	} else {
		TRY(star_or_named(p, &k));
		if (!sp_accept_op(p, OP_COLON)) {
			/* a set */
			if (sp_is_kw(p, KW_FOR)) {
				d->kind = N_SETCOMP;
				d->comp.elt = k;
				TRY(comprehension(p, d));
			} else {
				d->kind = N_SET;
				memset(&d->dict, 0, sizeof d->dict);
				TRY(sp_list_push(p, &d->elts, k));
				TRY(display_rest(p, d, OP_RBRACE));
			}
			TRY(sp_expect_op(p, OP_RBRACE, "to close the set"));
			*out = d;
			return DALIC_OK;
		}
		TRY(sp_test(p, &v));
		if (sp_is_kw(p, KW_FOR)) {
			d->kind = N_DICTCOMP;
			d->comp.elt = k;
			d->comp.value = v;
			TRY(comprehension(p, d));
			TRY(sp_expect_op(p, OP_RBRACE, "to close the dict comprehension"));
			*out = d;
			return DALIC_OK;
		}
	}
	TRY(sp_list_push(p, &d->dict.keys, k));
	TRY(sp_list_push(p, &d->dict.values, v));
	while (sp_accept_op(p, OP_COMMA)) {
		if (sp_is_op(p, OP_RBRACE))
			break;
		k = NULL;
		if (sp_accept_op(p, OP_DSTAR)) {
			TRY(sp_expr(p, &v));
		} else {
			TRY(sp_test(p, &k));
			TRY(sp_expect_op(p, OP_COLON, "after a dict key"));
			TRY(sp_test(p, &v));
		}
		TRY(sp_list_push(p, &d->dict.keys, k));
		TRY(sp_list_push(p, &d->dict.values, v));
	}
	TRY(sp_expect_op(p, OP_RBRACE, "to close the dict"));
	*out = d;
	return DALIC_OK;
}

static int atom(sparser_t *p, snode_t **out)
{
	const script_token_t *t = sp_peek(p);
	char buf[64];
	switch (t->kind) {
	case TK_NAME:
		switch (t->kw) {
		case KW_NONE:
			sp_next(p);
			NEW(*out, N_NAME, t);
			(*out)->name = script_arena_strndup(p->a, t->text, (size_t)t->len);
			return (*out)->name ? DALIC_OK : DALIC_ENOMEM;
		case KW_NONE_:
			sp_next(p);
			NEW(*out, N_NONE, t);
			return DALIC_OK;
		case KW_TRUE:
		case KW_FALSE:
			sp_next(p);
			NEW(*out, N_BOOL, t);
			(*out)->b = t->kw == KW_TRUE;
			return DALIC_OK;
		case KW_AWAIT:
		case KW_YIELD:
			return sp_error(p, t, "'%s' is not supported in pipeline scripts",
			                script_kw_text(t->kw));
		default:
			return sp_error(p, t, "invalid syntax: unexpected keyword '%s'",
			                script_kw_text(t->kw));
		}
	case TK_INT:
		sp_next(p);
		NEW(*out, N_INT, t);
		(*out)->i = t->ival;
		return DALIC_OK;
	case TK_FLOAT:
		sp_next(p);
		NEW(*out, N_FLOAT, t);
		(*out)->f = t->fval;
		return DALIC_OK;
	case TK_STRING:
		return sp_strings(p, out);
	case TK_OP:
		switch (t->op) {
		case OP_LPAR:
			return paren(p, out);
		case OP_LSQB:
			return list_display(p, out);
		case OP_LBRACE:
			return dict_or_set(p, out);
		case OP_ELLIPSIS:
			sp_next(p);
			NEW(*out, N_ELLIPSIS, t);
			return DALIC_OK;
		default:
			break;
		}
		break;
	case TK_INDENT:
		return sp_error(p, t, "unexpected indent");
	default:
		break;
	}
	return sp_error(p, t, "invalid syntax: unexpected %s", sp_tok_desc(t, buf, sizeof buf));
}

/* ---- trailers: calls, subscripts, attributes ----------------------------------------- */

static int call_args(sparser_t *p, snode_t *call)
{
	bool seen_kw = false;
	while (!sp_is_op(p, OP_RPAR)) {
		const script_token_t *t = sp_peek(p);
		if (sp_accept_op(p, OP_STAR)) {
			snode_t *s;
			NEW(s, N_STARRED, t);
			TRY(sp_test(p, &s->starred.value));
			TRY(sp_list_push(p, &call->call.args, s));
		} else if (sp_accept_op(p, OP_DSTAR)) {
			snode_t *k;
			NEW(k, N_KEYWORD, t);
			TRY(sp_test(p, &k->kw.value));
			TRY(sp_list_push(p, &call->call.kwargs, k));
			seen_kw = true;
		} else if (t->kind == TK_NAME && !t->kw && sp_peek_at(p, 1)->kind == TK_OP &&
		           sp_peek_at(p, 1)->op == OP_ASSIGN) {
			sp_next(p);
			sp_next(p);
			snode_t *k;
			NEW(k, N_KEYWORD, t);
			k->kw.arg = script_arena_strndup(p->a, t->text, (size_t)t->len);
			if (!k->kw.arg)
				return DALIC_ENOMEM;
			TRY(sp_test(p, &k->kw.value));
			TRY(sp_list_push(p, &call->call.kwargs, k));
			seen_kw = true;
		} else {
			snode_t *e;
			TRY(sp_namedexpr(p, &e));
			if (sp_is_kw(p, KW_FOR)) {
				snode_t *g;
				NEW(g, N_GENEXP, t);
				g->comp.elt = e;
				TRY(comprehension(p, g));
				e = g;
			}
			if (seen_kw)
				return sp_error_node(
				    p, e, "positional argument follows keyword argument");
			TRY(sp_list_push(p, &call->call.args, e));
		}
		if (!sp_accept_op(p, OP_COMMA))
			break;
	}
	return sp_expect_op(p, OP_RPAR, "to close the call");
}

static int slice_item(sparser_t *p, snode_t **out)
{
	const script_token_t *t = sp_peek(p);
	snode_t *lo = NULL;
	if (!sp_is_op(p, OP_COLON)) {
		TRY(star_or_named(p, &lo));
		if (!sp_is_op(p, OP_COLON)) {
			*out = lo;
			return DALIC_OK;
		}
	}
	snode_t *s;
	NEW(s, N_SLICE, t);
	s->slice.lo = lo;
	sp_next(p); /* ':' */
	if (!sp_is_op(p, OP_COLON) && !sp_is_op(p, OP_COMMA) && !sp_is_op(p, OP_RSQB))
		TRY(sp_test(p, &s->slice.hi));
	if (sp_accept_op(p, OP_COLON) && !sp_is_op(p, OP_COMMA) && !sp_is_op(p, OP_RSQB))
		TRY(sp_test(p, &s->slice.step));
	*out = s;
	return DALIC_OK;
}

static int subscript(sparser_t *p, snode_t **out)
{
	const script_token_t *open = sp_next(p);
	snode_t *first;
	TRY(slice_item(p, &first));
	if (sp_is_op(p, OP_COMMA)) {
		snode_t *t;
		NEW(t, N_TUPLE, open);
		TRY(sp_list_push(p, &t->elts, first));
		while (sp_accept_op(p, OP_COMMA)) {
			if (sp_is_op(p, OP_RSQB))
				break;
			snode_t *e;
			TRY(slice_item(p, &e));
			TRY(sp_list_push(p, &t->elts, e));
		}
		first = t;
	}
	TRY(sp_expect_op(p, OP_RSQB, "to close the subscript"));
	*out = first;
	return DALIC_OK;
}

static int primary(sparser_t *p, snode_t **out)
{
	snode_t *e = NULL;
	TRY(atom(p, &e));
	for (;;) {
		const script_token_t *t = sp_peek(p);
		if (sp_is_op(p, OP_LPAR)) {
			sp_next(p);
			snode_t *c;
			NEW(c, N_CALL, t);
			c->line = e->line;
			c->col = e->col;
			c->call.func = e;
			TRY(call_args(p, c));
			e = c;
		} else if (sp_is_op(p, OP_LSQB)) {
			snode_t *s;
			NEW(s, N_SUBSCRIPT, t);
			s->line = e->line;
			s->col = e->col;
			s->sub.value = e;
			TRY(subscript(p, &s->sub.index));
			e = s;
		} else if (sp_is_op(p, OP_DOT)) {
			sp_next(p);
			const script_token_t *name = sp_peek(p);
			if (name->kind != TK_NAME || name->kw)
				return sp_error(p, name,
				                "invalid syntax: expected an attribute name");
			sp_next(p);
			snode_t *a;
			NEW(a, N_ATTR, name);
			a->line =
			    e->line; /* like Python: the attribute expression starts at its value */
			a->col = e->col;
			a->attr.value = e;
			a->attr.attr = script_arena_strndup(p->a, name->text, (size_t)name->len);
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

static int factor(sparser_t *p, snode_t **out);

static int power(sparser_t *p, snode_t **out)
{
	snode_t *base = NULL;
	TRY(primary(p, &base));
	if (sp_is_op(p, OP_DSTAR)) {
		const script_token_t *t = sp_next(p);
		snode_t *b;
		NEW(b, N_BINOP, t);
		b->line = base->line;
		b->col = base->col;
		b->bin.op = OP_DSTAR;
		b->bin.left = base;
		TRY(sp_enter(p));
		int rc = factor(p, &b->bin.right);
		sp_leave(p);
		TRY(rc);
		base = b;
	}
	*out = base;
	return DALIC_OK;
}

static int factor(sparser_t *p, snode_t **out)
{
	const script_token_t *t = sp_peek(p);
	if (sp_is_op(p, OP_MINUS) || sp_is_op(p, OP_PLUS) || sp_is_op(p, OP_TILDE)) {
		sp_next(p);
		snode_t *u;
		NEW(u, N_UNARY, t);
		u->unary.op = t->op == OP_MINUS ? U_NEG : t->op == OP_PLUS ? U_POS : U_INVERT;
		TRY(sp_enter(p));
		int rc = factor(p, &u->unary.operand);
		sp_leave(p);
		TRY(rc);
		*out = u;
		return DALIC_OK;
	}
	return power(p, out);
}

typedef int (*level_fn)(sparser_t *p, snode_t **out);

/* Left-associative binary level: operand (op operand)*. */
static int binary_level(sparser_t *p, snode_t **out, level_fn operand, const script_op_t *ops)
{
	snode_t *left;
	TRY(operand(p, &left));
	for (;;) {
		const script_token_t *t = sp_peek(p);
		bool match = false;
		for (const script_op_t *o = ops; *o; o++)
			match |= t->kind == TK_OP && t->op == *o;
		if (!match)
			break;
		sp_next(p);
		snode_t *b;
		NEW(b, N_BINOP, t);
		b->line = left->line;
		b->col = left->col;
		b->bin.op = t->op;
		b->bin.left = left;
		TRY(operand(p, &b->bin.right));
		left = b;
	}
	*out = left;
	return DALIC_OK;
}

static int term(sparser_t *p, snode_t **out)
{
	static const script_op_t ops[] = {OP_STAR, OP_SLASH, OP_DSLASH, OP_PERCENT, OP_AT, 0};
	return binary_level(p, out, factor, ops);
}

static int arith(sparser_t *p, snode_t **out)
{
	static const script_op_t ops[] = {OP_PLUS, OP_MINUS, 0};
	return binary_level(p, out, term, ops);
}

static int shift(sparser_t *p, snode_t **out)
{
	static const script_op_t ops[] = {OP_LSHIFT, OP_RSHIFT, 0};
	return binary_level(p, out, arith, ops);
}

static int bitand_(sparser_t *p, snode_t **out)
{
	static const script_op_t ops[] = {OP_AMP, 0};
	return binary_level(p, out, shift, ops);
}

static int bitxor_(sparser_t *p, snode_t **out)
{
	static const script_op_t ops[] = {OP_CARET, 0};
	return binary_level(p, out, bitand_, ops);
}

int sp_expr(sparser_t *p, snode_t **out)
{
	static const script_op_t ops[] = {OP_PIPE, 0};
	TRY(sp_enter(p));
	int rc = binary_level(p, out, bitxor_, ops);
	sp_leave(p);
	return rc;
}

static bool comparison_op(sparser_t *p, scmp_t *op, int *ntok)
{
	const script_token_t *t = sp_peek(p);
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
	if (t->kw == KW_NOT && sp_peek_at(p, 1)->kw == KW_IN && sp_peek_at(p, 1)->kind == TK_NAME) {
		*op = CMP_NOTIN;
		*ntok = 2;
		return true;
	}
	if (t->kw == KW_IS) {
		if (sp_peek_at(p, 1)->kind == TK_NAME && sp_peek_at(p, 1)->kw == KW_NOT) {
			*op = CMP_ISNOT;
			*ntok = 2;
		} else {
			*op = CMP_IS;
		}
		return true;
	}
	return false;
}

static int comparison(sparser_t *p, snode_t **out)
{
	snode_t *left;
	TRY(sp_expr(p, &left));
	scmp_t op;
	int ntok;
	if (!comparison_op(p, &op, &ntok)) {
		*out = left;
		return DALIC_OK;
	}
	snode_t *c;
	NEW(c, N_COMPARE, sp_peek(p));
	c->line = left->line;
	c->col = left->col;
	c->cmp.left = left;
	int cap = 0;
	while (comparison_op(p, &op, &ntok)) {
		for (int i = 0; i < ntok; i++)
			sp_next(p);
		if (c->cmp.rest.n == cap) {
			cap = cap ? cap * 2 : 4;
			scmp_t *ops = script_arena_alloc(p->a, sizeof *ops * (size_t)cap);
			if (!ops)
				return DALIC_ENOMEM;
			if (c->cmp.rest.n)
				memcpy(ops, c->cmp.ops, sizeof *ops * (size_t)c->cmp.rest.n);
			c->cmp.ops = ops;
		}
		c->cmp.ops[c->cmp.rest.n] = op;
		snode_t *r;
		TRY(sp_expr(p, &r));
		TRY(sp_list_push(p, &c->cmp.rest, r));
	}
	*out = c;
	return DALIC_OK;
}

static int not_test(sparser_t *p, snode_t **out)
{
	if (sp_is_kw(p, KW_NOT)) {
		const script_token_t *t = sp_next(p);
		snode_t *u;
		NEW(u, N_UNARY, t);
		u->unary.op = U_NOT;
		TRY(sp_enter(p));
		int rc = not_test(p, &u->unary.operand);
		sp_leave(p);
		TRY(rc);
		*out = u;
		return DALIC_OK;
	}
	return comparison(p, out);
}

static int bool_level(sparser_t *p, snode_t **out, level_fn operand, script_kw_t kw, sboolop_t op)
{
	snode_t *first;
	TRY(operand(p, &first));
	if (!sp_is_kw(p, kw)) {
		*out = first;
		return DALIC_OK;
	}
	snode_t *b;
	NEW(b, N_BOOLOP, sp_peek(p));
	b->line = first->line;
	b->col = first->col;
	b->boolop.op = op;
	TRY(sp_list_push(p, &b->boolop.values, first));
	while (sp_accept_kw(p, kw)) {
		snode_t *e;
		TRY(operand(p, &e));
		TRY(sp_list_push(p, &b->boolop.values, e));
	}
	*out = b;
	return DALIC_OK;
}

static int and_test(sparser_t *p, snode_t **out)
{
	return bool_level(p, out, not_test, KW_AND, B_AND);
}

int sp_or_test(sparser_t *p, snode_t **out)
{
	return bool_level(p, out, and_test, KW_OR, B_OR);
}

int sp_params(sparser_t *p, sparams_t *out, script_op_t close, bool annotations)
{
	int cap = 0;
	bool seen_default = false, kwonly = false;
	while (!sp_is_op(p, close)) {
		const script_token_t *t = sp_peek(p);
		int kind = kwonly ? P_KWONLY : P_NORMAL;
		if (sp_accept_op(p, OP_SLASH)) {
			if (!sp_accept_op(p, OP_COMMA))
				break;
			continue;
		}
		if (sp_accept_op(p, OP_STAR)) {
			kwonly = true;
			if (sp_is_op(p, OP_COMMA) || sp_is_op(p, close)) {
				if (!sp_accept_op(p, OP_COMMA))
					break;
				continue;
			}
			kind = P_VARARGS;
		} else if (sp_accept_op(p, OP_DSTAR)) {
			kind = P_VARKW;
		}
		const script_token_t *name = sp_peek(p);
		if (name->kind != TK_NAME || name->kw)
			return sp_error(p, name, "invalid syntax: expected a parameter name");
		sp_next(p);
		if (out->n == cap) {
			cap = cap ? cap * 2 : 4;
			sparam_t *v = script_arena_alloc(p->a, sizeof *v * (size_t)cap);
			if (!v)
				return DALIC_ENOMEM;
			if (out->n)
				memcpy(v, out->v, sizeof *v * (size_t)out->n);
			out->v = v;
		}
		sparam_t *pa = &out->v[out->n++];
		memset(pa, 0, sizeof *pa);
		pa->name = script_arena_strndup(p->a, name->text, (size_t)name->len);
		if (!pa->name)
			return DALIC_ENOMEM;
		pa->kind = kind;
		pa->line = t->line;
		pa->col = t->col;
		for (int i = 0; i < out->n - 1; i++)
			if (!strcmp(out->v[i].name, pa->name))
				return sp_error(p, name,
				                "duplicate argument '%s' in function definition",
				                pa->name);
		if (annotations && sp_accept_op(p, OP_COLON)) {
			snode_t *ann;
			TRY(sp_test(p, &ann));
		}
		if (sp_accept_op(p, OP_ASSIGN)) {
			if (kind == P_VARARGS || kind == P_VARKW)
				return sp_error(p, name,
				                "var-positional / var-keyword parameters cannot "
				                "have a default value");
			TRY(sp_test(p, &pa->def));
			if (kind == P_NORMAL)
				seen_default = true;
		} else if (kind == P_NORMAL && seen_default) {
			return sp_error(p, name,
			                "parameter without a default follows parameter with a "
			                "default");
		}
		if (kind == P_VARKW && !sp_is_op(p, close) &&
		    !(sp_is_op(p, OP_COMMA) && sp_peek_at(p, 1)->kind == TK_OP &&
		      sp_peek_at(p, 1)->op == close))
			return sp_error(p, sp_peek(p),
			                "arguments cannot follow var-keyword argument");
		if (!sp_accept_op(p, OP_COMMA))
			break;
	}
	return DALIC_OK;
}

static int lambda(sparser_t *p, snode_t **out)
{
	const script_token_t *t = sp_next(p);
	snode_t *l;
	NEW(l, N_LAMBDA, t);
	TRY(sp_params(p, &l->lambda.params, OP_COLON, false));
	TRY(sp_expect_op(p, OP_COLON, "after the lambda parameters"));
	TRY(sp_test(p, &l->lambda.body));
	*out = l;
	return DALIC_OK;
}

int sp_test(sparser_t *p, snode_t **out)
{
	if (sp_is_kw(p, KW_LAMBDA))
		return lambda(p, out);
	TRY(sp_enter(p));
	snode_t *e;
	int rc = sp_or_test(p, &e);
	if (!rc && sp_is_kw(p, KW_IF)) {
		const script_token_t *t = sp_next(p);
		snode_t *c = sp_node(p, N_IFEXP, t);
		if (!c)
			rc = DALIC_ENOMEM;
		if (!rc) {
			c->line = e->line;
			c->col = e->col;
			c->ifexp.body = e;
			rc = sp_or_test(p, &c->ifexp.test);
		}
		if (!rc && !sp_accept_kw(p, KW_ELSE))
			rc = sp_error(p, sp_peek(p),
			              "invalid syntax: expected 'else' after 'if' "
			              "expression");
		if (!rc)
			rc = sp_test(p, &c->ifexp.orelse);
		e = c;
	}
	sp_leave(p);
	*out = e;
	return rc;
}

int sp_namedexpr(sparser_t *p, snode_t **out)
{
	const script_token_t *t = sp_peek(p);
	if (t->kind == TK_NAME && !t->kw && sp_peek_at(p, 1)->kind == TK_OP &&
	    sp_peek_at(p, 1)->op == OP_WALRUS) {
		sp_next(p);
		sp_next(p);
		snode_t *n, *target;
		NEW(n, N_NAMEDEXPR, t);
		NEW(target, N_NAME, t);
		target->name = script_arena_strndup(p->a, t->text, (size_t)t->len);
		if (!target->name)
			return DALIC_ENOMEM;
		n->named.target = target;
		TRY(sp_test(p, &n->named.value));
		*out = n;
		return DALIC_OK;
	}
	return sp_test(p, out);
}

int sp_star_expressions(sparser_t *p, snode_t **out)
{
	const script_token_t *start = sp_peek(p);
	snode_t *first;
	TRY(star_or_named(p, &first));
	if (!sp_is_op(p, OP_COMMA)) {
		*out = first;
		return DALIC_OK;
	}
	snode_t *t;
	NEW(t, N_TUPLE, start);
	TRY(sp_list_push(p, &t->elts, first));
	while (sp_accept_op(p, OP_COMMA)) {
		const script_token_t *n = sp_peek(p);
		if (n->kind == TK_NEWLINE || n->kind == TK_EOF ||
		    (n->kind == TK_OP &&
		     (n->op == OP_ASSIGN || n->op == OP_SEMI || n->op == OP_RPAR ||
		      n->op == OP_COLON || (n->op >= OP_PLUSEQ && n->op <= OP_CARETEQ))))
			break;
		snode_t *e;
		TRY(star_or_named(p, &e));
		TRY(sp_list_push(p, &t->elts, e));
	}
	*out = t;
	return DALIC_OK;
}

int sp_target_list(sparser_t *p, snode_t **out)
{
	const script_token_t *start = sp_peek(p);
	snode_t *first;
	if (sp_is_op(p, OP_STAR)) {
		TRY(star_or_named(p, &first));
	} else {
		TRY(sp_expr(p, &first));
	}
	if (!sp_is_op(p, OP_COMMA)) {
		*out = first;
		return DALIC_OK;
	}
	snode_t *t;
	NEW(t, N_TUPLE, start);
	TRY(sp_list_push(p, &t->elts, first));
	while (sp_accept_op(p, OP_COMMA)) {
		if (sp_is_kw(p, KW_IN) || sp_is_op(p, OP_ASSIGN))
			break;
		snode_t *e;
		if (sp_is_op(p, OP_STAR)) {
			TRY(star_or_named(p, &e));
		} else {
			TRY(sp_expr(p, &e));
		}
		TRY(sp_list_push(p, &t->elts, e));
	}
	*out = t;
	return DALIC_OK;
}
