/*
 * The inspect (signature, Parameter) and warnings (warn) modules of the core.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYINSPECT_H
#define DALIC_FRONTEND_SCRIPT_PY_PYINSPECT_H

#include "frontend/script/py/pyeval.h"

/* Registers the modules' openers. */
int dalic_pyinspect_open(pyinterp_t *I);

#endif
