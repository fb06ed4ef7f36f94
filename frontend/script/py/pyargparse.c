/*
 * argparse, as a pipeline module's `if __name__ == "__main__":` block uses it: dalic gives
 * the script no command-line arguments, so parse_args() is what `python script.py` alone
 * gives — a Namespace of the defaults (`type` applied to string defaults, store_true
 * False...), or, when an argument is required, argparse's SystemExit naming them all. Groups
 * (add_argument_group, add_mutually_exclusive_group) add to the parser itself. Explicit
 * argument lists other than an empty one, and subcommands, are refused by name.
 */
#include "frontend/script/py/pystdlib.h"

#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pybuf.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyexec.h"
#include "frontend/script/py/pymod.h"

#include <string.h>

/* Instance attributes of a parser: its actions (a list of (dest, default, required) tuples)
 * and set_defaults values. */
#define PYARGPARSE_ACTIONS "_dalic_actions"
#define PYARGPARSE_DEFAULTS "_dalic_defaults"

/* The Namespace class, kept on the parser class. */
static pyclass_t *pyargparse_namespace_cls(const pyval_t *self)
{
	pyval_t *c = dalic_pyexec_class_lookup(self->inst->cls, "_dalic_namespace", NULL);
	return c && c->kind == PV_CLASS ? c->cls : NULL;
}

static int pyargparse_init(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	(void)args; /* prog, description, formatter_class...: help text only */
	pyval_t *acts = dalic_pyval_list(I->a, 4);
	pydict_t *defs = dalic_pydict_new(I->a);
	pyval_t *dv = defs ? dalic_pyval_new(I->a, PV_DICT) : NULL;
	if (!acts || !dv)
		return dalic_pyeval_oom(I, at);
	dv->dict = defs;
	if (dalic_pydict_set_str(I->a, self->inst->attrs, PYARGPARSE_ACTIONS, acts) ||
	    dalic_pydict_set_str(I->a, self->inst->attrs, PYARGPARSE_DEFAULTS, dv))
		return dalic_pyeval_oom(I, at);
	PYEVAL_RET(dalic_pyval_none());
}

/* The parser a method or a group works on (a group is the parser itself). */
static int pyargparse_attr(pyinterp_t *I, const pynode_t *at, pyval_t *self, const char *name,
                           pyval_t **out)
{
	*out = self->kind == PV_INSTANCE ? dalic_pydict_get_str(self->inst->attrs, name) : NULL;
	if (!*out)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: ArgumentParser.__init__() was not called");
	return DALIC_OK;
}

/* dest of `--learning-rate` / `-l` / `data`, as argparse derives it. */
static const char *pyargparse_dest(pyinterp_t *I, const pyargs_t *args, bool *optional)
{
	pyval_t *dest = dalic_pyeval_kwarg(args, "dest");
	const char *first = args->pos[0]->str.s, *lng = NULL;
	*optional = first[0] == '-';
	for (int i = 0; i < args->npos && *optional; i++)
		if (!strncmp(args->pos[i]->str.s, "--", 2) && !lng)
			lng = args->pos[i]->str.s + 2;
	if (dest && dest->kind == PV_STR)
		return dest->str.s;
	if (!*optional)
		return first;
	const char *s = lng ? lng : first + strspn(first, "-");
	char *d = dalic_pyarena_strdup(I->a, s);
	for (char *p = d; p && *p; p++)
		if (*p == '-')
			*p = '_';
	return d;
}

/* The default argparse gives an argument absent from the command line. */
static int pyargparse_default(pyinterp_t *I, const pynode_t *at, const pyargs_t *args,
                              pyval_t **out)
{
	pyval_t *def = dalic_pyeval_kwarg(args, "default");
	pyval_t *action = dalic_pyeval_kwarg(args, "action");
	const char *a = action && action->kind == PV_STR ? action->str.s : "store";
	if (!def && !strcmp(a, "store_true"))
		def = dalic_pyval_false();
	else if (!def && !strcmp(a, "store_false"))
		def = dalic_pyval_true();
	else if (!def && !strcmp(a, "store_const"))
		def = dalic_pyval_none();
	if (!def)
		def = dalic_pyval_none();
	pyval_t *type = dalic_pyeval_kwarg(args, "type");
	/* argparse converts a string default with `type` */
	if (def->kind == PV_STR && type && type->kind != PV_NONE)
		return dalic_pyeval_call1(I, at, type, def, out);
	*out = def;
	return DALIC_OK;
}

static bool pyargparse_required(const pyargs_t *args, bool optional)
{
	pyval_t *req = dalic_pyeval_kwarg(args, "required");
	if (optional)
		return req && req->kind == PV_BOOL && req->b;
	pyval_t *nargs = dalic_pyeval_kwarg(args, "nargs");
	return !(nargs && nargs->kind == PV_STR &&
	         (!strcmp(nargs->str.s, "?") || !strcmp(nargs->str.s, "*")));
}

static int pyargparse_add_argument(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                   const pyargs_t *args, pyval_t **out)
{
	if (args->npos < 1)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: add_argument() needs a name or flags");
	for (int i = 0; i < args->npos; i++)
		if (args->pos[i]->kind != PV_STR || !args->pos[i]->str.len)
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: add_argument() names must be non-empty "
			    "strings");
	pyval_t *acts, *def, *t = dalic_pyval_tuple(I->a, 3);
	bool optional;
	const char *dest = pyargparse_dest(I, args, &optional);
	DALIC_TRY(pyargparse_attr(I, at, self, PYARGPARSE_ACTIONS, &acts));
	DALIC_TRY(pyargparse_default(I, at, args, &def));
	if (!t || !dest || !(t->tuple.items[0] = dalic_pyval_cstr(I->a, dest)))
		return dalic_pyeval_oom(I, at);
	t->tuple.items[1] = def;
	t->tuple.items[2] = dalic_pyval_bool(pyargparse_required(args, optional));
	if (dalic_pyval_list_append(I->a, acts, t))
		return dalic_pyeval_oom(I, at);
	PYEVAL_RET(dalic_pyval_none());
}

static int pyargparse_self(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	(void)I;
	(void)at;
	(void)args;
	*out = self;
	return DALIC_OK;
}

static int pyargparse_set_defaults(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                   const pyargs_t *args, pyval_t **out)
{
	pyval_t *defs;
	DALIC_TRY(pyargparse_attr(I, at, self, PYARGPARSE_DEFAULTS, &defs));
	if (args->npos)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: set_defaults() takes keyword arguments only");
	for (int i = 0; i < args->nkw; i++)
		if (dalic_pydict_set_str(I->a, defs->dict, args->kwnames[i], args->kwvals[i]))
			return dalic_pyeval_oom(I, at);
	PYEVAL_RET(dalic_pyval_none());
}

static int pyargparse_namespace(pyinterp_t *I, const pynode_t *at, pyval_t *self, pyval_t **out)
{
	pyval_t *acts, *defs;
	DALIC_TRY(pyargparse_attr(I, at, self, PYARGPARSE_ACTIONS, &acts));
	DALIC_TRY(pyargparse_attr(I, at, self, PYARGPARSE_DEFAULTS, &defs));
	pyclass_t *cls = pyargparse_namespace_cls(self);
	pyval_t *ns = cls ? dalic_pyexec_new_instance(I, cls) : NULL;
	pybuf_t missing = {0};
	if (!ns)
		return dalic_pyeval_oom(I, at);
	for (int i = 0; i < acts->list->n; i++) {
		pyval_t **a = acts->list->items[i]->tuple.items;
		if (a[2]->b)
			dalic_pybuf_printf(&missing, "%s%s", missing.n ? ", " : "", a[0]->str.s);
		if (dalic_pydict_set(I->a, ns->inst->attrs, a[0], a[1]))
			return dalic_pyeval_oom(I, at);
	}
	pyval_t *k, *v;
	for (int it = 0; dalic_pydict_next(defs->dict, &it, &k, &v);)
		if (dalic_pydict_set(I->a, ns->inst->attrs, k, v))
			return dalic_pyeval_oom(I, at);
	if (missing.n) {
		int rc = dalic_pyeval_error(I, at, DALIC_EINVAL,
		                            "SystemExit: 2 (argparse: the following arguments are "
		                            "required: %s; dalic gives the script no command-line "
		                            "arguments)",
		                            missing.s);
		dalic_pybuf_free(&missing);
		return rc;
	}
	dalic_pybuf_free(&missing);
	*out = ns;
	return DALIC_OK;
}

static int pyargparse_parse_args(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                 const pyargs_t *args, pyval_t **out)
{
	static const char *const names[] = {"args", "namespace"};
	pyval_t *v[2];
	DALIC_TRY(dalic_pyeval_parse_args(I, at, "parse_args", args, names, 0, 2, v));
	bool empty = !v[0] || v[0]->kind == PV_NONE ||
	             (v[0]->kind == PV_LIST && v[0]->list->n == 0) ||
	             (v[0]->kind == PV_TUPLE && v[0]->tuple.n == 0);
	if (!empty || (v[1] && v[1]->kind != PV_NONE))
		return dalic_pyeval_error(
		    I, at, DALIC_EUNSUPPORTED,
		    "parse_args() with an argument list or a namespace is not "
		    "supported: dalic gives a script's argparse only its "
		    "defaults");
	return pyargparse_namespace(I, at, self, out);
}

/* parse_known_args(): (namespace, []) */
static int pyargparse_parse_known(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                  const pyargs_t *args, pyval_t **out)
{
	pyval_t *ns, *t = dalic_pyval_tuple(I->a, 2);
	DALIC_TRY(pyargparse_parse_args(I, at, self, args, &ns));
	if (!t || !(t->tuple.items[1] = dalic_pyval_list(I->a, 0)))
		return dalic_pyeval_oom(I, at);
	t->tuple.items[0] = ns;
	*out = t;
	return DALIC_OK;
}

static int pyargparse_subparsers(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                 const pyargs_t *args, pyval_t **out)
{
	(void)self;
	(void)args;
	(void)out;
	return dalic_pyeval_error(I, at, DALIC_EUNSUPPORTED,
	                          "argparse subcommands (add_subparsers) are not supported");
}

static int pyargparse_help(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	(void)self;
	(void)args;
	PYEVAL_RET(dalic_pyval_none()); /* printing usage is display only */
}

static int pyargparse_error(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	(void)self;
	(void)out;
	pyval_t *msg = args->npos ? args->pos[0] : NULL;
	return dalic_pyeval_error(I, at, DALIC_EINVAL, "SystemExit: 2 (argparse: %s)",
	                          msg && msg->kind == PV_STR ? msg->str.s : "error");
}

int dalic_pyargparse_module(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	static const pyreg_t methods[] = {
	    {"__init__", pyargparse_init},
	    {"add_argument", pyargparse_add_argument},
	    {"add_argument_group", pyargparse_self},
	    {"add_mutually_exclusive_group", pyargparse_self},
	    {"set_defaults", pyargparse_set_defaults},
	    {"parse_args", pyargparse_parse_args},
	    {"parse_known_args", pyargparse_parse_known},
	    {"add_subparsers", pyargparse_subparsers},
	    {"print_help", pyargparse_help},
	    {"print_usage", pyargparse_help},
	    {"error", pyargparse_error},
	    {NULL, NULL},
	};
	pyval_t *m = dalic_pymod_new(I, name, false);
	pyclass_t *parser = dalic_pyexec_new_class(I, "ArgumentParser", "argparse");
	pyclass_t *ns = dalic_pyexec_new_class(I, "Namespace", "argparse");
	pyval_t *pc = dalic_pyval_new(I->a, PV_CLASS), *nc = dalic_pyval_new(I->a, PV_CLASS);
	if (!m || !parser || !ns || !pc || !nc ||
	    dalic_pybi_register(I, parser->attrs, methods, true))
		return dalic_pyeval_oom(I, at);
	pc->cls = parser;
	nc->cls = ns;
	/* formatter classes and constants: help text only */
	static const char *const texts[] = {"ArgumentDefaultsHelpFormatter", "RawTextHelpFormatter",
	                                    "RawDescriptionHelpFormatter", "HelpFormatter",
	                                    "SUPPRESS"};
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
		if (dalic_pymod_set(I, m, texts[i], dalic_pyval_cstr(I->a, texts[i])))
			return dalic_pyeval_oom(I, at);
	if (dalic_pymod_set(I, m, "ArgumentParser", pc) || dalic_pymod_set(I, m, "Namespace", nc) ||
	    dalic_pydict_set_str(I->a, parser->attrs, "_dalic_namespace", nc))
		return dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}
