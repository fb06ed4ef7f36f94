/*
 * Imports and the namespaces dalic models: nvidia.dali (fn, ops, types, math, pipeline,
 * pipeline_def, Pipeline, newaxis), nvidia.dali.types (DALIDataType / DALIImageType /
 * DALIInterpType members, layout names, Constant), and small parts of Python's math and os
 * (os.path.join, os.environ) that pipeline files use to build paths. Any other module —
 * matplotlib, numpy, torch, DALI plugins — imports as an opaque module whose attributes are
 * opaque values: harmless in display code, a located error inside a pipeline definition.
 */
#include "frontend/script/py/pystate.h"

#include "engine/dtype.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TRY(x)                                                                                     \
	do {                                                                                       \
		int rc_ = (x);                                                                     \
		if (rc_)                                                                           \
			return rc_;                                                                \
	} while (0)
#define RET(v)                                                                                     \
	do {                                                                                       \
		*out = (v);                                                                        \
		return *out ? DALIC_OK : dalic_pyeval_oom(I, at);                                  \
	} while (0)

extern char **environ;

static pyval_t *pymod_new_module(pyinterp_t *I, const char *name, bool opaque)
{
	pyval_t *v = dalic_pyval_new(I->a, PV_MODULE);
	if (!v || !(v->mod = dalic_pyarena_alloc(I->a, sizeof *v->mod)) ||
	    !(v->mod->attrs = dalic_pydict_new(I->a)))
		return NULL;
	v->mod->name = dalic_pyarena_strdup(I->a, name);
	v->mod->opaque = opaque;
	return v->mod->name ? v : NULL;
}

static int pymod_set(pyinterp_t *I, pyval_t *mod, const char *name, pyval_t *v)
{
	if (!v)
		return DALIC_ENOMEM;
	return dalic_pydict_set_str(I->a, mod->mod->attrs, name, v);
}

static int pymod_set_builtin(pyinterp_t *I, pyval_t *mod, const char *name, pycfn_t fn, void *data)
{
	return pymod_set(I, mod, name, dalic_pybi_make(I, name, fn, NULL, data));
}

/* ---- nvidia.dali.types ---------------------------------------------------------------- */

static const struct {
	const char *name;
	int value;
} dtypes[] = {
    {"NO_TYPE", DALIC_NO_TYPE},
    {"UINT8", DALIC_UINT8},
    {"UINT16", DALIC_UINT16},
    {"UINT32", DALIC_UINT32},
    {"UINT64", DALIC_UINT64},
    {"INT8", DALIC_INT8},
    {"INT16", DALIC_INT16},
    {"INT32", DALIC_INT32},
    {"INT64", DALIC_INT64},
    {"FLOAT16", DALIC_FLOAT16},
    {"FLOAT", DALIC_FLOAT},
    {"FLOAT64", DALIC_FLOAT64},
    {"BOOL", DALIC_BOOL},
    {"STRING", DALIC_STRING},
    {"IMAGE_TYPE", DALIC_IMAGE_TYPE},
    {"DATA_TYPE", DALIC_DATA_TYPE},
    {"INTERP_TYPE", DALIC_INTERP_TYPE},
    {"TENSOR_LAYOUT", DALIC_TENSOR_LAYOUT},
};

static int pymod_constant(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	return dalic_sdconst_types_constant(I, at, args, out);
}

static int pymod_enum_namespace(pyinterp_t *I, pyval_t *types, const char *ns_name, int type,
                                const char *const *names, const int *values, int n)
{
	pyval_t *ns = pymod_new_module(I, ns_name, false);
	if (!ns)
		return DALIC_ENOMEM;
	for (int i = 0; i < n; i++) {
		pyval_t *e = dalic_sdval_enum(I->a, type, values[i]);
		if (pymod_set(I, ns, names[i], e) || pymod_set(I, types, names[i], e))
			return DALIC_ENOMEM;
	}
	return pymod_set(I, types, ns_name, ns);
}

static int pymod_make_types(pyinterp_t *I, pyval_t *types)
{
	int n = (int)(sizeof dtypes / sizeof *dtypes);
	const char *names[32];
	int values[32];
	for (int i = 0; i < n; i++) {
		names[i] = dtypes[i].name;
		values[i] = dtypes[i].value;
	}
	TRY(pymod_enum_namespace(I, types, "DALIDataType", ENUM_DTYPE, names, values, n));
	static const char *images[] = {"RGB", "BGR", "GRAY", "YCbCr", "ANY_DATA"};
	static const int image_values[] = {DALIC_RGB, DALIC_BGR, DALIC_GRAY, DALIC_YCbCr,
	                                   DALIC_ANY_DATA};
	TRY(pymod_enum_namespace(I, types, "DALIImageType", ENUM_IMAGE, images, image_values, 5));
	static const char *interps[] = {"INTERP_NN",       "INTERP_LINEAR",     "INTERP_CUBIC",
	                                "INTERP_LANCZOS3", "INTERP_TRIANGULAR", "INTERP_GAUSSIAN"};
	static const int interp_values[] = {0, 1, 2, 3, 4, 5};
	TRY(pymod_enum_namespace(I, types, "DALIInterpType", ENUM_INTERP, interps, interp_values,
	                         6));
	/* the pre-0.22 TensorLayout names, kept by DALI as layout strings */
	static const char *layouts[][2] = {
	    {"NCHW", "CHW"}, {"NHWC", "HWC"}, {"NFHWC", "FHWC"}, {"NFCHW", "FCHW"}, {"SAMPLE", ""}};
	for (int i = 0; i < 5; i++)
		TRY(pymod_set(I, types, layouts[i][0], dalic_pyval_cstr(I->a, layouts[i][1])));
	return pymod_set_builtin(I, types, "Constant", pymod_constant, NULL);
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

static int pymod_math_call(pyinterp_t *I, const pynode_t *at, const unary_math_t *m,
                           const pyargs_t *args, pyval_t **out)
{
	if (args->npos < 1 || args->npos > 2 || args->nkw)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: math.%s() takes one argument", m->name);
	pyval_t *v = args->pos[0];
	if (v->kind == PV_OPAQUE)
		RET(v);
	if (!dalic_pyval_is_number(v))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: must be real number, not %s",
		                          dalic_pyval_type_name(v));
	double r = m->fn(dalic_pyval_as_double(v));
	if (m->to_int) {
		if (!(fabs(r) < 9.2e18))
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "OverflowError: cannot convert to integer");
		RET(dalic_pyval_int(I->a, (int64_t)r));
	}
	RET(dalic_pyval_float(I->a, r));
}

#define MATH_FN(i)                                                                                 \
	static int pymod_math_##i(pyinterp_t *I, const pynode_t *at, pyval_t *self,                \
	                          const pyargs_t *args, pyval_t **out)                             \
	{                                                                                          \
		return pymod_math_call(I, at, &unary_math[i], args, out);                          \
	}
MATH_FN(0)
MATH_FN(1)
MATH_FN(2) MATH_FN(3) MATH_FN(4) MATH_FN(5) MATH_FN(6) MATH_FN(7) MATH_FN(8) MATH_FN(9) MATH_FN(10)
    MATH_FN(11)

        static int math_log(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	if (args->npos < 1 || args->npos > 2 || !dalic_pyval_is_number(args->pos[0]) ||
	    (args->npos == 2 && !dalic_pyval_is_number(args->pos[1])))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: math.log() takes one or two numbers");
	double r = log(dalic_pyval_as_double(args->pos[0]));
	if (args->npos == 2)
		r /= log(dalic_pyval_as_double(args->pos[1]));
	RET(dalic_pyval_float(I->a, r));
}

static int pymod_math_pow(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	if (args->npos != 2 || !dalic_pyval_is_number(args->pos[0]) ||
	    !dalic_pyval_is_number(args->pos[1]))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: math.pow() takes two numbers");
	RET(dalic_pyval_float(
	    I->a, pow(dalic_pyval_as_double(args->pos[0]), dalic_pyval_as_double(args->pos[1]))));
}

static int pymod_make_py_math(pyinterp_t *I, pyval_t *m)
{
	static pycfn_t fns[] = {pymod_math_0, pymod_math_1, pymod_math_2,  pymod_math_3,
	                        pymod_math_4, pymod_math_5, pymod_math_6,  pymod_math_7,
	                        pymod_math_8, pymod_math_9, pymod_math_10, pymod_math_11};
	for (int i = 0; i < 12; i++)
		TRY(pymod_set_builtin(I, m, unary_math[i].name, fns[i], NULL));
	TRY(pymod_set_builtin(I, m, "log", math_log, NULL));
	TRY(pymod_set_builtin(I, m, "pow", pymod_math_pow, NULL));
	TRY(pymod_set(I, m, "pi", dalic_pyval_float(I->a, M_PI)));
	TRY(pymod_set(I, m, "e", dalic_pyval_float(I->a, M_E)));
	TRY(pymod_set(I, m, "tau", dalic_pyval_float(I->a, 2 * M_PI)));
	TRY(pymod_set(I, m, "inf", dalic_pyval_float(I->a, INFINITY)));
	return pymod_set(I, m, "nan", dalic_pyval_float(I->a, NAN));
}

/* ---- os ------------------------------------------------------------------------------- */

static int pymod_os_join(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                         pyval_t **out)
{
	pybuf_t b = {0};
	for (int i = 0; i < args->npos; i++) {
		pyval_t *p = args->pos[i];
		if (p->kind == PV_OPAQUE) {
			dalic_pybuf_free(&b);
			RET(p);
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

static int pymod_path_part(pyinterp_t *I, const pynode_t *at, const pyargs_t *args, bool dir,
                           pyval_t **out)
{
	if (args->npos != 1)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "TypeError: expected one path");
	pyval_t *p = args->pos[0];
	if (p->kind != PV_STR)
		RET(p->kind == PV_OPAQUE ? p : NULL);
	const char *slash = memrchr(p->str.s, '/', p->str.len);
	if (dir)
		RET(dalic_pyval_str(I->a, p->str.s, slash ? (size_t)(slash - p->str.s) : 0));
	RET(slash ? dalic_pyval_str(I->a, slash + 1, p->str.len - (size_t)(slash + 1 - p->str.s))
	          : p);
}

static int pymod_os_dirname(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	return pymod_path_part(I, at, args, true, out);
}

static int pymod_os_basename(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                             pyval_t **out)
{
	return pymod_path_part(I, at, args, false, out);
}

static int pymod_os_getenv(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	if (args->npos < 1 || args->npos > 2 || args->pos[0]->kind != PV_STR)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: getenv() expects a name");
	const char *v = getenv(args->pos[0]->str.s);
	RET(v ? dalic_pyval_cstr(I->a, v) : args->npos == 2 ? args->pos[1] : dalic_pyval_none());
}

static int pymod_make_os(pyinterp_t *I, pyval_t *os, pyval_t *path)
{
	TRY(pymod_set_builtin(I, path, "join", pymod_os_join, NULL));
	TRY(pymod_set_builtin(I, path, "dirname", pymod_os_dirname, NULL));
	TRY(pymod_set_builtin(I, path, "basename", pymod_os_basename, NULL));
	TRY(pymod_set(I, os, "path", path));
	TRY(pymod_set_builtin(I, os, "getenv", pymod_os_getenv, NULL));
	TRY(pymod_set(I, os, "sep", dalic_pyval_cstr(I->a, "/")));
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
	return pymod_set(I, os, "environ", env);
}

/* ---- nvidia.dali ---------------------------------------------------------------------- */

static int pymod_new_axis(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	if (args->npos > 1 || (args->npos && args->pos[0]->kind != PV_STR) ||
	    (args->npos && args->pos[0]->str.len != 1))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: Axis name must be a single-character string");
	RET(dalic_pybi_make(I, "newaxis", pymod_new_axis, NULL,
	                    args->npos ? (void *)args->pos[0]->str.s : NULL));
}

static int pymod_datanode_type(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                               const pyargs_t *args, pyval_t **out)
{
	return dalic_pyeval_error(
	    I, at, DALIC_EUNSUPPORTED,
	    "creating DataNode objects directly is not supported; they come from operators");
}

static int pymod_identity_decorator(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                    const pyargs_t *args, pyval_t **out)
{
	if (args->npos != 1)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "TypeError: expected one function");
	RET(args->pos[0]);
}

static pyval_t *pymod_opfn_root(pyinterp_t *I, bool ops)
{
	pyval_t *v = dalic_pyval_new(I->a, PV_OPFN);
	if (v) {
		v->opfn.path = "";
		v->opfn.ops_api = ops;
	}
	return v;
}

static int pymod_get_module(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out);

static int pymod_build_known(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	pyval_t *m = NULL, *sub;
	if (!strcmp(name, "nvidia")) {
		m = pymod_new_module(I, name, false);
		if (!m)
			return dalic_pyeval_oom(I, at);
		TRY(pymod_get_module(I, at, "nvidia.dali", &sub));
		TRY(pymod_set(I, m, "dali", sub) ? dalic_pyeval_oom(I, at) : DALIC_OK);
	} else if (!strcmp(name, "nvidia.dali")) {
		/* unknown members (plugin, backend, ...) are opaque */
		m = pymod_new_module(I, name, true);
		if (!m)
			return dalic_pyeval_oom(I, at);
		static const char *subs[] = {"fn", "ops", "types", "math", "pipeline", "data_node"};
		for (int i = 0; i < 6; i++) {
			char full[64];
			snprintf(full, sizeof full, "nvidia.dali.%s", subs[i]);
			TRY(pymod_get_module(I, at, full, &sub));
			if (pymod_set(I, m, subs[i], sub))
				return dalic_pyeval_oom(I, at);
		}
		if (pymod_set(I, m, "pipeline_def", dalic_sdpipe_def_builtin(I, false)) ||
		    pymod_set_builtin(I, m, "newaxis", pymod_new_axis, NULL) ||
		    pymod_set(I, m, "__version__", dalic_pyval_cstr(I->a, "dalic-" DALIC_VERSION)))
			return dalic_pyeval_oom(I, at);
		pyval_t *pc = dalic_pyval_new(I->a, PV_CLASS);
		if (!pc)
			return dalic_pyeval_oom(I, at);
		pc->cls = I->pipeline_cls;
		if (pymod_set(I, m, "Pipeline", pc))
			return dalic_pyeval_oom(I, at);
	} else if (!strcmp(name, "nvidia.dali.fn") || !strcmp(name, "nvidia.dali.ops")) {
		m = pymod_opfn_root(I, name[12] == 'o');
	} else if (!strcmp(name, "nvidia.dali.types")) {
		m = pymod_new_module(I, name, false);
		if (!m || pymod_make_types(I, m))
			return dalic_pyeval_oom(I, at);
	} else if (!strcmp(name, "nvidia.dali.math")) {
		m = pymod_new_module(I, name, false);
		if (!m)
			return dalic_pyeval_oom(I, at);
		TRY(dalic_sdarith_math_module(I, m));
	} else if (!strcmp(name, "nvidia.dali.pipeline") ||
	           !strcmp(name, "nvidia.dali.pipeline.experimental")) {
		bool exp = name[20] == '.';
		m = pymod_new_module(I, name, false);
		pyval_t *pc = dalic_pyval_new(I->a, PV_CLASS);
		if (!m || !pc)
			return dalic_pyeval_oom(I, at);
		pc->cls = I->pipeline_cls;
		if (pymod_set(I, m, "pipeline_def", dalic_sdpipe_def_builtin(I, exp)) ||
		    pymod_set(I, m, "Pipeline", pc) ||
		    pymod_set_builtin(I, m, "do_not_convert", pymod_identity_decorator, NULL) ||
		    pymod_set_builtin(I, m, "DataNode", pymod_datanode_type, NULL))
			return dalic_pyeval_oom(I, at);
		if (!exp) {
			TRY(pymod_get_module(I, at, "nvidia.dali.pipeline.experimental", &sub));
			if (pymod_set(I, m, "experimental", sub))
				return dalic_pyeval_oom(I, at);
		}
	} else if (!strcmp(name, "nvidia.dali.data_node")) {
		m = pymod_new_module(I, name, false);
		if (!m || pymod_set_builtin(I, m, "DataNode", pymod_datanode_type, NULL))
			return dalic_pyeval_oom(I, at);
	} else if (!strcmp(name, "math")) {
		m = pymod_new_module(I, name, true);
		if (!m || pymod_make_py_math(I, m))
			return dalic_pyeval_oom(I, at);
	} else if (!strcmp(name, "os") || !strcmp(name, "os.path")) {
		pyval_t *os = pymod_new_module(I, "os", true),
		        *path = pymod_new_module(I, "os.path", true);
		if (!os || !path || pymod_make_os(I, os, path) ||
		    dalic_pydict_set_str(I->a, I->modules, "os", os) ||
		    dalic_pydict_set_str(I->a, I->modules, "os.path", path))
			return dalic_pyeval_oom(I, at);
		m = name[2] ? path : os;
	} else {
		m = pymod_new_module(I, name, true);
	}
	if (!m)
		return dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}

static int pymod_get_module(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	pyval_t *m = dalic_pydict_get_str(I->modules, name);
	if (m) {
		*out = m;
		return DALIC_OK;
	}
	TRY(pymod_build_known(I, at, name, &m));
	if (dalic_pydict_set_str(I->a, I->modules, name, m))
		return dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}

int dalic_pymod_import(pyinterp_t *I, const pynode_t *at, const char *dotted, pyval_t **top,
                       pyval_t **leaf)
{
	const char *dot = strchr(dotted, '.');
	char *first =
	    dalic_pyarena_strndup(I->a, dotted, dot ? (size_t)(dot - dotted) : strlen(dotted));
	if (!first)
		return dalic_pyeval_oom(I, at);
	TRY(pymod_get_module(I, at, first, top));
	return pymod_get_module(I, at, dotted, leaf);
}

int dalic_pymod_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *mod, const char *name,
                        pyval_t **out)
{
	pyval_t *v = dalic_pydict_get_str(mod->mod->attrs, name);
	if (v) {
		*out = v;
		return DALIC_OK;
	}
	if (!mod->mod->opaque) {
		*out = NULL;
		return DALIC_OK;
	}
	/* a submodule of an opaque package, or an attribute dalic does not model */
	char *full = dalic_pyarena_printf(I->a, "%s.%s", mod->mod->name, name);
	if (!full)
		return dalic_pyeval_oom(I, at);
	RET(dalic_pyval_opaque(I->a, full));
}

int dalic_pymod_open(pyinterp_t *I)
{
	I->modules = dalic_pydict_new(I->a);
	return I->modules ? DALIC_OK : DALIC_ENOMEM;
}
