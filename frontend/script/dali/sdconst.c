/*
 * types.Constant and constant promotion (reference §6.11). A Python scalar with no shape,
 * layout, device or extra arguments is a ScalarConstant that arithmetic inlines; anything
 * else becomes a `Constant` operator (fn.constant) with `fdata` or `idata`, `shape`, `dtype`
 * and optional `layout` — the dtype inferred as DALI does: any float -> FLOAT, ints ->
 * INT32, bools -> BOOL, empty -> FLOAT. Positional non-DataNode operator inputs and
 * constants returned from conditional branches go through the same path.
 */
#include "frontend/script/py/pystate.h"

#include "engine/dtype.h"

#include <string.h>

#define TRY(x)                                                                                     \
	do {                                                                                       \
		int rc_ = (x);                                                                     \
		if (rc_)                                                                           \
			return rc_;                                                                \
	} while (0)

static bool is_scalar(const sv_t *v)
{
	return v->kind == SV_BOOL || v->kind == SV_INT || v->kind == SV_FLOAT;
}

static bool int_like(int dtype)
{
	return dtype == DALIC_BOOL || (dtype >= DALIC_UINT8 && dtype <= DALIC_INT64);
}

/* The Constant operator for `value` with the given extras (NULL when absent). */
static int constant_op(sinterp_t *I, const snode_t *at, sv_t *value, int dtype, sv_t *shape,
                       sv_t *layout, const char *device, const sargs_t *extra, sv_t **out)
{
	const dalic_schema_t *s = dalic_schema_find("Constant");
	if (!s)
		return serr(I, at, DALIC_EUNSUPPORTED,
		            "constants need the Constant operator, which this dalic build does not "
		            "have yet");
	sv_t **items = &value;
	int n = 1;
	bool seq = value->kind == SV_LIST || value->kind == SV_TUPLE;
	if (seq) {
		items = value->kind == SV_LIST ? value->list->items : value->tuple.items;
		n = value->kind == SV_LIST ? value->list->n : value->tuple.n;
	}
	bool floats = false, ints = false, bools = false, enums = false;
	for (int i = 0; i < n; i++) {
		sv_t *e = items[i]->kind == SV_SCONST ? items[i]->sconst.value : items[i];
		floats |= e->kind == SV_FLOAT;
		ints |= e->kind == SV_INT;
		bools |= e->kind == SV_BOOL;
		enums |= e->kind == SV_ENUM;
		if (!is_scalar(e) && e->kind != SV_ENUM) {
			if (e->kind == SV_OPAQUE)
				return serr_opaque(I, at, e, "constant value");
			return serr(I, at, DALIC_EINVAL,
			            "TypeError: cannot make a DALI constant from a value of type "
			            "'%s'%s",
			            sv_type_name(e),
			            e->kind == SV_LIST || e->kind == SV_TUPLE
			                ? " (give a flat list and `shape=`)"
			                : "");
		}
	}
	int actual = floats  ? DALIC_FLOAT
	             : ints  ? DALIC_INT32
	             : bools ? DALIC_BOOL
	             : enums ? DALIC_INT32
	                     : DALIC_FLOAT;
	if (dtype < 0 && enums) {
		sv_t *e = items[0];
		dtype = e->en.type == ENUM_DTYPE   ? DALIC_DATA_TYPE
		        : e->en.type == ENUM_IMAGE ? DALIC_IMAGE_TYPE
		                                   : DALIC_INTERP_TYPE;
	}
	if (dtype < 0)
		dtype = actual;
	sv_t *data = sv_list(I->a, n);
	if (!data)
		return serr_oom(I, at);
	bool isint = int_like(actual);
	for (int i = 0; i < n; i++) {
		sv_t *e = items[i]->kind == SV_SCONST ? items[i]->sconst.value : items[i];
		sv_t *x = isint ? sv_int(I->a, e->kind == SV_BOOL   ? e->b
		                               : e->kind == SV_ENUM ? e->en.value
		                                                    : e->i)
		                : sv_float(I->a, sv_as_double(e));
		if (!x || sv_list_append(I->a, data, x))
			return serr_oom(I, at);
	}
	if (!shape) {
		shape = sv_list(I->a, 1);
		sv_t *len = sv_int(I->a, n);
		if (!shape || !len || (seq && sv_list_append(I->a, shape, len)))
			return serr_oom(I, at);
	}
	int cap = 6 + (extra ? extra->nkw : 0), k = 0;
	const char **names = script_arena_alloc(I->a, sizeof *names * (size_t)cap);
	sv_t **vals = script_arena_alloc(I->a, sizeof *vals * (size_t)cap);
	sv_t *dev = sv_cstr(I->a, device ? device : "cpu");
	sv_t *dt = sv_enum(I->a, ENUM_DTYPE, dtype);
	if (!names || !vals || !dev || !dt)
		return serr_oom(I, at);
	names[k] = "device";
	vals[k++] = dev;
	names[k] = isint ? "idata" : "fdata";
	vals[k++] = data;
	names[k] = "shape";
	vals[k++] = shape;
	names[k] = "dtype";
	vals[k++] = dt;
	if (layout) {
		names[k] = "layout";
		vals[k++] = layout;
	}
	for (int i = 0; extra && i < extra->nkw; i++) {
		names[k] = extra->kwnames[i];
		vals[k++] = extra->kwvals[i];
	}
	sopcall_t c = {.schema = s,
	               .module = "nvidia.dali.fn",
	               .display = "constant",
	               .api_name = "nvidia.dali.fn.constant",
	               .kwnames = names,
	               .kwvals = vals,
	               .nkw = k};
	return so_invoke(I, at, &c, out);
}

int so_constant_node(sinterp_t *I, const snode_t *at, sv_t *value, int dtype, const char *device,
                     sv_t **out)
{
	return constant_op(I, at, value, dtype, NULL, NULL, device, NULL, out);
}

static int dtype_of(sinterp_t *I, const snode_t *at, sv_t *v, int *dtype)
{
	*dtype = -1;
	if (!v || v->kind == SV_NONE)
		return DALIC_OK;
	if (v->kind != SV_ENUM || v->en.type != ENUM_DTYPE)
		return serr(I, at, DALIC_EARG_TYPE,
		            "types.Constant: dtype must be a DALIDataType, not %s",
		            sv_type_name(v));
	*dtype = (int)v->en.value;
	return DALIC_OK;
}

int so_types_constant(sinterp_t *I, const snode_t *at, const sargs_t *args, sv_t **out)
{
	static const char *const names[] = {"value", "dtype", "shape", "layout", "device"};
	sv_t *v[5] = {0};
	if (args->npos > 5)
		return serr(I, at, DALIC_EINVAL, "TypeError: Constant() takes at most 5 arguments");
	for (int i = 0; i < args->npos; i++)
		v[i] = args->pos[i];
	sargs_t extra = {
	    .kwnames = script_arena_alloc(I->a, sizeof(char *) * (size_t)(args->nkw + 1)),
	    .kwvals = script_arena_alloc(I->a, sizeof(sv_t *) * (size_t)(args->nkw + 1))};
	if (!extra.kwnames || !extra.kwvals)
		return serr_oom(I, at);
	for (int k = 0; k < args->nkw; k++) {
		int i = 0;
		while (i < 5 && strcmp(names[i], args->kwnames[k]))
			i++;
		if (i < 5) {
			if (v[i])
				return serr(
				    I, at, DALIC_EINVAL,
				    "TypeError: Constant() got multiple values for argument "
				    "'%s'",
				    names[i]);
			v[i] = args->kwvals[k];
		} else {
			extra.kwnames[extra.nkw] = args->kwnames[k];
			extra.kwvals[extra.nkw++] = args->kwvals[k];
		}
	}
	if (!v[0])
		return serr(I, at, DALIC_EINVAL,
		            "TypeError: Constant() missing required argument 'value'");
	int dtype;
	TRY(dtype_of(I, at, v[1], &dtype));
	for (int i = 2; i < 5; i++)
		if (v[i] && v[i]->kind == SV_NONE)
			v[i] = NULL;
	if (v[4] && v[4]->kind != SV_STR)
		return serr(I, at, DALIC_EARG_TYPE, "types.Constant: device must be a string");
	bool scalar_shape =
	    !v[2] || (v[2]->kind == SV_INT && v[2]->i == 1) ||
	    ((v[2]->kind == SV_LIST && v[2]->list->n == 1 && v[2]->list->items[0]->kind == SV_INT &&
	      v[2]->list->items[0]->i == 1));
	bool enum_type =
	    dtype == DALIC_DATA_TYPE || dtype == DALIC_IMAGE_TYPE || dtype == DALIC_INTERP_TYPE;
	if (is_scalar(v[0]) && !v[4] && scalar_shape && !v[3] && !extra.nkw && !enum_type) {
		sv_t *c = sv_new(I->a, SV_SCONST);
		if (!c)
			return serr_oom(I, at);
		c->sconst.value = v[0];
		c->sconst.dtype = dtype >= 0              ? dtype
		                  : v[0]->kind == SV_BOOL ? DALIC_BOOL
		                  : v[0]->kind == SV_INT  ? DALIC_INT32
		                                          : DALIC_FLOAT;
		*out = c;
		return DALIC_OK;
	}
	sv_t *shape = v[2];
	if (shape && shape->kind == SV_INT) {
		sv_t *l = sv_list(I->a, 1);
		if (!l || sv_list_append(I->a, l, shape))
			return serr_oom(I, at);
		shape = l;
	}
	return constant_op(I, at, v[0], dtype, shape, v[3], v[4] ? v[4]->str.s : NULL, &extra, out);
}
