/*
 * Expression half of the parser: Python's precedence ladder from lambda / conditional
 * expressions down to atoms, calls, subscripts and attribute access, plus literals —
 * adjacent strings are joined, f-strings are split into literal text and embedded
 * expressions that are lexed and parsed in place so their errors point into the string.
 */
#include "frontend/script_parser.h"

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

static const char *tok_desc(const script_token_t *t, char *buf, size_t n)
{
	switch (t->kind) {
	case TK_EOF: return "end of file";
	case TK_NEWLINE: return "end of line";
	case TK_INDENT: return "indent";
	case TK_DEDENT: return "dedent";
	default: snprintf(buf, n, "'%.*s'", t->len > 40 ? 40 : t->len, t->text); return buf;
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
			tok_desc(sp_peek(p), buf, sizeof buf));
}

int sp_enter(sparser_t *p)
{
	if (++p->depth > SCRIPT_MAX_NESTING)
		return script_error_at(p->src, sp_peek(p)->line, sp_peek(p)->col, DALIC_EUNSUPPORTED,
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

#define NEW(var, kind, at)                                                                     \
	do {                                                                                   \
		(var) = sp_node(p, (kind), (at));                                              \
		if (!(var))                                                                    \
			return DALIC_ENOMEM;                                                   \
	} while (0)
#define TRY(x)                                                                                 \
	do {                                                                                   \
		int rc_ = (x);                                                                 \
		if (rc_)                                                                       \
			return rc_;                                                            \
	} while (0)

/* ---- f-strings ----------------------------------------------------------------------- */

static int fparts(sparser_t *p, const script_token_t *tok, size_t from, size_t to,
		  snode_list_t *parts, int nest);

/* Absolute line and column of byte `off` of the token's raw body. */
static void body_pos(sparser_t *p, const script_token_t *tok, size_t off, int *line, int *col)
{
	int l = tok->body_line;
	for (size_t i = 0; i < off; i++)
		if (tok->raw[i] == '\n')
			l++;
	size_t abs = (size_t)(tok->raw + off - p->src->text), ls = abs;
	while (ls > 0 && p->src->text[ls - 1] != '\n')
		ls--;
	*line = l;
	*col = script_column(p->src->text, ls, abs);
}

static int flit(sparser_t *p, const script_token_t *tok, const char *buf, size_t n,
		snode_list_t *parts)
{
	if (!n)
		return DALIC_OK;
	size_t len, bad;
	char *s = script_decode_string(p->a, buf, n, tok->sflags & STR_RAW, &len, &bad);
	if (!s)
		return bad == SIZE_MAX ? DALIC_ENOMEM
				       : sp_error(p, tok, "invalid escape sequence in f-string");
	snode_t *lit;
	NEW(lit, N_STR, tok);
	lit->str.s = s;
	lit->str.len = len;
	return sp_list_push(p, parts, lit);
}

/* One {expression!conv:spec} field starting after the '{' at `i`; *end is past its '}'. */
static int ffield(sparser_t *p, const script_token_t *tok, size_t i, size_t to, size_t *end,
		  snode_list_t *parts, int nest)
{
	const char *r = tok->raw;
	size_t start = i;
	int depth = 0;
	char quote = 0;
	for (; i < to; i++) {
		char c = r[i];
		if (quote) {
			if (c == quote)
				quote = 0;
			continue;
		}
		if (c == '\'' || c == '"')
			quote = c;
		else if (c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == ')' || c == ']' || c == '}') && depth > 0)
			depth--;
		else if (depth == 0 && (c == '}' || c == ':' ||
					(c == '!' && i + 1 < to && r[i + 1] != '=')))
			break;
		else if (depth == 0 && c == '=' && i + 1 < to && r[i + 1] != '=' && i > start &&
			 !strchr("=!<>", r[i - 1])) {
			int line, col;
			body_pos(p, tok, i, &line, &col);
			return script_error_at(p->src, line, col, DALIC_EUNSUPPORTED,
					       "self-documenting f-string fields ('{x=}') are not "
					       "supported");
		}
	}
	int line, col;
	body_pos(p, tok, start, &line, &col);
	if (i >= to)
		return script_error_at(p->src, line, col, DALIC_EPARSE,
				       "f-string: expecting '}' after the expression");
	size_t k = start;
	while (k < i && (r[k] == ' ' || r[k] == '\t' || r[k] == '\n'))
		k++;
	if (k == i)
		return script_error_at(p->src, line, col, DALIC_EPARSE,
				       "f-string: empty expression not allowed");
	script_token_t *toks;
	int ntoks;
	body_pos(p, tok, k, &line, &col);
	TRY(script_lex_fragment(p->a, p->src, r + k, i - k, line, col, &toks, &ntoks));
	snode_t *fv;
	NEW(fv, N_FVALUE, tok);
	fv->line = line;
	fv->col = col;
	TRY(script_parse_expression(p->a, p->src, toks, ntoks, &fv->fvalue.value));
	if (r[i] == '!') {
		if (i + 1 >= to || !strchr("rsa", r[i + 1])) {
			body_pos(p, tok, i, &line, &col);
			return script_error_at(p->src, line, col, DALIC_EPARSE,
					       "f-string: invalid conversion character: expected "
					       "'s', 'r', or 'a'");
		}
		fv->fvalue.conv = r[i + 1];
		i += 2;
	}
	if (i < to && r[i] == ':') {
		size_t s0 = ++i;
		depth = 0;
		for (; i < to; i++) {
			if (r[i] == '{')
				depth++;
			else if (r[i] == '}') {
				if (depth == 0)
					break;
				depth--;
			}
		}
		snode_t *spec;
		NEW(spec, N_FSTRING, tok);
		TRY(fparts(p, tok, s0, i, &spec->parts, nest + 1));
		fv->fvalue.spec = spec;
	}
	if (i >= to || r[i] != '}') {
		body_pos(p, tok, i < to ? i : to, &line, &col);
		return script_error_at(p->src, line, col, DALIC_EPARSE,
				       "f-string: expecting '}'");
	}
	*end = i + 1;
	return sp_list_push(p, parts, fv);
}

static int fparts(sparser_t *p, const script_token_t *tok, size_t from, size_t to,
		  snode_list_t *parts, int nest)
{
	if (nest > 2)
		return sp_error(p, tok, "f-string: expressions nested too deeply");
	const char *r = tok->raw;
	char *buf = script_arena_alloc(p->a, to - from + 1);
	if (!buf)
		return DALIC_ENOMEM;
	size_t n = 0, i = from;
	while (i < to) {
		char c = r[i];
		if (c == '{' && i + 1 < to && r[i + 1] == '{' ) {
			buf[n++] = '{';
			i += 2;
		} else if (c == '}' && i + 1 < to && r[i + 1] == '}') {
			buf[n++] = '}';
			i += 2;
		} else if (c == '{') {
			TRY(flit(p, tok, buf, n, parts));
			n = 0;
			TRY(ffield(p, tok, i + 1, to, &i, parts, nest));
		} else if (c == '}') {
			int line, col;
			body_pos(p, tok, i, &line, &col);
			return script_error_at(p->src, line, col, DALIC_EPARSE,
					       "f-string: single '}' is not allowed");
		} else {
			if (c == '\\' && i + 1 < to && !(tok->sflags & STR_RAW))
				buf[n++] = r[i++];
			buf[n++] = r[i++];
		}
	}
	return flit(p, tok, buf, n, parts);
}

/* One or more adjacent string literals. */
static int strings(sparser_t *p, snode_t **out)
{
	const script_token_t *first = sp_peek(p);
	bool any_f = false, bytes = (first->sflags & STR_BYTES) != 0;
	int k = 0;
	for (; sp_peek_at(p, k)->kind == TK_STRING; k++) {
		const script_token_t *t = sp_peek_at(p, k);
		if (((t->sflags & STR_BYTES) != 0) != bytes)
			return sp_error(p, t, "cannot mix bytes and nonbytes literals");
		any_f |= (t->sflags & STR_F) != 0;
	}
	snode_t *n;
	if (!any_f) {
		size_t total = 0;
		for (int i = 0; i < k; i++)
			total += sp_peek_at(p, i)->slen;
		char *s = script_arena_alloc(p->a, total + 1);
		if (!s)
			return DALIC_ENOMEM;
		size_t at = 0;
		for (int i = 0; i < k; i++) {
			const script_token_t *t = sp_next(p);
			memcpy(s + at, t->str, t->slen);
			at += t->slen;
		}
		NEW(n, N_STR, first);
		n->str.s = s;
		n->str.len = total;
		*out = n;
		return DALIC_OK;
	}
	NEW(n, N_FSTRING, first);
	for (int i = 0; i < k; i++) {
		const script_token_t *t = sp_next(p);
		if (t->sflags & STR_F) {
			TRY(fparts(p, t, 0, t->rawlen, &n->parts, 0));
		} else if (t->slen) {
			snode_t *lit;
			NEW(lit, N_STR, t);
			lit->str.s = t->str;
			lit->str.len = t->slen;
			TRY(sp_list_push(p, &n->parts, lit));
		}
	}
	*out = n;
	return DALIC_OK;
}

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
		case KW_NONE: sp_next(p); NEW(*out, N_NAME, t);
			(*out)->name = script_arena_strndup(p->a, t->text, (size_t)t->len);
			return (*out)->name ? DALIC_OK : DALIC_ENOMEM;
		case KW_NONE_: sp_next(p); NEW(*out, N_NONE, t); return DALIC_OK;
		case KW_TRUE:
		case KW_FALSE: sp_next(p); NEW(*out, N_BOOL, t); (*out)->b = t->kw == KW_TRUE;
			return DALIC_OK;
		case KW_AWAIT:
		case KW_YIELD:
			return sp_error(p, t, "'%s' is not supported in pipeline scripts",
					script_kw_text(t->kw));
		default:
			return sp_error(p, t, "invalid syntax: unexpected keyword '%s'",
					script_kw_text(t->kw));
		}
	case TK_INT: sp_next(p); NEW(*out, N_INT, t); (*out)->i = t->ival; return DALIC_OK;
	case TK_FLOAT: sp_next(p); NEW(*out, N_FLOAT, t); (*out)->f = t->fval; return DALIC_OK;
	case TK_STRING: return strings(p, out);
	case TK_OP:
		switch (t->op) {
		case OP_LPAR: return paren(p, out);
		case OP_LSQB: return list_display(p, out);
		case OP_LBRACE: return dict_or_set(p, out);
		case OP_ELLIPSIS: sp_next(p); NEW(*out, N_ELLIPSIS, t); return DALIC_OK;
		default: break;
		}
		break;
	case TK_INDENT: return sp_error(p, t, "unexpected indent");
	default: break;
	}
	return sp_error(p, t, "invalid syntax: unexpected %s", tok_desc(t, buf, sizeof buf));
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
				return sp_error_node(p, e, "positional argument follows keyword argument");
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
				return sp_error(p, name, "invalid syntax: expected an attribute name");
			sp_next(p);
			snode_t *a;
			NEW(a, N_ATTR, name);
			a->line = e->line; /* like Python: the attribute expression starts at its value */
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
		case OP_EQ: *op = CMP_EQ; return true;
		case OP_NE: *op = CMP_NE; return true;
		case OP_LT: *op = CMP_LT; return true;
		case OP_LE: *op = CMP_LE; return true;
		case OP_GT: *op = CMP_GT; return true;
		case OP_GE: *op = CMP_GE; return true;
		default: return false;
		}
	}
	if (t->kind != TK_NAME)
		return false;
	if (t->kw == KW_IN) {
		*op = CMP_IN;
		return true;
	}
	if (t->kw == KW_NOT && sp_peek_at(p, 1)->kw == KW_IN &&
	    sp_peek_at(p, 1)->kind == TK_NAME) {
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

static int bool_level(sparser_t *p, snode_t **out, level_fn operand, script_kw_t kw,
		      sboolop_t op)
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
				return sp_error(p, name, "duplicate argument '%s' in function definition",
						pa->name);
		if (annotations && sp_accept_op(p, OP_COLON)) {
			snode_t *ann;
			TRY(sp_test(p, &ann));
		}
		if (sp_accept_op(p, OP_ASSIGN)) {
			if (kind == P_VARARGS || kind == P_VARKW)
				return sp_error(p, name, "var-positional / var-keyword parameters cannot "
							  "have a default value");
			TRY(sp_test(p, &pa->def));
			if (kind == P_NORMAL)
				seen_default = true;
		} else if (kind == P_NORMAL && seen_default) {
			return sp_error(p, name, "parameter without a default follows parameter with a "
						  "default");
		}
		if (kind == P_VARKW && !sp_is_op(p, close) &&
		    !(sp_is_op(p, OP_COMMA) && sp_peek_at(p, 1)->kind == TK_OP &&
		      sp_peek_at(p, 1)->op == close))
			return sp_error(p, sp_peek(p), "arguments cannot follow var-keyword argument");
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
			rc = sp_error(p, sp_peek(p), "invalid syntax: expected 'else' after 'if' "
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
		if (n->kind == TK_NEWLINE || n->kind == TK_EOF || (n->kind == TK_OP &&
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

const char *script_node_kind_name(snode_kind_t k)
{
	switch (k) {
	case N_NAME: return "name";
	case N_NONE: return "None";
	case N_BOOL: return "True/False";
	case N_INT:
	case N_FLOAT: return "literal";
	case N_STR:
	case N_FSTRING: return "literal";
	case N_ELLIPSIS: return "ellipsis";
	case N_TUPLE: return "tuple";
	case N_LIST: return "list";
	case N_SET: return "set display";
	case N_DICT: return "dict literal";
	case N_BINOP: return "expression";
	case N_UNARY: return "expression";
	case N_BOOLOP: return "expression";
	case N_COMPARE: return "comparison";
	case N_CALL: return "function call";
	case N_ATTR: return "attribute";
	case N_SUBSCRIPT: return "subscript";
	case N_STARRED: return "starred";
	case N_LAMBDA: return "lambda";
	case N_IFEXP: return "conditional expression";
	case N_LISTCOMP: return "list comprehension";
	case N_SETCOMP: return "set comprehension";
	case N_DICTCOMP: return "dict comprehension";
	case N_GENEXP: return "generator expression";
	case N_NAMEDEXPR: return "named expression";
	default: return "statement";
	}
}

int sp_check_target(sparser_t *p, snode_t *e, const char *what)
{
	switch (e->kind) {
	case N_NAME:
	case N_ATTR:
	case N_SUBSCRIPT: return DALIC_OK;
	case N_STARRED: return sp_check_target(p, e->starred.value, what);
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
		return sp_error_node(p, e, "cannot assign to %s%s%s", script_node_kind_name(e->kind),
				     e->kind == N_CALL || e->kind == N_COMPARE ? " here" : "",
				     e->kind == N_COMPARE ? ". Maybe you meant '==' instead of '='?"
							  : "");
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
				tok_desc(sp_peek(&p), buf, sizeof buf));
	}
	*out = e;
	return DALIC_OK;
}
