/*
 * `--arg NAME=VALUE` (see script.h): VALUE is read in Python literal syntax — numbers, strings,
 * True / False / None, and tuples, lists and dicts of those — by the script core's own lexer
 * and parser, so `--arg crop=224`, `--arg size="(224, 224)"` and `--arg name="'val'"` mean
 * what they mean in Python. A VALUE that is no literal but reads as a plain word or path
 * (`--arg data_dir=/data/imagenet`) is taken as that string, as a shell user means it;
 * anything else is an error naming the argument.
 */
#include "frontend/script/script_args.h"

#include "frontend/script/py/pyparse.h"

#include <ctype.h>
#include <string.h>

static bool script_args_literal(const pynode_t *e, int depth)
{
	if (depth > 32)
		return false;
	switch (e->kind) {
	case N_INT:
	case N_FLOAT:
	case N_STR:
	case N_BOOL:
	case N_NONE:
		return true;
	case N_UNARY:
		return (e->unary.op == U_NEG || e->unary.op == U_POS) &&
		       (e->unary.operand->kind == N_INT || e->unary.operand->kind == N_FLOAT);
	case N_TUPLE:
	case N_LIST:
		for (int i = 0; i < e->elts.n; i++)
			if (!script_args_literal(e->elts.v[i], depth + 1))
				return false;
		return true;
	case N_DICT:
		for (int i = 0; i < e->dict.keys.n; i++)
			if (!e->dict.keys.v[i] || !script_args_literal(e->dict.keys.v[i], depth + 1) ||
			    !script_args_literal(e->dict.values.v[i], depth + 1))
				return false;
		return true;
	default:
		return false;
	}
}

/* A bare word or path: what a shell user means as a string. */
static bool script_args_word(const char *v)
{
	if (!isalpha((unsigned char)*v) && !strchr("/~._", *v))
		return false;
	for (const char *p = v; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("/._-~:@%+,=", *p))
			return false;
	return true;
}

int dalic_script_parse_arg(pyinterp_t *I, const char *text, const char **name, pyval_t **value)
{
	const char *eq = strchr(text, '=');
	size_t n = eq ? (size_t)(eq - text) : 0;
	bool ident = n > 0 && (isalpha((unsigned char)text[0]) || text[0] == '_');
	for (size_t i = 0; ident && i < n; i++)
		ident = isalnum((unsigned char)text[i]) || text[i] == '_';
	if (!ident)
		return dalic_fail(DALIC_EINVAL, "--arg '%s': expected NAME=VALUE (VALUE in Python "
		                                "literal syntax)",
		                  text);
	*name = dalic_pyarena_strndup(I->a, text, n);
	const char *v = eq + 1;
	pysrc_t *src = dalic_pyarena_alloc(I->a, sizeof *src);
	if (!*name || !src)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	src->path = "--arg";
	src->text = v;
	src->len = strlen(v);
	pytoken_t *toks;
	int ntoks;
	pynode_t *e = NULL;
	bool parsed = !dalic_pylex_fragment(I->a, src, v, src->len, 1, 0, 1, &toks, &ntoks) &&
	              !dalic_pyparse_expression(I->a, src, toks, ntoks, &e) &&
	              script_args_literal(e, 0);
	if (!parsed) {
		if (script_args_word(v)) {
			*value = dalic_pyval_cstr(I->a, v);
			return *value ? DALIC_OK : dalic_fail(DALIC_ENOMEM, "out of memory");
		}
		return dalic_fail(DALIC_EINVAL,
		                  "--arg %s=%s: the value is not a Python literal (a number, a "
		                  "quoted string, True, False, None, or a tuple, list or dict of "
		                  "them)",
		                  *name, v);
	}
	int rc = dalic_pyeval_expr(I, I->globals, e, value);
	return rc ? dalic_fail(rc, "--arg %s=%s: %s", *name, v, dalic_last_error()) : DALIC_OK;
}
