/*
 * The syntax tree of a pipeline script: Python's AST shape, restricted to the subset dalic
 * evaluates. Nodes live in the load's arena and carry the 1-based line and character column
 * of their first token, which every runtime error reuses. Expressions and statements share
 * one node type so lists of either are plain arrays.
 */
#ifndef DALIC_FRONTEND_SCRIPT_AST_H
#define DALIC_FRONTEND_SCRIPT_AST_H

#include "frontend/script/py/pylex.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum {
	/* expressions */
	N_NAME,
	N_NONE,
	N_BOOL,
	N_INT,
	N_FLOAT,
	N_STR,
	N_FSTRING, /* parts: N_STR and N_FVALUE */
	N_FVALUE,  /* {value!conv:spec} inside an f-string */
	N_ELLIPSIS,
	N_TUPLE,
	N_LIST,
	N_SET,
	N_DICT,
	N_BINOP,
	N_UNARY,
	N_BOOLOP,
	N_COMPARE,
	N_CALL,
	N_KEYWORD, /* name=value in a call; name NULL for **value */
	N_ATTR,
	N_SUBSCRIPT,
	N_SLICE,
	N_STARRED,
	N_LAMBDA,
	N_IFEXP,
	N_LISTCOMP,
	N_SETCOMP,
	N_DICTCOMP,
	N_GENEXP,
	N_NAMEDEXPR,
	/* statements */
	S_EXPR,
	S_ASSIGN,
	S_AUGASSIGN,
	S_ANNASSIGN,
	S_IF,
	S_FOR,
	S_WHILE,
	S_BREAK,
	S_CONTINUE,
	S_PASS,
	S_RETURN,
	S_DEF,
	S_CLASS,
	S_IMPORT,
	S_IMPORTFROM,
	S_WITH,
	S_GLOBAL,
	S_NONLOCAL,
	S_DEL,
	S_ASSERT,
	S_RAISE,
	S_TRY,
} snode_kind_t;

typedef enum { U_NEG, U_POS, U_INVERT, U_NOT } sunary_t;
typedef enum { B_AND, B_OR } sboolop_t;
typedef enum {
	CMP_EQ,
	CMP_NE,
	CMP_LT,
	CMP_LE,
	CMP_GT,
	CMP_GE,
	CMP_IN,
	CMP_NOTIN,
	CMP_IS,
	CMP_ISNOT,
} scmp_t;

typedef struct snode snode_t;

typedef struct snode_list {
	snode_t **v;
	int n;
} snode_list_t;

enum { P_NORMAL, P_VARARGS, P_KWONLY, P_VARKW };

typedef struct sparam {
	const char *name;
	snode_t *def; /* default value, or NULL */
	int kind;     /* P_* */
	int line, col;
} sparam_t;

typedef struct sparams {
	sparam_t *v;
	int n;
} sparams_t;

typedef struct scomp {
	snode_t *target, *iter;
	snode_list_t ifs;
} scomp_t;

typedef struct salias {
	const char *name;   /* dotted name */
	const char *asname; /* or NULL */
	int line, col;
} salias_t;

typedef struct shandler {
	snode_t *type; /* or NULL */
	const char *name;
	snode_list_t body;
	int line, col;
} shandler_t;

/* Static facts about one function body, computed once (script_scope.c). */
typedef struct sfunc_info {
	const char **locals; /* sorted */
	int nlocals;
	const char **globals; /* declared `global` */
	int nglobals;
	bool uses_return; /* a return statement appears in the body */
	bool analysed;    /* liveness of its if statements computed */
} sfunc_info_t;

/* What an `if` statement reads and writes, for conditional lowering (script_liveness.c). */
typedef struct sif_info {
	const char **outputs; /* modified in a branch and live after the if, sorted */
	int noutputs;
	const char **inputs_only; /* modified, live into the if but not after it, sorted */
	int ninputs_only;
	bool has_return; /* a return statement inside either branch */
} sif_info_t;

struct snode {
	snode_kind_t kind;
	int line, col;
	union {
		const char *name;
		bool b;
		int64_t i;
		double f;
		struct {
			const char *s;
			size_t len;
		} str;
		snode_list_t parts; /* N_FSTRING */
		struct {
			snode_t *value;
			char conv;     /* 0, 'r', 's', 'a' */
			snode_t *spec; /* N_FSTRING or NULL */
		} fvalue;
		snode_list_t elts; /* tuple, list, set */
		struct {
			snode_list_t keys, values; /* key NULL: **value */
		} dict;
		struct {
			script_op_t op;
			snode_t *left, *right;
		} bin;
		struct {
			sunary_t op;
			snode_t *operand;
		} unary;
		struct {
			sboolop_t op;
			snode_list_t values;
		} boolop;
		struct {
			snode_t *left;
			scmp_t *ops;
			snode_list_t rest;
		} cmp;
		struct {
			snode_t *func;
			snode_list_t args;   /* expressions and N_STARRED */
			snode_list_t kwargs; /* N_KEYWORD */
		} call;
		struct {
			const char *arg;
			snode_t *value;
		} kw;
		struct {
			snode_t *value;
			const char *attr;
		} attr;
		struct {
			snode_t *value, *index;
		} sub;
		struct {
			snode_t *lo, *hi, *step;
		} slice;
		struct {
			snode_t *value;
		} starred;
		struct {
			sparams_t params;
			snode_t *body;
		} lambda;
		struct {
			snode_t *test, *body, *orelse;
		} ifexp;
		struct {
			snode_t *elt, *value; /* value only for dict comprehensions */
			scomp_t *gens;
			int ngens;
		} comp;
		struct {
			snode_t *target, *value;
		} named;
		/* statements */
		struct {
			snode_t *value;
		} expr;
		struct {
			snode_list_t targets;
			snode_t *value;
		} assign;
		struct {
			snode_t *target;
			script_op_t op; /* the binary operator */
			snode_t *value;
		} aug;
		struct {
			snode_t *target, *value; /* value may be NULL */
		} ann;
		struct {
			snode_t *test;
			snode_list_t body, orelse;
			sif_info_t *info;
		} if_;
		struct {
			snode_t *target, *iter;
			snode_list_t body, orelse;
		} for_;
		struct {
			snode_t *test;
			snode_list_t body, orelse;
		} while_;
		struct {
			snode_t *value;
		} ret;
		struct {
			const char *name;
			sparams_t params;
			snode_list_t body, decorators;
			sfunc_info_t *info;
		} def;
		struct {
			const char *name;
			snode_list_t bases, keywords, body, decorators;
		} cls;
		struct {
			salias_t *names;
			int n;
		} import;
		struct {
			const char *module; /* may be "" with level > 0 */
			int level;
			salias_t *names; /* NULL: import * */
			int n;
		} from;
		struct {
			snode_list_t items, vars; /* vars[i] may be NULL */
			snode_list_t body;
		} with;
		struct {
			const char **names;
			int n;
		} global;
		struct {
			snode_list_t targets;
		} del;
		struct {
			snode_t *test, *msg;
		} assert_;
		struct {
			snode_t *exc, *cause;
		} raise;
		struct {
			snode_list_t body;
			shandler_t *handlers;
			int nhandlers;
			snode_list_t orelse, finalbody;
		} try_;
	};
};

/* A parsed script: the module body. */
typedef struct script_module {
	snode_list_t body;
	sfunc_info_t *info; /* module scope facts (globals) */
} script_module_t;

/* Parses a whole script. Errors are located (file:line:col + caret). */
int script_parse(script_arena_t *a, const script_src_t *src, script_module_t **out);
/* Parses a single expression (tests, f-strings). */
int script_parse_expression(script_arena_t *a, const script_src_t *src, const script_token_t *toks,
                            int ntoks, snode_t **out);
const char *script_node_kind_name(snode_kind_t k);

#endif
