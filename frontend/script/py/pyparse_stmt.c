/*
 * Statement half of the parser: simple statements (assignments with tuple unpacking and
 * chains, augmented and annotated assignment, import forms, return / raise / assert / del /
 * global) and compound statements (if / elif / else, for, while, with, try, def and class
 * with decorators). Blocks follow the INDENT / DEDENT tokens of the lexer; a block may also
 * be a simple statement on the same line. Each finished `def` gets its scope facts.
 */
#include "frontend/script/py/pyparse.h"

#include "dalic.h"

#include <stdio.h>
#include <string.h>

static int statement(sparser_t *p, snode_list_t *out);

static char *tok_name(sparser_t *p, const script_token_t *t)
{
	return script_arena_strndup(p->a, t->text, (size_t)t->len);
}

static int expect_name(sparser_t *p, const char *what, const char **out)
{
	const script_token_t *t = sp_peek(p);
	if (t->kind != TK_NAME || t->kw)
		return sp_error(p, t, "invalid syntax: expected %s", what);
	sp_next(p);
	*out = tok_name(p, t);
	return *out ? DALIC_OK : DALIC_ENOMEM;
}

static int end_of_simple(sparser_t *p)
{
	const script_token_t *t = sp_peek(p);
	if (t->kind == TK_NEWLINE) {
		sp_next(p);
		return DALIC_OK;
	}
	if (t->kind == TK_EOF)
		return DALIC_OK;
	return sp_error(p, t, "invalid syntax");
}

/* Block after a compound statement header's ':'. */
static int block(sparser_t *p, snode_list_t *body, const char *what, int line)
{
	if (sp_peek(p)->kind != TK_NEWLINE) {
		/* simple statements on the same line */
		return statement(p, body);
	}
	sp_next(p);
	if (sp_peek(p)->kind != TK_INDENT)
		return sp_error(p, sp_peek(p), "expected an indented block after %s on line %d",
		                what, line);
	sp_next(p);
	TRY(sp_enter(p));
	int rc = DALIC_OK;
	while (!rc && sp_peek(p)->kind != TK_DEDENT && sp_peek(p)->kind != TK_EOF)
		rc = statement(p, body);
	sp_leave(p);
	TRY(rc);
	if (sp_peek(p)->kind == TK_DEDENT)
		sp_next(p);
	return DALIC_OK;
}

static int colon_block(sparser_t *p, snode_list_t *body, const char *what, int line)
{
	TRY(sp_expect_op(p, OP_COLON, NULL));
	return block(p, body, what, line);
}

/* ---- simple statements --------------------------------------------------------------- */

static int dotted_name(sparser_t *p, const char **out)
{
	const char *first;
	TRY(expect_name(p, "a module name", &first));
	char *name = (char *)first;
	while (sp_accept_op(p, OP_DOT)) {
		const char *part;
		TRY(expect_name(p, "a module name", &part));
		name = script_arena_printf(p->a, "%s.%s", name, part);
		if (!name)
			return DALIC_ENOMEM;
	}
	*out = name;
	return DALIC_OK;
}

static int alias_push(sparser_t *p, salias_t **v, int *n, const char *name, const char *as,
                      const script_token_t *at)
{
	salias_t *nv = script_arena_alloc(p->a, sizeof *nv * (size_t)(*n + 1));
	if (!nv)
		return DALIC_ENOMEM;
	if (*n)
		memcpy(nv, *v, sizeof *nv * (size_t)*n);
	nv[*n] = (salias_t){.name = name, .asname = as, .line = at->line, .col = at->col};
	*v = nv;
	(*n)++;
	return DALIC_OK;
}

static int import_stmt(sparser_t *p, snode_t *s)
{
	do {
		const script_token_t *at = sp_peek(p);
		const char *name, *as = NULL;
		TRY(dotted_name(p, &name));
		if (sp_accept_kw(p, KW_AS))
			TRY(expect_name(p, "a name after 'as'", &as));
		TRY(alias_push(p, &s->import.names, &s->import.n, name, as, at));
	} while (sp_accept_op(p, OP_COMMA));
	return DALIC_OK;
}

static int from_stmt(sparser_t *p, snode_t *s)
{
	for (;;) {
		if (sp_accept_op(p, OP_DOT))
			s->from.level++;
		else if (sp_accept_op(p, OP_ELLIPSIS))
			s->from.level += 3;
		else
			break;
	}
	s->from.module = "";
	if (!sp_is_kw(p, KW_IMPORT))
		TRY(dotted_name(p, &s->from.module));
	if (!sp_accept_kw(p, KW_IMPORT))
		return sp_error(p, sp_peek(p), "invalid syntax: expected 'import'");
	if (sp_accept_op(p, OP_STAR))
		return DALIC_OK; /* names stays NULL: import * */
	bool paren = sp_accept_op(p, OP_LPAR);
	do {
		if (paren && sp_is_op(p, OP_RPAR))
			break;
		const script_token_t *at = sp_peek(p);
		const char *name, *as = NULL;
		TRY(expect_name(p, "a name to import", &name));
		if (sp_accept_kw(p, KW_AS))
			TRY(expect_name(p, "a name after 'as'", &as));
		TRY(alias_push(p, &s->from.names, &s->from.n, name, as, at));
	} while (sp_accept_op(p, OP_COMMA));
	if (paren)
		TRY(sp_expect_op(p, OP_RPAR, "to close the import list"));
	if (!s->from.n)
		return sp_error(p, sp_peek(p), "invalid syntax: expected a name to import");
	return DALIC_OK;
}

static int names_list(sparser_t *p, snode_t *s)
{
	do {
		const char *name;
		TRY(expect_name(p, "a name", &name));
		const char **v = script_arena_alloc(p->a, sizeof *v * (size_t)(s->global.n + 1));
		if (!v)
			return DALIC_ENOMEM;
		if (s->global.n)
			memcpy(v, s->global.names, sizeof *v * (size_t)s->global.n);
		v[s->global.n++] = name;
		s->global.names = v;
	} while (sp_accept_op(p, OP_COMMA));
	return DALIC_OK;
}

static script_op_t aug_binop(script_op_t op)
{
	switch (op) {
	case OP_PLUSEQ:
		return OP_PLUS;
	case OP_MINUSEQ:
		return OP_MINUS;
	case OP_STAREQ:
		return OP_STAR;
	case OP_DSTAREQ:
		return OP_DSTAR;
	case OP_SLASHEQ:
		return OP_SLASH;
	case OP_DSLASHEQ:
		return OP_DSLASH;
	case OP_PERCENTEQ:
		return OP_PERCENT;
	case OP_ATEQ:
		return OP_AT;
	case OP_LSHIFTEQ:
		return OP_LSHIFT;
	case OP_RSHIFTEQ:
		return OP_RSHIFT;
	case OP_AMPEQ:
		return OP_AMP;
	case OP_PIPEEQ:
		return OP_PIPE;
	case OP_CARETEQ:
		return OP_CARET;
	default:
		return OP_NONE;
	}
}

static int expr_stmt(sparser_t *p, snode_list_t *out)
{
	const script_token_t *start = sp_peek(p);
	snode_t *e;
	TRY(sp_star_expressions(p, &e));
	const script_token_t *t = sp_peek(p);
	snode_t *s;
	if (t->kind == TK_OP && t->op == OP_ASSIGN) {
		NEW(s, S_ASSIGN, start);
		while (sp_accept_op(p, OP_ASSIGN)) {
			TRY(sp_check_target(p, e, "assignment"));
			TRY(sp_list_push(p, &s->assign.targets, e));
			if (sp_is_kw(p, KW_YIELD))
				return sp_error(p, sp_peek(p),
				                "'yield' is not supported in pipeline "
				                "scripts");
			TRY(sp_star_expressions(p, &e));
		}
		s->assign.value = e;
	} else if (t->kind == TK_OP && aug_binop(t->op)) {
		if (e->kind != N_NAME && e->kind != N_ATTR && e->kind != N_SUBSCRIPT)
			return sp_error_node(p, e,
			                     "'%s' is an illegal expression for augmented "
			                     "assignment",
			                     script_node_kind_name(e->kind));
		sp_next(p);
		NEW(s, S_AUGASSIGN, start);
		s->aug.target = e;
		s->aug.op = aug_binop(t->op);
		TRY(sp_star_expressions(p, &s->aug.value));
	} else if (t->kind == TK_OP && t->op == OP_COLON) {
		if (e->kind != N_NAME && e->kind != N_ATTR && e->kind != N_SUBSCRIPT)
			return sp_error_node(p, e, "only single target (not %s) can be annotated",
			                     script_node_kind_name(e->kind));
		sp_next(p);
		NEW(s, S_ANNASSIGN, start);
		s->ann.target = e;
		snode_t *annotation;
		TRY(sp_test(p, &annotation));
		if (sp_accept_op(p, OP_ASSIGN))
			TRY(sp_star_expressions(p, &s->ann.value));
	} else {
		NEW(s, S_EXPR, start);
		s->expr.value = e;
	}
	return sp_list_push(p, out, s);
}

static int simple_stmt(sparser_t *p, snode_list_t *out)
{
	const script_token_t *t = sp_peek(p);
	snode_t *s;
	if (t->kind != TK_NAME || !t->kw || t->kw == KW_NONE_ || t->kw == KW_TRUE ||
	    t->kw == KW_FALSE || t->kw == KW_NOT || t->kw == KW_LAMBDA || t->kw == KW_AWAIT)
		return expr_stmt(p, out);
	sp_next(p);
	switch (t->kw) {
	case KW_PASS:
		NEW(s, S_PASS, t);
		break;
	case KW_BREAK:
	case KW_CONTINUE:
		if (!p->loop_depth)
			return sp_error(p, t, "'%s' outside loop", script_kw_text(t->kw));
		NEW(s, t->kw == KW_BREAK ? S_BREAK : S_CONTINUE, t);
		break;
	case KW_RETURN:
		if (!p->func_depth)
			return sp_error(p, t, "'return' outside function");
		NEW(s, S_RETURN, t);
		if (sp_peek(p)->kind != TK_NEWLINE && !sp_is_op(p, OP_SEMI) &&
		    sp_peek(p)->kind != TK_EOF)
			TRY(sp_star_expressions(p, &s->ret.value));
		break;
	case KW_RAISE:
		NEW(s, S_RAISE, t);
		if (sp_peek(p)->kind != TK_NEWLINE && !sp_is_op(p, OP_SEMI) &&
		    sp_peek(p)->kind != TK_EOF) {
			TRY(sp_test(p, &s->raise.exc));
			if (sp_accept_kw(p, KW_FROM))
				TRY(sp_test(p, &s->raise.cause));
		}
		break;
	case KW_GLOBAL:
	case KW_NONLOCAL:
		NEW(s, t->kw == KW_GLOBAL ? S_GLOBAL : S_NONLOCAL, t);
		TRY(names_list(p, s));
		break;
	case KW_DEL: {
		NEW(s, S_DEL, t);
		snode_t *targets;
		TRY(sp_target_list(p, &targets));
		TRY(sp_check_target(p, targets, "del"));
		if (targets->kind == N_TUPLE) {
			for (int i = 0; i < targets->elts.n; i++)
				TRY(sp_list_push(p, &s->del.targets, targets->elts.v[i]));
		} else {
			TRY(sp_list_push(p, &s->del.targets, targets));
		}
		break;
	}
	case KW_ASSERT:
		NEW(s, S_ASSERT, t);
		TRY(sp_test(p, &s->assert_.test));
		if (sp_accept_op(p, OP_COMMA))
			TRY(sp_test(p, &s->assert_.msg));
		break;
	case KW_IMPORT:
		NEW(s, S_IMPORT, t);
		TRY(import_stmt(p, s));
		break;
	case KW_FROM:
		NEW(s, S_IMPORTFROM, t);
		TRY(from_stmt(p, s));
		break;
	case KW_YIELD:
		return sp_error(p, t, "'yield' is not supported in pipeline scripts");
	default:
		return sp_error(p, t, "invalid syntax: unexpected keyword '%s'",
		                script_kw_text(t->kw));
	}
	return sp_list_push(p, out, s);
}

static int simple_stmts(sparser_t *p, snode_list_t *out)
{
	TRY(simple_stmt(p, out));
	while (sp_accept_op(p, OP_SEMI)) {
		if (sp_peek(p)->kind == TK_NEWLINE || sp_peek(p)->kind == TK_EOF)
			break;
		TRY(simple_stmt(p, out));
	}
	return end_of_simple(p);
}

/* ---- compound statements ------------------------------------------------------------- */

static int if_stmt(sparser_t *p, const script_token_t *t, snode_list_t *out)
{
	snode_t *s;
	NEW(s, S_IF, t);
	TRY(sp_namedexpr(p, &s->if_.test));
	TRY(colon_block(p, &s->if_.body, "'if' statement", t->line));
	const script_token_t *e = sp_peek(p);
	if (sp_accept_kw(p, KW_ELIF)) {
		/* elif is an if statement nested in the else branch */
		TRY(if_stmt(p, e, &s->if_.orelse));
	} else if (sp_accept_kw(p, KW_ELSE)) {
		TRY(colon_block(p, &s->if_.orelse, "'else' statement", e->line));
	}
	return sp_list_push(p, out, s);
}

static int loop_else(sparser_t *p, snode_list_t *orelse)
{
	const script_token_t *e = sp_peek(p);
	if (sp_accept_kw(p, KW_ELSE))
		return colon_block(p, orelse, "'else' statement", e->line);
	return DALIC_OK;
}

static int for_stmt(sparser_t *p, const script_token_t *t, snode_list_t *out)
{
	snode_t *s;
	NEW(s, S_FOR, t);
	TRY(sp_target_list(p, &s->for_.target));
	TRY(sp_check_target(p, s->for_.target, "for loop"));
	if (!sp_accept_kw(p, KW_IN))
		return sp_error(p, sp_peek(p), "invalid syntax: expected 'in'");
	TRY(sp_star_expressions(p, &s->for_.iter));
	p->loop_depth++;
	int rc = colon_block(p, &s->for_.body, "'for' statement", t->line);
	p->loop_depth--;
	TRY(rc);
	TRY(loop_else(p, &s->for_.orelse));
	return sp_list_push(p, out, s);
}

static int while_stmt(sparser_t *p, const script_token_t *t, snode_list_t *out)
{
	snode_t *s;
	NEW(s, S_WHILE, t);
	TRY(sp_namedexpr(p, &s->while_.test));
	p->loop_depth++;
	int rc = colon_block(p, &s->while_.body, "'while' statement", t->line);
	p->loop_depth--;
	TRY(rc);
	TRY(loop_else(p, &s->while_.orelse));
	return sp_list_push(p, out, s);
}

static int with_stmt(sparser_t *p, const script_token_t *t, snode_list_t *out)
{
	snode_t *s;
	NEW(s, S_WITH, t);
	do {
		snode_t *item, *var = NULL;
		TRY(sp_test(p, &item));
		if (sp_accept_kw(p, KW_AS)) {
			/* one target per item: `with a as x, b as y` has two items */
			TRY(sp_expr(p, &var));
			TRY(sp_check_target(p, var, "with statement"));
		}
		TRY(sp_list_push(p, &s->with.items, item));
		TRY(sp_list_push(p, &s->with.vars, var));
	} while (sp_accept_op(p, OP_COMMA));
	TRY(colon_block(p, &s->with.body, "'with' statement", t->line));
	return sp_list_push(p, out, s);
}

static int try_stmt(sparser_t *p, const script_token_t *t, snode_list_t *out)
{
	snode_t *s;
	NEW(s, S_TRY, t);
	TRY(colon_block(p, &s->try_.body, "'try' statement", t->line));
	while (sp_is_kw(p, KW_EXCEPT)) {
		const script_token_t *e = sp_next(p);
		if (sp_is_op(p, OP_STAR))
			return sp_error(p, sp_peek(p), "'except*' is not supported");
		shandler_t h = {.line = e->line, .col = e->col};
		if (!sp_is_op(p, OP_COLON)) {
			TRY(sp_test(p, &h.type));
			if (sp_accept_kw(p, KW_AS))
				TRY(expect_name(p, "a name after 'as'", &h.name));
		}
		TRY(colon_block(p, &h.body, "'except' statement", e->line));
		shandler_t *v =
		    script_arena_alloc(p->a, sizeof *v * (size_t)(s->try_.nhandlers + 1));
		if (!v)
			return DALIC_ENOMEM;
		if (s->try_.nhandlers)
			memcpy(v, s->try_.handlers, sizeof *v * (size_t)s->try_.nhandlers);
		v[s->try_.nhandlers++] = h;
		s->try_.handlers = v;
	}
	const script_token_t *e = sp_peek(p);
	if (s->try_.nhandlers && sp_accept_kw(p, KW_ELSE))
		TRY(colon_block(p, &s->try_.orelse, "'else' statement", e->line));
	e = sp_peek(p);
	if (sp_accept_kw(p, KW_FINALLY))
		TRY(colon_block(p, &s->try_.finalbody, "'finally' statement", e->line));
	else if (!s->try_.nhandlers)
		return sp_error(p, sp_peek(p), "expected 'except' or 'finally' block");
	return sp_list_push(p, out, s);
}

static int def_stmt(sparser_t *p, const script_token_t *t, snode_list_t *decorators,
                    snode_list_t *out)
{
	snode_t *s;
	NEW(s, S_DEF, t);
	s->def.decorators = *decorators;
	TRY(expect_name(p, "a function name", &s->def.name));
	TRY(sp_expect_op(p, OP_LPAR, "after the function name"));
	TRY(sp_params(p, &s->def.params, OP_RPAR, true));
	TRY(sp_expect_op(p, OP_RPAR, "to close the parameter list"));
	if (sp_accept_op(p, OP_ARROW)) {
		snode_t *ann;
		TRY(sp_test(p, &ann));
	}
	int saved_loop = p->loop_depth;
	p->loop_depth = 0;
	p->func_depth++;
	int rc = colon_block(p, &s->def.body, "function definition", t->line);
	p->func_depth--;
	p->loop_depth = saved_loop;
	TRY(rc);
	TRY(script_scope_function(p->a, s));
	return sp_list_push(p, out, s);
}

static int class_stmt(sparser_t *p, const script_token_t *t, snode_list_t *decorators,
                      snode_list_t *out)
{
	snode_t *s;
	NEW(s, S_CLASS, t);
	s->cls.decorators = *decorators;
	TRY(expect_name(p, "a class name", &s->cls.name));
	if (sp_accept_op(p, OP_LPAR)) {
		while (!sp_is_op(p, OP_RPAR)) {
			const script_token_t *a = sp_peek(p);
			if (a->kind == TK_NAME && !a->kw && sp_peek_at(p, 1)->kind == TK_OP &&
			    sp_peek_at(p, 1)->op == OP_ASSIGN) {
				sp_next(p);
				sp_next(p);
				snode_t *k;
				NEW(k, N_KEYWORD, a);
				k->kw.arg = tok_name(p, a);
				if (!k->kw.arg)
					return DALIC_ENOMEM;
				TRY(sp_test(p, &k->kw.value));
				TRY(sp_list_push(p, &s->cls.keywords, k));
			} else {
				snode_t *b;
				TRY(sp_test(p, &b));
				TRY(sp_list_push(p, &s->cls.bases, b));
			}
			if (!sp_accept_op(p, OP_COMMA))
				break;
		}
		TRY(sp_expect_op(p, OP_RPAR, "to close the base class list"));
	}
	int saved_loop = p->loop_depth, saved_func = p->func_depth;
	p->loop_depth = p->func_depth = 0;
	int rc = colon_block(p, &s->cls.body, "class definition", t->line);
	p->loop_depth = saved_loop;
	p->func_depth = saved_func;
	TRY(rc);
	return sp_list_push(p, out, s);
}

static int decorated(sparser_t *p, snode_list_t *out)
{
	snode_list_t decos = {0};
	while (sp_is_op(p, OP_AT)) {
		sp_next(p);
		snode_t *d;
		TRY(sp_namedexpr(p, &d));
		TRY(sp_list_push(p, &decos, d));
		if (sp_peek(p)->kind != TK_NEWLINE)
			return sp_error(p, sp_peek(p),
			                "invalid syntax: expected a new line after the "
			                "decorator");
		sp_next(p);
	}
	const script_token_t *t = sp_peek(p);
	if (sp_accept_kw(p, KW_DEF))
		return def_stmt(p, t, &decos, out);
	if (sp_accept_kw(p, KW_CLASS))
		return class_stmt(p, t, &decos, out);
	if (t->kw == KW_ASYNC)
		return sp_error(p, t, "async functions are not supported in pipeline scripts");
	return sp_error(p, t, "invalid syntax: expected 'def' or 'class' after decorators");
}

static int statement(sparser_t *p, snode_list_t *out)
{
	const script_token_t *t = sp_peek(p);
	if (t->kind == TK_INDENT)
		return sp_error(p, t, "unexpected indent");
	if (t->kind == TK_OP && t->op == OP_AT)
		return decorated(p, out);
	if (t->kind == TK_NAME) {
		snode_list_t none = {0};
		switch (t->kw) {
		case KW_IF:
			sp_next(p);
			return if_stmt(p, t, out);
		case KW_FOR:
			sp_next(p);
			return for_stmt(p, t, out);
		case KW_WHILE:
			sp_next(p);
			return while_stmt(p, t, out);
		case KW_WITH:
			sp_next(p);
			return with_stmt(p, t, out);
		case KW_TRY:
			sp_next(p);
			return try_stmt(p, t, out);
		case KW_DEF:
			sp_next(p);
			return def_stmt(p, t, &none, out);
		case KW_CLASS:
			sp_next(p);
			return class_stmt(p, t, &none, out);
		case KW_ASYNC:
			return sp_error(p, t, "async code is not supported in pipeline scripts");
		case KW_ELSE:
		case KW_ELIF:
		case KW_EXCEPT:
		case KW_FINALLY:
			return sp_error(p, t, "invalid syntax: '%s' without a matching statement",
			                script_kw_text(t->kw));
		default:
			break;
		}
	}
	return simple_stmts(p, out);
}

int script_parse(script_arena_t *a, const script_src_t *src, script_module_t **out)
{
	script_token_t *toks;
	int n;
	int rc = script_lex(a, src, &toks, &n);
	if (rc)
		return rc;
	sparser_t p = {.a = a, .src = src, .t = toks, .n = n};
	script_module_t *m = script_arena_alloc(a, sizeof *m);
	if (!m)
		return DALIC_ENOMEM;
	while (sp_peek(&p)->kind != TK_EOF) {
		if (sp_peek(&p)->kind == TK_DEDENT || sp_peek(&p)->kind == TK_NEWLINE) {
			sp_next(&p);
			continue;
		}
		rc = statement(&p, &m->body);
		if (rc)
			return rc == DALIC_ENOMEM
			           ? script_error_at(src, sp_peek(&p)->line, 1, rc, "out of memory")
			           : rc;
	}
	rc = script_scope_module(a, m);
	if (rc)
		return rc;
	*out = m;
	return DALIC_OK;
}
