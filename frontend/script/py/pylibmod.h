/*
 * Modules written in Python that the host embeds (DALI's nvidia.dali.auto_aug is one): each
 * runs once, on first import, in a module frame of its own. Its functions remember that
 * frame and their source, so a call runs with the module's globals and locates its errors
 * in the module's text; when such an error comes back to the script, it is told again at
 * the script's call (file:line:col of the call, then the module's location), keeping its
 * exception for `except`. Operators that embedded code creates are placed at that call too
 * (dalic_pylibmod_site).
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYLIBMOD_H
#define DALIC_FRONTEND_SCRIPT_PY_PYLIBMOD_H

#include "frontend/script/py/pyeval.h"
#include "frontend/script/py/pysrc.h"

/* Embedded module sources' paths start with this (how their errors are recognised). */
#define PYLIBMOD_PREFIX "nvidia/dali/"

/* What a call into a module's function changed, put back by dalic_pylibmod_leave. */
typedef struct pylibmod_saved {
	pyframe_t *globals;
	const pysrc_t *src;
	const pynode_t *site;
	bool entered;
} pylibmod_saved_t;

/* Runs module `name` from src (which must outlive I) and makes it *out; `at` is the import. */
int dalic_pylibmod_run(pyinterp_t *I, const pynode_t *at, const char *name, const pysrc_t *src,
                       pyval_t **out);
/* Before running function f called at `at`: its module's globals and source. */
void dalic_pylibmod_enter(pyinterp_t *I, const pynode_t *at, const pyfunc_t *f,
                          pylibmod_saved_t *s);
/* After it: restores, and re-reports an embedded module's error at the script's call. */
int dalic_pylibmod_leave(pyinterp_t *I, const pynode_t *at, const pylibmod_saved_t *s, int rc);
/* Where code running at `at` stands in the script: `at` itself, or inside embedded code the
 * script's call that entered it. *path gets the script's path. */
const pynode_t *dalic_pylibmod_site(const pyinterp_t *I, const pynode_t *at, const char **path);

#endif
