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
		return *out ? DALIC_OK : serr_oom(I, at);                                          \
	} while (0)

extern char **environ;

static sv_t *new_module(sinterp_t *I, const char *name, bool opaque)
{
	sv_t *v = sv_new(I->a, SV_MODULE);
	if (!v || !(v->mod = script_arena_alloc(I->a, sizeof *v->mod)) ||
	    !(v->mod->attrs = svdict_new(I->a)))
		return NULL;
	v->mod->name = script_arena_strdup(I->a, name);
	v->mod->opaque = opaque;
	return v->mod->name ? v : NULL;
}

static int set(sinterp_t *I, sv_t *mod, const char *name, sv_t *v)
{
	if (!v)
		return DALIC_ENOMEM;
	return svdict_set_str(I->a, mod->mod->attrs, name, v);
}

static int set_builtin(sinterp_t *I, sv_t *mod, const char *name, sbuiltin_fn fn, void *data)
{
	return set(I, mod, name, sb_make(I, name, fn, NULL, data));
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

static int t_constant(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	return so_types_constant(I, at, args, out);
}

static int enum_namespace(sinterp_t *I, sv_t *types, const char *ns_name, int type,
                          const char *const *names, const int *values, int n)
{
	sv_t *ns = new_module(I, ns_name, false);
	if (!ns)
		return DALIC_ENOMEM;
	for (int i = 0; i < n; i++) {
		sv_t *e = sv_enum(I->a, type, values[i]);
		if (set(I, ns, names[i], e) || set(I, types, names[i], e))
			return DALIC_ENOMEM;
	}
	return set(I, types, ns_name, ns);
}

static int make_types(sinterp_t *I, sv_t *types)
{
	int n = (int)(sizeof dtypes / sizeof *dtypes);
	const char *names[32];
	int values[32];
	for (int i = 0; i < n; i++) {
		names[i] = dtypes[i].name;
		values[i] = dtypes[i].value;
	}
	TRY(enum_namespace(I, types, "DALIDataType", ENUM_DTYPE, names, values, n));
	static const char *images[] = {"RGB", "BGR", "GRAY", "YCbCr", "ANY_DATA"};
	static const int image_values[] = {DALIC_RGB, DALIC_BGR, DALIC_GRAY, DALIC_YCbCr,
	                                   DALIC_ANY_DATA};
	TRY(enum_namespace(I, types, "DALIImageType", ENUM_IMAGE, images, image_values, 5));
	static const char *interps[] = {"INTERP_NN",       "INTERP_LINEAR",     "INTERP_CUBIC",
	                                "INTERP_LANCZOS3", "INTERP_TRIANGULAR", "INTERP_GAUSSIAN"};
	static const int interp_values[] = {0, 1, 2, 3, 4, 5};
	TRY(enum_namespace(I, types, "DALIInterpType", ENUM_INTERP, interps, interp_values, 6));
	/* the pre-0.22 TensorLayout names, kept by DALI as layout strings */
	static const char *layouts[][2] = {
	    {"NCHW", "CHW"}, {"NHWC", "HWC"}, {"NFHWC", "FHWC"}, {"NFCHW", "FCHW"}, {"SAMPLE", ""}};
	for (int i = 0; i < 5; i++)
		TRY(set(I, types, layouts[i][0], sv_cstr(I->a, layouts[i][1])));
	return set_builtin(I, types, "Constant", t_constant, NULL);
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

static int math_call(sinterp_t *I, const snode_t *at, const unary_math_t *m, const sargs_t *args,
                     sv_t **out)
{
	if (args->npos < 1 || args->npos > 2 || args->nkw)
		return serr(I, at, DALIC_EINVAL, "TypeError: math.%s() takes one argument",
		            m->name);
	sv_t *v = args->pos[0];
	if (v->kind == SV_OPAQUE)
		RET(v);
	if (!sv_is_number(v))
		return serr(I, at, DALIC_EINVAL, "TypeError: must be real number, not %s",
		            sv_type_name(v));
	double r = m->fn(sv_as_double(v));
	if (m->to_int) {
		if (!(fabs(r) < 9.2e18))
			return serr(I, at, DALIC_EINVAL,
			            "OverflowError: cannot convert to integer");
		RET(sv_int(I->a, (int64_t)r));
	}
	RET(sv_float(I->a, r));
}

#define MATH_FN(i)                                                                                 \
	static int math_##i(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args,      \
	                    sv_t **out)                                                            \
	{                                                                                          \
		return math_call(I, at, &unary_math[i], args, out);                                \
	}
MATH_FN(0)
MATH_FN(1) MATH_FN(2) MATH_FN(3) MATH_FN(4) MATH_FN(5) MATH_FN(6) MATH_FN(7) MATH_FN(8) MATH_FN(9)
    MATH_FN(10) MATH_FN(11)

        static int math_log(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args,
                            sv_t **out)
{
	if (args->npos < 1 || args->npos > 2 || !sv_is_number(args->pos[0]) ||
	    (args->npos == 2 && !sv_is_number(args->pos[1])))
		return serr(I, at, DALIC_EINVAL, "TypeError: math.log() takes one or two numbers");
	double r = log(sv_as_double(args->pos[0]));
	if (args->npos == 2)
		r /= log(sv_as_double(args->pos[1]));
	RET(sv_float(I->a, r));
}

static int math_pow(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	if (args->npos != 2 || !sv_is_number(args->pos[0]) || !sv_is_number(args->pos[1]))
		return serr(I, at, DALIC_EINVAL, "TypeError: math.pow() takes two numbers");
	RET(sv_float(I->a, pow(sv_as_double(args->pos[0]), sv_as_double(args->pos[1]))));
}

static int make_py_math(sinterp_t *I, sv_t *m)
{
	static sbuiltin_fn fns[] = {math_0, math_1, math_2, math_3, math_4,  math_5,
	                            math_6, math_7, math_8, math_9, math_10, math_11};
	for (int i = 0; i < 12; i++)
		TRY(set_builtin(I, m, unary_math[i].name, fns[i], NULL));
	TRY(set_builtin(I, m, "log", math_log, NULL));
	TRY(set_builtin(I, m, "pow", math_pow, NULL));
	TRY(set(I, m, "pi", sv_float(I->a, M_PI)));
	TRY(set(I, m, "e", sv_float(I->a, M_E)));
	TRY(set(I, m, "tau", sv_float(I->a, 2 * M_PI)));
	TRY(set(I, m, "inf", sv_float(I->a, INFINITY)));
	return set(I, m, "nan", sv_float(I->a, NAN));
}

/* ---- os ------------------------------------------------------------------------------- */

static int os_join(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	sbuf_t b = {0};
	for (int i = 0; i < args->npos; i++) {
		sv_t *p = args->pos[i];
		if (p->kind == SV_OPAQUE) {
			sbuf_free(&b);
			RET(p);
		}
		if (p->kind != SV_STR) {
			sbuf_free(&b);
			return serr(I, at, DALIC_EINVAL,
			            "TypeError: join() argument must be str, not '%s'",
			            sv_type_name(p));
		}
		if (p->str.len && p->str.s[0] == '/')
			b.n = 0; /* an absolute component restarts the path */
		else if (b.n && b.s[b.n - 1] != '/')
			sbuf_put(&b, "/", 1);
		sbuf_put(&b, p->str.s, p->str.len);
	}
	*out = b.oom ? NULL : sv_str(I->a, b.s ? b.s : "", b.n);
	sbuf_free(&b);
	return *out ? DALIC_OK : serr_oom(I, at);
}

static int path_part(sinterp_t *I, const snode_t *at, const sargs_t *args, bool dir, sv_t **out)
{
	if (args->npos != 1)
		return serr(I, at, DALIC_EINVAL, "TypeError: expected one path");
	sv_t *p = args->pos[0];
	if (p->kind != SV_STR)
		RET(p->kind == SV_OPAQUE ? p : NULL);
	const char *slash = memrchr(p->str.s, '/', p->str.len);
	if (dir)
		RET(sv_str(I->a, p->str.s, slash ? (size_t)(slash - p->str.s) : 0));
	RET(slash ? sv_str(I->a, slash + 1, p->str.len - (size_t)(slash + 1 - p->str.s)) : p);
}

static int os_dirname(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	return path_part(I, at, args, true, out);
}

static int os_basename(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	return path_part(I, at, args, false, out);
}

static int os_getenv(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	if (args->npos < 1 || args->npos > 2 || args->pos[0]->kind != SV_STR)
		return serr(I, at, DALIC_EINVAL, "TypeError: getenv() expects a name");
	const char *v = getenv(args->pos[0]->str.s);
	RET(v ? sv_cstr(I->a, v) : args->npos == 2 ? args->pos[1] : sv_none());
}

static int make_os(sinterp_t *I, sv_t *os, sv_t *path)
{
	TRY(set_builtin(I, path, "join", os_join, NULL));
	TRY(set_builtin(I, path, "dirname", os_dirname, NULL));
	TRY(set_builtin(I, path, "basename", os_basename, NULL));
	TRY(set(I, os, "path", path));
	TRY(set_builtin(I, os, "getenv", os_getenv, NULL));
	TRY(set(I, os, "sep", sv_cstr(I->a, "/")));
	sv_t *env = sv_dict(I->a);
	if (!env)
		return DALIC_ENOMEM;
	for (char **e = environ; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		if (!eq)
			continue;
		sv_t *k = sv_str(I->a, *e, (size_t)(eq - *e)), *v = sv_cstr(I->a, eq + 1);
		if (!k || !v || svdict_set(I->a, env->dict, k, v))
			return DALIC_ENOMEM;
	}
	return set(I, os, "environ", env);
}

/* ---- nvidia.dali ---------------------------------------------------------------------- */

static int new_axis(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	if (args->npos > 1 || (args->npos && args->pos[0]->kind != SV_STR) ||
	    (args->npos && args->pos[0]->str.len != 1))
		return serr(I, at, DALIC_EINVAL,
		            "TypeError: Axis name must be a single-character string");
	RET(sb_make(I, "newaxis", new_axis, NULL, args->npos ? (void *)args->pos[0]->str.s : NULL));
}

static int datanode_type(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args,
                         sv_t **out)
{
	return serr(
	    I, at, DALIC_EUNSUPPORTED,
	    "creating DataNode objects directly is not supported; they come from operators");
}

static int identity_decorator(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args,
                              sv_t **out)
{
	if (args->npos != 1)
		return serr(I, at, DALIC_EINVAL, "TypeError: expected one function");
	RET(args->pos[0]);
}

static sv_t *opfn_root(sinterp_t *I, bool ops)
{
	sv_t *v = sv_new(I->a, SV_OPFN);
	if (v) {
		v->opfn.path = "";
		v->opfn.ops_api = ops;
	}
	return v;
}

static int get_module(sinterp_t *I, const snode_t *at, const char *name, sv_t **out);

static int build_known(sinterp_t *I, const snode_t *at, const char *name, sv_t **out)
{
	sv_t *m = NULL, *sub;
	if (!strcmp(name, "nvidia")) {
		m = new_module(I, name, false);
		if (!m)
			return serr_oom(I, at);
		TRY(get_module(I, at, "nvidia.dali", &sub));
		TRY(set(I, m, "dali", sub) ? serr_oom(I, at) : DALIC_OK);
	} else if (!strcmp(name, "nvidia.dali")) {
		/* unknown members (plugin, backend, ...) are opaque */
		m = new_module(I, name, true);
		if (!m)
			return serr_oom(I, at);
		static const char *subs[] = {"fn", "ops", "types", "math", "pipeline", "data_node"};
		for (int i = 0; i < 6; i++) {
			char full[64];
			snprintf(full, sizeof full, "nvidia.dali.%s", subs[i]);
			TRY(get_module(I, at, full, &sub));
			if (set(I, m, subs[i], sub))
				return serr_oom(I, at);
		}
		if (set(I, m, "pipeline_def", sp_pipeline_def_builtin(I, false)) ||
		    set_builtin(I, m, "newaxis", new_axis, NULL) ||
		    set(I, m, "__version__", sv_cstr(I->a, "dalic-" DALIC_VERSION)))
			return serr_oom(I, at);
		sv_t *pc = sv_new(I->a, SV_CLASS);
		if (!pc)
			return serr_oom(I, at);
		pc->cls = I->pipeline_cls;
		if (set(I, m, "Pipeline", pc))
			return serr_oom(I, at);
	} else if (!strcmp(name, "nvidia.dali.fn") || !strcmp(name, "nvidia.dali.ops")) {
		m = opfn_root(I, name[12] == 'o');
	} else if (!strcmp(name, "nvidia.dali.types")) {
		m = new_module(I, name, false);
		if (!m || make_types(I, m))
			return serr_oom(I, at);
	} else if (!strcmp(name, "nvidia.dali.math")) {
		m = new_module(I, name, false);
		if (!m)
			return serr_oom(I, at);
		TRY(sa_math_module(I, m));
	} else if (!strcmp(name, "nvidia.dali.pipeline") ||
	           !strcmp(name, "nvidia.dali.pipeline.experimental")) {
		bool exp = name[20] == '.';
		m = new_module(I, name, false);
		sv_t *pc = sv_new(I->a, SV_CLASS);
		if (!m || !pc)
			return serr_oom(I, at);
		pc->cls = I->pipeline_cls;
		if (set(I, m, "pipeline_def", sp_pipeline_def_builtin(I, exp)) ||
		    set(I, m, "Pipeline", pc) ||
		    set_builtin(I, m, "do_not_convert", identity_decorator, NULL) ||
		    set_builtin(I, m, "DataNode", datanode_type, NULL))
			return serr_oom(I, at);
		if (!exp) {
			TRY(get_module(I, at, "nvidia.dali.pipeline.experimental", &sub));
			if (set(I, m, "experimental", sub))
				return serr_oom(I, at);
		}
	} else if (!strcmp(name, "nvidia.dali.data_node")) {
		m = new_module(I, name, false);
		if (!m || set_builtin(I, m, "DataNode", datanode_type, NULL))
			return serr_oom(I, at);
	} else if (!strcmp(name, "math")) {
		m = new_module(I, name, true);
		if (!m || make_py_math(I, m))
			return serr_oom(I, at);
	} else if (!strcmp(name, "os") || !strcmp(name, "os.path")) {
		sv_t *os = new_module(I, "os", true), *path = new_module(I, "os.path", true);
		if (!os || !path || make_os(I, os, path) ||
		    svdict_set_str(I->a, I->modules, "os", os) ||
		    svdict_set_str(I->a, I->modules, "os.path", path))
			return serr_oom(I, at);
		m = name[2] ? path : os;
	} else {
		m = new_module(I, name, true);
	}
	if (!m)
		return serr_oom(I, at);
	*out = m;
	return DALIC_OK;
}

static int get_module(sinterp_t *I, const snode_t *at, const char *name, sv_t **out)
{
	sv_t *m = svdict_get_str(I->modules, name);
	if (m) {
		*out = m;
		return DALIC_OK;
	}
	TRY(build_known(I, at, name, &m));
	if (svdict_set_str(I->a, I->modules, name, m))
		return serr_oom(I, at);
	*out = m;
	return DALIC_OK;
}

int sm_import(sinterp_t *I, const snode_t *at, const char *dotted, sv_t **top, sv_t **leaf)
{
	const char *dot = strchr(dotted, '.');
	char *first =
	    script_arena_strndup(I->a, dotted, dot ? (size_t)(dot - dotted) : strlen(dotted));
	if (!first)
		return serr_oom(I, at);
	TRY(get_module(I, at, first, top));
	return get_module(I, at, dotted, leaf);
}

int sm_getattr(sinterp_t *I, const snode_t *at, sv_t *mod, const char *name, sv_t **out)
{
	sv_t *v = svdict_get_str(mod->mod->attrs, name);
	if (v) {
		*out = v;
		return DALIC_OK;
	}
	if (!mod->mod->opaque) {
		*out = NULL;
		return DALIC_OK;
	}
	/* a submodule of an opaque package, or an attribute dalic does not model */
	char *full = script_arena_printf(I->a, "%s.%s", mod->mod->name, name);
	if (!full)
		return serr_oom(I, at);
	RET(sv_opaque(I->a, full));
}

int sm_init(sinterp_t *I)
{
	I->modules = svdict_new(I->a);
	return I->modules ? DALIC_OK : DALIC_ENOMEM;
}
