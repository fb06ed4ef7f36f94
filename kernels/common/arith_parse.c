/*
 * ArithmeticGenericOp: parsing expression_desc and typing the tree (see arith_expr.h).
 *
 * The grammar and the typing rules are DALI's (dali/operators/math/expressions): operands are
 * separated by single spaces, names are alphanumeric, "&k" is the k-th tensor input and
 * "$k:type" the k-th integer or real constant. Result types follow DALI's promotion table;
 * ops that always produce floating point (fdiv, sqrt, sin, fpow, ...) give FLOAT when all
 * their operands are integral; comparisons give BOOL. Unlike DALI (which runs one function
 * node per operator instance), nested calls are accepted and evaluated node by node.
 */
#include "kernels/common/arith_elem.h"
#include "kernels/common/arith_expr.h"

#include "engine/dtype.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPF_ARITHMETIC = 1, /* not allowed when every operand is bool (except mul) */
	OPF_TO_FLOAT = 2,   /* integral operands give FLOAT */
	OPF_COMPARE = 4,
	OPF_BITWISE = 8,
};

static const struct {
	const char *name;
	int arity;
	unsigned flags;
	const char *symbol; /* DALI's to_string(ArithmeticOp), in its messages; NULL: the name */
} ops[ARITH_NUM_OPS] = {
    [ARITH_PLUS] = {"plus", 1, OPF_ARITHMETIC, "+"},
    [ARITH_MINUS] = {"minus", 1, OPF_ARITHMETIC, "-"},
    [ARITH_ABS] = {"abs", 1, OPF_ARITHMETIC},
    [ARITH_FABS] = {"fabs", 1, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_FLOOR] = {"floor", 1, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_CEIL] = {"ceil", 1, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_SQRT] = {"sqrt", 1, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_RSQRT] = {"rsqrt", 1, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_CBRT] = {"cbrt", 1, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_EXP] = {"exp", 1, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_LOG] = {"log", 1, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_LOG2] = {"log2", 1, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_LOG10] = {"log10", 1, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_SIN] = {"sin", 1, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_COS] = {"cos", 1, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_TAN] = {"tan", 1, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_ASIN] = {"asin", 1, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_ACOS] = {"acos", 1, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_ATAN] = {"atan", 1, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_SINH] = {"sinh", 1, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_COSH] = {"cosh", 1, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_TANH] = {"tanh", 1, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_ASINH] = {"asinh", 1, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_ACOSH] = {"acosh", 1, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_ATANH] = {"atanh", 1, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_ADD] = {"add", 2, OPF_ARITHMETIC, "+"},
    [ARITH_SUB] = {"sub", 2, OPF_ARITHMETIC, "-"},
    [ARITH_MUL] = {"mul", 2, OPF_ARITHMETIC, "*"},
    [ARITH_DIV] = {"div", 2, OPF_ARITHMETIC, "//"},
    [ARITH_FDIV] = {"fdiv", 2, OPF_ARITHMETIC | OPF_TO_FLOAT, "/"},
    [ARITH_MOD] = {"mod", 2, OPF_ARITHMETIC, "%"},
    [ARITH_MIN] = {"min", 2, OPF_ARITHMETIC},
    [ARITH_MAX] = {"max", 2, OPF_ARITHMETIC},
    [ARITH_POW] = {"pow", 2, OPF_ARITHMETIC},
    [ARITH_FPOW] = {"fpow", 2, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_ATAN2] = {"atan2", 2, OPF_ARITHMETIC | OPF_TO_FLOAT},
    [ARITH_EQ] = {"eq", 2, OPF_COMPARE, "=="},
    [ARITH_NEQ] = {"neq", 2, OPF_COMPARE, "!="},
    [ARITH_LT] = {"lt", 2, OPF_COMPARE, "<"},
    [ARITH_LEQ] = {"leq", 2, OPF_COMPARE, "<="},
    [ARITH_GT] = {"gt", 2, OPF_COMPARE, ">"},
    [ARITH_GEQ] = {"geq", 2, OPF_COMPARE, ">="},
    [ARITH_BITAND] = {"bitand", 2, OPF_BITWISE, "&"},
    [ARITH_BITOR] = {"bitor", 2, OPF_BITWISE, "|"},
    [ARITH_BITXOR] = {"bitxor", 2, OPF_BITWISE, "^"},
    [ARITH_CLAMP] = {"clamp", 3, OPF_ARITHMETIC},
};

const char *dalic_arith_op_name(arith_op_t op)
{
	return (unsigned)op < ARITH_NUM_OPS ? ops[op].name : "?";
}

arith_lane_t dalic_arith_lane(dalic_dtype_t t)
{
	return dalic_arith_lane_of(t);
}

static dalic_dtype_t arith_signed_of_size(size_t bytes)
{
	switch (bytes) {
	case 1:
		return DALIC_INT8;
	case 2:
		return DALIC_INT16;
	case 4:
		return DALIC_INT32;
	default:
		return DALIC_INT64;
	}
}

dalic_dtype_t dalic_arith_promote(dalic_dtype_t a, dalic_dtype_t b)
{
	if (a == b)
		return a;
	bool fa = dalic_dtype_is_float(a), fb = dalic_dtype_is_float(b);
	if (fa || fb) {
		if (fa && fb)
			return dalic_dtype_size(a) >= dalic_dtype_size(b) ? a : b;
		return fa ? a : b;
	}
	if (a == DALIC_BOOL || b == DALIC_BOOL)
		return a == DALIC_BOOL ? b : a;
	bool sa = dalic_dtype_is_signed(a), sb = dalic_dtype_is_signed(b);
	if (sa == sb)
		return dalic_dtype_size(a) >= dalic_dtype_size(b) ? a : b;
	dalic_dtype_t s = sa ? a : b, u = sa ? b : a;
	if (dalic_dtype_size(s) > dalic_dtype_size(u))
		return s;
	/* intX + uintY with X <= Y: int(2Y), capped at int64 */
	return arith_signed_of_size(2 * dalic_dtype_size(u));
}

/* ---- parser ---- */

typedef struct parser {
	const char *s;
	int pos;
	arith_expr_t *e;
	char *err;
	size_t errlen;
} parser_t;

static bool arith_fail(parser_t *p, const char *what)
{
	if (p->s[p->pos])
		snprintf(p->err, p->errlen, "%s at position %d ('%c') in \"%s\"", what, p->pos,
		         p->s[p->pos], p->s);
	else
		snprintf(p->err, p->errlen, "%s at the end of \"%s\"", what, p->s);
	return false;
}

static void arith_skip_spaces(parser_t *p)
{
	while (p->s[p->pos] == ' ')
		p->pos++;
}

static bool arith_parse_uint(parser_t *p, int *out)
{
	if (!isdigit((unsigned char)p->s[p->pos]))
		return arith_fail(p, "expected an unsigned integer");
	long v = 0;
	while (isdigit((unsigned char)p->s[p->pos])) {
		v = v * 10 + (p->s[p->pos++] - '0');
		if (v > 1000000)
			return arith_fail(p, "index too large");
	}
	*out = (int)v;
	return true;
}

static int arith_word_end(const char *s, int pos)
{
	while (isalnum((unsigned char)s[pos]))
		pos++;
	return pos;
}

static bool arith_add_node(parser_t *p, const arith_node_t *n, int *index)
{
	if (p->e->num_nodes == ARITH_MAX_NODES)
		return arith_fail(p, "expression has too many nodes (at most 64)");
	*index = p->e->num_nodes;
	p->e->nodes[p->e->num_nodes++] = *n;
	return true;
}

static bool arith_parse_expr(parser_t *p, int depth, int *index);

static bool arith_parse_call(parser_t *p, int depth, int *index)
{
	arith_node_t n = {.kind = ARITH_FUNC, .pos = p->pos};
	if (!isalpha((unsigned char)p->s[p->pos]))
		return arith_fail(p, "expected a function name, \"&\" (input) or \"$\" (constant)");
	int end = arith_word_end(p->s, p->pos);
	int len = end - p->pos;
	int op = -1;
	for (int i = 0; i < ARITH_NUM_OPS; i++)
		if ((int)strlen(ops[i].name) == len &&
		    !strncmp(ops[i].name, p->s + p->pos, (size_t)len))
			op = i;
	if (op < 0)
		return arith_fail(p, "unknown operation");
	n.op = (arith_op_t)op;
	p->pos = end;
	arith_skip_spaces(p);
	if (p->s[p->pos] != '(')
		return arith_fail(p, "expected \"(\"");
	p->pos++;
	arith_skip_spaces(p);
	while (p->s[p->pos] != ')') {
		if (!p->s[p->pos])
			return arith_fail(p, "expected \")\"");
		if (n.num_args == ARITH_MAX_ARITY)
			return arith_fail(p, "too many operands");
		if (!arith_parse_expr(p, depth + 1, &n.args[n.num_args]))
			return false;
		n.num_args++;
		arith_skip_spaces(p);
	}
	p->pos++;
	if (n.num_args != ops[op].arity) {
		snprintf(p->err, p->errlen,
		         "'%s' at position %d takes %d operand%s, got %d in \"%s\"", ops[op].name,
		         n.pos, ops[op].arity, ops[op].arity > 1 ? "s" : "", n.num_args, p->s);
		return false;
	}
	return arith_add_node(p, &n, index);
}

static bool arith_parse_expr(parser_t *p, int depth, int *index)
{
	if (depth > 32)
		return arith_fail(p, "expression nested too deeply");
	arith_node_t n = {.pos = p->pos};
	if (p->s[p->pos] == '&') {
		p->pos++;
		n.kind = ARITH_INPUT;
		if (!arith_parse_uint(p, &n.index))
			return false;
		if (n.index >= ARITH_MAX_INPUTS)
			return arith_fail(p, "input index out of range (at most 63)");
		if (n.index > p->e->max_input)
			p->e->max_input = n.index;
		return arith_add_node(p, &n, index);
	}
	if (p->s[p->pos] == '$') {
		p->pos++;
		n.kind = ARITH_CONST;
		if (!arith_parse_uint(p, &n.index))
			return false;
		if (p->s[p->pos] != ':')
			return arith_fail(p, "expected \":\" and a type after the constant index");
		int start = ++p->pos, end = arith_word_end(p->s, start);
		n.dtype = DALIC_NO_TYPE;
		static const dalic_dtype_t types[] = {DALIC_BOOL,    DALIC_UINT8,  DALIC_UINT16,
		                                      DALIC_UINT32,  DALIC_UINT64, DALIC_INT8,
		                                      DALIC_INT16,   DALIC_INT32,  DALIC_INT64,
		                                      DALIC_FLOAT16, DALIC_FLOAT,  DALIC_FLOAT64};
		for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
			const char *name = dalic_dtype_short(types[i]);
			if ((int)strlen(name) == end - start &&
			    !strncmp(name, p->s + start, (size_t)(end - start)))
				n.dtype = types[i];
		}
		if (n.dtype == DALIC_NO_TYPE)
			return arith_fail(
			    p, "unknown constant type (bool, int8..int64, uint8..uint64, "
			       "float16, float32, float64)");
		p->pos = end;
		n.compute = n.dtype;
		n.slot = p->e->num_constants++;
		return arith_add_node(p, &n, index);
	}
	return arith_parse_call(p, depth, index);
}

bool dalic_arith_parse(const char *desc, arith_expr_t *e, char *err, size_t errlen)
{
	memset(e, 0, sizeof *e);
	e->max_input = -1;
	parser_t p = {.s = desc, .e = e, .err = err, .errlen = errlen};
	int root;
	if (!arith_parse_expr(&p, 0, &root))
		return false;
	arith_skip_spaces(&p);
	if (desc[p.pos])
		return arith_fail(&p, "unexpected text after the expression");
	return true;
}

/* ---- typing ---- */

/* DALI's messages (arithmetic.h), the operation as DALI writes it, the types after. */
static bool arith_type_error(char *err, size_t errlen, const arith_node_t *n,
                             const dalic_dtype_t *types)
{
	const char *sym = ops[n->op].symbol ? ops[n->op].symbol : ops[n->op].name;
	int k;
	if (ops[n->op].flags & OPF_BITWISE)
		k = snprintf(err, errlen, "Inputs to bitwise operator `%s` must be of integral type.",
		             sym);
	else if (n->num_args == 1)
		k = snprintf(err, errlen,
		             "Input to arithmetic operator `%s` cannot be a boolean. Consider using "
		             "bitwise operator `~` or an numeric type.",
		             sym);
	else
		k = snprintf(err, errlen,
		             "Inputs to arithmetic operator `%s` cannot be booleans. Consider using "
		             "bitwise operators `|`, `&`, `^` or anumeric type as one of the inputs "
		             "to force type promotions of the booleans. Note: using `*` "
		             "(multiplication) is still allowed for boolean inputs.",
		             sym);
	for (int i = 0; i < n->num_args && k > 0 && (size_t)k < errlen; i++)
		k += snprintf(err + k, errlen - (size_t)k, "%s%s", i ? ", " : " (",
		              dalic_dtype_name(types[i]));
	if (k > 0 && (size_t)k < errlen)
		snprintf(err + k, errlen - (size_t)k, ")");
	return false;
}

static void arith_type_compare(arith_node_t *n, dalic_dtype_t l, dalic_dtype_t r)
{
	n->dtype = DALIC_BOOL;
	n->cmp = ARITH_CMP_SIGNED;
	if (dalic_dtype_is_float(l) || dalic_dtype_is_float(r)) {
		/* C++'s usual conversions: integers meet floats in the float type */
		n->compute = l == DALIC_FLOAT64 || r == DALIC_FLOAT64 ? DALIC_FLOAT64 : DALIC_FLOAT;
		return;
	}
	bool ls = dalic_dtype_is_signed(l), rs = dalic_dtype_is_signed(r);
	n->compute = DALIC_INT64;
	if (!ls && !rs) {
		n->cmp = ARITH_CMP_UNSIGNED;
		n->compute = DALIC_UINT64;
	} else if (ls && r == DALIC_UINT64) {
		n->cmp = ARITH_CMP_S_U64;
	} else if (rs && l == DALIC_UINT64) {
		n->cmp = ARITH_CMP_U64_S;
	}
}

bool dalic_arith_infer(arith_expr_t *e, const dalic_dtype_t *input_dtypes, int num_inputs,
                       char *err, size_t errlen)
{
	for (int j = 0; j < e->num_nodes; j++) {
		arith_node_t *n = &e->nodes[j];
		if (n->kind == ARITH_CONST)
			continue;
		if (n->kind == ARITH_INPUT) {
			if (n->index >= num_inputs) {
				snprintf(err, errlen,
				         "expression uses input &%d but the operator has "
				         "%d input%s",
				         n->index, num_inputs, num_inputs == 1 ? "" : "s");
				return false;
			}
			n->dtype = n->compute = input_dtypes[n->index];
			if (!dalic_dtype_is_numeric(n->dtype)) {
				snprintf(err, errlen, "input &%d has non-numeric type %s", n->index,
				         dalic_dtype_name(n->dtype));
				return false;
			}
			continue;
		}
		dalic_dtype_t t[ARITH_MAX_ARITY];
		bool all_bool = true, all_integral = true;
		for (int a = 0; a < n->num_args; a++) {
			t[a] = e->nodes[n->args[a]].dtype;
			all_bool = all_bool && t[a] == DALIC_BOOL;
			all_integral = all_integral && dalic_dtype_is_integral(t[a]);
		}
		unsigned f = ops[n->op].flags;
		if ((f & OPF_ARITHMETIC) && n->op != ARITH_MUL && all_bool)
			return arith_type_error(err, errlen, n, t);
		if ((f & OPF_BITWISE) && !all_integral)
			return arith_type_error(err, errlen, n, t);
		if (f & OPF_COMPARE) {
			arith_type_compare(n, t[0], t[1]);
			continue;
		}
		if ((f & OPF_TO_FLOAT) && all_integral) {
			n->dtype = DALIC_FLOAT;
		} else {
			n->dtype = t[0];
			for (int a = 1; a < n->num_args; a++)
				n->dtype = dalic_arith_promote(n->dtype, t[a]);
		}
		n->compute = n->dtype;
	}
	return true;
}
