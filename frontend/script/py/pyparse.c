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

const pytoken_t *dalic_pyparse_peek(pyparser_t *p)
{
	return &p->t[p->pos];
}

const pytoken_t *dalic_pyparse_peek_at(pyparser_t *p, int k)
{
	int i = p->pos + k;
	return &p->t[i < p->n ? i : p->n - 1];
}

const pytoken_t *dalic_pyparse_next(pyparser_t *p)
{
	const pytoken_t *t = &p->t[p->pos];
	if (p->pos < p->n - 1)
		p->pos++;
	return t;
}

bool dalic_pyparse_is_op(pyparser_t *p, pyop_t op)
{
	const pytoken_t *t = dalic_pyparse_peek(p);
	return t->kind == TK_OP && t->op == op;
}

bool dalic_pyparse_is_kw(pyparser_t *p, pykw_t kw)
{
	const pytoken_t *t = dalic_pyparse_peek(p);
	return t->kind == TK_NAME && t->kw == kw;
}

bool dalic_pyparse_accept_op(pyparser_t *p, pyop_t op)
{
	if (!dalic_pyparse_is_op(p, op))
		return false;
	dalic_pyparse_next(p);
	return true;
}

bool dalic_pyparse_accept_kw(pyparser_t *p, pykw_t kw)
{
	if (!dalic_pyparse_is_kw(p, kw))
		return false;
	dalic_pyparse_next(p);
	return true;
}

const char *dalic_pyparse_tok_desc(const pytoken_t *t, char *buf, size_t n)
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

int dalic_pyparse_error(pyparser_t *p, const pytoken_t *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = dalic_pysrc_verror(p->src, at->line, at->col, DALIC_EPARSE, fmt, ap);
	va_end(ap);
	return rc;
}

int dalic_pyparse_error_node(pyparser_t *p, const pynode_t *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = dalic_pysrc_verror(p->src, at->line, at->col, DALIC_EPARSE, fmt, ap);
	va_end(ap);
	return rc;
}

int dalic_pyparse_expect_op(pyparser_t *p, pyop_t op, const char *what)
{
	if (dalic_pyparse_accept_op(p, op))
		return DALIC_OK;
	char buf[64];
	return dalic_pyparse_error(p, dalic_pyparse_peek(p),
	                           "invalid syntax: expected '%s'%s%s, found %s",
	                           dalic_pylex_op_text(op), what ? " " : "", what ? what : "",
	                           dalic_pyparse_tok_desc(dalic_pyparse_peek(p), buf, sizeof buf));
}

int dalic_pyparse_enter(pyparser_t *p)
{
	if (++p->depth > PY_MAX_NESTING)
		return dalic_pysrc_error(
		    p->src, dalic_pyparse_peek(p)->line, dalic_pyparse_peek(p)->col,
		    DALIC_EUNSUPPORTED,
		    "expression or block nested too deeply (more than %d levels)", PY_MAX_NESTING);
	return DALIC_OK;
}

void dalic_pyparse_leave(pyparser_t *p)
{
	p->depth--;
}

pynode_t *dalic_pyparse_node(pyparser_t *p, pynode_kind_t kind, const pytoken_t *at)
{
	pynode_t *n = dalic_pyarena_alloc(p->a, sizeof *n);
	if (n) {
		n->kind = kind;
		n->line = at->line;
		n->col = at->col;
	}
	return n;
}

void *dalic_pyparse_grow(pyparser_t *p, void *v, int n, size_t size)
{
	/* capacity is 4, 8, 16...: grow when the count reaches a power of two */
	if (n != 0 && (n < 4 || (n & (n - 1)) != 0))
		return v;
	size_t cap = n ? (size_t)n * 2 : 4;
	void *nv = dalic_pyarena_alloc(p->a, size * cap);
	if (nv && n)
		memcpy(nv, v, size * (size_t)n);
	return nv;
}

int dalic_pyparse_list_push(pyparser_t *p, pynode_list_t *l, pynode_t *n)
{
	pynode_t **v = dalic_pyparse_grow(p, l->v, l->n, sizeof *v);
	if (!v)
		return DALIC_ENOMEM;
	l->v = v;
	l->v[l->n++] = n;
	return DALIC_OK;
}

int dalic_pyparse_check_target(pyparser_t *p, pynode_t *e, const char *what)
{
	switch (e->kind) {
	case N_NAME:
	case N_ATTR:
	case N_SUBSCRIPT:
		return DALIC_OK;
	case N_STARRED:
		return dalic_pyparse_check_target(p, e->starred.value, what);
	case N_TUPLE:
	case N_LIST: {
		int stars = 0;
		for (int i = 0; i < e->elts.n; i++) {
			stars += e->elts.v[i]->kind == N_STARRED;
			DALIC_TRY(dalic_pyparse_check_target(p, e->elts.v[i], what));
		}
		if (stars > 1)
			return dalic_pyparse_error_node(
			    p, e, "multiple starred expressions in assignment");
		return DALIC_OK;
	}
	default:
		return dalic_pyparse_error_node(
		    p, e, "cannot assign to %s%s%s", dalic_pyast_kind_name(e->kind),
		    e->kind == N_CALL || e->kind == N_COMPARE ? " here" : "",
		    e->kind == N_COMPARE ? ". Maybe you meant '==' instead of '='?" : "");
	}
}

int dalic_pyparse_expression(pyarena_t *a, const pysrc_t *src, const pytoken_t *toks, int ntoks,
                             pynode_t **out)
{
	pyparser_t p = {.a = a, .src = src, .t = toks, .n = ntoks};
	pynode_t *e;
	int rc = dalic_pyparse_star_expressions(&p, &e);
	if (rc)
		return rc;
	if (dalic_pyparse_peek(&p)->kind != TK_EOF) {
		char buf[64];
		return dalic_pyparse_error(
		    &p, dalic_pyparse_peek(&p), "invalid syntax: unexpected %s",
		    dalic_pyparse_tok_desc(dalic_pyparse_peek(&p), buf, sizeof buf));
	}
	*out = e;
	return DALIC_OK;
}
