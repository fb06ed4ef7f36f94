/*
 * types.Constant and constant promotion (docs/dali-behaviour.md §6.11). A Python scalar with no shape,
 * layout, device or extra arguments is a ScalarConstant that arithmetic inlines; anything
 * else becomes a `Constant` operator (fn.constant) with `fdata` or `idata`, `shape`, `dtype`
 * and optional `layout` — the dtype inferred as DALI does: any float -> FLOAT, ints ->
 * INT32, bools -> BOOL, empty -> FLOAT. Positional non-DataNode operator inputs and
 * constants returned from conditional branches go through the same path.
 */
#include "frontend/script/dali/sdconst.h"

#include "frontend/script/dali/sdnp.h"
#include "frontend/script/dali/sdops.h"
#include "frontend/script/dali/sdpipe.h"

#include "engine/dtype.h"

#include <string.h>

static bool sdconst_is_scalar(const pyval_t *v)
{
	return v->kind == PV_BOOL || v->kind == PV_INT || v->kind == PV_FLOAT;
}

static bool sdconst_int_like(int dtype)
{
	return dtype == DALIC_BOOL || (dtype >= DALIC_UINT8 && dtype <= DALIC_INT64);
}

/* The Constant operator for `value` with the given extras (NULL when absent). */
static int sdconst_constant_op(pyinterp_t *I, const pynode_t *at, pyval_t *value, int dtype,
                               pyval_t *shape, pyval_t *layout, const char *device,
                               const pyargs_t *extra, pyval_t **out)
{
	pyval_t **items = &value;
	int n = 1;
	bool seq = value->kind == PV_LIST || value->kind == PV_TUPLE;
	if (seq) {
		items = value->kind == PV_LIST ? value->list->items : value->tuple.items;
		n = value->kind == PV_LIST ? value->list->n : value->tuple.n;
	}
	bool floats = false, ints = false, bools = false;
	const sdenum_t *first_enum = NULL;
	for (int i = 0; i < n; i++) {
		pyval_t *e = dalic_sdval_unwrap(items[i]);
		floats |= e->kind == PV_FLOAT;
		ints |= e->kind == PV_INT;
		bools |= e->kind == PV_BOOL;
		if (!first_enum)
			first_enum = dalic_sdval_enum(e);
		if (!sdconst_is_scalar(e) && !dalic_sdval_enum(e)) {
			if (e->kind == PV_OPAQUE)
				return dalic_pyeval_opaque_error(I, at, e, "constant value");
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: cannot make a DALI constant from a value of type "
			    "'%s'%s",
			    dalic_pyval_type_name(e),
			    e->kind == PV_LIST || e->kind == PV_TUPLE
			        ? " (give a flat list and `shape=`)"
			        : "");
		}
	}
	int actual = floats       ? DALIC_FLOAT
	             : ints       ? DALIC_INT32
	             : bools      ? DALIC_BOOL
	             : first_enum ? DALIC_INT32
	                          : DALIC_FLOAT;
	if (dtype < 0 && first_enum)
		dtype = first_enum->type == SDVAL_ENUM_DTYPE   ? DALIC_DATA_TYPE
		        : first_enum->type == SDVAL_ENUM_IMAGE ? DALIC_IMAGE_TYPE
		                                               : DALIC_INTERP_TYPE;
	if (dtype < 0)
		dtype = actual;
	pyval_t *data = dalic_pyval_list(I->a, n);
	if (!data)
		return dalic_pyeval_oom(I, at);
	bool isint = sdconst_int_like(actual);
	for (int i = 0; i < n; i++) {
		pyval_t *e = dalic_sdval_unwrap(items[i]);
		pyval_t *x =
		    isint ? dalic_pyval_int(I->a, e->kind == PV_BOOL    ? e->b
		                                  : dalic_sdval_enum(e) ? dalic_sdval_enum(e)->value
		                                                        : e->i)
		          : dalic_pyval_float(I->a, dalic_pyval_as_double(e));
		if (!x || dalic_pyval_list_append(I->a, data, x))
			return dalic_pyeval_oom(I, at);
	}
	if (!shape) {
		shape = dalic_pyval_list(I->a, 1);
		pyval_t *len = dalic_pyval_int(I->a, n);
		if (!shape || !len || (seq && dalic_pyval_list_append(I->a, shape, len)))
			return dalic_pyeval_oom(I, at);
	}
	return dalic_sdconst_emit(I, at, data, isint, shape, dtype, layout, device, extra, out);
}

int dalic_sdconst_emit(pyinterp_t *I, const pynode_t *at, pyval_t *data, bool isint,
                       pyval_t *shape, int dtype, pyval_t *layout, const char *device,
                       const pyargs_t *extra, pyval_t **out)
{
	const dalic_schema_t *s = dalic_schema_find("Constant");
	if (!s)
		return dalic_pyeval_error(
		    I, at, DALIC_EUNSUPPORTED,
		    "constants need the Constant operator, which this dalic build does not "
		    "have yet");
	int cap = 6 + (extra ? extra->nkw : 0), k = 0;
	const char **names = dalic_pyarena_alloc(I->a, sizeof *names * (size_t)cap);
	pyval_t **vals = dalic_pyarena_alloc(I->a, sizeof *vals * (size_t)cap);
	pyval_t *dev = dalic_pyval_cstr(I->a, device ? device : "cpu");
	pyval_t *dt = dalic_sdval_new_enum(I->a, SDVAL_ENUM_DTYPE, dtype);
	if (!names || !vals || !dev || !dt)
		return dalic_pyeval_oom(I, at);
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
	sdopcall_t c = {.schema = s,
	                .module = "nvidia.dali.fn",
	                .display = "constant",
	                .api_name = "nvidia.dali.fn.constant",
	                .kwnames = names,
	                .kwvals = vals,
	                .nkw = k};
	return dalic_sdops_invoke(I, at, &c, out);
}

int dalic_sdconst_node(pyinterp_t *I, const pynode_t *at, pyval_t *value, int dtype,
                       const char *device, pyval_t **out)
{
	if (dalic_sdnp_is(value))
		return dalic_sdnp_constant(I, at, value, dtype, NULL, NULL, device, NULL, out);
	return sdconst_constant_op(I, at, value, dtype, NULL, NULL, device, NULL, out);
}

int dalic_sdconst_output_node(pyinterp_t *I, const pynode_t *at, pyval_t *value, int dtype,
                              pyval_t **out)
{
	DALIC_TRY(sdconst_constant_op(I, at, value, dtype, NULL, NULL, "cpu", NULL, out));
	sdpipe_t *P = dalic_sdali_current(I);
	dalic_opdef_t *op = P->def->ops[P->def->num_ops - 1];
	const char *name = dalic_pyarena_printf(I->a, "__Constant_detached_%d",
	                                        dalic_sdali_state(I)->detached++);
	if (!name)
		return dalic_pyeval_oom(I, at);
	int rc = dalic_graphdef_op_name_new(op, name, false);
	if (rc)
		return dalic_pyeval_relocate(I, at, rc);
	dalic_sdval_node(*out)->name = dalic_pyarena_strdup(I->a, op->outputs[0]);
	return dalic_sdval_node(*out)->name ? DALIC_OK : dalic_pyeval_oom(I, at);
}

static int sdconst_dtype_of(pyinterp_t *I, const pynode_t *at, pyval_t *v, int *dtype)
{
	*dtype = -1;
	if (!v || v->kind == PV_NONE)
		return DALIC_OK;
	if (dalic_pynp_dtype(v))
		return dalic_sdnp_dtype_error(I, at, "types.Constant(dtype=...)", v);
	if (!dalic_sdval_enum(v) || dalic_sdval_enum(v)->type != SDVAL_ENUM_DTYPE)
		return dalic_pyeval_error(I, at, DALIC_EARG_TYPE,
		                          "types.Constant: dtype must be a DALIDataType, not %s",
		                          dalic_pyval_type_name(v));
	*dtype = (int)dalic_sdval_enum(v)->value;
	return DALIC_OK;
}

int dalic_sdconst_types_constant(pyinterp_t *I, const pynode_t *at, const pyargs_t *args,
                                 pyval_t **out)
{
	static const char *const names[] = {"value", "dtype", "shape", "layout", "device"};
	pyval_t *v[5] = {0};
	if (args->npos > 5)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: Constant() takes at most 5 arguments");
	for (int i = 0; i < args->npos; i++)
		v[i] = args->pos[i];
	pyargs_t extra = {
	    .kwnames = dalic_pyarena_alloc(I->a, sizeof(char *) * (size_t)(args->nkw + 1)),
	    .kwvals = dalic_pyarena_alloc(I->a, sizeof(pyval_t *) * (size_t)(args->nkw + 1))};
	if (!extra.kwnames || !extra.kwvals)
		return dalic_pyeval_oom(I, at);
	for (int k = 0; k < args->nkw; k++) {
		int i = 0;
		while (i < 5 && strcmp(names[i], args->kwnames[k]))
			i++;
		if (i < 5) {
			if (v[i])
				return dalic_pyeval_error(
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
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL, "TypeError: Constant() missing required argument 'value'");
	int dtype;
	DALIC_TRY(sdconst_dtype_of(I, at, v[1], &dtype));
	for (int i = 2; i < 5; i++)
		if (v[i] && v[i]->kind == PV_NONE)
			v[i] = NULL;
	if (v[4] && v[4]->kind != PV_STR)
		return dalic_pyeval_error(I, at, DALIC_EARG_TYPE,
		                          "types.Constant: device must be a string");
	bool scalar_shape =
	    !v[2] || (v[2]->kind == PV_INT && v[2]->i == 1) ||
	    ((v[2]->kind == PV_LIST && v[2]->list->n == 1 && v[2]->list->items[0]->kind == PV_INT &&
	      v[2]->list->items[0]->i == 1));
	bool enum_type =
	    dtype == DALIC_DATA_TYPE || dtype == DALIC_IMAGE_TYPE || dtype == DALIC_INTERP_TYPE;
	if (dalic_sdnp_is(v[0])) {
		/* a 0-d numpy value is a ScalarConstant of its dtype unless more is asked */
		pynp_array_t *a = dalic_pynp_array(v[0]);
		if (a->ndim == 0 && !v[4] && scalar_shape && !v[3] && !extra.nkw && !enum_type) {
			*out = dalic_sdval_new_sconst(I->a, a->py, dtype >= 0 ? dtype : a->dtype);
			return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
		}
		return dalic_sdnp_constant(I, at, v[0], dtype, v[2], v[3], v[4] ? v[4]->str.s : NULL,
		                           &extra, out);
	}
	if (sdconst_is_scalar(v[0]) && !v[4] && scalar_shape && !v[3] && !extra.nkw && !enum_type) {
		int dt = dtype >= 0              ? dtype
		         : v[0]->kind == PV_BOOL ? DALIC_BOOL
		         : v[0]->kind == PV_INT  ? DALIC_INT32
		                                 : DALIC_FLOAT;
		*out = dalic_sdval_new_sconst(I->a, v[0], dt);
		return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
	}
	pyval_t *shape = v[2];
	if (shape && shape->kind == PV_INT) {
		pyval_t *l = dalic_pyval_list(I->a, 1);
		if (!l || dalic_pyval_list_append(I->a, l, shape))
			return dalic_pyeval_oom(I, at);
		shape = l;
	}
	return sdconst_constant_op(I, at, v[0], dtype, shape, v[3], v[4] ? v[4]->str.s : NULL,
	                           &extra, out);
}
