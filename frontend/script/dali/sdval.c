/*
 * DALI's values as host types of the core (see sdval.h): enum members, ScalarConstants,
 * operator namespaces / operators, ops-API operator objects and @pipeline_def functions.
 * DataNodes are in sdval_node.c.
 */
#include "frontend/script/dali/sdval.h"

#include "engine/dtype.h"
#include "frontend/script/dali/sdarith.h"
#include "frontend/script/dali/sdops.h"
#include "frontend/script/dali/sdpipe.h"
#include "frontend/script/py/pydict.h"

#include <string.h>

/* Operator paths longer than any operator name are refused when they are written, so a
 * script cannot grow them without bound (fn.a.a.a...). */
#define SDVAL_MAX_OP_PATH 256

static void *sdval_payload(pyarena_t *a, size_t size)
{
	return dalic_pyarena_alloc(a, size);
}

pyval_t *dalic_sdval_new_node(pyarena_t *a, const char *name, const char *device, sdpipe_t *pipe)
{
	sdnode_t *n = sdval_payload(a, sizeof *n);
	if (!n)
		return NULL;
	n->name = name;
	n->device = device;
	n->pipe = pipe;
	return dalic_pyval_host(a, &dalic_sdval_node_type, n);
}

pyval_t *dalic_sdval_new_enum(pyarena_t *a, int type, int64_t value)
{
	sdenum_t *e = sdval_payload(a, sizeof *e);
	if (!e)
		return NULL;
	e->type = type;
	e->value = value;
	return dalic_pyval_host(a, &dalic_sdval_enum_type, e);
}

pyval_t *dalic_sdval_new_sconst(pyarena_t *a, pyval_t *value, int dtype)
{
	sdsconst_t *c = sdval_payload(a, sizeof *c);
	if (!c)
		return NULL;
	c->value = value;
	c->dtype = dtype;
	return dalic_pyval_host(a, &dalic_sdval_sconst_type, c);
}

pyval_t *dalic_sdval_new_opfn(pyarena_t *a, const char *path, bool ops_api)
{
	sdopfn_t *f = sdval_payload(a, sizeof *f);
	if (!f)
		return NULL;
	f->path = path;
	f->ops_api = ops_api;
	return dalic_pyval_host(a, &dalic_sdval_opfn_type, f);
}

pyval_t *dalic_sdval_new_opobj(pyarena_t *a, const dalic_schema_t *schema, const char *module,
                               const char *display)
{
	sdopobj_t *o = sdval_payload(a, sizeof *o);
	if (!o || !(o->kwargs = dalic_pydict_new(a)))
		return NULL;
	o->schema = schema;
	o->module = module;
	o->display = display;
	return dalic_pyval_host(a, &dalic_sdval_opobj_type, o);
}

pyval_t *dalic_sdval_new_pipedef(pyarena_t *a, pyval_t *func, pydict_t *kwargs, bool experimental)
{
	sdpipedef_t *d = sdval_payload(a, sizeof *d);
	if (!d)
		return NULL;
	d->func = func;
	d->kwargs = kwargs;
	d->experimental = experimental;
	return dalic_pyval_host(a, &dalic_sdval_pipedef_type, d);
}

pyval_t *dalic_sdval_unwrap(pyval_t *v)
{
	sdsconst_t *c = dalic_sdval_sconst(v);
	return c ? c->value : v;
}

static uint64_t sdval_mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

/* ---- enum members --------------------------------------------------------------------- */

const char *dalic_sdval_enum_name(int type, int64_t value)
{
	static const char *images[] = {"RGB", "BGR", "GRAY", "YCbCr", "ANY_DATA"};
	static const char *interps[] = {"INTERP_NN",       "INTERP_LINEAR",     "INTERP_CUBIC",
	                                "INTERP_LANCZOS3", "INTERP_TRIANGULAR", "INTERP_GAUSSIAN"};
	if (type == SDVAL_ENUM_DTYPE)
		return dalic_dtype_name((dalic_dtype_t)value);
	if (type == SDVAL_ENUM_IMAGE)
		return value >= 0 && value < 5 ? images[value] : "?";
	return value >= 0 && value < 6 ? interps[value] : "?";
}

static const char *sdval_enum_type_name(const pyval_t *v)
{
	int t = dalic_sdval_enum(v)->type;
	return t == SDVAL_ENUM_DTYPE   ? "DALIDataType"
	       : t == SDVAL_ENUM_IMAGE ? "DALIImageType"
	                               : "DALIInterpType";
}

static void sdval_enum_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	const sdenum_t *e = dalic_sdval_enum(v);
	const char *cls = sdval_enum_type_name(v), *name = dalic_sdval_enum_name(e->type, e->value);
	if (repr)
		dalic_pybuf_printf(b, "<%s.%s: %lld>", cls, name, (long long)e->value);
	else
		dalic_pybuf_printf(b, "%s.%s", cls, name);
}

static bool sdval_enum_equal(const pyval_t *x, const pyval_t *y)
{
	const sdenum_t *a = dalic_sdval_enum(x), *b = dalic_sdval_enum(y);
	return a->type == b->type && a->value == b->value;
}

static uint64_t sdval_enum_hash(const pyval_t *v)
{
	const sdenum_t *e = dalic_sdval_enum(v);
	return sdval_mix((uint64_t)e->type * 1000003u + (uint64_t)e->value);
}

static bool sdval_enum_index(const pyval_t *v, int64_t *out)
{
	*out = dalic_sdval_enum(v)->value;
	return true;
}

static int sdval_enum_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
                              pyval_t **out)
{
	const sdenum_t *e = dalic_sdval_enum(v);
	if (!strcmp(name, "name"))
		PYEVAL_RET(dalic_pyval_cstr(I->a, dalic_sdval_enum_name(e->type, e->value)));
	if (!strcmp(name, "value"))
		PYEVAL_RET(dalic_pyval_int(I->a, e->value));
	*out = NULL;
	return DALIC_OK;
}

const pytype_t dalic_sdval_enum_type = {
    .name = "DALIDataType",
    .type_name = sdval_enum_type_name,
    .format = sdval_enum_format,
    .equal = sdval_enum_equal,
    .hash = sdval_enum_hash,
    .is_by_value = true,
    .index = sdval_enum_index,
    .getattr = sdval_enum_getattr,
};

/* ---- ScalarConstant ------------------------------------------------------------------- */

static void sdval_sconst_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	const sdsconst_t *c = dalic_sdval_sconst(v);
	dalic_pyval_format(b, c->value, true);
	if (!repr)
		dalic_pybuf_printf(b, ":DALIDataType.%s",
		                   dalic_dtype_name((dalic_dtype_t)c->dtype));
}

static pyval_t *sdval_sconst_scalar(const pyval_t *v)
{
	return dalic_sdval_sconst(v)->value;
}

static int sdval_sconst_truth(pyinterp_t *I, const pynode_t *at, pyval_t *v, bool *out)
{
	return dalic_pyeval_truth(I, at, dalic_sdval_sconst(v)->value, out);
}

static int sdval_sconst_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
                                pyval_t **out)
{
	const sdsconst_t *c = dalic_sdval_sconst(v);
	*out = NULL;
	if (!strcmp(name, "value"))
		*out = c->value;
	else if (!strcmp(name, "dtype"))
		PYEVAL_RET(dalic_sdval_new_enum(I->a, SDVAL_ENUM_DTYPE, c->dtype));
	return DALIC_OK;
}

/* A ScalarConstant with another one or a DataNode is DALI arithmetic (sdval_node.c's
 * hooks); with a Python value it is its value. */
static int sdval_sconst_binop(pyinterp_t *I, const pynode_t *at, pyop_t op, pyval_t *l, pyval_t *r,
                              pyval_t **out)
{
	if ((dalic_sdval_sconst(l) && dalic_sdval_sconst(r)) || dalic_sdval_node(l) ||
	    dalic_sdval_node(r))
		return dalic_sdval_node_type.binop(I, at, op, l, r, out);
	return dalic_pyeval_binop(I, at, op, dalic_sdval_unwrap(l), dalic_sdval_unwrap(r), out);
}

static int sdval_sconst_compare(pyinterp_t *I, const pynode_t *at, pycmp_t op, pyval_t *l,
                                pyval_t *r, pyval_t **out)
{
	if (dalic_sdval_node(l) || dalic_sdval_node(r))
		return dalic_sdval_node_type.compare(I, at, op, l, r, out);
	return dalic_pyeval_compare(I, at, op, dalic_sdval_unwrap(l), dalic_sdval_unwrap(r), out);
}

const pytype_t dalic_sdval_sconst_type = {
    .name = "ScalarConstant",
    .format = sdval_sconst_format,
    .scalar = sdval_sconst_scalar,
    .truth = sdval_sconst_truth,
    .getattr = sdval_sconst_getattr,
    .binop = sdval_sconst_binop,
    .compare = sdval_sconst_compare,
};

/* ---- fn.x.y / ops.X ------------------------------------------------------------------- */

static void sdval_opfn_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	const sdopfn_t *f = dalic_sdval_opfn(v);
	dalic_pybuf_printf(b, "<function nvidia.dali.%s.%s>", f->ops_api ? "ops" : "fn", f->path);
}

static bool sdval_opfn_equal(const pyval_t *x, const pyval_t *y)
{
	const sdopfn_t *a = dalic_sdval_opfn(x), *b = dalic_sdval_opfn(y);
	return a->ops_api == b->ops_api && !strcmp(a->path, b->path);
}

static uint64_t sdval_opfn_hash(const pyval_t *v)
{
	const sdopfn_t *f = dalic_sdval_opfn(v);
	return dalic_pyval_hash_str(f->path, strlen(f->path)) ^ f->ops_api;
}

static int sdval_opfn_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
                              pyval_t **out)
{
	const sdopfn_t *f = dalic_sdval_opfn(v);
	const char *api = f->ops_api ? "ops" : "fn";
	if (strlen(f->path) + strlen(name) + 1 > SDVAL_MAX_OP_PATH)
		return dalic_pyeval_error(
		    I, at, DALIC_EUNKNOWN_OP,
		    "unknown operator %s.%.64s...: not in the dalic operator "
		    "registry (operator names are shorter than %d characters)",
		    api, f->path, SDVAL_MAX_OP_PATH);
	*out = NULL;
	if (!strncmp(name, "__", 2))
		return DALIC_OK; /* no dunder attributes: an AttributeError */
	const char *path = *f->path ? dalic_pyarena_printf(I->a, "%s.%s", f->path, name)
	                            : dalic_pyarena_strdup(I->a, name);
	if (!path)
		return dalic_pyeval_oom(I, at);
	/* a namespace, or an operator known here and now: `ops.HostDecoder` fails at its line */
	if (!dalic_sdalias_is_namespace(path) && !dalic_sdops_is_special(f->ops_api, path)) {
		const dalic_schema_t *s;
		const sdalias_t *legacy;
		DALIC_TRY(dalic_sdops_resolve(I, at, f->ops_api, path, &s, &legacy));
	}
	PYEVAL_RET(dalic_sdval_new_opfn(I->a, path, f->ops_api));
}

static int sdval_opfn_call(pyinterp_t *I, const pynode_t *at, pyval_t *v, const pyargs_t *args,
                           pyval_t **out)
{
	const sdopfn_t *f = dalic_sdval_opfn(v);
	return f->ops_api ? dalic_sdops_construct(I, at, f->path, args, out)
	                  : dalic_sdops_call_fn(I, at, f->path, args, out);
}

const pytype_t dalic_sdval_opfn_type = {
    .name = "function",
    .format = sdval_opfn_format,
    .equal = sdval_opfn_equal,
    .hash = sdval_opfn_hash,
    .is_by_value = true,
    .getattr = sdval_opfn_getattr,
    .call = sdval_opfn_call,
};

/* ---- ops-API operator objects --------------------------------------------------------- */

static const char *sdval_opobj_type_name(const pyval_t *v)
{
	return dalic_sdval_opobj(v)->display;
}

static void sdval_opobj_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	const sdopobj_t *o = dalic_sdval_opobj(v);
	dalic_pybuf_printf(b, "<%s.%s object>", o->module, o->display);
}

const pytype_t dalic_sdval_opobj_type = {
    .name = "operator",
    .type_name = sdval_opobj_type_name,
    .format = sdval_opobj_format,
    .call = dalic_sdops_call_object,
};

/* ---- @pipeline_def functions ---------------------------------------------------------- */

static void sdval_pipedef_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	dalic_pybuf_printf(b, "<function %s>", dalic_sdval_pipedef(v)->func->func->name);
}

static int sdval_pipedef_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
                                 pyval_t **out)
{
	*out = NULL;
	if (!strcmp(name, "_is_pipeline_def"))
		*out = dalic_pyval_true();
	else if (!strcmp(name, "_is_autoserialize"))
		*out = dalic_pyval_bool(dalic_sdval_pipedef(v)->autoserialize);
	else if (!strcmp(name, "__name__"))
		PYEVAL_RET(dalic_pyval_cstr(I->a, dalic_sdval_pipedef(v)->func->func->name));
	return DALIC_OK;
}

/* A @pipeline_def method read through an instance binds it, like a function does. */
static int sdval_pipedef_get(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t *obj,
                             pyclass_t *cls, pyval_t **out)
{
	if (!obj) {
		*out = v;
		return DALIC_OK;
	}
	const sdpipedef_t *d = dalic_sdval_pipedef(v);
	pyval_t *b = dalic_sdval_new_pipedef(I->a, d->func, d->kwargs, d->experimental);
	if (!b)
		return dalic_pyeval_oom(I, at);
	dalic_sdval_pipedef(b)->self = obj;
	*out = b;
	return DALIC_OK;
}

const pytype_t dalic_sdval_pipedef_type = {
    .name = "function",
    .format = sdval_pipedef_format,
    .getattr = sdval_pipedef_getattr,
    .call = dalic_sdpipe_call_def,
    .get = sdval_pipedef_get,
};
