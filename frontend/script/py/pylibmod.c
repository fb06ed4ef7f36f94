/*
 * Embedded Python modules (see pylibmod.h): running one, and switching globals and source
 * around calls of their functions.
 */
#include "frontend/script/py/pylibmod.h"

#include "frontend/script/py/pyast.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyexc.h"
#include "frontend/script/py/pyexec.h"
#include "frontend/script/py/pymod.h"

#include <string.h>

/* Python binds an imported submodule in its parent package: a.b.c becomes a.b's `c`. */
static int pylibmod_bind_in_parent(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t *m)
{
	const char *dot = strrchr(name, '.');
	if (!dot)
		return DALIC_OK;
	char *parent = dalic_pyarena_strndup(I->a, name, (size_t)(dot - name));
	if (!parent)
		return dalic_pyeval_oom(I, at);
	pyval_t *p;
	DALIC_TRY(dalic_pymod_get(I, at, parent, &p));
	if (p->kind == PV_MODULE && dalic_pymod_set(I, p, dot + 1, m))
		return dalic_pyeval_oom(I, at);
	return DALIC_OK;
}

int dalic_pylibmod_run(pyinterp_t *I, const pynode_t *at, const char *name, const pysrc_t *src,
                       pyval_t **out)
{
	pyast_t *ast;
	int rc = dalic_pyparse_module(I->a, src, &ast);
	if (rc)
		return dalic_pyeval_relocate(I, at, rc);
	pyframe_t *fr = dalic_pyexec_new_frame(I, FR_MODULE, NULL);
	pyval_t *m = dalic_pymod_new(I, name, false);
	pyval_t *nm = dalic_pyval_cstr(I->a, name), *file = dalic_pyval_cstr(I->a, src->path);
	if (!fr || !m || !nm || !file || dalic_pydict_set_str(I->a, fr->locals, "__name__", nm) ||
	    dalic_pydict_set_str(I->a, fr->locals, "__file__", file))
		return dalic_pyeval_oom(I, at);
	/* the module's attributes are its globals, registered before its body runs: a module
	 * its body imports may import it back and see what is defined so far, as in Python */
	m->mod->attrs = fr->locals;
	if (dalic_pydict_set_str(I->a, I->modules, name, m))
		return dalic_pyeval_oom(I, at);
	DALIC_TRY(pylibmod_bind_in_parent(I, at, name, m));
	pylibmod_saved_t s = {
	    .globals = I->globals, .src = I->src, .site = I->lib_site, .entered = true};
	if (I->src == I->main_src)
		I->lib_site = at;
	pyframe_t *frame = I->frame;
	I->globals = I->frame = fr;
	I->src = src;
	rc = dalic_pyexec_block(I, fr, &ast->body);
	I->frame = frame;
	rc = dalic_pylibmod_leave(I, at, &s, rc);
	*out = m;
	return rc;
}

void dalic_pylibmod_enter(pyinterp_t *I, const pynode_t *at, const pyfunc_t *f, pylibmod_saved_t *s)
{
	s->entered = f->globals && f->globals != I->globals;
	if (!s->entered)
		return;
	s->globals = I->globals;
	s->src = I->src;
	s->site = I->lib_site;
	if (I->src == I->main_src && f->src != I->main_src)
		I->lib_site = at;
	I->globals = f->globals;
	I->src = f->src;
}

int dalic_pylibmod_leave(pyinterp_t *I, const pynode_t *at, const pylibmod_saved_t *s, int rc)
{
	if (!s->entered)
		return rc;
	const pysrc_t *inner = I->src;
	I->globals = s->globals;
	I->src = s->src;
	I->lib_site = s->site;
	if (rc >= 0 || inner == I->main_src || s->src != I->main_src ||
	    strncmp(dalic_last_error(), PYLIBMOD_PREFIX, strlen(PYLIBMOD_PREFIX)))
		return rc;
	/* back in the script with an error located in embedded code: told at the call */
	rc = dalic_pyexc_relocate(I, at, rc);
	I->keep_error = true;
	return rc;
}

const pynode_t *dalic_pylibmod_site(const pyinterp_t *I, const pynode_t *at, const char **path)
{
	*path = I->main_src->path;
	return I->src == I->main_src || !I->lib_site ? at : I->lib_site;
}
