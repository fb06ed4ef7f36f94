/*
 * Opening the embedded Python modules (see sdembed.h).
 */
#include "frontend/script/dali/sdembed.h"

#include "frontend/script/py/pylibmod.h"

#include <string.h>

int dalic_sdembed_open(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	for (const sdembed_t *e = dalic_sdembed_sources; e->module; e++) {
		if (strcmp(e->module, name))
			continue;
		pysrc_t *src = dalic_pyarena_alloc(I->a, sizeof *src);
		if (!src)
			return dalic_pyeval_oom(I, at);
		*src = (pysrc_t){.path = e->path, .text = e->text, .len = strlen(e->text)};
		return dalic_pylibmod_run(I, at, name, src, out);
	}
	return dalic_pyeval_error(I, at, DALIC_EINVAL, "ModuleNotFoundError: No module named '%s'",
	                          name);
}

int dalic_sdembed_register(pyinterp_t *I)
{
	return dalic_pymod_preload(I, dalic_sdembed_modules);
}
