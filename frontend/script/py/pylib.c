/*
 * The standard-library modules pipeline files use (see pylib.h): math's functions and
 * constants, and os / os.path for building paths (the file-system functions are pyio_os.c's);
 * both are opaque beyond that.
 */
#include "frontend/script/py/pylib.h"

#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyio.h"
#include "frontend/script/py/pynp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

static int pylib_set_builtin(pyinterp_t *I, pyval_t *mod, const char *name, pycfn_t fn)
{
	return dalic_pymod_set(I, mod, name, dalic_pybi_make(I, name, fn, NULL, NULL));
}

/* ---- Python's math -------------------------------------------------------------------- */

typedef struct unary_math {
	const char *name;
	double (*fn)(double);
	bool to_int;
} unary_math_t;

static const unary_math_t unary_math[] = {
    {"sqrt", sqrt, false}, {"exp", exp, false},    {"log2", log2, false}, {"log10", log10, false},
    {"sin", sin, false},   {"cos", cos, false},    {"tan", tan, false},   {"atan", atan, false},
    {"fabs", fabs, false}, {"floor", floor, true}, {"ceil", ceil, true},  {"trunc", trunc, true},
};

static int pylib_math_call(pyinterp_t *I, const pynode_t *at, const unary_math_t *m,
                           const pyargs_t *args, pyval_t **out)
{
	if (args->npos < 1 || args->npos > 2 || args->nkw)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: math.%s() takes one argument", m->name);
	pyval_t *v = args->pos[0];
	if (v->kind == PV_OPAQUE)
		PYEVAL_RET(v);
	if (!dalic_pyval_is_number(v))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: must be real number, not %s",
		                          dalic_pyval_type_name(v));
	double r = m->fn(dalic_pyval_as_double(v));
	if (m->to_int) {
		if (!(fabs(r) < 9.2e18))
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "OverflowError: cannot convert to integer");
		PYEVAL_RET(dalic_pyval_int(I->a, (int64_t)r));
	}
	PYEVAL_RET(dalic_pyval_float(I->a, r));
}

/* a math built-in is its own receiver: its table entry is in self->builtin.data */
static int pylib_math_unary(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	return pylib_math_call(I, at, self->builtin.data, args, out);
}

static int pylib_math_log(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	if (args->npos < 1 || args->npos > 2 || !dalic_pyval_is_number(args->pos[0]) ||
	    (args->npos == 2 && !dalic_pyval_is_number(args->pos[1])))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: math.log() takes one or two numbers");
	double r = log(dalic_pyval_as_double(args->pos[0]));
	if (args->npos == 2)
		r /= log(dalic_pyval_as_double(args->pos[1]));
	PYEVAL_RET(dalic_pyval_float(I->a, r));
}

static int pylib_math_pow(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	if (args->npos != 2 || !dalic_pyval_is_number(args->pos[0]) ||
	    !dalic_pyval_is_number(args->pos[1]))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: math.pow() takes two numbers");
	PYEVAL_RET(dalic_pyval_float(
	    I->a, pow(dalic_pyval_as_double(args->pos[0]), dalic_pyval_as_double(args->pos[1]))));
}

static int pylib_make_math(pyinterp_t *I, pyval_t *m)
{
	for (size_t i = 0; i < sizeof unary_math / sizeof *unary_math; i++) {
		pyval_t *f = dalic_pybi_make_self(I, unary_math[i].name, pylib_math_unary,
		                                  (void *)&unary_math[i]);
		DALIC_TRY(dalic_pymod_set(I, m, unary_math[i].name, f));
	}
	DALIC_TRY(pylib_set_builtin(I, m, "log", pylib_math_log));
	DALIC_TRY(pylib_set_builtin(I, m, "pow", pylib_math_pow));
	DALIC_TRY(dalic_pymod_set(I, m, "pi", dalic_pyval_float(I->a, M_PI)));
	DALIC_TRY(dalic_pymod_set(I, m, "e", dalic_pyval_float(I->a, M_E)));
	DALIC_TRY(dalic_pymod_set(I, m, "tau", dalic_pyval_float(I->a, 2 * M_PI)));
	DALIC_TRY(dalic_pymod_set(I, m, "inf", dalic_pyval_float(I->a, INFINITY)));
	return dalic_pymod_set(I, m, "nan", dalic_pyval_float(I->a, NAN));
}

/* ---- os ------------------------------------------------------------------------------- */

static int pylib_os_join(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                         pyval_t **out)
{
	pybuf_t b = {0};
	for (int i = 0; i < args->npos; i++) {
		pyval_t *p = args->pos[i];
		if (p->kind == PV_OPAQUE) {
			dalic_pybuf_free(&b);
			PYEVAL_RET(p);
		}
		if (p->kind != PV_STR) {
			dalic_pybuf_free(&b);
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL, "TypeError: join() argument must be str, not '%s'",
			    dalic_pyval_type_name(p));
		}
		if (p->str.len && p->str.s[0] == '/')
			b.n = 0; /* an absolute component restarts the path */
		else if (b.n && b.s[b.n - 1] != '/')
			dalic_pybuf_put(&b, "/", 1);
		dalic_pybuf_put(&b, p->str.s, p->str.len);
	}
	*out = b.oom ? NULL : dalic_pyval_str(I->a, b.s ? b.s : "", b.n);
	dalic_pybuf_free(&b);
	return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
}

static int pylib_path_part(pyinterp_t *I, const pynode_t *at, const pyargs_t *args, bool dir,
                           pyval_t **out)
{
	if (args->npos != 1)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "TypeError: expected one path");
	pyval_t *p = args->pos[0];
	if (p->kind != PV_STR)
		PYEVAL_RET(p->kind == PV_OPAQUE ? p : NULL);
	const char *slash = memrchr(p->str.s, '/', p->str.len);
	if (dir)
		PYEVAL_RET(dalic_pyval_str(I->a, p->str.s, slash ? (size_t)(slash - p->str.s) : 0));
	PYEVAL_RET(
	    slash ? dalic_pyval_str(I->a, slash + 1, p->str.len - (size_t)(slash + 1 - p->str.s))
	          : p);
}

static int pylib_os_dirname(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	return pylib_path_part(I, at, args, true, out);
}

static int pylib_os_basename(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                             pyval_t **out)
{
	return pylib_path_part(I, at, args, false, out);
}

static int pylib_os_getenv(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	if (args->npos < 1 || args->npos > 2 || args->pos[0]->kind != PV_STR)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: getenv() expects a name");
	const char *v = getenv(args->pos[0]->str.s);
	PYEVAL_RET(v                 ? dalic_pyval_cstr(I->a, v)
	           : args->npos == 2 ? args->pos[1]
	                             : dalic_pyval_none());
}

static int pylib_make_os(pyinterp_t *I, pyval_t *os, pyval_t *path)
{
	DALIC_TRY(pylib_set_builtin(I, path, "join", pylib_os_join));
	DALIC_TRY(pylib_set_builtin(I, path, "dirname", pylib_os_dirname));
	DALIC_TRY(pylib_set_builtin(I, path, "basename", pylib_os_basename));
	DALIC_TRY(dalic_pymod_set(I, os, "path", path));
	DALIC_TRY(pylib_set_builtin(I, os, "getenv", pylib_os_getenv));
	DALIC_TRY(dalic_pymod_set(I, os, "sep", dalic_pyval_cstr(I->a, "/")));
	DALIC_TRY(dalic_pyio_extend_os(I, os, path));
	pyval_t *env = dalic_pyval_dict(I->a);
	if (!env)
		return DALIC_ENOMEM;
	for (char **e = environ; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		if (!eq)
			continue;
		pyval_t *k = dalic_pyval_str(I->a, *e, (size_t)(eq - *e)),
		        *v = dalic_pyval_cstr(I->a, eq + 1);
		if (!k || !v || dalic_pydict_set(I->a, env->dict, k, v))
			return DALIC_ENOMEM;
	}
	return dalic_pymod_set(I, os, "environ", env);
}

/* ---- registration --------------------------------------------------------------------- */

static int pylib_open_math(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	pyval_t *m = dalic_pymod_new(I, name, true);
	if (!m || pylib_make_math(I, m))
		return dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}

/* os and os.path are built together: each refers to the other */
static int pylib_open_os(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	pyval_t *os = dalic_pymod_new(I, "os", true), *path = dalic_pymod_new(I, "os.path", true);
	if (!os || !path || pylib_make_os(I, os, path) ||
	    dalic_pydict_set_str(I->a, I->modules, "os", os) ||
	    dalic_pydict_set_str(I->a, I->modules, "os.path", path))
		return dalic_pyeval_oom(I, at);
	*out = name[2] ? path : os;
	return DALIC_OK;
}

static const pymodreg_t pylib_modules[] = {
    {"math", pylib_open_math},
    {"os", pylib_open_os},
    {"os.path", pylib_open_os},
    {NULL, NULL},
};

int dalic_pylib_open(pyinterp_t *I)
{
	DALIC_TRY(dalic_pymod_preload(I, pylib_modules));
	DALIC_TRY(dalic_pyio_open(I)); /* open, glob, json, the refusals */
	return dalic_pynp_open(I);
}
