/*
 * Opening, running and closing the Python core (see pystate.h). The host opens the core,
 * adds its modules, types and hooks, then runs the script; everything the run makes lives
 * in the arena freed by dalic_pystate_close.
 */
#include "frontend/script/py/pystate.h"

#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pycall.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyexec.h"
#include "frontend/script/py/pygen.h"
#include "frontend/script/py/pyinspect.h"
#include "frontend/script/py/pylib.h"
#include "frontend/script/py/pyparse.h"
#include "frontend/script/py/pystdlib.h"

#include <stdlib.h>
#include <string.h>

int dalic_pystate_open(pyinterp_t *I, const pysrc_t *src, FILE *out)
{
	memset(I, 0, sizeof *I);
	I->src = src;
	I->main_src = src;
	I->out = out;
	I->warn = stderr;
	I->a = dalic_pyarena_new(PY_ARENA_BUDGET);
	if (!I->a)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	DALIC_TRY(dalic_pyparse_module(I->a, src, &I->mod));
	if (dalic_pybi_open(I) || dalic_pymod_open(I) || dalic_pylib_open(I) ||
	    dalic_pystdlib_open(I) || dalic_pyinspect_open(I) ||
	    !(I->globals = dalic_pyexec_new_frame(I, FR_MODULE, NULL)))
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	pyval_t *name = dalic_pyval_cstr(I->a, "__main__"),
	        *file = dalic_pyval_cstr(I->a, src->path);
	if (!name || !file || dalic_pydict_set_str(I->a, I->globals->locals, "__name__", name) ||
	    dalic_pydict_set_str(I->a, I->globals->locals, "__file__", file))
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	return DALIC_OK;
}

int dalic_pystate_run(pyinterp_t *I)
{
	/* the stack budget counts from here: the evaluator never runs above this frame */
	I->stack_base = (uintptr_t)__builtin_frame_address(0);
	return dalic_pyexec_module(I);
}

void dalic_pystate_close(pyinterp_t *I)
{
	dalic_pygen_close_all(I);
	dalic_pycall_close(I);
	free(I->first_skipped);
	free(I->main_skipped);
	dalic_pyarena_free(I->a);
	memset(I, 0, sizeof *I);
}
