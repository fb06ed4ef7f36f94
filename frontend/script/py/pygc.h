/*
 * Collections of the runtime heap (pyarena.h) for a script that keeps running after its load:
 * after each call into it (a debug print, an external source's batch), what the call made and
 * nothing still reaches is given back. Reached means: from the load's memory (permanent), the
 * interpreter, the roots the caller names (its own state outside the arena), and the stacks
 * of unfinished generators that are themselves reached — a generator's suspended body keeps
 * its locals and its place in loops on its coroutine's stack (pycoro.h). A generator nothing
 * reaches any more is dropped unfinished (its coroutine freed, its `finally` not run), as
 * Python's collector would close it.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYGC_H
#define DALIC_FRONTEND_SCRIPT_PY_PYGC_H

#include "frontend/script/py/pystate.h"

/* Runs one collection; out of memory for the collector's own tables skips it (nothing is
 * freed, nothing is lost). */
void dalic_pygc_collect(pyinterp_t *I, const pyarena_root_t *roots, int nroots);

#endif
