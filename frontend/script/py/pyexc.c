/*
 * Python exceptions (see pyexc.h): the class tree, exception objects, and the pending
 * exception that ties a located error message to the object `except` clauses match.
 */
#include "frontend/script/py/pyexc.h"

#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyexec.h"

#include <string.h>

/* Python's built-in exceptions that pipeline modules raise or catch, parents first. */
static const struct {
	const char *name, *parent;
} pyexc_tree[] = {
    {"BaseException", NULL},
    {"Exception", "BaseException"},
    {"SystemExit", "BaseException"},
    {"KeyboardInterrupt", "BaseException"},
    {"GeneratorExit", "BaseException"},
    {"ArithmeticError", "Exception"},
    {"ZeroDivisionError", "ArithmeticError"},
    {"OverflowError", "ArithmeticError"},
    {"FloatingPointError", "ArithmeticError"},
    {"LookupError", "Exception"},
    {"KeyError", "LookupError"},
    {"IndexError", "LookupError"},
    {"ValueError", "Exception"},
    {"UnicodeError", "ValueError"},
    {"TypeError", "Exception"},
    {"AttributeError", "Exception"},
    {"FrozenInstanceError", "AttributeError"}, /* dataclasses' */
    {"NameError", "Exception"},
    {"UnboundLocalError", "NameError"},
    {"ImportError", "Exception"},
    {"ModuleNotFoundError", "ImportError"},
    {"OSError", "Exception"},
    {"FileNotFoundError", "OSError"},
    {"FileExistsError", "OSError"},
    {"PermissionError", "OSError"},
    {"IsADirectoryError", "OSError"},
    {"NotADirectoryError", "OSError"},
    {"EOFError", "Exception"},
    {"StopIteration", "Exception"},
    {"RuntimeError", "Exception"},
    {"NotImplementedError", "RuntimeError"},
    {"RecursionError", "RuntimeError"},
    {"AssertionError", "Exception"},
    {"MemoryError", "Exception"},
    {"Warning", "Exception"},
    {"UserWarning", "Warning"},
    {"DeprecationWarning", "Warning"},
    {"RuntimeWarning", "Warning"},
    {"FutureWarning", "Warning"},
};

/* Python's other names for OSError */
static const char *const pyexc_oserror_aliases[] = {"IOError", "EnvironmentError"};

pyclass_t *dalic_pyexc_class(pyinterp_t *I, const char *name)
{
	pyval_t *v = dalic_pydict_get_str(I->builtins, name);
	return v && v->kind == PV_CLASS && v->cls->exception ? v->cls : NULL;
}

static const char *pyexc_join_text(pyinterp_t *I, pyclass_t *cls, const pyargs_t *args)
{
	if (!args->npos)
		return "";
	pyval_t *s;
	pyclass_t *key = dalic_pyexc_class(I, "KeyError");
	bool repr = args->npos == 1 && key && dalic_pyexec_is_subclass(cls, key);
	if (args->npos == 1) {
		if (dalic_pyeval_str(I, NULL, args->pos[0], repr, &s))
			return NULL;
		return s->str.s;
	}
	pyval_t *t = dalic_pybi_tuple(I, args->pos, args->npos);
	if (!t || dalic_pyeval_str(I, NULL, t, true, &s))
		return NULL;
	return s->str.s;
}

/* BaseException.__init__(self, *args): args and the text str() shows. */
static int pyexc_init(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                      pyval_t **out)
{
	*out = dalic_pyval_none();
	if (!self || self->kind != PV_INSTANCE)
		return DALIC_OK;
	pyval_t *t = dalic_pybi_tuple(I, args->pos, args->npos);
	const char *text = pyexc_join_text(I, self->inst->cls, args);
	if (!t || !text || dalic_pydict_set_str(I->a, self->inst->attrs, "args", t))
		return dalic_pyeval_oom(I, at);
	self->inst->message = text;
	return DALIC_OK;
}

static int pyexc_with_traceback(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                const pyargs_t *args, pyval_t **out)
{
	*out = self;
	return DALIC_OK;
}

static pyclass_t *pyexc_make_class(pyinterp_t *I, const char *name, pyclass_t *parent)
{
	pyclass_t *c = dalic_pyexec_new_class(I, name, "builtins");
	pyval_t *cv = dalic_pyval_new(I->a, PV_CLASS);
	if (!c || !cv)
		return NULL;
	c->exception = true;
	if (parent) {
		if (!(c->bases = dalic_pyarena_alloc(I->a, sizeof *c->bases)))
			return NULL;
		c->bases[0] = parent;
		c->nbases = 1;
	}
	cv->cls = c;
	return dalic_pydict_set_str(I->a, I->builtins, name, cv) ? NULL : c;
}

int dalic_pyexc_open(pyinterp_t *I)
{
	for (size_t i = 0; i < sizeof pyexc_tree / sizeof *pyexc_tree; i++) {
		pyclass_t *parent = pyexc_tree[i].parent
		                        ? dalic_pyexc_class(I, pyexc_tree[i].parent)
		                        : NULL;
		pyclass_t *c = pyexc_make_class(I, pyexc_tree[i].name, parent);
		if (!c)
			return DALIC_ENOMEM;
		if (!parent) {
			static const pyreg_t methods[] = {{"__init__", pyexc_init},
			                                  {"with_traceback", pyexc_with_traceback},
			                                  {NULL, NULL}};
			DALIC_TRY(dalic_pybi_register(I, c->attrs, methods, true));
		}
	}
	pyval_t *os = dalic_pydict_get_str(I->builtins, "OSError");
	for (size_t i = 0; i < sizeof pyexc_oserror_aliases / sizeof *pyexc_oserror_aliases; i++)
		if (dalic_pydict_set_str(I->a, I->builtins, pyexc_oserror_aliases[i], os))
			return DALIC_ENOMEM;
	return DALIC_OK;
}

pyval_t *dalic_pyexc_new(pyinterp_t *I, pyclass_t *cls, const char *msg)
{
	pyval_t *e = dalic_pyexec_new_instance(I, cls);
	if (!e)
		return NULL;
	pyval_t *m = msg ? dalic_pyval_cstr(I->a, msg) : NULL;
	pyval_t *args = dalic_pybi_tuple(I, &m, m ? 1 : 0);
	if ((msg && !m) || !args || dalic_pydict_set_str(I->a, e->inst->attrs, "args", args))
		return NULL;
	e->inst->message = m ? m->str.s : "";
	return e;
}

static uint64_t pyexc_hash_last(void)
{
	const char *m = dalic_last_error();
	return dalic_pyval_hash_str(m, strlen(m));
}

void dalic_pyexc_note(pyinterp_t *I, const char *msg)
{
	I->exc = NULL;
	size_t n = 0;
	while ((msg[n] >= 'A' && msg[n] <= 'Z') || (msg[n] >= 'a' && msg[n] <= 'z') ||
	       (n && msg[n] >= '0' && msg[n] <= '9') || msg[n] == '_')
		n++;
	if (!n || n >= 48 || (msg[n] && strncmp(msg + n, ": ", 2)))
		return;
	char name[48];
	memcpy(name, msg, n);
	name[n] = 0;
	pyclass_t *cls = dalic_pyexc_class(I, name);
	if (!cls)
		return;
	/* the object is made with the error; out of memory leaves an error with no object */
	I->exc = dalic_pyexc_new(I, cls, msg[n] ? msg + n + 2 : NULL);
	if (I->exc) {
		I->exc->inst->located = dalic_pyarena_strdup(I->a, dalic_last_error());
		I->exc_hash = pyexc_hash_last();
	}
}

pyval_t *dalic_pyexc_pending(pyinterp_t *I)
{
	if (!I->exc || I->fatal || I->exc_hash != pyexc_hash_last())
		return NULL;
	return I->exc;
}

bool dalic_pyexc_pending_is(pyinterp_t *I, const char *name)
{
	pyval_t *e = dalic_pyexc_pending(I);
	pyclass_t *c = dalic_pyexc_class(I, name);
	return e && c && dalic_pyexec_is_subclass(e->inst->cls, c);
}

void dalic_pyexc_clear(pyinterp_t *I)
{
	I->exc = NULL;
	I->keep_error = false;
	dalic_error_clear();
}

bool dalic_pyexc_matches(const pyval_t *exc, const pyval_t *type)
{
	if (!type)
		return true; /* bare except */
	if (type->kind == PV_TUPLE) {
		for (int i = 0; i < type->tuple.n; i++)
			if (dalic_pyexc_matches(exc, type->tuple.items[i]))
				return true;
		return false;
	}
	return type->kind == PV_CLASS && dalic_pyexec_is_subclass(exc->inst->cls, type->cls);
}

void dalic_pyexc_save(pyinterp_t *I, pyexc_saved_t *s)
{
	s->exc = dalic_pyexc_pending(I);
	dalic_error_save(s->msg, sizeof s->msg);
}

int dalic_pyexc_restore(pyinterp_t *I, const pyexc_saved_t *s, int rc)
{
	dalic_fail(rc, "%s", s->msg);
	I->exc = s->exc;
	I->exc_hash = pyexc_hash_last();
	return rc;
}

const char *dalic_pyexc_text(const pyval_t *exc)
{
	return exc->inst->message ? exc->inst->message : "";
}

int dalic_pyexc_raise(pyinterp_t *I, const pynode_t *at, pyval_t *exc, pyval_t *cause)
{
	if (exc->kind == PV_CLASS && exc->cls->exception) {
		pyargs_t none = {0};
		DALIC_TRY(dalic_pyexec_instantiate(I, at, exc->cls, &none, &exc));
	}
	if (exc->kind == PV_OPAQUE)
		return dalic_pyeval_opaque_error(I, at, exc, "raise");
	if (exc->kind != PV_INSTANCE || !exc->inst->cls->exception)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: exceptions must derive from BaseException");
	if (I->sealed && !dalic_pyarena_is_new(I->a, &I->seal, exc->inst)) {
		/* raising a module-level exception object: a copy, the original stays as it is */
		if (!(exc = dalic_pyexc_new(I, exc->inst->cls, dalic_pyexc_text(exc))))
			return dalic_pyeval_oom(I, at);
	}
	if (cause) {
		if (cause->kind == PV_CLASS && cause->cls->exception) {
			pyargs_t none = {0};
			DALIC_TRY(dalic_pyexec_instantiate(I, at, cause->cls, &none, &cause));
		}
		if (cause->kind != PV_NONE && cause->kind != PV_OPAQUE &&
		    (cause->kind != PV_INSTANCE || !cause->inst->cls->exception))
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: exception causes must derive from BaseException");
		if (dalic_pydict_set_str(I->a, exc->inst->attrs, "__cause__", cause))
			return dalic_pyeval_oom(I, at);
	}
	const char *text = dalic_pyexc_text(exc);
	int rc = *text ? dalic_pyeval_error(I, at, DALIC_EINVAL, "%s: %s", exc->inst->cls->name,
	                                    text)
	               : dalic_pyeval_error(I, at, DALIC_EINVAL, "%s", exc->inst->cls->name);
	/* the object raised, not one rebuilt from its class name (user classes, subclasses) */
	I->exc = exc;
	exc->inst->located = dalic_pyarena_strdup(I->a, dalic_last_error());
	I->exc_hash = pyexc_hash_last();
	return rc;
}

int dalic_pyexc_reraise(pyinterp_t *I, const pynode_t *at)
{
	pyval_t *e = I->handling;
	if (!e)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "RuntimeError: No active exception to reraise");
	int rc = dalic_fail(DALIC_EINVAL, "%s",
	                    e->inst->located ? e->inst->located : dalic_pyexc_text(e));
	if (I->hooks && I->hooks->strict && I->hooks->strict(I))
		I->fatal = true;
	I->exc = e;
	I->exc_hash = pyexc_hash_last();
	return rc;
}

int dalic_pyexc_relocate(pyinterp_t *I, const pynode_t *at, int code)
{
	pyval_t *exc = dalic_pyexc_pending(I);
	int rc = dalic_pyeval_relocate(I, at, code);
	if (exc) {
		/* the same exception, now told at the caller: `except` still catches it */
		exc->inst->located = dalic_pyarena_strdup(I->a, dalic_last_error());
		I->exc = exc;
		I->exc_hash = pyexc_hash_last();
	}
	return rc;
}
