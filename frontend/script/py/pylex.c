/*
 * The tokenizer (see pylex.h). One pass over the text produces the whole token array;
 * indentation is tracked with a stack of column widths as Python does. Positions are kept as
 * byte offsets while scanning and turned into (line, character column) per token.
 */
#include "frontend/script/py/pylex.h"

#include "frontend/script/py/pybuf.h"

#include "dalic.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INDENT_DEPTH 100
#define MAX_BRACKETS 200

typedef struct lexer {
	pyarena_t *a;
	const pysrc_t *src;
	const char *s; /* == src->text */
	size_t pos, end;
	int line;
	size_t line_start;
	int depth;                    /* bracket nesting */
	size_t open_at[MAX_BRACKETS]; /* where the innermost brackets opened */
	int open_line[MAX_BRACKETS];
	size_t open_ls[MAX_BRACKETS];
	bool fragment;
	int indents[MAX_INDENT_DEPTH];
	int nindent;
	pytoken_t *toks;
	int n, cap;
	/* the column of the last token, so a long line is counted once, not once per token */
	size_t col_ls, col_pos;
	int col;
} lexer_t;

static const char *const op_texts[] = {"",
#define X(name, text) text,
                                       PYLEX_OPS(X)
#undef X
};

static const char *const kw_texts[] = {"",
#define X(name, text) text,
                                       PYLEX_KEYWORDS(X)
#undef X
};

const char *dalic_pylex_op_text(pyop_t op)
{
	return (unsigned)op < OP_COUNT ? op_texts[op] : "?";
}

const char *dalic_pylex_kw_text(pykw_t kw)
{
	return (unsigned)kw < sizeof kw_texts / sizeof *kw_texts ? kw_texts[kw] : "?";
}

static int pylex_lex_error(lexer_t *L, size_t at, const char *msg, int code)
{
	/* `at` may lie on a later line than line_start when a literal spans lines */
	int line = L->line;
	size_t ls = L->line_start;
	if (at < ls) {
		ls = at;
		while (ls > 0 && L->s[ls - 1] != '\n')
			ls--;
	}
	return dalic_pysrc_error(L->src, line, dalic_pysrc_column(L->s, ls, at), code, "%s", msg);
}

/* Character column of byte `start` on the current line. */
static int pylex_column(lexer_t *L, size_t start)
{
	if (!L->col || L->col_ls != L->line_start || start < L->col_pos) {
		L->col_ls = L->line_start;
		L->col_pos = L->line_start;
		L->col = 1;
	}
	L->col += dalic_pysrc_column(L->s, L->col_pos, start) - 1;
	L->col_pos = start;
	return L->col;
}

static pytoken_t *pylex_push(lexer_t *L, pytok_kind_t kind, size_t start)
{
	if (L->n == L->cap) {
		int cap = L->cap        ? L->cap * 2
		          : L->fragment ? 8
		                        : 256; /* f-string fields are short */
		pytoken_t *t = dalic_pyarena_alloc(L->a, sizeof *t * (size_t)cap);
		if (!t)
			return NULL;
		if (L->n)
			memcpy(t, L->toks, sizeof *t * (size_t)L->n);
		L->toks = t;
		L->cap = cap;
	}
	pytoken_t *t = &L->toks[L->n++];
	memset(t, 0, sizeof *t);
	t->kind = kind;
	t->line = L->line;
	t->col = pylex_column(L, start);
	t->text = L->s + start;
	return t;
}

static void pylex_newline_at(lexer_t *L, size_t nl_pos)
{
	L->line++;
	L->line_start = nl_pos + 1;
}

static bool pylex_is_name_start(unsigned char c)
{
	return isalpha(c) || c == '_' || c >= 0x80;
}

static bool pylex_is_name_char(unsigned char c)
{
	return isalnum(c) || c == '_' || c >= 0x80;
}

static int pylex_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

char *dalic_pylex_decode_string(pyarena_t *a, const char *s, size_t n, bool raw, size_t *out_len,
                                size_t *bad)
{
	/* decoding never grows the text: every escape is at least as long as its UTF-8 result
	 * except \U (10 chars -> 4 bytes) and \u (6 -> 3), so n bytes suffice */
	char *d = dalic_pyarena_alloc(a, n + 1);
	*bad = SIZE_MAX;
	if (!d)
		return NULL;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c != '\\' || raw || i + 1 >= n) {
			d[k++] = c;
			continue;
		}
		char e = s[++i];
		switch (e) {
		case '\n':
			break;
		case '\r':
			if (i + 1 < n && s[i + 1] == '\n')
				i++;
			break;
		case '\\':
			d[k++] = '\\';
			break;
		case '\'':
			d[k++] = '\'';
			break;
		case '"':
			d[k++] = '"';
			break;
		case 'a':
			d[k++] = '\a';
			break;
		case 'b':
			d[k++] = '\b';
			break;
		case 'f':
			d[k++] = '\f';
			break;
		case 'n':
			d[k++] = '\n';
			break;
		case 'r':
			d[k++] = '\r';
			break;
		case 't':
			d[k++] = '\t';
			break;
		case 'v':
			d[k++] = '\v';
			break;
		case 'x':
		case 'u':
		case 'U': {
			int digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
			uint32_t cp = 0;
			for (int j = 0; j < digits; j++) {
				int h =
				    i + 1 + (size_t)j < n ? pylex_hexval(s[i + 1 + (size_t)j]) : -1;
				if (h < 0) {
					*bad = i - 1;
					return NULL;
				}
				cp = cp * 16 + (uint32_t)h;
			}
			if (cp > 0x10FFFF) {
				*bad = i - 1;
				return NULL;
			}
			i += (size_t)digits;
			k += (size_t)dalic_pybuf_utf8_encode(d + k, cp);
			break;
		}
		case 'N':
			*bad = i - 1;
			return NULL;
		default:
			if (e >= '0' && e <= '7') {
				uint32_t cp = (uint32_t)(e - '0');
				for (int j = 0;
				     j < 2 && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '7'; j++)
					cp = cp * 8 + (uint32_t)(s[++i] - '0');
				k += (size_t)dalic_pybuf_utf8_encode(d + k, cp);
			} else {
				d[k++] = '\\';
				d[k++] = e;
			}
		}
	}
	d[k] = 0;
	*out_len = k;
	return d;
}

/* String literal starting at `start` (prefix letters first); L->pos is at the prefix. */
static int pylex_lex_string(lexer_t *L, size_t start, unsigned flags)
{
	const char *s = L->s;
	char q = s[L->pos];
	bool triple = L->pos + 2 < L->end && s[L->pos + 1] == q && s[L->pos + 2] == q;
	size_t qlen = triple ? 3 : 1;
	int start_line = L->line;
	size_t start_ls = L->line_start;
	size_t body = L->pos + qlen, i = body;
	for (;;) {
		if (i >= L->end) {
			L->line = start_line;
			L->line_start = start_ls;
			return pylex_lex_error(L, start,
			                       triple ? "unterminated triple-quoted string literal"
			                              : "unterminated string literal",
			                       DALIC_EPARSE);
		}
		char c = s[i];
		if (c == '\\' && i + 1 < L->end) {
			if (s[i + 1] == '\n')
				pylex_newline_at(L, i + 1);
			i += 2;
			continue;
		}
		if (c == '\n') {
			if (!triple) {
				L->line = start_line;
				L->line_start = start_ls;
				return pylex_lex_error(L, start, "unterminated string literal",
				                       DALIC_EPARSE);
			}
			pylex_newline_at(L, i);
		}
		if (c == q && (!triple || (i + 2 < L->end && s[i + 1] == q && s[i + 2] == q)))
			break;
		i++;
	}
	/* the token is positioned at its start, which may be on an earlier line */
	int end_line = L->line;
	size_t end_ls = L->line_start;
	L->line = start_line;
	L->line_start = start_ls;
	pytoken_t *t = pylex_push(L, TK_STRING, start);
	if (!t)
		return DALIC_ENOMEM;
	L->line = end_line;
	L->line_start = end_ls;
	t->len = (int)(i + qlen - start);
	t->sflags = flags;
	t->raw = s + body;
	t->rawlen = i - body;
	t->body_line = start_line;
	t->body_ls = start_ls;
	/* prefix letters and quotes are ASCII: one column per byte after the token's start */
	t->body_col = t->col + (int)(body - start);
	if (!(flags & STR_F)) {
		size_t bad = 0;
		t->str = dalic_pylex_decode_string(L->a, t->raw, t->rawlen, flags & STR_RAW,
		                                   &t->slen, &bad);
		if (!t->str) {
			if (bad == SIZE_MAX)
				return DALIC_ENOMEM;
			L->line = start_line;
			L->line_start = start_ls;
			return pylex_lex_error(L, body + bad,
			                       "invalid escape sequence in string literal",
			                       DALIC_EPARSE);
		}
	}
	L->pos = i + qlen;
	return DALIC_OK;
}

static int pylex_lex_number(lexer_t *L)
{
	const char *s = L->s;
	size_t start = L->pos, i = start;
	char buf[128];
	size_t k = 0;
	bool is_float = false;
	int base = 10;
	if (s[i] == '0' && i + 1 < L->end && strchr("xXoObB", s[i + 1])) {
		base = strchr("xX", s[i + 1]) ? 16 : strchr("oO", s[i + 1]) ? 8 : 2;
		i += 2;
		while (i < L->end && (isxdigit((unsigned char)s[i]) || s[i] == '_')) {
			if (s[i] != '_' && k < sizeof buf - 1)
				buf[k++] = s[i];
			i++;
		}
	} else {
		while (i < L->end && (isdigit((unsigned char)s[i]) || s[i] == '_')) {
			if (s[i] != '_' && k < sizeof buf - 1)
				buf[k++] = s[i];
			i++;
		}
		if (i < L->end && s[i] == '.') {
			is_float = true;
			if (k < sizeof buf - 1)
				buf[k++] = '.';
			i++;
			while (i < L->end && (isdigit((unsigned char)s[i]) || s[i] == '_')) {
				if (s[i] != '_' && k < sizeof buf - 1)
					buf[k++] = s[i];
				i++;
			}
		}
		if (i < L->end && (s[i] == 'e' || s[i] == 'E')) {
			size_t j = i + 1;
			if (j < L->end && (s[j] == '+' || s[j] == '-'))
				j++;
			if (j < L->end && isdigit((unsigned char)s[j])) {
				is_float = true;
				while (i < j && k < sizeof buf - 1)
					buf[k++] = s[i++];
				while (i < L->end &&
				       (isdigit((unsigned char)s[i]) || s[i] == '_')) {
					if (s[i] != '_' && k < sizeof buf - 1)
						buf[k++] = s[i];
					i++;
				}
			}
		}
	}
	buf[k] = 0;
	if (i < L->end && (s[i] == 'j' || s[i] == 'J'))
		return pylex_lex_error(L, start, "complex numbers are not supported",
		                       DALIC_EUNSUPPORTED);
	if (i < L->end && pylex_is_name_char((unsigned char)s[i]))
		return pylex_lex_error(L, start, "invalid number literal", DALIC_EPARSE);
	pytoken_t *t = pylex_push(L, is_float ? TK_FLOAT : TK_INT, start);
	if (!t)
		return DALIC_ENOMEM;
	t->len = (int)(i - start);
	errno = 0;
	if (is_float) {
		t->fval = strtod(buf, NULL);
	} else {
		char *end;
		unsigned long long v = strtoull(buf, &end, base);
		if (!k || *end)
			return pylex_lex_error(L, start, "invalid number literal", DALIC_EPARSE);
		if (errno == ERANGE || v > (unsigned long long)INT64_MAX)
			return pylex_lex_error(
			    L, start, "integer literal too large (dalic supports 64-bit integers)",
			    DALIC_EUNSUPPORTED);
		t->ival = (int64_t)v;
	}
	L->pos = i;
	return DALIC_OK;
}

static int pylex_lex_operator(lexer_t *L)
{
	size_t start = L->pos;
	pyop_t best = OP_NONE;
	size_t best_len = 0;
	for (int op = 1; op < OP_COUNT; op++) {
		size_t n = strlen(op_texts[op]);
		if (n > best_len && start + n <= L->end && !memcmp(L->s + start, op_texts[op], n)) {
			best = (pyop_t)op;
			best_len = n;
		}
	}
	if (!best) {
		unsigned char c = (unsigned char)L->s[start];
		char msg[64];
		if (c == '!')
			snprintf(msg, sizeof msg,
			         "invalid syntax: '!' (did you mean '!=' or 'not'?)");
		else if (isprint(c))
			snprintf(msg, sizeof msg, "invalid character '%c' in script", c);
		else
			snprintf(msg, sizeof msg, "invalid character (byte 0x%02x) in script", c);
		return pylex_lex_error(L, start, msg, DALIC_EPARSE);
	}
	if (best == OP_LPAR || best == OP_LSQB || best == OP_LBRACE) {
		if (L->depth == MAX_BRACKETS)
			return pylex_lex_error(L, start, "brackets nested too deeply",
			                       DALIC_EUNSUPPORTED);
		L->open_at[L->depth] = start;
		L->open_line[L->depth] = L->line;
		L->open_ls[L->depth] = L->line_start;
		L->depth++;
	} else if (best == OP_RPAR || best == OP_RSQB || best == OP_RBRACE) {
		if (L->depth == 0)
			return pylex_lex_error(L, start, "unmatched closing bracket", DALIC_EPARSE);
		L->depth--;
	}
	pytoken_t *t = pylex_push(L, TK_OP, start);
	if (!t)
		return DALIC_ENOMEM;
	t->op = best;
	t->len = (int)best_len;
	L->pos = start + best_len;
	return DALIC_OK;
}

static int pylex_lex_name(lexer_t *L)
{
	size_t start = L->pos, i = start;
	while (i < L->end && pylex_is_name_char((unsigned char)L->s[i]))
		i++;
	/* string prefixes: r b u f and their two-letter combinations */
	size_t n = i - start;
	if (n <= 2 && i < L->end && (L->s[i] == '\'' || L->s[i] == '"')) {
		unsigned flags = 0;
		bool ok = true;
		for (size_t k = start; k < i; k++) {
			switch (tolower((unsigned char)L->s[k])) {
			case 'r':
				flags |= STR_RAW;
				break;
			case 'b':
				flags |= STR_BYTES;
				break;
			case 'f':
				flags |= STR_F;
				break;
			case 'u':
				break;
			default:
				ok = false;
			}
		}
		if (ok && !((flags & STR_BYTES) && (flags & STR_F))) {
			L->pos = i;
			return pylex_lex_string(L, start, flags);
		}
	}
	pytoken_t *t = pylex_push(L, TK_NAME, start);
	if (!t)
		return DALIC_ENOMEM;
	t->len = (int)n;
	for (int k = 1; k < (int)(sizeof kw_texts / sizeof *kw_texts); k++)
		if (strlen(kw_texts[k]) == n && !memcmp(kw_texts[k], L->s + start, n))
			t->kw = (pykw_t)k;
	L->pos = i;
	return DALIC_OK;
}

/* Measures the indentation at the start of a line; returns false for blank/comment lines. */
static bool pylex_measure_indent(lexer_t *L, int *width)
{
	int w = 0;
	size_t i = L->pos;
	while (i < L->end) {
		char c = L->s[i];
		if (c == ' ')
			w++;
		else if (c == '\t')
			w = (w / 8 + 1) * 8;
		else if (c == '\f')
			w = 0;
		else
			break;
		i++;
	}
	L->pos = i;
	*width = w;
	if (i >= L->end)
		return false;
	char c = L->s[i];
	return !(c == '#' || c == '\n' || c == '\r' ||
	         (c == '\\' && i + 1 < L->end && L->s[i + 1] == '\n'));
}

static int pylex_last_kind(const lexer_t *L)
{
	return L->n ? (int)L->toks[L->n - 1].kind : -1;
}

static int pylex_lex_run(lexer_t *L)
{
	bool at_line_start = !L->fragment;
	int rc;
	while (L->pos < L->end) {
		if (at_line_start && L->depth == 0) {
			int w;
			if (!pylex_measure_indent(L, &w)) {
				/* blank or comment-only line: skip to its end without tokens */
				while (L->pos < L->end && L->s[L->pos] != '\n')
					L->pos++;
				if (L->pos < L->end)
					pylex_newline_at(L, L->pos++);
				continue;
			}
			at_line_start = false;
			int cur = L->indents[L->nindent - 1];
			if (w > cur) {
				if (L->nindent >= MAX_INDENT_DEPTH)
					return pylex_lex_error(L, L->pos,
					                       "too many levels of indentation",
					                       DALIC_EUNSUPPORTED);
				L->indents[L->nindent++] = w;
				if (!pylex_push(L, TK_INDENT, L->pos))
					return DALIC_ENOMEM;
			} else if (w < cur) {
				while (L->nindent > 1 && L->indents[L->nindent - 1] > w) {
					L->nindent--;
					if (!pylex_push(L, TK_DEDENT, L->pos))
						return DALIC_ENOMEM;
				}
				if (L->indents[L->nindent - 1] != w)
					return pylex_lex_error(
					    L, L->pos,
					    "unindent does not match any outer indentation level",
					    DALIC_EPARSE);
			}
			continue;
		}
		char c = L->s[L->pos];
		if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
			L->pos++;
		} else if (c == '#') {
			while (L->pos < L->end && L->s[L->pos] != '\n')
				L->pos++;
		} else if (c == '\\') {
			size_t j = L->pos + 1;
			if (j < L->end && L->s[j] == '\r')
				j++;
			if (j >= L->end || L->s[j] != '\n')
				return pylex_lex_error(
				    L, L->pos,
				    "unexpected character after line continuation character",
				    DALIC_EPARSE);
			pylex_newline_at(L, j);
			L->pos = j + 1;
		} else if (c == '\n') {
			if (L->depth == 0 && !L->fragment && pylex_last_kind(L) != TK_NEWLINE &&
			    pylex_last_kind(L) >= 0 && pylex_last_kind(L) != TK_INDENT &&
			    pylex_last_kind(L) != TK_DEDENT) {
				if (!pylex_push(L, TK_NEWLINE, L->pos))
					return DALIC_ENOMEM;
			}
			pylex_newline_at(L, L->pos++);
			at_line_start = L->depth == 0 && !L->fragment;
		} else if (c == '\'' || c == '"') {
			rc = pylex_lex_string(L, L->pos, 0);
			if (rc)
				return rc;
		} else if (isdigit((unsigned char)c) ||
		           (c == '.' && L->pos + 1 < L->end &&
		            isdigit((unsigned char)L->s[L->pos + 1]))) {
			rc = pylex_lex_number(L);
			if (rc)
				return rc;
		} else if (pylex_is_name_start((unsigned char)c)) {
			rc = pylex_lex_name(L);
			if (rc)
				return rc;
		} else {
			rc = pylex_lex_operator(L);
			if (rc)
				return rc;
		}
	}
	if (L->depth > 0 && !L->fragment) {
		int d = L->depth - 1;
		char msg[40];
		snprintf(msg, sizeof msg, "'%c' was never closed", L->s[L->open_at[d]]);
		L->line = L->open_line[d];
		L->line_start = L->open_ls[d];
		return pylex_lex_error(L, L->open_at[d], msg, DALIC_EPARSE);
	}
	if (!L->fragment) {
		int k = pylex_last_kind(L);
		if (k >= 0 && k != TK_NEWLINE && k != TK_DEDENT && k != TK_INDENT &&
		    !pylex_push(L, TK_NEWLINE, L->pos))
			return DALIC_ENOMEM;
		while (L->nindent > 1) {
			L->nindent--;
			if (!pylex_push(L, TK_DEDENT, L->pos))
				return DALIC_ENOMEM;
		}
	}
	return pylex_push(L, TK_EOF, L->pos) ? DALIC_OK : DALIC_ENOMEM;
}

int dalic_pylex_run(pyarena_t *a, const pysrc_t *src, pytoken_t **toks, int *count)
{
	lexer_t L = {.a = a, .src = src, .s = src->text, .end = src->len, .line = 1, .nindent = 1};
	/* a UTF-8 byte order mark is not part of the program */
	if (L.end >= 3 && !memcmp(L.s, "\xEF\xBB\xBF", 3))
		L.pos = L.line_start = 3;
	int rc = pylex_lex_run(&L);
	if (rc == DALIC_ENOMEM)
		return dalic_pysrc_error(src, L.line, 1, DALIC_ENOMEM, "out of memory");
	if (rc)
		return rc;
	*toks = L.toks;
	*count = L.n;
	return DALIC_OK;
}

int dalic_pylex_fragment(pyarena_t *a, const pysrc_t *src, const char *text, size_t len, int line,
                         size_t line_start, int col, pytoken_t **toks, int *count)
{
	size_t off = (size_t)(text - src->text);
	/* the caller knows the column: an f-string with many fields on a long line costs no
	 * rescan of the line per field */
	lexer_t L = {.a = a,
	             .src = src,
	             .s = src->text,
	             .pos = off,
	             .end = off + len,
	             .line = line,
	             .line_start = line_start,
	             .fragment = true,
	             .nindent = 1,
	             .col_ls = line_start,
	             .col_pos = off,
	             .col = col};
	int rc = pylex_lex_run(&L);
	if (rc == DALIC_ENOMEM)
		return dalic_pysrc_error(src, line, 1, DALIC_ENOMEM, "out of memory");
	if (rc)
		return rc;
	*toks = L.toks;
	*count = L.n;
	return DALIC_OK;
}
