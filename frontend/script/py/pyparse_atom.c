/*
 * Atoms, displays and trailers: names, literals, parenthesised forms, list / dict / set
 * displays and comprehensions, then calls, subscripts (with slices) and attributes in a
 * loop, so `a.b(c)[d].e` is as long as it likes without recursion.
 */
#include "frontend/script/py/pyparse.h"

#include "dalic.h"

#include <stdio.h>
#include <string.h>

/* ---- atoms and displays -------------------------------------------------------------- */

/* comp_for: ("for" target_list "in" or_test ("if" or_test)*)+ */
static int pyparse_comprehension(pyparser_t *p, pynode_t *node)
{
	while (dalic_pyparse_is_kw(p, KW_FOR) || dalic_pyparse_is_kw(p, KW_ASYNC)) {
		if (dalic_pyparse_is_kw(p, KW_ASYNC))
			return dalic_pyparse_error(p, dalic_pyparse_peek(p),
			                           "async comprehensions are not supported");
		dalic_pyparse_next(p);
		pycomp_t *g = dalic_pyparse_grow(p, node->comp.gens, node->comp.ngens, sizeof *g);
		if (!g)
			return DALIC_ENOMEM;
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
	return dalic_pyparse_no_yield_since(p, node, "a comprehension");
}

/* star_named_expression: "*" expr | namedexpr_test */
int dalic_pyparse_star_or_named(pyparser_t *p, pynode_t **out)
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

/* display_rest: ("," star_named_expression)* [","]   (up to the closing bracket) */
/* Rest of a tuple/list/set display after its first element; stops before `close`. */
static int pyparse_display_rest(pyparser_t *p, pynode_t *n, pyop_t close)
{
	while (dalic_pyparse_accept_op(p, OP_COMMA)) {
		if (dalic_pyparse_is_op(p, close))
			break;
		pynode_t *e;
		DALIC_TRY(dalic_pyparse_star_or_named(p, &e));
		DALIC_TRY(dalic_pyparse_list_push(p, &n->elts, e));
	}
	return DALIC_OK;
}

/*
 * paren: "(" ")"
 *      | "(" star_named_expression comp_for ")"
 *      | "(" star_named_expression "," display_rest ")"
 *      | "(" namedexpr_test ")"
 */
static int pyparse_paren(pyparser_t *p, pynode_t **out)
{
	const pytoken_t *open = dalic_pyparse_next(p);
	if (dalic_pyparse_accept_op(p, OP_RPAR)) {
		PYPARSE_NEW(*out, N_TUPLE, open);
		return DALIC_OK;
	}
	if (dalic_pyparse_is_kw(p, KW_YIELD)) {
		DALIC_TRY(dalic_pyparse_yield(p, out));
		return dalic_pyparse_expect_op(p, OP_RPAR, "to close the yield expression");
	}
	pynode_t *first;
	DALIC_TRY(dalic_pyparse_star_or_named(p, &first));
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

/* list_display: "[" [star_named_expression (comp_for | display_rest)] "]" */
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
	DALIC_TRY(dalic_pyparse_star_or_named(p, &first));
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

/*
 * dict_or_set: "{" "}"
 *            | "{" dict_item ("," dict_item)* [","] "}"
 *            | "{" test ":" test comp_for "}"
 *            | "{" star_named_expression (comp_for | display_rest) "}"
 * dict_item: test ":" test | "**" expr
 */
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
		DALIC_TRY(dalic_pyparse_star_or_named(p, &k));
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

/*
 * atom: NAME | NUMBER | STRING+ | "None" | "True" | "False" | "..."
 *     | paren | list_display | dict_or_set
 */
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
			return dalic_pyparse_error(p, t,
			                           "'%s' is not supported in pipeline scripts",
			                           dalic_pylex_kw_text(t->kw));
		case KW_YIELD:
			return dalic_pyparse_error(p, t,
			                           "invalid syntax: a yield expression inside "
			                           "another expression needs parentheses");
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

/*
 * call_args: [argument ("," argument)* [","]] ")"
 * argument: namedexpr_test [comp_for] | NAME "=" test | "*" test | "**" test
 */
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

/* slice_item: star_named_expression | [test] ":" [test] [":" [test]] */
static int pyparse_slice_item(pyparser_t *p, pynode_t **out)
{
	const pytoken_t *t = dalic_pyparse_peek(p);
	pynode_t *lo = NULL;
	if (!dalic_pyparse_is_op(p, OP_COLON)) {
		DALIC_TRY(dalic_pyparse_star_or_named(p, &lo));
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

/* subscript: "[" slice_item ("," slice_item)* [","] "]" */
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

/* primary: atom ("(" call_args | subscript | "." NAME)*   (a loop, not recursion) */
int dalic_pyparse_primary(pyparser_t *p, pynode_t **out)
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
