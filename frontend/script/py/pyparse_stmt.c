/*
 * Statement half of the parser: simple statements (assignments with tuple unpacking and
 * chains, augmented and annotated assignment, import forms, return / raise / assert / del /
 * global) and compound statements (if / elif / else, for, while, with, try, def and class
 * with decorators). Blocks follow the INDENT / DEDENT tokens of the lexer; a block may also
 * be a simple statement on the same line. Each finished `def` gets its scope facts.
 */
#include "frontend/script/py/pyparse.h"

#include "frontend/script/py/pyscope.h"

#include "dalic.h"

#include <stdio.h>
#include <string.h>

static int pyparse_statement(pyparser_t *p, pynode_list_t *out);

static char *pyparse_tok_name(pyparser_t *p, const pytoken_t *t)
{
	return dalic_pyarena_strndup(p->a, t->text, (size_t)t->len);
}

static int pyparse_expect_name(pyparser_t *p, const char *what, const char **out)
{
	const pytoken_t *t = dalic_pyparse_peek(p);
	if (t->kind != TK_NAME || t->kw)
		return dalic_pyparse_error(p, t, "invalid syntax: expected %s", what);
	dalic_pyparse_next(p);
	*out = pyparse_tok_name(p, t);
	return *out ? DALIC_OK : DALIC_ENOMEM;
}

static int pyparse_end_of_simple(pyparser_t *p)
{
	const pytoken_t *t = dalic_pyparse_peek(p);
	if (t->kind == TK_NEWLINE) {
		dalic_pyparse_next(p);
		return DALIC_OK;
	}
	if (t->kind == TK_EOF)
		return DALIC_OK;
	return dalic_pyparse_error(p, t, "invalid syntax");
}

/* block: NEWLINE INDENT statement+ DEDENT | simple_stmts */
/* Block after a compound statement header's ':'. */
static int pyparse_block(pyparser_t *p, pynode_list_t *body, const char *what, int line)
{
	if (dalic_pyparse_peek(p)->kind != TK_NEWLINE) {
		/* simple statements on the same line */
		return pyparse_statement(p, body);
	}
	dalic_pyparse_next(p);
	if (dalic_pyparse_peek(p)->kind != TK_INDENT)
		return dalic_pyparse_error(p, dalic_pyparse_peek(p),
		                           "expected an indented block after %s on line %d", what,
		                           line);
	dalic_pyparse_next(p);
	DALIC_TRY(dalic_pyparse_enter(p));
	int rc = DALIC_OK;
	while (!rc && dalic_pyparse_peek(p)->kind != TK_DEDENT &&
	       dalic_pyparse_peek(p)->kind != TK_EOF)
		rc = pyparse_statement(p, body);
	dalic_pyparse_leave(p);
	DALIC_TRY(rc);
	if (dalic_pyparse_peek(p)->kind == TK_DEDENT)
		dalic_pyparse_next(p);
	return DALIC_OK;
}

/* colon_block: ":" block */
static int pyparse_colon_block(pyparser_t *p, pynode_list_t *body, const char *what, int line)
{
	DALIC_TRY(dalic_pyparse_expect_op(p, OP_COLON, NULL));
	return pyparse_block(p, body, what, line);
}

/* ---- simple statements --------------------------------------------------------------- */

/* dotted_name: NAME ("." NAME)* */
static int pyparse_dotted_name(pyparser_t *p, const char **out)
{
	const char *first;
	DALIC_TRY(pyparse_expect_name(p, "a module name", &first));
	char *name = (char *)first;
	while (dalic_pyparse_accept_op(p, OP_DOT)) {
		const char *part;
		DALIC_TRY(pyparse_expect_name(p, "a module name", &part));
		name = dalic_pyarena_printf(p->a, "%s.%s", name, part);
		if (!name)
			return DALIC_ENOMEM;
	}
	*out = name;
	return DALIC_OK;
}

static int pyparse_alias_push(pyparser_t *p, pyalias_t **v, int *n, const char *name,
                              const char *as, const pytoken_t *at)
{
	pyalias_t *nv = dalic_pyparse_grow(p, *v, *n, sizeof *nv);
	if (!nv)
		return DALIC_ENOMEM;
	nv[*n] = (pyalias_t){.name = name, .asname = as, .line = at->line, .col = at->col};
	*v = nv;
	(*n)++;
	return DALIC_OK;
}

/* import_stmt: "import" dotted_name ["as" NAME] ("," dotted_name ["as" NAME])* */
static int pyparse_import_stmt(pyparser_t *p, pynode_t *s)
{
	do {
		const pytoken_t *at = dalic_pyparse_peek(p);
		const char *name, *as = NULL;
		DALIC_TRY(pyparse_dotted_name(p, &name));
		if (dalic_pyparse_accept_kw(p, KW_AS))
			DALIC_TRY(pyparse_expect_name(p, "a name after 'as'", &as));
		DALIC_TRY(pyparse_alias_push(p, &s->import.names, &s->import.n, name, as, at));
	} while (dalic_pyparse_accept_op(p, OP_COMMA));
	return DALIC_OK;
}

/*
 * from_stmt: "from" ("."* dotted_name | "."+) "import"
 *           ("*" | "(" import_names [","] ")" | import_names)
 * import_names: NAME ["as" NAME] ("," NAME ["as" NAME])*
 */
static int pyparse_from_stmt(pyparser_t *p, pynode_t *s)
{
	for (;;) {
		if (dalic_pyparse_accept_op(p, OP_DOT))
			s->from.level++;
		else if (dalic_pyparse_accept_op(p, OP_ELLIPSIS))
			s->from.level += 3;
		else
			break;
	}
	s->from.module = "";
	if (!dalic_pyparse_is_kw(p, KW_IMPORT))
		DALIC_TRY(pyparse_dotted_name(p, &s->from.module));
	if (!dalic_pyparse_accept_kw(p, KW_IMPORT))
		return dalic_pyparse_error(p, dalic_pyparse_peek(p),
		                           "invalid syntax: expected 'import'");
	if (dalic_pyparse_accept_op(p, OP_STAR))
		return DALIC_OK; /* names stays NULL: import * */
	bool paren = dalic_pyparse_accept_op(p, OP_LPAR);
	do {
		if (paren && dalic_pyparse_is_op(p, OP_RPAR))
			break;
		const pytoken_t *at = dalic_pyparse_peek(p);
		const char *name, *as = NULL;
		DALIC_TRY(pyparse_expect_name(p, "a name to import", &name));
		if (dalic_pyparse_accept_kw(p, KW_AS))
			DALIC_TRY(pyparse_expect_name(p, "a name after 'as'", &as));
		DALIC_TRY(pyparse_alias_push(p, &s->from.names, &s->from.n, name, as, at));
	} while (dalic_pyparse_accept_op(p, OP_COMMA));
	if (paren)
		DALIC_TRY(dalic_pyparse_expect_op(p, OP_RPAR, "to close the import list"));
	if (!s->from.n)
		return dalic_pyparse_error(p, dalic_pyparse_peek(p),
		                           "invalid syntax: expected a name to import");
	return DALIC_OK;
}

/* names: NAME ("," NAME)*   (after "global" / "nonlocal") */
static int pyparse_names_list(pyparser_t *p, pynode_t *s)
{
	do {
		const char *name;
		DALIC_TRY(pyparse_expect_name(p, "a name", &name));
		const char **v = dalic_pyparse_grow(p, s->global.names, s->global.n, sizeof *v);
		if (!v)
			return DALIC_ENOMEM;
		v[s->global.n++] = name;
		s->global.names = v;
	} while (dalic_pyparse_accept_op(p, OP_COMMA));
	return DALIC_OK;
}

static pyop_t pyparse_aug_binop(pyop_t op)
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

/*
 * expr_stmt: star_expressions ("=" star_expressions)*
 *          | target augassign star_expressions
 *          | target ":" test ["=" star_expressions]
 */
static int pyparse_expr_stmt(pyparser_t *p, pynode_list_t *out)
{
	const pytoken_t *start = dalic_pyparse_peek(p);
	pynode_t *e;
	if (dalic_pyparse_is_kw(p, KW_YIELD))
		DALIC_TRY(dalic_pyparse_yield(p, &e));
	else
		DALIC_TRY(dalic_pyparse_star_expressions(p, &e));
	const pytoken_t *t = dalic_pyparse_peek(p);
	pynode_t *s;
	if (t->kind == TK_OP && t->op == OP_ASSIGN) {
		PYPARSE_NEW(s, S_ASSIGN, start);
		while (dalic_pyparse_accept_op(p, OP_ASSIGN)) {
			DALIC_TRY(dalic_pyparse_check_target(p, e, "assignment"));
			DALIC_TRY(dalic_pyparse_list_push(p, &s->assign.targets, e));
			if (dalic_pyparse_is_kw(p, KW_YIELD))
				DALIC_TRY(dalic_pyparse_yield(p, &e));
			else
				DALIC_TRY(dalic_pyparse_star_expressions(p, &e));
		}
		s->assign.value = e;
	} else if (t->kind == TK_OP && pyparse_aug_binop(t->op)) {
		if (e->kind != N_NAME && e->kind != N_ATTR && e->kind != N_SUBSCRIPT)
			return dalic_pyparse_error_node(
			    p, e,
			    "'%s' is an illegal expression for augmented "
			    "assignment",
			    dalic_pyast_kind_name(e->kind));
		dalic_pyparse_next(p);
		PYPARSE_NEW(s, S_AUGASSIGN, start);
		s->aug.target = e;
		s->aug.op = pyparse_aug_binop(t->op);
		DALIC_TRY(dalic_pyparse_star_expressions(p, &s->aug.value));
	} else if (t->kind == TK_OP && t->op == OP_COLON) {
		if (e->kind != N_NAME && e->kind != N_ATTR && e->kind != N_SUBSCRIPT)
			return dalic_pyparse_error_node(
			    p, e, "only single target (not %s) can be annotated",
			    dalic_pyast_kind_name(e->kind));
		dalic_pyparse_next(p);
		PYPARSE_NEW(s, S_ANNASSIGN, start);
		s->ann.target = e;
		DALIC_TRY(dalic_pyparse_test(p, &s->ann.annotation));
		if (dalic_pyparse_accept_op(p, OP_ASSIGN))
			DALIC_TRY(dalic_pyparse_star_expressions(p, &s->ann.value));
	} else {
		PYPARSE_NEW(s, S_EXPR, start);
		s->expr.value = e;
	}
	return dalic_pyparse_list_push(p, out, s);
}

/*
 * simple_stmt: "pass" | "break" | "continue" | "return" [star_expressions]
 *            | "raise" [test ["from" test]] | ("global" | "nonlocal") names
 *            | "del" target_list | "assert" test ["," test]
 *            | import_stmt | from_stmt | expr_stmt
 */
static int pyparse_simple_stmt(pyparser_t *p, pynode_list_t *out)
{
	const pytoken_t *t = dalic_pyparse_peek(p);
	pynode_t *s;
	if (t->kind != TK_NAME || !t->kw || t->kw == KW_NONE_ || t->kw == KW_TRUE ||
	    t->kw == KW_FALSE || t->kw == KW_NOT || t->kw == KW_LAMBDA || t->kw == KW_AWAIT ||
	    t->kw == KW_YIELD)
		return pyparse_expr_stmt(p, out);
	dalic_pyparse_next(p);
	switch (t->kw) {
	case KW_PASS:
		PYPARSE_NEW(s, S_PASS, t);
		break;
	case KW_BREAK:
	case KW_CONTINUE:
		if (!p->loop_depth)
			return dalic_pyparse_error(p, t, "'%s' outside loop",
			                           dalic_pylex_kw_text(t->kw));
		PYPARSE_NEW(s, t->kw == KW_BREAK ? S_BREAK : S_CONTINUE, t);
		break;
	case KW_RETURN:
		if (!p->func_depth)
			return dalic_pyparse_error(p, t, "'return' outside function");
		PYPARSE_NEW(s, S_RETURN, t);
		if (dalic_pyparse_peek(p)->kind != TK_NEWLINE && !dalic_pyparse_is_op(p, OP_SEMI) &&
		    dalic_pyparse_peek(p)->kind != TK_EOF)
			DALIC_TRY(dalic_pyparse_star_expressions(p, &s->ret.value));
		break;
	case KW_RAISE:
		PYPARSE_NEW(s, S_RAISE, t);
		if (dalic_pyparse_peek(p)->kind != TK_NEWLINE && !dalic_pyparse_is_op(p, OP_SEMI) &&
		    dalic_pyparse_peek(p)->kind != TK_EOF) {
			DALIC_TRY(dalic_pyparse_test(p, &s->raise.exc));
			if (dalic_pyparse_accept_kw(p, KW_FROM))
				DALIC_TRY(dalic_pyparse_test(p, &s->raise.cause));
		}
		break;
	case KW_GLOBAL:
	case KW_NONLOCAL:
		PYPARSE_NEW(s, t->kw == KW_GLOBAL ? S_GLOBAL : S_NONLOCAL, t);
		DALIC_TRY(pyparse_names_list(p, s));
		break;
	case KW_DEL: {
		PYPARSE_NEW(s, S_DEL, t);
		pynode_t *targets;
		DALIC_TRY(dalic_pyparse_target_list(p, &targets));
		DALIC_TRY(dalic_pyparse_check_target(p, targets, "del"));
		if (targets->kind == N_TUPLE) {
			for (int i = 0; i < targets->elts.n; i++)
				DALIC_TRY(dalic_pyparse_list_push(p, &s->del.targets,
				                                  targets->elts.v[i]));
		} else {
			DALIC_TRY(dalic_pyparse_list_push(p, &s->del.targets, targets));
		}
		break;
	}
	case KW_ASSERT:
		PYPARSE_NEW(s, S_ASSERT, t);
		DALIC_TRY(dalic_pyparse_test(p, &s->assert_.test));
		if (dalic_pyparse_accept_op(p, OP_COMMA))
			DALIC_TRY(dalic_pyparse_test(p, &s->assert_.msg));
		break;
	case KW_IMPORT:
		PYPARSE_NEW(s, S_IMPORT, t);
		DALIC_TRY(pyparse_import_stmt(p, s));
		break;
	case KW_FROM:
		PYPARSE_NEW(s, S_IMPORTFROM, t);
		DALIC_TRY(pyparse_from_stmt(p, s));
		break;
	default:
		return dalic_pyparse_error(p, t, "invalid syntax: unexpected keyword '%s'",
		                           dalic_pylex_kw_text(t->kw));
	}
	return dalic_pyparse_list_push(p, out, s);
}

/* simple_stmts: simple_stmt (";" simple_stmt)* [";"] NEWLINE */
static int pyparse_simple_stmts(pyparser_t *p, pynode_list_t *out)
{
	DALIC_TRY(pyparse_simple_stmt(p, out));
	while (dalic_pyparse_accept_op(p, OP_SEMI)) {
		if (dalic_pyparse_peek(p)->kind == TK_NEWLINE ||
		    dalic_pyparse_peek(p)->kind == TK_EOF)
			break;
		DALIC_TRY(pyparse_simple_stmt(p, out));
	}
	return pyparse_end_of_simple(p);
}

/* ---- compound statements ------------------------------------------------------------- */

/*
 * if_stmt: "if" namedexpr_test colon_block
 *          ("elif" namedexpr_test colon_block)* ["else" colon_block]
 */
static int pyparse_if_stmt(pyparser_t *p, const pytoken_t *t, pynode_list_t *out)
{
	pynode_t *s;
	PYPARSE_NEW(s, S_IF, t);
	DALIC_TRY(dalic_pyparse_namedexpr(p, &s->if_.test));
	DALIC_TRY(pyparse_colon_block(p, &s->if_.body, "'if' statement", t->line));
	const pytoken_t *e = dalic_pyparse_peek(p);
	if (dalic_pyparse_accept_kw(p, KW_ELIF)) {
		/* elif is an if statement nested in the else branch: a chain is as deep as it is
		 * long, for the parser and the analyses that walk it */
		if (++p->elifs > PYPARSE_MAX_ELIF)
			return dalic_pysrc_error(p->src, e->line, e->col, DALIC_EUNSUPPORTED,
			                         "more than %d 'elif' branches in a row",
			                         PYPARSE_MAX_ELIF);
		int rc = pyparse_if_stmt(p, e, &s->if_.orelse);
		p->elifs--;
		DALIC_TRY(rc);
	} else if (dalic_pyparse_accept_kw(p, KW_ELSE)) {
		DALIC_TRY(pyparse_colon_block(p, &s->if_.orelse, "'else' statement", e->line));
	}
	return dalic_pyparse_list_push(p, out, s);
}

/* loop_else: ["else" colon_block] */
static int pyparse_loop_else(pyparser_t *p, pynode_list_t *orelse)
{
	const pytoken_t *e = dalic_pyparse_peek(p);
	if (dalic_pyparse_accept_kw(p, KW_ELSE))
		return pyparse_colon_block(p, orelse, "'else' statement", e->line);
	return DALIC_OK;
}

/* for_stmt: "for" target_list "in" star_expressions colon_block loop_else */
static int pyparse_for_stmt(pyparser_t *p, const pytoken_t *t, pynode_list_t *out)
{
	pynode_t *s;
	PYPARSE_NEW(s, S_FOR, t);
	DALIC_TRY(dalic_pyparse_target_list(p, &s->for_.target));
	DALIC_TRY(dalic_pyparse_check_target(p, s->for_.target, "for loop"));
	if (!dalic_pyparse_accept_kw(p, KW_IN))
		return dalic_pyparse_error(p, dalic_pyparse_peek(p),
		                           "invalid syntax: expected 'in'");
	DALIC_TRY(dalic_pyparse_star_expressions(p, &s->for_.iter));
	p->loop_depth++;
	int rc = pyparse_colon_block(p, &s->for_.body, "'for' statement", t->line);
	p->loop_depth--;
	DALIC_TRY(rc);
	DALIC_TRY(pyparse_loop_else(p, &s->for_.orelse));
	return dalic_pyparse_list_push(p, out, s);
}

/* while_stmt: "while" namedexpr_test colon_block loop_else */
static int pyparse_while_stmt(pyparser_t *p, const pytoken_t *t, pynode_list_t *out)
{
	pynode_t *s;
	PYPARSE_NEW(s, S_WHILE, t);
	DALIC_TRY(dalic_pyparse_namedexpr(p, &s->while_.test));
	p->loop_depth++;
	int rc = pyparse_colon_block(p, &s->while_.body, "'while' statement", t->line);
	p->loop_depth--;
	DALIC_TRY(rc);
	DALIC_TRY(pyparse_loop_else(p, &s->while_.orelse));
	return dalic_pyparse_list_push(p, out, s);
}

/* with_stmt: "with" test ["as" expr] ("," test ["as" expr])* colon_block */
static int pyparse_with_stmt(pyparser_t *p, const pytoken_t *t, pynode_list_t *out)
{
	pynode_t *s;
	PYPARSE_NEW(s, S_WITH, t);
	do {
		pynode_t *item, *var = NULL;
		DALIC_TRY(dalic_pyparse_test(p, &item));
		if (dalic_pyparse_accept_kw(p, KW_AS)) {
			/* one target per item: `with a as x, b as y` has two items */
			DALIC_TRY(dalic_pyparse_expr(p, &var));
			DALIC_TRY(dalic_pyparse_check_target(p, var, "with statement"));
		}
		DALIC_TRY(dalic_pyparse_list_push(p, &s->with.items, item));
		DALIC_TRY(dalic_pyparse_list_push(p, &s->with.vars, var));
	} while (dalic_pyparse_accept_op(p, OP_COMMA));
	DALIC_TRY(pyparse_colon_block(p, &s->with.body, "'with' statement", t->line));
	return dalic_pyparse_list_push(p, out, s);
}

/*
 * try_stmt: "try" colon_block (except_clause colon_block)+ ["else" colon_block]
 *           ["finally" colon_block]
 *         | "try" colon_block "finally" colon_block
 * except_clause: "except" [test ["as" NAME]]
 */
static int pyparse_try_stmt(pyparser_t *p, const pytoken_t *t, pynode_list_t *out)
{
	pynode_t *s;
	PYPARSE_NEW(s, S_TRY, t);
	DALIC_TRY(pyparse_colon_block(p, &s->try_.body, "'try' statement", t->line));
	while (dalic_pyparse_is_kw(p, KW_EXCEPT)) {
		const pytoken_t *e = dalic_pyparse_next(p);
		if (dalic_pyparse_is_op(p, OP_STAR))
			return dalic_pyparse_error(p, dalic_pyparse_peek(p),
			                           "'except*' is not supported");
		pyhandler_t h = {.line = e->line, .col = e->col};
		if (!dalic_pyparse_is_op(p, OP_COLON)) {
			DALIC_TRY(dalic_pyparse_test(p, &h.type));
			if (dalic_pyparse_accept_kw(p, KW_AS))
				DALIC_TRY(pyparse_expect_name(p, "a name after 'as'", &h.name));
		}
		DALIC_TRY(pyparse_colon_block(p, &h.body, "'except' statement", e->line));
		pyhandler_t *v =
		    dalic_pyparse_grow(p, s->try_.handlers, s->try_.nhandlers, sizeof *v);
		if (!v)
			return DALIC_ENOMEM;
		v[s->try_.nhandlers++] = h;
		s->try_.handlers = v;
	}
	const pytoken_t *e = dalic_pyparse_peek(p);
	if (s->try_.nhandlers && dalic_pyparse_accept_kw(p, KW_ELSE))
		DALIC_TRY(pyparse_colon_block(p, &s->try_.orelse, "'else' statement", e->line));
	e = dalic_pyparse_peek(p);
	if (dalic_pyparse_accept_kw(p, KW_FINALLY))
		DALIC_TRY(
		    pyparse_colon_block(p, &s->try_.finalbody, "'finally' statement", e->line));
	else if (!s->try_.nhandlers)
		return dalic_pyparse_error(p, dalic_pyparse_peek(p),
		                           "expected 'except' or 'finally' block");
	return dalic_pyparse_list_push(p, out, s);
}

/* def_stmt: "def" NAME "(" parameters ")" ["->" test] colon_block */
static int pyparse_def_stmt(pyparser_t *p, const pytoken_t *t, pynode_list_t *decorators,
                            pynode_list_t *out)
{
	pynode_t *s;
	PYPARSE_NEW(s, S_DEF, t);
	s->def.decorators = *decorators;
	DALIC_TRY(pyparse_expect_name(p, "a function name", &s->def.name));
	DALIC_TRY(dalic_pyparse_expect_op(p, OP_LPAR, "after the function name"));
	DALIC_TRY(dalic_pyparse_params(p, &s->def.params, OP_RPAR, true));
	DALIC_TRY(dalic_pyparse_expect_op(p, OP_RPAR, "to close the parameter list"));
	if (dalic_pyparse_accept_op(p, OP_ARROW)) {
		pynode_t *ann;
		DALIC_TRY(dalic_pyparse_test(p, &ann));
	}
	int saved_loop = p->loop_depth, saved_yields = p->yields;
	p->loop_depth = 0;
	p->yields = 0;
	p->func_depth++;
	int rc = pyparse_colon_block(p, &s->def.body, "function definition", t->line);
	p->func_depth--;
	p->loop_depth = saved_loop;
	int yields = p->yields;
	p->yields = saved_yields;
	DALIC_TRY(rc);
	DALIC_TRY(dalic_pyscope_function(p->a, s));
	s->def.info->generator = yields > 0;
	return dalic_pyparse_list_push(p, out, s);
}

/* class_stmt: "class" NAME ["(" [(test | NAME "=" test) ("," ...)* [","]] ")"] colon_block */
static int pyparse_class_stmt(pyparser_t *p, const pytoken_t *t, pynode_list_t *decorators,
                              pynode_list_t *out)
{
	pynode_t *s;
	PYPARSE_NEW(s, S_CLASS, t);
	s->cls.decorators = *decorators;
	DALIC_TRY(pyparse_expect_name(p, "a class name", &s->cls.name));
	if (dalic_pyparse_accept_op(p, OP_LPAR)) {
		while (!dalic_pyparse_is_op(p, OP_RPAR)) {
			const pytoken_t *a = dalic_pyparse_peek(p);
			if (a->kind == TK_NAME && !a->kw &&
			    dalic_pyparse_peek_at(p, 1)->kind == TK_OP &&
			    dalic_pyparse_peek_at(p, 1)->op == OP_ASSIGN) {
				dalic_pyparse_next(p);
				dalic_pyparse_next(p);
				pynode_t *k;
				PYPARSE_NEW(k, N_KEYWORD, a);
				k->kw.arg = pyparse_tok_name(p, a);
				if (!k->kw.arg)
					return DALIC_ENOMEM;
				DALIC_TRY(dalic_pyparse_test(p, &k->kw.value));
				DALIC_TRY(dalic_pyparse_list_push(p, &s->cls.keywords, k));
			} else {
				pynode_t *b;
				DALIC_TRY(dalic_pyparse_test(p, &b));
				DALIC_TRY(dalic_pyparse_list_push(p, &s->cls.bases, b));
			}
			if (!dalic_pyparse_accept_op(p, OP_COMMA))
				break;
		}
		DALIC_TRY(dalic_pyparse_expect_op(p, OP_RPAR, "to close the base class list"));
	}
	int saved_loop = p->loop_depth, saved_func = p->func_depth;
	p->loop_depth = p->func_depth = 0;
	int rc = pyparse_colon_block(p, &s->cls.body, "class definition", t->line);
	p->loop_depth = saved_loop;
	p->func_depth = saved_func;
	DALIC_TRY(rc);
	return dalic_pyparse_list_push(p, out, s);
}

/* decorated: ("@" namedexpr_test NEWLINE)+ (def_stmt | class_stmt) */
static int pyparse_decorated(pyparser_t *p, pynode_list_t *out)
{
	pynode_list_t decos = {0};
	while (dalic_pyparse_is_op(p, OP_AT)) {
		dalic_pyparse_next(p);
		pynode_t *d;
		DALIC_TRY(dalic_pyparse_namedexpr(p, &d));
		DALIC_TRY(dalic_pyparse_list_push(p, &decos, d));
		if (dalic_pyparse_peek(p)->kind != TK_NEWLINE)
			return dalic_pyparse_error(p, dalic_pyparse_peek(p),
			                           "invalid syntax: expected a new line after the "
			                           "decorator");
		dalic_pyparse_next(p);
	}
	const pytoken_t *t = dalic_pyparse_peek(p);
	if (dalic_pyparse_accept_kw(p, KW_DEF))
		return pyparse_def_stmt(p, t, &decos, out);
	if (dalic_pyparse_accept_kw(p, KW_CLASS))
		return pyparse_class_stmt(p, t, &decos, out);
	if (t->kw == KW_ASYNC)
		return dalic_pyparse_error(p, t,
		                           "async functions are not supported in pipeline scripts");
	return dalic_pyparse_error(p, t,
	                           "invalid syntax: expected 'def' or 'class' after decorators");
}

/*
 * statement: if_stmt | for_stmt | while_stmt | with_stmt | try_stmt | def_stmt
 *          | class_stmt | decorated | simple_stmts
 */
static int pyparse_statement(pyparser_t *p, pynode_list_t *out)
{
	const pytoken_t *t = dalic_pyparse_peek(p);
	if (t->kind == TK_INDENT)
		return dalic_pyparse_error(p, t, "unexpected indent");
	if (t->kind == TK_OP && t->op == OP_AT)
		return pyparse_decorated(p, out);
	if (t->kind == TK_NAME) {
		pynode_list_t none = {0};
		switch (t->kw) {
		case KW_IF:
			dalic_pyparse_next(p);
			return pyparse_if_stmt(p, t, out);
		case KW_FOR:
			dalic_pyparse_next(p);
			return pyparse_for_stmt(p, t, out);
		case KW_WHILE:
			dalic_pyparse_next(p);
			return pyparse_while_stmt(p, t, out);
		case KW_WITH:
			dalic_pyparse_next(p);
			return pyparse_with_stmt(p, t, out);
		case KW_TRY:
			dalic_pyparse_next(p);
			return pyparse_try_stmt(p, t, out);
		case KW_DEF:
			dalic_pyparse_next(p);
			return pyparse_def_stmt(p, t, &none, out);
		case KW_CLASS:
			dalic_pyparse_next(p);
			return pyparse_class_stmt(p, t, &none, out);
		case KW_ASYNC:
			return dalic_pyparse_error(
			    p, t, "async code is not supported in pipeline scripts");
		case KW_ELSE:
		case KW_ELIF:
		case KW_EXCEPT:
		case KW_FINALLY:
			return dalic_pyparse_error(
			    p, t, "invalid syntax: '%s' without a matching statement",
			    dalic_pylex_kw_text(t->kw));
		default:
			break;
		}
	}
	return pyparse_simple_stmts(p, out);
}

/* module: statement* ENDMARKER */
int dalic_pyparse_module(pyarena_t *a, const pysrc_t *src, pyast_t **out)
{
	pytoken_t *toks;
	int n;
	int rc = dalic_pylex_run(a, src, &toks, &n);
	if (rc)
		return rc;
	pyparser_t p = {.a = a, .src = src, .t = toks, .n = n};
	pyast_t *m = dalic_pyarena_alloc(a, sizeof *m);
	if (!m)
		return DALIC_ENOMEM;
	while (dalic_pyparse_peek(&p)->kind != TK_EOF) {
		if (dalic_pyparse_peek(&p)->kind == TK_DEDENT ||
		    dalic_pyparse_peek(&p)->kind == TK_NEWLINE) {
			dalic_pyparse_next(&p);
			continue;
		}
		rc = pyparse_statement(&p, &m->body);
		if (rc)
			return rc == DALIC_ENOMEM
			           ? dalic_pysrc_error(src, dalic_pyparse_peek(&p)->line, 1, rc,
			                               "out of memory")
			           : rc;
	}
	rc = dalic_pyscope_module(a, m);
	if (rc)
		return rc;
	*out = m;
	return DALIC_OK;
}
