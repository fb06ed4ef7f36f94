/*
 * Parser internals shared by the expression and statement halves (script_parse_expr.c,
 * script_parse_stmt.c). A recursive-descent parser over the token array with Python's
 * grammar and precedence; nesting depth is bounded so hostile input cannot exhaust the
 * C stack.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PARSER_H
#define DALIC_FRONTEND_SCRIPT_PARSER_H

#include "frontend/script/py/pyast.h"

#define SCRIPT_MAX_NESTING 150

/* allocate a node or fail with DALIC_ENOMEM; propagate a non-zero status */
#define NEW(var, kind, at)                                                                         \
	do {                                                                                       \
		(var) = sp_node(p, (kind), (at));                                                  \
		if (!(var))                                                                        \
			return DALIC_ENOMEM;                                                       \
	} while (0)
#define TRY(x)                                                                                     \
	do {                                                                                       \
		int rc_ = (x);                                                                     \
		if (rc_)                                                                           \
			return rc_;                                                                \
	} while (0)

typedef struct sparser {
	script_arena_t *a;
	const script_src_t *src;
	const script_token_t *t;
	int n, pos;
	int depth;
	int func_depth, loop_depth; /* for 'return' / 'break' outside function / loop */
} sparser_t;

/* token helpers */
const script_token_t *sp_peek(sparser_t *p);
const script_token_t *sp_peek_at(sparser_t *p, int k);
const script_token_t *sp_next(sparser_t *p);
bool sp_is_op(sparser_t *p, script_op_t op);
bool sp_is_kw(sparser_t *p, script_kw_t kw);
bool sp_accept_op(sparser_t *p, script_op_t op);
bool sp_accept_kw(sparser_t *p, script_kw_t kw);
int sp_expect_op(sparser_t *p, script_op_t op, const char *what);
int sp_error(sparser_t *p, const script_token_t *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int sp_error_node(sparser_t *p, const snode_t *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int sp_enter(sparser_t *p);
void sp_leave(sparser_t *p);

snode_t *sp_node(sparser_t *p, snode_kind_t kind, const script_token_t *at);
/* "'text'" for a token, or "end of line" / "end of file"... (buf holds the text) */
const char *sp_tok_desc(const script_token_t *t, char *buf, size_t n);
int sp_list_push(sparser_t *p, snode_list_t *l, snode_t *n);

/* adjacent string literals and f-strings (script_parse_fstring.c) */
int sp_strings(sparser_t *p, snode_t **out);

/* expressions (script_parse_expr.c) */
int sp_test(sparser_t *p, snode_t **out);      /* test: ifexp / lambda */
int sp_namedexpr(sparser_t *p, snode_t **out); /* test or NAME := test */
int sp_or_test(sparser_t *p, snode_t **out);
int sp_expr(sparser_t *p, snode_t **out);             /* bitwise-or level (star targets) */
int sp_star_expressions(sparser_t *p, snode_t **out); /* a, *b, c (tuple without parens) */
int sp_target_list(sparser_t *p, snode_t **out);      /* for-loop targets */
int sp_params(sparser_t *p, sparams_t *out, script_op_t close, bool annotations);
/* Checks that e may be assigned to; `what` names the statement for the message. */
int sp_check_target(sparser_t *p, snode_t *e, const char *what);

/* scope facts and the return rewrite of a finished `def` (script_scope.c) */
int script_scope_function(script_arena_t *a, snode_t *def);
int script_scope_module(script_arena_t *a, script_module_t *m);

#endif
