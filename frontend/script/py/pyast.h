/*
 * The syntax tree of a pipeline script: Python's AST shape, restricted to the subset dalic
 * evaluates. Nodes live in the load's arena and carry the 1-based line and character column
 * of their first token, which every runtime error reuses. Expressions and statements share
 * one node type so lists of either are plain arrays.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYAST_H
#define DALIC_FRONTEND_SCRIPT_PY_PYAST_H

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
	N_YIELD,     /* value may be NULL */
	N_YIELDFROM, /* yield from value */
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
} pynode_kind_t;

typedef enum { U_NEG, U_POS, U_INVERT, U_NOT } pyunary_t;
typedef enum { B_AND, B_OR } pyboolop_t;
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
} pycmp_t;

typedef struct pynode pynode_t;

typedef struct pynode_list {
	pynode_t **v;
	int n;
} pynode_list_t;

enum { P_NORMAL, P_VARARGS, P_KWONLY, P_VARKW };

typedef struct pyparam {
	const char *name;
	pynode_t *def; /* default value, or NULL */
	int kind;      /* P_* */
	int line, col;
} pyparam_t;

typedef struct pyparams {
	pyparam_t *v;
	int n;
} pyparams_t;

typedef struct pycomp {
	pynode_t *target, *iter;
	pynode_list_t ifs;
} pycomp_t;

typedef struct pyalias {
	const char *name;   /* dotted name */
	const char *asname; /* or NULL */
	int line, col;
} pyalias_t;

typedef struct pyhandler {
	pynode_t *type; /* or NULL */
	const char *name;
	pynode_list_t body;
	int line, col;
} pyhandler_t;

/* Static facts about one function body, computed once (pyscope.c). */
typedef struct pyfunc_info {
	const char **locals; /* sorted */
	int nlocals;
	const char **globals; /* declared `global` */
	int nglobals;
	bool uses_return; /* a return statement appears in the body */
	bool generator;   /* a yield appears in the body: calling it makes a generator */
	bool analysed;    /* liveness of its if statements computed */
} pyfunc_info_t;

/* What an `if` statement reads and writes, for conditional lowering (pyscope_live.c). */
typedef struct pyif_info {
	const char **outputs; /* modified in a branch and live after the if, sorted */
	int noutputs;
	/* per output: the target node of a composite (`d['k']`, pyscope_composite.c), or NULL */
	const pynode_t **output_targets;
	const char **inputs_only; /* modified, live into the if but not after it, sorted */
	int ninputs_only;
	bool has_return; /* a return statement inside either branch */
} pyif_info_t;

struct pynode {
	pynode_kind_t kind;
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
		pynode_list_t parts; /* N_FSTRING */
		struct {
			pynode_t *value;
			char conv;      /* 0, 'r', 's', 'a' */
			pynode_t *spec; /* N_FSTRING or NULL */
		} fvalue;
		pynode_list_t elts; /* tuple, list, set */
		struct {
			pynode_list_t keys, values; /* key NULL: **value */
		} dict;
		struct {
			pyop_t op;
			pynode_t *left, *right;
		} bin;
		struct {
			pyunary_t op;
			pynode_t *operand;
		} unary;
		struct {
			pyboolop_t op;
			pynode_list_t values;
		} boolop;
		struct {
			pynode_t *left;
			pycmp_t *ops;
			pynode_list_t rest;
		} cmp;
		struct {
			pynode_t *func;
			pynode_list_t args;   /* expressions and N_STARRED */
			pynode_list_t kwargs; /* N_KEYWORD */
		} call;
		struct {
			const char *arg;
			pynode_t *value;
		} kw;
		struct {
			pynode_t *value;
			const char *attr;
		} attr;
		struct {
			pynode_t *value, *index;
		} sub;
		struct {
			pynode_t *lo, *hi, *step;
		} slice;
		struct {
			pynode_t *value;
		} starred;
		struct {
			pyparams_t params;
			pynode_t *body;
		} lambda;
		struct {
			pynode_t *test, *body, *orelse;
		} ifexp;
		struct {
			pynode_t *elt, *value; /* value only for dict comprehensions */
			pycomp_t *gens;
			int ngens;
		} comp;
		struct {
			pynode_t *target, *value;
		} named;
		struct {
			pynode_t *value;
		} yield;
		/* statements */
		struct {
			pynode_t *value;
		} expr;
		struct {
			pynode_list_t targets;
			pynode_t *value;
		} assign;
		struct {
			pynode_t *target;
			pyop_t op; /* the binary operator */
			pynode_t *value;
		} aug;
		struct {
			pynode_t *target, *value; /* value may be NULL */
			pynode_t *annotation;     /* not evaluated (as `from __future__ import
			                           * annotations`); class bodies record it */
		} ann;
		struct {
			pynode_t *test;
			pynode_list_t body, orelse;
			pyif_info_t *info;
		} if_;
		struct {
			pynode_t *target, *iter;
			pynode_list_t body, orelse;
		} for_;
		struct {
			pynode_t *test;
			pynode_list_t body, orelse;
		} while_;
		struct {
			pynode_t *value;
		} ret;
		struct {
			const char *name;
			pyparams_t params;
			pynode_list_t body, decorators;
			pyfunc_info_t *info;
		} def;
		struct {
			const char *name;
			pynode_list_t bases, keywords, body, decorators;
		} cls;
		struct {
			pyalias_t *names;
			int n;
		} import;
		struct {
			const char *module; /* may be "" with level > 0 */
			int level;
			pyalias_t *names; /* NULL: import * */
			int n;
		} from;
		struct {
			pynode_list_t items, vars; /* vars[i] may be NULL */
			pynode_list_t body;
		} with;
		struct {
			const char **names;
			int n;
		} global;
		struct {
			pynode_list_t targets;
		} del;
		struct {
			pynode_t *test, *msg;
		} assert_;
		struct {
			pynode_t *exc, *cause;
		} raise;
		struct {
			pynode_list_t body;
			pyhandler_t *handlers;
			int nhandlers;
			pynode_list_t orelse, finalbody;
		} try_;
	};
};

/* A parsed script: the module body. */
typedef struct pyast {
	pynode_list_t body;
	pyfunc_info_t *info; /* module scope facts (globals) */
} pyast_t;

/* Parses a whole script. Errors are located (file:line:col + caret). */
int dalic_pyparse_module(pyarena_t *a, const pysrc_t *src, pyast_t **out);
/* Parses a single expression (tests, f-strings). */
int dalic_pyparse_expression(pyarena_t *a, const pysrc_t *src, const pytoken_t *toks, int ntoks,
                             pynode_t **out);
const char *dalic_pyast_kind_name(pynode_kind_t k);

#endif
