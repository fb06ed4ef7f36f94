/*
 * String literals: adjacent literals are joined (bytes and text may not mix); f-strings are
 * split into literal parts and {expression!conversion:spec} fields, whose expressions are
 * lexed and parsed in place so errors point inside the string. Format specs may nest one
 * more level of fields, as in Python.
 */
#include "frontend/script/py/pyparse.h"

#include "dalic.h"

#include <string.h>

/* ---- f-strings ----------------------------------------------------------------------- */

static int pyparse_fparts(pyparser_t *p, const pytoken_t *tok, size_t from, size_t to,
                          pynode_list_t *parts, int nest);

/* Absolute line and column of byte `off` of the token's raw body (and the offset of that
 * line's start), counted on from the last position asked for: fields come left to right. */
static void pyparse_body_pos(pyparser_t *p, const pytoken_t *tok, size_t off, int *line, int *col,
                             size_t *ls)
{
	if (p->fpos.tok != tok || off < p->fpos.off) {
		p->fpos.tok = tok;
		p->fpos.off = 0;
		p->fpos.line = tok->body_line;
		p->fpos.col = tok->body_col;
		p->fpos.ls = tok->body_ls;
	}
	for (size_t i = p->fpos.off; i < off; i++) {
		unsigned char c = (unsigned char)tok->raw[i];
		if (c == '\n') {
			p->fpos.line++;
			p->fpos.col = 1;
			p->fpos.ls = (size_t)(tok->raw + i + 1 - p->src->text);
		} else if ((c & 0xC0) != 0x80) {
			p->fpos.col++;
		}
	}
	p->fpos.off = off;
	*line = p->fpos.line;
	*col = p->fpos.col;
	if (ls)
		*ls = p->fpos.ls;
}

/* literal: the text between fields, escapes decoded ({{ and }} already halved) */
static int pyparse_flit(pyparser_t *p, const pytoken_t *tok, const char *buf, size_t n,
                        pynode_list_t *parts)
{
	if (!n)
		return DALIC_OK;
	size_t len, bad;
	char *s = dalic_pylex_decode_string(p->a, buf, n, tok->sflags & STR_RAW, &len, &bad);
	if (!s)
		return bad == SIZE_MAX
		           ? DALIC_ENOMEM
		           : dalic_pyparse_error(p, tok, "invalid escape sequence in f-string");
	pynode_t *lit;
	PYPARSE_NEW(lit, N_STR, tok);
	lit->str.s = s;
	lit->str.len = len;
	return dalic_pyparse_list_push(p, parts, lit);
}

/*
 * field: "{" star_expressions ["!" ("r" | "s" | "a")] [":" fstring_body] "}"
 * One field starting after the '{' at `i`; *end is past its '}'. The expression is lexed
 * and parsed where it stands in the file, so its errors point into the string.
 */
static int pyparse_ffield(pyparser_t *p, const pytoken_t *tok, size_t i, size_t to, size_t *end,
                          pynode_list_t *parts, int nest)
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
		else if (depth == 0 &&
		         (c == '}' || c == ':' || (c == '!' && i + 1 < to && r[i + 1] != '=')))
			break;
		else if (depth == 0 && c == '=' && i + 1 < to && r[i + 1] != '=' && i > start &&
		         !strchr("=!<>", r[i - 1])) {
			int line, col;
			pyparse_body_pos(p, tok, i, &line, &col, NULL);
			return dalic_pysrc_error(
			    p->src, line, col, DALIC_EUNSUPPORTED,
			    "self-documenting f-string fields ('{x=}') are not "
			    "supported");
		}
	}
	int line, col;
	pyparse_body_pos(p, tok, start, &line, &col, NULL);
	if (i >= to)
		return dalic_pysrc_error(p->src, line, col, DALIC_EPARSE,
		                         "f-string: expecting '}' after the expression");
	size_t k = start;
	while (k < i && (r[k] == ' ' || r[k] == '\t' || r[k] == '\n'))
		k++;
	if (k == i)
		return dalic_pysrc_error(p->src, line, col, DALIC_EPARSE,
		                         "f-string: empty expression not allowed");
	pytoken_t *toks;
	int ntoks;
	size_t ls;
	pyparse_body_pos(p, tok, k, &line, &col, &ls);
	DALIC_TRY(dalic_pylex_fragment(p->a, p->src, r + k, i - k, line, ls, col, &toks, &ntoks));
	pynode_t *fv;
	PYPARSE_NEW(fv, N_FVALUE, tok);
	fv->line = line;
	fv->col = col;
	DALIC_TRY(dalic_pyparse_expression(p->a, p->src, toks, ntoks, &fv->fvalue.value));
	if (r[i] == '!') {
		if (i + 1 >= to || !strchr("rsa", r[i + 1])) {
			pyparse_body_pos(p, tok, i, &line, &col, NULL);
			return dalic_pysrc_error(p->src, line, col, DALIC_EPARSE,
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
		pynode_t *spec;
		PYPARSE_NEW(spec, N_FSTRING, tok);
		DALIC_TRY(pyparse_fparts(p, tok, s0, i, &spec->parts, nest + 1));
		fv->fvalue.spec = spec;
	}
	if (i >= to || r[i] != '}') {
		pyparse_body_pos(p, tok, i < to ? i : to, &line, &col, NULL);
		return dalic_pysrc_error(p->src, line, col, DALIC_EPARSE,
		                         "f-string: expecting '}'");
	}
	*end = i + 1;
	return dalic_pyparse_list_push(p, parts, fv);
}

/* fstring_body: (literal | "{{" | "}}" | field)*   (format specs nest one more level) */
static int pyparse_fparts(pyparser_t *p, const pytoken_t *tok, size_t from, size_t to,
                          pynode_list_t *parts, int nest)
{
	if (nest > 2)
		return dalic_pyparse_error(p, tok, "f-string: expressions nested too deeply");
	const char *r = tok->raw;
	char *buf = dalic_pyarena_alloc(p->a, to - from + 1);
	if (!buf)
		return DALIC_ENOMEM;
	size_t n = 0, i = from;
	while (i < to) {
		char c = r[i];
		if (c == '{' && i + 1 < to && r[i + 1] == '{') {
			buf[n++] = '{';
			i += 2;
		} else if (c == '}' && i + 1 < to && r[i + 1] == '}') {
			buf[n++] = '}';
			i += 2;
		} else if (c == '{') {
			DALIC_TRY(pyparse_flit(p, tok, buf, n, parts));
			n = 0;
			DALIC_TRY(pyparse_ffield(p, tok, i + 1, to, &i, parts, nest));
		} else if (c == '}') {
			int line, col;
			pyparse_body_pos(p, tok, i, &line, &col, NULL);
			return dalic_pysrc_error(p->src, line, col, DALIC_EPARSE,
			                         "f-string: single '}' is not allowed");
		} else {
			if (c == '\\' && i + 1 < to && !(tok->sflags & STR_RAW))
				buf[n++] = r[i++];
			buf[n++] = r[i++];
		}
	}
	return pyparse_flit(p, tok, buf, n, parts);
}

/* strings: STRING+   (adjacent literals joined; f-strings split into literal and field parts) */
int dalic_pyparse_strings(pyparser_t *p, pynode_t **out)
{
	const pytoken_t *first = dalic_pyparse_peek(p);
	bool any_f = false, bytes = (first->sflags & STR_BYTES) != 0;
	int k = 0;
	for (; dalic_pyparse_peek_at(p, k)->kind == TK_STRING; k++) {
		const pytoken_t *t = dalic_pyparse_peek_at(p, k);
		if (((t->sflags & STR_BYTES) != 0) != bytes)
			return dalic_pyparse_error(p, t, "cannot mix bytes and nonbytes literals");
		any_f |= (t->sflags & STR_F) != 0;
	}
	pynode_t *n;
	if (!any_f) {
		size_t total = 0;
		for (int i = 0; i < k; i++)
			total += dalic_pyparse_peek_at(p, i)->slen;
		char *s = dalic_pyarena_alloc(p->a, total + 1);
		if (!s)
			return DALIC_ENOMEM;
		size_t at = 0;
		for (int i = 0; i < k; i++) {
			const pytoken_t *t = dalic_pyparse_next(p);
			memcpy(s + at, t->str, t->slen);
			at += t->slen;
		}
		PYPARSE_NEW(n, N_STR, first);
		n->str.s = s;
		n->str.len = total;
		*out = n;
		return DALIC_OK;
	}
	PYPARSE_NEW(n, N_FSTRING, first);
	for (int i = 0; i < k; i++) {
		const pytoken_t *t = dalic_pyparse_next(p);
		if (t->sflags & STR_F) {
			DALIC_TRY(pyparse_fparts(p, t, 0, t->rawlen, &n->parts, 0));
		} else if (t->slen) {
			pynode_t *lit;
			PYPARSE_NEW(lit, N_STR, t);
			lit->str.s = t->str;
			lit->str.len = t->slen;
			DALIC_TRY(dalic_pyparse_list_push(p, &n->parts, lit));
		}
	}
	*out = n;
	return DALIC_OK;
}
