/*
 * Parser plumbing shared by the expression, string and statement parsers: token access,
 * located syntax errors, the nesting guard, node allocation and arena-backed node lists,
 * plus assignment-target checks and parsing a lone expression (f-string fields, tests).
 */
#include "frontend/script/py/pyparse.h"

#include "dalic.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- token helpers ------------------------------------------------------------------- */

const script_token_t *sp_peek(sparser_t *p)
{
	return &p->t[p->pos];
}

const script_token_t *sp_peek_at(sparser_t *p, int k)
{
	int i = p->pos + k;
	return &p->t[i < p->n ? i : p->n - 1];
}

const script_token_t *sp_next(sparser_t *p)
{
	const script_token_t *t = &p->t[p->pos];
	if (p->pos < p->n - 1)
		p->pos++;
	return t;
}

bool sp_is_op(sparser_t *p, script_op_t op)
{
	const script_token_t *t = sp_peek(p);
	return t->kind == TK_OP && t->op == op;
}

bool sp_is_kw(sparser_t *p, script_kw_t kw)
{
	const script_token_t *t = sp_peek(p);
	return t->kind == TK_NAME && t->kw == kw;
}

bool sp_accept_op(sparser_t *p, script_op_t op)
{
	if (!sp_is_op(p, op))
		return false;
	sp_next(p);
	return true;
}

bool sp_accept_kw(sparser_t *p, script_kw_t kw)
{
	if (!sp_is_kw(p, kw))
		return false;
	sp_next(p);
	return true;
}

const char *sp_tok_desc(const script_token_t *t, char *buf, size_t n)
{
	switch (t->kind) {
	case TK_EOF:
		return "end of file";
	case TK_NEWLINE:
		return "end of line";
	case TK_INDENT:
		return "indent";
	case TK_DEDENT:
		return "dedent";
	default:
		snprintf(buf, n, "'%.*s'", t->len > 40 ? 40 : t->len, t->text);
		return buf;
	}
}

int sp_error(sparser_t *p, const script_token_t *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = script_error_vat(p->src, at->line, at->col, DALIC_EPARSE, fmt, ap);
	va_end(ap);
	return rc;
}

int sp_error_node(sparser_t *p, const snode_t *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = script_error_vat(p->src, at->line, at->col, DALIC_EPARSE, fmt, ap);
	va_end(ap);
	return rc;
}

int sp_expect_op(sparser_t *p, script_op_t op, const char *what)
{
	if (sp_accept_op(p, op))
		return DALIC_OK;
	char buf[64];
	return sp_error(p, sp_peek(p), "invalid syntax: expected '%s'%s%s, found %s",
	                script_op_text(op), what ? " " : "", what ? what : "",
	                sp_tok_desc(sp_peek(p), buf, sizeof buf));
}

int sp_enter(sparser_t *p)
{
	if (++p->depth > SCRIPT_MAX_NESTING)
		return script_error_at(
		    p->src, sp_peek(p)->line, sp_peek(p)->col, DALIC_EUNSUPPORTED,
		    "expression or block nested too deeply (more than %d levels)",
		    SCRIPT_MAX_NESTING);
	return DALIC_OK;
}

void sp_leave(sparser_t *p)
{
	p->depth--;
}

snode_t *sp_node(sparser_t *p, snode_kind_t kind, const script_token_t *at)
{
	snode_t *n = script_arena_alloc(p->a, sizeof *n);
	if (n) {
		n->kind = kind;
		n->line = at->line;
		n->col = at->col;
	}
	return n;
}

int sp_list_push(sparser_t *p, snode_list_t *l, snode_t *n)
{
	/* capacity is 4, 8, 16...: grow when the count reaches a power of two */
	if (l->n == 0 || (l->n >= 4 && (l->n & (l->n - 1)) == 0)) {
		int cap = l->n ? l->n * 2 : 4;
		snode_t **v = script_arena_alloc(p->a, sizeof *v * (size_t)cap);
		if (!v)
			return DALIC_ENOMEM;
		if (l->n)
			memcpy(v, l->v, sizeof *v * (size_t)l->n);
		l->v = v;
	}
	l->v[l->n++] = n;
	return DALIC_OK;
}

const char *script_node_kind_name(snode_kind_t k)
{
	switch (k) {
	case N_NAME:
		return "name";
	case N_NONE:
		return "None";
	case N_BOOL:
		return "True/False";
	case N_INT:
	case N_FLOAT:
		return "literal";
	case N_STR:
	case N_FSTRING:
		return "literal";
	case N_ELLIPSIS:
		return "ellipsis";
	case N_TUPLE:
		return "tuple";
	case N_LIST:
		return "list";
	case N_SET:
		return "set display";
	case N_DICT:
		return "dict literal";
	case N_BINOP:
		return "expression";
	case N_UNARY:
		return "expression";
	case N_BOOLOP:
		return "expression";
	case N_COMPARE:
		return "comparison";
	case N_CALL:
		return "function call";
	case N_ATTR:
		return "attribute";
	case N_SUBSCRIPT:
		return "subscript";
	case N_STARRED:
		return "starred";
	case N_LAMBDA:
		return "lambda";
	case N_IFEXP:
		return "conditional expression";
	case N_LISTCOMP:
		return "list comprehension";
	case N_SETCOMP:
		return "set comprehension";
	case N_DICTCOMP:
		return "dict comprehension";
	case N_GENEXP:
		return "generator expression";
	case N_NAMEDEXPR:
		return "named expression";
	default:
		return "statement";
	}
}

int sp_check_target(sparser_t *p, snode_t *e, const char *what)
{
	switch (e->kind) {
	case N_NAME:
	case N_ATTR:
	case N_SUBSCRIPT:
		return DALIC_OK;
	case N_STARRED:
		return sp_check_target(p, e->starred.value, what);
	case N_TUPLE:
	case N_LIST: {
		int stars = 0;
		for (int i = 0; i < e->elts.n; i++) {
			stars += e->elts.v[i]->kind == N_STARRED;
			TRY(sp_check_target(p, e->elts.v[i], what));
		}
		if (stars > 1)
			return sp_error_node(p, e, "multiple starred expressions in assignment");
		return DALIC_OK;
	}
	default:
		return sp_error_node(
		    p, e, "cannot assign to %s%s%s", script_node_kind_name(e->kind),
		    e->kind == N_CALL || e->kind == N_COMPARE ? " here" : "",
		    e->kind == N_COMPARE ? ". Maybe you meant '==' instead of '='?" : "");
	}
}

int script_parse_expression(script_arena_t *a, const script_src_t *src, const script_token_t *toks,
                            int ntoks, snode_t **out)
{
	sparser_t p = {.a = a, .src = src, .t = toks, .n = ntoks};
	snode_t *e;
	int rc = sp_star_expressions(&p, &e);
	if (rc)
		return rc;
	if (sp_peek(&p)->kind != TK_EOF) {
		char buf[64];
		return sp_error(&p, sp_peek(&p), "invalid syntax: unexpected %s",
		                sp_tok_desc(sp_peek(&p), buf, sizeof buf));
	}
	*out = e;
	return DALIC_OK;
}
