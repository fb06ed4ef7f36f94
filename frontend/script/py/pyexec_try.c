/*
 * The statements that handle errors and resources (see pyexec.h): with (context managers'
 * __enter__ / __exit__, which may suppress), try / except / else / finally (handlers by class or
 * tuple, the pending error kept through finally) and raise (from, bare re-raise).
 */
#include "frontend/script/py/pyexec.h"

#include "frontend/script/py/pycall.h"
#include "frontend/script/py/pyclass.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyexc.h"
#include "frontend/script/py/pyscope.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The context-manager method `name` of an instance whose class defines it, bound, or NULL
 * (other values are bound to the `as` target as they are). */
static int pyexec_ctx_method(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
                             pyval_t **out)
{
	*out = NULL;
	if (v->kind != PV_INSTANCE || !dalic_pyexec_class_lookup(v->inst->cls, name, NULL))
		return DALIC_OK;
	return dalic_pyeval_getattr(I, at, v, name, out);
}

/* __exit__(type, value, None) of a manager: a true result suppresses a Python exception
 * raised in the body; otherwise the body's error stays the error reported. */
static int pyexec_ctx_exit(pyinterp_t *I, const pynode_t *at, pyval_t *mgr, int rc)
{
	pyexc_saved_t saved;
	if (rc < 0)
		dalic_pyexc_save(I, &saved);
	pyval_t *exc = rc < 0 ? saved.exc : NULL, *exit, *r;
	pyval_t *a[3] = {dalic_pyval_none(), dalic_pyval_none(), dalic_pyval_none()};
	if (exc) {
		if (!(a[0] = dalic_pyval_new(I->a, PV_CLASS)))
			return dalic_pyeval_oom(I, at);
		a[0]->cls = exc->inst->cls;
		a[1] = exc;
	}
	pyargs_t args = {.pos = a, .npos = 3};
	int xrc = pyexec_ctx_method(I, at, mgr, "__exit__", &exit);
	if (!xrc && exit)
		xrc = dalic_pyeval_call(I, at, exit, &args, &r);
	if (xrc)
		return xrc;
	if (exc && exit && r->kind != PV_OPAQUE) {
		bool suppress;
		DALIC_TRY(dalic_pyeval_truth(I, at, r, &suppress));
		if (suppress) {
			dalic_pyexc_clear(I);
			return DALIC_OK;
		}
	}
	return rc < 0 ? dalic_pyexc_restore(I, &saved, rc) : rc;
}

int dalic_pyexec_with_stmt(pyinterp_t *I, pyframe_t *F, const pynode_t *s)
{
	int n = s->with.items.n, entered = 0, rc = DALIC_OK;
	pyval_t **mgrs = dalic_pyarena_alloc(I->a, sizeof *mgrs * (size_t)(n + 1));
	if (!mgrs)
		return dalic_pyeval_oom(I, s);
	for (int i = 0; !rc && i < n; i++) {
		const pynode_t *item = s->with.items.v[i];
		pyval_t *v, *enter, *r;
		rc = dalic_pyeval_expr(I, F, item, &v);
		if (!rc)
			rc = pyexec_ctx_method(I, item, v, "__enter__", &enter);
		if (!rc && enter) {
			pyargs_t none = {0};
			rc = dalic_pyeval_call(I, item, enter, &none, &r);
			if (rc)
				break;
			mgrs[entered++] = v;
			v = r;
		}
		if (!rc && s->with.vars.v[i])
			rc = dalic_pyeval_assign(I, F, s->with.vars.v[i], v);
	}
	if (!rc) {
		/* an error in the body goes to __exit__, it is not skipped */
		I->loops++;
		rc = dalic_pyexec_block(I, F, &s->with.body);
		I->loops--;
	}
	while (entered--)
		rc = pyexec_ctx_exit(I, s->with.items.v[entered], mgrs[entered], rc);
	return rc;
}

/* Runs a finally block; an error pending before it is reported again after it unless the
 * block ends with its own error or control flow (its inner try statements may have
 * caught and cleared other errors meanwhile). */
static int pyexec_finally(pyinterp_t *I, pyframe_t *F, const pynode_list_t *body, int rc)
{
	pyexc_saved_t saved;
	if (rc < 0)
		dalic_pyexc_save(I, &saved);
	int frc = dalic_pyexec_block(I, F, body);
	if (frc)
		return frc;
	return rc < 0 ? dalic_pyexc_restore(I, &saved, rc) : rc;
}

/* The handler of try statement s that takes exception exc (*out NULL when none does). */
static int pyexec_find_handler(pyinterp_t *I, pyframe_t *F, const pynode_t *s, pyval_t *exc,
                               const pyhandler_t **out)
{
	*out = NULL;
	pyexc_saved_t saved;
	dalic_pyexc_save(I, &saved);
	for (int i = 0; i < s->try_.nhandlers; i++) {
		const pyhandler_t *h = &s->try_.handlers[i];
		pyval_t *type = NULL;
		if (h->type)
			DALIC_TRY(dalic_pyeval_expr(I, F, h->type, &type));
		if (type && type->kind == PV_OPAQUE)
			continue; /* an exception class of a module dalic does not load */
		if (dalic_pyexc_matches(exc, type)) {
			*out = h;
			return DALIC_OK;
		}
	}
	/* no handler: the error goes on as it was */
	dalic_pyexc_restore(I, &saved, DALIC_EINVAL);
	return DALIC_OK;
}

int dalic_pyexec_try_stmt(pyinterp_t *I, pyframe_t *F, const pynode_t *s)
{
	/* an error in the body goes to the handlers, it is not skipped */
	I->loops++;
	int rc = dalic_pyexec_block(I, F, &s->try_.body);
	I->loops--;
	pyval_t *exc = rc < 0 ? dalic_pyexc_pending(I) : NULL;
	if (exc) {
		/* only Python exceptions reach handlers: what dalic cannot evaluate, interpreter
		 * limits and errors of pipeline definitions stop the load */
		const pyhandler_t *h;
		int hrc = pyexec_find_handler(I, F, s, exc, &h);
		if (hrc)
			return hrc;
		if (h) {
			dalic_pyexc_clear(I);
			rc = h->name ? dalic_pyeval_store(I, F, s, h->name, exc) : DALIC_OK;
			pyval_t *outer = I->handling;
			I->handling = exc;
			if (!rc)
				rc = dalic_pyexec_block(I, F, &h->body);
			I->handling = outer;
		}
	} else if (!rc) {
		rc = dalic_pyexec_block(I, F, &s->try_.orelse);
	}
	if (s->try_.finalbody.n)
		return pyexec_finally(I, F, &s->try_.finalbody, rc);
	return rc;
}

int dalic_pyexec_raise_stmt(pyinterp_t *I, pyframe_t *F, const pynode_t *s)
{
	if (!s->raise.exc)
		return dalic_pyexc_reraise(I, s);
	pyval_t *e, *cause = NULL;
	DALIC_TRY(dalic_pyeval_expr(I, F, s->raise.exc, &e));
	if (s->raise.cause)
		DALIC_TRY(dalic_pyeval_expr(I, F, s->raise.cause, &cause));
	return dalic_pyexc_raise(I, s, e, cause);
}
