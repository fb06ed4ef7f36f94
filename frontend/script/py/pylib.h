/*
 * The parts of Python's standard library pipeline files use: math (functions and constants)
 * and os / os.path (join, dirname, basename, getenv, environ, sep) to build paths.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYLIB_H
#define DALIC_FRONTEND_SCRIPT_PY_PYLIB_H

#include "frontend/script/py/pymod.h"

/* Registers math, os and os.path with the module machinery. */
int dalic_pylib_open(pyinterp_t *I);

#endif
