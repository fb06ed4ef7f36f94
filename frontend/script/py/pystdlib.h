/*
 * Standard-library modules that pipeline modules use for their helper classes and callables:
 * dataclasses (dataclass with __init__ / __repr__ / __eq__ / order / frozen, field, fields,
 * asdict, replace, is_dataclass), abc (ABC, ABCMeta, abstractmethod) and functools (partial,
 * wraps, lru_cache / cache, reduce) and multiprocessing.cpu_count. math and os are in
 * pylib.c.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYSTDLIB_H
#define DALIC_FRONTEND_SCRIPT_PY_PYSTDLIB_H

#include "frontend/script/py/pymod.h"

/* Opens the dataclasses module (pydataclass.c). */
/* argparse (pyargparse.c): parse_args() gives the defaults */
int dalic_pyargparse_module(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out);
int dalic_pydataclass_module(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out);
/* Registers the modules with the module machinery. */
int dalic_pystdlib_open(pyinterp_t *I);

#endif
