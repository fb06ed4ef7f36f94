/* Unit tests: the Python core (frontend/script/py) on its own, with no DALI layer — it runs
 * scripts, imports nvidia.dali as an unknown (opaque) module, and takes a host's modules,
 * types, classes and hooks through its tables, as the DALI layer does. */
#include <criterion/criterion.h>

#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyexec.h"
#include "frontend/script/py/pymod.h"

#include <string.h>

TestSuite(script_core, .timeout = 20);

typedef struct core_run {
	pysrc_t src;
	pyinterp_t I;
} core_run_t;

static void core_open(core_run_t *r, const char *text)
{
	r->src = (pysrc_t){"core.py", text, strlen(text)};
	cr_assert_eq(dalic_pystate_open(&r->I, &r->src, stdout), DALIC_OK, "%s",
	             dalic_last_error());
}

static pyval_t *core_global(core_run_t *r, const char *name)
{
	pyval_t *v = dalic_pydict_get_str(r->I.globals->locals, name);
	cr_assert_not_null(v, "no global '%s'", name);
	return v;
}

Test(script_core, runs_python_without_any_host)
{
	core_run_t r;
	core_open(&r, "import nvidia.dali.fn as fn\n"
	              "import math\n"
	              "x = sum(i * i for i in range(5)) + int(math.sqrt(16))\n"
	              "y = fn.resize(1).anything\n"
	              "z = '%s-%d' % ('a', 3)\n");
	cr_assert_eq(dalic_pystate_run(&r.I), DALIC_OK, "%s", dalic_last_error());
	cr_expect_eq(core_global(&r, "x")->i, 34);
	/* nvidia.dali means nothing to the core: an opaque module like any unknown one */
	cr_expect_eq(core_global(&r, "y")->kind, PV_OPAQUE);
	cr_expect_str_eq(core_global(&r, "z")->str.s, "a-3");
	dalic_pystate_close(&r.I);
}

/* ---- a toy host: a Vec type with +, a module that makes them, a class, hooks ---------- */

typedef struct core_vec {
	int64_t n;
} core_vec_t;

static const pytype_t core_vec_type;

static pyval_t *core_vec_new(pyinterp_t *I, int64_t n)
{
	core_vec_t *v = dalic_pyarena_alloc(I->a, sizeof *v);
	if (!v)
		return NULL;
	v->n = n;
	return dalic_pyval_host(I->a, &core_vec_type, v);
}

static int core_vec_binop(pyinterp_t *I, const pynode_t *at, pyop_t op, pyval_t *l, pyval_t *r,
                          pyval_t **out)
{
	if (op != OP_PLUS || !dalic_pyval_is(l, &core_vec_type) ||
	    !dalic_pyval_is(r, &core_vec_type))
		return PY_NOT_HANDLED;
	PYEVAL_RET(
	    core_vec_new(I, ((core_vec_t *)l->host.data)->n + ((core_vec_t *)r->host.data)->n));
}

static int core_vec_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
                            pyval_t **out)
{
	*out = NULL;
	if (!strcmp(name, "n"))
		PYEVAL_RET(dalic_pyval_int(I->a, ((core_vec_t *)v->host.data)->n));
	return DALIC_OK;
}

static void core_vec_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	dalic_pybuf_printf(b, "Vec(%lld)", (long long)((core_vec_t *)v->host.data)->n);
}

static const pytype_t core_vec_type = {
    .name = "Vec",
    .format = core_vec_format,
    .getattr = core_vec_getattr,
    .binop = core_vec_binop,
};

static int core_make_vec(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                         pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "vec", args, 1, 1));
	PYEVAL_RET(core_vec_new(I, args->pos[0]->i));
}

static int core_open_toy(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	static const pyreg_t fns[] = {{"vec", core_make_vec}, {NULL, NULL}};
	pyval_t *m = dalic_pymod_new(I, name, false);
	if (!m || dalic_pybi_register(I, m->mod->attrs, fns, false))
		return dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}

static const pymodreg_t core_modules[] = {{"toy", core_open_toy}, {NULL, NULL}};

/* a host class: its __enter__ / __exit__ and a method are built-ins */
static int core_ctx_enter(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	(*(int *)I->host)++;
	PYEVAL_RET(dalic_pyval_int(I->a, 42));
}

static int core_ctx_exit(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                         pyval_t **out)
{
	(*(int *)I->host) += 10;
	PYEVAL_RET(dalic_pyval_none());
}

static int core_ctx_twice(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	cr_assert_eq(self->kind, PV_INSTANCE); /* bound to the instance it was read from */
	DALIC_TRY(dalic_pybi_nargs(I, at, "twice", args, 1, 1));
	PYEVAL_RET(dalic_pyval_int(I->a, 2 * args->pos[0]->i));
}

static void core_bind(pyinterp_t *I, pyframe_t *F, const char *name, pyval_t *v)
{
	if (!strcmp(name, "watched"))
		(*(int *)I->host) += 100;
}

static const pyhooks_t core_hooks = {.bind = core_bind};

Test(script_core, a_host_adds_types_modules_classes_and_hooks)
{
	core_run_t r;
	int counter = 0;
	core_open(&r, "import toy\n"
	              "v = toy.vec(2) + toy.vec(3)\n"
	              "n = v.n\n"
	              "s = str(v)\n"
	              "with Ctx() as c:\n"
	              "    inside = c\n"
	              "t = Ctx().twice(4)\n"
	              "watched = 1\n"
	              "try:\n"
	              "    v * 2\n"
	              "except TypeError as e:\n"
	              "    err = str(e)\n");
	r.I.host = &counter;
	r.I.hooks = &core_hooks;
	cr_assert_eq(dalic_pymod_preload(&r.I, core_modules), DALIC_OK);
	static const pyreg_t methods[] = {{"__enter__", core_ctx_enter},
	                                  {"__exit__", core_ctx_exit},
	                                  {"twice", core_ctx_twice},
	                                  {NULL, NULL}};
	pyclass_t *cls = dalic_pyexec_new_class(&r.I, "Ctx", "toy");
	cr_assert_not_null(cls);
	cr_assert_eq(dalic_pybi_register(&r.I, cls->attrs, methods, true), DALIC_OK);
	pyval_t *cv = dalic_pyval_new(r.I.a, PV_CLASS);
	cr_assert_not_null(cv);
	cv->cls = cls;
	cr_assert_eq(dalic_pydict_set_str(r.I.a, r.I.builtins, "Ctx", cv), DALIC_OK);

	cr_assert_eq(dalic_pystate_run(&r.I), DALIC_OK, "%s", dalic_last_error());
	cr_expect_eq(core_global(&r, "n")->i, 5);
	cr_expect_str_eq(core_global(&r, "s")->str.s, "Vec(5)");
	cr_expect_eq(core_global(&r, "inside")->i, 42); /* `as` binds __enter__'s result */
	cr_expect_eq(core_global(&r, "t")->i, 8);
	cr_expect_eq(counter, 111); /* enter, exit, one bind of `watched` */
	/* str(e) is the exception's message, as in Python */
	cr_expect_str_eq(core_global(&r, "err")->str.s,
	                 "unsupported operand type(s) for *: 'Vec' and 'int'");
	dalic_pystate_close(&r.I);
}

Test(script_core, the_with_statement_exits_on_errors_too)
{
	core_run_t r;
	core_open(&r, "log = []\n"
	              "class C:\n"
	              "    def __enter__(self):\n"
	              "        log.append('in')\n"
	              "        return self\n"
	              "    def __exit__(self, *exc):\n"
	              "        log.append('out')\n"
	              "try:\n"
	              "    with C():\n"
	              "        raise ValueError('boom')\n"
	              "except ValueError as e:\n"
	              "    msg = str(e)\n");
	cr_assert_eq(dalic_pystate_run(&r.I), DALIC_OK, "%s", dalic_last_error());
	pyval_t *log = core_global(&r, "log");
	cr_assert_eq(log->list->n, 2);
	cr_expect_str_eq(log->list->items[1]->str.s, "out");
	cr_expect_str_eq(core_global(&r, "msg")->str.s, "boom");
	dalic_pystate_close(&r.I);
}
