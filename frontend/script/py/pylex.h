/*
 * Tokens of the Python subset that pipeline scripts use. The lexer follows Python's rules:
 * INDENT / DEDENT from leading whitespace (tabs to the next multiple of 8), NEWLINE only at
 * the end of a logical line (not inside brackets, not after a backslash continuation),
 * blank and comment-only lines produce nothing, adjacent literals stay separate tokens (the
 * parser joins them). String literals are decoded here except f-strings, whose raw body is
 * kept for the parser to split into literal text and expressions.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYLEX_H
#define DALIC_FRONTEND_SCRIPT_PY_PYLEX_H

#include "frontend/script/py/pyarena.h"
#include "frontend/script/py/pysrc.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum {
	TK_EOF,
	TK_NEWLINE,
	TK_INDENT,
	TK_DEDENT,
	TK_NAME,
	TK_INT,
	TK_FLOAT,
	TK_STRING,
	TK_OP,
} pytok_kind_t;

/* Operators and delimiters; dalic_pylex_op_text() gives the spelling. */
#define PYLEX_OPS(X)                                                                               \
	X(LPAR, "(")                                                                               \
	X(RPAR, ")")                                                                               \
	X(LSQB, "[")                                                                               \
	X(RSQB, "]")                                                                               \
	X(LBRACE, "{")                                                                             \
	X(RBRACE, "}")                                                                             \
	X(COMMA, ",")                                                                              \
	X(COLON, ":")                                                                              \
	X(DOT, ".")                                                                                \
	X(SEMI, ";") X(ASSIGN, "=") X(ARROW, "->") X(WALRUS, ":=") X(ELLIPSIS, "...") X(PLUS, "+") \
	    X(MINUS, "-") X(STAR, "*") X(DSTAR, "**") X(SLASH, "/") X(DSLASH, "//")                \
	        X(PERCENT, "%") X(AT, "@") X(LSHIFT, "<<") X(RSHIFT, ">>") X(AMP, "&")             \
	            X(PIPE, "|") X(CARET, "^") X(TILDE, "~") X(LT, "<") X(GT, ">") X(LE, "<=")     \
	                X(GE, ">=") X(EQ, "==") X(NE, "!=") X(PLUSEQ, "+=") X(MINUSEQ, "-=")       \
	                    X(STAREQ, "*=") X(DSTAREQ, "**=") X(SLASHEQ, "/=") X(DSLASHEQ, "//=")  \
	                        X(PERCENTEQ, "%=") X(ATEQ, "@=") X(LSHIFTEQ, "<<=")                \
	                            X(RSHIFTEQ, ">>=") X(AMPEQ, "&=") X(PIPEEQ, "|=")              \
	                                X(CARETEQ, "^=")

typedef enum {
	OP_NONE = 0,
#define X(name, text) OP_##name,
	PYLEX_OPS(X)
#undef X
	    OP_COUNT
} pyop_t;

/* Keywords (NAME tokens carry one of these in `kw`, KW_NONE for plain identifiers). */
#define PYLEX_KEYWORDS(X)                                                                          \
	X(FALSE, "False")                                                                          \
	X(NONE_, "None")                                                                           \
	X(TRUE, "True")                                                                            \
	X(AND, "and")                                                                              \
	X(AS, "as")                                                                                \
	X(ASSERT, "assert")                                                                        \
	X(ASYNC, "async")                                                                          \
	X(AWAIT, "await")                                                                          \
	X(BREAK, "break")                                                                          \
	X(CLASS, "class") X(CONTINUE, "continue") X(DEF, "def") X(DEL, "del") X(ELIF, "elif")      \
	    X(ELSE, "else") X(EXCEPT, "except") X(FINALLY, "finally") X(FOR, "for")                \
	        X(FROM, "from") X(GLOBAL, "global") X(IF, "if") X(IMPORT, "import") X(IN, "in")    \
	            X(IS, "is") X(LAMBDA, "lambda") X(NONLOCAL, "nonlocal") X(NOT, "not")          \
	                X(OR, "or") X(PASS, "pass") X(RAISE, "raise") X(RETURN, "return")          \
	                    X(TRY, "try") X(WHILE, "while") X(WITH, "with") X(YIELD, "yield")

typedef enum {
	KW_NONE = 0,
#define X(name, text) KW_##name,
	PYLEX_KEYWORDS(X)
#undef X
} pykw_t;

enum { STR_RAW = 1, STR_BYTES = 2, STR_F = 4 };

typedef struct pytoken {
	pytok_kind_t kind;
	int line, col;    /* 1-based; col counts characters */
	const char *text; /* source slice (names, operators, numbers) */
	int len;
	pyop_t op;    /* TK_OP */
	pykw_t kw;    /* TK_NAME */
	int64_t ival; /* TK_INT */
	double fval;  /* TK_FLOAT */
	/* TK_STRING: decoded value (not for f-strings), flags, and the raw body between the
	 * quotes with the position of its first character (f-strings are parsed from it). */
	char *str;
	size_t slen;
	unsigned sflags;
	const char *raw;
	size_t rawlen;
	int body_line, body_col;
	size_t body_ls; /* offset of the start of the line the body starts on */
} pytoken_t;

/* Tokenizes src. *toks gets an arena array ending with TK_EOF. Errors are located. */
int dalic_pylex_run(pyarena_t *a, const pysrc_t *src, pytoken_t **toks, int *count);
/* Tokenizes an expression embedded in an f-string: no INDENT / NEWLINE. `text` lies inside
 * src->text and starts on line `line`, so positions stay those of the file. */
int dalic_pylex_fragment(pyarena_t *a, const pysrc_t *src, const char *text, size_t len, int line,
                         size_t line_start, int col, pytoken_t **toks, int *count);
/* Decodes escapes of a string body (not raw): \n \t \xHH \uXXXX \ooo ... Unknown escapes keep
 * the backslash like Python. Result NUL-terminated in the arena; *out_len its length. Returns
 * NULL with *bad = the offending offset on an invalid escape, or SIZE_MAX when out of
 * memory. */
char *dalic_pylex_decode_string(pyarena_t *a, const char *s, size_t n, bool raw, size_t *out_len,
                                size_t *bad);
const char *dalic_pylex_op_text(pyop_t op);
const char *dalic_pylex_kw_text(pykw_t kw);

#endif
