/*
 * Sealed calls (see pycall.h). The runner is a coroutine that never ends: each resume runs
 * one call and yields. Around it the interpreter's per-run state is saved, set for a fresh
 * call and restored, and the arena is marked before and released after, generators the call
 * left unfinished included.
 */
#include "frontend/script/py/pycall.h"

#include "frontend/script/py/pycoro.h"
#include "frontend/script/py/pygen.h"

#include <stdlib.h>
#include <string.h>

typedef struct pycall {
	pyinterp_t *I;
	pycoro_t *co;
	/* the call in progress */
	pyval_t *fn;
	pycall_args_fn args;
	pycall_take_fn take;
	void *ctx;
	int rc;
} pycall_t;

static int pycall_once(pycall_t *c)
{
	pyinterp_t *I = c->I;
	pyargs_t args = {0};
	DALIC_TRY(c->args(I, c->ctx, &args));
	pyval_t *r;
	pynode_t at = {.line = c->fn->kind == PV_FUNC && c->fn->func->node
	                           ? c->fn->func->node->line
	                           : 1,
	               .col = c->fn->kind == PV_FUNC && c->fn->func->node ? c->fn->func->node->col
	                                                                  : 1};
	DALIC_TRY(dalic_pyeval_call(I, &at, c->fn, &args, &r));
	return c->take(I, c->ctx, r);
}

static void pycall_body(void *arg)
{
	pycall_t *c = arg;
	for (;;) {
		c->rc = pycall_once(c);
		dalic_pycoro_yield(c->co);
	}
}

int dalic_pycall_check_write(pyinterp_t *I, const pynode_t *at, const void *obj,
                             const char *what)
{
	if (!I->sealed || dalic_pyarena_is_new(I->a, &I->seal, obj))
		return DALIC_OK;
	return dalic_pyeval_error(I, at, DALIC_EUNSUPPORTED,
	                          "%s changes %s made outside the function: dalic runs it as a "
	                          "pure function (module state stays as the module left it)",
	                          I->sealed_what ? I->sealed_what : "the function", what);
}

int dalic_pycall_run(pyinterp_t *I, pyval_t *fn, const char *what, pycall_args_fn args,
                     pycall_take_fn take, void *ctx)
{
	if (I->sealed)
		return dalic_fail(DALIC_EINVAL, "%s: calls into a script do not nest", what);
	if (!I->call) {
		pycall_t *c = calloc(1, sizeof *c);
		if (!c || !(c->co = dalic_pycoro_new(pycall_body, c))) {
			free(c);
			return dalic_fail(DALIC_ENOMEM, "out of memory calling %s", what);
		}
		c->I = I;
		I->call = c;
	}
	pycall_t *c = I->call;
	c->fn = fn;
	c->args = args;
	c->take = take;
	c->ctx = ctx;
	/* the interpreter as the module run left it, put aside */
	pyinterp_t saved = *I;
	dalic_pyarena_mark(I->a, &I->seal);
	I->sealed = true;
	I->sealed_what = what;
	I->hooks = NULL;
	I->depth = 0;
	I->loops = 0;
	I->steps = 0;
	I->fatal = false;
	I->keep_error = false;
	I->exc = NULL;
	I->handling = NULL;
	I->gen = NULL;
	I->frame = I->globals;
	I->stack_base = dalic_pycoro_stack_top(c->co);
	dalic_pycoro_resume(c->co);
	int rc = c->rc;
	/* generators the call started and left unfinished: their stacks go now, their
	 * objects with the arena's release */
	dalic_pygen_close_new(I, &I->seal);
	dalic_pyarena_release(I->a, &I->seal);
	/* everything but the arena (whose release is the point) comes back */
	pyarena_t *a = I->a;
	char *skipped = I->first_skipped;
	*I = saved;
	I->a = a;
	if (skipped != saved.first_skipped)
		free(skipped); /* a call never skips statements, but keep the rule simple */
	return rc;
}

void dalic_pycall_close(pyinterp_t *I)
{
	pycall_t *c = I->call;
	if (!c)
		return;
	dalic_pycoro_free(c->co);
	free(c);
	I->call = NULL;
}
