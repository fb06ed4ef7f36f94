/*
 * inspect.signature and warnings.warn, for code that reads its callbacks' parameters and
 * warns the way library code does (DALI's auto_aug: which keyword arguments an
 * augmentation accepts). A Signature's `parameters` maps names to Parameter objects with
 * `name`, `kind` (Parameter.POSITIONAL_ONLY ... VAR_KEYWORD, as ints) and `default`
 * (Parameter.empty when none). warnings.warn writes one line, located at the script's line
 * (inside embedded modules: the script's call), to I->warn.
 */
#include "frontend/script/py/pyinspect.h"

#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pyclass.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyexec.h"
#include "frontend/script/py/pylibmod.h"
#include "frontend/script/py/pymod.h"

#include <string.h>

/* Parameter kinds, as Python's inspect numbers them. */
enum {
	PYINSPECT_POS_ONLY,
	PYINSPECT_POS_OR_KW,
	PYINSPECT_VAR_POS,
	PYINSPECT_KW_ONLY,
	PYINSPECT_VAR_KW
};

static pyval_t *pyinspect_class(pyinterp_t *I, const char *name)
{
	pyclass_t *c = dalic_pyexec_new_class(I, name, "inspect");
	pyval_t *v = dalic_pyval_new(I->a, PV_CLASS);
	if (!c || !v)
		return NULL;
	v->cls = c;
	return v;
}

static int pyinspect_kind(int p_kind)
{
	switch (p_kind) {
	case P_VARARGS:
		return PYINSPECT_VAR_POS;
	case P_KWONLY:
		return PYINSPECT_KW_ONLY;
	case P_VARKW:
		return PYINSPECT_VAR_KW;
	default:
		return PYINSPECT_POS_OR_KW;
	}
}

static int pyinspect_signature(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                               const pyargs_t *args, pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "signature", args, 1, 1));
	pyval_t *fn = args->pos[0];
	int skip = 0;
	if (fn->kind == PV_BOUND) {
		fn = fn->bound.func;
		skip = 1; /* the bound instance */
	}
	if (fn->kind != PV_FUNC)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "ValueError: no signature found for %s",
		                          dalic_pyval_type_name(fn));
	pyval_t *mod = dalic_pydict_get_str(I->modules, "inspect");
	pyval_t *pcls = mod ? dalic_pydict_get_str(mod->mod->attrs, "Parameter") : NULL;
	pyval_t *scls = mod ? dalic_pydict_get_str(mod->mod->attrs, "Signature") : NULL;
	pyval_t *empty = pcls ? dalic_pydict_get_str(pcls->cls->attrs, "empty") : NULL;
	pyval_t *params = dalic_pyval_dict(I->a);
	pyval_t *sig = scls ? dalic_pyexec_new_instance(I, scls->cls) : NULL;
	if (!empty || !params || !sig)
		return dalic_pyeval_oom(I, at);
	const pyfunc_t *f = fn->func;
	for (int i = skip; i < f->params->n; i++) {
		const pyparam_t *p = &f->params->v[i];
		pyval_t *par = dalic_pyexec_new_instance(I, pcls->cls);
		pyval_t *def = f->defaults[i] ? f->defaults[i] : empty;
		if (!par ||
		    dalic_pydict_set_str(I->a, par->inst->attrs, "name",
		                         dalic_pyval_cstr(I->a, p->name)) ||
		    dalic_pydict_set_str(I->a, par->inst->attrs, "kind",
		                         dalic_pyval_int(I->a, pyinspect_kind(p->kind))) ||
		    dalic_pydict_set_str(I->a, par->inst->attrs, "default", def) ||
		    dalic_pydict_set_str(I->a, params->dict, p->name, par))
			return dalic_pyeval_oom(I, at);
	}
	if (dalic_pydict_set_str(I->a, sig->inst->attrs, "parameters", params))
		return dalic_pyeval_oom(I, at);
	*out = sig;
	return DALIC_OK;
}

static int pyinspect_open(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	static const char *const kinds[] = {"POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD",
	                                    "VAR_POSITIONAL", "KEYWORD_ONLY", "VAR_KEYWORD"};
	pyval_t *m = dalic_pymod_new(I, name, true);
	pyval_t *param = pyinspect_class(I, "Parameter"), *sig = pyinspect_class(I, "Signature"),
	        *empty = pyinspect_class(I, "_empty");
	if (!m || !param || !sig || !empty ||
	    dalic_pydict_set_str(I->a, param->cls->attrs, "empty", empty) ||
	    dalic_pymod_set(I, m, "Parameter", param) || dalic_pymod_set(I, m, "Signature", sig) ||
	    dalic_pymod_set(I, m, "signature",
	                    dalic_pybi_make(I, "signature", pyinspect_signature, NULL, NULL)))
		return dalic_pyeval_oom(I, at);
	for (int k = 0; k < 5; k++)
		if (dalic_pydict_set_str(I->a, param->cls->attrs, kinds[k],
		                         dalic_pyval_int(I->a, k)))
			return dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}

/* ---- warnings ----------------------------------------------------------------------------- */

static int pyinspect_warn(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "warn", args, 1, 3));
	pyval_t *cat = args->npos > 1 ? args->pos[1] : dalic_pyeval_kwarg(args, "category");
	const char *cname = cat && cat->kind == PV_CLASS ? cat->cls->name : "UserWarning";
	pybuf_t b = {0};
	dalic_pyval_format(&b, args->pos[0], false);
	dalic_pybuf_put(&b, "", 1);
	const char *path;
	const pynode_t *site = dalic_pylibmod_site(I, at, &path);
	if (I->warn && !b.oom) {
		fprintf(I->warn, "dalic: warning: %s:%d:%d: %s: %s\n", path, site->line, site->col,
		        cname, b.s);
		fflush(I->warn);
	}
	bool oom = b.oom;
	dalic_pybuf_free(&b);
	if (oom)
		return dalic_pyeval_oom(I, at);
	*out = dalic_pyval_none();
	return DALIC_OK;
}

static int pyinspect_ignore(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	*out = dalic_pyval_none(); /* filters: every warning is shown once per call anyway */
	return DALIC_OK;
}

static int pyinspect_open_warnings(pyinterp_t *I, const pynode_t *at, const char *name,
                                   pyval_t **out)
{
	static const pyreg_t fns[] = {{"warn", pyinspect_warn},
	                              {"filterwarnings", pyinspect_ignore},
	                              {"simplefilter", pyinspect_ignore},
	                              {NULL, NULL}};
	pyval_t *m = dalic_pymod_new(I, name, true);
	if (!m || dalic_pybi_register(I, m->mod->attrs, fns, false))
		return dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}

static const pymodreg_t pyinspect_modules[] = {
    {"inspect", pyinspect_open},
    {"warnings", pyinspect_open_warnings},
    {NULL, NULL},
};

int dalic_pyinspect_open(pyinterp_t *I)
{
	return dalic_pymod_preload(I, pyinspect_modules);
}
