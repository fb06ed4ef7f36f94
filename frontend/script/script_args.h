/*
 * `--arg NAME=VALUE` values for pipelines a script defines (script_args.c).
 */
#ifndef DALIC_FRONTEND_SCRIPT_SCRIPT_ARGS_H
#define DALIC_FRONTEND_SCRIPT_SCRIPT_ARGS_H

#include "frontend/script/py/pyeval.h"

/* Splits "NAME=VALUE" and reads VALUE as a Python literal (or a bare word / path as a str)
 * in I's arena. Errors name the argument. */
int dalic_script_parse_arg(pyinterp_t *I, const char *text, const char **name, pyval_t **value);

#endif
