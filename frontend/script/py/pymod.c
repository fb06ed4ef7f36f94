/*
 * Imports (see pymod.h): module values, the registered openers, and opaque modules for
 * every name nobody registered — matplotlib, numpy, torch, DALI plugins — whose attributes
 * are opaque values: harmless in display code, a located error where a value is needed.
 */
#include "frontend/script/py/pymod.h"

#include "frontend/script/py/pycall.h"
#include "frontend/script/py/pydict.h"

#include <string.h>

pyval_t *dalic_pymod_new(pyinterp_t *I, const char *name, bool opaque)
{
	pyval_t *v = dalic_pyval_new(I->a, PV_MODULE);
	if (!v || !(v->mod = dalic_pyarena_alloc(I->a, sizeof *v->mod)) ||
	    !(v->mod->attrs = dalic_pydict_new(I->a)))
		return NULL;
	v->mod->name = dalic_pyarena_strdup(I->a, name);
	v->mod->opaque = opaque;
	return v->mod->name ? v : NULL;
}

int dalic_pymod_set(pyinterp_t *I, pyval_t *mod, const char *name, pyval_t *v)
{
	if (!v)
		return DALIC_ENOMEM;
	return dalic_pydict_set_str(I->a, mod->mod->attrs, name, v);
}

int dalic_pymod_preload(pyinterp_t *I, const pymodreg_t *table)
{
	if (I->npreload == (int)(sizeof I->preload / sizeof *I->preload))
		return dalic_fail(DALIC_EINVAL, "too many module tables");
	I->preload[I->npreload++] = table;
	return DALIC_OK;
}

static pymod_open_t pymod_opener(pyinterp_t *I, const char *name)
{
	for (int t = 0; t < I->npreload; t++)
		for (const pymodreg_t *r = I->preload[t]; r->name; r++)
			if (!strcmp(r->name, name))
				return r->open;
	return NULL;
}

int dalic_pymod_get(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	pyval_t *m = dalic_pydict_get_str(I->modules, name);
	if (m) {
		*out = m;
		return DALIC_OK;
	}
	if (I->sealed) /* the module table outlives the call */
		DALIC_TRY(dalic_pycall_check_write(I, at, I->modules, "the imported modules"));
	pymod_open_t open = pymod_opener(I, name);
	if (open) {
		DALIC_TRY(open(I, at, name, &m));
	} else if (!(m = dalic_pymod_new(I, name, true))) {
		return dalic_pyeval_oom(I, at);
	}
	if (dalic_pydict_set_str(I->a, I->modules, name, m))
		return dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}

int dalic_pymod_import(pyinterp_t *I, const pynode_t *at, const char *dotted, pyval_t **top,
                       pyval_t **leaf)
{
	const char *dot = strchr(dotted, '.');
	char *first =
	    dalic_pyarena_strndup(I->a, dotted, dot ? (size_t)(dot - dotted) : strlen(dotted));
	if (!first)
		return dalic_pyeval_oom(I, at);
	DALIC_TRY(dalic_pymod_get(I, at, first, top));
	return dalic_pymod_get(I, at, dotted, leaf);
}

int dalic_pymod_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *mod, const char *name,
                        pyval_t **out)
{
	pyval_t *v = dalic_pydict_get_str(mod->mod->attrs, name);
	if (v || !mod->mod->opaque) {
		*out = v;
		return DALIC_OK;
	}
	/* a submodule of an opaque package, or an attribute dalic does not model */
	char *full = dalic_pyarena_printf(I->a, "%s.%s", mod->mod->name, name);
	if (!full || !(*out = dalic_pyval_opaque(I->a, full)))
		return dalic_pyeval_oom(I, at);
	return DALIC_OK;
}

int dalic_pymod_open(pyinterp_t *I)
{
	I->modules = dalic_pydict_new(I->a);
	return I->modules ? DALIC_OK : DALIC_ENOMEM;
}
