/*
 * The parser: a recursive-descent parser over the token array with Python's grammar and
 * precedence (pyparse_stmt.c: statements; pyparse_expr.c: the operator ladder;
 * pyparse_atom.c: atoms, displays and trailers; pyparse_fstr.c: string literals and
 * f-strings; pyparse.c: token helpers and errors). Each parse function carries its grammar
 * rule above it. Left-recursive rules (a + b + c, a.b.c, f()()) are loops, not recursion;
 * nesting through parentheses, brackets, unary operators and blocks is bounded
 * (PY_MAX_NESTING) so hostile input cannot exhaust the C stack.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYPARSE_H
#define DALIC_FRONTEND_SCRIPT_PY_PYPARSE_H

#include "engine/error.h"
#include "frontend/script/py/pyast.h"

#define PY_MAX_NESTING 150
#define PYPARSE_MAX_ELIF 1000

/* allocate a node or fail with DALIC_ENOMEM; propagate a non-zero status */
#define PYPARSE_NEW(var, kind, at)                                                                 \
	do {                                                                                       \
		(var) = dalic_pyparse_node(p, (kind), (at));                                       \
		if (!(var))                                                                        \
			return DALIC_ENOMEM;                                                       \
	} while (0)

typedef struct pyparser {
	pyarena_t *a;
	const pysrc_t *src;
	const pytoken_t *t;
	int n, pos;
	int depth;
	int func_depth, loop_depth; /* for 'return' / 'break' outside function / loop */
	int elifs;                  /* length of the elif chain being parsed */
	int yields;                 /* yield expressions in the function being parsed */
	int yield_line, yield_col;  /* where the last one was */
	/* the last position found in an f-string's body, so fields are located in one pass */
	struct {
		const pytoken_t *tok;
		size_t off, ls;
		int line, col;
	} fpos;
} pyparser_t;

/* token helpers */
const pytoken_t *dalic_pyparse_peek(pyparser_t *p);
const pytoken_t *dalic_pyparse_peek_at(pyparser_t *p, int k);
const pytoken_t *dalic_pyparse_next(pyparser_t *p);
bool dalic_pyparse_is_op(pyparser_t *p, pyop_t op);
bool dalic_pyparse_is_kw(pyparser_t *p, pykw_t kw);
bool dalic_pyparse_accept_op(pyparser_t *p, pyop_t op);
bool dalic_pyparse_accept_kw(pyparser_t *p, pykw_t kw);
int dalic_pyparse_expect_op(pyparser_t *p, pyop_t op, const char *what);
int dalic_pyparse_error(pyparser_t *p, const pytoken_t *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int dalic_pyparse_error_node(pyparser_t *p, const pynode_t *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int dalic_pyparse_enter(pyparser_t *p);
void dalic_pyparse_leave(pyparser_t *p);

pynode_t *dalic_pyparse_node(pyparser_t *p, pynode_kind_t kind, const pytoken_t *at);
/* "'text'" for a token, or "end of line" / "end of file"... (buf holds the text) */
const char *dalic_pyparse_tok_desc(const pytoken_t *t, char *buf, size_t n);
int dalic_pyparse_list_push(pyparser_t *p, pynode_list_t *l, pynode_t *n);
/* v (n elements of `size` bytes) with room for one more, in amortized linear time: the
 * array moves only when n reaches 4, 8, 16... NULL when out of memory. */
void *dalic_pyparse_grow(pyparser_t *p, void *v, int n, size_t size);

/* adjacent string literals and f-strings (pyparse_fstr.c) */
int dalic_pyparse_strings(pyparser_t *p, pynode_t **out);

/* expressions (pyparse_expr.c) */
int dalic_pyparse_test(pyparser_t *p, pynode_t **out);      /* test: ifexp / lambda */
int dalic_pyparse_namedexpr(pyparser_t *p, pynode_t **out); /* test or NAME := test */
int dalic_pyparse_or_test(pyparser_t *p, pynode_t **out);
int dalic_pyparse_expr(pyparser_t *p, pynode_t **out);
/* yield_expr: "yield" "from" test | "yield" [star_expressions] */
int dalic_pyparse_yield(pyparser_t *p, pynode_t **out);
/* Refuses a yield parsed since `at` (lambdas, comprehensions: not generator functions in
 * dalic, and not in Python 3.8+ either for comprehensions). */
int dalic_pyparse_no_yield_since(pyparser_t *p, const pynode_t *at, const char *where);
/* atoms, displays and trailers (pyparse_atom.c) */
int dalic_pyparse_primary(pyparser_t *p, pynode_t **out);
int dalic_pyparse_star_or_named(pyparser_t *p, pynode_t **out); /* "*" expr | namedexpr */
int dalic_pyparse_star_expressions(pyparser_t *p,
                                   pynode_t **out);           /* a, *b, c (tuple without parens) */
int dalic_pyparse_target_list(pyparser_t *p, pynode_t **out); /* for-loop targets */
int dalic_pyparse_params(pyparser_t *p, pyparams_t *out, pyop_t close, bool annotations);
/* Checks that e may be assigned to; `what` names the statement for the message. */
int dalic_pyparse_check_target(pyparser_t *p, pynode_t *e, const char *what);

#endif
