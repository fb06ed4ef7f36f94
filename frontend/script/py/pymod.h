/*
 * Modules and imports (Lua's package.preload): a module is built by the opener registered
 * for its dotted name, once, on first import; names nobody registered import as opaque
 * modules whose attributes are opaque values (matplotlib, numpy, torch...). The core
 * registers Python's own modules (pylib.c); a host registers its own tables the same way.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYMOD_H
#define DALIC_FRONTEND_SCRIPT_PY_PYMOD_H

#include "frontend/script/py/pyeval.h"

/* Builds module `name` in *out (a module or any value the import should bind). */
typedef int (*pymod_open_t)(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out);

/* One module of a table; tables end with {NULL, NULL}. */
struct pymodreg {
	const char *name;
	pymod_open_t open;
};

int dalic_pymod_open(pyinterp_t *I);
/* Adds a table of module openers (the table must outlive I). */
int dalic_pymod_preload(pyinterp_t *I, const pymodreg_t *table);
/* A new module value (opaque: unknown attributes become opaque values). */
pyval_t *dalic_pymod_new(pyinterp_t *I, const char *name, bool opaque);
/* mod.name = v; DALIC_ENOMEM when v is NULL or memory runs out. */
int dalic_pymod_set(pyinterp_t *I, pyval_t *mod, const char *name, pyval_t *v);
/* The module with this dotted name, built on first use. */
int dalic_pymod_get(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out);
/* `import a.b.c`: *top gets module a, *leaf module a.b.c. */
int dalic_pymod_import(pyinterp_t *I, const pynode_t *at, const char *dotted, pyval_t **top,
                       pyval_t **leaf);
/* Attribute of a module value (opaque modules make opaque values), *out NULL when absent. */
int dalic_pymod_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *mod, const char *name,
                        pyval_t **out);

#endif
