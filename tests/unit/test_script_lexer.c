/* Unit tests: the pipeline-script tokenizer (indentation, continuation, literals). */
#include "tests/testlib.h"

#include "dalic.h"
#include "frontend/script/py/pylex.h"

#include <stdio.h>

#include <string.h>

TestSuite(script_lexer, .timeout = 20);

typedef struct script_lexer_lexed {
	pyarena_t *a;
	pysrc_t src;
	pytoken_t *t;
	int n;
} script_lexer_lexed_t;

static script_lexer_lexed_t script_lexer_lex(const char *text)
{
	script_lexer_lexed_t L = {.a = dalic_pyarena_new(0), .src = {"t.py", text, strlen(text)}};
	ASSERT_OK(dalic_pylex_run(L.a, &L.src, &L.t, &L.n));
	return L;
}

/* Compact rendering: names and operators as text, N=NEWLINE, I=INDENT, D=DEDENT. */
static const char *script_lexer_render(const script_lexer_lexed_t *L)
{
	static char buf[1024];
	size_t k = 0;
	for (int i = 0; i < L->n && k < sizeof buf - 64; i++) {
		const pytoken_t *t = &L->t[i];
		if (i)
			buf[k++] = ' ';
		switch (t->kind) {
		case TK_NEWLINE:
			buf[k++] = 'N';
			break;
		case TK_INDENT:
			buf[k++] = 'I';
			break;
		case TK_DEDENT:
			buf[k++] = 'D';
			break;
		case TK_EOF:
			k += (size_t)snprintf(buf + k, sizeof buf - k, "EOF");
			break;
		case TK_INT:
			k += (size_t)snprintf(buf + k, sizeof buf - k, "%lld", (long long)t->ival);
			break;
		case TK_FLOAT:
			k += (size_t)snprintf(buf + k, sizeof buf - k, "%g", t->fval);
			break;
		case TK_STRING:
			k += (size_t)snprintf(buf + k, sizeof buf - k, "<%s>",
			                      t->sflags & STR_F ? "f" : t->str);
			break;
		default:
			k += (size_t)snprintf(buf + k, sizeof buf - k, "%.*s", t->len, t->text);
		}
	}
	buf[k] = 0;
	return buf;
}

Test(script_lexer, indentation_and_logical_lines)
{
	script_lexer_lexed_t L =
	    script_lexer_lex("def f(a,\n      b):\n    # comment\n\n    if a:\n        return b\n"
	                     "    return \\\n  a\nx = f(1, 2)\n");
	cr_expect_str_eq(script_lexer_render(&L),
	                 "def f ( a , b ) : N I if a : N I return b N D return a N D "
	                 "x = f ( 1 , 2 ) N EOF");
	cr_expect_eq(L.t[0].kw, KW_DEF);
	cr_expect_eq(L.t[1].kw, KW_NONE);
	dalic_pyarena_free(L.a);
}

Test(script_lexer, positions_are_line_and_character_column)
{
	script_lexer_lexed_t L = script_lexer_lex("a = 'ü'\nbb  =  c\n");
	cr_expect_eq(L.t[0].line, 1);
	cr_expect_eq(L.t[0].col, 1);
	cr_expect_eq(L.t[4].line, 2);
	cr_expect_eq(L.t[4].col, 1);
	cr_expect_eq(L.t[5].col, 5);
	cr_expect_eq(L.t[6].col, 8);
	dalic_pyarena_free(L.a);
}

Test(script_lexer, numbers)
{
	script_lexer_lexed_t L = script_lexer_lex("1_000 0x1F 0o17 0b101 1.5 .25 3e2 2.5E-1 7.\n");
	cr_expect_str_eq(script_lexer_render(&L), "1000 31 15 5 1.5 0.25 300 0.25 7 N EOF");
	cr_expect_eq(L.t[8].kind, TK_FLOAT);
	dalic_pyarena_free(L.a);
}

Test(script_lexer, strings_escapes_prefixes_and_triple_quotes)
{
	script_lexer_lexed_t L = script_lexer_lex(
	    "'a\\tb' \"q'\\\"\" r'\\n' b'x' f'{x}' '''multi\nline''' '\\x41\\u00e9'\n");
	cr_expect_str_eq(L.t[0].str, "a\tb");
	cr_expect_str_eq(L.t[1].str, "q'\"");
	cr_expect_str_eq(L.t[2].str, "\\n");
	cr_expect(L.t[3].sflags & STR_BYTES);
	cr_expect(L.t[4].sflags & STR_F);
	cr_expect_eq(L.t[4].rawlen, 3);
	cr_expect_str_eq(L.t[5].str, "multi\nline");
	cr_expect_str_eq(L.t[6].str, "A\xc3\xa9");
	cr_expect_eq(L.t[6].line, 2, "after a two-line literal");
	dalic_pyarena_free(L.a);
}

Test(script_lexer, operators_take_the_longest_match)
{
	script_lexer_lexed_t L = script_lexer_lex("a **= b // c >>= d != e := f -> ... @\n");
	cr_expect_str_eq(script_lexer_render(&L), "a **= b // c >>= d != e := f -> ... @ N EOF");
	cr_expect_eq(L.t[1].op, OP_DSTAREQ);
	cr_expect_eq(L.t[9].op, OP_WALRUS);
	dalic_pyarena_free(L.a);
}

Test(script_lexer, errors_are_located)
{
	static const struct {
		const char *text;
		const char *msg;
	} cases[] = {
	    {"a = 1 ? 2\n", "t.py:1:7: invalid character '?' in script"},
	    {"x = ]\n", "t.py:1:5: unmatched closing bracket"},
	    {"x = '\\N{DASH}'\n", "t.py:1:6: invalid escape sequence in string literal"},
	    {"x = 99999999999999999999\n", "t.py:1:5: integer literal too large"},
	    {"x = 3j\n", "t.py:1:5: complex numbers are not supported"},
	    {"x = '''abc\n", "t.py:1:5: unterminated triple-quoted string literal"},
	    {"x = [1,\n  2\n", "t.py:1:5: '[' was never closed"},
	    {"x = 1 \\ 2\n", "t.py:1:7: unexpected character after line continuation character"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		pyarena_t *a = dalic_pyarena_new(0);
		pysrc_t src = {"t.py", cases[i].text, strlen(cases[i].text)};
		pytoken_t *t;
		int n;
		cr_expect_neq(dalic_pylex_run(a, &src, &t, &n), DALIC_OK, "%s", cases[i].text);
		EXPECT_STARTS(dalic_last_error(), cases[i].msg, "%s", cases[i].text);
		dalic_pyarena_free(a);
	}
}
