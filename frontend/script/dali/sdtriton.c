/*
 * nvidia.dali.plugin.triton: `@autoserialize` on a @pipeline_def, the model.dali pattern of
 * Triton's DALI backend. DALI's backend imports the module, finds the one function so marked
 * and writes `pipeline_fn().serialize()`; dalic does the same when the module creates no
 * pipeline itself, so `dalic serialize model.py -o model.dali` writes that file and every
 * other command opens such a module.
 */
#include "frontend/script/dali/sdpipe.h"

#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pymod.h"

static int sdtriton_autoserialize(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                  const pyargs_t *args, pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "autoserialize", args, 1, 1));
	sdpipedef_t *d = dalic_sdval_pipedef(args->pos[0]);
	if (!d) {
		int rc = dalic_pyeval_error(I, at, DALIC_EINVAL,
		                            "TypeError: Only `@pipeline_def` can be decorated with "
		                            "`@triton.autoserialize`.");
		I->keep_error = true; /* about the pipeline: never skipped as display code */
		return rc;
	}
	sdstate_t *S = dalic_sdali_state(I);
	if (!d->autoserialize) {
		d->autoserialize = true;
		if (!S->autoserialize)
			S->autoserialize = args->pos[0];
		S->nautoserialize++;
		S->autoserialize_line = at->line;
		S->autoserialize_col = at->col;
	}
	*out = args->pos[0];
	return DALIC_OK;
}

static int sdtriton_open(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	pyval_t *m = dalic_pymod_new(I, name, false);
	if (!m || dalic_pymod_set(I, m, "autoserialize",
	                          dalic_pybi_make(I, "autoserialize", sdtriton_autoserialize, NULL,
	                                          NULL)))
		return dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}

static const pymodreg_t sdtriton_modules[] = {
    {"nvidia.dali.plugin.triton", sdtriton_open},
    {NULL, NULL},
};

int dalic_sdtriton_open(pyinterp_t *I)
{
	return dalic_pymod_preload(I, sdtriton_modules);
}

int dalic_sdtriton_finish(pyinterp_t *I)
{
	sdstate_t *S = dalic_sdali_state(I);
	if (!S->autoserialize || S->npipes)
		return DALIC_OK;
	pynode_t at = {.line = S->autoserialize_line, .col = S->autoserialize_col};
	if (S->nautoserialize > 1)
		return dalic_pyeval_error(I, &at, DALIC_EINVAL,
		                          "RuntimeError: Precisely one autoserialize function must "
		                          "exist in the module. Found %d.",
		                          S->nautoserialize);
	/* DALI's invoke_autoserialize: dali_pipeline().serialize(filename=...) */
	pyval_t *pipe;
	pyargs_t none = {0};
	return dalic_pyeval_call(I, &at, S->autoserialize, &none, &pipe);
}
