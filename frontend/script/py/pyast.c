/* Names of syntax-tree node kinds, for messages ("cannot assign to function call"). */
#include "frontend/script/py/pyast.h"

const char *dalic_pyast_kind_name(pynode_kind_t k)
{
	switch (k) {
	case N_NAME:
		return "name";
	case N_NONE:
		return "None";
	case N_BOOL:
		return "True/False";
	case N_INT:
	case N_FLOAT:
		return "literal";
	case N_STR:
	case N_FSTRING:
		return "literal";
	case N_ELLIPSIS:
		return "ellipsis";
	case N_TUPLE:
		return "tuple";
	case N_LIST:
		return "list";
	case N_SET:
		return "set display";
	case N_DICT:
		return "dict literal";
	case N_BINOP:
		return "expression";
	case N_UNARY:
		return "expression";
	case N_BOOLOP:
		return "expression";
	case N_COMPARE:
		return "comparison";
	case N_CALL:
		return "function call";
	case N_ATTR:
		return "attribute";
	case N_SUBSCRIPT:
		return "subscript";
	case N_STARRED:
		return "starred";
	case N_LAMBDA:
		return "lambda";
	case N_IFEXP:
		return "conditional expression";
	case N_LISTCOMP:
		return "list comprehension";
	case N_SETCOMP:
		return "set comprehension";
	case N_DICTCOMP:
		return "dict comprehension";
	case N_GENEXP:
		return "generator expression";
	case N_NAMEDEXPR:
		return "named expression";
	case N_YIELD:
	case N_YIELDFROM:
		return "yield expression";
	default:
		return "statement";
	}
}
